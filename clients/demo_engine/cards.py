"""Cards as the contract writes them (rank ``A23456789TJQK``, suit ``CDHS``) and the forced shoe."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from croupier.clients.adapter import EngineError
from croupier.clients.words import plural

RANKS = "A23456789TJQK"
SUITS = "CDHS"
PICTURES = "JQK"
TEN_VALUED = "TJQK"


def rank(card: str) -> str:
    """The rank letter of a card: ``"T"`` for ``"TH"``."""
    return card[0]


def check_cards(cards: Sequence[str]) -> None:
    """Refuse a card that is not a rank then a suit, like ``TH`` (``INVALID_CARD``)."""
    for index, card in enumerate(cards):
        if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
            raise EngineError(
                "INVALID_CARD",
                f"shoe.cards[{index}] is {card!r}: a card is a rank of {RANKS} then a suit of {SUITS}",
                card=card,
                index=index,
            )


def check_composition(cards: Sequence[str], decks: int) -> None:
    """Refuse a shoe that holds more copies of a card than the profile's decks (``SHOE_NOT_IN_PROFILE``)."""
    for card, count in Counter(cards).items():
        if count > decks:
            raise EngineError(
                "SHOE_NOT_IN_PROFILE",
                f"the shoe holds {count} copies of {card}; "
                f"{plural(decks, 'deck')} {'holds' if decks == 1 else 'hold'} {decks}",
                card=card,
                count=count,
                decks=decks,
            )


def check_deal_length(shoe: Sequence[str], needed: int) -> None:
    """``SHOE_EXHAUSTED`` when the shoe cannot deal the round's first cards, ``needed`` in all.

    The contract's "needed" for a deal is the deal's whole count (engine_service.proto): the
    deal takes its cards together, so a shoe of one card lacks the fourth as much as the second.
    """
    if len(shoe) < needed:
        raise EngineError(
            "SHOE_EXHAUSTED",
            f"the deal needs {needed} cards, the shoe holds {len(shoe)}",
            needed=needed,
            shoe_size=len(shoe),
        )


@dataclass(slots=True)
class Shoe:
    """The forced shoe of one round: cards are taken from the front, in order."""

    cards: tuple[str, ...]
    dealt: int = 0

    def draw(self) -> str:
        """The next card; ``SHOE_EXHAUSTED`` when the round needs more cards than the shoe holds."""
        if self.dealt >= len(self.cards):
            raise EngineError(
                "SHOE_EXHAUSTED",
                f"the round needs card {self.dealt + 1}, the shoe holds {len(self.cards)}",
                needed=self.dealt + 1,
                shoe_size=len(self.cards),
            )
        card = self.cards[self.dealt]
        self.dealt += 1
        return card
