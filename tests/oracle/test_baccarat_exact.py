"""Exact count of every ordered six-card sequence of one deck through the oracle's own coup.

The published one-deck figures (standard tableau) check the whole chain of
BAC.values, BAC.deal, BAC.natural, BAC.player-draw, BAC.banker-stood,
BAC.banker-tableau and BAC.outcome at once: a single wrong tableau cell moves
the counts.

Cards are counted by point value with multiplicities: value 0 has 16 cards in
a deck (ten, jack, queen, king in four suits), values 1-9 have 4 each. For a
prefix of values the oracle either decides the coup or asks for another card
(``ShoeExhaustedError``); a decided prefix of k cards stands for every way of
drawing those values in order, times every way of filling the 6 - k unused
positions of the six-card sequence with the remaining cards.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from croupier.oracle.baccarat import CoupOutcome, Tableau, play_coup
from croupier.oracle.cards import Card, parse_cards
from croupier.oracle.errors import ShoeExhaustedError

DECK_SIZE = 52
SEQUENCE = 6
TOTAL = 52 * 51 * 50 * 49 * 48 * 47

# One representative card per point value: a ten for 0, an ace for 1, two to nine.
REPRESENTATIVE: tuple[Card, ...] = parse_cards("TS AS 2S 3S 4S 5S 6S 7S 8S 9S")
COPIES_PER_DECK: tuple[int, ...] = (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)


def _unused_positions(k: int) -> int:
    """Ways to fill positions k+1..6 of the sequence from the 52 - k cards left."""
    ways = 1
    for left in range(DECK_SIZE - k, DECK_SIZE - SEQUENCE, -1):
        ways *= left
    return ways


@cache
def count_outcomes(tableau: Tableau) -> Counter[CoupOutcome]:
    """Six-card sequences of one deck by outcome; cached, as both tests need the standard count."""
    counts: Counter[CoupOutcome] = Counter()
    remaining = list(COPIES_PER_DECK)
    prefix: list[Card] = []

    def extend(ways: int) -> None:
        for value, card in enumerate(REPRESENTATIVE):
            copies = remaining[value]
            if copies == 0:
                continue
            remaining[value] -= 1
            prefix.append(card)
            explore(ways * copies)
            prefix.pop()
            remaining[value] += 1

    def explore(ways: int) -> None:
        if len(prefix) < 4:
            extend(ways)
            return
        try:
            coup = play_coup(tableau, prefix)
        except ShoeExhaustedError:
            assert len(prefix) < SEQUENCE, "a coup never needs more than six cards"
            extend(ways)
            return
        assert len(coup.dealt) == len(prefix)
        counts[coup.outcome] += ways * _unused_positions(len(prefix))

    explore(1)
    return counts


@pytest.mark.slow
def test_one_deck_standard_counts_match_published_figures() -> None:
    """BAC.values, BAC.deal, BAC.natural, BAC.player-draw, BAC.banker-stood, BAC.banker-tableau, BAC.outcome."""
    counts = count_outcomes(Tableau.STANDARD)
    assert counts[CoupOutcome.BANKER] == 6_737_232_640
    assert counts[CoupOutcome.PLAYER] == 6_548_674_432
    assert counts[CoupOutcome.TIE] == 1_372_227_328
    assert sum(counts.values()) == TOTAL == 14_658_134_400


@pytest.mark.slow
def test_one_deck_document_b_counts() -> None:
    """B.tableau: the ace cells at 4, 5 and 6 change the counts, never the total.

    No document publishes these figures. They come from a separate brute force written from
    RULES.md alone (no oracle code): every ordered six-card sequence of one deck counted by
    point value with multiplicities, document B's "draws unless" lists applied as printed.
    The same program gives the published standard figures above.
    """
    document_b = count_outcomes(Tableau.DOCUMENT_B)
    assert document_b[CoupOutcome.PLAYER] == 6_576_749_120
    assert document_b[CoupOutcome.BANKER] == 6_717_468_416
    assert document_b[CoupOutcome.TIE] == 1_363_916_864
    assert sum(document_b.values()) == TOTAL
    # The banker drawing on the player's third-card ace at 4, 5 and 6 costs it coups.
    standard = count_outcomes(Tableau.STANDARD)
    assert document_b[CoupOutcome.BANKER] < standard[CoupOutcome.BANKER]
    assert document_b[CoupOutcome.PLAYER] > standard[CoupOutcome.PLAYER]
