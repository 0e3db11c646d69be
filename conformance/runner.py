"""The conformance runner: plays vectors against an engine over gRPC and judges each one.

For every vector: Deal, then each scripted Decide, then Settle, each an exchange of one
request and its expected answer (or expected refusal); the engine's answer is compared with
the expected one path by path (``oracle.service.flat``, ``oracle.provenance``) and the first
divergence ends the vector. The clause a failure cites is looked up in the citations the
vector carries for that answer: the runner never decides a rule itself. Protocol failures
cite the contract's labels (CONTRACT.timeout...). Many vectors are in flight at once over one
channel, and every call has a deadline.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import re
import secrets
import signal
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import grpc
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import DecodeError, Message

from croupier.clients.status import CODES, MalformedStatusError, error_info
from croupier.conformance.engine import (
    EngineProcess,
    EngineUnavailableError,
    TlsOptions,
    describe,
    open_channel,
)
from croupier.conformance.inputs import round_inputs
from croupier.conformance.known import apply_known, read_known_failures, unmatched
from croupier.conformance.results import (
    BAD,
    ConfigError,
    KnownFailure,
    Result,
    RunReport,
    VectorOutcome,
    claimed_count,
    covers,
)
from croupier.conformance.timeouts import READY_TIMEOUT
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import LoadedVector
from croupier.oracle.provenance import ABSENT, Difference, cite, first_difference
from croupier.oracle.service import flat
from croupier.v1 import engine_service_pb2, engine_service_pb2_grpc, round_pb2

__all__ = [
    "BAD",
    "ConfigError",
    "EngineUnavailableError",
    "KnownFailure",
    "Result",
    "RunConfig",
    "RunReport",
    "TlsOptions",
    "VectorOutcome",
    "read_known_failures",
    "run",
]

Citations = Mapping[str, tuple[str, ...]]

#: How long a probe of a silent engine waits, in seconds.
_PROBE_SECONDS = 3.0

_RESPONSES: dict[str, type[Message]] = {
    "Deal": engine_service_pb2.DealResponse,
    "Decide": engine_service_pb2.DecideResponse,
    "Settle": engine_service_pb2.SettleResponse,
}


# --- one exchange: a request, and the answer or refusal it must get --------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Exchange:
    """One call of a vector and what it must get back."""

    step: str
    method: str
    request: Message
    #: The expected answer, or None when the call must be refused with ``expected_error``.
    expected: Message | None
    expected_error: str
    #: The answer's own citations and those its vector shares (``citations`` merges them).
    own_citations: Mapping[str, vector_pb2.Clauses]
    shared_citations: Mapping[str, vector_pb2.Clauses]
    #: The ErrorInfo metadata keys the expected refusal must carry.
    expected_metadata: tuple[str, ...] = ()
    #: The values the contract fixes for some of those keys, as the run sends its ids.
    expected_values: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: Whether the round goes on after the expected refusal (a refused call changes nothing).
    goes_on: bool = False
    #: Whether the engine is restarted before this call (a recovery vector's restart point).
    restart_before: bool = False

    @property
    def citations(self) -> Citations:
        """The clauses per path; merged only when a divergence needs its clause."""
        return citations(self.own_citations, self.shared_citations)


class _Divergence(Exception):  # noqa: N818 - control flow, never escapes this module
    def __init__(self, outcome: VectorOutcome, **details: str) -> None:
        super().__init__(details.get("message", ""))
        self.outcome = outcome
        self.details = details


def citations(
    own: Mapping[str, vector_pb2.Clauses], shared: Mapping[str, vector_pb2.Clauses]
) -> dict[str, tuple[str, ...]]:
    """An answer's citations: its own, then those its vector shares."""
    out = {path: tuple(clauses.ids) for path, clauses in shared.items()}
    out.update((path, tuple(clauses.ids)) for path, clauses in own.items())
    return out


def _values(message: vector_pb2.VectorRound | vector_pb2.VectorStep, prefix: str) -> dict[str, str]:
    """A refusal's fixed metadata values, its round id as the run sends it."""
    return {
        key: prefix + value if key == "round_id" else value
        for key, value in message.expected_error_values.items()
    }


def exchanges(vector: vector_pb2.Vector, index: int, prefix: str) -> Iterator[Exchange]:
    """The calls of one round in order, with run-prefixed ids; a refused call is the last.

    A step with its own ``expected_error`` is refused and the round goes on after it; the
    round's ``after_settle`` calls follow its Settle.
    """
    vround = vector.rounds[index]
    error = vround.expected_error
    deal = engine_service_pb2.DealRequest()
    deal.CopyFrom(vround.deal)
    deal.round_id = prefix + deal.round_id
    deal.table_id = prefix + deal.table_id
    round_id = deal.round_id
    refused = bool(error) and not vround.HasField("expected_state")
    yield Exchange(
        step=f"round {index} deal",
        method="Deal",
        request=deal,
        expected=None
        if refused
        else _answer(engine_service_pb2.DealResponse(), vround.expected_state, prefix),
        expected_error=error if refused else "",
        own_citations=vround.deal_citations,
        shared_citations=vector.citations,
        expected_metadata=tuple(vround.expected_error_metadata) if refused else (),
        expected_values=_values(vround, prefix) if refused else {},
        restart_before=vround.restart_before_deal,
    )
    if refused:
        return
    for number, vstep in enumerate(vround.steps):
        if vstep.expected_error:
            yield _refused_step(vector, vstep, f"round {index} step {number}", round_id, prefix)
            continue
        kind = round_pb2.DecisionKind.Name(vstep.decision.kind)
        refused = bool(error) and not vstep.HasField("expected_state")
        yield Exchange(
            step=f"round {index} decision {number} ({kind})",
            method="Decide",
            request=engine_service_pb2.DecideRequest(
                round_id=prefix + vstep.round_id if vstep.round_id else round_id,
                decision=vstep.decision,
            ),
            expected=None
            if refused
            else _answer(engine_service_pb2.DecideResponse(), vstep.expected_state, prefix),
            expected_error=error if refused else "",
            own_citations=vstep.citations,
            shared_citations=vector.citations,
            expected_metadata=tuple(vround.expected_error_metadata) if refused else (),
            expected_values=_values(vround, prefix) if refused else {},
            restart_before=vstep.restart_before,
        )
        if refused:
            return
    refused = bool(error) and not vround.HasField("expected_settle")
    yield Exchange(
        step=f"round {index} settle",
        method="Settle",
        request=engine_service_pb2.SettleRequest(round_id=round_id),
        expected=None if refused else _with_prefix(vround.expected_settle, prefix),
        expected_error=error if refused else "",
        own_citations=vround.settle_citations,
        shared_citations=vector.citations,
        expected_metadata=tuple(vround.expected_error_metadata) if refused else (),
        expected_values=_values(vround, prefix) if refused else {},
        restart_before=vround.restart_before_settle,
    )
    for number, late in enumerate(vround.after_settle):
        yield _refused_step(vector, late, f"round {index} after settle {number}", round_id, prefix)


def _refused_step(
    vector: vector_pb2.Vector, vstep: vector_pb2.VectorStep, where: str, round_id: str, prefix: str
) -> Exchange:
    """A Decide or Settle that must be refused, the round going on (or closed) after it."""
    request: Message
    if vstep.settle:
        method, what = "Settle", "settle"
        request = engine_service_pb2.SettleRequest(round_id=round_id)
    else:
        method, what = "Decide", round_pb2.DecisionKind.Name(vstep.decision.kind)
        request = engine_service_pb2.DecideRequest(
            round_id=prefix + vstep.round_id if vstep.round_id else round_id,
            decision=vstep.decision,
        )
    return Exchange(
        step=f"{where} ({what}, refused)",
        method=method,
        request=request,
        expected=None,
        expected_error=vstep.expected_error,
        own_citations=vstep.citations,
        shared_citations=vector.citations,
        expected_metadata=tuple(vstep.expected_error_metadata),
        expected_values=_values(vstep, prefix),
        goes_on=True,
        restart_before=vstep.restart_before,
    )


_ID_FIELDS = re.compile(r"^(round_id|table_id)$")
_M = TypeVar("_M", bound=Message)


def _with_prefix(message: _M, prefix: str) -> _M:
    """A copy of an expected message with its round ids as the run sends them."""
    copy = type(message)()
    copy.CopyFrom(message)
    _add_prefix(copy, prefix)
    return copy


def _answer(answer: _M, state: round_pb2.RoundState, prefix: str) -> _M:
    """A Deal or Decide answer holding an expected state, its ids as the run sends them.

    The state is copied once, into the answer (a constructor's ``state=`` would copy a copy).
    """
    answer.state.CopyFrom(state)  # type: ignore[attr-defined] # both answers hold a state
    _add_prefix(answer, prefix)
    return answer


def _add_prefix(message: Message, prefix: str) -> None:
    names, inner = _id_fields(message.DESCRIPTOR)
    for name in names:
        value = getattr(message, name)
        if value:  # an id left empty stays empty
            setattr(message, name, prefix + value)
    for field in inner:
        if field.is_repeated:
            for item in getattr(message, field.name):
                _add_prefix(item, prefix)
        elif message.HasField(field.name):
            _add_prefix(getattr(message, field.name), prefix)


@functools.cache
def _id_fields(descriptor: Descriptor) -> tuple[tuple[str, ...], tuple[FieldDescriptor, ...]]:
    """A type's own id fields (single strings), and its message fields that hold ids inside."""
    names = tuple(
        field.name
        for field in descriptor.fields
        if field.message_type is None
        and not field.is_repeated
        and field.type == FieldDescriptor.TYPE_STRING
        and _ID_FIELDS.match(field.name)
    )
    inner = tuple(
        field
        for field in descriptor.fields
        if field.message_type is not None and _holds_ids(field.message_type)
    )
    return names, inner


@functools.cache
def _holds_ids(descriptor: Descriptor, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a message type has a round or table id somewhere inside it.

    Cards, amounts and settlement lines hold none: the walk need not visit them.
    """
    if descriptor.full_name in seen:
        return False  # a recursive type: its ids, if any, are found on the first visit
    inside = seen | {descriptor.full_name}
    return any(
        _holds_ids(field.message_type, inside)
        if field.message_type is not None
        else _ID_FIELDS.match(field.name) is not None
        for field in descriptor.fields
    )


def _first(clauses: tuple[str, ...], fallback: str) -> str:
    return clauses[0] if clauses else fallback


def _list_context(view: Mapping[str, str], path: str) -> str:
    """A list item's whole list, for the message: ``[AH, 7C]``."""
    match = re.fullmatch(r"(.*)\[\d+\]", path)
    if match is None:
        return ""
    items = []
    index = 0
    while (item := view.get(f"{match.group(1)}[{index}]", ABSENT)) != ABSENT:
        items.append(item)
        index += 1
    return "[" + ", ".join(items) + "]"


def _stale(
    exchange: Exchange, response: Message, earlier: Sequence[tuple[str, Message]]
) -> str | None:
    """The earlier step whose expected state a wrong answer repeats, if it repeats one."""
    state = getattr(response, "state", None)
    if state is None or exchange.expected is None:
        return None
    if state == getattr(exchange.expected, "state", None):
        return None  # the state is right: what differs is elsewhere (a settlement)
    return next((step for step, before in reversed(earlier) if state == before), None)


def _judge(
    exchange: Exchange, response: Message, earlier: Sequence[tuple[str, Message]] = ()
) -> None:
    """Compare an answer with the expected one; raise the first divergence, cited.

    ``earlier`` holds the states the vector's earlier calls must have answered: an answer
    that repeats one of them is a stale reply (CONTRACT.stale), whatever field it differs in.
    """
    if exchange.expected is None:
        accepted = Difference(path="error", expected=exchange.expected_error, actual=ABSENT)
        raise _Divergence(
            VectorOutcome.FAIL,
            step=exchange.step,
            clause=_first(cite(exchange.citations, accepted), "CONTRACT.request"),
            path="error.reason",
            expected=exchange.expected_error,
            actual="success",
            message=f"the engine accepted what the rules refuse ({exchange.expected_error})",
        )
    if response == exchange.expected:
        # Equal messages have equal views: nothing to look for, value by value.
        return
    repeated = _stale(exchange, response, earlier)
    if repeated is not None:
        raise _Divergence(
            VectorOutcome.FAIL,
            step=exchange.step,
            clause="CONTRACT.stale",
            path="state",
            expected=f"the state after {exchange.step}",
            actual=f"the state after {repeated}",
            message=f"a stale answer: the state the engine answered for {repeated}",
        )
    if flat.comparable(response) == flat.comparable(exchange.expected):
        # Equal but for fields the view ignores or reads as sets (an engine that leaves a
        # line's clauses empty): the views are equal, no need to walk them.
        return
    want, got = flat.view(exchange.expected), flat.view(response)
    difference = first_difference(want, got)
    if difference is None:
        return
    context = ""
    whole = _list_context(want, difference.path)
    if whole:
        context = f" (expected {whole}, got {_list_context(got, difference.path)})"
    raise _Divergence(
        VectorOutcome.FAIL,
        step=exchange.step,
        clause=_first(cite(exchange.citations, difference), "CONTRACT.request"),
        path=difference.path,
        expected=difference.expected,
        actual=difference.actual,
        message=f"{difference.path}: expected {difference.expected}, got {difference.actual}"
        + context,
    )


def _not_applicable(vector: vector_pb2.Vector, why: str) -> Result:
    return Result(
        vector_id=vector.id,
        name=vector.name,
        profile_id=vector.profile_id,
        level=vector_pb2.Level.Name(vector.level),
        outcome=VectorOutcome.NOT_APPLICABLE,
        message=why,
        clauses=tuple(vector.clauses),
        since=vector.since,
    )


def _refusal(ctx: Context, exchange: Exchange, error: grpc.aio.AioRpcError) -> _Divergence | None:
    """Judge a refusal: None when it is the one expected, else the divergence it is."""
    code = error.code()
    step = exchange.step
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return _Divergence(
            VectorOutcome.TIMEOUT,
            step=step,
            clause="CONTRACT.timeout",
            message=f"no answer within {ctx.timeout:g} s",
        )
    if code == grpc.StatusCode.UNAVAILABLE or (ctx.engine is not None and not ctx.engine.alive()):
        return _Divergence(
            VectorOutcome.CRASH,
            step=step,
            clause="CONTRACT.crash",
            message=f"engine unavailable: {error.details()}"
            + (ctx.engine.stderr.shown(5) if ctx.engine is not None else ""),
        )
    try:
        info = error_info(error)
    except MalformedStatusError as exc:
        # Status details that do not decode, or that disagree with the status code.
        return _Divergence(
            VectorOutcome.ERROR,
            step=step,
            clause="CONTRACT.malformed",
            path="error.details",
            expected="a google.rpc.Status matching the call's code",
            actual=str(exc)[:200],
            message=f"the refusal's status details are malformed: {exc}",
        )
    reason = str(info.reason) if info is not None else ""
    wanted = exchange.expected_error
    if wanted and info is not None and reason == wanted:
        if code != CODES.get(wanted, grpc.StatusCode.INVALID_ARGUMENT):
            return _Divergence(
                VectorOutcome.FAIL,
                step=step,
                clause="CONTRACT.status-code",
                path="error.code",
                expected=CODES.get(wanted, grpc.StatusCode.INVALID_ARGUMENT).name,
                actual=code.name,
                message=f"{wanted} must come with its status code",
            )
        missing = [key for key in exchange.expected_metadata if key not in info.metadata]
        if missing:
            return _Divergence(
                VectorOutcome.FAIL,
                step=step,
                clause="CONTRACT.error-metadata",
                path="error.metadata",
                expected=", ".join(exchange.expected_metadata),
                actual=", ".join(sorted(info.metadata)) or "(none)",
                message=f"{wanted} must say {', '.join(missing)} in its ErrorInfo metadata",
            )
        return _wrong_value(exchange, dict(info.metadata))
    if wanted:
        return _Divergence(
            VectorOutcome.FAIL,
            step=step,
            clause="CONTRACT.error-reason",
            path="error.reason",
            expected=wanted,
            actual=reason or f"{code.name} without ErrorInfo",
            message=f"refused with {code.name}: {error.details()}",
        )
    # A request the rules accept, refused: the clause that accepts it, if the vector has one.
    clause = "CONTRACT.error-reason"
    if reason:
        accepted = cite(
            {k: v for k, v in exchange.citations.items() if k.startswith("error=")},
            Difference(path="error", expected=ABSENT, actual=reason),
        )
        clause = _first(accepted, "CONTRACT.refusal")
    return _Divergence(
        VectorOutcome.ERROR if not reason else VectorOutcome.FAIL,
        step=step,
        clause=clause,
        path="error",
        expected="success",
        actual=f"{code.name} {reason}".strip(),
        message=f"the engine refused a valid request: {error.details()}",
    )


def _same_value(key: str, expected: str, actual: str) -> bool:
    """Whether a metadata value is the one the contract fixes; "legal" is a set."""
    if key == "legal":
        return set(filter(None, expected.split(","))) == set(filter(None, actual.split(",")))
    return expected == actual


def _wrong_value(exchange: Exchange, metadata: Mapping[str, str]) -> _Divergence | None:
    """The first fixed metadata value the refusal gets wrong, as a divergence; else None."""
    for key, expected in exchange.expected_values.items():
        actual = metadata.get(key, "")
        if not _same_value(key, expected, actual):
            return _Divergence(
                VectorOutcome.FAIL,
                step=exchange.step,
                clause="CONTRACT.error-metadata",
                path=f"error.metadata[{key}]",
                expected=expected,
                actual=actual,
                message=(
                    f"{exchange.expected_error} metadata {key!r}: expected {expected!r}, "
                    f"got {actual!r}"
                ),
            )
    return None


async def _exchange(
    ctx: Context, exchange: Exchange, earlier: Sequence[tuple[str, Message]] = ()
) -> bool:
    """Make one call and judge it; True when it was refused as expected (the round ends).

    ``earlier``: the states the vector's earlier calls answered (``_judge``).
    """
    call = getattr(ctx.stub, exchange.method)
    try:
        response: Message | None = await call(exchange.request, timeout=ctx.timeout)
    except grpc.aio.AioRpcError as error:
        divergence = _refusal(ctx, exchange, error)
        if divergence is not None:
            raise divergence from None
        return True
    except DecodeError as exc:
        raise _Divergence(
            VectorOutcome.ERROR,
            step=exchange.step,
            clause="CONTRACT.malformed",
            message=f"{exchange.method} answered garbage: {exc}",
        ) from None
    expected_type = _RESPONSES[exchange.method]
    if not isinstance(response, expected_type):
        # grpc.aio logs a response it cannot decode and hands back None instead of raising.
        raise _Divergence(
            VectorOutcome.ERROR,
            step=exchange.step,
            clause="CONTRACT.malformed",
            path="response",
            expected=expected_type.DESCRIPTOR.full_name,
            actual="bytes that do not decode as one",
            message=f"{exchange.method} answered garbage: not a {expected_type.DESCRIPTOR.name}",
        )
    _judge(exchange, response, earlier)
    return False


# --- one vector -----------------------------------------------------------------------------


@dataclass(slots=True)
class Context:
    """What every vector run shares."""

    stub: engine_service_pb2_grpc.EngineServiceStub
    timeout: float
    run_prefix: str
    reproduce: Callable[[vector_pb2.Vector], str]
    engine: EngineProcess | None = None
    address: str = ""
    #: ``time.monotonic()`` when the run began: results say when they started after it.
    origin: float = 0.0
    #: Where a recovery vector waits at a restart point (None: no vector of this context is
    #: one, or the engine cannot be restarted).
    barrier: RestartBarrier | None = None


class RestartBarrier:
    """The recovery vectors of one kind of restart: the engine is stopped once for them all.

    Each vector waits at its restart point; when every vector still playing waits, the
    engine is restarted (``restart``) and they all go on. A vector that ends leaves.
    """

    def __init__(self, parties: int, restart: Callable[[], Awaitable[None]]) -> None:
        self.active = parties
        self.waiting = 0
        self.restarts = 0
        self._restart = restart
        self._release = asyncio.Event()
        self._error: EngineUnavailableError | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def wait(self) -> None:
        """Wait at a restart point until the engine has been restarted."""
        self.waiting += 1
        release = self._release
        if self.waiting >= self.active:
            await self._trip()
        else:
            await release.wait()
        if self._error is not None:
            raise self._error

    def leave(self) -> None:
        """A vector is done: the others may no longer wait for it."""
        self.active -= 1
        if self.active and self.waiting >= self.active:
            task = asyncio.ensure_future(self._trip())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _trip(self) -> None:
        release, self._release = self._release, asyncio.Event()
        self.waiting = 0
        try:
            await self._restart()
            self.restarts += 1
        except EngineUnavailableError as exc:
            self._error = EngineUnavailableError(
                f"the engine did not come back after a restart (CONTRACT.recovery): {exc}"
            )
        finally:
            release.set()


def _after_restart(div: _Divergence) -> _Divergence:
    """A difference after a restart: CONTRACT.recovery, the clause it would cite without one."""
    details = dict(div.details)
    cited = details.get("clause", "")
    details["clause"] = "CONTRACT.recovery"
    details["message"] = (
        "after a restart, "
        + details.get("message", "")
        + (f" (without the restart: {cited})" if cited else "")
    )
    return _Divergence(div.outcome, **details)


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
        started=started - ctx.origin,
        clauses=tuple(vector.clauses),
        since=vector.since,
        hand_written=loaded.hand_written,
    )
    generation = ctx.engine.generation if ctx.engine else 0
    index = 0
    # The states answered so far, by step: a later answer that repeats one is stale.
    earlier: list[tuple[str, Message]] = []
    restarted = False
    try:
        try:
            for index in range(len(vector.rounds)):
                for exchange in exchanges(vector, index, ctx.run_prefix):
                    if exchange.restart_before:
                        if ctx.barrier is None:
                            raise _Divergence(
                                VectorOutcome.ERROR,
                                step=exchange.step,
                                clause="CONTRACT.recovery",
                                message="a restart point, but the runner cannot restart "
                                "this engine (it did not launch it)",
                            )
                        await ctx.barrier.wait()
                        restarted = True
                        generation = ctx.engine.generation if ctx.engine else 0
                    if await _exchange(ctx, exchange, earlier) and not exchange.goes_on:
                        break
                    state = getattr(exchange.expected, "state", None)
                    if state is not None:
                        earlier.append((exchange.step, state))
        except _Divergence as div:
            if restarted:
                raise _after_restart(div) from None
            raise
        finally:
            if ctx.barrier is not None:
                ctx.barrier.leave()
    except _Divergence as div:
        seconds = time.monotonic() - started
        # An engine that cannot be brought back ends the run (EngineUnavailableError): the
        # vectors left would all crash against nothing.
        if div.outcome is VectorOutcome.CRASH:
            if ctx.engine is not None:
                await ctx.engine.restart_if_dead(generation)
            # Alive yet unreachable (it stopped listening): no restart cures that.
            if ctx.engine is None or ctx.engine.generation == generation:
                await _still_there(ctx)
        elif div.outcome is VectorOutcome.TIMEOUT and ctx.engine is not None:
            await ctx.engine.restart_if_hung(generation, functools.partial(_responsive, ctx))
        details = div.details
        return make(
            outcome=div.outcome,
            inputs=round_inputs(vector, index),
            seconds=seconds,
            step=details.get("step", ""),
            clause=details.get("clause", ""),
            path=details.get("path", ""),
            expected=details.get("expected", ""),
            actual=details.get("actual", ""),
            message=details.get("message", ""),
        )
    return make(outcome=VectorOutcome.PASS, seconds=time.monotonic() - started)


async def _still_there(ctx: Context) -> None:
    """After a crash that no restart followed, end the run if nothing listens any more."""
    try:
        await ctx.stub.Describe(engine_service_pb2.DescribeRequest(), timeout=_PROBE_SECONDS)  # type: ignore[misc] # the stub's types are sync
    except grpc.aio.AioRpcError as error:
        if error.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
            raise EngineUnavailableError(
                f"the engine at {ctx.address} stopped answering: {error.details()}"
            ) from None


async def _responsive(ctx: Context) -> bool:
    """Whether the engine still answers a call that reaches its rounds within the deadline.

    Describe is no proof: an engine stuck inside one round's call may still describe itself
    while every other round waits. A Settle of a round never dealt goes where rounds are kept
    and must be refused at once (ROUND_NOT_FOUND); any answer but a timeout will do.
    """
    probe = engine_service_pb2.SettleRequest(round_id=f"{ctx.run_prefix}liveness-probe")
    try:
        await ctx.stub.Settle(probe, timeout=ctx.timeout)  # type: ignore[misc] # the stub's types are sync
    except grpc.aio.AioRpcError as error:
        return error.code() != grpc.StatusCode.DEADLINE_EXCEEDED
    return True


# --- a whole run ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class RunConfig:
    """What to run and how."""

    vectors: Sequence[LoadedVector]
    target: str | None = None
    launch: str | None = None
    tls: TlsOptions | None = None
    concurrency: int = 16
    timeout: float = 10.0
    #: How long a launched engine is given to print its ready line, and where its stderr goes.
    ready_timeout: float = READY_TIMEOUT
    engine_log: Path | None = None
    known: Sequence[KnownFailure] = ()
    #: The vectors a known-failure pattern must match to not be stale (default ``vectors``):
    #: the whole corpus when ``vectors`` is a filtered part of it.
    known_scope: Sequence[LoadedVector] | None = None
    certify: bool = False
    reproduce: Callable[[vector_pb2.Vector], str] = lambda _vector: ""
    progress: Callable[[Result], None] | None = None
    #: Called once the engine has described itself, before the first vector.
    on_start: Callable[[engine_service_pb2.DescribeResponse], None] | None = None
    #: Stop starting vectors after this many bad outcomes (``--fail-fast``: 1); 0 never stops.
    stop_after: int = 0
    #: The shipped corpus when ``vectors`` are taken from it (filtered or not), None when they
    #: are not (a lab's own files): only a run that plays all of it, for every profile the
    #: engine claims, may be conformant.
    corpus: Sequence[LoadedVector] | None = None
    #: The recovery vectors (``conformance/recovery/``, filtered like ``vectors``): played
    #: after the others when the engine claims recovery or ``recovery`` asks for them, and
    #: only against a launched engine, which they restart (CONTRACT.recovery).
    recovery_vectors: Sequence[LoadedVector] = ()
    recovery: bool = False
    #: The recovery corpus, as ``corpus`` is the shipped one: a whole run that plays
    #: recovery plays all of it.
    recovery_corpus: Sequence[LoadedVector] = ()


async def run(config: RunConfig) -> RunReport:
    """Run every vector against the engine and collect the results.

    ``EngineUnavailableError`` when the engine cannot be reached, or cannot be brought back
    once it is gone; the results so far have gone to ``config.progress``.
    """
    started = time.time()
    clock = time.monotonic()
    session, info = await start_session(config)
    session.ctx.origin = clock
    engine = session.engine
    try:
        if config.on_start is not None:
            config.on_start(info)
        # Recovery vectors among your own files go with the recovery ones, after the others.
        given = [v for v in config.vectors if v.vector.restart]
        regular = [v for v in config.vectors if not v.vector.restart]
        results = await session.play(regular, set(info.profile_ids))
        recovering = config.recovery or info.recovery
        if recovering:
            results += await session.play_recovery(
                [*config.recovery_vectors, *given], set(info.profile_ids)
            )
        else:
            why = "a recovery vector: the engine claims no recovery (--recovery plays it)"
            results += [_not_applicable(v.vector, why) for v in given]
        corpus = None if config.corpus is None else [v.vector for v in config.corpus]
        if corpus is not None and recovering:
            # An engine that claims recovery must pass the recovery vectors too: a run that
            # could not play them (not launched) is not whole.
            corpus += [v.vector for v in config.recovery_corpus]
        return RunReport(
            describe=info,
            results=tuple(results),
            unmatched_patterns=stale_patterns(config),
            certify=config.certify,
            started=started,
            seconds=time.monotonic() - clock,
            restarts=engine.restarts if engine else 0,
            corpus=None if corpus is None else claimed_count(corpus, info.profile_ids),
            # Not applicable is not played: a claim of recovery the runner could not test (no
            # engine it launched) leaves the run partial.
            whole=corpus is not None
            and covers(corpus, info.profile_ids, results)
            and not (recovering and engine is None and config.recovery_corpus),
        )
    finally:
        await session.close()


def stale_patterns(config: RunConfig) -> tuple[KnownFailure, ...]:
    """The known-failure patterns that match no vector of the scope: they fail the run.

    The scope is ``config.known_scope`` (the whole corpus), else ``config.vectors``; a
    ``--certify`` run waives nothing, so none of its patterns is stale.
    """
    known = () if config.certify else config.known
    scope = config.vectors if config.known_scope is None else config.known_scope
    return unmatched(known, [v.vector for v in scope])


async def start_session(
    config: RunConfig,
) -> tuple[RunSession, engine_service_pb2.DescribeResponse]:
    """Launch or reach the engine, open its channel (TLS per ``config.tls``), have it describe itself.

    ``EngineUnavailableError`` when it does not answer, the session closed (a launched engine
    stopped). ``run`` and the pytest plugin both start here.
    """
    if config.target is None and config.launch is None:
        raise ConfigError("give --target HOST:PORT or --launch CMD")
    engine = (
        EngineProcess(config.launch, startup_timeout=config.ready_timeout, log=config.engine_log)
        if config.launch
        else None
    )
    address = await engine.start() if engine else config.target
    assert address is not None  # noqa: S101 - one of the two is set
    session = RunSession(config, engine, open_channel(address, config.tls))
    session.ctx.address = address
    try:
        info = await describe(session.ctx.stub, config.timeout, address, config.tls)
    except BaseException:
        await session.close()
        raise
    return session, info


class RunSession:
    """One run's channels, context and bookkeeping while the vectors are played."""

    def __init__(
        self, config: RunConfig, engine: EngineProcess | None, channel: grpc.aio.Channel
    ) -> None:
        self.config = config
        self.engine = engine
        self.channels = [channel]
        self.known = () if config.certify else tuple(config.known)
        self.ctx = Context(
            stub=engine_service_pb2_grpc.EngineServiceStub(channel),
            timeout=config.timeout,
            run_prefix=f"run-{secrets.token_hex(4)}-",
            reproduce=config.reproduce,
            engine=engine,
        )
        self.generation = engine.generation if engine else 0
        self.stop = asyncio.Event()
        self.bad = 0
        self.fatal: list[EngineUnavailableError] = []

    async def play(
        self, vectors: Sequence[LoadedVector], claimed: set[str], limit: int = 0
    ) -> list[Result]:
        """Every vector, ``concurrency`` (or ``limit``) at a time; an engine gone ends them all.

        That many players take the vectors in order, each the next one as it finishes its
        own: no task and no wait at a semaphore per vector.
        """
        players = min(max(1, limit or self.config.concurrency), len(vectors))
        queue = iter(enumerate(vectors))
        gathered: list[Result | None] = [None] * len(vectors)

        async def player() -> None:
            for number, loaded in queue:
                gathered[number] = await one(loaded)

        async def one(loaded: LoadedVector) -> Result | None:
            try:
                return await played(loaded)
            finally:
                # A recovery vector that never ran must not keep the others at the barrier
                # (run_vector leaves it itself; leaving twice is guarded by ``left``).
                if self.ctx.barrier is not None and loaded.vector.id not in left:
                    self.ctx.barrier.leave()

        left: set[str] = set()

        async def played(loaded: LoadedVector) -> Result | None:
            vector = loaded.vector
            if self.stop.is_set():
                return None
            unclaimed = [
                p for p in (vector.profile_id, *vector.other_profile_ids) if p not in claimed
            ]
            if unclaimed:
                result = Result(
                    vector_id=vector.id,
                    name=vector.name,
                    profile_id=vector.profile_id,
                    level=vector_pb2.Level.Name(vector.level),
                    outcome=VectorOutcome.NOT_APPLICABLE,
                    message=f"the engine does not claim profile {', '.join(unclaimed)}",
                    clauses=tuple(vector.clauses),
                    since=vector.since,
                    hand_written=loaded.hand_written,
                )
            else:
                self._follow_restart()
                try:
                    left.add(vector.id)
                    result = await run_vector(self.ctx, loaded)
                except EngineUnavailableError as exc:
                    self.fatal.append(exc)
                    self.stop.set()
                    return None
                result = self._tally(apply_known(result, vector, self.known))
            if self.config.progress is not None:
                self.config.progress(result)
            return result

        await asyncio.gather(*(player() for _ in range(players)))
        if self.fatal:
            raise self.fatal[0]
        return [r for r in gathered if r is not None]

    async def play_recovery(
        self, vectors: Sequence[LoadedVector], claimed: set[str]
    ) -> list[Result]:
        """The recovery vectors, after every other: all of one restart kind at once.

        Each kind (SIGKILL, then SIGTERM) has one barrier: the engine is restarted once for
        every vector waiting at a restart point, not once per vector. Against an engine the
        runner did not launch, each is NOT_APPLICABLE (it cannot be restarted).
        """
        results: list[Result] = []
        for kind in (vector_pb2.RESTART_KILL, vector_pb2.RESTART_TERM):
            group = [v for v in vectors if v.vector.restart == kind]
            if not group or self.stop.is_set():
                continue
            if self.engine is None:
                results.extend(
                    _not_applicable(
                        v.vector, "a recovery vector restarts the engine: give --launch"
                    )
                    for v in group
                )
                continue
            playing = [
                v
                for v in group
                if all(p in claimed for p in (v.vector.profile_id, *v.vector.other_profile_ids))
            ]
            results.extend(
                _not_applicable(
                    v.vector, f"the engine does not claim profile {v.vector.profile_id}"
                )
                for v in group
                if v not in playing
            )
            engine = self.engine
            signum = signal.SIGKILL if kind == vector_pb2.RESTART_KILL else signal.SIGTERM

            async def restart(engine: EngineProcess = engine, signum: int = signum) -> None:
                await engine.restart(signum)
                self._follow_restart()
                await describe(self.ctx.stub, self.config.timeout, engine.address, self.config.tls)

            self.ctx.barrier = RestartBarrier(len(playing), restart)
            try:
                # All at once: every vector must reach the barrier for the engine to restart.
                results.extend(await self.play(playing, claimed, limit=len(playing)))
            finally:
                self.ctx.barrier = None
        return results

    def _follow_restart(self) -> None:
        """A fresh channel to a restarted engine, even at the same address."""
        engine = self.engine
        if engine is not None and engine.generation != self.generation:
            self.generation = engine.generation
            self.channels.append(open_channel(engine.address, self.config.tls))
            self.ctx.stub = engine_service_pb2_grpc.EngineServiceStub(self.channels[-1])
            self.ctx.address = engine.address

    def _tally(self, result: Result) -> Result:
        if result.outcome in BAD:
            self.bad += 1
            if self.config.stop_after and self.bad >= self.config.stop_after:
                self.stop.set()
        return result

    async def close(self) -> None:
        """Close every channel and stop a launched engine."""
        for channel in self.channels:
            await channel.close(None)
        if self.engine is not None:
            await self.engine.stop()
