"""The hand-written cases of the shipped corpus, one module per profile.

Each module defines ``CASES``, a tuple of ``conformance.cases.Case``; ids are
``<prefix>-h<NNN>`` and are never reused once shipped.
"""

from __future__ import annotations

from conformance.cases import Case
from conformance.handwritten import (
    baccarat_b,
    baccarat_c,
    baccarat_d,
    blackjack_a,
    blackjack_c,
    roulette_american,
    roulette_c,
)

#: Every hand-written case, by profile id.
CASES: dict[str, tuple[Case, ...]] = {
    "blackjack-a": blackjack_a.CASES,
    "blackjack-c": blackjack_c.CASES,
    "baccarat-b": baccarat_b.CASES,
    "baccarat-c": baccarat_c.CASES,
    "baccarat-d": baccarat_d.CASES,
    "roulette-c": roulette_c.CASES,
    "roulette-american": roulette_american.CASES,
}
