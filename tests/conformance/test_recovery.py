"""Recovery vectors (CONTRACT.recovery): their shape, the oracle's answers, and the runner's
restarts of a launched engine.

Restarts are slow (a process start each): the demo engine plays every recovery vector once,
two restarts in all (one per kind, for every vector at once); one recovery mutant meets the
blackjack-a ones. ``make mutants`` plays every recovery mutant against all of them.
"""

from __future__ import annotations

import asyncio
import shlex
import sys
from collections import Counter
from pathlib import Path

import pytest

from croupier.clients import adapter
from croupier.clients.demo_engine import DemoEngine
from croupier.conformance.recovery import RECOVERY_DIR, recovery_vectors
from croupier.conformance.runner import RunConfig, VectorOutcome, run
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import (
    CORPUS_DIR,
    LoadedVector,
    load_corpus,
    replay,
    restart_points,
    structure_problem,
)
from croupier.conformance.zoo import launch_command
from croupier.oracle.profile import SHIPPED_IDS, load_profile_file, shipped_profile
from croupier.v1 import common_pb2
from tests.conformance.support import REPO, certify

EXAMPLES = REPO / "docs" / "examples"


@pytest.fixture(scope="module")
def recovery() -> list[LoadedVector]:
    """The shipped recovery vectors."""
    return load_corpus(RECOVERY_DIR)


def test_every_profile_has_recovery_vectors_of_both_kinds(recovery: list[LoadedVector]) -> None:
    kinds = Counter((v.vector.profile_id, v.vector.restart) for v in recovery)
    for profile_id in SHIPPED_IDS:
        for kind in (vector_pb2.RESTART_KILL, vector_pb2.RESTART_TERM):
            assert kinds[profile_id, kind] >= 3, (profile_id, kind)
    for loaded in recovery:
        vector = loaded.vector
        assert "CONTRACT.recovery" in vector.clauses
        assert restart_points(vector) >= 1, vector.id
        assert vector.since, vector.id


def test_blackjack_is_restarted_before_every_decision_and_its_settle(
    recovery: list[LoadedVector],
) -> None:
    kills = [v.vector for v in recovery if v.vector.id.startswith("bja-r-k")]
    decisions = len(kills[0].rounds[0].steps)
    assert decisions >= 3
    before = {n for v in kills for n, step in enumerate(v.rounds[0].steps) if step.restart_before}
    assert before == set(range(decisions))
    assert any(v.rounds[0].restart_before_settle for v in kills)
    # After the restart a second Settle is still refused (never paid twice), a used id too.
    late = [v for v in kills if v.rounds[0].after_settle[0].restart_before]
    assert late[0].rounds[0].after_settle[0].expected_error == "ROUND_NOT_FOUND"
    reused = [v for v in kills if v.rounds[1].restart_before_deal]
    assert reused[0].rounds[1].expected_error == "ROUND_EXISTS"


def test_roulette_restarts_between_spins_of_one_table(recovery: list[LoadedVector]) -> None:
    between = [
        v.vector
        for v in recovery
        if v.vector.profile_id == "roulette-c" and v.vector.rounds[2].restart_before_deal
    ]
    assert between
    board = between[0].rounds[2].expected_state.roulette.history
    # The board after the third spin holds the two before it: they must survive the restart.
    assert list(board[:2]) == [r.deal.spin.pocket for r in between[0].rounds[:2]]
    assert board[1] == "0"


def test_the_oracle_reproduces_every_recovery_vector(recovery: list[LoadedVector]) -> None:
    for loaded in recovery:
        vector = loaded.vector
        rebuilt = replay(vector, shipped_profile(vector.profile_id))
        assert rebuilt.rounds == vector.rounds, vector.id


def test_a_restart_point_needs_a_restart_kind_and_a_kind_a_point(
    recovery: list[LoadedVector],
) -> None:
    vector = vector_pb2.Vector()
    vector.CopyFrom(recovery[0].vector)
    assert structure_problem(vector) == ""
    vector.ClearField("restart")
    assert "no restart kind" in structure_problem(vector)
    vector.CopyFrom(recovery[0].vector)
    for vround in vector.rounds:
        vround.restart_before_deal = vround.restart_before_settle = False
        for step in (*vround.steps, *vround.after_settle):
            step.restart_before = False
    assert structure_problem(vector) == "a restart kind, but no restart point"


def _demo(state: Path) -> str:
    # No grace on SIGTERM: the vectors wait at the restart, no call is in flight.
    words = ["-m", "croupier.clients.demo_engine", "--lab-tables", "--state-dir", str(state)]
    return shlex.join([sys.executable, *words, "--grace", "0"])


@pytest.fixture(scope="module")
def en_prison() -> list[LoadedVector]:
    """The recovery vectors of the lab's French roulette, en prison (VAR.rou.en-prison)."""
    profile = load_profile_file(EXAMPLES / "french-roulette.toml")
    built = recovery_vectors(profile, "fr-r")
    return [LoadedVector(vector=v, path=EXAMPLES, line=n) for n, v in enumerate(built, 1)]


def test_en_prison_bets_are_imprisoned_before_a_restart_and_released_after(
    en_prison: list[LoadedVector],
) -> None:
    between = next(v.vector for v in en_prison if v.vector.rounds[2].restart_before_deal)
    zero, after = between.rounds[1], between.rounds[2]
    assert zero.deal.spin.pocket == "0"
    assert [p.seat for p in zero.expected_settle.state.roulette.prison] == [0]
    released = [line for line in after.expected_settle.settlement.lines if line.prison]
    assert [line.prison for line in released][:1] == [common_pb2.PRISON_STATUS_RELEASED]


def test_the_demo_engine_recovers_at_every_point(
    tmp_path: Path, recovery: list[LoadedVector], en_prison: list[LoadedVector]
) -> None:
    every = [*recovery, *en_prison]
    report = asyncio.run(run(RunConfig(vectors=(), recovery_vectors=every, launch=_demo(tmp_path))))
    assert report.describe.recovery
    outcomes = Counter(r.outcome for r in report.results)
    assert outcomes == {VectorOutcome.PASS: len(every)}, [
        (r.vector_id, r.step, r.message) for r in report.results if r.outcome.value != "PASS"
    ]
    # Restarts a run plans are not crashes it recovered from.
    assert report.restarts == 0


def test_a_recovery_mutant_fails_with_contract_recovery(
    tmp_path: Path, recovery: list[LoadedVector]
) -> None:
    # The SIGKILL ones of blackjack-a: one restart.
    bja = [v for v in recovery if v.vector.id.startswith("bja-r-k")]
    command = launch_command("recovery-forgets-open-rounds", str(tmp_path))
    report = asyncio.run(run(RunConfig(vectors=(), recovery_vectors=bja, launch=command)))
    failed = [r for r in report.results if r.outcome is VectorOutcome.FAIL]
    # Every vector with a round open at its restart fails; those restarted after the Settle
    # (a second Settle, an id reused) pass: the mutant keeps used ids.
    assert len(failed) == len(bja) - 2
    assert {r.clause for r in failed} == {"CONTRACT.recovery"}
    first = min(failed, key=lambda r: r.vector_id)
    assert first.message.startswith("after a restart, the engine refused a valid request")
    assert "ROUND_NOT_FOUND" in first.actual


def test_recovery_vectors_are_not_played_unless_claimed_or_asked(
    recovery: list[LoadedVector], reference: str
) -> None:
    # croupier serve claims no recovery: the recovery vectors are not even results.
    report = asyncio.run(
        run(RunConfig(vectors=(), recovery_vectors=recovery[:2], target=reference))
    )
    assert report.results == ()
    # Asked for, against an engine the runner did not launch: not applicable.
    asked = asyncio.run(
        run(RunConfig(vectors=(), recovery_vectors=recovery[:2], target=reference, recovery=True))
    )
    assert {r.outcome for r in asked.results} == {VectorOutcome.NOT_APPLICABLE}
    assert "give --launch" in asked.results[0].message


def test_an_engine_claiming_recovery_reached_by_target_is_a_partial_run(
    tmp_path: Path, recovery: list[LoadedVector]
) -> None:
    served = adapter.serve(DemoEngine(), port=0, state_dir=tmp_path)
    try:
        bja = [v for v in load_corpus(CORPUS_DIR) if v.vector.id == "bja-h001"]
        config = RunConfig(
            vectors=bja,
            corpus=bja,
            recovery_vectors=recovery[:2],
            recovery_corpus=recovery[:2],
            target=f"127.0.0.1:{served.port}",
        )
        report = asyncio.run(run(config))
    finally:
        served.stop(grace=0)
    assert report.describe.recovery
    assert [r.outcome for r in report.results] == [
        VectorOutcome.PASS,
        VectorOutcome.NOT_APPLICABLE,
        VectorOutcome.NOT_APPLICABLE,
    ]
    assert report.passed
    assert not report.whole
    assert not report.conformant


def test_certify_recovery_wants_a_launched_engine(reference: str) -> None:
    result = certify("--target", reference, "--recovery")
    assert result.exit_code == 2
    assert "--recovery restarts the engine: give --launch" in result.output
