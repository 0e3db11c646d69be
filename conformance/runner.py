"""The conformance runner: plays vectors against an engine over gRPC and judges each one.

For every vector: Deal, then each scripted Decide, then Settle, comparing the
engine's answer with the frozen expected one after every call; the first
divergence ends the vector. Many vectors are in flight at once over one
channel, and every call has a deadline. A launched engine that dies is
restarted and the vectors it took down are reported CRASH; one that stops
answering altogether (Describe included) is restarted after the TIMEOUT.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import fnmatch
import functools
import os
import re
import secrets
import shlex
import signal
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from croupier.conformance.v1 import vector_pb2
from croupier.v1 import common_pb2, engine_service_pb2, engine_service_pb2_grpc, round_pb2
from google.protobuf.message import DecodeError, Message

from clients.client import Tls
from clients.status import error_info
from conformance.vectors import LoadedVector
from oracle.errors import OracleError
from oracle.profile import Profile
from oracle.service.attribution import Difference, clause_for, first_difference

READY_PREFIX = "CROUPIER_ENGINE "


class Outcome(enum.Enum):
    """How one vector ended."""

    PASS = "PASS"  # noqa: S105 - an outcome, not a password
    FAIL = "FAIL"
    ERROR = "ERROR"
    CRASH = "CRASH"
    TIMEOUT = "TIMEOUT"
    NOT_APPLICABLE = "NOT_APPLICABLE"
    EXPECTED_FAIL = "EXPECTED_FAIL"
    UNEXPECTED_PASS = "UNEXPECTED_PASS"  # noqa: S105


#: Outcomes that make a run fail.
BAD = frozenset(
    {Outcome.FAIL, Outcome.ERROR, Outcome.CRASH, Outcome.TIMEOUT, Outcome.UNEXPECTED_PASS}
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    """The verdict on one vector, with everything needed to understand a failure."""

    vector_id: str
    name: str
    profile_id: str
    level: str
    outcome: Outcome
    step: str = ""
    clause: str = ""
    path: str = ""
    expected: str = ""
    actual: str = ""
    message: str = ""
    reproduce: str = ""
    seconds: float = 0.0
    known_failure: str = ""


class ConfigError(Exception):
    """Bad usage or configuration: exit code 2."""


class EngineUnavailableError(Exception):
    """The engine cannot be reached or fails to start: exit code 3."""


# --- known failures -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class KnownFailure:
    """One line of a known-failures file: a glob over vector ids or names, and why."""

    pattern: str
    reason: str
    line: int


def read_known_failures(path: Path) -> tuple[KnownFailure, ...]:
    """Parse ``pattern  # reason`` lines; blank lines and whole-line comments are skipped."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read known failures {path}: {exc.strerror}") from None
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pattern, _, reason = line.partition("#")
        pattern = pattern.strip()
        if not reason.strip():
            raise ConfigError(
                f"{path}:{number}: a known failure needs a reason after '#': {line!r}"
            )
        if not pattern or any(ch.isspace() for ch in pattern):
            raise ConfigError(
                f"{path}:{number}: expected one pattern then '# reason', got {line!r}"
            )
        out.append(KnownFailure(pattern=pattern, reason=reason.strip(), line=number))
    return tuple(out)


def _known(vector: vector_pb2.Vector, known: Sequence[KnownFailure]) -> KnownFailure | None:
    for entry in known:
        if fnmatch.fnmatchcase(vector.id, entry.pattern) or fnmatch.fnmatchcase(
            vector.name, entry.pattern
        ):
            return entry
    return None


# --- engine connection ----------------------------------------------------------------------


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


# --- running one vector ---------------------------------------------------------------------


class _Divergence(Exception):  # noqa: N818 - control flow, never escapes this module
    def __init__(self, outcome: Outcome, **details: str) -> None:
        super().__init__(details.get("message", ""))
        self.outcome = outcome
        self.details = details


def _reason(error: grpc.aio.AioRpcError) -> str:
    info = error_info(error)
    return str(info.reason) if info is not None else ""


_ID_FIELDS = re.compile(r"^(round_id|table_id)$")


@dataclass(slots=True)
class Context:
    """What every vector run shares."""

    stub: engine_service_pb2_grpc.EngineServiceStub
    timeout: float
    run_prefix: str
    resolve: Callable[[str], Profile]
    reproduce: Callable[[vector_pb2.Vector], str]
    engine: EngineProcess | None = None


async def run_vector(ctx: Context, loaded: LoadedVector) -> Result:
    """Play one vector and judge it; never raises for the engine's behaviour."""
    vector = loaded.vector
    started = time.monotonic()
    make = functools.partial(
        Result,
        vector_id=vector.id,
        name=vector.name,
        profile_id=vector.profile_id,
        level=vector_pb2.Level.Name(vector.level),
        reproduce=ctx.reproduce(vector),
    )
    generation = ctx.engine.generation if ctx.engine else 0
    try:
        profile = ctx.resolve(vector.profile_id)
    except OracleError as exc:
        return make(outcome=Outcome.ERROR, message=str(exc))
    try:
        for index, vround in enumerate(vector.rounds):
            await _run_round(ctx, profile, vector, index, vround)
    except _Divergence as div:
        seconds = time.monotonic() - started
        if div.outcome is Outcome.CRASH and ctx.engine is not None:
            with contextlib.suppress(EngineUnavailableError):
                await ctx.engine.restart_if_dead(generation)
        elif div.outcome is Outcome.TIMEOUT and ctx.engine is not None:
            with contextlib.suppress(EngineUnavailableError):
                await ctx.engine.restart_if_hung(generation, functools.partial(_responsive, ctx))
        details = div.details
        return make(
            outcome=div.outcome,
            seconds=seconds,
            step=details.get("step", ""),
            clause=details.get("clause", ""),
            path=details.get("path", ""),
            expected=details.get("expected", ""),
            actual=details.get("actual", ""),
            message=details.get("message", ""),
        )
    return make(outcome=Outcome.PASS, seconds=time.monotonic() - started)


async def _responsive(ctx: Context) -> bool:
    """Whether the engine still answers Describe within the deadline."""
    try:
        await ctx.stub.Describe(engine_service_pb2.DescribeRequest(), timeout=ctx.timeout)  # type: ignore[misc] # the stub's types are sync
    except grpc.aio.AioRpcError:
        return False
    return True


def _prefixed(vround: vector_pb2.VectorRound, prefix: str) -> engine_service_pb2.DealRequest:
    deal = engine_service_pb2.DealRequest()
    deal.CopyFrom(vround.deal)
    deal.round_id = prefix + deal.round_id
    deal.table_id = prefix + deal.table_id
    return deal


def _with_prefix(message: Message, prefix: str) -> Message:
    """A copy of an expected message with its round ids as the run sends them."""
    copy = type(message)()
    copy.CopyFrom(message)
    _add_prefix(copy, prefix)
    return copy


def _add_prefix(message: Message, prefix: str) -> None:
    for descriptor, value in message.ListFields():
        if descriptor.message_type is not None:
            items = value if descriptor.is_repeated else [value]
            for item in items:
                _add_prefix(item, prefix)
        elif _ID_FIELDS.match(descriptor.name) and isinstance(value, str):
            setattr(message, descriptor.name, prefix + value)


_RESPONSES: dict[str, type[Message]] = {
    "Deal": engine_service_pb2.DealResponse,
    "Decide": engine_service_pb2.DecideResponse,
    "Settle": engine_service_pb2.SettleResponse,
}


async def _call(
    ctx: Context, method: str, request: Message, step: str, vround_clause: str
) -> Message:
    call = getattr(ctx.stub, method)
    try:
        response: Message | None = await call(request, timeout=ctx.timeout)
    except grpc.aio.AioRpcError as error:
        raise _RpcFailure(error, step) from None
    except DecodeError as exc:
        raise _Divergence(
            Outcome.ERROR,
            step=step,
            clause=vround_clause,
            message=f"{method} answered garbage: {exc}",
        ) from None
    if not isinstance(response, _RESPONSES[method]):
        # grpc.aio logs a response it cannot decode and hands back None instead of raising.
        raise _Divergence(
            Outcome.ERROR,
            step=step,
            clause=vround_clause,
            path="response",
            expected=_RESPONSES[method].DESCRIPTOR.full_name,
            actual="bytes that do not decode as one",
            message=f"{method} answered garbage: not a {_RESPONSES[method].DESCRIPTOR.name}",
        )
    return response


class _RpcFailure(Exception):  # noqa: N818 - control flow, never escapes this module
    def __init__(self, error: grpc.aio.AioRpcError, step: str) -> None:
        super().__init__(str(error.details()))
        self.error = error
        self.step = step


def _classify(ctx: Context, failure: _RpcFailure, clause: str, expected_error: str) -> _Divergence:
    code = failure.error.code()
    step = failure.step
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return _Divergence(
            Outcome.TIMEOUT, step=step, clause=clause, message=f"no answer within {ctx.timeout:g} s"
        )
    if code == grpc.StatusCode.UNAVAILABLE or (ctx.engine is not None and not ctx.engine.alive()):
        return _Divergence(
            Outcome.CRASH,
            step=step,
            clause=clause,
            message=f"engine unavailable: {failure.error.details()}",
        )
    reason = _reason(failure.error)
    if expected_error:
        return _Divergence(
            Outcome.FAIL,
            step=step,
            clause=clause,
            path="error.reason",
            expected=expected_error,
            actual=reason or f"{code.name} without ErrorInfo",
            message=f"refused with {code.name}: {failure.error.details()}",
        )
    return _Divergence(
        Outcome.ERROR,
        step=step,
        clause=clause,
        path="error",
        expected="success",
        actual=f"{code.name} {reason}".strip(),
        message=f"the engine refused a valid request: {failure.error.details()}",
    )


async def _run_round(  # noqa: PLR0915 - one comparison per call of the round, in order
    ctx: Context,
    profile: Profile,
    vector: vector_pb2.Vector,
    index: int,
    vround: vector_pb2.VectorRound,
) -> None:
    prefix = ctx.run_prefix
    clause = vector.clauses[0] if vector.clauses else ""
    balances = [seat.balance.minor_units for seat in vround.deal.seats]
    expected_error = vround.expected_error
    last_state: round_pb2.RoundState | None = None

    def diverge(
        step: str,
        diff: Difference,
        state: round_pb2.RoundState | None,
        settlement: common_pb2.Settlement | None = None,
    ) -> _Divergence:
        cited = clause_for(
            profile=profile,
            difference=diff,
            expected_settlement=settlement,
            expected_state=state,
            balances=balances,
            fallback=clause,
        )
        return _Divergence(
            Outcome.FAIL,
            step=step,
            clause=cited,
            path=diff.path,
            expected=diff.expected,
            actual=diff.actual,
            message=f"{diff.path}: expected {diff.expected}, got {diff.actual}",
        )

    def refused_expected(step: str) -> _Divergence:
        return _Divergence(
            Outcome.FAIL,
            step=step,
            clause=clause,
            path="error.reason",
            expected=expected_error,
            actual="success",
            message=f"the engine accepted what the rules refuse ({expected_error})",
        )

    step = f"round {index} deal"
    deal_fails = expected_error and not vround.HasField("expected_state")
    try:
        response = await _call(ctx, "Deal", _prefixed(vround, prefix), step, clause)
    except _RpcFailure as failure:
        if deal_fails and _reason(failure.error) == expected_error:
            return
        raise _classify(ctx, failure, clause, expected_error if deal_fails else "") from None
    if deal_fails:
        raise refused_expected(step)
    assert isinstance(response, engine_service_pb2.DealResponse)  # noqa: S101 - the stub's type
    expected_state = _with_prefix(vround.expected_state, prefix)
    diff = first_difference(expected_state, response.state, "state")
    if diff:
        raise diverge(step, diff, vround.expected_state)
    last_state = vround.expected_state

    for number, vstep in enumerate(vround.steps):
        step = (
            f"round {index} decision {number} ({round_pb2.DecisionKind.Name(vstep.decision.kind)})"
        )
        request = engine_service_pb2.DecideRequest(
            round_id=prefix + vround.deal.round_id, decision=vstep.decision
        )
        fails_here = expected_error and not vstep.HasField("expected_state")
        try:
            decided = await _call(ctx, "Decide", request, step, clause)
        except _RpcFailure as failure:
            if fails_here and _reason(failure.error) == expected_error:
                return
            raise _classify(ctx, failure, clause, expected_error if fails_here else "") from None
        if fails_here:
            raise refused_expected(step)
        assert isinstance(decided, engine_service_pb2.DecideResponse)  # noqa: S101
        expected_step = _with_prefix(vstep.expected_state, prefix)
        diff = first_difference(expected_step, decided.state, "state")
        if diff:
            raise diverge(step, diff, last_state)
        last_state = vstep.expected_state

    step = f"round {index} settle"
    settle_request = engine_service_pb2.SettleRequest(round_id=prefix + vround.deal.round_id)
    settle_fails = expected_error and not vround.HasField("expected_settle")
    try:
        settled = await _call(ctx, "Settle", settle_request, step, clause)
    except _RpcFailure as failure:
        if settle_fails and _reason(failure.error) == expected_error:
            return
        raise _classify(ctx, failure, clause, expected_error if settle_fails else "") from None
    if settle_fails:
        raise refused_expected(step)
    assert isinstance(settled, engine_service_pb2.SettleResponse)  # noqa: S101
    expected_settle = _with_prefix(vround.expected_settle, prefix)
    assert isinstance(expected_settle, engine_service_pb2.SettleResponse)  # noqa: S101
    diff = first_difference(expected_settle, settled)
    if diff:
        raise diverge(step, diff, last_state, vround.expected_settle.settlement)


# --- a whole run ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class RunConfig:
    """What to run and how."""

    vectors: Sequence[LoadedVector]
    resolve: Callable[[str], Profile]
    target: str | None = None
    launch: str | None = None
    tls: TlsOptions | None = None
    concurrency: int = 16
    timeout: float = 10.0
    known: Sequence[KnownFailure] = ()
    #: The vectors a known-failure pattern must match to not be stale (default ``vectors``):
    #: the whole corpus when ``vectors`` is a filtered part of it.
    known_scope: Sequence[LoadedVector] | None = None
    certify: bool = False
    reproduce: Callable[[vector_pb2.Vector], str] = lambda _vector: ""
    progress: Callable[[Result], None] | None = None
    #: Stop starting vectors after the first bad outcome (the mutant zoo's quick kill).
    fail_fast: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class RunReport:
    """Everything a run found."""

    describe: engine_service_pb2.DescribeResponse
    results: tuple[Result, ...]
    unmatched_patterns: tuple[KnownFailure, ...]
    certify: bool
    started: float
    seconds: float
    restarts: int

    def count(self, outcome: Outcome) -> int:
        """How many vectors ended with this outcome."""
        return sum(r.outcome is outcome for r in self.results)

    @property
    def conformant(self) -> bool:
        """Certify: every applicable REQUIRED vector passed. Otherwise: no bad outcome."""
        if self.certify:
            applicable = [r for r in self.results if r.outcome is not Outcome.NOT_APPLICABLE]
            required = [r for r in applicable if r.level == "LEVEL_REQUIRED"]
            return bool(applicable) and all(r.outcome is Outcome.PASS for r in required)
        return not self.unmatched_patterns and not any(r.outcome in BAD for r in self.results)


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


async def run(config: RunConfig) -> RunReport:
    """Run every vector against the engine and collect the results."""
    if config.target is None and config.launch is None:
        raise ConfigError("give --target HOST:PORT or --launch CMD")
    started = time.time()
    clock = time.monotonic()
    engine = EngineProcess(config.launch) if config.launch else None
    address = await engine.start() if engine else config.target
    assert address is not None  # noqa: S101 - one of the two is set
    channel = open_channel(address, config.tls)
    channels = [channel]
    try:
        stub = engine_service_pb2_grpc.EngineServiceStub(channel)
        info = await describe(stub, config.timeout)
        claimed = set(info.profile_ids)
        known = () if config.certify else tuple(config.known)
        ctx = Context(
            stub=stub,
            timeout=config.timeout,
            run_prefix=f"run-{secrets.token_hex(4)}-",
            resolve=config.resolve,
            reproduce=config.reproduce,
            engine=engine,
        )
        semaphore = asyncio.Semaphore(max(1, config.concurrency))
        generation_now = [engine.generation if engine else 0]

        stop = asyncio.Event()

        async def one(loaded: LoadedVector) -> Result | None:
            vector = loaded.vector
            if stop.is_set():
                return None
            if vector.profile_id not in claimed:
                result = Result(
                    vector_id=vector.id,
                    name=vector.name,
                    profile_id=vector.profile_id,
                    level=vector_pb2.Level.Name(vector.level),
                    outcome=Outcome.NOT_APPLICABLE,
                    message=f"the engine does not claim profile {vector.profile_id}",
                )
            else:
                async with semaphore:
                    if stop.is_set():
                        return None
                    if engine is not None and engine.generation != generation_now[0]:
                        # The engine restarted: a fresh channel to the new process, even at
                        # the same address; every channel is closed when the run ends.
                        generation_now[0] = engine.generation
                        channels.append(open_channel(engine.address, config.tls))
                        ctx.stub = engine_service_pb2_grpc.EngineServiceStub(channels[-1])
                    result = await run_vector(ctx, loaded)
                result = _apply_known(result, vector, known)
                if config.fail_fast and result.outcome in BAD:
                    stop.set()
            if config.progress is not None:
                config.progress(result)
            return result

        gathered = await asyncio.gather(*(one(v) for v in config.vectors))
        results = [r for r in gathered if r is not None]
        scope = config.vectors if config.known_scope is None else config.known_scope
        unmatched = tuple(
            entry for entry in known if not any(_known(v.vector, (entry,)) for v in scope)
        )
        return RunReport(
            describe=info,
            results=tuple(results),
            unmatched_patterns=unmatched,
            certify=config.certify,
            started=started,
            seconds=time.monotonic() - clock,
            restarts=engine.restarts if engine else 0,
        )
    finally:
        for open_one in channels:
            await open_one.close(None)
        if engine is not None:
            await engine.stop()


def _apply_known(
    result: Result, vector: vector_pb2.Vector, known: Sequence[KnownFailure]
) -> Result:
    entry = _known(vector, known)
    if entry is None:
        return result
    fields = {name: getattr(result, name) for name in Result.__dataclass_fields__}
    fields["known_failure"] = entry.reason
    if result.outcome is Outcome.PASS:
        fields["outcome"] = Outcome.UNEXPECTED_PASS
        fields["message"] = f"listed as a known failure ({entry.reason}) but passed"
    elif result.outcome in BAD:
        fields["outcome"] = Outcome.EXPECTED_FAIL
    return Result(**fields)
