"""``python -m conformance.cli``: the ``croupier`` command."""

from conformance.cli import main

main(prog_name="croupier")  # one name in usage lines, and one completion variable
