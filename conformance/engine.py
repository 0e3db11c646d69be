"""The engine under test: launched and restarted, or reached at an address, and its channel.

A launched engine prints ``CROUPIER_ENGINE host:port`` when ready; one that dies is
restarted once per crash, one that stops answering altogether is restarted after a
timeout. Every process is stopped when the run ends, its whole process group included.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import grpc
from croupier.v1 import engine_service_pb2, engine_service_pb2_grpc

from clients.client import Tls

READY_PREFIX = "CROUPIER_ENGINE "


class EngineUnavailableError(Exception):
    """The engine cannot be reached or fails to start: exit code 3 (CONTRACT.unreachable)."""


@dataclass(slots=True)
class EngineProcess:
    """A launched engine: the command, its process and the address it announced."""

    command: str
    startup_timeout: float = 30.0
    process: asyncio.subprocess.Process | None = None
    address: str = ""
    generation: int = 0
    restarts: int = 0
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _drainer: asyncio.Future[None] | None = None

    async def start(self) -> str:
        """Start the engine and wait for its ``CROUPIER_ENGINE host:port`` line."""
        try:
            self.process = await asyncio.create_subprocess_exec(
                *shlex.split(self.command),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as exc:
            raise EngineUnavailableError(f"cannot start {self.command!r}: {exc.strerror}") from None
        assert self.process.stdout is not None  # noqa: S101 - stdout=PIPE above
        deadline = time.monotonic() + self.startup_timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                await self.stop()
                raise EngineUnavailableError(
                    f"{self.command!r} did not print '{READY_PREFIX}host:port' within {self.startup_timeout:g} s"
                )
            try:
                line = await asyncio.wait_for(self.process.stdout.readline(), remaining)
            except TimeoutError:
                continue
            if not line:
                code = await self.process.wait()
                raise EngineUnavailableError(
                    f"{self.command!r} exited with code {code} before it was ready"
                )
            text = line.decode("utf-8", "replace").strip()
            if text.startswith(READY_PREFIX):
                self.address = text[len(READY_PREFIX) :].strip()
                self.generation += 1
                # Keep draining stdout so a chatty engine never blocks on a full pipe.
                self._drainer = asyncio.ensure_future(self._drain())
                return self.address

    async def _drain(self) -> None:
        process = self.process
        if process is None or process.stdout is None:
            return
        with contextlib.suppress(Exception):
            while await process.stdout.readline():
                pass

    def alive(self) -> bool:
        """Whether the engine process is still running."""
        return self.process is not None and self.process.returncode is None

    async def restart_if_dead(self, generation: int, grace: float = 2.0) -> None:
        """Restart the engine once per crash, whichever vector notices it first.

        A vector sees the connection drop before the process is reaped: wait up to
        ``grace`` seconds for the exit, or the crash would go unnoticed and the next
        vectors would be reported CRASH against a dead engine.
        """
        process = self.process
        if self.generation == generation and process is not None and process.returncode is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(process.wait()), grace)
        async with self._lock:
            if self.generation != generation or self.alive():
                return
            self.restarts += 1
            await self.start()

    async def restart_if_hung(
        self, generation: int, responsive: Callable[[], Awaitable[bool]]
    ) -> None:
        """After a timeout: restart the engine if it no longer answers at all (a hang)."""
        async with self._lock:
            if self.generation != generation:
                return
            if self.alive() and await responsive():
                return
            self.restarts += 1
            await self.stop()
            await self.start()

    async def stop(self) -> None:
        """Stop the engine: SIGTERM to its process group, then SIGKILL after a grace period."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), 5)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            await process.wait()


#: Client TLS options: the engine's CA, and a client certificate and key for mutual TLS.
TlsOptions = Tls


def open_channel(address: str, tls: TlsOptions | None) -> grpc.aio.Channel:
    """One channel to the engine; every vector shares it."""
    options = [("grpc.max_receive_message_length", 16 * 1024 * 1024)]
    if tls is not None:
        return grpc.aio.secure_channel(address, tls.credentials(), options=options)
    return grpc.aio.insecure_channel(address, options=options)


async def describe(
    stub: engine_service_pb2_grpc.EngineServiceStub, timeout: float
) -> engine_service_pb2.DescribeResponse:
    """The engine's Describe; ``EngineUnavailableError`` if it does not answer."""
    try:
        response: engine_service_pb2.DescribeResponse = await stub.Describe(  # type: ignore[misc] # the stub's types are sync
            engine_service_pb2.DescribeRequest(), timeout=timeout, wait_for_ready=True
        )
    except grpc.aio.AioRpcError as error:
        raise EngineUnavailableError(
            f"the engine does not answer Describe: {error.code().name} {error.details()}"
        ) from None
    return response
