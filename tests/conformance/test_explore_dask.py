"""``croupier explore --dask``: chunks on a Dask cluster, the same whatever the workers.

On ``LocalCluster``s of threads (started in a tenth of a second; the chunks of one process
run one after another in its one explore thread, in whatever order the workers take them),
against engines started once for the module and reached with ``--target``.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import shlex
import signal
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from croupier.conformance.cli import main
from croupier.conformance.explore import cluster
from croupier.conformance.explore.cluster import (
    Chunk,
    ChunkResult,
    DaskOptions,
    chunk_rounds,
    explore_on_dask,
    run_chunk,
)
from croupier.conformance.explore.coverage import CellCoverage, cells
from croupier.conformance.explore.search import (
    Coverage,
    ExploreConfig,
    ExploreReport,
    ProfileExploration,
    Stop,
    chosen_profiles,
    explore,
)
from croupier.conformance.results import signature
from croupier.conformance.scheduler import SchedulerError, dask_client
from croupier.conformance.vectors import campaign, read_vectors, write_vectors
from croupier.conformance.zoo import launch_command
from croupier.oracle.profile import shipped_profile, shipped_profiles
from tests.conformance.support import Engine, start_engine

distributed = pytest.importorskip("distributed")

#: A mutant that deals the player's card first: every coup of baccarat-b diverges.
MUTANT = "player-dealt-first"
BACCARAT = shipped_profile("baccarat-b")
#: Three chunks of eight rounds.
ROUNDS, CHUNK = 24, 8


@pytest.fixture(scope="module")
def mutant() -> Iterator[Engine]:
    """A running mutant of the zoo that every baccarat-b coup catches."""
    engine = start_engine(shlex.split(launch_command(MUTANT)))
    yield engine
    engine.stop()


def _cluster(workers: int) -> Any:
    return distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=False, dashboard_address=None
    )


@pytest.fixture(scope="module")
def one() -> Iterator[str]:
    """A cluster of one worker."""
    with _cluster(1) as started:
        yield started.scheduler_address


@pytest.fixture(scope="module")
def two() -> Iterator[str]:
    """A cluster of two workers."""
    with _cluster(2) as started:
        yield started.scheduler_address


def _config(target: str, **changes: Any) -> ExploreConfig:
    # Not shrunk (the commands' tests shrink): what is compared is what was drawn and found.
    base = ExploreConfig(
        profiles=[BACCARAT],
        target=target,
        rounds=ROUNDS,
        seed="dask",
        max_findings=2,
        shrink=False,
    )
    return dataclasses.replace(base, **changes)


def _seen(report: ExploreReport) -> list[object]:
    """Everything a report says of its rounds, findings and coverage, but the seconds."""
    return [
        (
            done.profile_id,
            done.rounds,
            done.shrink_rounds,
            sorted(done.coverage.clauses.items()),
            sorted(done.coverage.refusals.items()),
            sorted(done.cells.counts.items()),
            sorted(done.cells.first.items()),
            done.cells.covered_at,
            [
                (f.vector.SerializeToString(), f.found_after, signature(f.result), f.shrunk)
                for f in done.findings
            ],
        )
        for done in report.profiles
    ]


@pytest.fixture(scope="module")
def on_one(mutant: Engine, one: str) -> ExploreReport:
    """The mutant explored in chunks on one worker."""
    return explore_on_dask(_config(mutant.address), DaskOptions(address=one, chunk_rounds=CHUNK))


def test_the_same_seed_gives_the_same_rounds_and_findings_whatever_the_workers(
    mutant: Engine, two: str, on_one: ExploreReport
) -> None:
    on_two = explore_on_dask(_config(mutant.address), DaskOptions(address=two, chunk_rounds=CHUNK))
    assert _seen(on_two) == _seen(on_one)
    (done,) = on_one.profiles
    # Three chunks of 8 coups; each found the mutant: one finding, merged.
    assert done.rounds == ROUNDS
    (finding,) = done.findings
    assert finding.result.clause == "BAC.deal"
    assert finding.found_after <= CHUNK


def test_one_chunk_draws_what_explore_draws_without_dask(mutant: Engine, one: str) -> None:
    config = _config(mutant.address, rounds=12)
    alone = explore(config)
    chunked = explore_on_dask(config, DaskOptions(address=one, chunk_rounds=ROUNDS))
    assert _seen(chunked) == _seen(alone)


def _chunk_results(config: ExploreConfig) -> list[ChunkResult]:
    """Each chunk of baccarat-b run here, in this process, as a worker runs it."""
    _, partners = chosen_profiles(config.profiles, {p.id for p in shipped_profiles()})
    token = f"here-{time.monotonic_ns()}"
    try:
        return [
            run_chunk(
                Chunk(
                    token=token,
                    config=config,
                    profile=BACCARAT,
                    partners=tuple(partners),
                    index=index,
                    rounds=chunk_rounds(ROUNDS, CHUNK, index),
                )
            )
            for index in range(ROUNDS // CHUNK)
        ]
    finally:
        cluster.close_station(token)


def test_chunks_merge_alike_in_whatever_order_they_come(mutant: Engine) -> None:
    config = _config(mutant.address)
    results = _chunk_results(config)
    _, partners = chosen_profiles(config.profiles, {p.id for p in shipped_profiles()})

    def merged(config: ExploreConfig, order: tuple[ChunkResult, ...]) -> ProfileExploration:
        state = cluster.merged_profile(config, BACCARAT, partners)
        for result in order:
            state.arrive(result)
        return state.outcome()

    outcomes = [merged(config, order) for order in itertools.permutations(results)]
    first = outcomes[0]
    assert all(o == first for o in outcomes[1:])
    # Every chunk found the mutant: one finding, chunk 0's, where chunk 0 found it.
    assert [len(r.exploration.findings) for r in results] == [1, 1, 1]
    assert first.findings == results[0].exploration.findings
    # Rounds are counted on from the chunks before: each cell was first reached in the
    # first chunk that reached it, at its round there plus the rounds of the chunks before.
    assert first.rounds == sum(r.exploration.rounds for r in results)
    offsets = list(itertools.accumulate((r.exploration.rounds for r in results), initial=0))
    for cell, at in first.cells.first.items():
        index = next(i for i, r in enumerate(results) if cell in r.exploration.cells.first)
        assert at == offsets[index] + results[index].exploration.cells.first[cell]
    assert first.cells.counts == sum((r.exploration.cells.counts for r in results), Counter())
    # With one finding a profile, chunk 0 ends the search: the chunks after it are dropped,
    # whenever they come.
    one = dataclasses.replace(config, max_findings=1)
    for order in itertools.permutations(results):
        assert merged(one, order).rounds == results[0].exploration.rounds
    # Each chunk seeds its own draws: no two chunks drew the same rounds.
    drawn = [sorted(r.exploration.coverage.clauses.items()) for r in results]
    assert len({json.dumps(d) for d in drawn}) > 1


def test_until_covered_ends_at_the_chunk_that_reached_the_last_cell() -> None:
    profiles = shipped_profiles()
    config = ExploreConfig(profiles=[BACCARAT], target="a:1", rounds=600, until_covered=True)
    every = cells(BACCARAT, profiles)
    half = len(every) // 2

    def chunk(index: int, reached: tuple[str, ...]) -> ChunkResult:
        # Each cell first reached at its own round: the n-th of the list at round n.
        covered = CellCoverage.of(BACCARAT, profiles)
        for at, cell in enumerate(reached, start=1):
            covered.add({cell}, at)
        done = ProfileExploration(
            profile_id=BACCARAT.id, rounds=200, seconds=1.0, coverage=Coverage(), cells=covered
        )
        return ChunkResult(profile_id=BACCARAT.id, index=index, exploration=done)

    # Chunk 0 reaches the first half; chunk 1 the rest (and five cells again); chunk 2 all.
    results = [chunk(0, every[:half]), chunk(1, every[half - 5 :]), chunk(2, every)]
    state = cluster.merged_profile(config, BACCARAT, profiles)
    for result in reversed(results):
        state.arrive(result)
    outcome = state.outcome()
    assert outcome.rounds == 400
    assert outcome.cells.unreached == ()
    # The last cell: the last of chunk 1's list, after chunk 0's 200 rounds.
    assert outcome.cells.covered_at == 200 + len(every) - (half - 5)
    assert outcome.cells.first[every[0]] == 1
    assert outcome.cells.counts[every[half - 1]] == 2


_RUNS: Counter[int] = Counter()


def _losing_run_chunk(chunk: Chunk) -> ChunkResult:
    """``run_chunk``, but the worker that first takes chunk 1 is lost while it runs it."""
    _RUNS[chunk.index] += 1
    if chunk.index == 1 and _RUNS[1] == 1:
        worker = distributed.get_worker()
        worker.loop.add_callback(worker.close, executor_wait=False)
        deadline = time.monotonic() + 30
        while worker.status.name not in ("closed", "closing") and time.monotonic() < deadline:
            time.sleep(0.05)
    return run_chunk(chunk)


def test_a_worker_lost_mid_run_has_its_chunk_run_again(
    mutant: Engine, on_one: ExploreReport, monkeypatch: pytest.MonkeyPatch
) -> None:
    _RUNS.clear()
    monkeypatch.setattr(cluster, "run_chunk", _losing_run_chunk)
    with _cluster(2) as started:
        report = explore_on_dask(
            _config(mutant.address),
            DaskOptions(address=started.scheduler_address, chunk_rounds=CHUNK),
        )
        assert len(started.scheduler.workers) == 1
    assert _RUNS == {0: 1, 1: 2, 2: 1}
    assert _seen(report) == _seen(on_one)


def test_a_time_budget_or_a_stop_ends_the_chunks(mutant: Engine, two: str) -> None:
    options = DaskOptions(address=two, chunk_rounds=CHUNK)
    began = time.monotonic()
    timed = explore_on_dask(_config(mutant.address, rounds=10**9, seconds=1.0), options)
    assert 0 < timed.profiles[0].rounds < 10**9
    assert timed.interrupted is None
    assert time.monotonic() - began < 60
    stop = Stop()
    threading.Timer(0.5, stop.request, (signal.SIGTERM,)).start()
    stopped = explore_on_dask(_config(mutant.address, rounds=10**9, stop=stop), options)
    assert stopped.interrupted == signal.SIGTERM
    assert stopped.profiles[0].rounds < 10**9


def test_the_chunks_take_the_targets_in_turn() -> None:
    profiles = shipped_profiles()[:3]
    config = ExploreConfig(profiles=profiles, target="a:1", rounds=20)
    run = cluster.ClusterRun(
        None, config, DaskOptions(address="local:1", chunk_rounds=10, targets=("a:1", "b:2"))
    )
    merged = [cluster.merged_profile(config, p, profiles) for p in profiles]
    planned = [(c.profile.id, c.index, c.config.target) for c in run.chunks(merged, profiles)]
    # Chunk k of the p-th profile on target (p + k) mod 2: the chunks in flight spread.
    assert planned == [
        (profiles[0].id, 0, "a:1"),
        (profiles[1].id, 0, "b:2"),
        (profiles[2].id, 0, "a:1"),
        (profiles[0].id, 1, "b:2"),
        (profiles[1].id, 1, "a:1"),
        (profiles[2].id, 1, "b:2"),
    ]


# --- the commands --------------------------------------------------------------------------


def test_explore_on_dask_prints_the_same_json_whatever_the_workers(
    mutant: Engine, one: str, two: str, tmp_path: Path
) -> None:
    printed: list[dict[str, Any]] = []
    for address in (one, two):
        out = tmp_path / f"{len(printed)}.jsonl"
        args = ["explore", "--target", mutant.address, "--profile", BACCARAT.id]
        result = CliRunner().invoke(
            main,
            [
                *args,
                *("--rounds", str(2 * CHUNK), "--seed", "cli", "--out", str(out), "--json"),
                *("--dask", address, "--dask-chunk", str(CHUNK)),
            ],
        )
        assert result.exit_code == 1, result.output
        summary = json.loads(result.stdout)
        (finding,) = read_vectors(out)
        assert [f["vector_id"] for f in summary["findings"]] == [finding.vector.id]
        # What names the findings' file, and the time taken, aside.
        del summary["seconds"], summary["out"]
        for each in summary["findings"]:
            assert str(out) in each.pop("reproduce")
        printed.append(summary)
    assert printed[0] == printed[1]
    assert printed[0]["profiles"][0]["rounds"] == 2 * CHUNK


def test_certify_explores_on_dask(mutant: Engine, one: str, tmp_path: Path) -> None:
    corpus = tmp_path / "bac.jsonl"
    write_vectors(corpus, campaign(BACCARAT, "dask-test", 1, "bac-d"))
    found, report = tmp_path / "found.jsonl", tmp_path / "report.jsonl"
    result = CliRunner().invoke(
        main,
        [
            *("certify", "--target", mutant.address, "--vectors", str(corpus), "--explore", "16"),
            *("--dask", one, "--explore-out", str(found), "--report", str(report)),
        ],
    )
    assert result.exit_code == 1, result.output
    lines = [json.loads(ln) for ln in report.read_text().splitlines()]
    (explored,) = [ln for ln in lines if str(ln.get("id", "")).startswith("x")]
    assert explored["clause"] == "BAC.deal"
    (coverage,) = [ln["explore_coverage"] for ln in lines if "explore_coverage" in ln]
    # Certify keeps one finding a profile: its search stops there.
    assert coverage["profile"] == BACCARAT.id
    assert 1 <= coverage["rounds"] <= 16
    assert [v.vector.id for v in read_vectors(found)] == [explored["id"]]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["explore", "--target", "a:1", "--target", "b:2"], "several engines need --dask"),
        (["explore", "--target", "a:1", "--dask-chunk", "9"], "--dask-chunk needs --dask"),
        (["explore", "--target", "a:1", "--dask", "local:0"], "local:N with N workers from 1"),
        (["explore", "--target", "a:1", "--dask", "local:x"], "local:N with N workers from 1"),
        (["certify", "--target", "a:1", "--dask", "local:2"], "give --explore N"),
        (["audit", "verify", "-", "--dask", " "], "scheduler's address"),
    ],
)
def test_dask_options_are_checked(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_a_scheduler_that_does_not_answer_is_named() -> None:
    named = r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:1"
    with pytest.raises(SchedulerError, match=named), dask_client("tcp://127.0.0.1:1", timeout=0.5):
        pass
