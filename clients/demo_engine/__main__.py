"""Serve the demo engine: ``python -m clients.demo_engine [--lab-tables] [--host H] [--port P] ...``.

``--lab-tables`` also plays the lab profiles of docs/examples/ (``rules.LAB_TABLES``).
"""

import sys

from clients import adapter
from clients.demo_engine import HOUSE_RULES, LAB_TABLES, DemoEngine

if __name__ == "__main__":
    argv = sys.argv[1:]
    tables = dict(HOUSE_RULES)
    if "--lab-tables" in argv:
        argv.remove("--lab-tables")
        tables.update(LAB_TABLES)
    adapter.main(DemoEngine(tables), argv)
