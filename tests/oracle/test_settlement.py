"""oracle.settlement: table limits, seat funds, settlement lines and their citations.

Every expected value is worked out by hand from RULES.md (TABLE.limits, MONEY.rounding) and
the contract labels of ``proto/croupier/conformance/v1/vector.proto`` (CONTRACT.request,
CONTRACT.balance, CONTRACT.settlement), never read back from the oracle.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from croupier.oracle.errors import BetOutOfLimitsError, InsufficientBalanceError, InvalidRoundError
from croupier.oracle.money import Payout
from croupier.oracle.profile import shipped_profile
from croupier.oracle.settlement import (
    Limits,
    SettlementLine,
    Step,
    check_seat_stakes,
    settled,
    settlement_citations,
)

LIMITS = Limits(min_bet=10, max_bet=500, clauses=("B.limits", "TABLE.limits"))
ROUNDING = ("MONEY.rounding",)


def test_limits_of_a_profile_are_its_parameters() -> None:
    # baccarat-b.toml: min_bet 1 and max_bet 1000000, both cited by TABLE.limits and B.limits.
    limits = Limits.of(shipped_profile("baccarat-b"))
    assert (limits.min_bet, limits.max_bet) == (1, 1_000_000)
    assert limits.clauses == ("TABLE.limits", "B.limits")


@pytest.mark.parametrize("amount", [10, 11, 499, 500])
def test_a_stake_within_the_limits_is_accepted(amount: int) -> None:
    LIMITS.check(seat=0, bet="player", amount=amount)


@pytest.mark.parametrize("amount", [-10, 0, 9, 501])
def test_a_stake_outside_the_limits_is_refused_citing_the_first_limits_clause(amount: int) -> None:
    with pytest.raises(BetOutOfLimitsError) as caught:
        LIMITS.check(seat=2, bet="banker", amount=amount)
    assert caught.value.reason == "BET_OUT_OF_LIMITS"
    assert dict(caught.value.metadata) == {
        "seat": "2",
        "bet": "banker",
        "amount": str(amount),
        "min_bet": "10",
        "max_bet": "500",
        "clause": "B.limits",
    }


def test_the_default_limits_clause_is_table_limits() -> None:
    with pytest.raises(BetOutOfLimitsError) as caught:
        Limits(min_bet=1, max_bet=2).check(seat=0, bet="player", amount=3)
    assert caught.value.clause == "TABLE.limits"


def test_stakes_that_exactly_use_the_balance_are_accepted() -> None:
    check_seat_stakes(seat=0, balance=60, stakes=[("player", 10), ("tie", 50)], limits=LIMITS)


def test_a_zero_balance_is_not_negative_but_covers_no_stake() -> None:
    with pytest.raises(InsufficientBalanceError) as caught:
        check_seat_stakes(seat=1, balance=0, stakes=[("player", 10)], limits=LIMITS)
    assert caught.value.clause == "CONTRACT.balance"
    assert caught.value.metadata["stake"] == "10"
    assert caught.value.metadata["balance"] == "0"


@pytest.mark.parametrize("balance", [-1, -100])
def test_a_negative_balance_is_a_malformed_request(balance: int) -> None:
    with pytest.raises(InvalidRoundError) as caught:
        check_seat_stakes(seat=3, balance=balance, stakes=[("player", 10)], limits=LIMITS)
    assert caught.value.clause == "CONTRACT.request"
    assert caught.value.metadata["field"] == "seats[3].balance"
    assert caught.value.metadata["balance"] == str(balance)


def test_a_seat_without_a_bet_is_a_malformed_request() -> None:
    with pytest.raises(InvalidRoundError) as caught:
        check_seat_stakes(seat=0, balance=100, stakes=[], limits=LIMITS)
    assert caught.value.clause == "CONTRACT.request"


def test_stakes_over_the_balance_cite_the_funds_clause_with_their_total() -> None:
    with pytest.raises(InsufficientBalanceError) as caught:
        check_seat_stakes(
            seat=0,
            balance=59,
            stakes=[("main", 10), ("side", 50)],
            limits=LIMITS,
            funds_clause="BJ.funds",
        )
    assert caught.value.clause == "BJ.funds"
    assert caught.value.metadata["stake"] == "60"


def test_limits_come_before_funds() -> None:
    # A stake of 5 is below the minimum of 10, whatever the balance.
    with pytest.raises(BetOutOfLimitsError):
        check_seat_stakes(seat=0, balance=1, stakes=[("player", 5)], limits=LIMITS)


# A blackjack on a stake of 5 at 3:2 returns 5 + 7.5 = 12.5 exactly (MONEY.rounding): 12
# rounded down, 13 rounded up.
HALF_DOWN = Payout(stake=5, returned_exact=Fraction(25, 2), returned=12)
HALF_UP = Payout(stake=5, returned_exact=Fraction(25, 2), returned=13)
WHOLE = Payout(stake=100, returned_exact=Fraction(250), returned=250)
LOST = Payout(stake=100, returned_exact=Fraction(0), returned=0)


@pytest.mark.parametrize("payout", [HALF_DOWN, HALF_UP])
def test_a_rounded_line_cites_the_rounding_rule_after_its_own(payout: Payout) -> None:
    line = settled(
        seat=0, bet="main", payout=payout, clauses=("BJ.nat-pays", "BJ.natural"), rounding=ROUNDING
    )
    assert line.clauses == ("BJ.nat-pays", "BJ.natural", "MONEY.rounding")


def test_a_rounding_clause_already_cited_is_not_repeated() -> None:
    line = settled(
        seat=0,
        bet="main",
        payout=HALF_DOWN,
        clauses=("BJ.nat-pays", "MONEY.rounding"),
        rounding=("MONEY.rounding", "A.payout"),
    )
    assert line.clauses == ("BJ.nat-pays", "MONEY.rounding", "A.payout")


def test_an_exact_line_does_not_cite_rounding() -> None:
    line = settled(
        seat=1, bet="main", payout=WHOLE, clauses=("BJ.nat-pays",), rounding=ROUNDING, won_by=("X",)
    )
    assert line == SettlementLine(
        seat=1, bet="main", payout=WHOLE, clauses=("BJ.nat-pays",), won_by=("X",)
    )


def _line(payout: Payout, won_by: tuple[str, ...] = ()) -> SettlementLine:
    return SettlementLine(seat=0, bet="b", payout=payout, clauses=("R.pay",), won_by=won_by)


def test_settlement_citations_of_the_shape() -> None:
    shape = ("CONTRACT.settlement",)
    assert settlement_citations([], ROUNDING) == {
        "lines": shape,
        "total_staked": shape,
        "total_returned": shape,
    }


def test_settlement_citations_of_each_line() -> None:
    lines = [
        _line(WHOLE, won_by=("R.won",)),  # paid: why not 0 is won_by
        _line(LOST, won_by=("R.won",)),  # lost: nothing says it should have been 0
        _line(WHOLE),  # paid, but no won_by
        _line(HALF_DOWN),  # 12.5 paid 12: why not 13 is the rounding rule
        _line(HALF_UP),  # 12.5 paid 13: why not 12 is the rounding rule
        _line(Payout(stake=3, returned_exact=Fraction(10, 3), returned=3), won_by=("R.won",)),
    ]
    shape = ("CONTRACT.settlement",)
    assert settlement_citations(lines, ROUNDING) == {
        "lines": shape,
        "total_staked": shape,
        "total_returned": shape,
        "lines[0]": ("R.pay",),
        "lines[0].returned.minor_units=0": ("R.won",),
        "lines[1]": ("R.pay",),
        "lines[2]": ("R.pay",),
        "lines[3]": ("R.pay",),
        "lines[3].returned.minor_units=13": ("MONEY.rounding", "R.pay"),
        "lines[4]": ("R.pay",),
        "lines[4].returned.minor_units=12": ("MONEY.rounding", "R.pay"),
        "lines[5]": ("R.pay",),
        "lines[5].returned.minor_units=0": ("R.won",),
        "lines[5].returned.minor_units=4": ("MONEY.rounding", "R.pay"),
    }


VALUES = [
    Limits(min_bet=1, max_bet=2),
    _line(WHOLE),
    Step(action="deal", clauses=("BJ.deal",)),
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_values_are_immutable(value: object) -> None:
    field = dataclasses.fields(value)[0].name  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, field, 0)


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_values_are_built_by_keyword_only(value: object) -> None:
    positional = [getattr(value, f.name) for f in dataclasses.fields(value)]  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        type(value)(*positional)


def test_step_detail_defaults_to_empty() -> None:
    assert Step(action="deal", clauses=()).detail == ""
