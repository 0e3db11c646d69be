"""What a corpus easily never asks: the round after a refusal or a Settle, ids across profiles and
letter case, fixed metadata values, a board per (profile, table).

The oracle side (``play_round``, ``replay``) and the runner's side (``exchanges``, the metadata
comparison) in process; the mutant zoo plays them against engines (tests/clients).
"""

from __future__ import annotations

from croupier.conformance.cases import Case, CaseRound, build_case
from croupier.conformance.runner import Exchange, _wrong_value, exchanges
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import play_round, replay, structure_problem
from croupier.oracle.profile import shipped_profile
from croupier.v1 import engine_service_pb2, round_pb2

HIT, STAND, DOUBLE = (
    round_pb2.DECISION_KIND_HIT,
    round_pb2.DECISION_KIND_STAND,
    round_pb2.DECISION_KIND_DOUBLE,
)


def _deal(
    profile: str, shoe: str, seats: str = "1000:100", round_id: str = "r"
) -> engine_service_pb2.DealRequest:
    case = Case(
        id="t-h000",
        name="t",
        profile=profile,
        clauses=("BJ.deal",),
        description="d",
        rounds=(CaseRound(seats=(seats,), shoe=shoe, error="ROUND_NOT_COMPLETE"),),
    )
    deal = build_case(case, shipped_profile(profile)).rounds[0].deal
    deal.round_id = round_id
    return deal


def test_a_refused_decision_lets_the_round_go_on_as_if_unsent() -> None:
    # 2S 3D = 5 hits 4C: 9 on three cards; a double is refused, then the hit takes TS, not the
    # card a refused double would have taken.
    profile = shipped_profile("blackjack-a")
    deal = _deal("blackjack-a", "2S 7H 3D TC 4C TS 5C 5D")
    hit = round_pb2.Decision(seat=0, hand=0, kind=HIT)
    refused = vector_pb2.VectorStep(
        decision=round_pb2.Decision(seat=0, hand=0, kind=DOUBLE), expected_error="refused"
    )
    stand = round_pb2.Decision(seat=0, hand=0, kind=STAND)
    played = play_round(profile, deal, [hit, refused, hit, stand], None).round
    plain = play_round(profile, deal, [hit, hit, stand], None).round
    assert played.steps[1].expected_error == "ILLEGAL_DECISION"
    assert set(played.steps[1].expected_error_values["legal"].split(",")) == {"hit", "stand"}
    assert not played.steps[1].HasField("expected_state")
    assert played.steps[2].expected_state == plain.steps[1].expected_state
    assert list(played.steps[2].expected_state.blackjack.seats[0].hands[0].cards) == [
        "2S",
        "3D",
        "4C",
        "TS",
    ]
    assert not played.expected_error
    assert played.expected_settle == plain.expected_settle
    assert (
        structure_problem(
            vector_pb2.Vector(id="v", profile_id="blackjack-a", level=1, rounds=[played])
        )
        == ""
    )


def test_a_settled_round_is_closed_to_a_second_settle_and_a_decide() -> None:
    profile = shipped_profile("blackjack-a")
    deal = _deal("blackjack-a", "TS 7H 9D TC 5C")
    stand = round_pb2.Decision(seat=0, hand=0, kind=STAND)
    after = [vector_pb2.VectorStep(settle=True), vector_pb2.VectorStep(decision=stand)]
    played = play_round(profile, deal, [stand], None, after=after).round
    assert played.expected_settle.settlement.lines[0].returned.minor_units == 200
    assert [late.expected_error for late in played.after_settle] == ["ROUND_NOT_FOUND"] * 2
    assert [dict(late.expected_error_values) for late in played.after_settle] == [
        {"round_id": "r"}
    ] * 2
    assert played.after_settle[0].settle
    vector = vector_pb2.Vector(id="v", profile_id="blackjack-a", level=1, rounds=[played])
    calls = list(exchanges(vector, 0, "run-"))
    assert [c.method for c in calls] == ["Deal", "Decide", "Settle", "Settle", "Decide"]
    assert calls[3].goes_on
    assert calls[3].expected_values == {"round_id": "run-r"}
    # A round whose after-settle call expects no refusal is no vector.
    played.after_settle[0].ClearField("expected_error")
    assert "after_settle" in structure_problem(
        vector_pb2.Vector(id="v", profile_id="blackjack-a", level=1, rounds=[played])
    )


def test_the_runner_compares_the_fixed_values_legal_as_a_set() -> None:
    exchange = Exchange(
        step="s",
        method="Decide",
        request=engine_service_pb2.DecideRequest(),
        expected=None,
        expected_error="ILLEGAL_DECISION",
        own_citations={},
        shared_citations={},
        expected_metadata=("legal",),
        expected_values={"legal": "hit,stand"},
    )
    assert _wrong_value(exchange, {"legal": "stand,hit"}) is None
    wrong = _wrong_value(exchange, {"legal": "hit,stand,double"})
    assert wrong is not None
    assert wrong.details["clause"] == "CONTRACT.error-metadata"
    assert wrong.details["path"] == "error.metadata[legal]"
    needed = Exchange(
        step="s",
        method="Deal",
        request=engine_service_pb2.DealRequest(),
        expected=None,
        expected_error="SHOE_EXHAUSTED",
        own_citations={},
        shared_citations={},
        expected_values={"needed": "4"},
    )
    assert _wrong_value(needed, {"needed": "4"}) is None
    assert _wrong_value(needed, {"needed": "3"}) is not None


def test_ids_span_profiles_and_keep_their_case() -> None:
    a, c = shipped_profile("blackjack-a"), shipped_profile("blackjack-c")
    shoe = "TS 7H 9D TC 5C"
    first = play_round(
        c, _deal("blackjack-c", shoe, round_id="x"), [], None, known={"blackjack-a", "blackjack-c"}
    )
    assert first.round.HasField("expected_state")
    again = play_round(
        a,
        _deal("blackjack-a", shoe, round_id="x"),
        [],
        None,
        taken={"x"},
        known={"blackjack-a", "blackjack-c"},
    )
    assert again.round.expected_error == "ROUND_EXISTS"
    assert dict(again.round.expected_error_values) == {"round_id": "x"}
    other_case = play_round(a, _deal("blackjack-a", shoe, round_id="X"), [], None, taken={"x"})
    assert other_case.round.HasField("expected_state")
    # Why it is not refused: ids are case-sensitive (CONTRACT.lifecycle).
    assert list(other_case.round.deal_citations["error=ROUND_EXISTS"].ids) == ["CONTRACT.lifecycle"]


def test_a_board_belongs_to_a_profile_and_a_table() -> None:
    case = Case(
        id="t-h001",
        name="t",
        profile="roulette-c",
        clauses=("C.rou.history",),
        description="d",
        other_profiles=("roulette-american",),
        rounds=(
            CaseRound(seats=("1000:red=100",), pocket="17", profile_id="roulette-american"),
            CaseRound(seats=("1000:red=100",), pocket="5"),
            CaseRound(seats=("1000:red=100",), pocket="9", table_id="t-h001-Table"),
            CaseRound(seats=("1000:red=100",), pocket="9", profile_id="roulette-american"),
        ),
    )
    vector = build_case(case, shipped_profile("roulette-c"))
    boards = [
        list((r.expected_state or r.expected_settle.state).roulette.history) for r in vector.rounds
    ]
    assert boards == [["17"], ["5"], ["9"], ["17", "9"]]
    assert list(vector.other_profile_ids) == ["roulette-american"]
    assert replay(vector, shipped_profile("roulette-c")) == vector
