"""Campaigns and explored rounds of a profile that takes amounts (VAR.bj.double-for-less, VAR.bj.insurance-stake)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings

from croupier.conformance.explore.rounds import explored_vector
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import campaign, campaign_policy, random_decision
from croupier.oracle.profile import load_profile_file, shipped_profiles
from croupier.v1 import round_pb2

DOWNTOWN = Path(__file__).resolve().parents[2] / "docs" / "examples" / "downtown.toml"


def test_a_profile_that_takes_no_amount_draws_as_before() -> None:
    for profile in shipped_profiles():
        assert campaign_policy(profile) is random_decision, profile.id


def test_a_double_and_insurance_for_less_carry_seeded_amounts_below_the_full_one() -> None:
    vectors = campaign(load_profile_file(DOWNTOWN), "amounts", 300, "dt")
    seen = set()
    for vector in vectors:
        for vround in vector.rounds:
            for index, step in enumerate(vround.steps):
                decision = step.decision
                if not decision.HasField("amount"):
                    continue
                seen.add(decision.kind)
                assert decision.kind in (
                    round_pb2.DECISION_KIND_DOUBLE,
                    round_pb2.DECISION_KIND_INSURANCE,
                )
                assert decision.amount.currency_code == "EUR"
                assert decision.amount.minor_units >= 1
                # A refusal (over the seat's free funds) ends the round with this last step.
                if not (vround.expected_error and index == len(vround.steps) - 1):
                    # Below the full amount: the hand's stake grew by less than it was.
                    state = step.expected_state
                    seat = state.blackjack.seats[decision.seat]
                    if decision.kind == round_pb2.DECISION_KIND_INSURANCE:
                        assert seat.insurance.minor_units == decision.amount.minor_units
                    else:
                        hand = seat.hands[decision.hand]
                        assert hand.doubled
                        assert hand.stake.minor_units < 2 * (
                            hand.stake.minor_units - decision.amount.minor_units
                        )
    assert seen == {round_pb2.DECISION_KIND_DOUBLE, round_pb2.DECISION_KIND_INSURANCE}


def test_explored_rounds_of_such_a_profile_draw_amounts_too() -> None:
    kinds: set[int] = set()

    @settings(max_examples=200, database=None, derandomize=True)
    @given(explored_vector(load_profile_file(DOWNTOWN), "v").strategy)
    def count(vector: vector_pb2.Vector) -> None:
        for vround in vector.rounds:
            for step in vround.steps:
                if step.decision.HasField("amount"):
                    assert step.decision.amount.minor_units >= 1
                    kinds.add(step.decision.kind)

    count()
    assert kinds == {round_pb2.DECISION_KIND_DOUBLE, round_pb2.DECISION_KIND_INSURANCE}
