"""The pytest plugin's verdict from the vectors' results and each engine's facts (no engine).

Under xdist the controller has only the results its workers' reports carry and the facts each
worker sends when it finishes: what the corpus holds for the claimed profiles decides "whole".
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from croupier.conformance.pytest_verdict import (
    FACTS,
    ControllerPlugin,
    EngineFacts,
    Verdict,
    result_fields,
    result_of,
)
from croupier.conformance.results import KnownFailure, Result, VectorOutcome
from croupier.v1 import engine_service_pb2

pytest_plugins = ["pytester"]

CLAIMS = engine_service_pb2.DescribeResponse(name="engine", profile_ids=["roulette-c"])


class _Given(Verdict):
    """A verdict over facts given by the test."""

    def __init__(self, facts: list[EngineFacts], known: tuple[KnownFailure, ...] = ()) -> None:
        super().__init__(known)
        self.given = facts

    def facts(self) -> list[EngineFacts]:
        return self.given


def _result(vector_id: str, profile_id: str, outcome: VectorOutcome) -> Result:
    return Result(
        vector_id=vector_id,
        name=f"{profile_id}/{vector_id}",
        profile_id=profile_id,
        level="LEVEL_REQUIRED",
        outcome=outcome,
    )


def _facts(corpus: int | None, *, restarts: int = 0, stale: tuple[int, ...] = ()) -> EngineFacts:
    described = CLAIMS if corpus is not None else engine_service_pb2.DescribeResponse()
    return EngineFacts(described=described, restarts=restarts, corpus=corpus, stale=stale)


def test_whole_only_once_every_vector_of_the_claimed_profiles_has_a_result() -> None:
    """Two roulette-c vectors in the corpus: one played is a part, both are the whole."""
    verdict = _Given([_facts(None), _facts(2, restarts=1), _facts(2, restarts=2)])
    verdict.results = [
        _result("rou-1", "roulette-c", VectorOutcome.PASS),
        # A vector of a profile the engine does not claim counts for nothing.
        _result("bja-1", "blackjack-a", VectorOutcome.NOT_APPLICABLE),
    ]
    part = verdict.report()
    assert part is not None
    assert not part.whole
    assert not part.conformant
    assert part.corpus == 2
    # The facts of the worker that described its engine; the restarts of every worker.
    assert part.describe == CLAIMS
    assert part.restarts == 3
    verdict.results.append(_result("rou-2", "roulette-c", VectorOutcome.PASS))
    whole = verdict.report()
    assert whole is not None
    assert whole.whole
    assert whole.conformant


def test_no_result_no_report_and_no_started_engine_no_whole() -> None:
    verdict = _Given([_facts(None)])
    assert verdict.report() is None
    verdict.results = [_result("rou-1", "roulette-c", VectorOutcome.PASS)]
    report = verdict.report()
    assert report is not None
    assert not report.whole
    assert report.corpus == 0


def test_an_engine_that_claims_recovery_is_never_whole_here() -> None:
    """The plugin plays no recovery vector: certify --launch gives that verdict."""
    described = engine_service_pb2.DescribeResponse()
    described.CopyFrom(CLAIMS)
    described.recovery = True
    verdict = _Given([EngineFacts(described=described, restarts=0, corpus=1, stale=())])
    verdict.results = [_result("rou-1", "roulette-c", VectorOutcome.PASS)]
    report = verdict.report()
    assert report is not None
    assert not report.whole


def test_stale_entries_are_the_known_failures_a_worker_names() -> None:
    known = (
        KnownFailure(pattern="bja-h001", reason="listed", line=1),
        KnownFailure(pattern="zzz-*", reason="gone", line=2),
    )
    assert _Given([_facts(2, stale=(1,))], known).stale() == (known[1],)
    # No worker finished: nothing is known to be stale.
    assert _Given([], known).stale() == ()


def test_results_and_facts_survive_the_plain_data_a_worker_sends() -> None:
    result = Result(
        vector_id="bja-h001",
        name="blackjack-a/natural",
        profile_id="blackjack-a",
        level="LEVEL_REQUIRED",
        outcome=VectorOutcome.FAIL,
        clause="BJ.nat-pays",
        path="settlement.lines[0].returned.minor_units",
        expected="250",
        actual="220",
        clauses=("BJ.nat-pays", "BJ.natural"),
        hand_written=True,
    )
    assert result_of(result_fields(result)) == result
    facts = _facts(7, restarts=1, stale=(0, 2))
    assert EngineFacts.of(facts.plain()) == facts


def test_the_controller_keeps_the_facts_of_each_finished_worker(
    pytester: pytest.Pytester,
) -> None:
    config = pytester.parseconfig("--croupier-target", "127.0.0.1:1")
    controller = ControllerPlugin(config)
    for name, corpus in (("gw1", 3), ("gw0", None)):
        output = {FACTS: [_facts(corpus).plain()]}
        controller.pytest_testnodedown(
            SimpleNamespace(workeroutput=output, gateway=SimpleNamespace(id=name))
        )
    # A worker that crashed sends no workeroutput.
    controller.pytest_testnodedown(SimpleNamespace(gateway=SimpleNamespace(id="gw2")))
    assert controller.facts() == [_facts(None), _facts(3)]
