"""make memory: explore's and certify's RSS over a long run against ``croupier serve``.

``python -m bench.memory [--minutes 60]``. Issue 30 item 4: explore and certify stay flat
over a one-hour run. Each client runs on its own ``croupier serve`` for the whole span, one
after the other: ``croupier explore`` with a budget past M minutes, then ``croupier certify --explore N`` with
N too large to finish (its corpus, then explored rounds), each stopped by SIGTERM at M minutes.
The RSS of the client and of its server is read from ``/proc`` through the run; "flat" is the
soak's rule (``bench.soak``): the RSS at the end at most ``RSS_GROWTH_MIB`` above its RSS after
the warm-up, or ``RSS_GROWTH_SHARE`` of it if that is more. Exits 1 when a client grows more.
The server's own figure is printed beside it: its bounded round book and table boards fill
over the first minutes (``make soak`` holds the server to the rule).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.soak import RSS_GROWTH_MIB, RSS_GROWTH_SHARE

#: Samples of the RSS after the warm-up; the last one is the end figure.
SAMPLES = 20
#: The warm-up: this share of the span, and at least ``WARM_UP_MIN_SECONDS``.
WARM_UP_SHARE = 0.1
WARM_UP_MIN_SECONDS = 30.0
#: Rounds per profile certify is asked to explore: more than any span here lets it play.
CERTIFY_EXPLORE = 10_000_000


def rss_mib(pid: int) -> float | None:
    """The process's resident set in MiB (Linux ``VmRSS``); None once it has exited."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class Trace:
    """One client's RSS samples after the warm-up, and its server's, in MiB."""

    name: str
    client: tuple[float, ...]
    server: tuple[float, ...]
    seconds: float

    @staticmethod
    def growth(samples: tuple[float, ...]) -> float:
        """End minus the first sample after the warm-up."""
        return samples[-1] - samples[0] if samples else 0.0

    @property
    def flat(self) -> bool:
        """The client's growth within the soak's allowance."""
        if len(self.client) < 2:
            return False
        allowed = max(RSS_GROWTH_MIB, RSS_GROWTH_SHARE * self.client[0])
        return self.growth(self.client) <= allowed

    def line(self) -> str:
        """The client's and its server's figures on one line."""
        verdict = "flat" if self.flat else "GROWS"
        if len(self.client) < 2:
            return f"{self.name}: ended before its warm-up was over: no figure"
        return (
            f"{self.name}: {verdict}: RSS {self.client[0]:.0f} MiB after warm-up, "
            f"{self.client[-1]:.0f} at the end ({self.growth(self.client):+.1f}), "
            f"peak {max(self.client):.0f}, over {self.seconds / 60:.1f} min; "
            f"its croupier serve {self.server[0]:.0f} -> {self.server[-1]:.0f} MiB"
        )


def _serve() -> tuple[subprocess.Popen[str], str]:
    argv = [sys.executable, "-m", "croupier.conformance.cli", "serve", "--port", "0"]
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    line = server.stdout.readline()
    if not line.startswith("CROUPIER_ENGINE "):
        server.kill()
        raise RuntimeError("croupier serve did not start")
    return server, line.split()[-1]


def trace(name: str, client_args: list[str], seconds: float) -> Trace:
    """Run one client against its own server for ``seconds``, sampling both RSS."""
    server, address = _serve()
    argv = [sys.executable, "-m", "croupier.conformance.cli", *client_args, "--target", address]
    client = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started = time.monotonic()
    warm = max(WARM_UP_MIN_SECONDS, WARM_UP_SHARE * seconds)
    every = (seconds - warm) / (SAMPLES - 1)
    clients: list[float] = []
    servers: list[float] = []
    try:
        for index in range(SAMPLES):
            deadline = started + warm + index * every
            while client.poll() is None and time.monotonic() < deadline:
                time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))
            if client.poll() is not None:
                break
            mine, theirs = rss_mib(client.pid), rss_mib(server.pid)
            if mine is None or theirs is None:
                break
            clients.append(mine)
            servers.append(theirs)
    finally:
        if client.poll() is None:
            client.send_signal(signal.SIGTERM)
            client.wait(timeout=60)
        server.terminate()
        server.wait(timeout=60)
    return Trace(
        name=name,
        client=tuple(clients),
        server=tuple(servers),
        seconds=time.monotonic() - started,
    )


def main() -> None:
    """Trace explore, then certify, as the command line says; exit 1 when one grows."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--minutes", type=float, default=60.0, help="each client's span (default 60)"
    )
    args = parser.parse_args()
    seconds = args.minutes * 60
    print(
        f"memory: explore, then certify --explore, each {args.minutes:g} min against its own "
        f"croupier serve (python {sys.version.split()[0]}, {os.cpu_count()} cpus)",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        traces = [
            trace(
                "explore",
                # A budget past the span: the run is sampled whole, then stopped.
                [
                    "explore",
                    "--minutes",
                    f"{args.minutes + 1:g}",
                    "--out",
                    str(out / "found.jsonl"),
                ],
                seconds,
            ),
            trace(
                "certify --explore",
                [
                    "certify",
                    "--explore",
                    str(CERTIFY_EXPLORE),
                    "--report",
                    os.devnull,
                    "--explore-out",
                    str(out / "certify-found.jsonl"),
                ],
                seconds,
            ),
        ]
    for each in traces:
        print(each.line(), flush=True)
    sys.exit(0 if all(each.flat for each in traces) else 1)


if __name__ == "__main__":
    main()
