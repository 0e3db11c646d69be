"""``python -m croupier.conformance.cli``: the ``croupier`` command."""

from croupier.conformance.cli import main

# Guarded: a LocalCluster's worker processes (--dask local:N) import the main module again.
if __name__ == "__main__":
    main(prog_name="croupier")  # one name in usage lines, and one completion variable
