"""The server's operations: health, reflection, TLS and mutual TLS, bounds, expiry, shutdown."""

from __future__ import annotations

import asyncio
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
import trustme
from google.protobuf import descriptor_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from croupier.oracle.cards import parse_cards
from croupier.oracle.service.server import ServerConfig, TlsFiles
from croupier.v1 import engine_service_pb2, engine_service_pb2_grpc, round_pb2
from tests.service.support import (
    TIMEOUT,
    ServeFactory,
    amount,
    blackjack_seat,
    card_deal,
    decide,
    expect_error,
    new_id,
)

REPO = Path(__file__).resolve().parents[2]
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
ENGINE = "croupier.v1.EngineService"
ORACLE = "croupier.v1.OracleService"


def baccarat_deal(round_id: str | None = None) -> engine_service_pb2.DealRequest:
    """A baccarat coup (complete at once, open until settled): player 7 ties banker 7."""
    seat = round_pb2.Seat(
        balance=amount(100),
        bets=[
            round_pb2.Bet(
                stake=amount(10),
                baccarat=round_pb2.BaccaratBet(kind=round_pb2.BACCARAT_BET_KIND_BANKER),
            )
        ],
    )
    return card_deal("baccarat-c", parse_cards("7C 7D KH QS"), [seat], round_id=round_id)


def describe(channel: grpc.Channel) -> engine_service_pb2.DescribeResponse:
    stub = engine_service_pb2_grpc.EngineServiceStub(channel)
    return stub.Describe(engine_service_pb2.DescribeRequest(), timeout=TIMEOUT)


# --- health and reflection ------------------------------------------------------------------


@pytest.mark.parametrize("service", ["", ENGINE, ORACLE])
def test_health_says_serving(channel: grpc.Channel, service: str) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    answer = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=TIMEOUT)
    assert answer.status == SERVING


def test_health_does_not_know_other_services(channel: grpc.Channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    with pytest.raises(grpc.RpcError) as caught:
        health.Check(health_pb2.HealthCheckRequest(service="acme.v1.Nothing"), timeout=TIMEOUT)
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND


def test_reflection_lists_the_services_and_serves_their_descriptors(
    channel: grpc.Channel,
) -> None:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    requests = [
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol=ENGINE),
    ]
    listed, files = list(stub.ServerReflectionInfo(iter(requests), timeout=TIMEOUT))
    names = {s.name for s in listed.list_services_response.service}
    assert {ENGINE, ORACLE, "grpc.health.v1.Health"} <= names
    protos = [
        descriptor_pb2.FileDescriptorProto.FromString(raw)
        for raw in files.file_descriptor_response.file_descriptor_proto
    ]
    engine_file = next(p for p in protos if p.name == "croupier/v1/engine_service.proto")
    (service,) = engine_file.service
    assert [m.name for m in service.method] == ["Describe", "Deal", "Decide", "Settle"]


REFLECTION = {
    version: f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo"
    for version in ("v1", "v1alpha")
}


def reflect(
    channel: grpc.Channel, version: str, *requests: reflection_pb2.ServerReflectionRequest
) -> list[reflection_pb2.ServerReflectionResponse]:
    """Ask reflection ``version``: v1's messages are v1alpha's, field for field."""
    call = channel.stream_stream(
        REFLECTION[version],
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    return list(call(iter(requests), timeout=TIMEOUT))


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
def test_reflection_v1_and_v1alpha_list_both_and_serve_error_info(
    channel: grpc.Channel, version: str
) -> None:
    listed, error_info, reflection_v1 = reflect(
        channel,
        version,
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="google.rpc.ErrorInfo"),
        reflection_pb2.ServerReflectionRequest(
            file_containing_symbol="grpc.reflection.v1.ServerReflection"
        ),
    )
    names = {s.name for s in listed.list_services_response.service}
    assert {
        ENGINE,
        ORACLE,
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
    } <= names
    # A client decodes an error's details with the descriptors reflection gives it.
    files = {
        p.name: p
        for p in map(
            descriptor_pb2.FileDescriptorProto.FromString,
            error_info.file_descriptor_response.file_descriptor_proto,
        )
    }
    assert "ErrorInfo" in {m.name for m in files["google/rpc/error_details.proto"].message_type}
    (v1,) = map(
        descriptor_pb2.FileDescriptorProto.FromString,
        reflection_v1.file_descriptor_response.file_descriptor_proto,
    )
    assert (v1.name, v1.package) == ("grpc/reflection/v1/reflection.proto", "grpc.reflection.v1")
    assert v1.service[0].method[0].input_type == ".grpc.reflection.v1.ServerReflectionRequest"


def test_reflection_v1_refuses_bytes_that_do_not_decode(channel: grpc.Channel) -> None:
    call = channel.stream_stream(REFLECTION["v1"])
    with pytest.raises(grpc.RpcError) as refused:
        list(call(iter([b"\x0a\x02\xff\xfe"]), timeout=TIMEOUT))
    assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert "MALFORMED_REQUEST" in repr(refused.value.trailing_metadata())


# --- TLS ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


def tls_files(ca: trustme.CA, directory: Path, *, client_ca: bool) -> TlsFiles:
    issued = ca.issue_cert("127.0.0.1")
    cert, key = directory / "server.pem", directory / "server.key"
    for blob in issued.cert_chain_pems:
        blob.write_to_path(str(cert), append=True)
    issued.private_key_pem.write_to_path(str(key))
    ca_path = directory / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_path))
    return TlsFiles(cert=cert, key=key, client_ca=ca_path if client_ca else None)


def refused(channel: grpc.Channel) -> grpc.StatusCode:
    """The code a call gets on a channel whose handshake the server refuses."""
    with pytest.raises(grpc.RpcError) as caught:
        engine_service_pb2_grpc.EngineServiceStub(channel).Describe(
            engine_service_pb2.DescribeRequest(), timeout=3
        )
    return caught.value.code()


def test_tls(serve: ServeFactory, ca: trustme.CA, tmp_path: Path) -> None:
    config = ServerConfig(port=0, tls=tls_files(ca, tmp_path, client_ca=False))
    with serve(config) as running:
        creds = grpc.ssl_channel_credentials(root_certificates=ca.cert_pem.bytes())
        with grpc.secure_channel(running.address, creds) as secure:
            assert len(describe(secure).profile_ids) == 7
        with grpc.insecure_channel(running.address) as plain:
            assert refused(plain) == grpc.StatusCode.UNAVAILABLE
        # A client that trusts another CA refuses the server's certificate.
        other = grpc.ssl_channel_credentials(root_certificates=trustme.CA().cert_pem.bytes())
        with grpc.secure_channel(running.address, other) as wrong_root:
            assert refused(wrong_root) == grpc.StatusCode.UNAVAILABLE


def test_mutual_tls(serve: ServeFactory, ca: trustme.CA, tmp_path: Path) -> None:
    config = ServerConfig(port=0, tls=tls_files(ca, tmp_path, client_ca=True))
    root = ca.cert_pem.bytes()

    def client_creds(issuer: trustme.CA) -> grpc.ChannelCredentials:
        client = issuer.issue_cert("lab-client.example")
        return grpc.ssl_channel_credentials(
            root_certificates=root,
            private_key=client.private_key_pem.bytes(),
            certificate_chain=b"".join(b.bytes() for b in client.cert_chain_pems),
        )

    with serve(config) as running:
        no_cert = grpc.ssl_channel_credentials(root_certificates=root)
        with grpc.secure_channel(running.address, no_cert) as anonymous:
            assert refused(anonymous) == grpc.StatusCode.UNAVAILABLE
        with grpc.secure_channel(running.address, client_creds(trustme.CA())) as stranger:
            assert refused(stranger) == grpc.StatusCode.UNAVAILABLE
        with grpc.secure_channel(running.address, client_creds(ca)) as known:
            assert len(describe(known).profile_ids) == 7
        with grpc.insecure_channel(running.address) as plain:
            assert refused(plain) == grpc.StatusCode.UNAVAILABLE


# --- bounds and expiry ----------------------------------------------------------------------


def test_open_rounds_are_bounded(serve: ServeFactory) -> None:
    with (
        serve(ServerConfig(port=0, max_open_rounds=2)) as running,
        grpc.insecure_channel(running.address) as chan,
    ):
        engine = engine_service_pb2_grpc.EngineServiceStub(chan)
        first, second, third = baccarat_deal(), baccarat_deal(), baccarat_deal()
        engine.Deal(first, timeout=TIMEOUT)
        engine.Deal(second, timeout=TIMEOUT)
        expect_error(
            engine.Deal,
            third,
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "TOO_MANY_OPEN_ROUNDS",
            limit="2",
        )
        assert running.server.rounds.book.open_rounds == 2
        engine.Settle(engine_service_pb2.SettleRequest(round_id=first.round_id), timeout=TIMEOUT)
        # The refused Deal took nothing: its id is free, and now there is room for it.
        assert engine.Deal(third, timeout=TIMEOUT).state.round_id == third.round_id
        expect_error(
            engine.Deal,
            baccarat_deal(),
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "TOO_MANY_OPEN_ROUNDS",
        )


def test_an_abandoned_round_expires(serve: ServeFactory) -> None:
    config = ServerConfig(port=0, max_open_rounds=1, round_ttl_seconds=0.2)
    with serve(config) as running, grpc.insecure_channel(running.address) as chan:
        engine = engine_service_pb2_grpc.EngineServiceStub(chan)
        round_id = new_id("abandoned")
        deal = card_deal(
            "blackjack-a",
            parse_cards("TH 9C TD 7S 2C"),
            [blackjack_seat(100, 100)],
            round_id=round_id,
        )
        engine.Deal(deal, timeout=TIMEOUT)
        time.sleep(0.4)
        expect_error(
            engine.Decide,
            decide(round_id, 0, 0, round_pb2.DECISION_KIND_STAND),
            grpc.StatusCode.NOT_FOUND,
            "ROUND_NOT_FOUND",
            round_id=round_id,
        )
        # Expired is closed: the id is not dealt again, and the round's slot is free.
        expect_error(engine.Deal, deal, grpc.StatusCode.ALREADY_EXISTS, "ROUND_EXISTS")
        engine.Deal(baccarat_deal(), timeout=TIMEOUT)


# --- shutdown -------------------------------------------------------------------------------


def test_stop_says_not_serving_before_the_server_stops(serve: ServeFactory) -> None:
    with serve(ServerConfig(port=0, grace_seconds=1.0)) as running:
        chan = grpc.insecure_channel(running.address)
        watch = health_pb2_grpc.HealthStub(chan).Watch(
            health_pb2.HealthCheckRequest(service=""), timeout=TIMEOUT
        )
        assert next(watch).status == SERVING
        stopping = asyncio.run_coroutine_threadsafe(running.server.stop(), running.loop.loop)
        seen: list[int] = []
        ended = None
        try:
            seen.extend(answer.status for answer in watch)
        except grpc.RpcError as exc:
            ended = exc.code()
        # The watcher hears NOT_SERVING first; then the stream ends as the server stops.
        assert seen[:1] == [NOT_SERVING]
        assert ended in (None, grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE)
        stopping.result(timeout=TIMEOUT)
        with pytest.raises(grpc.RpcError) as caught:
            describe(chan)
        assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
        chan.close()


def test_croupier_serve_stops_gracefully_on_sigterm() -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "croupier.conformance.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "croupier serve printed nothing in 30 s"
        line = proc.stdout.readline().strip()
        found = re.fullmatch(r"CROUPIER_ENGINE (127\.0\.0\.1:(\d+))", line)
        assert found, line
        assert int(found.group(2)) > 0
        with grpc.insecure_channel(found.group(1)) as chan:
            assert len(describe(chan).profile_ids) == 7
            engine = engine_service_pb2_grpc.EngineServiceStub(chan)
            deal = baccarat_deal()
            engine.Deal(deal, timeout=TIMEOUT)
            settled = engine.Settle(
                engine_service_pb2.SettleRequest(round_id=deal.round_id), timeout=TIMEOUT
            )
            # Player 7 ties banker 7: the banker bet pushes (BAC.tie-push).
            assert settled.settlement.lines[0].returned.minor_units == 10
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
        _, stderr = proc.communicate(timeout=5)
        assert "Traceback" not in stderr
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=5)
