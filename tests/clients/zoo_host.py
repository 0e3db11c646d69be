"""One process that serves many mutants, each on a port of its own: the zoo tests' engines.

``python -m tests.clients.zoo_host NAME...`` serves each named mutant through its kit as
``python -m croupier.clients.mutants NAME`` does (``adapter.serve`` with the same defaults), prints
``NAME host:port`` for each, serves until its standard input closes, then exits at once: a
mutant that hangs keeps a thread blocked for good, which a normal exit would wait for.

One engine process for the whole zoo instead of one launched per mutant: the runner plays the
same vectors against the same engines, without a hundred Python and gRPC start-ups.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from croupier.clients import adapter
from croupier.clients.mutants import LAB_MUTANTS, MUTANTS

ROOT = Path(__file__).resolve().parents[2]
#: How long the host may take to serve every mutant it is given, in seconds.
READY_SECONDS = 120
#: How long it may take to exit once its standard input is closed.
STOP_SECONDS = 30


@contextmanager
def hosting(names: Iterable[str], log: Path) -> Iterator[dict[str, str]]:
    """Serve these mutants from one process; yields each one's address by name.

    The host's standard error goes to ``log``, named in the error if it does not start.
    """
    wanted = list(names)
    with log.open("wb") as errors:
        host = subprocess.Popen(  # noqa: S603 - this interpreter, this module, mutant names
            [sys.executable, "-m", "tests.clients.zoo_host", *wanted],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
        )
        # A host that never gets ready is killed: its output ends, and so does the wait.
        deadline = threading.Timer(READY_SECONDS, host.kill)
        deadline.start()
        try:
            assert host.stdout is not None
            addresses: dict[str, str] = {}
            for line in host.stdout:
                name, address = line.split()
                addresses[name] = address
                if len(addresses) == len(wanted):
                    break
            deadline.cancel()
            assert set(addresses) == set(wanted), f"the zoo host did not start; see {log}"
            yield addresses
        finally:
            deadline.cancel()
            assert host.stdin is not None
            host.stdin.close()
            try:
                host.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                host.kill()
                host.wait()


def main(names: list[str]) -> None:
    """Serve every named mutant, print its address, and serve until standard input closes."""
    served = []
    for name in names:
        mutant = MUTANTS.get(name) or LAB_MUTANTS[name]
        running = adapter.serve(mutant.factory(), port=0, kit=mutant.kit)
        served.append(running)
        print(f"{name} 127.0.0.1:{running.port}", flush=True)  # noqa: T201 - the host's answer
    sys.stdin.read()
    # At once, without stopping the servers: a hung mutant's thread would never be joined.
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
