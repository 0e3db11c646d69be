"""Malformed, out-of-order and concurrent requests never break a server (Hypothesis).

Two targets: the reference server (``croupier serve``'s servicers) and the demo engine
served by the adapter kit. Each example sends a sequence of Deal, Decide, Settle (and, to
the oracle, GetProfile, VerifyRound and VerifyRounds) calls with random field values (junk
ids, cards, pockets, enum ints, amounts) over a few round ids of its own, bytes that do not
decode, and bursts of concurrent calls. Every error must be a canonical code other than
INTERNAL and UNKNOWN, with one ErrorInfo whose reason maps to that code. A model follows
the ids: a round never dealt or already settled is ROUND_NOT_FOUND, a used id is never
dealt again, and card-game rounds are mirrored by the oracle in process, so that each Decide
and Settle either fails with the oracle's own reason or gives exactly the oracle's state and
settlement. Races have one winner: the same Deal sent at once deals one round, the same
Settle settles once, the same decision sent at once is taken as many times as the rules let
it be taken one after the other. Each example ends by playing its open rounds out and
settling them: a round the server forgot is a lost round.

``make fuzz`` runs this at scale (Hypothesis profile ``fuzz``) and prints how many calls
got each status code (``COUNTS``, printed by ``tests/service/conftest.py``).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import event, given
from hypothesis import strategies as st

from croupier.clients import adapter
from croupier.clients.demo_engine import DemoEngine
from croupier.oracle import blackjack
from croupier.oracle.decision import Action
from croupier.oracle.errors import OracleError
from croupier.oracle.profile import shipped_profile
from croupier.oracle.rounds import Round, apply_decision
from croupier.oracle.rounds import start_round as start_in_process
from croupier.oracle.service import convert, flat
from croupier.v1 import (
    engine_service_pb2,
    engine_service_pb2_grpc,
    oracle_service_pb2,
    oracle_service_pb2_grpc,
    round_pb2,
)
from tests.service.support import TIMEOUT, RunningServer, error_info, new_id
from tests.strategies import (
    SERVICE_PROFILE_IDS,
    plausible_deals,
    plausible_decides,
    wire_deals,
    wire_decides,
    wire_records,
    wire_settles,
    wire_texts,
)

Code = grpc.StatusCode

#: The contract's reasons and the canonical code each one comes with (DESIGN.md "Errors").
REASON_CODES = {
    "UNKNOWN_PROFILE": Code.NOT_FOUND,
    "INVALID_CARD": Code.INVALID_ARGUMENT,
    "SHOE_NOT_IN_PROFILE": Code.INVALID_ARGUMENT,
    "SHOE_EXHAUSTED": Code.FAILED_PRECONDITION,
    "ILLEGAL_DECISION": Code.FAILED_PRECONDITION,
    "INSUFFICIENT_BALANCE": Code.FAILED_PRECONDITION,
    "BET_OUT_OF_LIMITS": Code.INVALID_ARGUMENT,
    "INVALID_BET_LAYOUT": Code.INVALID_ARGUMENT,
    "INVALID_ROUND": Code.INVALID_ARGUMENT,
    "MALFORMED_REQUEST": Code.INVALID_ARGUMENT,
    "ROUND_NOT_FOUND": Code.NOT_FOUND,
    "ROUND_EXISTS": Code.ALREADY_EXISTS,
    "ROUND_NOT_COMPLETE": Code.FAILED_PRECONDITION,
    "TOO_MANY_OPEN_ROUNDS": Code.RESOURCE_EXHAUSTED,
    "BATCH_TOO_LARGE": Code.RESOURCE_EXHAUSTED,
}

#: Calls answered, by (target, method, status code, reason or ""); printed by ``make fuzz``.
COUNTS: Counter[tuple[str, str, str, str]] = Counter()
_COUNTS_LOCK = threading.Lock()

_ENGINE_METHODS = ("Deal", "Decide", "Settle")
_ORACLE_METHODS = ("GetProfile", "VerifyRound", "VerifyRounds")
_POOL = ThreadPoolExecutor(max_workers=8, thread_name_prefix="fuzz-burst")


# --- targets ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A server under test: its name, a channel to it, and the methods it serves."""

    name: str
    channel: grpc.Channel
    methods: dict[str, Callable[..., Any]]

    @property
    def paths(self) -> tuple[str, ...]:
        """The full method paths raw bytes are sent to."""
        return tuple(
            f"/croupier.v1.{'Engine' if name in _ENGINE_METHODS else 'Oracle'}Service/{name}"
            for name in self.methods
        )


@pytest.fixture(scope="session")
def kit_address() -> Iterator[str]:
    """The demo engine, served by the adapter kit on 127.0.0.1 (port 0)."""
    served = adapter.serve(DemoEngine(), host="127.0.0.1", port=0)
    yield f"127.0.0.1:{served.port}"
    served.stop(grace=1.0)


@pytest.fixture(scope="session", params=["oracle", "kit"])
def target(request: pytest.FixtureRequest, server: RunningServer) -> Iterator[Target]:
    """Each target in turn, with its own channel."""
    oracle = request.param == "oracle"
    address = server.address if oracle else request.getfixturevalue("kit_address")
    with grpc.insecure_channel(address) as channel:
        engine = engine_service_pb2_grpc.EngineServiceStub(channel)
        methods: dict[str, Callable[..., Any]] = {
            "Deal": engine.Deal,
            "Decide": engine.Decide,
            "Settle": engine.Settle,
        }
        if oracle:
            stub = oracle_service_pb2_grpc.OracleServiceStub(channel)
            methods |= {
                "GetProfile": stub.GetProfile,
                "VerifyRound": stub.VerifyRound,
                "VerifyRounds": stub.VerifyRounds,
            }
        yield Target(name=request.param, channel=channel, methods=methods)


# --- what is sent ----------------------------------------------------------------------------


def service_calls(round_ids: list[str]) -> st.SearchStrategy[tuple[str, Any]]:
    """One call: the method's name and its request (repeated entries weigh the draw)."""
    return st.one_of(
        st.tuples(st.just("Deal"), wire_deals(round_ids)),
        st.tuples(st.just("Deal"), plausible_deals(round_ids)),
        st.tuples(st.just("Deal"), plausible_deals(round_ids, ("blackjack-a", "blackjack-c"))),
        st.tuples(st.just("Decide"), wire_decides(round_ids)),
        st.tuples(st.just("Decide"), plausible_decides(round_ids)),
        # A legal decision of an open round, drawn when the call is made.
        st.tuples(st.just("DecideLegal"), st.none()),
        st.tuples(st.just("DecideLegal"), st.none()),
        st.tuples(st.just("DecideLegal"), st.none()),
        st.tuples(st.just("DecideLegal"), st.none()),
        st.tuples(st.just("Settle"), wire_settles(round_ids)),
        # A Settle of an open round, complete or not, drawn when the call is made.
        st.tuples(st.just("SettleOpen"), st.none()),
        st.tuples(st.just("SettleOpen"), st.none()),
        st.tuples(
            st.just("GetProfile"),
            st.builds(
                oracle_service_pb2.GetProfileRequest,
                profile_id=st.one_of(st.sampled_from(SERVICE_PROFILE_IDS), wire_texts),
            ),
        ),
        st.tuples(
            st.just("VerifyRound"),
            st.builds(oracle_service_pb2.VerifyRoundRequest, record=wire_records(round_ids)),
        ),
        st.tuples(
            st.just("VerifyRounds"),
            st.builds(
                oracle_service_pb2.VerifyRoundsRequest,
                records=st.lists(wire_records(round_ids), max_size=3),
            ),
        ),
        # Bytes that are mostly not the message, to any method of the target.
        st.tuples(st.just("Raw"), st.none()),
        # Several calls at once, or the same call raced against itself.
        st.tuples(st.just("Burst"), st.none()),
        st.tuples(st.sampled_from(("DealRace", "DecideRace", "SettleRace")), st.none()),
    )


@st.composite
def raw_payloads(draw: st.DrawFn, round_id: str) -> bytes:
    """Bytes that are not a request: junk, or a real request cut short or with a byte changed.

    A request that still decodes names ``round_id``, which the model does not follow.
    """
    kind = draw(st.sampled_from(("junk", "cut", "flip")))
    if kind == "junk":
        return draw(st.binary(max_size=64))
    good = draw(plausible_deals([round_id])).SerializeToString()
    at = draw(st.integers(min_value=0, max_value=len(good) - 1))
    if kind == "cut":
        return good[:at]
    return good[:at] + bytes([draw(st.integers(0, 255))]) + good[at + 1 :]


# --- how the answers are checked -------------------------------------------------------------


@dataclass
class Outcome:
    """A call's response, or the reason it was refused with."""

    response: Any = None
    reason: str | None = None


@dataclass
class Model:
    """What the test knows of its round ids."""

    open: dict[str, Round | None] = field(default_factory=dict)  # None: roulette, not mirrored
    closed: set[str] = field(default_factory=set)


def _count(target: Target, method: str, code: Code, reason: str = "") -> None:
    with _COUNTS_LOCK:
        COUNTS[target.name, method, code.name, reason] += 1


def judge(target: Target, method: str, error: grpc.RpcError) -> str:
    """Count an error and check it against the contract; its reason."""
    code = error.code()
    if code in (Code.INTERNAL, Code.UNKNOWN):
        _count(target, method, code)
        pytest.fail(f"{method} answered {code.name}: {error.details()}")
    info = error_info(error)
    _count(target, method, code, info.reason)
    assert info.reason in REASON_CODES, info.reason
    assert code == REASON_CODES[info.reason], (code, info.reason)
    return str(info.reason)


def call(target: Target, method: str, request: Any) -> Outcome:
    """Call, and check any error against the contract."""
    try:
        response = target.methods[method](request, timeout=TIMEOUT)
    except grpc.RpcError as error:
        return Outcome(reason=judge(target, method, error))
    _count(target, method, Code.OK)
    return Outcome(response=response)


def raw_call(target: Target, path: str, payload: bytes) -> None:
    """Send bytes as they are; an answer is a response or a contract error."""
    send = target.channel.unary_unary(path, request_serializer=None, response_deserializer=None)
    method = f"{path.rsplit('/', 1)[1]} (bytes)"
    try:
        send(payload, timeout=TIMEOUT)
    except grpc.RpcError as error:
        judge(target, method, error)
    else:
        _count(target, method, Code.OK)


def same_state(got: round_pb2.RoundState, expected: Round) -> None:
    """The state sent is the oracle's, value by value (the runner's comparison)."""
    assert flat.view(got) == flat.view(convert.round_state(expected))


def oracle_outcome(action: Callable[[], Round]) -> tuple[Round | None, str | None]:
    """The in-process oracle's round, or the reason it refuses."""
    try:
        return action(), None
    except OracleError as exc:
        return None, exc.reason


def oracle_deal(request: engine_service_pb2.DealRequest) -> tuple[Round | None, str | None]:
    """What the oracle makes of a Deal of a card game."""
    return oracle_outcome(
        lambda: start_in_process(
            shipped_profile(request.profile_id), convert.round_request_from(request)
        )
    )


def check_deal(model: Model, request: engine_service_pb2.DealRequest, got: Outcome) -> None:
    round_id = request.round_id
    used = round_id in model.open or round_id in model.closed
    if got.reason is not None:
        return
    assert not used, f"round id {round_id!r} was dealt twice"
    state = got.response.state
    assert state.round_id == round_id
    if request.WhichOneof("outcome") == "spin":
        model.open[round_id] = None
        assert state.phase == round_pb2.ROUND_PHASE_COMPLETE
        return
    expected, reason = oracle_deal(request)
    assert reason is None, f"the server dealt a round the oracle refuses with {reason}"
    assert expected is not None
    same_state(state, expected)
    model.open[round_id] = expected


def check_decide(model: Model, request: engine_service_pb2.DecideRequest, got: Outcome) -> None:
    round_id = request.round_id
    if round_id not in model.open:
        assert got.reason == "ROUND_NOT_FOUND"
        return
    current = model.open[round_id]
    if current is None:
        assert got.reason == "ILLEGAL_DECISION"
        return
    expected, reason = oracle_outcome(
        lambda: apply_decision(
            current, convert.decision_from(request.decision, current.request.currency)
        )
    )
    assert got.reason == reason
    if expected is not None:
        same_state(got.response.state, expected)
        model.open[round_id] = expected


def check_settle(model: Model, request: engine_service_pb2.SettleRequest, got: Outcome) -> None:
    round_id = request.round_id
    if round_id not in model.open:
        assert got.reason == "ROUND_NOT_FOUND"
        return
    current = model.open[round_id]
    if current is not None and not current.complete:
        assert got.reason == "ROUND_NOT_COMPLETE"
        return
    assert got.reason is None
    if current is not None:
        want = convert.settlement(current.settlement, current.request.currency)
        assert flat.view(got.response.settlement) == flat.view(want)
    del model.open[round_id]
    model.closed.add(round_id)


def check(model: Model, name: str, request: Any, got: Outcome) -> None:
    """Check one answer against the model, and move the model on."""
    if name == "Deal":
        check_deal(model, request, got)
    elif name == "Decide":
        check_decide(model, request, got)
    elif name == "Settle":
        check_settle(model, request, got)
    elif name == "VerifyRounds" and got.reason is None:
        assert len(got.response.verdicts) == len(request.records)


def decide_request(
    round_id: str, current: Round, action: Action
) -> engine_service_pb2.DecideRequest:
    """The Decide of ``action`` for the hand whose turn it is."""
    assert isinstance(current.game, blackjack.BlackjackState)
    turn = current.game.turn
    assert turn is not None
    return engine_service_pb2.DecideRequest(
        round_id=round_id,
        decision=convert.decision(
            blackjack.Decision(seat=turn.seat, hand=turn.hand, action=action),
            current.request.currency,
        ),
    )


def legal_decide(model: Model, data: st.DataObject) -> engine_service_pb2.DecideRequest | None:
    """A legal decision for the turn of one of the open blackjack rounds, if any."""
    waiting = sorted(
        (round_id, current)
        for round_id, current in model.open.items()
        if current is not None and current.legal
    )
    if not waiting:
        return None
    round_id, current = data.draw(st.sampled_from(waiting))
    return decide_request(round_id, current, data.draw(st.sampled_from(current.legal)))


# --- at once ---------------------------------------------------------------------------------


def at_once(target: Target, calls: list[tuple[str, Any]]) -> list[Outcome]:
    """Send the calls together, each from its own thread; their outcomes in the same order."""
    barrier = threading.Barrier(len(calls))

    def send(name: str, request: Any) -> Outcome:
        barrier.wait(TIMEOUT)
        return call(target, name, request)

    futures = [_POOL.submit(send, name, request) for name, request in calls]
    return [future.result() for future in futures]


def burst(target: Target, model: Model, calls: list[tuple[str, Any]]) -> None:
    """Calls on distinct rounds at once: they commute, so each is checked as if alone."""
    distinct: dict[str, tuple[str, Any]] = {}
    for name, request in calls:
        key = getattr(request, "round_id", None) or f"(no round) {len(distinct)}"
        distinct.setdefault(key, (name, request))
    chosen = list(distinct.values())
    for (name, request), got in zip(chosen, at_once(target, chosen), strict=True):
        check(model, name, request, got)


def deal_race(target: Target, model: Model, request: Any, copies: int) -> None:
    """The same Deal at once: one round is dealt, the others are ROUND_EXISTS (or all refused)."""
    outcomes = at_once(target, [("Deal", request)] * copies)
    winners = [got for got in outcomes if got.reason is None]
    assert len(winners) <= 1, f"{len(winners)} rounds dealt under one id"
    if winners:
        assert all(got.reason == "ROUND_EXISTS" for got in outcomes if got.reason), outcomes
        check_deal(model, request, winners[0])
    else:
        assert len({got.reason for got in outcomes}) == 1, outcomes


def decide_race(target: Target, model: Model, round_id: str, copies: int, action: Action) -> None:
    """The same decision at once: taken k times, k as far as the rules let it go in a row.

    The refused copies all met the state after the k-th (one state, one reason).
    """
    current = model.open[round_id]
    assert current is not None
    request = decide_request(round_id, current, action)
    outcomes = at_once(target, [("Decide", request)] * copies)
    taken = [got for got in outcomes if got.reason is None]
    chain: list[Round] = []
    refusal: str | None = None
    decision = convert.decision_from(request.decision, current.request.currency)
    state = current
    while len(chain) < len(taken) + 1:
        try:
            state = apply_decision(state, decision)
        except OracleError as exc:
            refusal = exc.reason
            break
        chain.append(state)
    assert len(taken) <= len(chain), "the decision was taken more often than the rules allow"
    want = sorted(
        tuple(sorted(flat.view(convert.round_state(s)).items())) for s in chain[: len(taken)]
    )
    have = sorted(tuple(sorted(flat.view(got.response.state).items())) for got in taken)
    assert have == want
    if len(taken) < copies:
        assert len(taken) == len(chain), "a copy was refused although the decision was still legal"
        assert {got.reason for got in outcomes if got.reason} == {refusal}
    if taken:
        model.open[round_id] = chain[len(taken) - 1]


def settle_race(target: Target, model: Model, round_id: str, copies: int) -> None:
    """The same Settle at once: settled once, the others ROUND_NOT_FOUND (or all not complete)."""
    outcomes = at_once(
        target, [("Settle", engine_service_pb2.SettleRequest(round_id=round_id))] * copies
    )
    settled = [got for got in outcomes if got.reason is None]
    current = model.open[round_id]
    if current is not None and not current.complete:
        assert {got.reason for got in outcomes} == {"ROUND_NOT_COMPLETE"}
        return
    assert len(settled) == 1, f"settled {len(settled)} times"
    assert all(got.reason == "ROUND_NOT_FOUND" for got in outcomes if got.reason), outcomes
    check_settle(model, engine_service_pb2.SettleRequest(round_id=round_id), settled[0])


def play_out(target: Target, model: Model) -> None:
    """Play each open round out (stand where it can) and settle it: no round is lost.

    A round the server no longer knows fails here. A round whose shoe runs out stays open
    (every legal decision refused with SHOE_EXHAUSTED, checked against the oracle).
    """
    for round_id in sorted(model.open):
        current = model.open[round_id]
        while current is not None and current.legal:
            for action in sorted(current.legal, key=lambda a: a != Action.STAND):
                request = decide_request(round_id, current, action)
                check_decide(model, request, call(target, "Decide", request))
                if model.open[round_id] is not current:
                    break
            else:
                break  # the shoe ran out
            current = model.open[round_id]
        settle = engine_service_pb2.SettleRequest(round_id=round_id)
        check_settle(model, settle, call(target, "Settle", settle))


# --- the test --------------------------------------------------------------------------------

_COPIES = st.integers(min_value=2, max_value=6)


def together(
    target: Target, model: Model, data: st.DataObject, name: str, round_ids: list[str]
) -> None:
    """A burst of calls on distinct rounds, or a race of one call against itself."""
    if name == "Burst":
        drawn = data.draw(st.lists(service_calls(round_ids), min_size=2, max_size=6))
        plain = [(n, r) for n, r in drawn if n in target.methods and r is not None]
        if plain:
            burst(target, model, plain)
    elif name == "DealRace":
        fresh = f"{round_ids[0]}-race{len(round_ids)}"
        round_ids.append(fresh)
        deal_race(target, model, data.draw(plausible_deals([fresh])), data.draw(_COPIES))
    elif name == "SettleRace":
        if model.open:
            round_id = data.draw(st.sampled_from(sorted(model.open)))
            settle_race(target, model, round_id, data.draw(_COPIES))
    else:
        waiting = sorted(r for r, current in model.open.items() if current and current.legal)
        if waiting:
            round_id = data.draw(st.sampled_from(waiting))
            current = model.open[round_id]
            assert current is not None
            action = data.draw(st.sampled_from(current.legal))
            decide_race(target, model, round_id, data.draw(_COPIES), action)
    event(name)


@given(data=st.data())
def test_bad_out_of_order_and_concurrent_requests_never_break_a_server(
    target: Target, data: st.DataObject
) -> None:
    prefix = new_id("fuzz")
    round_ids = [f"{prefix}-{k}" for k in range(3)]
    calls = data.draw(st.lists(service_calls(round_ids), min_size=4, max_size=14))
    model = Model()
    for planned, planned_request in calls:
        name, request = planned, planned_request
        if name in _ORACLE_METHODS and name not in target.methods:
            continue
        if name == "Raw":
            path = data.draw(st.sampled_from(target.paths))
            raw_call(target, path, data.draw(raw_payloads(f"{prefix}-raw")))
            continue
        if name in ("Burst", "DealRace", "DecideRace", "SettleRace"):
            together(target, model, data, name, round_ids)
            continue
        if name == "DecideLegal":
            name, request = "Decide", legal_decide(model, data)
            if request is None:
                continue
        elif name == "SettleOpen":
            if not model.open:
                continue
            name = "Settle"
            request = engine_service_pb2.SettleRequest(
                round_id=data.draw(st.sampled_from(sorted(model.open)))
            )
        got = call(target, name, request)
        event(f"{name}: {got.reason or 'ok'}")
        check(model, name, request, got)
    play_out(target, model)
    health = health_pb2_grpc.HealthStub(target.channel).Check(
        health_pb2.HealthCheckRequest(service=""), timeout=TIMEOUT
    )
    assert health.status == health_pb2.HealthCheckResponse.SERVING


#: Health and reflection, as raw paths: what each answers bytes that do not decode with.
_HEALTH_CHECK = "/grpc.health.v1.Health/Check"
_HEALTH_WATCH = "/grpc.health.v1.Health/Watch"
_REFLECTION = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"


def _send(channel: grpc.Channel, path: str, payload: bytes) -> None:
    """Bytes to health or reflection as they are; raises the error answered, if any."""
    if path == _HEALTH_CHECK:
        channel.unary_unary(path)(payload, timeout=TIMEOUT)
    elif path == _HEALTH_WATCH:
        # A Watch that decodes streams until cancelled: its first answer is enough.
        stream = channel.unary_stream(path)(payload, timeout=TIMEOUT)
        next(stream)
        stream.cancel()
    else:
        for _ in channel.stream_stream(path)(iter([payload]), timeout=TIMEOUT):
            pass


def _auxiliary_call(target: Target, path: str, payload: bytes) -> None:
    """Send bytes to health or reflection; an answer is a response or MALFORMED_REQUEST."""
    method = f"{path.rsplit('/', 1)[1]} (bytes)"
    try:
        _send(target.channel, path, payload)
    except grpc.RpcError as error:
        if error.code() is Code.CANCELLED:
            return  # the Watch cancelled above
        reason = judge(target, method, error)
        assert reason == "MALFORMED_REQUEST", reason
    else:
        _count(target, method, Code.OK)


@given(
    path=st.sampled_from((_HEALTH_CHECK, _HEALTH_WATCH, _REFLECTION)),
    payload=st.one_of(
        st.binary(max_size=64),
        # A string field (the service name, a file name) that is not UTF-8.
        st.binary(max_size=16).map(lambda junk: b"\x0a\x02\xff\xfe" + junk),
    ),
)
def test_health_and_reflection_answer_malformed_bytes_malformed_request(
    target: Target, path: str, payload: bytes
) -> None:
    """Before: UNKNOWN with a logged traceback each (health), INTERNAL (reflection)."""
    _auxiliary_call(target, path, payload)
    health = health_pb2_grpc.HealthStub(target.channel).Check(
        health_pb2.HealthCheckRequest(service=""), timeout=TIMEOUT
    )
    assert health.status == health_pb2.HealthCheckResponse.SERVING


@pytest.mark.parametrize("path", [_HEALTH_CHECK, _HEALTH_WATCH, _REFLECTION])
def test_health_and_reflection_refuse_a_string_that_is_not_utf8(target: Target, path: str) -> None:
    channel = target.channel
    payload = b"\x0a\x02\xff\xfe"  # field 1, a string of two bytes that are not UTF-8
    with pytest.raises(grpc.RpcError) as refused:
        _send(channel, path, payload)
    assert refused.value.code() is Code.INVALID_ARGUMENT, refused.value.details()
    assert error_info(refused.value).reason == "MALFORMED_REQUEST"
