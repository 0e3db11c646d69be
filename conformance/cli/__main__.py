"""``python -m conformance.cli``: the ``croupier`` command."""

from conformance.cli import main

main()
