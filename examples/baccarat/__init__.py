"""pybaccarat 0.10 wrapped for Croupier (engine.py), its lab profile and known failures."""
