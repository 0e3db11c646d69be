"""The demo engine as a real process writing its audit log: start it, drive it, stop it."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from croupier.clients.client import CroupierClient
from tests.clients.conftest import baccarat_deal

REPO = Path(__file__).resolve().parents[2]


def settle(address: str, round_ids: list[str]) -> None:
    """Deal and settle one baccarat round per id (a banker natural: 100 returns 195)."""
    with CroupierClient.connect(address, timeout=30) as client:
        for round_id in round_ids:
            client.deal(baccarat_deal(round_id))
            client.settle(round_id)


def run_engine(
    args: list[object],
    stderr: Path,
    *,
    preexec: Callable[[], None] | None = None,
) -> subprocess.Popen[bytes]:
    """The demo engine as a process; returns once it prints its ready line.

    Run with faulthandler: a stop that hangs shows every thread's stack in ``stderr``.
    """
    with stderr.open("wb") as errors:
        process = subprocess.Popen(  # noqa: S603 - our own interpreter and module
            [
                sys.executable,
                "-X",
                "faulthandler",
                "-m",
                "croupier.clients.demo_engine",
                *map(str, args),
            ],
            stdout=subprocess.PIPE,
            stderr=errors,
            cwd=REPO,
            preexec_fn=preexec,  # noqa: PLW1509 - sets a resource limit, nothing threaded
        )
    assert process.stdout is not None
    line = process.stdout.readline().decode()
    if not line.startswith("CROUPIER_ENGINE "):
        process.kill()
        process.wait(30)
        pytest.fail(f"the engine did not start: {line!r} {stderr.read_text()}")
    process.address = line.split()[1]  # type: ignore[attr-defined]
    return process


def refused(args: list[object], stderr: Path) -> str:
    """The demo engine refuses to start (exit 2, no ready line); its error output."""
    with stderr.open("wb") as errors:
        done = subprocess.run(  # noqa: S603 - our own interpreter and module
            [sys.executable, "-m", "croupier.clients.demo_engine", *map(str, args)],
            stdout=subprocess.PIPE,
            stderr=errors,
            cwd=REPO,
            timeout=60,
            check=False,
        )
    assert not done.stdout.startswith(b"CROUPIER_ENGINE "), "the engine started"
    assert done.returncode == 2, stderr.read_text()
    return stderr.read_text()


def stop(process: subprocess.Popen[bytes], stderr: Path) -> int:
    """SIGTERM, as an operator stops the engine; its exit code."""
    process.terminate()
    try:
        return process.wait(60)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)  # faulthandler writes the stacks, then it dies
        process.wait(30)
        pytest.fail(f"the engine did not stop on SIGTERM:\n{stderr.read_text()}")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)
