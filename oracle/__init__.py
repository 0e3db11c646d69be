"""Croupier's reference oracle: the exact rules of the operator documents.

The oracle is a pure library: it imports neither grpc nor protobuf nor the
generated code; only ``oracle.service``, its gRPC edge, does. Every rule it
applies can be cited by its clause ID from RULES.md.
"""

__version__ = "0.1.0"
