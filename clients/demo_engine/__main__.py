"""Serve the demo engine: ``python -m croupier.clients.demo_engine [--lab-tables] [--host H] [--port P] ...``.

``--lab-tables`` also plays the lab profiles of docs/examples/ (``rules.LAB_TABLES``).
"""

import sys

from croupier.clients import adapter
from croupier.clients.demo_engine import HOUSE_RULES, LAB_TABLES, DemoEngine

if __name__ == "__main__":
    argv = sys.argv[1:]
    tables = dict(HOUSE_RULES)
    if "--lab-tables" in argv:
        argv.remove("--lab-tables")
        tables.update(LAB_TABLES)
    adapter.main(DemoEngine(tables), argv)
