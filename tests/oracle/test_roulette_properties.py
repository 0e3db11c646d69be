"""Roulette properties (Hypothesis): shapes against odds, payout bounds, splits.

Determinism across processes: tests/oracle/test_determinism.py.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.oracle.errors import InvalidBetLayoutError
from croupier.oracle.profile import load_profile_text, shipped_profile
from croupier.oracle.roulette import (
    DOUBLE_ZERO,
    BetKind,
    RouletteRules,
    RouletteSeat,
    TableHistory,
    Wheel,
    covered,
    spin_round,
)
from tests.strategies import (
    roulette_candidates,
    roulette_pockets,
    roulette_seats,
    roulette_shapes,
    roulette_wheels,
)

SHIPPED = {
    Wheel.EUROPEAN: RouletteRules.from_profile(shipped_profile("roulette-c")),
    Wheel.AMERICAN: RouletteRules.from_profile(shipped_profile("roulette-american")),
}
HALF_BACK = RouletteRules.from_profile(
    load_profile_text(
        'id = "lab-half-back"\nextends = "roulette-c"\n'
        '[parameters]\nzero_rule = { value = "half-back" }\n'
    )
)

# C.rou.wheel's table of gains: net odds against how many numbers the bet covers.
SIZE_FOR_ODDS = {35: 1, 17: 2, 11: 3, 8: 4, 6: 5, 5: 6, 2: 12, 1: 18}


def _layout_neighbours(wheel: Wheel, a: int, b: int) -> bool:
    """Whether two pockets share a side on the layout, from row/column arithmetic alone."""
    zero_sides = (
        {0: {1, 2, DOUBLE_ZERO}, DOUBLE_ZERO: {0, 2, 3}}
        if wheel is Wheel.AMERICAN
        else {0: {1, 2, 3}}
    )
    if a in zero_sides:
        return b in zero_sides[a]
    if b in zero_sides:
        return a in zero_sides[b]
    row_a, col_a = divmod(a - 1, 3)
    row_b, col_b = divmod(b - 1, 3)
    same_row_side_by_side = row_a == row_b and abs(col_a - col_b) == 1
    same_column_one_apart = col_a == col_b and abs(row_a - row_b) == 1
    return same_row_side_by_side or same_column_one_apart


@pytest.mark.parametrize("wheel", list(Wheel), ids=lambda w: f"C.rou.geometry-{w.value}")
@given(data=st.data())
def test_geometry_split_iff_layout_neighbours(wheel: Wheel, data: st.DataObject) -> None:
    a = data.draw(roulette_pockets(wheel))
    b = data.draw(roulette_pockets(wheel).filter(lambda n: n != a))
    try:
        covered(wheel, BetKind.SPLIT, (a, b))
    except InvalidBetLayoutError:
        accepted = False
    else:
        accepted = True
    assert accepted == _layout_neighbours(wheel, a, b)


@given(wheel=roulette_wheels, data=st.data())
def test_geometry_legal_shapes_are_accepted(wheel: Wheel, data: st.DataObject) -> None:
    kind, numbers = data.draw(roulette_shapes(wheel))
    cover = covered(wheel, kind, numbers)
    if kind.is_inside:
        assert cover == frozenset(numbers)


@given(wheel=roulette_wheels, data=st.data())
def test_wheel_shape_size_matches_odds(wheel: Wheel, data: st.DataObject) -> None:
    kind, numbers = data.draw(roulette_candidates(wheel))
    try:
        cover = covered(wheel, kind, numbers)
    except InvalidBetLayoutError:
        return
    odds = SHIPPED[wheel].odds_for(kind)
    assert odds.per == 1
    assert odds.win.denominator == 1
    assert len(cover) == SIZE_FOR_ODDS[odds.win.numerator]
    assert all(0 <= n < wheel.pockets for n in cover)


@pytest.mark.parametrize(
    "rules",
    [SHIPPED[Wheel.EUROPEAN], SHIPPED[Wheel.AMERICAN], HALF_BACK],
    ids=lambda r: r.profile_id,
)
@given(data=st.data())
def test_round_lines_are_bounded(rules: RouletteRules, data: st.DataObject) -> None:
    wheel = rules.wheel
    seats: tuple[RouletteSeat, ...] = data.draw(
        st.lists(roulette_seats(wheel), min_size=1, max_size=3).map(tuple)
    )
    pocket = data.draw(roulette_pockets(wheel))
    rnd = spin_round(rules, TableHistory.new("t"), pocket, seats)
    bets = [bet for seat in seats for bet in seat.bets]
    assert len(rnd.settlement) == len(bets)
    for line, bet in zip(rnd.settlement, bets, strict=True):
        stake = bet.amount
        best = stake * (1 + rules.odds_for(bet.kind).ratio)
        assert line.payout.stake == stake
        assert 0 <= line.payout.returned_exact <= best
        assert 0 <= line.payout.returned <= best
        won = pocket in covered(wheel, bet.kind, bet.numbers)
        if won:
            assert line.payout.returned_exact == best
        elif pocket in (0, DOUBLE_ZERO) and bet.kind.is_even_chance and not rules.zero_loses:
            assert line.payout.returned_exact == Fraction(stake, 2)
        else:
            assert line.payout.returned_exact == 0
