"""Generated code of the ``croupier.v1`` contract (``make generate``); do not edit the _pb2 files."""
