"""Playing cards and their portable text form (DESIGN.md "The portable seeded shoe").

A card is written rank then suit: ranks ``A23456789TJQK``, suits ``CDHS``
(``TH`` is the ten of hearts).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from croupier.oracle.errors import InvalidCardError
from croupier.oracle.immutable import Choice


class Suit(Choice):
    """The four suits, in the canonical order of a fresh deck."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"


class Rank(Choice):
    """The thirteen ranks, in the canonical order of a fresh suit (ace first)."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def pip(self) -> int:
        """Face value: ace 1, two to ten their number, pictures 10."""
        return _PIPS[self]

    @property
    def is_picture(self) -> bool:
        """Jack, queen or king (a "figure" or "image" in the documents)."""
        return self in (Rank.JACK, Rank.QUEEN, Rank.KING)

    @property
    def is_ten_valued(self) -> bool:
        """Ten or a picture: the cards that count ten in blackjack (BJ.values)."""
        return _PIPS[self] == 10


_PIPS: Final[dict[Rank, int]] = {
    rank: (1 if rank is Rank.ACE else 10 if rank.value in "TJQK" else int(rank.value))
    for rank in Rank
}


#: Each rank's and suit's place in a fresh deck's order (``DECK``): a card's ``place``.
_RANK_PLACES: Final[dict[Rank, int]] = {rank: place for place, rank in enumerate(Rank)}
_SUIT_PLACES: Final[dict[Suit, int]] = {suit: len(Rank) * place for place, suit in enumerate(Suit)}


@dataclass(frozen=True, slots=True, kw_only=True, order=False, init=False)
class Card:
    """One playing card; ``place`` is its place in a fresh deck (``DECK``), 0 to 51."""

    rank: Rank
    suit: Suit
    #: Worked out from the rank and suit, so equal cards share it: a shoe's check counts the
    #: cards by it (``oracle.shoe``), where hashing a card runs the dataclass's Python hash.
    place: int = field(init=False, repr=False, compare=False)

    # Written out (init=False): it works ``place`` out, and mypyc compiles it (``oracle.immutable``).
    def __init__(self, *, rank: Rank, suit: Suit) -> None:
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "place", _SUIT_PLACES[suit] + _RANK_PLACES[rank])

    def __str__(self) -> str:
        return self.rank.value + self.suit.value

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read the two-character form (``TH``); raise ``InvalidCardError`` otherwise."""
        card = _BY_TEXT.get(text)
        if card is None:
            raise InvalidCardError(
                f"invalid card {text!r}: expected a rank of A23456789TJQK then a suit of CDHS, "
                "like 'TH' for the ten of hearts",
                card=text,
            )
        return card


SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)

#: One deck in canonical order: clubs, diamonds, hearts, spades; A, 2, ..., 10, J, Q, K.
DECK: Final[tuple[Card, ...]] = tuple(
    Card(rank=rank, suit=suit) for suit in SUITS for rank in RANKS
)

_BY_TEXT: Final[dict[str, Card]] = {str(card): card for card in DECK}


def parse_cards(texts: Iterable[str] | str) -> tuple[Card, ...]:
    """Parse many cards, from an iterable or one whitespace-separated string."""
    items = texts.split() if isinstance(texts, str) else texts
    return tuple(Card.parse(t) for t in items)


def format_cards(cards: Iterable[Card]) -> str:
    """The space-separated text form of a card sequence."""
    return " ".join(str(c) for c in cards)
