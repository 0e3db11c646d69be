"""Every hand-written case of the shipped corpus, by profile: its own, its table's, the asked."""

from __future__ import annotations

from croupier.conformance.cases import Case
from croupier.conformance.handwritten import (
    baccarat_b,
    baccarat_c,
    baccarat_d,
    blackjack_a,
    blackjack_c,
    roulette_american,
    roulette_c,
)
from croupier.conformance.handwritten._asked import asked_cases
from croupier.conformance.handwritten._table import table_cases
from croupier.oracle.clauses import Game

_LIMITS = ("TABLE.limits",)
_BJ, _BAC, _ROU = Game.BLACKJACK, Game.BACCARAT, Game.ROULETTE

#: Each profile's own hand-written cases and its table's.
_TABLE: dict[str, tuple[Case, ...]] = {
    "blackjack-a": (*blackjack_a.CASES, *table_cases("blackjack-a", "bja", _BJ, limits=_LIMITS)),
    "blackjack-c": (*blackjack_c.CASES, *table_cases("blackjack-c", "bjc", _BJ, limits=_LIMITS)),
    "baccarat-b": (
        *baccarat_b.CASES,
        *table_cases("baccarat-b", "bab", _BAC, limits=("TABLE.limits", "B.limits")),
    ),
    "baccarat-c": (*baccarat_c.CASES, *table_cases("baccarat-c", "bac", _BAC, limits=_LIMITS)),
    "baccarat-d": (*baccarat_d.CASES, *table_cases("baccarat-d", "bad", _BAC, limits=_LIMITS)),
    "roulette-c": (*roulette_c.CASES, *table_cases("roulette-c", "rou", _ROU, limits=_LIMITS)),
    "roulette-american": (
        *roulette_american.CASES,
        *table_cases("roulette-american", "rua", _ROU, limits=_LIMITS),
    ),
}
#: The prefix and game of each profile's ids, for the cases of ``_asked``.
_ASKED = {
    "blackjack-a": ("bja", _BJ),
    "blackjack-c": ("bjc", _BJ),
    "baccarat-b": ("bab", _BAC),
    "baccarat-c": ("bac", _BAC),
    "baccarat-d": ("bad", _BAC),
    "roulette-c": ("rou", _ROU),
    "roulette-american": ("rua", _ROU),
}
#: Every hand-written case, by profile id: the profile's own and its table's (``_TABLE``), then
#: what a corpus easily never asks (``_asked``: ids h300 to h349).
CASES: dict[str, tuple[Case, ...]] = {
    profile: (*cases, *asked_cases(profile, *_ASKED[profile])) for profile, cases in _TABLE.items()
}
