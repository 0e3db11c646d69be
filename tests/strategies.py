"""Shared Hypothesis strategies for every test package."""

from __future__ import annotations

from hypothesis import strategies as st

from oracle.cards import DECK, Card

#: Any single card.
cards: st.SearchStrategy[Card] = st.sampled_from(DECK)


def shoes(
    decks: int, *, min_size: int = 0, max_size: int | None = None
) -> st.SearchStrategy[tuple[Card, ...]]:
    """A forced shoe that a profile of ``decks`` decks can contain: a prefix of a permutation."""
    full = DECK * decks
    top = len(full) if max_size is None else min(max_size, len(full))
    return st.permutations(full).flatmap(
        lambda perm: st.integers(min_value=min(min_size, top), max_value=top).map(
            lambda n: tuple(perm[:n])
        )
    )


# --- blackjack strategies ---

# --- baccarat strategies ---

# --- roulette strategies ---
