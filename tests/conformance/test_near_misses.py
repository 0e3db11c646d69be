"""Explore's roulette near misses: every shape kind's boundaries, on both layouts (C.rou.geometry).

The shapes listed here come from RULES.md (C.rou.wheel's table, US.rou.geometry's zero
shapes): each must be among the near misses explore tries, and each near miss must be one
the oracle refuses with INVALID_BET_LAYOUT.
"""

from __future__ import annotations

import pytest

from croupier.conformance.explore.rounds import near_miss_bet, near_misses
from croupier.oracle.errors import InvalidBetLayoutError
from croupier.oracle.roulette import DOUBLE_ZERO, BetKind, Wheel, covered
from croupier.oracle.service import convert
from croupier.v1 import common_pb2, round_pb2

DZ = DOUBLE_ZERO

#: On either layout: each inside kind pushed across a row's end, apart, or off the wheel.
BOTH = {
    BetKind.STRAIGHT: [(38,), (-1,)],
    # 3-4 and 33-34 cross a row's end; 1-3 are a row's two ends; 1-5 diagonal; 1-7 rows apart.
    BetKind.SPLIT: [(3, 4), (6, 7), (33, 34), (1, 3), (34, 36), (1, 5), (1, 7), (0, 4)],
    # Across a row's end, and down a column.
    BetKind.STREET: [(3, 4, 5), (2, 3, 4), (33, 34, 35), (1, 4, 7), (0, 1, 3)],
    BetKind.CORNER: [(3, 4, 6, 7), (30, 31, 33, 34), (1, 2, 7, 8), (1, 2, 3, 4)],
    BetKind.LINE: [(2, 3, 4, 5, 6, 7), (29, 30, 31, 32, 33, 34), (1, 2, 3, 7, 8, 9)],
    BetKind.FIRST_FOUR: [(1, 2, 3, 4)],
    BetKind.TOP_LINE: [(0, 1, 2, 3, 4)],
    BetKind.COLUMN: [(0,), (4,)],
    BetKind.DOZEN: [(0,), (4,)],
    **{kind: [(1,)] for kind in BetKind if kind.is_even_chance},
}
#: The other layout's zero shapes (US.rou.geometry against C.rou.wheel).
ONLY = {
    # The American wheel has no 0-3 split and no first four.
    Wheel.AMERICAN: {BetKind.SPLIT: [(0, 3)], BetKind.FIRST_FOUR: [(0, 1, 2, 3)]},
    # The European wheel has no 00: none of the American zero shapes.
    Wheel.EUROPEAN: {
        BetKind.STRAIGHT: [(DZ,)],
        BetKind.SPLIT: [(0, DZ), (DZ, 2), (DZ, 3)],
        BetKind.STREET: [(0, DZ, 2), (DZ, 2, 3)],
        BetKind.TOP_LINE: [(0, DZ, 1, 2, 3)],
    },
}


def _refused(wheel: Wheel, kind: BetKind, numbers: tuple[int, ...]) -> bool:
    """Whether the oracle refuses the near miss's bet as a layout error (read, then shaped)."""
    seat = round_pb2.Seat(
        balance=common_pb2.Amount(minor_units=1000, currency_code="EUR"),
        bets=[near_miss_bet(kind, numbers, 10)],
    )
    try:
        (request,) = convert.seats_from([seat], "EUR")
        (wager,) = request.wagers
        assert isinstance(wager.numbers, tuple)
        covered(wheel, kind, wager.numbers)
    except InvalidBetLayoutError:
        return True
    return False


@pytest.mark.parametrize("wheel", list(Wheel))
def test_every_kind_has_near_misses_and_the_listed_boundaries_are_among_them(wheel: Wheel) -> None:
    misses = near_misses(wheel)
    assert set(misses) == set(BetKind)
    for kind, shapes in (*BOTH.items(), *ONLY[wheel].items()):
        for numbers in shapes:
            assert numbers in misses[kind], (wheel, kind, numbers)


@pytest.mark.parametrize("wheel", list(Wheel))
def test_every_row_end_is_a_near_miss_of_each_kind_that_can_cross_it(wheel: Wheel) -> None:
    misses = near_misses(wheel)
    for end in range(3, 34, 3):
        assert (end, end + 1) in misses[BetKind.SPLIT]
        assert (end, end + 1, end + 2) in misses[BetKind.STREET]
        assert (end - 1, end, end + 1) in misses[BetKind.STREET]
    for end in range(3, 31, 3):
        assert (end, end + 1, end + 3, end + 4) in misses[BetKind.CORNER]
        assert tuple(range(end - 1, end + 5)) in misses[BetKind.LINE]


@pytest.mark.parametrize("wheel", list(Wheel))
def test_a_layouts_own_shapes_are_never_near_misses(wheel: Wheel) -> None:
    misses = near_misses(wheel)
    # The zero shapes this layout has (RULES.md C.rou.wheel and US.rou.geometry).
    own = {
        Wheel.EUROPEAN: [(BetKind.SPLIT, (0, 3)), (BetKind.FIRST_FOUR, (0, 1, 2, 3))],
        Wheel.AMERICAN: [(BetKind.SPLIT, (0, DZ)), (BetKind.TOP_LINE, (0, DZ, 1, 2, 3))],
    }[wheel]
    for kind, numbers in [*own, (BetKind.SPLIT, (2, 3)), (BetKind.STREET, (1, 2, 3))]:
        assert numbers not in misses[kind]


@pytest.mark.parametrize("wheel", list(Wheel))
def test_the_oracle_refuses_every_near_miss_as_a_layout_error(wheel: Wheel) -> None:
    misses = near_misses(wheel)
    accepted = [(k, n) for k, shapes in misses.items() for n in shapes if not _refused(wheel, k, n)]
    assert accepted == []
