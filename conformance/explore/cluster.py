"""Exploration spread over a Dask cluster: chunks of each profile's rounds, on the workers.

``explore_on_dask`` cuts each profile's budget into chunks of ``DaskOptions.chunk_rounds``
rounds and runs them on the cluster's workers (``conformance.scheduler``: a running
scheduler, or ``local:N``). Each worker process keeps one engine for the run: it launches its
own (``--launch``), or reaches the target the chunk is given (chunk ``k`` of the ``p``-th
profile explored plays on target ``(p + k) mod N`` of the ``--target`` list).

Each chunk is a search of its own (``search.search_profile``): seeded from the seed, the
profile and the chunk's number, steered by the coverage it reached itself, never by what other
chunks reached or when they ended; chunk 0 of a profile draws what explore without Dask draws
first. So the same seed, budget and chunk size give the same rounds and findings whatever the
number of workers, and a chunk run again (its worker was lost mid-run: Dask gives it to
another) gives what it gave the first time. A mismatch is shrunk by the worker that found it.

The chunks are merged in their order, per profile: rounds counted on from the chunks before
(a finding's ``found_after`` too), coverage added, findings deduplicated by signature (clause,
outcome, path), the first ``max_findings`` kept. A profile is done at the first chunk after
which it holds ``max_findings`` findings (or, with ``until_covered``, every cell): the chunks
after it are dropped, even those that ran.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib
import secrets
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from croupier.conformance.engine import EngineUnavailableError
from croupier.conformance.explore.coverage import CellCoverage
from croupier.conformance.explore.search import (
    Coverage,
    ExploreConfig,
    ExploreReport,
    Finding,
    Live,
    ProfileExploration,
    Stop,
    Waived,
    chosen_profiles,
    connect,
    search_profile,
)
from croupier.conformance.known import ExploreWaivers
from croupier.conformance.results import signature
from croupier.conformance.scheduler import SchedulerError, dask_client
from croupier.oracle.profile import Profile
from croupier.v1 import engine_service_pb2

#: Rounds per chunk unless ``DaskOptions`` says otherwise (``croupier explore --dask-chunk``).
CHUNK_ROUNDS = 500
#: Chunks in flight per worker thread of the cluster: enough queued that no worker waits
#: for the next (Dask hands them out as threads free up), few enough that a profile done
#: early leaves few to cancel.
IN_FLIGHT = 4
#: Seconds the main process waits for a chunk before it looks at a stop request again.
_POLL = 0.2
#: Seconds a worker is given to stop its engine at the end of a run.
_CLOSE_WAIT = 30.0

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True, kw_only=True)
class DaskOptions:
    """Where and how explore's chunks run."""

    #: A Dask scheduler's address, or ``local:N`` (``conformance.scheduler``).
    address: str
    #: Rounds per chunk: with the seed and the budget, what decides the rounds drawn.
    chunk_rounds: int = CHUNK_ROUNDS
    #: Running engines the workers reach, in turn (``--target`` given several times); empty:
    #: the config's own ``target`` or ``launch``.
    targets: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Chunk:
    """One chunk of a profile's search: what a worker is given."""

    token: str
    config: ExploreConfig
    profile: Profile
    partners: tuple[Profile, ...]
    index: int
    rounds: int
    #: The run's time budget as a wall-clock time (``time.time``); None: no limit.
    deadline: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ChunkResult:
    """What a chunk's search covered and found; the engine restarts it saw."""

    profile_id: str
    index: int
    exploration: ProfileExploration
    restarts: int = 0
    stopped: bool = False


def chunk_config(config: ExploreConfig, index: int) -> ExploreConfig:
    """The config chunk ``index`` searches under: its own seed and vector ids.

    Chunk 0 keeps the run's seed and ids: it draws what explore without Dask draws first.
    """
    if index == 0:
        return config
    return dataclasses.replace(
        config, seed=f"{config.seed}/chunk-{index}", id_prefix=f"{config.id_prefix}.{index}"
    )


def chunk_rounds(budget: int, size: int, index: int) -> int:
    """The rounds chunk ``index`` of a profile plays: ``size``, or what the budget leaves."""
    return max(0, min(size, budget - index * size))


# --- on the workers ----------------------------------------------------------------------


class _Station:
    """This worker process's side of a run: one thread, its event loop, the engines it reached.

    Every chunk of the process runs in the one thread (Hypothesis runs one test at a time,
    and a launched engine is tied to the thread that started it), one after another; a new
    run's token closes the engines of the run before.
    """

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="croupier-explore")
        self.runner: asyncio.Runner | None = None
        self.token = ""
        self.stop = Stop()
        self.engines: dict[tuple[str | None, str | None], tuple[Live, Any]] = {}

    def call(self, token: str, work: Callable[[_Station], _T]) -> _T:
        """Run ``work`` in the station's thread for the run ``token``; its result."""
        return self.pool.submit(self._within, token, work).result()

    def _within(self, token: str, work: Callable[[_Station], _T]) -> _T:
        if token != self.token:
            self.close_engines()
            self.token, self.stop = token, Stop()
        return work(self)

    def loop(self) -> asyncio.Runner:
        if self.runner is None:
            self.runner = asyncio.Runner()
        return self.runner

    def engine(self, config: ExploreConfig) -> tuple[Live, engine_service_pb2.DescribeResponse]:
        """The engine ``config`` names, reached (or launched) once per run."""
        key = (config.target, config.launch)
        if key not in self.engines:
            self.engines[key] = self.loop().run(connect(config))
        live, info = self.engines[key]
        return live, info

    def drop(self, config: ExploreConfig) -> None:
        """Forget an engine that went away (closed): the next chunk reaches it again."""
        live, _ = self.engines.pop((config.target, config.launch))
        with contextlib.suppress(Exception):
            self.loop().run(live.close())

    def close_engines(self) -> None:
        """Close every channel and stop every engine this station launched."""
        engines, self.engines = self.engines, {}
        for live, _ in engines.values():
            with contextlib.suppress(Exception):
                self.loop().run(live.close())

    def end(self, token: str) -> None:
        """End the run ``token`` here: its chunk in flight stops, then its engines do."""
        if self.token == token:
            self.stop.request(signal.SIGTERM)  # the chunk in flight, if any, ends now
        future = self.pool.submit(self._within, token, _Station.close_engines)
        with contextlib.suppress(Exception):
            future.result(_CLOSE_WAIT)


_STATION: _Station | None = None
_STATION_LOCK = threading.Lock()


def _station() -> _Station:
    global _STATION  # noqa: PLW0603 - one station per worker process, made on first use
    with _STATION_LOCK:
        if _STATION is None:
            _STATION = _Station()
        return _STATION


def describe_engine(
    token: str, config: ExploreConfig
) -> tuple[engine_service_pb2.DescribeResponse, ExploreWaivers]:
    """On a worker: reach the engine, ask what it claims, learn the known failures on it."""

    def work(station: _Station) -> tuple[engine_service_pb2.DescribeResponse, ExploreWaivers]:
        live, info = station.engine(config)
        waive = config.waive
        if waive.listed:
            waive = station.loop().run(waive.learn(live.judge, set(info.profile_ids)))
        return info, waive

    return _station().call(token, work)


def run_chunk(chunk: Chunk) -> ChunkResult:
    """On a worker: search one chunk of a profile on this worker's engine."""

    def work(station: _Station) -> ChunkResult:
        config = dataclasses.replace(chunk_config(chunk.config, chunk.index), stop=station.stop)
        config = dataclasses.replace(config, rounds=chunk.rounds)
        live, _ = station.engine(config)
        live.config = config
        # Round ids of their own, even for a chunk run again on an engine that saw it run.
        live.ctx.run_prefix = f"explore-{secrets.token_hex(4)}-"
        before = live.engine.restarts if live.engine else 0
        until = None
        if chunk.deadline is not None:
            until = time.monotonic() + (chunk.deadline - time.time())
        try:
            done, stopped = search_profile(
                station.loop(), live, chunk.profile, chunk.partners, until
            )
        except EngineUnavailableError:
            station.drop(config)
            raise
        return ChunkResult(
            profile_id=chunk.profile.id,
            index=chunk.index,
            exploration=done,
            restarts=(live.engine.restarts if live.engine else 0) - before,
            stopped=stopped,
        )

    return _station().call(chunk.token, work)


def close_station(token: str) -> None:
    """On each worker at the end of a run: end its chunk in flight, stop its engines."""
    if _STATION is not None:
        _STATION.end(token)


# --- in the main process -----------------------------------------------------------------


@dataclass(slots=True)
class MergedProfile:
    """A profile's chunks merged in their order, as far as they have come."""

    profile: Profile
    budget: int
    max_findings: int
    until_covered: bool
    cells: CellCoverage
    coverage: Coverage = field(default_factory=Coverage)
    findings: list[Finding] = field(default_factory=list)
    seen: set[tuple[str, str, str]] = field(default_factory=set)
    waived: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    rounds: int = 0
    shrink_rounds: int = 0
    seconds: float = 0.0
    restarts: int = 0
    #: The next chunk to merge; chunks that came before it, by number.
    merged: int = 0
    arrived: dict[int, ChunkResult] = field(default_factory=dict)
    done: bool = False

    def arrive(self, result: ChunkResult) -> bool:
        """Take a chunk's result; merge every chunk now in order. Whether anything merged."""
        if self.done or result.index < self.merged:
            return False
        self.arrived[result.index] = result
        merged = False
        while not self.done and self.merged in self.arrived:
            self._merge(self.arrived.pop(self.merged))
            self.merged += 1
            merged = True
        return merged

    def _merge(self, result: ChunkResult) -> None:
        part = result.exploration
        offset = self.rounds
        self.restarts += result.restarts
        for counter, more in (
            (self.coverage.clauses, part.coverage.clauses),
            (self.coverage.decisions, part.coverage.decisions),
            (self.coverage.bets, part.coverage.bets),
            (self.coverage.refusals, part.coverage.refusals),
        ):
            counter.update(more)
        cells = self.cells
        cells.counts.update(part.cells.counts)
        for cell, first in part.cells.first.items():
            cells.first.setdefault(cell, offset + first)
        if cells.covered_at is None and not cells.unreached:
            cells.covered_at = max(cells.first[cell] for cell in cells.all)
        for finding in part.findings:
            found = signature(finding.result)
            if found in self.seen or len(self.findings) >= self.max_findings:
                continue
            self.seen.add(found)
            self.findings.append(
                dataclasses.replace(finding, found_after=offset + finding.found_after)
            )
        for waived in part.waived:
            key = (waived.pattern, waived.reason, waived.clause)
            self.waived[key] += waived.rounds
        self.rounds += part.rounds
        self.shrink_rounds += part.shrink_rounds
        self.seconds += part.seconds
        self.done = (
            len(self.findings) >= self.max_findings
            or (self.until_covered and not cells.unreached)
            or result.stopped
            # The budget left nothing more to draw (a time budget spent).
            or part.rounds == 0
        )

    def outcome(self) -> ProfileExploration:
        """The profile's search as if one: what ``explore`` reports of it."""
        return ProfileExploration(
            profile_id=self.profile.id,
            rounds=self.rounds,
            seconds=self.seconds,
            coverage=self.coverage,
            cells=self.cells,
            findings=tuple(self.findings),
            waived=tuple(
                Waived(pattern=pattern, reason=reason, clause=clause, rounds=count)
                for (pattern, reason, clause), count in sorted(self.waived.items())
            ),
            shrink_rounds=self.shrink_rounds,
        )


def merged_profile(
    config: ExploreConfig, profile: Profile, partners: Sequence[Profile]
) -> MergedProfile:
    """Nothing merged yet of ``profile``'s chunks under ``config``."""
    return MergedProfile(
        profile=profile,
        budget=config.rounds,
        max_findings=config.max_findings,
        until_covered=config.until_covered,
        cells=CellCoverage.of(profile, partners),
    )


def _worker_config(config: ExploreConfig) -> ExploreConfig:
    """What a worker is sent: no progress callback, no stop of this process."""
    return dataclasses.replace(config, progress=None, stop=None)


class ClusterRun:
    """One exploration on a cluster: describe, then chunks in flight, merged as they come."""

    def __init__(self, client: Any, config: ExploreConfig, options: DaskOptions) -> None:
        self.client = client
        self.config = config
        self.options = options
        self.token = secrets.token_hex(8)
        self.targets: tuple[str | None, ...] = options.targets or (config.target,)
        #: The run's time budget as a wall-clock time, once an engine is up.
        self.deadline: float | None = None

    def on_target(self, config: ExploreConfig, position: int) -> ExploreConfig:
        """``config`` aimed at the target of ``position`` (round robin), or as it is."""
        if config.launch is not None:
            return config
        return dataclasses.replace(config, target=self.targets[position % len(self.targets)])

    def describe(self) -> tuple[engine_service_pb2.DescribeResponse, ExploreWaivers, set[str]]:
        """The first engine's Describe and known failures learned; what every engine claims.

        Every target is asked what it claims; with ``--launch``, every worker the cluster has
        now launches its engine at once (a worker that joins later launches its own for its
        first chunk). The known failures are learned on the first engine alone.
        """
        sent = _worker_config(self.config)
        quiet = dataclasses.replace(sent, waive=ExploreWaivers())
        if self.config.launch:
            asked: list[tuple[ExploreConfig, list[str] | None]] = [
                (sent if place == 0 else quiet, [worker] if worker else None)
                for place, worker in enumerate(sorted(self.client.nthreads()) or [""])
            ]
        else:
            asked = [
                (self.on_target(sent if place == 0 else quiet, place), None)
                for place in range(len(self.targets))
            ]
        answers = [
            self.client.submit(
                describe_engine,
                self.token,
                config,
                key=f"explore-describe-{self.token}-{place}",
                pure=False,
                # On that worker if it is still there; on another if not.
                **({"workers": worker, "allow_other_workers": True} if worker else {}),
            )
            for place, (config, worker) in enumerate(asked)
        ]
        results = [self._result(answer) for answer in answers]
        claimed = set.intersection(*(set(info.profile_ids) for info, _ in results))
        info, waive = results[0]
        return info, waive, claimed

    def _result(self, future: Any) -> Any:
        try:
            return future.result()
        except (EngineUnavailableError, SchedulerError):
            raise
        except Exception as exc:
            # A worker lost too often on one task (Dask's KilledWorker), or the cluster gone.
            raise SchedulerError(f"the Dask cluster failed a task of explore: {exc!r}") from exc

    def workers(self) -> int:
        """The worker threads of the cluster (at least 1: a scheduler may have none yet)."""
        threads: dict[str, int] = self.client.nthreads()
        return max(1, sum(threads.values()))

    def chunks(
        self, merged: Sequence[MergedProfile], partners: Sequence[Profile]
    ) -> Iterator[Chunk]:
        """The chunks to run, each profile's in order, the profiles in turn; none once done."""
        config = _worker_config(self.config)
        size = self.options.chunk_rounds
        index = 0
        while True:
            left = False
            for position, state in enumerate(merged):
                rounds = chunk_rounds(state.budget, size, index)
                if state.done or rounds == 0:
                    continue
                left = True
                yield Chunk(
                    token=self.token,
                    config=self.on_target(config, position + index),
                    profile=state.profile,
                    partners=tuple(partners),
                    index=index,
                    rounds=rounds,
                    deadline=self.deadline,
                )
            if not left:
                return
            index += 1

    def explore(self) -> ExploreReport:
        """Every chosen profile's chunks run on the cluster and merged."""
        started = time.monotonic()
        distributed = importlib.import_module("distributed")
        info, waive, claimed = self.describe()
        self.config = dataclasses.replace(self.config, waive=waive)
        config = self.config
        # The time budget starts once an engine is up, as without Dask.
        self.deadline = None if config.seconds is None else time.time() + config.seconds
        chosen, partners = chosen_profiles(config.profiles, claimed)
        merged = [merged_profile(config, profile, partners) for profile in chosen]
        by_id = {state.profile.id: state for state in merged}
        pending: dict[Any, Chunk] = {}
        plan = self.chunks(merged, partners)
        limit = IN_FLIGHT * self.workers()
        submitted = 0
        interrupted: int | None = None
        try:
            while True:
                while len(pending) < limit and not self.out_of_time():
                    chunk = next(plan, None)
                    if chunk is None:
                        break
                    submitted += 1
                    future = self.client.submit(
                        run_chunk,
                        chunk,
                        key=f"explore-{self.token}-{chunk.profile.id}-{chunk.index}",
                        pure=False,
                        # In plan order: each profile's next chunk to merge comes first.
                        priority=-submitted,
                    )
                    pending[future] = chunk
                if not pending:
                    break
                try:
                    finished = distributed.wait(
                        list(pending), timeout=_POLL, return_when="FIRST_COMPLETED"
                    ).done
                except TimeoutError:
                    finished = set()
                stop = config.stop
                if stop is not None and stop.signum is not None:
                    interrupted = stop.signum
                    break
                for future in finished:
                    chunk = pending.pop(future, None)
                    if chunk is None:
                        continue  # dropped meanwhile: its profile was done before it
                    state = by_id[chunk.profile.id]
                    if state.arrive(self._result(future)) and config.progress is not None:
                        config.progress(state.profile.id, state.rounds)
                    if state.done:
                        # Its later chunks are dropped: cancelled if they have not run.
                        for other, later in list(pending.items()):
                            if later.profile.id == state.profile.id:
                                other.cancel()
                                del pending[other]
        finally:
            for future in pending:
                future.cancel()
        return ExploreReport(
            describe=info,
            profiles=tuple(state.outcome() for state in merged),
            seconds=time.monotonic() - started,
            restarts=sum(state.restarts for state in merged),
            interrupted=interrupted,
            skipped=tuple(p.id for p in config.profiles if p.id not in claimed),
            waive=waive,
        )

    def out_of_time(self) -> bool:
        """Whether the run's time budget is spent (never, without one)."""
        return self.deadline is not None and time.time() >= self.deadline


def explore_on_dask(config: ExploreConfig, options: DaskOptions) -> ExploreReport:
    """``explore`` with each profile's rounds cut into chunks run on a Dask cluster.

    ``EngineUnavailableError`` if an engine cannot be reached or goes; ``SchedulerError`` if
    the cluster cannot be (or fails a chunk: a worker lost too often running it).
    """
    with dask_client(options.address) as client:
        run = ClusterRun(client, config, options)
        try:
            return run.explore()
        finally:
            with contextlib.suppress(Exception):
                client.run(close_station, run.token)
