"""Cards and their portable text form (DESIGN.md "The portable seeded shoe")."""

from __future__ import annotations

import pytest

from croupier.oracle.cards import DECK, RANKS, SUITS, Card, Rank, Suit, format_cards, parse_cards
from croupier.oracle.errors import InvalidCardError, OracleError

# The text form, written out from DESIGN.md: rank ``A23456789TJQK`` then suit ``CDHS``.
RANK_TEXT = "A23456789TJQK"
SUIT_TEXT = "CDHS"
ALL_TEXTS = [rank + suit for suit in SUIT_TEXT for rank in RANK_TEXT]


def test_fifty_two_texts() -> None:
    assert len(ALL_TEXTS) == 52
    assert len(set(ALL_TEXTS)) == 52


@pytest.mark.parametrize("text", ALL_TEXTS)
def test_parse_round_trips(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == text
    assert card.rank.value == text[0]
    assert card.suit.value == text[1]
    assert Card.parse(str(card)) == card


def test_parse_gives_the_right_rank_and_suit() -> None:
    assert Card.parse("TH") == Card(rank=Rank.TEN, suit=Suit.HEARTS)
    assert Card.parse("AC") == Card(rank=Rank.ACE, suit=Suit.CLUBS)
    assert Card.parse("QD") == Card(rank=Rank.QUEEN, suit=Suit.DIAMONDS)
    assert Card.parse("2S") == Card(rank=Rank.TWO, suit=Suit.SPADES)


@pytest.mark.parametrize(
    "text",
    ["1H", "10H", "th", "T", "", "TX", "AHH", " AH", "AH ", "ah", "Ah", "aH", "HA", "XH", "A"],
)
def test_malformed_cards_are_refused(text: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card.parse(text)
    error = info.value
    assert isinstance(error, OracleError)
    assert error.reason == "INVALID_CARD"
    assert error.metadata == {"card": text}
    assert repr(text) in str(error)


def test_parse_cards_reports_the_offending_card() -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_cards("AH KS 10H QD")
    assert info.value.metadata["card"] == "10H"


def test_parse_cards_and_format_cards() -> None:
    expected = (
        Card(rank=Rank.KING, suit=Suit.SPADES),
        Card(rank=Rank.FIVE, suit=Suit.HEARTS),
        Card(rank=Rank.TEN, suit=Suit.CLUBS),
    )
    assert parse_cards("KS 5H TC") == expected
    assert parse_cards("  KS\t5H\nTC ") == expected
    assert parse_cards(["KS", "5H", "TC"]) == expected
    assert parse_cards("") == ()
    assert format_cards(expected) == "KS 5H TC"
    assert format_cards(()) == ""


def test_canonical_deck_order() -> None:
    # DESIGN.md: suits clubs, diamonds, hearts, spades; in each suit A, 2, ..., 10, J, Q, K.
    assert [str(card) for card in DECK] == ALL_TEXTS
    assert str(DECK[0]) == "AC"
    assert str(DECK[1]) == "2C"
    assert str(DECK[9]) == "TC"
    assert str(DECK[12]) == "KC"
    assert str(DECK[13]) == "AD"
    assert str(DECK[26]) == "AH"
    assert str(DECK[39]) == "AS"
    assert str(DECK[-1]) == "KS"


def test_deck_has_52_distinct_cards() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert {(card.rank, card.suit) for card in DECK} == {(r, s) for r in Rank for s in Suit}


def test_suit_and_rank_order() -> None:
    assert [s.value for s in SUITS] == list(SUIT_TEXT)
    assert [r.value for r in RANKS] == list(RANK_TEXT)


PIPS = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "T": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
}


@pytest.mark.parametrize(("text", "pip"), PIPS.items())
def test_rank_pip(text: str, pip: int) -> None:
    assert Rank(text).pip == pip


@pytest.mark.parametrize("rank", list(Rank))
def test_rank_picture_and_ten_valued(rank: Rank) -> None:
    assert rank.is_picture == (rank.value in "JQK")
    assert rank.is_ten_valued == (rank.value in "TJQK")


def test_ten_is_ten_valued_but_not_a_picture() -> None:
    # A.split: "A ten and a picture (10-J) are not a pair": the ten is no picture.
    assert Rank.TEN.is_ten_valued
    assert not Rank.TEN.is_picture
    assert not Rank.ACE.is_picture
    assert not Rank.ACE.is_ten_valued


def test_cards_are_values() -> None:
    a = Card.parse("JS")
    b = Card(rank=Rank.JACK, suit=Suit.SPADES)
    assert a == b
    assert hash(a) == hash(b)
    assert a != Card.parse("JC")
    assert len({a, b}) == 1


def test_a_card_knows_its_place_in_a_fresh_deck() -> None:
    # DESIGN.md's fresh deck: clubs, diamonds, hearts, spades, each A, 2, ..., T, J, Q, K.
    assert Card.parse("AC").place == 0
    assert Card.parse("KC").place == 12
    assert Card.parse("AD").place == 13
    assert Card.parse("TH").place == 2 * 13 + 9
    assert Card.parse("KS").place == 51
    # A card made apart from the deck's has the place of the card it equals.
    assert Card(rank=Rank.SEVEN, suit=Suit.HEARTS).place == 2 * 13 + 6
    assert [card.place for card in DECK] == list(range(52))
    # The place is worked out, never given, and no part of the card's value or text.
    with pytest.raises(TypeError):
        Card(rank=Rank.ACE, suit=Suit.CLUBS, place=5)  # type: ignore[call-arg]
    assert repr(Card.parse("AC")) == "Card(rank=<Rank.ACE: 'A'>, suit=<Suit.CLUBS: 'C'>)"
