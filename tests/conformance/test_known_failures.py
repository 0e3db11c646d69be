"""A known-failures file, read the same way by certify and explore (``conformance/known.py``).

Vector patterns list vectors; clause entries (``clause:ID``, ``clause:ID@PATH``) name the
clause, and the field path, of a mismatch a lab has classified. Explore waives what a listed
vector fails with on the engine, not every clause it tests.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from croupier.conformance.known import (
    ExploreWaivers,
    apply_known,
    read_known_failures,
    unmatched,
)
from croupier.conformance.results import ConfigError, KnownFailure, Result, VectorOutcome
from croupier.conformance.v1 import vector_pb2

FAIL, PASS = VectorOutcome.FAIL, VectorOutcome.PASS


def _known(tmp_path: Path, text: str) -> tuple[KnownFailure, ...]:
    path = tmp_path / "known.txt"
    path.write_text(text, encoding="utf-8")
    return read_known_failures(path)


def _vector(vector_id: str, *clauses: str, profile: str = "lab") -> vector_pb2.Vector:
    return vector_pb2.Vector(
        id=vector_id, name=f"{profile}/{vector_id}", profile_id=profile, clauses=clauses
    )


def _result(
    outcome: VectorOutcome, clause: str = "", path: str = "", vector_id: str = "x-1"
) -> Result:
    return Result(
        vector_id=vector_id,
        name=vector_id,
        profile_id="lab",
        level="LEVEL_REQUIRED",
        outcome=outcome,
        clause=clause,
        path=path,
    )


def test_a_clause_entry_names_a_clause_and_maybe_a_path(tmp_path: Path) -> None:
    known = _known(
        tmp_path,
        "# a lab's file\n"
        "lab-t014  # a vector\n"
        "clause:TABLE.limits  # no table limits\n"
        "clause:BJ.deal-order@state.blackjack.seats[2].hands[1]  # a re-split's hand order\n",
    )
    vector, limits, order = known
    assert (vector.pattern, vector.clause, vector.path) == ("lab-t014", "", "")
    assert (limits.clause, limits.path, limits.line) == ("TABLE.limits", "", 3)
    assert limits.pattern == "clause:TABLE.limits"
    # Indexes are left out: any seat, any hand.
    assert (order.clause, order.path) == ("BJ.deal-order", "state.blackjack.seats[].hands[]")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("clause:BJ.nope  # typo", "'BJ.nope' is not a RULES.md clause or a contract label"),
        ("clause:  # nothing", "'' is not a RULES.md clause or a contract label"),
        ("clause:BJ.funds@  # no path", "a field path after '@'"),
        ("clause:BJ.funds", "a known failure needs a reason after '#'"),
    ],
)
def test_a_bad_clause_entry_is_a_usage_error(tmp_path: Path, line: str, message: str) -> None:
    with pytest.raises(ConfigError, match=r"known.txt:1: ") as raised:
        _known(tmp_path, line + "\n")
    assert message in str(raised.value)


def test_certify_waives_a_failure_on_the_entry_s_clause_under_its_path(tmp_path: Path) -> None:
    known = _known(
        tmp_path,
        "clause:TABLE.limits@error  # no table limits\n"
        "clause:BJ.deal-order@state.blackjack.seats[0].hands  # re-split order\n",
    )
    vector = _vector("lab-h001", "TABLE.limits", "BJ.deal-order")
    waived = apply_known(_result(FAIL, "TABLE.limits", "error.reason"), vector, known)
    assert (waived.outcome, waived.known_failure) == (
        VectorOutcome.EXPECTED_FAIL,
        "no table limits",
    )
    # Any index; a field under the path, at a field boundary only.
    order = apply_known(
        _result(FAIL, "BJ.deal-order", "state.blackjack.seats[1].hands[2].cards[0]"), vector, known
    )
    assert order.outcome is VectorOutcome.EXPECTED_FAIL
    for clause, path in (
        ("TABLE.limits", "settle.seats[0].net"),  # another path
        ("BJ.funds", "error.reason"),  # another clause
        ("BJ.deal-order", "state.blackjack.seats[0].handsome"),  # not a field under it
    ):
        result = _result(FAIL, clause, path)
        assert apply_known(result, vector, known) == result, (clause, path)
    # It names no vector: a pass stays a pass, and it is never stale.
    passed = _result(PASS)
    assert apply_known(passed, vector, known) == passed
    assert unmatched(known, [vector]) == ()


def test_a_vector_pattern_still_lists_vectors_and_goes_stale(tmp_path: Path) -> None:
    known = _known(tmp_path, "lab-h00*  # the house pays 1:1\nclause:BJ.funds  # no money\n")
    listed, other = _vector("lab-h001"), _vector("lab-t001")
    assert apply_known(_result(PASS), listed, known).outcome is VectorOutcome.UNEXPECTED_PASS
    assert apply_known(_result(FAIL, "BJ.nat-pays"), listed, known).outcome is (
        VectorOutcome.EXPECTED_FAIL
    )
    assert apply_known(_result(FAIL, "BJ.nat-pays"), other, known).outcome is FAIL
    assert unmatched(known, [other]) == (known[0],)


def test_explore_waives_how_a_listed_vector_fails_not_every_clause_it_tests(
    tmp_path: Path,
) -> None:
    known = _known(
        tmp_path,
        "lab-c001  # a re-split hand is numbered after the split hand\n"
        "lab-c002  # listed, but the engine passes it\n"
        "clause:CONTRACT.request@deal  # two bets of one kind taken\n",
    )
    # A campaign vector tests many clauses; on the engine it fails on one, at one path.
    campaign = _vector("lab-c001", "BJ.compare", "BJ.bust", "BJ.deal-order")
    fixed = _vector("lab-c002", "BJ.compare")
    other_profile = _vector("x-shipped-2", "BJ.compare", profile="shipped")
    waivers = ExploreWaivers.of(known, [campaign, fixed, _vector("lab-c003", "BJ.compare")])
    assert waivers.listed == (campaign, fixed)

    async def judge(vector: vector_pb2.Vector) -> Result:
        if vector.id == "lab-c001":
            return _result(FAIL, "BJ.deal-order", "state.blackjack.seats[0].hands[1].cards[0]")
        return _result(PASS)

    learned = asyncio.run(waivers.learn(judge, {"lab"}))
    assert learned.passed == (fixed,)
    drawn = _vector("x-lab-000001", "BJ.compare", "BJ.deal-order")
    # The same clause, outcome and path, at other indexes: waived by the listed vector.
    resplit = _result(FAIL, "BJ.deal-order", "state.blackjack.seats[2].hands[3].cards[0]")
    assert learned(drawn, resplit) == known[0]
    # The other clauses the campaign vector tests, another path or outcome: not waived.
    for result in (
        _result(FAIL, "BJ.compare", "settle.seats[0].lines[0].net"),
        _result(FAIL, "BJ.deal-order", "state.blackjack.seats[0].turn"),
        _result(VectorOutcome.ERROR, "BJ.deal-order", "state.blackjack.seats[0].hands[1].cards[0]"),
    ):
        assert learned(drawn, result) is None, result
    # Only in the listed vector's profile; the clause entry in any vector.
    assert learned(_vector("x-shipped-1", profile="shipped"), resplit) is None
    assert learned(other_profile, _result(FAIL, "CONTRACT.request", "deal.seats[1]")) == known[2]
    # A profile not explored: its listed vectors are not played.
    assert asyncio.run(waivers.learn(judge, {"shipped"})).failures == {}
