"""Exact money (RULES.md "Money"): odds, one rounding, payouts in minor units."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.oracle.money import (
    Odds,
    Payout,
    Rounding,
    exact_text,
    is_currency,
    lose,
    money_text,
    multiple,
    portion,
    push,
    returns,
    win,
)

F = Fraction

# (exact amount, DOWN, UP, HALF_UP, HALF_EVEN), computed by hand.
ROUNDING_TABLE = [
    (F(5, 2), 2, 3, 3, 2),
    (F(7, 2), 3, 4, 4, 4),
    (F(1, 2), 0, 1, 1, 0),
    (F(3, 2), 1, 2, 2, 2),
    (F(75, 2), 37, 38, 38, 38),
    (F(39, 2), 19, 20, 20, 20),
    (F(41, 2), 20, 21, 21, 20),
    (F(12, 5), 2, 3, 2, 2),
    (F(13, 5), 2, 3, 3, 3),
    (F(1, 3), 0, 1, 0, 0),
    (F(2, 3), 0, 1, 1, 1),
    (F(499, 1000), 0, 1, 0, 0),
    (F(501, 1000), 0, 1, 1, 1),
    (F(0), 0, 0, 0, 0),
    (F(7), 7, 7, 7, 7),
    (F(250), 250, 250, 250, 250),
    (F(10**15 + 1, 2), 5 * 10**14, 5 * 10**14 + 1, 5 * 10**14 + 1, 5 * 10**14),
]


@pytest.mark.parametrize(("exact", "down", "up", "half_up", "half_even"), ROUNDING_TABLE)
def test_rounding_modes(exact: Fraction, down: int, up: int, half_up: int, half_even: int) -> None:
    assert Rounding.DOWN.apply(exact) == down
    assert Rounding.UP.apply(exact) == up
    assert Rounding.HALF_UP.apply(exact) == half_up
    assert Rounding.HALF_EVEN.apply(exact) == half_even


@pytest.mark.parametrize("mode", list(Rounding))
def test_rounding_returns_an_int(mode: Rounding) -> None:
    result = mode.apply(F(5, 2))
    assert type(result) is int


@pytest.mark.parametrize("mode", list(Rounding))
def test_rounding_refuses_negative_amounts(mode: Rounding) -> None:
    with pytest.raises(ValueError, match="negative"):
        mode.apply(F(-1, 2))


def test_rounding_words_are_the_profile_words() -> None:
    assert Rounding("down") is Rounding.DOWN
    assert Rounding("up") is Rounding.UP
    assert Rounding("half-up") is Rounding.HALF_UP
    assert Rounding("half-even") is Rounding.HALF_EVEN


@given(st.fractions(min_value=0, max_value=10**9))
def test_rounding_is_within_one_unit(exact: Fraction) -> None:
    down = Rounding.DOWN.apply(exact)
    up = Rounding.UP.apply(exact)
    assert down <= exact <= up
    assert up - down == (0 if exact.denominator == 1 else 1)
    for mode in (Rounding.HALF_UP, Rounding.HALF_EVEN):
        assert abs(mode.apply(exact) - exact) <= F(1, 2)


# --- odds ---


@pytest.mark.parametrize(
    ("text", "win_", "per", "ratio"),
    [
        ("3:2", F(3), 2, F(3, 2)),
        ("35:1", F(35), 1, F(35)),
        ("0.95:1", F(19, 20), 1, F(19, 20)),
        ("2:1", F(2), 1, F(2)),
        ("8:1", F(8), 1, F(8)),
        (" 6 : 5 ", F(6), 5, F(6, 5)),
        ("0:1", F(0), 1, F(0)),
    ],
)
def test_odds_parse(text: str, win_: Fraction, per: int, ratio: Fraction) -> None:
    odds = Odds.parse(text)
    assert odds.win == win_
    assert odds.per == per
    assert odds.ratio == ratio
    assert isinstance(odds.ratio, Fraction)


@pytest.mark.parametrize("text", ["3:2", "35:1", "0.95:1", "8:1"])
def test_odds_str_round_trips(text: str) -> None:
    assert str(Odds.parse(text)) == text
    assert Odds.parse(str(Odds.parse(text))) == Odds.parse(text)


@pytest.mark.parametrize(
    "text", ["3", "a:b", "-1:1", "1:0", "", ":", "3:", ":2", "3:-2", "3:2.5", "1:a", "3:2:1"]
)
def test_odds_parse_refusals(text: str) -> None:
    with pytest.raises(ValueError, match="odds"):
        Odds.parse(text)


# --- payouts ---

THREE_TWO = Odds.parse("3:2")
EVEN = Odds.parse("1:1")


def test_example_a1_blackjack_pays_250() -> None:
    # RULES.md BJ.nat-pays, example A1: stake 100, blackjack against a 7 up: 250 returned.
    payout = win(100, THREE_TWO, Rounding.DOWN)
    assert payout == Payout(stake=100, returned_exact=F(250), returned=250)
    assert payout.net == 150


def test_three_two_on_an_odd_stake() -> None:
    # 15 + 15 * 3/2 = 37.5 exactly.
    down = win(15, THREE_TWO, Rounding.DOWN)
    up = win(15, THREE_TWO, Rounding.UP)
    assert down.returned_exact == F(75, 2)
    assert up.returned_exact == F(75, 2)
    assert down.returned == 37
    assert up.returned == 38
    assert down.net == 22
    assert up.net == 23
    assert win(15, THREE_TWO, Rounding.HALF_EVEN).returned == 38
    assert win(15, THREE_TWO, Rounding.HALF_UP).returned == 38


def test_example_a2_even_money_returns_200() -> None:
    assert win(100, EVEN, Rounding.DOWN).returned == 200


@pytest.mark.parametrize("rounding", list(Rounding))
def test_whole_odds_return_a_whole_exact_amount_under_every_rounding(rounding: Rounding) -> None:
    # MONEY: 7 at 35:1 returns 7 + 245 = 252 exactly; 7 at 1:1 returns 14; nothing to round.
    assert win(7, Odds.parse("35:1"), rounding) == Payout(
        stake=7, returned_exact=F(252), returned=252
    )
    assert win(7, EVEN, rounding) == Payout(stake=7, returned_exact=F(14), returned=14)
    # 7 at 1:2 (a base of 2) is 10.5: the whole-odds shortcut must not take it.
    assert win(7, Odds.parse("1:2"), Rounding.DOWN).returned_exact == F(21, 2)


def test_example_a4_insurance_returns_150() -> None:
    # RULES.md A.insurance, example A4: insurance 50 at 2:1, 150 returned.
    payout = win(50, Odds.parse("2:1"), Rounding.DOWN)
    assert payout.returned == 150
    assert payout.net == 100


def test_banker_commission_win() -> None:
    # BAC.pay-banker: net 0.95:1. 100 -> 195; 10 -> 19.5, rounded down 19 (RULES.md "Money").
    banker = Odds.parse("0.95:1")
    assert win(100, banker, Rounding.DOWN).returned == 195
    payout = win(10, banker, Rounding.DOWN)
    assert payout.returned_exact == F(39, 2)
    assert payout.returned == 19
    assert payout.net == 9


def test_straight_up_pays_35() -> None:
    assert win(10, Odds.parse("35:1"), Rounding.DOWN).returned == 360


def test_lose_and_push() -> None:
    assert lose(100) == Payout(stake=100, returned_exact=F(0), returned=0)
    assert lose(100).net == -100
    assert push(100) == Payout(stake=100, returned_exact=F(100), returned=100)
    assert push(100).net == 0


def test_portion_half_of_an_odd_stake() -> None:
    # Surrender refund (BJ.half-stakes): half of 15 is 7.5 exactly, rounded down 7.
    payout = portion(15, F(1, 2), Rounding.DOWN)
    assert payout.stake == 15
    assert payout.returned_exact == F(15, 2)
    assert payout.returned == 7
    assert payout.net == -8
    assert portion(15, F(1, 2), Rounding.UP).returned == 8
    assert portion(100, F(1, 2), Rounding.DOWN).returned == 50
    assert portion(100, F(1, 2), Rounding.DOWN).net == -50


def test_returns_rounds_once() -> None:
    payout = returns(20, F(77, 2), Rounding.DOWN)
    assert payout == Payout(stake=20, returned_exact=F(77, 2), returned=38)
    assert payout.net == 18


@given(
    stake=st.integers(1, 10**12),
    win_=st.fractions(min_value=0, max_value=100, max_denominator=1000),
    per=st.integers(1, 100),
)
def test_win_is_exact_then_rounded_once(stake: int, win_: Fraction, per: int) -> None:
    odds = Odds(win=win_, per=per)
    payout = win(stake, odds, Rounding.DOWN)
    assert payout.returned_exact == stake + stake * win_ / per
    assert payout.returned == payout.returned_exact.numerator // payout.returned_exact.denominator
    assert payout.net == payout.returned - stake


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (F(250), "250"),
        (F(75, 2), "37.5"),
        (F(19, 20), "0.95"),
        (F(117, 4), "29.25"),
        (F(1, 8), "0.125"),
        (F(-3, 2), "-1.5"),
        (F(75, 7), "75/7"),
        (F(1, 3), "1/3"),
        # Denominators of fives alone: 1/5 = 2/10, 1/25 = 4/100, 1/125 = 8/1000.
        (F(1, 5), "0.2"),
        (F(-1, 5), "-0.2"),
        (F(1, 25), "0.04"),
        (F(1, 125), "0.008"),
        (F(7, 5), "1.4"),
        # Twos alone need as many places as twos: 1/16 = 625/10000.
        (F(1, 16), "0.0625"),
        # Twos and fives: as many places as the larger count; 3/40 = 75/1000, 1/20 = 5/100.
        (F(3, 40), "0.075"),
        (F(1, 20), "0.05"),
        (F(1, 10), "0.1"),
        (F(1001, 100), "10.01"),
        # Any other prime factor keeps the fraction: 2/15 (3 * 5), 1/6 (2 * 3), 1/7.
        (F(2, 15), "2/15"),
        (F(1, 6), "1/6"),
        (F(-1, 7), "-1/7"),
        (F(0), "0"),
        (F(-7), "-7"),
    ],
)
def test_exact_text_writes_exact_decimals_and_keeps_other_fractions(value: F, text: str) -> None:
    assert exact_text(value) == text


@pytest.mark.parametrize(
    ("code", "listed"),
    [
        ("EUR", True),
        ("JPY", True),  # no minor unit is still a minor unit count (0)
        ("KWD", True),  # three decimals
        ("XYZ", False),  # three capital letters ISO 4217 does not list
        ("XXX", False),  # "no currency": no minor units to count money in
        ("XAU", False),  # gold
        ("eur", False),
        ("", False),
    ],
)
def test_a_round_currency_is_an_iso_4217_currency_with_minor_units(code: str, listed: bool) -> None:
    # TABLE.currency: a round is in one ISO 4217 currency; money is counted in minor units.
    assert is_currency(code) is listed


# ISO 4217's minor-unit exponents (its table's "minor unit" column): EUR, USD 2; JPY, KRW,
# ISK 0; KWD, BHD, TND 3; CLF, UYW 4. The texts are worked out by hand from them.
@pytest.mark.parametrize(
    ("minor_units", "currency", "text"),
    [
        (1250, "EUR", "12.50 EUR"),
        (5, "EUR", "0.05 EUR"),
        (1, "USD", "0.01 USD"),
        (100, "USD", "1.00 USD"),
        (0, "EUR", "0.00 EUR"),
        (123456789, "USD", "1234567.89 USD"),
        (7, "JPY", "7 JPY"),
        (0, "KRW", "0 KRW"),
        (1500, "ISK", "1500 ISK"),
        (1, "BHD", "0.001 BHD"),
        (1000, "KWD", "1.000 KWD"),
        (12345, "TND", "12.345 TND"),
        (10001, "CLF", "1.0001 CLF"),
        (5, "UYW", "0.0005 UYW"),
    ],
)
def test_money_text_writes_the_major_unit_with_the_currency_s_exponent(
    minor_units: int, currency: str, text: str
) -> None:
    # TABLE.currency: amounts are counted in the currency's minor units; a reader sees the major
    # unit with as many decimals as ISO 4217 gives the currency, and none when it has none.
    assert money_text(minor_units, currency) == text


@pytest.mark.parametrize(
    ("minor_units", "currency", "text"),
    [
        (-1250, "EUR", "-12.50 EUR"),
        (-5, "EUR", "-0.05 EUR"),
        (-1, "EUR", "-0.01 EUR"),
        (-2, "USD", "-0.02 USD"),
        (-100, "USD", "-1.00 USD"),
        (-7, "JPY", "-7 JPY"),
        (-1, "JPY", "-1 JPY"),
        (-1, "KWD", "-0.001 KWD"),
        (-10001, "CLF", "-1.0001 CLF"),
    ],
)
def test_money_text_of_a_loss_puts_the_sign_before_the_whole_amount(
    minor_units: int, currency: str, text: str
) -> None:
    # A net loss (Payout.net) is negative: -5 cents is -0.05 EUR, the sign before the amount's
    # size; floor division of -5 by 100 would give -1 and 95, which reads -1.95.
    assert money_text(minor_units, currency) == text


@pytest.mark.parametrize(
    ("minor_units", "currency", "text"),
    [
        (3, "ZZZ", "3 ZZZ (minor units)"),
        (1250, "XAU", "1250 XAU (minor units)"),  # gold: no minor units in ISO 4217
        (-40, "XXX", "-40 XXX (minor units)"),  # "no currency"
        (1250, "eur", "1250 eur (minor units)"),  # codes are capitals
        (0, "", "0  (minor units)"),
    ],
)
def test_money_text_keeps_the_minor_units_of_a_code_that_is_no_currency(
    minor_units: int, currency: str, text: str
) -> None:
    # A log may hold any code: one that is no ISO 4217 currency with minor units is shown as
    # it came, in minor units, and says so rather than guessing an exponent.
    assert money_text(minor_units, currency) == text


def test_odds_and_payouts_are_frozen() -> None:
    # oracle/ records are immutable: a settled amount cannot be changed after the fact.
    payout = win(10, EVEN, Rounding.DOWN)
    with pytest.raises(dataclasses.FrozenInstanceError):
        payout.returned = 25  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        EVEN.per = 2  # type: ignore[misc]
    assert payout == Payout(stake=10, returned_exact=F(20), returned=20)


def test_a_whole_exact_amount_is_an_int_and_only_a_part_unit_makes_a_fraction() -> None:
    # RULES.md "Money": exact, rounded once. 100 at 3:2 returns 250 exactly (A1), a whole
    # amount; 15 at 3:2 returns 37.5, which needs a fraction; 10 at 0.95:1 returns 19.5.
    whole = win(100, THREE_TWO, Rounding.DOWN)
    assert type(whole.returned_exact) is int
    assert whole.returned_exact == 250
    part = win(15, THREE_TWO, Rounding.DOWN)
    assert type(part.returned_exact) is F
    assert part.returned_exact == F(75, 2)
    assert type(win(10, Odds.parse("0.95:1"), Rounding.DOWN).returned_exact) is F
    # A share or an amount computed elsewhere that comes out whole is an int too.
    assert type(portion(100, F(1, 2), Rounding.DOWN).returned_exact) is int
    assert type(portion(15, F(1, 2), Rounding.DOWN).returned_exact) is F
    assert type(returns(20, F(40), Rounding.DOWN).returned_exact) is int
    assert returns(20, F(40), Rounding.DOWN) == Payout(stake=20, returned_exact=40, returned=40)
    assert type(lose(100).returned_exact) is int
    assert type(push(100).returned_exact) is int


def test_multiple_returns_stake_times_a_ratio_rounded_once() -> None:
    # 15 * 5/2 = 37.5 (a 3:2 win, stake included): 37 down, 38 up; 10 * 39/20 = 19.5.
    assert multiple(15, 5, 2, Rounding.DOWN) == Payout(
        stake=15, returned_exact=F(75, 2), returned=37
    )
    assert multiple(15, 5, 2, Rounding.UP).returned == 38
    assert multiple(10, 39, 20, Rounding.HALF_EVEN) == Payout(
        stake=10, returned_exact=F(39, 2), returned=20
    )
    assert multiple(100, 39, 20, Rounding.DOWN) == Payout(
        stake=100, returned_exact=195, returned=195
    )


@pytest.mark.parametrize(
    ("text", "returned"),
    [("3:2", (5, 2)), ("1:1", (2, 1)), ("35:1", (36, 1)), ("0.95:1", (39, 20)), ("6:5", (11, 5))],
)
def test_odds_returned_is_one_plus_the_odds_as_a_fraction(
    text: str, returned: tuple[int, int]
) -> None:
    # A unit stake back plus its net win: 1 + 3/2 = 5/2, 1 + 0.95 = 39/20, 1 + 6/5 = 11/5.
    numerator, denominator = Odds.parse(text).returned
    assert F(numerator, denominator) == F(*returned)
