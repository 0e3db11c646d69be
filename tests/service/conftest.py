"""Fixtures: a real oracle server on 127.0.0.1 (port 0), channels and stubs to it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import grpc
import pytest
from croupier.v1 import engine_service_pb2_grpc, oracle_service_pb2_grpc

from oracle.service.server import ServerConfig
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
