"""Croupier's reference oracle: the exact rules of the operator documents.

The oracle is a pure library: it imports neither grpc nor protobuf nor the
generated code; only ``oracle.service``, its gRPC edge, does. Every rule it
applies can be cited by its clause ID from RULES.md.
"""

#: Croupier's one version, semantic versioning: the package's (pyproject reads it here), the
#: suite's in every report, ``croupier --version``, the oracle's Describe and each shipped
#: vector's ``since``. A change of what the corpus expects of an engine bumps the minor
#: version (the major, from 1.0.0 on) and is listed in docs/CHANGES.md.
__version__ = "0.3.0"

from croupier.oracle import build as _build

#: The build that runs, chosen before any rules module is imported (``oracle.build``):
#: ``compiled: mypyc`` or ``pure Python``; ``croupier --version`` prints it.
BUILD = _build.select()
