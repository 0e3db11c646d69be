"""The engine under test: launched and restarted, or reached at an address, and its channel.

A launched engine prints ``CROUPIER_ENGINE host:port`` when ready; one that dies is
restarted once per crash, one that stops answering altogether is restarted after a
timeout. Every process is stopped when the run ends, its whole process group included.
Its stderr is read by a thread (a chatty engine never blocks on a full pipe): the last
lines are kept to show when it fails to start or dies, and the whole of it goes to a log
file when one is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
import shutil
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from croupier.clients.client import Tls
from croupier.conformance.timeouts import READY_TIMEOUT
from croupier.v1 import engine_service_pb2, engine_service_pb2_grpc

READY_PREFIX = "CROUPIER_ENGINE "
#: The stderr lines kept in memory, and the longest kept of one line, in characters.
STDERR_LINES = 20
_STDERR_LINE_MAX = 500
#: Seconds a stopped engine gets to exit after SIGTERM before it is killed.
STOP_GRACE = 5.0
#: The stderr lines a message about a dead or failed engine shows.
STDERR_SHOWN = 10
#: Bytes read from an engine's output at a time, and the longest address a ready line names.
_CHUNK = 65536
_ADDRESS_MAX = 1024


class EngineUnavailableError(Exception):
    """The engine cannot be reached or fails to start: exit code 3 (CONTRACT.unreachable)."""


#: Run in the engine's process before the engine itself (Linux): the engine gets SIGTERM
#: when the process that launched it dies, even by SIGKILL, so no engine is ever left behind.
_TIE = (
    "import ctypes, os, signal, sys\n"
    "ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG\n"
    "if os.getppid() != int(sys.argv[1]):\n"
    "    sys.exit(1)  # the launcher died before the tie was made\n"
    "os.execvp(sys.argv[2], sys.argv[2:])\n"
)


def _tied_to_us(argv: list[str]) -> list[str]:
    """``argv`` run so that the engine dies with us (Linux), or as it is elsewhere."""
    if not sys.platform.startswith("linux") or not argv:
        return argv
    return [sys.executable, "-c", _TIE, str(os.getpid()), *argv]


def start_log(path: Path | None) -> None:
    """Empty the engine log ``path`` (when given) at the start of a run; ``OSError`` if it cannot."""
    if path is not None:
        path.write_bytes(b"")


class StderrTail:
    """A launched engine's stderr: the last lines in memory, the whole of it in ``log``.

    Each process's stderr is read by a daemon thread until it closes and appended to the
    log file (a command that starts a run empties it first: ``start_log``).
    """

    def __init__(self, log: Path | None = None) -> None:
        self.log = log
        self.lines: deque[str] = deque(maxlen=STDERR_LINES)
        self._lock = threading.Lock()
        self._readers: list[threading.Thread] = []

    def follow(self, fd: int) -> None:
        """Read the pipe ``fd`` (our end, owned from now on) in a thread until it closes."""
        sink = self.log.open("ab") if self.log is not None else None
        reader = threading.Thread(
            target=self._read, args=(fd, sink), name="engine-stderr", daemon=True
        )
        self._readers = [r for r in self._readers if r.is_alive()]
        self._readers.append(reader)
        reader.start()

    def _read(self, fd: int, sink: Any) -> None:
        pending = b""
        try:
            with os.fdopen(fd, "rb", buffering=0) as pipe:
                while chunk := pipe.read(_CHUNK):
                    if sink is not None:
                        sink.write(chunk)
                        sink.flush()
                    *complete, pending = (pending + chunk).split(b"\n")
                    # A line that never ends is kept to its start: memory stays bounded.
                    pending = pending[:_STDERR_LINE_MAX]
                    self._keep(complete)
        except OSError:
            pass  # the pipe or the log failed: what was kept stays
        finally:
            self._keep([pending] if pending else [])
            if sink is not None:
                sink.close()

    def _keep(self, raw: list[bytes]) -> None:
        with self._lock:
            for line in raw:
                self.lines.append(line[:_STDERR_LINE_MAX].decode("utf-8", "replace").rstrip())

    def settle(self, seconds: float = 1.0) -> None:
        """Wait (up to ``seconds``) for what a process that exited wrote to be read."""
        deadline = time.monotonic() + seconds
        for reader in self._readers:
            reader.join(max(0.0, deadline - time.monotonic()))

    def last(self, count: int = STDERR_SHOWN) -> list[str]:
        """The last ``count`` lines kept."""
        with self._lock:
            return list(self.lines)[-count:]

    def shown(self, count: int = STDERR_SHOWN) -> str:
        """The last lines as the end of a message ("" when the engine wrote none)."""
        lines = self.last(count)
        if not lines:
            return ""
        where = f" (all of it in {self.log})" if self.log is not None else ""
        body = "".join(f"\n  | {line}" for line in lines)
        return f"\nits stderr ended with{where}:{body}"


@dataclass(slots=True)
class EngineProcess:
    """A launched engine: the command, its process and the address it announced."""

    command: str
    startup_timeout: float = READY_TIMEOUT
    #: Where the whole of its stderr is written, if anywhere.
    log: Path | None = None
    stderr: StderrTail = field(init=False)
    process: asyncio.subprocess.Process | None = None
    address: str = ""
    generation: int = 0
    restarts: int = 0
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _drainer: asyncio.Future[None] | None = None

    def __post_init__(self) -> None:
        self.stderr = StderrTail(self.log)

    async def start(self) -> str:
        """Start the engine and wait for its ``CROUPIER_ENGINE host:port`` line."""
        argv = shlex.split(self.command)
        if not argv or shutil.which(argv[0]) is None:
            # Said here: once tied to us (below), the engine's own exec could only fail mute.
            program = argv[0] if argv else "nothing"
            raise EngineUnavailableError(
                f"cannot start {self.command!r}: {program} is not a program found on PATH"
            )
        try:
            ours, theirs = os.pipe()
        except OSError as exc:
            raise EngineUnavailableError(f"cannot start {self.command!r}: {exc.strerror}") from None
        try:
            self.process = await asyncio.create_subprocess_exec(
                *_tied_to_us(argv),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=theirs,
                start_new_session=True,
            )
        except OSError as exc:
            os.close(ours)
            raise EngineUnavailableError(f"cannot start {self.command!r}: {exc.strerror}") from None
        finally:
            os.close(theirs)
        try:
            self.stderr.follow(ours)
        except OSError as exc:
            os.close(ours)
            await self.stop()
            raise EngineUnavailableError(
                f"cannot write the engine log {self.log}: {exc.strerror}"
            ) from None
        try:
            return await self._wait_ready()
        except BaseException:
            # Cancelled (the run was interrupted) or failed: never leave the engine behind.
            await asyncio.shield(self.stop())
            raise

    async def _wait_ready(self) -> str:
        assert self.process is not None  # noqa: S101 - started above
        assert self.process.stdout is not None  # noqa: S101 - stdout=PIPE above
        deadline = time.monotonic() + self.startup_timeout
        pending = b""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineUnavailableError(
                    f"{self.command!r} did not print '{READY_PREFIX}host:port' within "
                    f"{self.startup_timeout:g} s (--ready-timeout sets the wait)"
                    + self.stderr.shown()
                )
            try:
                # Chunks, not readline: a line of any length must neither stop the runner
                # (readline's limit) nor leave the engine blocked on a full pipe.
                chunk = await asyncio.wait_for(self.process.stdout.read(_CHUNK), remaining)
            except TimeoutError:
                continue
            if not chunk:
                code = await self.process.wait()
                await asyncio.to_thread(self.stderr.settle)
                raise EngineUnavailableError(
                    f"{self.command!r} exited with code {code} before it was ready"
                    + self.stderr.shown()
                )
            *lines, pending = (pending + chunk).split(b"\n")
            # Only the start of an unfinished line can be the ready line: keep no more of it.
            pending = pending[: len(READY_PREFIX) + _ADDRESS_MAX]
            for line in lines:
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
            while await process.stdout.read(_CHUNK):
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

    async def restart(self, signum: int) -> None:
        """Stop the engine with ``signum`` and start it again: a recovery vector's restart point.

        SIGKILL, or SIGTERM then SIGKILL after ``STOP_GRACE``; the same command starts it.

        Not counted in ``restarts`` (those are the crashes and hangs a run recovered from).
        """
        async with self._lock:
            if signum == signal.SIGKILL:
                process = self.process
                if process is not None and process.returncode is None:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(process.pid, signal.SIGKILL)
                    await process.wait()
            else:
                await self.stop()
            await self.start()

    def terminate(self) -> None:
        """SIGTERM to the engine's process group, without waiting: ``stop`` reaps it later.

        An engine that shuts down while its launcher finishes other work costs the run no wait.
        """
        process = self.process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)

    async def stop(self) -> None:
        """Stop the engine: SIGTERM to its process group, then SIGKILL after a grace period."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), STOP_GRACE)
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
    stub: engine_service_pb2_grpc.EngineServiceStub,
    timeout: float,
    address: str = "",
    tls: TlsOptions | None = None,
) -> engine_service_pb2.DescribeResponse:
    """The engine's Describe; ``EngineUnavailableError`` naming what went wrong if none comes.

    A refused connection is retried for a moment (an engine may print its ready line just
    before it accepts); a TLS failure, or a connection closed on us, is named at once, with
    the address and what the TLS options make likely.
    """
    deadline = time.monotonic() + min(timeout, _CONNECT_SECONDS)
    while True:
        try:
            response: engine_service_pb2.DescribeResponse = await stub.Describe(  # type: ignore[misc] # the stub's types are sync
                engine_service_pb2.DescribeRequest(), timeout=timeout
            )
        except grpc.aio.AioRpcError as error:
            details = str(error.details())
            refused = error.code() == grpc.StatusCode.UNAVAILABLE and not _CLOSED.search(details)
            if refused and time.monotonic() < deadline and not _TLS_TROUBLE.search(details):
                await asyncio.sleep(0.1)
                continue
            raise EngineUnavailableError(
                _unreachable(address, error.code(), details, tls)
            ) from None
        return response


#: How long a refused connection is retried at the start, in seconds.
_CONNECT_SECONDS = 3.0
_TLS_TROUBLE = re.compile(r"ssl|tls|handshake|certificate|wrong_version", re.IGNORECASE)
_CLOSED = re.compile(r"socket closed|connection reset|end of file|\beof\b", re.IGNORECASE)
_NOT_VERIFIED = re.compile(r"certificate_verify_failed|unable to get local issuer", re.IGNORECASE)


def _unreachable(address: str, code: grpc.StatusCode, details: str, tls: TlsOptions | None) -> str:
    """What a failed first call says about the engine at ``address``."""
    where = address or "the engine"
    if _NOT_VERIFIED.search(details):
        return (
            f"TLS with {where}: the engine's certificate does not verify against --tls-ca "
            f"({details})"
        )
    if _TLS_TROUBLE.search(details):
        return (
            f"TLS handshake with {where} failed: does the engine speak TLS? plaintext engines "
            f"take no --tls-ca ({details})"
        )
    if _CLOSED.search(details):
        if tls is None:
            likely = "does it speak TLS? give --tls-ca with the CA of its certificate"
        elif tls.cert is None:
            likely = "does it want a client certificate? give --tls-cert and --tls-key"
        else:
            likely = "was the client certificate refused? is it signed by a CA the engine trusts?"
        return f"{where} closed the connection: {likely} ({details})"
    if "connection refused" in details.lower() or "failed to connect" in details.lower():
        return f"nothing answers at {where}: {details}"
    return f"the engine at {where} does not answer Describe: {code.name} {details}"
