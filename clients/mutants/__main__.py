"""Serve one mutant: ``python -m croupier.clients.mutants NAME [--host H] [--port P] [--audit-log F]``.

Prints ``CROUPIER_ENGINE host:port`` when ready, like the demo engine; ``--list`` lists the zoo
(the lab profiles' mutants, then the recovery mutants, which want ``--state-dir DIR``, last).
"""

from __future__ import annotations

import os
import sys

from croupier.clients import adapter
from croupier.clients.mutants import LAB_MUTANTS, MUTANTS, RECOVERY_MUTANTS


def main(argv: list[str]) -> None:
    """Serve the mutant named first on the command line; the rest goes to the adapter kit."""
    if not argv or argv[0] in ("-h", "--help", "--list"):
        try:
            for listed in (*MUTANTS.values(), *LAB_MUTANTS.values(), *RECOVERY_MUTANTS.values()):
                line = (
                    f"{listed.name:36} {listed.profile:18} {listed.clause:18} {listed.description}"
                )
                print(line)  # noqa: T201
            sys.stdout.flush()
        except BrokenPipeError:
            # The reader (``| head``) has what it wanted: end quietly, as ``ls | head`` does.
            # Python would still flush stdout at exit and report that pipe too.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        sys.exit(0 if argv else 2)
    name, rest = argv[0], argv[1:]
    mutant = MUTANTS.get(name) or LAB_MUTANTS.get(name) or RECOVERY_MUTANTS.get(name)
    if mutant is None:
        print(  # noqa: T201
            f"no mutant {name!r}; python -m croupier.clients.mutants --list names them",
            file=sys.stderr,
        )
        sys.exit(2)
    adapter.main(mutant.factory(), rest, kit=mutant.kit)


if __name__ == "__main__":
    main(sys.argv[1:])
