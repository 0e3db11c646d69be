"""blackjack21 5.0.0 wrapped for Croupier (engine.py), its lab profile and known failures."""
