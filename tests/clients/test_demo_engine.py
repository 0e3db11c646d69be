"""The demo engine certifies conformant.

That engine code never imports the oracle or the suite is an import-linter contract of
``make lint`` (``tests/architecture`` shows that a bad import breaks it).
"""

from __future__ import annotations

import asyncio
import shlex
import sys

import pytest

from croupier.clients.adapter import EngineError
from croupier.clients.demo_engine.cards import check_composition
from croupier.conformance.runner import RunConfig, VectorOutcome, run
from croupier.conformance.vectors import load_corpus


@pytest.mark.slow
def test_the_demo_engine_certifies_conformant_on_the_shipped_corpus() -> None:
    corpus = load_corpus()
    report = asyncio.run(
        run(
            RunConfig(
                vectors=corpus,
                corpus=corpus,
                launch=shlex.join([sys.executable, "-m", "croupier.clients.demo_engine"]),
                certify=True,
            )
        )
    )
    bad = [
        (r.vector_id, r.outcome.value, r.clause, r.message)
        for r in report.results
        if r.outcome is not VectorOutcome.PASS
    ]
    assert not bad, bad[:5]
    assert report.conformant
    assert report.count(VectorOutcome.PASS) == len(corpus)
    assert report.describe.name == "croupier-demo-engine"


@pytest.mark.parametrize(
    ("cards", "decks", "said"),
    [
        (["AS", "AS"], 1, "the shoe holds 2 copies of AS; 1 deck holds 1"),
        (["KD", "KD", "KD"], 2, "the shoe holds 3 copies of KD; 2 decks hold 2"),
    ],
)
def test_a_shoe_with_too_many_copies_counts_its_decks_in_english(
    cards: list[str], decks: int, said: str
) -> None:
    with pytest.raises(EngineError) as raised:
        check_composition(cards, decks)
    assert said in str(raised.value)
