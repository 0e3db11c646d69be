"""The adapter kit's command line and server: its name, bounds, TLS, a busy port, shutdown."""

from __future__ import annotations

import ctypes
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import trustme
from grpc_reflection.v1alpha import reflection_pb2

from croupier.clients import adapter
from croupier.clients.adapter import DealInput
from croupier.clients.client import CroupierClient, CroupierError
from croupier.clients.demo_engine import DemoEngine
from croupier.clients.demo_engine.engine import Game
from croupier.v1 import engine_service_pb2_grpc
from tests.clients.conftest import baccarat_deal, blackjack_deal

REPO = Path(__file__).resolve().parents[2]
DEMO = (sys.executable, "-m", "croupier.clients.demo_engine")
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


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """The demo engine run to its end (it refuses to start): exit code and output."""
    return subprocess.run(  # noqa: S603 - our own interpreter
        [*DEMO, *args], cwd=REPO, capture_output=True, text=True, timeout=60, check=False
    )


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
    assert result.stdout.startswith("usage: python -m croupier.clients.demo_engine ")
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
    swapped = _run("--tls-cert", str(key), "--tls-key", str(cert))
    assert swapped.returncode == 2
    assert "swapped" in swapped.stderr
    # The right way round, the kit serves TLS.
    proc, address = _start("--tls-cert", str(cert), "--tls-key", str(key))
    try:
        ca_file = tmp_path / "ca.pem"
        ca.cert_pem.write_to_path(str(ca_file))
        from croupier.clients.client import Tls  # noqa: PLC0415 - this test alone needs it

        with CroupierClient.connect(address, tls=Tls(ca=ca_file)) as client:
            assert client.describe().name == "croupier-demo-engine"
    finally:
        proc.terminate()
        proc.wait(30)


class _HeldEngine(DemoEngine):
    """The demo engine, each Deal held until the test lets it go."""

    def __init__(self) -> None:
        super().__init__()
        self.started = threading.Semaphore(0)
        self.release = threading.Event()

    def deal(self, request: DealInput) -> Game:
        self.started.release()
        self.release.wait(timeout=20)
        return super().deal(request)


def test_deals_in_flight_at_shutdown_finish_and_new_calls_are_refused() -> None:
    # Before: the kit stopped with gRPC's own grace, which cancels the calls that reached the
    # server but were not handed to the engine yet (here, those waiting for the first Deal).
    engine = _HeldEngine()
    served = adapter.serve(engine)
    address = f"127.0.0.1:{served.port}"
    with grpc.insecure_channel(address) as channel:
        stub = engine_service_pb2_grpc.EngineServiceStub(channel)
        calls = [stub.Deal.future(baccarat_deal(f"held-{i}"), timeout=30) for i in range(6)]
        assert engine.started.acquire(timeout=20), "no Deal reached the engine"
        stopping = threading.Thread(target=served.stop, kwargs={"grace": 10.0})
        stopping.start()
        while served.adapter.gate.open:
            time.sleep(0.01)
        with pytest.raises(CroupierError) as refused:
            CroupierClient(channel).describe()
        assert (refused.value.code, refused.value.reason) == (
            grpc.StatusCode.UNAVAILABLE,
            "SHUTTING_DOWN",
        )
        engine.release.set()
        assert all(call.result().state.round_id == f"held-{i}" for i, call in enumerate(calls))
        stopping.join(30)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--port", "-1"], "--port must be 0 (any free port) to 65535, not -1"),
        (["--port", "70000"], "--port must be 0 (any free port) to 65535, not 70000"),
        (["--round-ttl", "nan"], "--round-ttl must be at least 1"),
        (["--round-ttl", "inf"], "--round-ttl must be at least 1"),
        (["--grace", "nan"], "--grace at least 0 (a finite number of seconds)"),
        (["--grace=-inf"], "--grace at least 0 (a finite number of seconds)"),
    ],
)
def test_numbers_out_of_range_are_usage_errors(options: list[str], said: str) -> None:
    """The issue's cases: --port -1 listened on 65535, 70000 on 4464; NaN and inf were taken."""
    run = _run(*options)
    assert run.returncode == 2, run.stderr
    assert said in run.stderr
    assert "CROUPIER_ENGINE" not in run.stdout
    assert "Traceback" not in run.stderr


def test_a_key_that_is_not_the_certificates_is_named(tmp_path: Path) -> None:
    """Before: a key of another certificate said only that the port could not be bound."""
    ca = trustme.CA()
    one, other = ca.issue_cert("127.0.0.1"), ca.issue_cert("127.0.0.1")
    cert, key = tmp_path / "server.pem", tmp_path / "other.key"
    one.cert_chain_pems[0].write_to_path(str(cert))
    other.private_key_pem.write_to_path(str(key))
    run = _run("--tls-cert", str(cert), "--tls-key", str(key))
    assert run.returncode == 2, run.stderr
    assert (
        f"error: --tls-key {key} is not the private key of the certificate in --tls-cert {cert}"
        in run.stderr
    )
    assert "bind" not in run.stderr


def test_the_kit_stops_on_sigterm_after_malformed_reflection_bytes() -> None:
    """Reflection v1 and v1alpha are served. Before: one reflection request that did not decode, and SIGTERM never stopped it."""
    proc, address = _start()
    try:
        with grpc.insecure_channel(address) as channel:
            # grpc.reflection.v1 beside v1alpha, with the same messages, and ErrorInfo's file.
            v1 = channel.stream_stream(
                "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
                response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
            )
            listed, error_info = v1(
                iter(
                    [
                        reflection_pb2.ServerReflectionRequest(list_services=""),
                        reflection_pb2.ServerReflectionRequest(
                            file_containing_symbol="google.rpc.ErrorInfo"
                        ),
                    ]
                ),
                timeout=30,
            )
            assert "grpc.reflection.v1.ServerReflection" in {
                s.name for s in listed.list_services_response.service
            }
            assert error_info.HasField("file_descriptor_response")
            reflect = channel.stream_stream(
                "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"
            )
            with pytest.raises(grpc.RpcError) as refused:
                list(reflect(iter([b"\x0a\x02\xff\xfe"]), timeout=30))
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        proc.terminate()
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)


#: The tgkill system call's number, which signals one thread of a process from outside it.
_TGKILL = {"x86_64": 234, "aarch64": 131}.get(os.uname().machine)


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or _TGKILL is None, reason="tgkill on Linux only"
)
def test_the_kit_stops_on_sigterm_delivered_to_one_of_its_other_threads() -> None:
    """SIGTERM goes to whichever thread the kernel picks. Before: to one of grpc's, and the
    main thread, asleep in an untimed wait, never ran the handler (an engine that outlived the
    explorer that launched it, PR_SET_PDEATHSIG notwithstanding)."""
    proc, _ = _start()
    try:
        others = sorted(int(t) for t in os.listdir(f"/proc/{proc.pid}/task") if int(t) != proc.pid)
        assert others, "the kit serves from threads of its own"
        libc = ctypes.CDLL(None, use_errno=True)
        assert libc.syscall(_TGKILL, proc.pid, others[-1], signal.SIGTERM) == 0
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)


#: Run in a process of its own (a wait that hangs must not hang the tests): the handler is
#: called at each Python step of the wait in turn, as a signal may be.
_EVERY_STEP = """
import signal, sys
from croupier.clients.listen import StopSignals
for at in range(1, 80):
    stop, steps = StopSignals(0.0001), 0
    def step(frame, event, arg):
        global steps
        steps += 1
        if steps == at:
            stop.handle(signal.SIGTERM, frame)
        return step
    sys.settrace(step)
    got = stop.wait()
    sys.settrace(None)
    assert got == signal.SIGTERM, got
print("woke", at)
"""


def test_a_stop_signal_handled_at_any_step_of_the_wait_ends_it() -> None:
    """Before: the kit's handler set a threading.Event that the main thread was waiting on; a
    signal handled while the wait held the Event's lock waited on itself for ever, the rare
    engine that outlived the explorer killed under it."""
    run = subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-c", _EVERY_STEP],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (run.returncode, run.stdout.strip()) == (0, "woke 79"), run.stderr
