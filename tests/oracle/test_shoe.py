"""The portable seeded shoe and roulette spins (DESIGN.md "The portable seeded shoe").

The expected values are DESIGN.md's published test vectors, and an independent
reimplementation of the spec text written here with ``hashlib`` and ``struct``.
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.oracle.cards import DECK, Card, Rank, Suit, parse_cards
from croupier.oracle.errors import InvalidRoundError, OracleError, ShoeNotInProfileError
from croupier.oracle.shoe import SeededStream, check_composition, seeded_shoe, seeded_spins

DESIGN = Path(__file__).resolve().parents[2] / "docs" / "DESIGN.md"

# DESIGN.md's table, copied by hand. The seed "été-2026" is written with escapes so
# that its UTF-8 bytes are unambiguous (precomposed U+00E9, as in DESIGN.md).
VECTORS = [
    ("croupier", 1, "KS 5H 5S 7S 8H KC 9S 2D 8D JS 5D 3S"),
    ("croupier", 6, "QH AD AS 4H TC 2C KH QD 9C 7S 6C TD"),
    ("", 8, "5D 8C 2H KC 5C 7S AC QH KS TC TS TD"),
    ("\u00e9t\u00e9-2026", 1, "3H 3S 4C 7H 5S 9C TH 8S 7C QD TD 4H"),
]

EUROPEAN_SPINS_CROUPIER = (28, 34, 12, 14, 27, 34, 31, 20, 0, 36, 33, 2, 14)

TWO_64 = 2**64


# --- an independent reimplementation of the spec text ---


def reference_words(seed: str) -> Iterator[int]:
    """Block k = SHA-256(seed UTF-8, 0x00, k as 8-byte big-endian); big-endian u64 words."""
    k = 0
    while True:
        block = hashlib.sha256(seed.encode("utf-8") + b"\x00" + struct.pack(">Q", k)).digest()
        yield from struct.unpack(">4Q", block)
        k += 1


def reference_uniform(words: Iterator[int], n: int) -> tuple[int, int]:
    """uniform(n) per the spec, and how many words it skipped."""
    limit = TWO_64 - (TWO_64 % n)
    for skipped, word in enumerate(words):
        if word < limit:
            return word % n, skipped
    raise AssertionError("the stream never ends")


def reference_shoe(seed: str, decks: int) -> list[str]:
    texts = [r + s for s in "CDHS" for r in "A23456789TJQK"] * decks
    words = reference_words(seed)
    for i in range(len(texts) - 1, 0, -1):
        j, _ = reference_uniform(words, i + 1)
        texts[i], texts[j] = texts[j], texts[i]
    return texts


# --- DESIGN.md's vectors ---


def test_vectors_match_design_md() -> None:
    """The literals above are DESIGN.md's table, row for row."""
    rows = re.findall(
        r"^\| (`[^`]*`|\(empty\)) \| (\d+) \| ((?:[2-9TJQKA][CDHS] ?){12}) \|$",
        DESIGN.read_text(encoding="utf-8"),
        flags=re.MULTILINE,
    )
    parsed = [
        ("" if seed == "(empty)" else seed.strip("`"), int(decks), cards.strip())
        for seed, decks, cards in rows
    ]
    assert parsed == VECTORS
    spins = re.search(r"Spins of seed `croupier`, European: ([\d ]+)\.", DESIGN.read_text("utf-8"))
    assert spins is not None
    assert tuple(int(s) for s in spins.group(1).split()) == EUROPEAN_SPINS_CROUPIER


@pytest.mark.parametrize(("seed", "decks", "first"), VECTORS)
def test_published_vectors(seed: str, decks: int, first: str) -> None:
    shoe = seeded_shoe(seed, decks)
    assert shoe[:12] == parse_cards(first)


@pytest.mark.parametrize(("seed", "decks", "first"), VECTORS)
def test_reference_reimplementation_reproduces_the_vectors(
    seed: str, decks: int, first: str
) -> None:
    """Guards the reference used below: it is right on the published vectors."""
    assert " ".join(reference_shoe(seed, decks)[:12]) == first


@pytest.mark.parametrize(("seed", "decks", "first"), VECTORS)
def test_whole_shoe_matches_reference(seed: str, decks: int, first: str) -> None:
    assert [str(c) for c in seeded_shoe(seed, decks)] == reference_shoe(seed, decks)


@pytest.mark.parametrize(("seed", "decks"), [("lab-7", 2), ("x", 4), ("\U0001f0a1", 3)])
def test_other_shoes_match_reference(seed: str, decks: int) -> None:
    assert [str(c) for c in seeded_shoe(seed, decks)] == reference_shoe(seed, decks)


def test_european_spins_of_croupier() -> None:
    assert seeded_spins("croupier", 13, 37) == EUROPEAN_SPINS_CROUPIER


def test_spins_are_a_prefix_of_one_stream() -> None:
    assert seeded_spins("croupier", 5, 37) == EUROPEAN_SPINS_CROUPIER[:5]
    assert seeded_spins("croupier", 0, 37) == ()


@pytest.mark.parametrize(("seed", "pockets"), [("croupier", 38), ("croupier", 37), ("t-1", 38)])
def test_spins_match_reference(seed: str, pockets: int) -> None:
    words = reference_words(seed)
    expected = tuple(reference_uniform(words, pockets)[0] for _ in range(200))
    spins = seeded_spins(seed, 200, pockets)
    assert spins == expected
    assert all(0 <= s < pockets for s in spins)


# --- composition ---


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_shoe_of_n_decks_holds_each_card_n_times(decks: int) -> None:
    shoe = seeded_shoe("composition", decks)
    assert len(shoe) == 52 * decks
    assert Counter(shoe) == dict.fromkeys(DECK, decks)


def test_shoe_is_shuffled_and_depends_on_the_seed() -> None:
    assert seeded_shoe("croupier", 1) != DECK
    assert seeded_shoe("croupier", 1) != seeded_shoe("croupier ", 1)
    assert seeded_shoe("croupier", 1) == seeded_shoe("croupier", 1)


@pytest.mark.parametrize("decks", [0, -1])
def test_shoe_needs_a_deck(decks: int) -> None:
    with pytest.raises(InvalidRoundError) as info:
        seeded_shoe("x", decks)
    assert info.value.reason == "INVALID_ROUND"


# --- the stream ---


def test_first_words_of_croupier_rebuilt_by_hand() -> None:
    block0 = hashlib.sha256(b"croupier" + b"\x00" + b"\x00" * 8).digest()
    block1 = hashlib.sha256(b"croupier" + b"\x00" + b"\x00" * 7 + b"\x01").digest()
    by_hand = [int.from_bytes(block0[i : i + 8], "big") for i in range(0, 32, 8)]
    by_hand += [int.from_bytes(block1[i : i + 8], "big") for i in range(0, 32, 8)]
    stream = SeededStream("croupier")
    assert [stream._next_word() for _ in range(8)] == by_hand


def test_uniform_two_64_is_the_raw_word_stream() -> None:
    """n = 2**64: the limit is 2**64, no word is skipped, the word is returned as is."""
    block0 = hashlib.sha256("été-2026".encode() + bytes(9)).digest()
    first = int.from_bytes(block0[:8], "big")
    little = int.from_bytes(block0[:8], "little")
    assert first != little
    stream = SeededStream("été-2026")
    assert stream.uniform(TWO_64) == first
    words = reference_words("été-2026")
    next(words)
    assert [stream.uniform(TWO_64) for _ in range(11)] == [next(words) for _ in range(11)]


def test_uniform_two_63_keeps_the_low_bits() -> None:
    words = reference_words("croupier")
    stream = SeededStream("croupier")
    assert [stream.uniform(2**63) for _ in range(9)] == [next(words) % 2**63 for _ in range(9)]


def test_uniform_rejection_at_two_63_plus_one() -> None:
    """n = 2**63 + 1: limit = 2**63 + 1, so about half of the words are skipped."""
    n = 2**63 + 1
    assert TWO_64 - (TWO_64 % n) == 2**63 + 1
    for seed in ("croupier", "", "rejection"):
        words = reference_words(seed)
        expected, skipped = [], 0
        for _ in range(50):
            value, s = reference_uniform(words, n)
            expected.append(value)
            skipped += s
        assert skipped > 0, "the reference must exercise the rejection"
        stream = SeededStream(seed)
        assert [stream.uniform(n) for _ in range(50)] == expected


def test_uniform_skips_words_at_or_above_the_limit_by_hand() -> None:
    """n = 2**63 + 1 over the first 8 raw words of "croupier": only words below 2**63 + 1 count."""
    n = 2**63 + 1
    block0 = hashlib.sha256(b"croupier\x00" + (0).to_bytes(8, "big")).digest()
    block1 = hashlib.sha256(b"croupier\x00" + (1).to_bytes(8, "big")).digest()
    raw = [int.from_bytes(b[i : i + 8], "big") for b in (block0, block1) for i in range(0, 32, 8)]
    kept = [w % n for w in raw if w < n]
    assert 0 < len(kept) < len(raw), "the seed must have words on both sides of the limit"
    stream = SeededStream("croupier")
    assert [stream.uniform(n) for _ in range(len(kept))] == kept


def test_uniform_skips_a_word_exactly_at_the_limit() -> None:
    """A word equal to the limit is skipped ("take words until one is below limit").

    With a first word w > 2**63 and n = w: 2**64 mod w = 2**64 - w, so the limit is w itself.
    """
    seed = next(s for s in (f"edge-{k}" for k in range(64)) if next(reference_words(s)) > 2**63)
    words = reference_words(seed)
    n = next(words)
    assert TWO_64 - (TWO_64 % n) == n
    expected, skipped = reference_uniform(reference_words(seed), n)
    assert skipped >= 1
    assert expected == next(w for w in words if w < n) % n
    assert SeededStream(seed).uniform(n) == expected


@pytest.mark.parametrize("n", [1, 2, 37, 38, 52, 52 * 8, 2**32 + 15, 2**63 + 1, 3 * 2**62])
@pytest.mark.parametrize("seed", ["croupier", "", "été-2026", "seed-42"])
def test_uniform_matches_reference(seed: str, n: int) -> None:
    words = reference_words(seed)
    expected = [reference_uniform(words, n)[0] for _ in range(50)]
    stream = SeededStream(seed)
    got = [stream.uniform(n) for _ in range(50)]
    assert got == expected
    assert all(0 <= v < n for v in got)


def test_uniform_shares_one_stream_across_different_n() -> None:
    words = reference_words("mixed")
    sizes = [52, 51, 2**63 + 1, 37, 2**63 + 1, 38, 1, 2**64]
    expected = [reference_uniform(words, n)[0] for n in sizes]
    stream = SeededStream("mixed")
    assert [stream.uniform(n) for n in sizes] == expected


@given(
    seed=st.text(max_size=12),
    n=st.one_of(st.integers(1, 600), st.integers(2**62, 2**64)),
)
def test_uniform_matches_reference_property(seed: str, n: int) -> None:
    words = reference_words(seed)
    expected = [reference_uniform(words, n)[0] for _ in range(8)]
    stream = SeededStream(seed)
    assert [stream.uniform(n) for _ in range(8)] == expected


def test_uniform_one_is_always_zero_and_consumes_a_word() -> None:
    stream = SeededStream("croupier")
    assert stream.uniform(1) == 0
    words = reference_words("croupier")
    next(words)
    assert stream.uniform(TWO_64) == next(words)


@pytest.mark.parametrize("n", [0, -1, -37, 2**64 + 1, 2**65])
def test_uniform_refuses_n_it_cannot_serve(n: int) -> None:
    with pytest.raises(ValueError, match="uniform"):
        SeededStream("x").uniform(n)


# --- check_composition ---


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_check_composition_accepts_n_copies(decks: int) -> None:
    check_composition(DECK * decks, decks, clause="B.decks")
    check_composition([Card.parse("AS")] * decks, decks, clause="B.decks")
    check_composition((), decks, clause="B.decks")


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_check_composition_refuses_n_plus_one_copies(decks: int) -> None:
    shoe = [*parse_cards("KH 2C"), *([Card.parse("AS")] * (decks + 1)), Card.parse("3D")]
    with pytest.raises(ShoeNotInProfileError) as info:
        check_composition(shoe, decks, clause="C.bac.decks")
    error = info.value
    assert isinstance(error, OracleError)
    assert error.reason == "SHOE_NOT_IN_PROFILE"
    assert error.metadata == {
        "card": "AS",
        "count": str(decks + 1),
        "decks": str(decks),
        "clause": "C.bac.decks",
    }
    assert error.clause == "C.bac.decks"


def test_check_composition_refuses_a_full_shoe_plus_one_card() -> None:
    shoe = [*seeded_shoe("croupier", 6), Card.parse("TD")]
    with pytest.raises(ShoeNotInProfileError) as info:
        check_composition(shoe, 6, clause="C.bac.decks")
    assert info.value.metadata["card"] == "TD"
    assert info.value.metadata["count"] == "7"


def test_check_composition_counts_card_objects_made_apart_as_the_cards_they_equal() -> None:
    # Two decks: two aces of spades pass, a third refuses, whichever objects they are; one
    # made apart from the deck's (equal, not the same object) counts as the deck's own.
    made = Card(rank=Rank.ACE, suit=Suit.SPADES)
    canonical = Card.parse("AS")
    assert made == canonical
    assert made is not canonical
    check_composition([made, canonical, Card.parse("2C")], 2, clause="B.decks")
    for shoe in ([made, canonical, made], [canonical, canonical, made], [made] * 3):
        with pytest.raises(ShoeNotInProfileError) as info:
            check_composition(shoe, 2, clause="B.decks")
        assert info.value.metadata["card"] == "AS"
        assert info.value.metadata["count"] == "3"
