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

from croupier.conformance import labcorpus
from croupier.conformance.explore.search import ExploreConfig, explore
from croupier.conformance.known import ExploreWaivers, read_known_failures
from croupier.conformance.results import VectorOutcome
from croupier.conformance.vectors import LoadedVector
from croupier.oracle.profile import load_profile_file
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


#: Every kind of failure blackjack21 has under its lab profile, as the known-failures file
#: classifies it: the clause a round fails on, the field it fails at, and the listed vector
#: that stands for the kind (the first, in corpus order, that the file lists and that fails
#: so). Each follows from what the engine does (examples/blackjack/README.md) and the rule it
#: breaks (docs/RULES.md, the contract's error reasons); none is read off a run.
KNOWN_KINDS = {
    # The contract's shoe check (engine_service.proto, BJ.deal): no card may come more often
    # than the profile's six decks hold, else SHOE_NOT_IN_PROFILE. A CardSource is any object
    # with draw_card and counts no card, so such a shoe is dealt (h103; t002 alike).
    ("BJ.deal", "error.reason"): "blackjack21-h103",
    # A seat's stakes must not exceed its balance (round.proto Seat, BJ.funds), else
    # INSUFFICIENT_BALANCE. Table takes (name, bet) and holds no balance, so it deals (r001).
    ("BJ.funds", "error.reason"): "blackjack21-r001",
    # TABLE.limits: a stake above the maximum is refused with BET_OUT_OF_LIMITS.
    # validate_player refuses only a bet of 0 or less, so it deals (t030).
    ("TABLE.limits", "error.reason"): "blackjack21-t030",
    # VAR.bj.double-for-less is off: a double for less than the stake is refused. double_down
    # takes no amount, so the wrapper doubles in full (t010).
    ("VAR.bj.double-for-less", "error.reason"): "blackjack21-t010",
    # VAR.bj.resplit and BJ.deal-order number a re-split's hands in the order made;
    # Player.insert_hand_after puts the new hand right after the hand split, so a seat's hands
    # show their cards in another order (t014, the first of the eight re-splits listed).
    ("BJ.deal-order", "state.blackjack.seats[].hands[].cards[]"): "blackjack21-t014",
}


def test_explore_waives_what_the_known_failures_classify_on_the_lab_profile() -> None:
    # Explore plays the listed lab vectors first and waives a drawn round that fails as one
    # of them does (clause, outcome, field path).
    known = read_known_failures(EXAMPLE / "known-failures.txt")
    waive = ExploreWaivers.of(known, [v.vector for v in _lab_vectors()])
    launch = shlex.join([sys.executable, str(EXAMPLE / "engine.py")])
    report = explore(ExploreConfig(profiles=[PROFILE], launch=launch, rounds=80, waive=waive))
    # A drawn round that fails in a way no listed vector does is a finding: a new kind fails.
    assert report.findings == ()
    learned = report.waive
    assert learned.passed == ()  # every listed vector of this corpus fails
    # How each listed vector fails, not every clause it tests (a re-split campaign round tests
    # dozens): exactly the documented kinds, each learned from its own vector.
    assert {
        (clause, path): entry.pattern
        for (_profile, (clause, _outcome, path)), entry in learned.failures.items()
    } == KNOWN_KINDS
    # What explore's 80 rounds reach depends on its draws; whatever it reached is waived only
    # as a documented kind, by the vector that stands for it.
    by_clause = {clause: pattern for (clause, _path), pattern in KNOWN_KINDS.items()}
    waived = {w.clause: w.pattern for w in report.waived}
    assert waived
    assert waived.items() <= by_clause.items(), waived
