"""Malformed and out-of-order requests never break the server (Hypothesis).

Each example sends a sequence of Deal, Decide, Settle, GetProfile, VerifyRound and
VerifyRounds calls with random field values (junk ids, cards, pockets, enum ints, amounts)
over a few round ids of its own. Every error must be a canonical code other than INTERNAL
and UNKNOWN, with one ErrorInfo whose reason maps to that code. A model follows the ids: a
round never dealt or already settled is ROUND_NOT_FOUND, a used id is never dealt again, and
card-game rounds are mirrored by the oracle in process, so that each Decide and Settle either
fails with the oracle's own reason or gives exactly the oracle's state and settlement.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import grpc
from croupier.v1 import (
    engine_service_pb2,
    engine_service_pb2_grpc,
    oracle_service_pb2,
    oracle_service_pb2_grpc,
    round_pb2,
)
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import event, given
from hypothesis import strategies as st

from oracle import blackjack
from oracle.errors import OracleError
from oracle.profile import shipped_profile
from oracle.rounds import Round, apply_decision
from oracle.rounds import start_round as start_in_process
from oracle.service import convert
from tests.service.support import TIMEOUT, error_info, new_id, wire_bytes
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
    "ROUND_NOT_FOUND": Code.NOT_FOUND,
    "ROUND_EXISTS": Code.ALREADY_EXISTS,
    "ROUND_NOT_COMPLETE": Code.FAILED_PRECONDITION,
    "TOO_MANY_OPEN_ROUNDS": Code.RESOURCE_EXHAUSTED,
    "BATCH_TOO_LARGE": Code.RESOURCE_EXHAUSTED,
}


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
    )


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


def call(method: Any, request: Any) -> Outcome:
    """Call, and check any error against the contract."""
    try:
        return Outcome(response=method(request, timeout=TIMEOUT))
    except grpc.RpcError as exc:
        error = exc
    assert error.code() not in (Code.INTERNAL, Code.UNKNOWN), error.details()
    info = error_info(error)
    assert info.reason in REASON_CODES, info.reason
    assert error.code() == REASON_CODES[info.reason], (error.code(), info.reason)
    return Outcome(reason=info.reason)


def oracle_outcome(action: Any) -> tuple[Round | None, str | None]:
    """The in-process oracle's round, or the reason it refuses."""
    try:
        return action(), None
    except OracleError as exc:
        return None, exc.reason


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
    expected, reason = oracle_outcome(
        lambda: start_in_process(
            shipped_profile(request.profile_id), convert.round_request_from(request)
        )
    )
    assert reason is None, f"the server dealt a round the oracle refuses with {reason}"
    assert expected is not None
    assert wire_bytes(state) == wire_bytes(convert.round_state(expected))
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
        lambda: apply_decision(current, convert.decision_from(request.decision))
    )
    assert got.reason == reason
    if expected is not None:
        assert wire_bytes(got.response.state) == wire_bytes(convert.round_state(expected))
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
        assert wire_bytes(got.response.settlement) == wire_bytes(want)
    del model.open[round_id]
    model.closed.add(round_id)


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
    assert isinstance(current.game, blackjack.BlackjackState)
    turn = current.game.turn
    assert turn is not None
    action = data.draw(st.sampled_from(current.legal))
    return engine_service_pb2.DecideRequest(
        round_id=round_id,
        decision=convert.decision(
            blackjack.Decision(seat=turn.seat, hand=turn.hand, action=action)
        ),
    )


@given(data=st.data())
def test_bad_and_out_of_order_requests_never_break_the_server(
    engine: engine_service_pb2_grpc.EngineServiceStub,
    oracle_stub: oracle_service_pb2_grpc.OracleServiceStub,
    channel: grpc.Channel,
    data: st.DataObject,
) -> None:
    prefix = new_id("fuzz")
    round_ids = [f"{prefix}-{k}" for k in range(3)]
    calls = data.draw(st.lists(service_calls(round_ids), min_size=4, max_size=14))
    model = Model()
    methods = {
        "Deal": engine.Deal,
        "Decide": engine.Decide,
        "Settle": engine.Settle,
        "GetProfile": oracle_stub.GetProfile,
        "VerifyRound": oracle_stub.VerifyRound,
        "VerifyRounds": oracle_stub.VerifyRounds,
    }
    for planned, planned_request in calls:
        name, request = planned, planned_request
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
        got = call(methods[name], request)
        event(f"{name}: {got.reason or 'ok'}")
        if name == "Deal":
            check_deal(model, request, got)
        elif name == "Decide":
            check_decide(model, request, got)
        elif name == "Settle":
            check_settle(model, request, got)
        elif name == "VerifyRounds" and got.reason is None:
            assert len(got.response.verdicts) == len(request.records)
    health = health_pb2_grpc.HealthStub(channel).Check(
        health_pb2.HealthCheckRequest(service=""), timeout=TIMEOUT
    )
    assert health.status == health_pb2.HealthCheckResponse.SERVING
