"""A decision's amount on the wire (Decision.amount): VAR.bj.double-for-less, VAR.bj.insurance-stake."""

from __future__ import annotations

import pytest

from croupier.oracle.blackjack import Action, Decision
from croupier.oracle.errors import InvalidRoundError
from croupier.oracle.service import convert
from croupier.v1 import common_pb2, round_pb2


def test_an_amount_goes_both_ways_in_the_round_currency() -> None:
    decision = Decision(seat=0, hand=1, action=Action.DOUBLE, amount=40)
    message = convert.decision(decision, "EUR")
    assert message.amount == common_pb2.Amount(currency_code="EUR", minor_units=40)
    assert convert.decision_from(message, "EUR") == decision


def test_no_amount_is_the_full_one_and_stays_off_the_wire() -> None:
    decision = Decision(seat=0, hand=0, action=Action.DOUBLE)
    message = convert.decision(decision, "EUR")
    assert not message.HasField("amount")
    assert convert.decision_from(message, "EUR").amount is None


def test_an_amount_in_another_currency_is_refused() -> None:
    message = round_pb2.Decision(
        seat=0,
        hand=0,
        kind=round_pb2.DECISION_KIND_INSURANCE,
        amount=common_pb2.Amount(currency_code="USD", minor_units=20),
    )
    with pytest.raises(InvalidRoundError) as info:
        convert.decision_from(message, "EUR")
    assert info.value.reason == "INVALID_ROUND"
    assert info.value.clause == "TABLE.currency"
    assert info.value.metadata["field"] == "decision.amount"
