"""The adapter kit's command line: its name, its bounds and TLS options, a busy port."""

from __future__ import annotations

import re
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import trustme

from clients.client import CroupierClient, CroupierError
from tests.clients.conftest import blackjack_deal

REPO = Path(__file__).resolve().parents[2]
DEMO = (sys.executable, "-m", "clients.demo_engine")
#: 8 and 5 against a 9 up: the round waits for a decision, so it stays open.
WAITS = "8H 9D 5C 7S TC 2D"


def _start(*args: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(  # noqa: S603 - our own interpreter
        [*DEMO, *args], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 30)
    assert ready, "the demo engine printed nothing in 30 s"
    line = proc.stdout.readline().strip()
    assert re.fullmatch(r"CROUPIER_ENGINE 127\.0\.0\.1:\d+", line), line
    return proc, line.split()[1]


@pytest.fixture
def one_round_engine() -> Iterator[str]:
    proc, address = _start("--max-open-rounds", "1")
    yield address
    proc.terminate()
    proc.wait(30)


def test_the_help_names_the_command_as_typed() -> None:
    # Before: "usage: __main__.py".
    result = subprocess.run(  # noqa: S603 - our own interpreter
        [*DEMO, "--help"], cwd=REPO, capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.startswith("usage: python -m clients.demo_engine ")
    for option in ("--max-open-rounds", "--round-ttl", "--grace", "--tls-cert", "--tls-key"):
        assert option in result.stdout


def test_max_open_rounds_bounds_the_book(one_round_engine: str) -> None:
    with CroupierClient.connect(one_round_engine) as client:
        client.deal(blackjack_deal("kit-open-1", WAITS))
        with pytest.raises(CroupierError) as caught:
            client.deal(blackjack_deal("kit-open-2", WAITS))
    assert caught.value.reason == "TOO_MANY_OPEN_ROUNDS"
    assert caught.value.metadata["limit"] == "1"


def test_a_second_engine_on_a_busy_port_exits_3() -> None:
    # Before: gRPC's SO_REUSEPORT let it share the port and half the rounds' calls.
    first, address = _start("--port", "0")
    try:
        port = address.rsplit(":", 1)[1]
        second = subprocess.run(  # noqa: S603 - our own interpreter
            [*DEMO, "--port", port],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert second.returncode == 3, second.stderr
        assert f"cannot listen on 127.0.0.1:{port}: address already in use" in second.stderr
        assert "CROUPIER_ENGINE" not in second.stdout
    finally:
        first.terminate()
        first.wait(30)


def test_tls_files_swapped_are_named(tmp_path: Path) -> None:
    ca = trustme.CA()
    issued = ca.issue_cert("127.0.0.1")
    cert, key = tmp_path / "server.pem", tmp_path / "server.key"
    issued.cert_chain_pems[0].write_to_path(str(cert))
    issued.private_key_pem.write_to_path(str(key))
    swapped = subprocess.run(  # noqa: S603 - our own interpreter
        [*DEMO, "--tls-cert", str(key), "--tls-key", str(cert)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert swapped.returncode == 2
    assert "swapped" in swapped.stderr
    # The right way round, the kit serves TLS.
    proc, address = _start("--tls-cert", str(cert), "--tls-key", str(key))
    try:
        ca_file = tmp_path / "ca.pem"
        ca.cert_pem.write_to_path(str(ca_file))
        from clients.client import Tls  # noqa: PLC0415 - this test alone needs it

        with CroupierClient.connect(address, tls=Tls(ca=ca_file)) as client:
            assert client.describe().name == "croupier-demo-engine"
    finally:
        proc.terminate()
        proc.wait(30)
