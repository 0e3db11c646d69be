"""Engines we did not write, from PyPI, wrapped for Croupier: one directory per game."""
