"""Croupier's conformance suite: vectors, the runner, reports, and the ``croupier`` command."""
