"""Fixtures: a real oracle server on 127.0.0.1 (port 0), channels and stubs to it."""

from __future__ import annotations

import contextlib
import sys
from collections import Counter
from collections.abc import Iterator

import grpc
import pytest

from croupier.oracle.service.server import ServerConfig
from croupier.v1 import engine_service_pb2_grpc, oracle_service_pb2_grpc
from tests.service.support import LoopThread, RunningServer, ServeFactory, start_server


@pytest.fixture(scope="session")
def loop_thread() -> Iterator[LoopThread]:
    """One background event loop that every test server runs on."""
    loop = LoopThread()
    yield loop
    loop.close()


@pytest.fixture(scope="session")
def server(loop_thread: LoopThread) -> Iterator[RunningServer]:
    """The shared server, default bounds, plaintext."""
    running = start_server(loop_thread, ServerConfig(host="127.0.0.1", port=0))
    yield running
    running.stop()


@pytest.fixture(scope="session")
def channel(server: RunningServer) -> Iterator[grpc.Channel]:
    """A plaintext channel to the shared server."""
    with grpc.insecure_channel(server.address) as chan:
        yield chan


@pytest.fixture(scope="session")
def engine(channel: grpc.Channel) -> engine_service_pb2_grpc.EngineServiceStub:
    """EngineService on the shared server."""
    return engine_service_pb2_grpc.EngineServiceStub(channel)


@pytest.fixture(scope="session")
def oracle_stub(channel: grpc.Channel) -> oracle_service_pb2_grpc.OracleServiceStub:
    """OracleService on the shared server."""
    return oracle_service_pb2_grpc.OracleServiceStub(channel)


@pytest.fixture
def serve(loop_thread: LoopThread) -> ServeFactory:
    """Start a server with its own config; it is stopped when the ``with`` block ends."""

    @contextlib.contextmanager
    def factory(config: ServerConfig) -> Iterator[RunningServer]:
        running = start_server(loop_thread, config)
        try:
            yield running
        finally:
            running.stop()

    return factory


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """After the fuzz test ran: how many calls each target answered with each code and reason."""
    fuzz = sys.modules.get("tests.service.test_fuzz")
    counts = getattr(fuzz, "COUNTS", None)
    if not counts:
        return
    targets = sorted({target for target, _, _, _ in counts}, reverse=True)
    by_code: Counter[tuple[str, str]] = Counter()
    by_reason: Counter[tuple[str, str, str]] = Counter()
    for (target, _, code, reason), n in counts.items():
        by_code[target, code] += n
        if reason:
            by_reason[target, code, reason] += n
    write = terminalreporter.write_line
    total = sum(counts.values())
    per_target: Counter[str] = Counter()
    for (target, _), n in by_code.items():
        per_target[target] += n
    each = ", ".join(f"{target} {per_target[target]:,}" for target in targets)
    terminalreporter.section("fuzz: calls answered, by status code and reason")
    write(f"{total:,} calls ({each})")
    write(f"{'':<34}" + "".join(f"{t:>12}" for t in targets))
    codes = sorted({code for _, code in by_code}, key=lambda c: grpc.StatusCode[c].value[0])
    for code in codes:
        write(f"{code:<34}" + "".join(f"{by_code[t, code]:>12,}" for t in targets))
        for reason in sorted({r for _, c, r in by_reason if c == code}):
            write(
                f"  {reason:<32}" + "".join(f"{by_reason[t, code, reason]:>12,}" for t in targets)
            )
