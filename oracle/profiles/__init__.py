"""Shipped rule profiles (TOML data files), read with importlib.resources."""
