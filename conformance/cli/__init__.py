"""The ``croupier`` command: one front door to the oracle, the server and the suite.

One module per command group: ``serve``, ``profiles``, ``outcomes`` (shoe, spins),
``vectors``, ``certify``, ``explore``, ``audit``, ``report``, ``proto``; what they share is in
``common``. The group itself, ``main``, is in ``command``.
"""

from croupier.conformance.cli.command import main

__all__ = ["main"]
