"""Serve the demo engine: ``python -m clients.demo_engine [--host H] [--port P] [--audit-log F]``."""

from clients import adapter
from clients.demo_engine import DemoEngine

if __name__ == "__main__":
    adapter.main(DemoEngine())
