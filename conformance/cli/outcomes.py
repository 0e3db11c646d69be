"""``croupier shoe`` and ``croupier spins``: the portable seeded outcomes, in text form."""

from __future__ import annotations

import click

from croupier.conformance.cli.common import MAX_COUNT, utf8_text
from croupier.oracle.cards import DECK, format_cards
from croupier.oracle.roulette import DOUBLE_ZERO, pocket_text
from croupier.oracle.shoe import seeded_shoe, seeded_spins

#: The most decks a seeded shoe holds (DESIGN.md's portable shoe: one to eight).
MAX_DECKS = 8


@click.command()
@click.option(
    "--seed", required=True, callback=utf8_text, help="The seed, any UTF-8 text (may be empty)."
)
@click.option(
    "--decks",
    default=1,
    show_default=True,
    type=click.IntRange(1, MAX_DECKS),
    help="Decks in the shoe.",
)
@click.option(
    "--count",
    type=click.IntRange(1, MAX_DECKS * len(DECK)),
    help="Print only the first COUNT cards.",
)
def shoe(seed: str, decks: int, count: int | None) -> None:
    """Print the portable seeded shoe of SEED in text form, first card dealt first."""
    cards = seeded_shoe(seed, decks)
    print(format_cards(cards[:count] if count else cards))  # noqa: T201 - plain output for pipes


@click.command()
@click.option(
    "--seed", required=True, callback=utf8_text, help="The seed, any UTF-8 text (may be empty)."
)
@click.option(
    "--count",
    default=13,
    show_default=True,
    type=click.IntRange(1, MAX_COUNT),
    help="How many spins.",
)
@click.option(
    "--wheel", type=click.Choice(["european", "american"]), default="european", show_default=True
)
def spins(seed: str, count: int, wheel: str) -> None:
    """Print the portable seeded roulette spins of SEED (00 on the American wheel)."""
    pockets = 38 if wheel == "american" else 37
    values = seeded_spins(seed, count, pockets)
    print(" ".join(pocket_text(v) if v != DOUBLE_ZERO else "00" for v in values))  # noqa: T201
