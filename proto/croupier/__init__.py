"""Croupier's protobuf packages; ``croupier.v1`` holds the contract's generated code."""
