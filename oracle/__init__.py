"""Croupier's reference oracle: the exact rules of the operator documents.

The oracle is a pure library. It imports neither grpc nor generated code
(only ``oracle.wire`` and ``oracle.server`` do). Every rule it applies can be
cited by its clause ID from RULES.md.
"""

__version__ = "0.1.0"
