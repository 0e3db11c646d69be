"""The blackjack21 example (examples/blackjack/): a PyPI engine certified on part of its lab corpus.

``make examples`` certifies all three examples on their whole corpora and explores them; this
runs the blackjack wrapper, launched as a vendor would, on 22 vectors of its lab corpus: the
first ten campaign rounds (deals, hits, doubles, surrenders, splits, payouts through the
lab's pay table), ten around blackjack21-0129 and t014, re-splits that the engine numbers
otherwise than the contract, and r001, a stake over the balance that it deals (known
failures its file lists, with their reasons).
"""

from __future__ import annotations

import shlex
import sys
from functools import cache
from pathlib import Path

from conformance import labcorpus
from conformance.explore.search import ExploreConfig, explore
from conformance.known import ExploreWaivers, read_known_failures
from conformance.results import VectorOutcome
from conformance.vectors import LoadedVector
from oracle.profile import load_profile_file
from tests.conformance.support import by_id, run_api

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "blackjack"
PROFILE = load_profile_file(EXAMPLE / "profile.toml")


@cache
def _lab_vectors() -> list[LoadedVector]:
    """The profile's lab corpus with 130 campaign rounds (``build_lab``; the whole has 1,000)."""
    vectors = labcorpus.build_lab(PROFILE, rounds=130).vectors
    return [LoadedVector(vector=v, path=EXAMPLE / "lab", line=i) for i, v in enumerate(vectors)]


def test_blackjack21_passes_but_for_its_known_resplit_difference() -> None:
    loaded = {v.vector.id: v for v in _lab_vectors()}
    ids = [f"blackjack21-{n:04d}" for n in (*range(10), *range(120, 130))]
    chosen = [loaded[i] for i in (*ids, "blackjack21-t014", "blackjack21-r001")]
    known = read_known_failures(EXAMPLE / "known-failures.txt")
    launch = shlex.join([sys.executable, str(EXAMPLE / "engine.py")])
    report = run_api(chosen, launch=launch, known=known, known_scope=list(loaded.values()))
    assert report.describe.name == "blackjack21"
    assert list(report.describe.profile_ids) == ["blackjack21"]
    results = by_id(report.results)
    assert len(results) == 22
    for resplit in ("blackjack21-0129", "blackjack21-t014"):
        failed = results.pop(resplit)
        assert failed.outcome is VectorOutcome.EXPECTED_FAIL
        assert failed.clause == "BJ.deal-order"
        assert "re-split" in (failed.known_failure or "")
    broke = results.pop("blackjack21-r001")  # a stake over the balance, dealt
    assert (broke.outcome, broke.clause) == (VectorOutcome.EXPECTED_FAIL, "BJ.funds")
    assert {r.vector_id: r.outcome for r in results.values()} == dict.fromkeys(
        results, VectorOutcome.PASS
    )


def test_explore_waives_what_the_known_failures_classify_on_the_lab_profile() -> None:
    # Explore plays the listed lab vectors first and waives a drawn round that fails as one
    # of them does (clause, outcome, field path): a shoe with a card too many, a stake over
    # the balance, both dealt.
    known = read_known_failures(EXAMPLE / "known-failures.txt")
    waive = ExploreWaivers.of(known, [v.vector for v in _lab_vectors()])
    launch = shlex.join([sys.executable, str(EXAMPLE / "engine.py")])
    report = explore(ExploreConfig(profiles=[PROFILE], launch=launch, rounds=80, waive=waive))
    assert report.findings == ()
    learned = report.waive
    assert learned.passed == ()  # every listed vector of this corpus fails
    # How each fails, not every clause it tests (a re-split campaign round tests dozens).
    assert {(clause, path) for _profile, (clause, _outcome, path) in learned.failures} == {
        ("BJ.deal", "error.reason"),  # h103, t002: SHOE_NOT_IN_PROFILE
        ("BJ.funds", "error.reason"),  # r001
        ("TABLE.limits", "error.reason"),  # t030
        ("VAR.bj.double-for-less", "error.reason"),  # t010
        ("BJ.deal-order", "state.blackjack.seats[].hands[].cards[]"),  # the re-splits
    }
    waived = {w.clause: w.pattern for w in report.waived}
    # Explore aims at every coverage cell, so 80 rounds reach re-splits and the table's
    # limits as well as the shoe and funds faults; each is waived by the vector it fails as.
    assert waived == {
        "BJ.deal": "blackjack21-h103",
        "BJ.funds": "blackjack21-r001",
        "BJ.deal-order": "blackjack21-t014",
        "TABLE.limits": "blackjack21-t030",
    }
