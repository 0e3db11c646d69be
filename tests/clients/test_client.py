"""The typed client: refusals as CroupierError, deadlines, an unreachable server, TLS and mTLS."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import trustme

from croupier.clients import adapter
from croupier.clients.adapter import DealInput
from croupier.clients.client import (
    CroupierClient,
    CroupierError,
    DeadlineExceededError,
    Tls,
    UnavailableError,
    connect,
)
from croupier.clients.demo_engine import DemoEngine
from croupier.v1 import round_pb2
from tests.clients.conftest import blackjack_deal


class SlowEngine(DemoEngine):
    """The demo engine, half a second slow to deal."""

    def deal(self, request: DealInput) -> Any:
        time.sleep(0.5)
        return super().deal(request)


def test_a_refusal_carries_code_reason_and_metadata(client: CroupierClient) -> None:
    client.deal(blackjack_deal("c1", "9S 9H 7D 8C 5C"))
    with pytest.raises(CroupierError) as caught:
        client.decide("c1", round_pb2.DECISION_KIND_SURRENDER)
    error = caught.value
    assert type(error) is CroupierError
    assert error.code is grpc.StatusCode.FAILED_PRECONDITION
    assert error.reason == "ILLEGAL_DECISION"
    assert error.metadata == {
        "action": "surrender",
        "seat": "0",
        "hand": "0",
        "legal": "hit,stand,double",
    }
    assert str(error).startswith("ILLEGAL_DECISION: ")
    assert "may not surrender" in error.message


def test_a_late_answer_raises_deadline_exceeded() -> None:
    served = adapter.serve(SlowEngine(), port=0)
    try:
        address = f"127.0.0.1:{served.port}"
        with connect(address, timeout=10) as client:
            with pytest.raises(DeadlineExceededError) as caught:
                client.deal(blackjack_deal("d1", "9S 9H 7D 8C"), timeout=0.1)
            assert caught.value.code is grpc.StatusCode.DEADLINE_EXCEEDED
            assert isinstance(caught.value, CroupierError)
            assert client.describe().name == "croupier-demo-engine"
        # The client's own default deadline applies to every call.
        with connect(address, timeout=0.1) as hasty, pytest.raises(DeadlineExceededError):
            hasty.deal(blackjack_deal("d2", "9S 9H 7D 8C"))
    finally:
        served.stop(grace=0)


def test_an_unreachable_server_raises_unavailable() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with connect(f"127.0.0.1:{port}", timeout=5) as client, pytest.raises(UnavailableError):
        client.describe()


@pytest.fixture(scope="module")
def authority() -> trustme.CA:
    return trustme.CA()


def _pem_files(ca: trustme.CA, directory: Path, name: str) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 signed by ``ca``: (chain, key)."""
    issued = ca.issue_cert("127.0.0.1")
    cert, key = directory / f"{name}.pem", directory / f"{name}.key"
    for blob in issued.cert_chain_pems:
        blob.write_to_path(str(cert), append=True)
    issued.private_key_pem.write_to_path(str(key))
    return cert, key


@pytest.fixture
def tls_engine(authority: trustme.CA, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The demo engine over TLS: its address and the CA file that signs its certificate."""
    cert, key = _pem_files(authority, tmp_path, "server")
    credentials = grpc.ssl_server_credentials([(key.read_bytes(), cert.read_bytes())])
    served = adapter.serve(DemoEngine(), port=0, credentials=credentials)
    ca = tmp_path / "ca.pem"
    authority.cert_pem.write_to_path(str(ca))
    try:
        yield f"127.0.0.1:{served.port}", ca
    finally:
        served.stop(grace=0)


def test_tls_with_the_right_ca(tls_engine: tuple[str, Path], tmp_path: Path) -> None:
    address, ca = tls_engine
    with connect(address, tls=Tls(ca=ca), timeout=5) as client:
        assert client.describe().name == "croupier-demo-engine"
    stranger = tmp_path / "other-ca.pem"
    trustme.CA().cert_pem.write_to_path(str(stranger))
    with (
        connect(address, tls=Tls(ca=stranger), timeout=5) as client,
        pytest.raises(UnavailableError),
    ):
        client.describe()
    # Plain text to a TLS server does not get through either.
    with connect(address, timeout=5) as client, pytest.raises(UnavailableError):
        client.describe()


def test_mutual_tls_needs_a_client_certificate(authority: trustme.CA, tmp_path: Path) -> None:
    cert, key = _pem_files(authority, tmp_path, "server")
    credentials = grpc.ssl_server_credentials(
        [(key.read_bytes(), cert.read_bytes())],
        root_certificates=authority.cert_pem.bytes(),
        require_client_auth=True,
    )
    served = adapter.serve(DemoEngine(), port=0, credentials=credentials)
    try:
        ca = tmp_path / "ca.pem"
        authority.cert_pem.write_to_path(str(ca))
        client_cert, client_key = _pem_files(authority, tmp_path, "client")
        address = f"127.0.0.1:{served.port}"
        mutual = Tls(ca=ca, cert=client_cert, key=client_key)
        with connect(address, tls=mutual, timeout=5) as client:
            state = client.deal(blackjack_deal("m1", "AS 7H KD 9C"))
            assert state.phase == round_pb2.ROUND_PHASE_COMPLETE
        with connect(address, tls=Tls(ca=ca), timeout=5) as client, pytest.raises(UnavailableError):
            client.describe()
    finally:
        served.stop(grace=0)
