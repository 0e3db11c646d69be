"""The blackjack21 example (examples/blackjack/): a PyPI engine certified on part of its lab corpus.

``make examples`` certifies all three examples on their whole corpora and explores them; this
runs the blackjack wrapper, launched as a vendor would, on twenty vectors of its lab corpus:
the first ten (deals, hits, doubles, surrenders, splits, payouts through the lab's pay table)
and ten around blackjack21-0129, a re-split that the engine numbers otherwise than the
contract (the known failure its file lists, with its reason).
"""

from __future__ import annotations

import shlex
import sys
from functools import cache
from pathlib import Path

import pytest

from conformance import labcorpus
from conformance.known import read_known_failures
from conformance.results import VectorOutcome
from conformance.vectors import LoadedVector, campaign
from oracle.profile import load_profile_file
from tests.conformance.support import by_id, run_api

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "blackjack"
PROFILE = load_profile_file(EXAMPLE / "profile.toml")


@cache
def _lab_vectors(count: int) -> list[LoadedVector]:
    """The first ``count`` vectors of the profile's lab corpus (``build_vectors``'s campaign)."""
    vectors = campaign(PROFILE, f"croupier/lab/{PROFILE.id}", count, PROFILE.id)
    return [LoadedVector(vector=v, path=EXAMPLE / "lab", line=i) for i, v in enumerate(vectors)]


def test_the_first_vectors_are_the_lab_corpus_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """A campaign of fewer rounds is the lab corpus's first vectors, so the ids listed in the
    known-failures file (taken from a whole certify run) name the same rounds here."""
    monkeypatch.setattr(labcorpus, "LAB_ROUNDS", 3)
    assert labcorpus.build_vectors(PROFILE) == [v.vector for v in _lab_vectors(130)[:3]]


def test_blackjack21_passes_but_for_its_known_resplit_difference() -> None:
    loaded = _lab_vectors(130)
    chosen = [*loaded[:10], *loaded[120:130]]
    known = read_known_failures(EXAMPLE / "known-failures.txt")
    launch = shlex.join([sys.executable, str(EXAMPLE / "engine.py")])
    report = run_api(chosen, launch=launch, known=known, known_scope=loaded)
    assert report.describe.name == "blackjack21"
    assert list(report.describe.profile_ids) == ["blackjack21"]
    results = by_id(report.results)
    assert len(results) == 20
    resplit = results.pop("blackjack21-0129")
    assert resplit.outcome is VectorOutcome.EXPECTED_FAIL
    assert resplit.clause == "BJ.deal-order"
    assert "re-split" in (resplit.known_failure or "")
    assert {r.vector_id: r.outcome for r in results.values()} == dict.fromkeys(
        results, VectorOutcome.PASS
    )
    # The file's other entries are vectors past 130: the run's scope, not stale patterns.
    assert [k.pattern for k in report.unmatched_patterns] == [
        k.pattern for k in known if int(k.pattern.rsplit("-", 1)[1]) >= 130
    ]
