"""Hand-written roulette cases common to the European (C) and the American wheel.

Each is decided the same way on both; where each wheel has its own clause (the odds, the
shapes of the layout), the case names it through ``own``. Ids stay what they were when the
cases were written per profile: each case carries its number on each wheel.
"""

from __future__ import annotations

from collections.abc import Mapping

from conformance.cases import Case, CaseRound, case_maker

#: Each wheel's clause for the rules the cases name by role.
OWN: dict[str, Mapping[str, str]] = {
    "roulette-c": {"odds": "C.rou.wheel", "geometry": "C.rou.geometry"},
    "roulette-american": {"odds": "US.rou.geometry", "geometry": "US.rou.geometry"},
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
    )
