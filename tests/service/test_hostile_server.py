"""The server against a hostile user: huge ids, a busy port, swapped TLS files, early signals."""

from __future__ import annotations

import asyncio
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import trustme
from grpc_health.v1 import health_pb2, health_pb2_grpc

from croupier.clients.client import CroupierClient, CroupierError
from croupier.clients.status import MAX_MESSAGE_CHARS, MAX_METADATA_CHARS, error_info
from croupier.oracle.service import records
from croupier.oracle.service.server import OracleServer, ServerConfig, TlsFiles
from croupier.v1 import common_pb2, oracle_service_pb2, oracle_service_pb2_grpc, round_pb2
from tests.service.support import (
    RunningServer,
    ServeFactory,
    blackjack_seat,
    card_deal,
    roulette_deal,
)
from tests.service.test_verify import roulette_records

REPO = Path(__file__).resolve().parents[2]
SERVE = (sys.executable, "-m", "croupier.conformance.cli", "serve", "--host", "127.0.0.1")

#: Larger than a client's whole trailer budget (8 KiB by default).
HUGE_ID = "r" * 9000


@pytest.fixture
def client(server: RunningServer) -> Iterator[CroupierClient]:
    with CroupierClient.connect(server.address) as connected:
        yield connected


@pytest.mark.parametrize("call", ["decide", "settle"])
def test_a_huge_round_id_is_echoed_cut_short(client: CroupierClient, call: str) -> None:
    # Before: the error repeated the 9 kB id; the trailers passed the client's limit, and the
    # client saw RESOURCE_EXHAUSTED "Stream removed" in place of the refusal.
    calls: dict[str, Callable[[], object]] = {
        "decide": lambda: client.decide(HUGE_ID, round_pb2.DECISION_KIND_HIT),
        "settle": lambda: client.settle(HUGE_ID),
    }
    with pytest.raises(CroupierError) as caught:
        calls[call]()
    error = caught.value
    assert (error.code, error.reason) == (grpc.StatusCode.NOT_FOUND, "ROUND_NOT_FOUND")
    assert len(error.message) <= MAX_MESSAGE_CHARS
    echoed = error.metadata["round_id"]
    assert len(echoed) <= MAX_METADATA_CHARS
    assert echoed.startswith("rrrr")
    assert echoed.endswith("(9000 characters)")


def test_a_huge_id_in_a_deal_is_refused_as_invalid(client: CroupierClient) -> None:
    deal = card_deal("blackjack-c", ["8H", "5C", "9D", "9S"], [blackjack_seat(100, 10)])
    deal.round_id = HUGE_ID
    with pytest.raises(CroupierError) as caught:
        client.deal(deal)
    assert caught.value.reason == "INVALID_ROUND"
    assert len(caught.value.message) <= MAX_MESSAGE_CHARS
    # The message keeps what is wrong and why, with the id cut short.
    assert "(9000 characters) must be 1 to 128 letters" in caught.value.message


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _ready(proc: subprocess.Popen[str]) -> str:
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 30)
    assert ready, "croupier serve printed nothing in 30 s"
    line = proc.stdout.readline().strip()
    assert re.fullmatch(r"CROUPIER_ENGINE 127\.0\.0\.1:\d+", line), line
    return line.split()[1]


def test_a_second_server_on_a_busy_port_exits_saying_so() -> None:
    # Before: gRPC's SO_REUSEPORT let both listen, and half of the Decides of fresh
    # connections reached the server that had not dealt the round.
    port = _free_port()
    first = subprocess.Popen(  # noqa: S603 - our own interpreter
        [*SERVE, "--port", str(port)], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    try:
        _ready(first)
        second = subprocess.run(  # noqa: S603 - our own interpreter
            [*SERVE, "--port", str(port)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert second.returncode == 3, second.stderr
        assert "address already in use" in second.stderr.lower()
        assert f"127.0.0.1:{port}" in second.stderr
        assert "CROUPIER_ENGINE" not in second.stdout
    finally:
        first.terminate()
        first.wait(10)


def test_a_busy_port_fails_the_server_object_too() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]

        async def build() -> None:
            OracleServer(ServerConfig(host="127.0.0.1", port=port))

        with pytest.raises(OSError, match="address already in use"):
            asyncio.run(build())


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_right_after_the_ready_line_is_a_graceful_stop(signum: int) -> None:
    # Before: the handlers were installed after the ready line; a signal in between killed
    # the server (exit -15), or printed "Aborted!" and a traceback.
    proc = subprocess.Popen(  # noqa: S603 - our own interpreter
        [*SERVE, "--port", "0", "--grace", "1"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _ready(proc)
        proc.send_signal(signum)
        assert proc.wait(timeout=15) == 0
        _, stderr = proc.communicate(timeout=5)
        assert "Traceback" not in stderr
        assert "Aborted" not in stderr
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)


@pytest.fixture(scope="module")
def issued(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    directory = tmp_path_factory.mktemp("tls")
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1")
    cert_path, key_path, ca_path = (directory / n for n in ("server.pem", "server.key", "ca.pem"))
    cert.cert_chain_pems[0].write_to_path(str(cert_path))
    cert.private_key_pem.write_to_path(str(key_path))
    ca.cert_pem.write_to_path(str(ca_path))
    return cert_path, key_path, ca_path


def test_swapped_certificate_and_key_are_named(issued: tuple[Path, Path, Path]) -> None:
    cert, key, _ca = issued
    with pytest.raises(ValueError, match=r"--tls-cert .* holds a .*private key.* swapped"):
        TlsFiles(cert=key, key=cert).credentials()
    result = subprocess.run(  # noqa: S603 - our own interpreter
        [*SERVE, "--port", "0", "--tls-cert", str(key), "--tls-key", str(cert)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "swapped" in result.stderr
    assert "Failed to bind" not in result.stderr


def test_a_client_ca_that_is_not_a_certificate_is_named(
    issued: tuple[Path, Path, Path],
) -> None:
    cert, key, _ca = issued
    with pytest.raises(ValueError, match=r"--tls-client-ca .* holds a .*private key"):
        TlsFiles(cert=cert, key=key, client_ca=key).credentials()
    with pytest.raises(ValueError, match=r"not a PEM file"):
        TlsFiles(cert=Path(__file__), key=key).credentials()


def test_a_replay_in_progress_does_not_hold_up_health_checks(
    serve: ServeFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The replay is held until a health check has been answered: with the replay on the
    # event loop (before), the health check could not be answered and its deadline passed.
    started, answered = threading.Event(), threading.Event()
    real = records.verify

    def held(*args: Any, **kwargs: Any) -> Any:
        started.set()
        if not answered.wait(timeout=10):
            raise AssertionError("no health check was answered during the replay")
        return real(*args, **kwargs)

    monkeypatch.setattr(records, "verify", held)
    with (
        serve(ServerConfig(host="127.0.0.1", port=0)) as running,
        grpc.insecure_channel(running.address) as channel,
    ):
        stub = oracle_service_pb2_grpc.OracleServiceStub(channel)
        batch = oracle_service_pb2.VerifyRoundsRequest(
            records=roulette_records("roulette-c", "t-held", [17])
        )
        replay = stub.VerifyRounds.future(batch, timeout=30)
        assert started.wait(timeout=20), "the replay did not start"
        health = health_pb2_grpc.HealthStub(channel)
        reply = health.Check(health_pb2.HealthCheckRequest(), timeout=5)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
        answered.set()
        assert len(replay.result().verdicts) == 1


@pytest.mark.parametrize(
    ("currency", "stake_currency", "why"),
    [
        ("XYZ", "XYZ", "is not an ISO 4217 currency"),
        ("EUR", "", "without a currency"),
    ],
)
def test_a_currency_that_is_none_is_refused(
    client: CroupierClient, currency: str, stake_currency: str, why: str
) -> None:
    # Before: 'XYZ' (three capital letters) and an amount naming no currency were accepted.
    deal = card_deal("blackjack-c", ["8H", "5C", "9D", "9S"], [blackjack_seat(100, 10)])
    deal.currency_code = currency
    deal.seats[0].balance.currency_code = currency
    deal.seats[0].bets[0].stake.currency_code = stake_currency
    with pytest.raises(CroupierError) as caught:
        client.deal(deal)
    assert caught.value.reason == "INVALID_ROUND"
    assert why in caught.value.message


#: Bytes that are not the message: a string field (round_id, 1) holding invalid UTF-8, a
#: field whose length runs past the end, a wire type that does not exist.
MALFORMED = {
    "not-utf-8": b"\x0a\x02\xff\xfe",
    "length-past-the-end": b"\x0a\x7f\x41",
    "wire-type-7": b"\x0f\x00",
}


def _raw_call(address: str, method: str, payload: bytes) -> grpc.RpcError:
    with grpc.insecure_channel(address) as channel:
        # No serializer: the bytes go as they are.
        call = channel.unary_unary(method, request_serializer=None, response_deserializer=None)
        with pytest.raises(grpc.RpcError) as caught:
            call(payload, timeout=10)
    return caught.value


def _assert_malformed(error: grpc.RpcError, method: str) -> None:
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    info = error_info(error)
    assert info is not None
    assert info.reason == "MALFORMED_REQUEST"
    assert info.metadata["method"] == method.strip("/").replace("/", ".")


@pytest.mark.parametrize("payload", MALFORMED.values(), ids=MALFORMED.keys())
@pytest.mark.parametrize(
    "method",
    [
        "/croupier.v1.EngineService/Deal",
        "/croupier.v1.EngineService/Decide",
        "/croupier.v1.EngineService/Settle",
        "/croupier.v1.OracleService/VerifyRounds",
    ],
)
def test_bytes_that_are_not_the_message_are_invalid_argument(
    server: RunningServer, method: str, payload: bytes
) -> None:
    # Before: UNKNOWN with a traceback in the server's log, and no ErrorInfo.
    _assert_malformed(_raw_call(server.address, method, payload), method)
    # The server goes on serving.
    with CroupierClient.connect(server.address) as client:
        assert client.describe().profile_ids


def test_a_kit_served_engine_answers_malformed_bytes_the_same_way() -> None:
    # Before: the adapter kit answered INTERNAL.
    proc = subprocess.Popen(
        [sys.executable, "-m", "croupier.clients.demo_engine", "--port", "0"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        address = _ready(proc)
        for method in ("/croupier.v1.EngineService/Deal", "/croupier.v1.EngineService/Decide"):
            for payload in MALFORMED.values():
                _assert_malformed(_raw_call(address, method, payload), method)
        # Describe takes no field: bytes of an unknown field are a valid (empty) request.
        describe = "/croupier.v1.EngineService/Describe"
        _assert_malformed(_raw_call(address, describe, MALFORMED["wire-type-7"]), describe)
    finally:
        proc.terminate()
        proc.wait(30)


def test_calls_in_flight_at_shutdown_finish_within_the_grace(
    serve: ServeFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 16 replays are in flight when the server is told to stop with 10 s of grace (4 of them
    # held inside the replay, the rest waiting for a worker thread); they are let go once the
    # stop has begun, and each must finish with its verdict.
    started, release = threading.Semaphore(0), threading.Event()
    real = records.verify

    def held(*args: Any, **kwargs: Any) -> Any:
        started.release()
        release.wait(timeout=20)
        return real(*args, **kwargs)

    monkeypatch.setattr(records, "verify", held)
    config = ServerConfig(host="127.0.0.1", port=0, grace_seconds=10)
    with serve(config) as running, grpc.insecure_channel(running.address) as channel:
        stub = oracle_service_pb2_grpc.OracleServiceStub(channel)
        batch = oracle_service_pb2.VerifyRoundsRequest(
            records=roulette_records("roulette-c", "t-grace", [17])
        )
        calls = [stub.VerifyRounds.future(batch, timeout=30) for _ in range(16)]
        for _ in range(4):
            assert started.acquire(timeout=30), "a replay did not start"
        stopping = asyncio.run_coroutine_threadsafe(running.server.stop(), running.loop.loop)
        health = health_pb2_grpc.HealthStub(channel)
        reply = health.Check(health_pb2.HealthCheckRequest(), timeout=5)
        assert reply.status == health_pb2.HealthCheckResponse.NOT_SERVING
        # Once the calls on their way are in, new ones are refused: UNAVAILABLE, try another.
        while running.server.gate.open:
            time.sleep(0.01)
        with pytest.raises(CroupierError) as refused:
            CroupierClient(channel).describe()
        assert (refused.value.code, refused.value.reason) == (
            grpc.StatusCode.UNAVAILABLE,
            "SHUTTING_DOWN",
        )
        release.set()
        assert all(len(call.result().verdicts) == 1 for call in calls)
        stopping.result(timeout=30)


def _red_for_ten() -> round_pb2.Seat:
    """A seat of 100 EUR with 10 on red."""
    return round_pb2.Seat(
        balance=common_pb2.Amount(currency_code="EUR", minor_units=100),
        bets=[
            round_pb2.Bet(
                stake=common_pb2.Amount(currency_code="EUR", minor_units=10),
                roulette=round_pb2.RouletteBet(kind=round_pb2.ROULETTE_BET_KIND_RED),
            )
        ],
    )


def test_a_double_zero_spin_on_the_european_wheel_is_named_00(client: CroupierClient) -> None:
    # Before: "the winning pocket 37 is not a pocket of the european wheel": 37 is how the
    # oracle holds 00, not what the request said.
    seat = _red_for_ten()
    with pytest.raises(CroupierError) as caught:
        client.deal(roulette_deal("roulette-c", "00", [seat]))
    assert caught.value.reason == "INVALID_ROUND"
    assert caught.value.metadata["pocket"] == "00"
    assert "00 is not a pocket of the european wheel (0 to 36)" in caught.value.message


@pytest.mark.parametrize("written", ["37", "38", "07"])
def test_a_pocket_neither_wheel_has_names_no_wheel(client: CroupierClient, written: str) -> None:
    # Before: pocket 37 on the European wheel was "not a pocket of the american wheel".
    seat = _red_for_ten()
    with pytest.raises(CroupierError) as caught:
        client.deal(roulette_deal("roulette-c", written, [seat]))
    assert caught.value.reason == "INVALID_ROUND"
    assert caught.value.metadata["pocket"] == written
    assert caught.value.message == (
        f"spin.pocket: {written!r} is not a roulette pocket (0 to 36, and 00 on the american "
        "wheel, written without leading zeros)"
    )
