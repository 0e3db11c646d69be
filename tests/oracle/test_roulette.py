"""Roulette C and American: every expectation is worked out by hand from RULES.md and document C.

Document C's table of gains: plein 35, split 17, street 11, corner 8, quatre 8,
ligne 5, douzaine/colonne 2, even chances 1 (all "pour 1", read as net odds).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from croupier.oracle.errors import (
    BetOutOfLimitsError,
    InsufficientBalanceError,
    InvalidBetLayoutError,
    InvalidRoundError,
    ProfileError,
)
from croupier.oracle.money import Odds, Rounding
from croupier.oracle.profile import Profile, load_profile_text, shipped_profile
from croupier.oracle.roulette import (
    DOUBLE_ZERO,
    BetKind,
    Boards,
    Colour,
    RouletteBet,
    RouletteRules,
    RouletteSeat,
    TableHistory,
    Wheel,
    accepted,
    colour,
    covered,
    parse_pocket,
    pocket_text,
    shapes,
    spin_round,
)
from croupier.oracle.settlement import SettlementLine

EU = Wheel.EUROPEAN
US = Wheel.AMERICAN
ZZ = DOUBLE_ZERO


def _lab(text: str) -> Profile:
    return load_profile_text(text, origin="<lab>")


def _rules(profile_id: str) -> RouletteRules:
    return RouletteRules.from_profile(shipped_profile(profile_id))


C = _rules("roulette-c")
AMERICAN = _rules("roulette-american")
HALF_BACK = RouletteRules.from_profile(
    _lab(
        'id = "lab-half-back"\nextends = "roulette-c"\n'
        '[parameters]\nzero_rule = { value = "half-back" }\n'
    )
)
HALF_BACK_US = RouletteRules.from_profile(
    _lab(
        'id = "lab-half-back-us"\nextends = "roulette-american"\n'
        '[parameters]\nzero_rule = { value = "half-back" }\n'
    )
)

# Transcribed from RULES.md C.rou.wheel, not computed.
RED = (1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36)
BLACK = (2, 4, 6, 8, 10, 11, 13, 15, 17, 20, 22, 24, 26, 28, 29, 31, 33, 35)


def _one(
    rules: RouletteRules,
    pocket: int,
    kind: BetKind,
    numbers: tuple[int, ...] = (),
    amount: int = 10,
) -> SettlementLine:
    bet = RouletteBet(kind=kind, numbers=numbers, amount=amount)
    seat = RouletteSeat(balance=10_000, bets=(bet,))
    (line,) = spin_round(rules, TableHistory.new("t"), pocket, (seat,)).settlement
    return line


def _accepted(wheel: Wheel, kind: BetKind, numbers: tuple[int, ...]) -> bool:
    try:
        covered(wheel, kind, numbers)
    except InvalidBetLayoutError:
        return False
    return True


# --- C.rou.wheel: pockets and colours -------------------------------------------------


def test_wheel_red_list_is_the_documented_one() -> None:
    assert [n for n in range(1, 37) if colour(n) is Colour.RED] == list(RED)
    assert [n for n in range(1, 37) if colour(n) is Colour.BLACK] == list(BLACK)
    assert colour(0) is Colour.GREEN
    assert colour(ZZ) is Colour.GREEN


def test_wheel_red_and_black_bets_cover_the_lists() -> None:
    assert covered(EU, BetKind.RED, ()) == frozenset(RED)
    assert covered(EU, BetKind.BLACK, ()) == frozenset(BLACK)


def test_wheel_pocket_counts() -> None:
    assert EU.pockets == 37
    assert US.pockets == 38
    assert C.wheel is EU
    assert AMERICAN.wheel is US


def test_wheel_pocket_text_and_parse() -> None:
    assert pocket_text(0) == "0"
    assert pocket_text(36) == "36"
    assert pocket_text(ZZ) == "00"
    assert parse_pocket("17", EU) == 17
    assert parse_pocket("0", EU) == 0
    assert parse_pocket("00", US) == 37
    assert parse_pocket("36", US) == 36


@pytest.mark.parametrize(
    ("text", "wheel"),
    [
        pytest.param("00", EU, id="C.rou.wheel-00-not-european"),
        pytest.param("37", EU, id="C.rou.wheel-37-european"),
        pytest.param("37", US, id="C.rou.wheel-37-is-not-how-00-is-written"),
        pytest.param("07", EU, id="C.rou.wheel-leading-zero"),
        pytest.param("-1", EU, id="C.rou.wheel-negative"),
        pytest.param("", US, id="C.rou.wheel-empty"),
        pytest.param("x", US, id="C.rou.wheel-junk"),
    ],
)
def test_wheel_parse_pocket_refuses(text: str, wheel: Wheel) -> None:
    with pytest.raises(InvalidBetLayoutError) as err:
        parse_pocket(text, wheel)
    assert err.value.metadata["wheel"] == wheel.value


@pytest.mark.parametrize(
    ("wheel", "expected"),
    [(EU, "(expected 0 to 36, "), (US, "(expected 0, 00 or 1 to 36, ")],
)
def test_wheel_parse_pocket_says_which_pockets_the_wheel_has(wheel: Wheel, expected: str) -> None:
    # C.rou.wheel: 0-36; US.rou.wheel: 0, 00 and 1-36.
    with pytest.raises(InvalidBetLayoutError) as err:
        parse_pocket("37", wheel)
    assert expected in err.value.message


def test_wheel_pocket_text_refuses_non_pockets() -> None:
    with pytest.raises(InvalidBetLayoutError):
        pocket_text(38)
    with pytest.raises(InvalidBetLayoutError):
        pocket_text(-1)


# --- C.rou.wheel: the table of gains -------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "odds"),
    [
        pytest.param(BetKind.STRAIGHT, 35, id="C.rou.wheel-plein-35"),
        pytest.param(BetKind.SPLIT, 17, id="C.rou.wheel-split-17"),
        pytest.param(BetKind.STREET, 11, id="C.rou.wheel-street-11"),
        pytest.param(BetKind.CORNER, 8, id="C.rou.wheel-corner-8"),
        pytest.param(BetKind.FIRST_FOUR, 8, id="C.rou.wheel-quatre-8"),
        pytest.param(BetKind.LINE, 5, id="C.rou.wheel-ligne-5"),
        pytest.param(BetKind.COLUMN, 2, id="C.rou.wheel-colonne-2"),
        pytest.param(BetKind.DOZEN, 2, id="C.rou.wheel-douzaine-2-not-the-2:2-misprint"),
        pytest.param(BetKind.RED, 1, id="C.rou.wheel-rouge-1"),
        pytest.param(BetKind.BLACK, 1, id="C.rou.wheel-noir-1"),
        pytest.param(BetKind.EVEN, 1, id="C.rou.wheel-pair-1"),
        pytest.param(BetKind.ODD, 1, id="C.rou.wheel-impair-1"),
        pytest.param(BetKind.LOW, 1, id="C.rou.wheel-bas-1"),
        pytest.param(BetKind.HIGH, 1, id="C.rou.wheel-haut-1"),
    ],
)
def test_wheel_odds_of_profile_c(kind: BetKind, odds: int) -> None:
    assert C.odds_for(kind) == Odds(win=Fraction(odds), per=1)


def test_wheel_american_top_line_odds() -> None:
    assert AMERICAN.odds_for(BetKind.TOP_LINE) == Odds(win=Fraction(6), per=1)


# (rules, pocket, kind, numbers, stake 10 -> returned)
PAYS = [
    pytest.param(C, 17, BetKind.STRAIGHT, (17,), 360, id="C.rou.wheel-straight-17-wins"),
    # The layout's first and last numbers: 10 + 35 * 10 = 360.
    pytest.param(C, 1, BetKind.STRAIGHT, (1,), 360, id="C.rou.wheel-straight-1-wins"),
    pytest.param(C, 2, BetKind.STRAIGHT, (1,), 0, id="C.rou.wheel-straight-1-loses"),
    pytest.param(C, 36, BetKind.STRAIGHT, (36,), 360, id="C.rou.wheel-straight-36-wins"),
    pytest.param(AMERICAN, 1, BetKind.STRAIGHT, (1,), 360, id="american-straight-1-wins"),
    pytest.param(C, 18, BetKind.STRAIGHT, (17,), 0, id="C.rou.wheel-straight-17-loses"),
    pytest.param(C, 0, BetKind.STRAIGHT, (0,), 360, id="C.rou.wheel-straight-0-wins"),
    pytest.param(C, 1, BetKind.SPLIT, (0, 1), 180, id="C.rou.wheel-split-0-1-wins"),
    pytest.param(C, 3, BetKind.SPLIT, (0, 1), 0, id="C.rou.wheel-split-0-1-loses"),
    pytest.param(C, 20, BetKind.SPLIT, (17, 20), 180, id="C.rou.wheel-split-17-20-wins"),
    pytest.param(C, 14, BetKind.STREET, (13, 14, 15), 120, id="C.rou.wheel-street-wins"),
    pytest.param(C, 16, BetKind.STREET, (13, 14, 15), 0, id="C.rou.wheel-street-loses"),
    pytest.param(C, 0, BetKind.STREET, (0, 2, 3), 120, id="C.rou.wheel-trio-0-2-3-wins"),
    pytest.param(C, 1, BetKind.STREET, (0, 2, 3), 0, id="C.rou.wheel-trio-0-2-3-loses"),
    pytest.param(C, 5, BetKind.CORNER, (1, 2, 4, 5), 90, id="C.rou.wheel-corner-wins"),
    pytest.param(C, 3, BetKind.CORNER, (1, 2, 4, 5), 0, id="C.rou.wheel-corner-loses"),
    pytest.param(C, 0, BetKind.FIRST_FOUR, (0, 1, 2, 3), 90, id="C.rou.wheel-quatre-wins"),
    pytest.param(C, 4, BetKind.FIRST_FOUR, (0, 1, 2, 3), 0, id="C.rou.wheel-quatre-loses"),
    pytest.param(C, 36, BetKind.LINE, (31, 32, 33, 34, 35, 36), 60, id="C.rou.wheel-line-wins"),
    pytest.param(C, 30, BetKind.LINE, (31, 32, 33, 34, 35, 36), 0, id="C.rou.wheel-line-loses"),
    pytest.param(C, 17, BetKind.COLUMN, (2,), 30, id="C.rou.wheel-column-2-wins-on-17"),
    pytest.param(C, 34, BetKind.COLUMN, (1,), 30, id="C.rou.wheel-column-1-wins-on-34"),
    pytest.param(C, 36, BetKind.COLUMN, (3,), 30, id="C.rou.wheel-column-3-wins-on-36"),
    pytest.param(C, 17, BetKind.COLUMN, (1,), 0, id="C.rou.wheel-column-1-loses-on-17"),
    pytest.param(C, 17, BetKind.DOZEN, (2,), 30, id="C.rou.wheel-dozen-2-pays-2:1"),
    pytest.param(C, 12, BetKind.DOZEN, (1,), 30, id="C.rou.wheel-dozen-1-wins-on-12"),
    pytest.param(C, 13, BetKind.DOZEN, (1,), 0, id="C.rou.wheel-dozen-1-loses-on-13"),
    pytest.param(C, 25, BetKind.DOZEN, (3,), 30, id="C.rou.wheel-dozen-3-wins-on-25"),
    pytest.param(C, 19, BetKind.RED, (), 20, id="C.rou.wheel-red-wins"),
    pytest.param(C, 17, BetKind.RED, (), 0, id="C.rou.wheel-red-loses"),
    pytest.param(C, 17, BetKind.BLACK, (), 20, id="C.rou.wheel-black-wins"),
    pytest.param(C, 19, BetKind.BLACK, (), 0, id="C.rou.wheel-black-loses"),
    pytest.param(C, 36, BetKind.EVEN, (), 20, id="C.rou.wheel-even-wins"),
    pytest.param(C, 35, BetKind.EVEN, (), 0, id="C.rou.wheel-even-loses"),
    pytest.param(C, 1, BetKind.ODD, (), 20, id="C.rou.wheel-odd-wins"),
    pytest.param(C, 2, BetKind.ODD, (), 0, id="C.rou.wheel-odd-loses"),
    pytest.param(C, 18, BetKind.LOW, (), 20, id="C.rou.wheel-low-wins-on-18"),
    pytest.param(C, 19, BetKind.LOW, (), 0, id="C.rou.wheel-low-loses-on-19"),
    pytest.param(C, 19, BetKind.HIGH, (), 20, id="C.rou.wheel-high-wins-on-19"),
    pytest.param(C, 18, BetKind.HIGH, (), 0, id="C.rou.wheel-high-loses-on-18"),
    pytest.param(AMERICAN, ZZ, BetKind.STRAIGHT, (ZZ,), 360, id="american-straight-00-wins"),
    pytest.param(AMERICAN, 0, BetKind.STRAIGHT, (ZZ,), 0, id="american-straight-00-loses-on-0"),
    pytest.param(AMERICAN, ZZ, BetKind.SPLIT, (0, ZZ), 180, id="american-split-0-00-wins"),
    pytest.param(AMERICAN, ZZ, BetKind.STREET, (0, ZZ, 2), 120, id="american-trio-0-00-2"),
    pytest.param(AMERICAN, 3, BetKind.STREET, (ZZ, 2, 3), 120, id="american-trio-00-2-3"),
    pytest.param(AMERICAN, ZZ, BetKind.TOP_LINE, (0, ZZ, 1, 2, 3), 70, id="american-top-6:1"),
    pytest.param(AMERICAN, 4, BetKind.TOP_LINE, (0, ZZ, 1, 2, 3), 0, id="american-top-loses"),
    pytest.param(AMERICAN, 17, BetKind.STRAIGHT, (17,), 360, id="american-straight-17-wins"),
]


@pytest.mark.parametrize(("rules", "pocket", "kind", "numbers", "returned"), PAYS)
def test_wheel_each_bet_returns(
    rules: RouletteRules, pocket: int, kind: BetKind, numbers: tuple[int, ...], returned: int
) -> None:
    line = _one(rules, pocket, kind, numbers)
    assert line.payout.stake == 10
    assert line.payout.returned == returned
    assert line.payout.returned_exact == returned
    # The European odds are C.rou.wheel's table; the American wheel's are US.rou.geometry's
    # when a bet wins, and the pocket it lands on is US.rou.wheel's when it loses.
    if rules.wheel is Wheel.EUROPEAN:
        assert line.clauses == ("C.rou.wheel",)
    else:
        assert line.clauses == (("US.rou.geometry",) if returned else ("US.rou.wheel",))


def test_wheel_dozen_misprint_would_return_less() -> None:
    # "2 : 2" read literally is even money: 20 back on 10. The payout table's "2 pour 1" gives 30.
    assert _one(C, 24, BetKind.DOZEN, (2,), amount=10).payout.returned == 30


def test_wheel_column_and_dozen_cover_the_layout() -> None:
    assert covered(EU, BetKind.COLUMN, (1,)) == frozenset(
        {1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34}
    )
    assert covered(EU, BetKind.COLUMN, (2,)) == frozenset(
        {2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35}
    )
    assert covered(EU, BetKind.COLUMN, (3,)) == frozenset(
        {3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36}
    )
    assert covered(EU, BetKind.DOZEN, (1,)) == frozenset(range(1, 13))
    assert covered(EU, BetKind.DOZEN, (2,)) == frozenset(range(13, 25))
    assert covered(EU, BetKind.DOZEN, (3,)) == frozenset(range(25, 37))


def test_wheel_zero_is_neither_even_nor_odd_nor_low() -> None:
    for kind in (BetKind.EVEN, BetKind.ODD, BetKind.LOW, BetKind.HIGH, BetKind.RED, BetKind.BLACK):
        assert 0 not in covered(EU, kind, ())
        assert ZZ not in covered(US, kind, ())
    assert len(covered(EU, BetKind.EVEN, ())) == 18
    assert covered(EU, BetKind.LOW, ()) == frozenset(range(1, 19))
    assert covered(EU, BetKind.HIGH, ()) == frozenset(range(19, 37))


def test_wheel_settlement_lines_in_seat_then_bet_order_with_canonical_names() -> None:
    seats = (
        RouletteSeat(
            balance=100,
            bets=(
                RouletteBet(kind=BetKind.SPLIT, numbers=(1, 0), amount=10),
                RouletteBet(kind=BetKind.RED, amount=5),
            ),
        ),
        RouletteSeat(
            balance=50,
            bets=(
                RouletteBet(kind=BetKind.DOZEN, numbers=(2,), amount=7),
                RouletteBet(kind=BetKind.CORNER, numbers=(5, 1, 4, 2), amount=3),
            ),
        ),
    )
    rnd = spin_round(C, TableHistory.new("t"), 1, seats)
    got = [(line.seat, line.bet, line.payout.returned) for line in rnd.settlement]
    assert got == [
        (0, "split 0-1", 180),
        (0, "red", 10),
        (1, "dozen 2", 0),
        (1, "corner 1-2-4-5", 27),
    ]
    assert rnd.profile_id == "roulette-c"
    assert rnd.pocket == 1
    assert rnd.seats == seats


def test_wheel_american_names_00_in_labels() -> None:
    line = _one(AMERICAN, ZZ, BetKind.TOP_LINE, (3, 2, 1, ZZ, 0))
    assert line.bet == "top-line 0-00-1-2-3"
    assert line.payout.returned == 70


def test_wheel_steps_cite_clauses() -> None:
    seat = RouletteSeat(balance=10, bets=(RouletteBet(kind=BetKind.RED, amount=10),))
    rnd = spin_round(C, TableHistory.new("t"), 19, (seat,))
    actions = {step.action: step.clauses for step in rnd.steps}
    assert "C.rou.wheel" in actions["spin"]
    assert "C.rou.geometry" in actions["bets"]
    assert "C.rou.history" in actions["board"]


def test_wheel_steps_show_the_pocket_and_the_board_oldest_first() -> None:
    # The table's board held 5 then 0; 19 (red) comes up and joins it last.
    seat = RouletteSeat(balance=10, bets=(RouletteBet(kind=BetKind.RED, amount=10),))
    rnd = spin_round(C, TableHistory(table_id="t", results=(5, 0)), 19, (seat,))
    details = {step.action: step.detail for step in rnd.steps}
    assert details["spin"] == "pocket 19 (red)"
    assert details["board"] == "table t, oldest first: 5 0 19"
    assert details["settle"] == "20 returned on 10 staked"


def test_a_spin_is_complete_at_once_takes_no_cards_and_no_decisions() -> None:
    seat = RouletteSeat(balance=10, bets=(RouletteBet(kind=BetKind.RED, amount=10),))
    rnd = spin_round(C, TableHistory.new("t"), 19, (seat,))
    assert rnd.complete is True
    assert rnd.dealt == ()
    assert rnd.legal == ()


# --- C.rou.zero-loses ----------------------------------------------------------------

OUTSIDE = [
    (BetKind.COLUMN, (1,)),
    (BetKind.COLUMN, (2,)),
    (BetKind.COLUMN, (3,)),
    (BetKind.DOZEN, (1,)),
    (BetKind.DOZEN, (2,)),
    (BetKind.DOZEN, (3,)),
    (BetKind.RED, ()),
    (BetKind.BLACK, ()),
    (BetKind.EVEN, ()),
    (BetKind.ODD, ()),
    (BetKind.LOW, ()),
    (BetKind.HIGH, ()),
]


@pytest.mark.parametrize(
    ("rules", "pocket", "kind", "numbers"),
    [
        pytest.param(C, 0, kind, numbers, id=f"C.rou.zero-loses-0-{kind.value}-{numbers}")
        for kind, numbers in OUTSIDE
    ]
    + [
        pytest.param(AMERICAN, p, kind, numbers, id=f"US.rou.zero-loses-{p}-{kind.value}-{numbers}")
        for p in (0, ZZ)
        for kind, numbers in OUTSIDE
    ],
)
def test_zero_loses_outside_bets(
    rules: RouletteRules, pocket: int, kind: BetKind, numbers: tuple[int, ...]
) -> None:
    line = _one(rules, pocket, kind, numbers, amount=10)
    assert line.payout.returned == 0
    assert line.payout.returned_exact == 0
    if rules.wheel is Wheel.EUROPEAN:
        assert line.clauses == ("C.rou.zero-loses", "C.rou.wheel")
    else:
        assert line.clauses == ("US.rou.zero-loses", "US.rou.wheel")


def test_zero_loses_does_not_touch_inside_bets_on_zero() -> None:
    straight = _one(C, 0, BetKind.STRAIGHT, (0,))
    assert straight.payout.returned == 360
    assert straight.clauses == ("C.rou.wheel",)
    trio = _one(C, 0, BetKind.STREET, (2, 1, 0))
    assert trio.payout.returned == 120
    missed = _one(C, 0, BetKind.STREET, (4, 5, 6))
    assert missed.payout.returned == 0
    assert missed.clauses == ("C.rou.wheel",)


def test_zero_loses_an_outside_loss_elsewhere_cites_only_the_wheel() -> None:
    line = _one(C, 17, BetKind.RED, ())
    assert line.payout.returned == 0
    assert line.clauses == ("C.rou.wheel",)


def test_zero_loses_profile_c_is_not_half_back() -> None:
    assert C.zero_loses
    assert AMERICAN.zero_loses
    assert not HALF_BACK.zero_loses


@pytest.mark.parametrize(
    "kind",
    [BetKind.RED, BetKind.BLACK, BetKind.EVEN, BetKind.ODD, BetKind.LOW, BetKind.HIGH],
    ids=lambda k: f"C.rou.zero-loses-half-back-{k.value}",
)
def test_zero_loses_half_back_variant_returns_half_rounded_down(kind: BetKind) -> None:
    line = _one(HALF_BACK, 0, kind, (), amount=15)
    assert line.payout.returned_exact == Fraction(15, 2)
    assert line.payout.returned == 7
    assert "C.rou.zero-loses" in line.clauses
    even = _one(HALF_BACK, 0, kind, (), amount=20)
    assert even.payout.returned == 10


def test_zero_loses_half_back_rounding_comes_from_the_profile() -> None:
    half_up = RouletteRules.from_profile(
        _lab(
            'id = "lab-half-up"\nextends = "roulette-c"\n[parameters]\n'
            'zero_rule = { value = "half-back" }\n'
            'rounding = { value = "half-up", clauses = ["C.rou.zero-loses"], status = "assumed" }\n'
        )
    )
    assert half_up.rounding is Rounding.HALF_UP
    line = _one(half_up, 0, BetKind.ODD, (), amount=15)
    assert line.payout.returned == 8
    assert line.payout.returned_exact == Fraction(15, 2)


def test_zero_loses_half_back_only_for_even_chances() -> None:
    assert _one(HALF_BACK, 0, BetKind.COLUMN, (1,)).payout.returned == 0
    assert _one(HALF_BACK, 0, BetKind.DOZEN, (1,)).payout.returned == 0
    assert _one(HALF_BACK, 0, BetKind.STRAIGHT, (17,)).payout.returned == 0
    # Away from zero the variant changes nothing.
    assert _one(HALF_BACK, 17, BetKind.RED, ()).payout.returned == 0
    assert _one(HALF_BACK, 19, BetKind.RED, ()).payout.returned == 20


def test_zero_loses_half_back_on_american_double_zero() -> None:
    assert _one(HALF_BACK_US, ZZ, BetKind.HIGH, (), amount=10).payout.returned == 5
    assert _one(HALF_BACK_US, 0, BetKind.LOW, (), amount=10).payout.returned == 5


# --- C.rou.geometry ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "numbers"),
    [
        pytest.param(BetKind.SPLIT, (1, 0), id="C.rou.geometry-doc-example-1+0"),
        pytest.param(BetKind.STREET, (1, 2, 0), id="C.rou.geometry-doc-example-1+2+0"),
        pytest.param(BetKind.SPLIT, (2, 0), id="C.rou.geometry-doc-example-2+0"),
        pytest.param(BetKind.SPLIT, (3, 0), id="C.rou.geometry-doc-example-3+0"),
        pytest.param(BetKind.FIRST_FOUR, (1, 2, 3, 0), id="C.rou.geometry-doc-example-1+2+3+0"),
    ],
)
def test_geometry_document_examples_accepted_on_european(
    kind: BetKind, numbers: tuple[int, ...]
) -> None:
    assert covered(EU, kind, numbers) == frozenset(numbers)


def test_geometry_european_splits_are_exactly_60() -> None:
    splits = {pair for pair in combinations(range(37), 2) if _accepted(EU, BetKind.SPLIT, pair)}
    grid = {pair for pair in splits if 0 not in pair}
    across = {(a, b) for a, b in grid if b == a + 1}
    down = {(a, b) for a, b in grid if b == a + 3}
    assert len(across) == 24
    assert len(down) == 33
    assert len(grid) == 57
    assert splits - grid == {(0, 1), (0, 2), (0, 3)}
    assert len(splits) == 60
    assert (3, 4) not in splits
    assert (1, 5) not in splits


def test_geometry_american_splits() -> None:
    splits = {pair for pair in combinations(range(38), 2) if _accepted(US, BetKind.SPLIT, pair)}
    zero_splits = {pair for pair in splits if 0 in pair or ZZ in pair}
    assert zero_splits == {(0, 1), (0, 2), (2, ZZ), (3, ZZ), (0, ZZ)}
    assert len(splits) == 57 + 5


def test_geometry_corners_are_exactly_22() -> None:
    corners = [q for q in combinations(range(37), 4) if _accepted(EU, BetKind.CORNER, q)]
    assert len(corners) == 22
    assert (1, 2, 4, 5) in corners
    assert (32, 33, 35, 36) in corners
    assert (2, 3, 5, 6) in corners
    assert (3, 4, 6, 7) not in corners
    assert all(0 not in q for q in corners)


def test_geometry_streets_are_12_rows_and_2_trios() -> None:
    streets = {t for t in combinations(range(37), 3) if _accepted(EU, BetKind.STREET, t)}
    rows = {(3 * r + 1, 3 * r + 2, 3 * r + 3) for r in range(12)}
    assert streets == rows | {(0, 1, 2), (0, 2, 3)}
    assert len(streets) == 14


def test_geometry_american_streets_are_12_rows_and_3_trios() -> None:
    streets = {t for t in combinations(range(38), 3) if _accepted(US, BetKind.STREET, t)}
    rows = {(3 * r + 1, 3 * r + 2, 3 * r + 3) for r in range(12)}
    assert streets == rows | {(0, 1, 2), (0, 2, ZZ), (2, 3, ZZ)}


def test_geometry_lines_are_11_adjacent_row_pairs() -> None:
    rows = [(3 * r + 1, 3 * r + 2, 3 * r + 3) for r in range(12)]
    accepted = [
        (i, j)
        for i, j in combinations(range(12), 2)
        if _accepted(EU, BetKind.LINE, rows[i] + rows[j])
    ]
    assert accepted == [(i, i + 1) for i in range(11)]
    # Six numbers that are not two whole rows.
    assert not _accepted(EU, BetKind.LINE, (1, 2, 4, 5, 7, 8))
    assert not _accepted(EU, BetKind.LINE, (0, 1, 2, 3, 4, 5))


def test_geometry_first_four_and_top_line_are_wheel_specific() -> None:
    assert covered(EU, BetKind.FIRST_FOUR, (0, 1, 2, 3)) == frozenset({0, 1, 2, 3})
    assert covered(US, BetKind.TOP_LINE, (0, ZZ, 1, 2, 3)) == frozenset({0, ZZ, 1, 2, 3})
    assert covered(US, BetKind.SPLIT, (ZZ, 0)) == frozenset({0, ZZ})
    assert covered(US, BetKind.STREET, (2, ZZ, 0)) == frozenset({0, 2, ZZ})


def test_geometry_numbers_in_any_order() -> None:
    assert covered(EU, BetKind.CORNER, (5, 1, 4, 2)) == frozenset({1, 2, 4, 5})
    assert covered(EU, BetKind.LINE, (6, 5, 4, 3, 2, 1)) == frozenset(range(1, 7))


REFUSED = [
    pytest.param(EU, BetKind.SPLIT, (1, 5), "1-5", id="C.rou.geometry-split-1-5-diagonal"),
    pytest.param(EU, BetKind.SPLIT, (3, 4), "3-4", id="C.rou.geometry-split-3-4-row-ends"),
    pytest.param(EU, BetKind.SPLIT, (36, 37), "36-00", id="C.rou.geometry-split-36-37"),
    pytest.param(US, BetKind.SPLIT, (36, ZZ), "36-00", id="C.rou.geometry-us-split-36-00"),
    pytest.param(EU, BetKind.SPLIT, (0, 4), "0-4", id="C.rou.geometry-split-0-4"),
    pytest.param(US, BetKind.SPLIT, (0, 3), "0-3", id="C.rou.geometry-us-split-0-3"),
    pytest.param(US, BetKind.SPLIT, (ZZ, 1), "00-1", id="C.rou.geometry-us-split-00-1"),
    pytest.param(EU, BetKind.SPLIT, (1, 1), "1-1", id="C.rou.geometry-duplicate"),
    pytest.param(EU, BetKind.SPLIT, (1,), "1", id="C.rou.geometry-split-one-number"),
    pytest.param(EU, BetKind.SPLIT, (1, 2, 3), "1-2-3", id="C.rou.geometry-split-three"),
    pytest.param(EU, BetKind.CORNER, (1, 2, 3, 4), "1-2-3-4", id="C.rou.geometry-corner-1-2-3-4"),
    pytest.param(EU, BetKind.CORNER, (0, 1, 2, 3), "0-1-2-3", id="C.rou.geometry-corner-with-0"),
    pytest.param(EU, BetKind.CORNER, (1, 2, 4, 4), "1-2-4-4", id="C.rou.geometry-corner-dup"),
    pytest.param(EU, BetKind.STREET, (2, 3, 4), "2-3-4", id="C.rou.geometry-street-2-3-4"),
    pytest.param(EU, BetKind.STREET, (1, 2, 3, 4), "1-2-3-4", id="C.rou.geometry-street-four"),
    pytest.param(EU, BetKind.STREET, (0, 1, 3), "0-1-3", id="C.rou.geometry-trio-0-1-3"),
    pytest.param(EU, BetKind.STRAIGHT, (37,), "00", id="C.rou.geometry-00-on-european"),
    pytest.param(US, BetKind.STRAIGHT, (38,), "38", id="C.rou.geometry-38"),
    pytest.param(EU, BetKind.STRAIGHT, (-1,), "-1", id="C.rou.geometry-negative"),
    pytest.param(EU, BetKind.STRAIGHT, (), "(none)", id="C.rou.geometry-straight-nothing"),
    pytest.param(EU, BetKind.STRAIGHT, (1, 2), "1-2", id="C.rou.geometry-straight-two"),
    pytest.param(US, BetKind.FIRST_FOUR, (0, 1, 2, 3), "0-1-2-3", id="C.rou.geometry-us-quatre"),
    pytest.param(EU, BetKind.TOP_LINE, (0, 37, 1, 2, 3), "0-00-1-2-3", id="C.rou.geometry-eu-top"),
    pytest.param(EU, BetKind.LINE, (1, 2, 3, 7, 8, 9), "1-2-3-7-8-9", id="C.rou.geometry-line-gap"),
    pytest.param(EU, BetKind.COLUMN, (4,), "4", id="C.rou.geometry-column-4"),
    pytest.param(EU, BetKind.COLUMN, (0,), "0", id="C.rou.geometry-column-0"),
    pytest.param(EU, BetKind.COLUMN, (), "(none)", id="C.rou.geometry-column-no-index"),
    pytest.param(EU, BetKind.DOZEN, (1, 2), "1-2", id="C.rou.geometry-dozen-two-indexes"),
    pytest.param(EU, BetKind.RED, (1,), "1", id="C.rou.geometry-red-names-a-number"),
]


@pytest.mark.parametrize(("wheel", "kind", "numbers", "shown"), REFUSED)
def test_geometry_refuses(
    wheel: Wheel, kind: BetKind, numbers: tuple[int, ...], shown: str
) -> None:
    with pytest.raises(InvalidBetLayoutError) as err:
        covered(wheel, kind, numbers)
    assert err.value.reason == "INVALID_BET_LAYOUT"
    assert err.value.metadata["kind"] == kind.value
    assert err.value.metadata["numbers"] == shown
    assert err.value.metadata["wheel"] == wheel.value
    assert kind.value in str(err.value)
    assert shown in str(err.value)
    assert err.value.metadata["why"] in str(err.value)


@pytest.mark.parametrize(
    ("wheel", "kind", "numbers", "help_"),
    [
        # C.rou.wheel: the zero splits 0-1, 0-2, 0-3 and trios 0-1-2, 0-2-3; US.rou.geometry:
        # splits 0-1, 0-2, 0-00, 00-2, 00-3, trios 0-1-2, 0-00-2, 00-2-3, and the top line
        # 0-00-1-2-3 instead of the first four.
        (EU, BetKind.SPLIT, (1, 5), "or 0-1, 0-2 or 0-3"),
        (US, BetKind.SPLIT, (1, 5), "or 0-1, 0-2, 00-2, 00-3 or 0-00"),
        (EU, BetKind.STREET, (1, 2, 4), "or the trio 0-1-2 or 0-2-3"),
        (US, BetKind.STREET, (1, 2, 4), "or the trio 0-1-2, 0-00-2 or 00-2-3"),
        (EU, BetKind.FIRST_FOUR, (1, 2, 3, 4), "the first four is 0-1-2-3"),
        (US, BetKind.FIRST_FOUR, (0, 1, 2, 3), "not offered on the american wheel"),
        (EU, BetKind.TOP_LINE, (1, 2, 3, 4, 5), "offered only on the american wheel"),
        (US, BetKind.TOP_LINE, (1, 2, 3, 4, 5), "the top line is 0-00-1-2-3"),
    ],
)
def test_geometry_refusal_names_the_shapes_of_its_own_wheel(
    wheel: Wheel, kind: BetKind, numbers: tuple[int, ...], help_: str
) -> None:
    with pytest.raises(InvalidBetLayoutError) as err:
        covered(wheel, kind, numbers)
    assert help_ in err.value.metadata["why"]


def test_geometry_refused_bet_is_never_settled_and_names_its_seat() -> None:
    good = RouletteSeat(balance=100, bets=(RouletteBet(kind=BetKind.RED, amount=10),))
    bad = RouletteSeat(
        balance=100,
        bets=(
            RouletteBet(kind=BetKind.STRAIGHT, numbers=(5,), amount=10),
            RouletteBet(kind=BetKind.SPLIT, numbers=(1, 5), amount=10),
        ),
    )
    with pytest.raises(InvalidBetLayoutError) as err:
        spin_round(C, TableHistory.new("t"), 5, (good, bad))
    assert err.value.metadata["seat"] == "1"
    assert err.value.metadata["numbers"] == "1-5"
    assert str(err.value).startswith("seat 1:")


def test_geometry_is_checked_before_stakes() -> None:
    # Both wrong: the shape error wins, since a bet that is no bet has no stake to check.
    seat = RouletteSeat(
        balance=1, bets=(RouletteBet(kind=BetKind.SPLIT, numbers=(3, 4), amount=10**9),)
    )
    with pytest.raises(InvalidBetLayoutError):
        spin_round(C, TableHistory.new("t"), 3, (seat,))


def test_geometry_american_bets_refused_by_european_rules() -> None:
    seat = RouletteSeat(
        balance=100, bets=(RouletteBet(kind=BetKind.SPLIT, numbers=(0, ZZ), amount=10),)
    )
    with pytest.raises(InvalidBetLayoutError):
        spin_round(C, TableHistory.new("t"), 0, (seat,))


# --- shapes(): every legal bet of a layout, in layout order ------------------------------
# Counted by hand on the layout of 12 rows of three (C.rou.wheel):
# - splits: each row a-b-c has two side-by-side pairs (24), each column of 12 has 11 pairs one
#   above the other (33): 57 on the grid; the European zero adds 0-1, 0-2, 0-3 (60), the
#   American zeros add 0-1, 0-2, 00-2, 00-3, 0-00 (62);
# - streets: 12 rows, plus the trios 0-1-2, 0-2-3 (14) or 0-1-2, 0-00-2, 00-2-3 (15);
# - corners: 11 gaps between rows times 2 gaps between columns (22); lines: 11 row pairs.
SHAPE_COUNTS = {
    EU: {
        BetKind.STRAIGHT: 37,
        BetKind.SPLIT: 60,
        BetKind.STREET: 14,
        BetKind.CORNER: 22,
        BetKind.FIRST_FOUR: 1,
        BetKind.TOP_LINE: 0,
        BetKind.LINE: 11,
    },
    US: {
        BetKind.STRAIGHT: 38,
        BetKind.SPLIT: 62,
        BetKind.STREET: 15,
        BetKind.CORNER: 22,
        BetKind.FIRST_FOUR: 0,
        BetKind.TOP_LINE: 1,
        BetKind.LINE: 11,
    },
}

CORNERS = (
    (1, 2, 4, 5), (2, 3, 5, 6), (4, 5, 7, 8), (5, 6, 8, 9), (7, 8, 10, 11), (8, 9, 11, 12),
    (10, 11, 13, 14), (11, 12, 14, 15), (13, 14, 16, 17), (14, 15, 17, 18), (16, 17, 19, 20),
    (17, 18, 20, 21), (19, 20, 22, 23), (20, 21, 23, 24), (22, 23, 25, 26), (23, 24, 26, 27),
    (25, 26, 28, 29), (26, 27, 29, 30), (28, 29, 31, 32), (29, 30, 32, 33), (31, 32, 34, 35),
    (32, 33, 35, 36),
)  # fmt: skip
LINES = (
    (1, 2, 3, 4, 5, 6), (4, 5, 6, 7, 8, 9), (7, 8, 9, 10, 11, 12), (10, 11, 12, 13, 14, 15),
    (13, 14, 15, 16, 17, 18), (16, 17, 18, 19, 20, 21), (19, 20, 21, 22, 23, 24),
    (22, 23, 24, 25, 26, 27), (25, 26, 27, 28, 29, 30), (28, 29, 30, 31, 32, 33),
    (31, 32, 33, 34, 35, 36),
)  # fmt: skip
ROWS = (
    (1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12), (13, 14, 15), (16, 17, 18), (19, 20, 21),
    (22, 23, 24), (25, 26, 27), (28, 29, 30), (31, 32, 33), (34, 35, 36),
)  # fmt: skip


@pytest.mark.parametrize("wheel", [EU, US], ids=lambda w: w.value)
def test_shapes_counts(wheel: Wheel) -> None:
    counts = {kind: len(shapes(wheel, kind)) for kind in SHAPE_COUNTS[wheel]}
    assert counts == SHAPE_COUNTS[wheel]


@pytest.mark.parametrize("wheel", [EU, US], ids=lambda w: w.value)
def test_shapes_of_outside_bets(wheel: Wheel) -> None:
    # Column and dozen name their index 1 to 3; the even chances name nothing.
    assert shapes(wheel, BetKind.COLUMN) == ((1,), (2,), (3,))
    assert shapes(wheel, BetKind.DOZEN) == ((1,), (2,), (3,))
    for kind in (BetKind.RED, BetKind.BLACK, BetKind.EVEN, BetKind.ODD, BetKind.LOW, BetKind.HIGH):
        assert shapes(wheel, kind) == ((),)


def test_shapes_european_in_layout_order() -> None:
    assert shapes(EU, BetKind.STRAIGHT) == tuple((n,) for n in range(37))
    splits = shapes(EU, BetKind.SPLIT)
    assert splits[:8] == ((0, 1), (0, 2), (0, 3), (1, 2), (1, 4), (2, 3), (2, 5), (3, 6))
    assert splits[-4:] == ((32, 35), (33, 36), (34, 35), (35, 36))
    assert shapes(EU, BetKind.STREET) == ((0, 1, 2), (0, 2, 3), *ROWS)
    assert shapes(EU, BetKind.CORNER) == CORNERS
    assert shapes(EU, BetKind.FIRST_FOUR) == ((0, 1, 2, 3),)
    assert shapes(EU, BetKind.TOP_LINE) == ()
    assert shapes(EU, BetKind.LINE) == LINES


def test_shapes_american_in_layout_order() -> None:
    # Layout order is 0, then 00, then 1 to 36, within a shape and between shapes.
    assert shapes(US, BetKind.STRAIGHT) == ((0,), (ZZ,), *((n,) for n in range(1, 37)))
    splits = shapes(US, BetKind.SPLIT)
    assert splits[:7] == ((0, ZZ), (0, 1), (0, 2), (ZZ, 2), (ZZ, 3), (1, 2), (1, 4))
    assert (0, 3) not in splits
    assert shapes(US, BetKind.STREET) == ((0, ZZ, 2), (0, 1, 2), (ZZ, 2, 3), *ROWS)
    assert shapes(US, BetKind.CORNER) == CORNERS
    assert shapes(US, BetKind.FIRST_FOUR) == ()
    assert shapes(US, BetKind.TOP_LINE) == ((0, ZZ, 1, 2, 3),)
    assert shapes(US, BetKind.LINE) == LINES


@pytest.mark.parametrize("wheel", [EU, US], ids=lambda w: w.value)
def test_shapes_are_the_bets_covered_accepts(wheel: Wheel) -> None:
    splits = shapes(wheel, BetKind.SPLIT)
    # Side by side in a row, one above the other in a column; never across a row's end or a
    # diagonal.
    assert {(1, 2), (2, 3), (1, 4), (33, 36), (34, 35)} <= set(splits)
    assert not {(3, 4), (1, 5), (6, 7), (36, 37)} & set(splits)
    for kind in BetKind:
        listed = shapes(wheel, kind)
        assert len(set(listed)) == len(listed), kind
        for numbers in listed:
            cover = covered(wheel, kind, numbers)
            if kind.is_inside:
                assert cover == frozenset(numbers)


# --- C.rou.history -------------------------------------------------------------------

FOURTEEN = (28, 34, 12, 14, 27, 34, 31, 20, 0, 36, 33, 2, 14, 5)


def _spin_all(rules: RouletteRules, table: str, pockets: tuple[int, ...]) -> list[TableHistory]:
    seat = RouletteSeat(balance=10, bets=(RouletteBet(kind=BetKind.RED, amount=1),))
    board = TableHistory.new(table)
    boards = []
    for pocket in pockets:
        board = spin_round(rules, board, pocket, (seat,)).history
        boards.append(board)
    return boards


def test_history_new_table_starts_empty() -> None:
    assert TableHistory.new("fresh").results == ()
    assert TableHistory(table_id="fresh").results == ()


def test_history_keeps_the_last_13_oldest_first() -> None:
    boards = _spin_all(C, "t1", FOURTEEN)
    assert boards[0].results == (28,)
    assert boards[12].results == FOURTEEN[:13]
    assert len(boards[12].results) == 13
    # The 14th spin pushes the oldest (28) off the board.
    assert boards[13].results == (34, 12, 14, 27, 34, 31, 20, 0, 36, 33, 2, 14, 5)
    assert all(board.table_id == "t1" for board in boards)


def test_history_is_per_table() -> None:
    t1 = _spin_all(C, "t1", FOURTEEN)[-1]
    t2 = _spin_all(C, "t2", (7,))[-1]
    assert t2.table_id == "t2"
    assert t2.results == (7,)
    assert t1.results[-1] == 5


def test_history_length_comes_from_the_profile() -> None:
    short = RouletteRules.from_profile(
        _lab(
            'id = "lab-short-board"\nextends = "roulette-c"\n'
            "[parameters]\nhistory_length = { value = 3 }\n"
        )
    )
    assert C.history_length == 13
    assert short.history_length == 3
    assert _spin_all(short, "t", (1, 2, 3, 4, 5))[-1].results == (3, 4, 5)


@pytest.mark.parametrize(
    ("length", "results"),
    [
        pytest.param(1, (3,), id="C.rou.history-length-1"),
        pytest.param(2, (2, 3), id="C.rou.history-full-board-drops-the-oldest"),
        pytest.param(3, (1, 2, 3), id="C.rou.history-board-just-full"),
        pytest.param(13, (1, 2, 3), id="C.rou.history-room-left"),
    ],
)
def test_history_after_keeps_the_last_length_results(length: int, results: tuple[int, ...]) -> None:
    board = TableHistory(table_id="t", results=(1, 2))
    assert board.after(3, length) == TableHistory(table_id="t", results=results)


def test_history_after_refuses_a_board_of_no_result() -> None:
    with pytest.raises(InvalidRoundError) as err:
        TableHistory(table_id="t", results=(1, 2)).after(3, 0)
    assert (err.value.metadata["table"], err.value.metadata["length"]) == ("t", "0")


def test_boards_store_one_board_per_profile_and_table() -> None:
    boards = Boards()
    assert boards.get("roulette-c", "t") is None
    assert len(boards) == 0
    boards.put("roulette-c", TableHistory(table_id="t", results=(5,)))
    # The same table id under another profile is another wheel: a board of its own.
    boards.put("roulette-american", TableHistory(table_id="t", results=(ZZ,)))
    boards.put("roulette-c", TableHistory(table_id="u", results=(7,)))
    assert boards.get("roulette-c", "t") == TableHistory(table_id="t", results=(5,))
    assert boards.get("roulette-american", "t") == TableHistory(table_id="t", results=(ZZ,))
    assert boards.get("roulette-c", "u") == TableHistory(table_id="u", results=(7,))
    assert boards.get("roulette-american", "u") is None
    assert len(boards) == 3
    # A later board of a table replaces the earlier one.
    boards.put("roulette-c", TableHistory(table_id="t", results=(5, 9)))
    assert boards.get("roulette-c", "t") == TableHistory(table_id="t", results=(5, 9))
    assert len(boards) == 3


def test_boards_forget_the_table_touched_longest_ago() -> None:
    boards = Boards(max_tables=2)
    boards.put("roulette-c", TableHistory(table_id="a", results=(1,)))
    boards.put("roulette-c", TableHistory(table_id="b", results=(2,)))
    # Spinning at a again makes b the table touched longest ago: c's board pushes b out.
    boards.put("roulette-c", TableHistory(table_id="a", results=(1, 3)))
    boards.put("roulette-c", TableHistory(table_id="c", results=(4,)))
    assert len(boards) == 2
    assert boards.get("roulette-c", "b") is None
    assert boards.get("roulette-c", "a") == TableHistory(table_id="a", results=(1, 3))
    assert boards.get("roulette-c", "c") == TableHistory(table_id="c", results=(4,))


def test_history_keeps_00_on_american_and_refuses_it_on_european() -> None:
    board = _spin_all(AMERICAN, "us", (ZZ, 0))[-1]
    assert board.results == (ZZ, 0)
    seat = RouletteSeat(balance=10, bets=(RouletteBet(kind=BetKind.RED, amount=1),))
    with pytest.raises(InvalidRoundError):
        spin_round(C, board, 1, (seat,))


# --- Rounds: profile, pocket, limits, balance ------------------------------------------------


def test_rules_from_a_non_roulette_profile_is_refused() -> None:
    with pytest.raises(ProfileError):
        RouletteRules.from_profile(shipped_profile("blackjack-c"))


def test_rules_limits_come_from_the_profile() -> None:
    assert C.limits.min_bet == 1
    assert C.limits.max_bet == 1_000_000
    assert C.rounding is Rounding.DOWN


@pytest.mark.parametrize(
    ("rules", "pocket", "written"),
    [
        # 37 is how the oracle holds 00: the refusal names it as a request writes it.
        pytest.param(C, 37, "00", id="C.rou.wheel-00-on-european"),
        pytest.param(AMERICAN, 38, "38", id="C.rou.wheel-38-on-american"),
        pytest.param(C, -1, "-1", id="C.rou.wheel-negative-pocket"),
    ],
)
def test_round_refuses_a_pocket_off_the_wheel(
    rules: RouletteRules, pocket: int, written: str
) -> None:
    seat = RouletteSeat(balance=10, bets=(RouletteBet(kind=BetKind.RED, amount=1),))
    with pytest.raises(InvalidRoundError) as err:
        spin_round(rules, TableHistory.new("t"), pocket, (seat,))
    assert err.value.metadata["pocket"] == written
    assert f"pocket {written} is not a pocket of the" in err.value.message


@pytest.mark.parametrize(
    ("pocket", "shown"),
    [pytest.param(37, "0 to 36)", id="00"), pytest.param(38, "0 to 36)", id="38")],
)
def test_round_european_wheel_has_no_pocket_37_or_38(pocket: int, shown: str) -> None:
    # C.rou.wheel: one zero, pockets 0 to 36. The winning pocket is the round's outcome, not a
    # bet: a pocket the wheel lacks is a malformed round (INVALID_ROUND), refused before any
    # bet is looked at.
    seat = RouletteSeat(balance=10, bets=(RouletteBet(kind=BetKind.RED, amount=1),))
    with pytest.raises(InvalidRoundError) as err:
        spin_round(C, TableHistory.new("t"), pocket, (seat,))
    assert err.value.reason == "INVALID_ROUND"
    assert err.value.metadata["wheel"] == "european"
    assert shown in err.value.message
    # The same pockets on an old board of the table are refused for the same reason.
    with pytest.raises(InvalidRoundError) as err:
        spin_round(C, TableHistory(table_id="t", results=(pocket,)), 5, (seat,))
    assert (err.value.reason, err.value.metadata["table"]) == ("INVALID_ROUND", "t")


def test_round_american_wheel_has_00_but_no_38() -> None:
    seat = RouletteSeat(balance=10, bets=(RouletteBet(kind=BetKind.RED, amount=1),))
    # US.rou.wheel: 00 (37) is a pocket; a red bet loses on it (US.rou.zero-loses).
    (line,) = spin_round(AMERICAN, TableHistory.new("t"), ZZ, (seat,)).settlement
    assert line.payout.returned == 0
    with pytest.raises(InvalidRoundError) as err:
        spin_round(AMERICAN, TableHistory.new("t"), 38, (seat,))
    assert "38 is not a pocket of the american wheel (0, 00 or 1 to 36)" in err.value.message


@pytest.mark.parametrize(
    ("wheel", "pocket", "why", "clause"),
    [
        pytest.param(
            EU,
            ZZ,
            "00 is not a pocket of the european wheel; 00 (37) exists only on the american wheel",
            "C.rou.geometry",
            id="00-on-european",
        ),
        pytest.param(
            EU, 38, "38 is not a pocket of the european wheel", "C.rou.geometry", id="38-european"
        ),
        pytest.param(
            US, 38, "38 is not a pocket of the american wheel", "US.rou.geometry", id="38-american"
        ),
    ],
)
def test_geometry_a_bet_on_a_pocket_off_the_wheel(
    wheel: Wheel, pocket: int, why: str, clause: str
) -> None:
    # C.rou.geometry: a bet on no pocket of the layout is refused with INVALID_BET_LAYOUT, and
    # the reason is that the pocket is missing, not that the shape is wrong.
    for kind, numbers in ((BetKind.STRAIGHT, (pocket,)), (BetKind.SPLIT, (36, pocket))):
        with pytest.raises(InvalidBetLayoutError) as err:
            covered(wheel, kind, numbers)
        assert err.value.reason == "INVALID_BET_LAYOUT"
        assert err.value.metadata["why"] == why
        assert err.value.clause == clause


def test_wheel_has_its_pockets_only() -> None:
    assert [p for p in range(-1, 40) if EU.has(p)] == list(range(37))
    assert [p for p in range(-1, 40) if US.has(p)] == list(range(38))
    assert EU.zeros == frozenset({0})
    assert US.zeros == frozenset({0, ZZ})
    assert (EU.geometry, US.geometry) == ("C.rou.geometry", "US.rou.geometry")
    assert (EU.shapes_clause, US.shapes_clause) == ("C.rou.wheel", "US.rou.geometry")


def test_a_shape_refused_cites_the_geometry_then_the_table_of_shapes() -> None:
    # An engine that refuses street 34-35-36 (or the European 0-3 split) breaks the rule that
    # refuses only what is no shape (C.rou.geometry); C.rou.wheel's table lists the shapes.
    assert accepted(C)["error=INVALID_BET_LAYOUT"] == ("C.rou.geometry", "C.rou.wheel")
    assert accepted(AMERICAN)["error=INVALID_BET_LAYOUT"] == ("US.rou.geometry",)


@pytest.mark.parametrize(
    ("rules", "clause"), [(C, "C.rou.zero-loses"), (AMERICAN, "US.rou.zero-loses")]
)
def test_a_bet_imprisoned_without_en_prison_is_the_zero_rules(
    rules: RouletteRules, clause: str
) -> None:
    # C.rou.zero-loses: "no half-back, no prison": a prison shown on a zero is that rule's.
    seat = RouletteSeat(balance=100, bets=(RouletteBet(kind=BetKind.RED, amount=10),))
    played = spin_round(rules, TableHistory.new("t"), 0, (seat,))
    assert played.citations()["roulette.prison"][0] == clause


def test_round_needs_a_seat() -> None:
    with pytest.raises(InvalidRoundError):
        spin_round(C, TableHistory.new("t"), 1, ())


def test_round_seat_needs_a_bet() -> None:
    with pytest.raises(InvalidRoundError):
        spin_round(C, TableHistory.new("t"), 1, (RouletteSeat(balance=10, bets=()),))


@pytest.mark.parametrize("amount", [0, -5])
def test_round_stake_below_the_minimum_is_out_of_limits(amount: int) -> None:
    """TABLE.limits: 0 and negative stakes are below the minimum."""
    seat = RouletteSeat(balance=10, bets=(RouletteBet(kind=BetKind.RED, amount=amount),))
    with pytest.raises(BetOutOfLimitsError) as err:
        spin_round(C, TableHistory.new("t"), 1, (seat,))
    assert err.value.metadata["clause"] == "TABLE.limits"


def test_round_stake_above_the_maximum() -> None:
    seat = RouletteSeat(
        balance=10**7, bets=(RouletteBet(kind=BetKind.STRAIGHT, numbers=(7,), amount=1_000_001),)
    )
    with pytest.raises(BetOutOfLimitsError) as err:
        spin_round(C, TableHistory.new("t"), 7, (seat,))
    assert err.value.metadata["bet"] == "straight 7"
    # Exactly the maximum is fine.
    ok = RouletteSeat(
        balance=10**7, bets=(RouletteBet(kind=BetKind.STRAIGHT, numbers=(7,), amount=1_000_000),)
    )
    (line,) = spin_round(C, TableHistory.new("t"), 7, (ok,)).settlement
    assert line.payout.returned == 36_000_000


def test_round_stake_below_a_lab_minimum() -> None:
    rules = RouletteRules.from_profile(
        _lab('id = "lab-min"\nextends = "roulette-c"\n[parameters]\nmin_bet = { value = 5 }\n')
    )
    seat = RouletteSeat(balance=100, bets=(RouletteBet(kind=BetKind.ODD, amount=4),))
    with pytest.raises(BetOutOfLimitsError):
        spin_round(rules, TableHistory.new("t"), 1, (seat,))


def test_round_stakes_must_fit_the_balance() -> None:
    bets = (
        RouletteBet(kind=BetKind.RED, amount=60),
        RouletteBet(kind=BetKind.BLACK, amount=41),
    )
    with pytest.raises(InsufficientBalanceError) as err:
        spin_round(C, TableHistory.new("t"), 1, (RouletteSeat(balance=100, bets=bets),))
    assert err.value.metadata["stake"] == "101"
    exact = (RouletteBet(kind=BetKind.RED, amount=60), RouletteBet(kind=BetKind.BLACK, amount=40))
    rnd = spin_round(C, TableHistory.new("t"), 1, (RouletteSeat(balance=100, bets=exact),))
    assert [line.payout.returned for line in rnd.settlement] == [120, 0]


def _settle_step_clauses(bet: RouletteBet, pocket: int) -> tuple[str, ...]:
    seat = RouletteSeat(balance=bet.amount, bets=(bet,))
    rnd = spin_round(C, TableHistory.new("t"), pocket, (seat,))
    (step,) = [step for step in rnd.steps if step.action == "settle"]
    return step.clauses


def test_zero_loses_cited_by_the_settle_step_only_when_applied() -> None:
    red = RouletteBet(kind=BetKind.RED, amount=10)
    zero = RouletteBet(kind=BetKind.STRAIGHT, numbers=(0,), amount=10)
    assert _settle_step_clauses(red, 0) == ("C.rou.zero-loses", "C.rou.wheel")
    assert _settle_step_clauses(zero, 0) == ("C.rou.wheel",)
    assert _settle_step_clauses(red, 17) == ("C.rou.wheel",)


def test_wheel_bets_step_counts_every_bet_and_seat() -> None:
    """C.rou.geometry: the bets step counts the bets of every seat and what they stake."""
    seats = (
        RouletteSeat(
            balance=100,
            bets=(
                RouletteBet(kind=BetKind.RED, amount=10),
                RouletteBet(kind=BetKind.SPLIT, numbers=(2, 1), amount=5),
            ),
        ),
        RouletteSeat(balance=100, bets=(RouletteBet(kind=BetKind.DOZEN, numbers=(1,), amount=7),)),
    )
    rnd = spin_round(C, TableHistory.new("t"), 1, seats)
    details = {step.action: step.detail for step in rnd.steps}
    assert details["bets"] == "3 bet(s) on 2 seat(s) accepted, 22 staked"
    # Red 1 returns 20, split 1-2 at 17:1 returns 90, dozen 1 at 2:1 returns 21.
    assert details["settle"] == "131 returned on 22 staked"
    assert [line.bet for line in rnd.settlement] == ["red", "split 1-2", "dozen 1"]


def test_a_shape_taken_once_is_still_refused_in_another_order_when_it_is_none() -> None:
    """C.rou.geometry: a split the layout took is taken again from another seat and in another
    order; 3-4 is refused after it, for the seat that holds it."""
    split = RouletteBet(kind=BetKind.SPLIT, numbers=(1, 2), amount=5)
    turned = RouletteBet(kind=BetKind.SPLIT, numbers=(2, 1), amount=5)
    seats = tuple(RouletteSeat(balance=10, bets=(bet,)) for bet in (split, turned))
    rnd = spin_round(C, TableHistory.new("t"), 2, seats)
    assert [line.payout.returned for line in rnd.settlement] == [90, 90]
    bad = RouletteSeat(
        balance=10, bets=(RouletteBet(kind=BetKind.SPLIT, numbers=(3, 4), amount=5),)
    )
    with pytest.raises(InvalidBetLayoutError, match="seat 1: split 3-4 is not a bet"):
        spin_round(C, TableHistory.new("t"), 2, (seats[0], bad))


def test_rules_of_one_profile_id_pay_by_their_own_odds() -> None:
    """C.rou.wheel: two lab tables of one profile id that differ only in a straight's odds each
    pay by their own, whichever spun first."""

    def lab(odds: str) -> RouletteRules:
        text = (
            'id = "lab"\nextends = "roulette-c"\n\n[parameters]\n'
            f'straight_pays = {{ value = "{odds}" }}\n'
        )
        return RouletteRules.from_profile(load_profile_text(text))

    thirty_five, thirty = lab("35:1"), lab("30:1")
    assert thirty_five.profile_id == thirty.profile_id
    seat = RouletteSeat(
        balance=10, bets=(RouletteBet(kind=BetKind.STRAIGHT, numbers=(7,), amount=1),)
    )
    for rules, returned in ((thirty_five, 36), (thirty, 31), (thirty_five, 36)):
        (line,) = spin_round(rules, TableHistory.new("t"), 7, (seat,)).settlement
        assert line.payout.returned == returned
