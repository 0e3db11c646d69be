"""Hand-written roulette cases common to the European (C) and the American wheel.

Each is decided the same way on both; where each wheel has its own clause (the odds, the
shapes of the layout), the case names it through ``own``. Ids stay what they were when the
cases were written per profile: each case carries its number on each wheel.
"""

from __future__ import annotations

from collections.abc import Mapping

from croupier.conformance.cases import Case, CaseRound, case_maker

#: Each wheel's clause for the rules the cases name by role.
OWN: dict[str, Mapping[str, str]] = {
    "roulette-c": {"odds": "C.rou.wheel", "geometry": "C.rou.geometry", "zero": "C.rou.zero-loses"},
    "roulette-american": {
        "odds": "US.rou.geometry",
        "geometry": "US.rou.geometry",
        "zero": "US.rou.zero-loses",
    },
}
_COLUMN = {"roulette-c": 0, "roulette-american": 1}


def common_cases(profile: str, prefix: str) -> tuple[Case, ...]:
    """The shared cases, named and numbered for one roulette profile."""
    own = {"{" + role + "}": (clause,) for role, clause in OWN[profile].items()}
    case = case_maker(profile, prefix, own, column=_COLUMN[profile])

    return (
        case(
            (12, 9),
            "geometry/split-1-5-refused",
            ("{geometry}",),
            "1-5 is not a split of the layout: the bet is refused, never settled.",
            # 1 and 5 are neither side by side in a row nor one above the other: INVALID_BET_LAYOUT.
            CaseRound(seats=("1000:split 1-5=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (20, 13),
            "limits/stake-at-max-bet",
            ("TABLE.limits", "{odds}"),
            "A stake exactly at the table maximum of 1000000 is taken and paid.",
            # 1000000 = max_bet: accepted. Pocket 36 is red: 1000000 + 1000000 = 2000000.
            CaseRound(seats=("1000000:red=1000000",), pocket="36", returns=(2000000,)),
        ),
        case(
            (21, 14),
            "limits/stake-over-max-bet",
            ("TABLE.limits",),
            "A stake over the table maximum is refused: BET_OUT_OF_LIMITS.",
            # 1000001 > max_bet 1000000.
            CaseRound(seats=("2000000:red=1000001",), pocket="36", error="BET_OUT_OF_LIMITS"),
        ),
        case(
            (23, 16),
            "limits/stakes-over-balance",
            ("CONTRACT.balance",),
            "Stakes of 60 and 60 on a balance of 100 are refused: INSUFFICIENT_BALANCE.",
            # 60 + 60 = 120 > 100.
            CaseRound(seats=("100:red=60,black=60",), pocket="36", error="INSUFFICIENT_BALANCE"),
        ),
        # Near misses: a set of numbers (or a group) close to a shape of the layout, but none.
        case(
            (60, 60),
            "geometry/split-3-4-wraps-a-row",
            ("{geometry}",),
            "split 3-4 is refused, never settled: 3 ends a row and 4 starts the next: not side by side.",
            CaseRound(seats=("1000:split 3-4=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (61, 61),
            "geometry/split-1-5-diagonal",
            ("{geometry}",),
            "split 2-4 is refused, never settled: 2 and 4 touch only at a corner: no split.",
            CaseRound(seats=("1000:split 2-4=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (62, 62),
            "geometry/split-of-three-numbers",
            ("{geometry}",),
            "split 1-2-3 is refused, never settled: A split covers two numbers, not three.",
            CaseRound(seats=("1000:split 1-2-3=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (63, 63),
            "geometry/street-1-2-4",
            ("{geometry}",),
            "street 1-2-4 is refused, never settled: 1-2-4 is not a row of three.",
            CaseRound(seats=("1000:street 1-2-4=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (64, 64),
            "geometry/street-wraps-3-4-5",
            ("{geometry}",),
            "street 3-4-5 is refused, never settled: 3-4-5 runs across two rows.",
            CaseRound(seats=("1000:street 3-4-5=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (65, 65),
            "geometry/corner-wraps-3-4-6-7",
            ("{geometry}",),
            "corner 3-4-6-7 is refused, never settled: 3-4 and 6-7 run across rows: no corner.",
            CaseRound(seats=("1000:corner 3-4-6-7=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (66, 66),
            "geometry/corner-1-2-3-4",
            ("{geometry}",),
            "corner 1-2-3-4 is refused, never settled: Four numbers in a run are not a corner.",
            CaseRound(seats=("1000:corner 1-2-3-4=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (67, 67),
            "geometry/corner-names-a-number-twice",
            ("{geometry}",),
            "corner 1-2-4-4 is refused, never settled: A corner names four different numbers.",
            CaseRound(seats=("1000:corner 1-2-4-4=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (68, 68),
            "geometry/line-rows-not-adjacent",
            ("{geometry}",),
            "line 1-2-3-7-8-9 is refused, never settled: Rows 1-2-3 and 7-8-9 are not adjacent.",
            CaseRound(seats=("1000:line 1-2-3-7-8-9=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (69, 69),
            "geometry/line-wraps-2-to-7",
            ("{geometry}",),
            "line 2-3-4-5-6-7 is refused, never settled: 2 to 7 is not two whole rows.",
            CaseRound(seats=("1000:line 2-3-4-5-6-7=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (70, 70),
            "geometry/straight-off-the-wheel",
            ("{geometry}",),
            "straight 37 is refused, never settled: 37 is no pocket of either wheel.",
            CaseRound(seats=("1000:straight 37=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (71, 71),
            "geometry/column-four",
            ("{geometry}",),
            "column 4 is refused, never settled: There are three columns.",
            CaseRound(seats=("1000:column 4=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (72, 72),
            "geometry/dozen-zero",
            ("{geometry}",),
            "dozen 0 is refused, never settled: The dozens are 1, 2 and 3.",
            CaseRound(seats=("1000:dozen 0=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (73, 73),
            "geometry/red-naming-a-number",
            ("{geometry}",),
            "red 1 is refused, never settled: Red covers its eighteen numbers and names none.",
            CaseRound(seats=("1000:red 1=10",), pocket="1", error="INVALID_BET_LAYOUT"),
        ),
        case(
            (74, 74),
            "geometry/line-rows-1-and-4",
            ("{geometry}",),
            "line 1-2-3-10-11-12 is refused, never settled: rows 1 and 4 are not adjacent.",
            CaseRound(
                seats=("1000:line 1-2-3-10-11-12=10",), pocket="1", error="INVALID_BET_LAYOUT"
            ),
        ),
        case(
            (75, 75),
            "zero/odd-even-chance-stakes-lose",
            ("{zero}",),
            "Zero takes even-chance stakes of 1, 3 and 5 whole: nothing comes back, no half.",
            # Red 1, black 3, even 5, zero spins: every even chance loses outright (no half
            # back, which would leave 0.5, 1.5 and 2.5 to round).
            CaseRound(seats=("1000:red=1,black=3,even=5",), pocket="0", returns=(0, 0, 0)),
        ),
    )
