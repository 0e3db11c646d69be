"""How to call ``croupier`` again: a command that runs as printed from the project root.

A reproduce command names the ``croupier`` that is running, as the user typed it
(``.venv/bin/croupier``, or ``croupier`` found on PATH); run any other way (``python -m
croupier.conformance.cli``, a test runner, the mutant zoo) it names this interpreter and the module.
Paths under the working directory are written relative to it, others in full.
"""

from __future__ import annotations

import os
import shlex
import sys


def croupier_command(argv0: str | None = None) -> str:
    """The shell words that start this ``croupier``."""
    typed = sys.argv[0] if argv0 is None else argv0
    if os.path.basename(typed) == "croupier":
        # No directory in it: the shell found it on PATH, and will again.
        return "croupier" if os.sep not in typed else shlex.quote(_from_here(typed))
    return f"{shlex.quote(_from_here(sys.executable))} -m croupier.conformance.cli"


def _from_here(path: str) -> str:
    # abspath, not resolve: a virtual environment's python is a symlink to the system's,
    # which would run without the environment's packages.
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute)
    if relative.startswith(os.pardir):
        return absolute
    return relative if os.sep in relative else os.path.join(os.curdir, relative)
