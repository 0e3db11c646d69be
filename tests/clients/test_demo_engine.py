"""The demo engine certifies conformant.

That engine code never imports the oracle or the suite is an import-linter contract of
``make lint`` (``tests/architecture`` shows that a bad import breaks it).
"""

from __future__ import annotations

import asyncio
import shlex
import sys

import pytest

from conformance.runner import RunConfig, VectorOutcome, run
from conformance.vectors import load_corpus


@pytest.mark.slow
def test_the_demo_engine_certifies_conformant_on_the_shipped_corpus() -> None:
    corpus = load_corpus()
    report = asyncio.run(
        run(
            RunConfig(
                vectors=corpus,
                corpus=corpus,
                launch=shlex.join([sys.executable, "-m", "clients.demo_engine"]),
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
