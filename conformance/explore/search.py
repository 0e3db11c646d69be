"""Differential exploration: drawn rounds played on the engine, judged like vectors, shrunk.

For each profile the engine claims, Hypothesis draws vectors (``conformance.explore.rounds``)
that the oracle has already answered, and the runner plays each on the engine with the same
comparison, clause map and outcomes as a corpus vector (``conformance.runner.run_vector``).
Each mismatch is shrunk by Hypothesis to the smallest round that still diverges with the
same clause, outcome and path (seat and line indexes aside); that round is a finding, written
out as a vector a lab can add to its corpus. The search then goes on, up to
``max_findings`` distinct findings per profile: a round that diverges the way an earlier
finding did, or the way a known failure waives (``waive``), counts as no mismatch.

Reproducible: the same seed, budget and engine draw the same rounds (the search runs in
chunks, each seeded from the seed, the profile and its index). Bounded: by rounds per
profile, or by a time budget checked before each round, shrinking included: a mismatch
whose shrinking the budget cuts short is a finding as shrunk so far (``Finding.shrunk``).
Hypothesis keeps no example database unless ``database`` names a directory for one.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import secrets
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from croupier.conformance.v1 import vector_pb2
from croupier.v1 import engine_service_pb2, engine_service_pb2_grpc, round_pb2
from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from conformance.engine import (
    EngineProcess,
    EngineUnavailableError,
    TlsOptions,
    describe,
    open_channel,
)
from conformance.explore.rounds import explored_vector
from conformance.known import ExploreWaivers
from conformance.report import plural
from conformance.results import BAD, Result, signature
from conformance.runner import Context, run_vector
from conformance.timeouts import READY_TIMEOUT
from conformance.vectors import LoadedVector
from oracle.profile import Profile

#: Rounds Hypothesis draws per chunk (each chunk has its own seed, from the run's).
CHUNK = 200


@dataclass(frozen=True, slots=True, kw_only=True)
class ExploreConfig:
    """What to explore and for how long."""

    profiles: Sequence[Profile]
    target: str | None = None
    launch: str | None = None
    tls: TlsOptions | None = None
    seed: str = "croupier"
    #: Rounds played per profile before the search stops (shrinking a finding adds more); a
    #: drawn vector holds one round, or several spins at one roulette table.
    rounds: int = 2000
    #: A time budget for the whole run, in seconds, shared by the profiles; None: no limit.
    seconds: float | None = None
    timeout: float = 10.0
    #: How long a launched engine is given to print its ready line, and where its stderr goes.
    ready_timeout: float = READY_TIMEOUT
    engine_log: Path | None = None
    #: Where Hypothesis keeps its example database; None: nowhere.
    database: Path | None = None
    reproduce: Callable[[vector_pb2.Vector], str] = lambda _vector: ""
    #: Called after every round with the profile id and the rounds drawn so far.
    progress: Callable[[str, int], None] | None = None
    #: Set by a signal handler to end the search early (the round in flight is cancelled).
    stop: Stop | None = None
    #: Drawn vectors are named ``{id_prefix}-{profile}-{n}``.
    id_prefix: str = "x"
    #: Distinct findings per profile before its search stops (each one shrunk).
    max_findings: int = 1
    #: The known failures that waive a drawn vector's mismatch: the listed corpus vectors are
    #: played first (``ExploreWaivers.learn``), before the budget starts.
    waive: ExploreWaivers = field(default_factory=ExploreWaivers)


class Stop:
    """A request to end the search, made from a signal handler: ``request(signum)``.

    The round in flight is cancelled, the launched engine stopped, and ``explore`` returns
    what it covered with ``interrupted`` set.
    """

    def __init__(self) -> None:
        self.signum: int | None = None
        self._task: asyncio.Task[Result] | None = None

    def request(self, signum: int) -> None:
        """Stop: the first request counts, later ones change nothing."""
        if self.signum is not None:
            return
        self.signum = signum
        task = self._task
        if task is not None:
            # From a signal handler: wake the loop safely, cancel there.
            task.get_loop().call_soon_threadsafe(task.cancel)

    async def guard(self, work: Coroutine[Any, Any, Result]) -> Result:
        """Run one round where a request can cancel it."""
        self._task = asyncio.ensure_future(work)
        try:
            return await self._task
        finally:
            self._task = None


@dataclass(slots=True)
class Coverage:
    """What the drawn rounds reached."""

    clauses: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    bets: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)

    def add(self, vector: vector_pb2.Vector) -> None:
        """Count what one vector reaches: clauses cited, decisions, bet kinds, refusals."""
        cited: set[str] = set(vector.clauses)
        for clauses in vector.citations.values():
            cited.update(clauses.ids)
        for vround in vector.rounds:
            for maps in (vround.deal_citations, vround.settle_citations):
                for clauses in maps.values():
                    cited.update(clauses.ids)
            for step in vround.steps:
                self.decisions[round_pb2.DecisionKind.Name(step.decision.kind)] += 1
                for clauses in step.citations.values():
                    cited.update(clauses.ids)
            for seat in vround.deal.seats:
                for bet in seat.bets:
                    self.bets[_bet_kind(bet)] += 1
            if vround.expected_error:
                self.refusals[vround.expected_error] += 1
        self.clauses.update(cited)


def _bet_kind(bet: round_pb2.Bet) -> str:
    match bet.WhichOneof("kind"):
        case "baccarat":
            return round_pb2.BaccaratBetKind.Name(bet.baccarat.kind)
        case "roulette":
            return round_pb2.RouletteBetKind.Name(bet.roulette.kind)
        case other:
            return other or "none"


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """The shrunk round that diverges, and how the engine diverged on it."""

    vector: vector_pb2.Vector
    result: Result
    #: Rounds played in the profile when this mismatch first showed, before it was shrunk.
    found_after: int
    #: False when the search ended (its time budget spent, a stop, the engine gone) before
    #: Hypothesis finished shrinking it: the round is the smallest so far that diverges so.
    shrunk: bool = True

    @property
    def size(self) -> str:
        """The shrunk round's size: rounds, seats, decisions, cards dealt."""
        rounds = self.vector.rounds
        seats = sum(len(r.deal.seats) for r in rounds)
        decisions = sum(len(r.steps) for r in rounds)
        cards = sum(
            max(
                r.expected_state.cards_dealt,
                r.expected_settle.state.cards_dealt,
                *(s.expected_state.cards_dealt for s in r.steps),
            )
            for r in rounds
        )
        return (
            f"{plural(len(rounds), 'round')}, {plural(seats, 'seat')}, "
            f"{plural(decisions, 'decision')}, {plural(cards, 'card')}"
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Waived:
    """Mismatches a known failure waived: its pattern and reason, the clause, how many rounds."""

    pattern: str
    reason: str
    clause: str
    rounds: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ProfileExploration:
    """One profile's search."""

    profile_id: str
    rounds: int
    seconds: float
    coverage: Coverage
    findings: tuple[Finding, ...] = ()
    waived: tuple[Waived, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ExploreReport:
    """Every profile's search."""

    describe: engine_service_pb2.DescribeResponse
    profiles: tuple[ProfileExploration, ...]
    seconds: float
    restarts: int
    #: The signal that ended the search early, if one did.
    interrupted: int | None = None
    #: The profiles asked for that the engine does not claim (``Describe``): not explored.
    skipped: tuple[str, ...] = ()
    #: The known failures as the search applied them (the listed vectors played).
    waive: ExploreWaivers = field(default_factory=ExploreWaivers)

    @property
    def rounds(self) -> int:
        """Rounds drawn in all."""
        return sum(p.rounds for p in self.profiles)

    @property
    def findings(self) -> tuple[Finding, ...]:
        """The shrunk mismatches, profile by profile."""
        return tuple(f for p in self.profiles for f in p.findings)

    @property
    def waived(self) -> tuple[Waived, ...]:
        """The mismatches known failures waived, profile by profile."""
        return tuple(w for p in self.profiles for w in p.waived)


class _Mismatch(Exception):  # noqa: N818 - what Hypothesis shrinks, never seen outside
    """The engine diverged on a drawn round."""


# The search ends from inside Hypothesis' test by exceptions Hypothesis lets through untouched:
# it records any other exception as the test case's outcome, and one raised before the usual
# draws would make its data generation look inconsistent.


class _Stopped(KeyboardInterrupt):
    """A stop was requested."""


class _BudgetSpent(KeyboardInterrupt):
    """The time budget ran out before any mismatch."""


class _ShrinkCut(KeyboardInterrupt):
    """The time budget ran out while a mismatch was being shrunk."""


class _EngineGone(KeyboardInterrupt):
    """The engine went away: the search ends."""

    def __init__(self, error: EngineUnavailableError) -> None:
        super().__init__(str(error))
        self.error = error


class _Live:
    """The engine under exploration: its process (if launched), channel and runner context."""

    def __init__(self, config: ExploreConfig, engine: EngineProcess | None, address: str) -> None:
        self.config = config
        self.engine = engine
        self.channels = [open_channel(address, config.tls)]
        self.ctx = Context(
            stub=engine_service_pb2_grpc.EngineServiceStub(self.channels[0]),
            timeout=config.timeout,
            run_prefix=f"explore-{secrets.token_hex(4)}-",
            reproduce=config.reproduce,
            engine=engine,
            address=address,
        )
        self.generation = engine.generation if engine else 0

    async def judge(self, vector: vector_pb2.Vector) -> Result:
        """Play one vector on the engine as the runner plays a corpus vector."""
        engine = self.engine
        if engine is not None and engine.generation != self.generation:
            # A restarted engine gets a fresh channel, even at the same address.
            self.generation = engine.generation
            self.channels.append(open_channel(engine.address, self.config.tls))
            self.ctx.stub = engine_service_pb2_grpc.EngineServiceStub(self.channels[-1])
            self.ctx.address = engine.address
        loaded = LoadedVector(vector=vector, path=Path("<explore>"), line=0)
        return await run_vector(self.ctx, loaded)

    async def close(self) -> None:
        """Close the channels and stop a launched engine."""
        for channel in self.channels:
            await channel.close(None)
        if self.engine is not None:
            await self.engine.stop()


async def _connect(config: ExploreConfig) -> tuple[_Live, engine_service_pb2.DescribeResponse]:
    engine = (
        EngineProcess(config.launch, startup_timeout=config.ready_timeout, log=config.engine_log)
        if config.launch
        else None
    )
    address = await engine.start() if engine else config.target
    if address is None:
        raise EngineUnavailableError("give --target HOST:PORT or --launch CMD")
    live = _Live(config, engine, address)
    try:
        info = await describe(live.ctx.stub, config.timeout, address, config.tls)
    except BaseException:
        await live.close()
        raise
    return live, info


def _chunk_seed(base: str, profile_id: str, chunk: int) -> int:
    digest = hashlib.sha256(f"{base}/{profile_id}/{chunk}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class _Search:
    """One profile's search: draw, judge, and keep each distinct mismatch Hypothesis shrinks."""

    def __init__(
        self,
        runner: asyncio.Runner,
        live: _Live,
        profile: Profile,
        partners: Sequence[Profile] = (),
    ) -> None:
        self.runner = runner
        self.live = live
        self.profile = profile
        #: The engine's other profiles explored with this one (the faults that span profiles).
        self.partners = tuple(partners)
        #: Rounds played on the engine (shrinking included) and vectors drawn (ids).
        self.drawn = 0
        self.ids = 0
        self.first_at = 0
        #: The signature of the mismatch being shrunk: shrinking keeps to the same one.
        self.target: tuple[str, str, str] | None = None
        self.last: tuple[vector_pb2.Vector, Result] | None = None
        self.found: list[Finding] = []
        self.seen: set[tuple[str, str, str]] = set()
        self.waived: Counter[tuple[str, str, str]] = Counter()
        self.coverage = Coverage()
        self.began = time.monotonic()
        self.seconds = 0.0
        self.until: float | None = None

    def out_of_time(self) -> bool:
        """Whether the profile's time budget is spent (never, without one)."""
        return self.until is not None and time.monotonic() >= self.until

    def judge(self, data: st.DataObject) -> None:
        """Hypothesis' test: draw a vector, play it, fail on the mismatch being shrunk."""
        if self.target is not None:
            # The budget holds while shrinking too: what is shrunk so far is the finding.
            if self.out_of_time():
                raise _ShrinkCut
        elif self.drawn >= self.live.config.rounds or self.out_of_time():
            # A mismatch being shrunk is finished; a search for one stops here.
            raise _BudgetSpent
        self.ids += 1
        vector_id = f"{self.live.config.id_prefix}-{self.profile.id}-{self.ids:06d}"
        vector = data.draw(explored_vector(self.profile, vector_id, self.partners), label="vector")
        # A round is a deal (a blackjack hand, a coup, a spin): a roulette draw holds several.
        self.drawn += len(vector.rounds)
        self.coverage.add(vector)
        stop = self.live.config.stop
        try:
            if stop is None:
                result = self.runner.run(self.live.judge(vector))
            elif stop.signum is not None:
                raise _Stopped
            else:
                result = self.runner.run(stop.guard(self.live.judge(vector)))
        except EngineUnavailableError as exc:
            raise _EngineGone(exc) from None
        except asyncio.CancelledError:
            if stop is not None and stop.signum is not None:
                raise _Stopped from None
            raise
        progress = self.live.config.progress
        if progress is not None:
            progress(self.profile.id, self.drawn)
        if result.outcome not in BAD:
            return
        found = signature(result)
        if self.target is None:
            if found in self.seen:
                return  # an earlier finding's: no new mismatch
            entry = self.live.config.waive(vector, result)
            if entry is not None:
                self.waived[(entry.pattern, entry.reason, result.clause)] += 1
                return
            self.target, self.first_at = found, self.drawn
        if found == self.target:
            self.last = (vector, result)
            raise _Mismatch(result.clause)

    def run(self, config: ExploreConfig, until: float | None) -> None:
        """Search in chunks until ``max_findings`` mismatches are shrunk or the budget is spent."""
        self.until = until
        chunk = 0
        try:
            while len(self.found) < config.max_findings:
                left = config.rounds - self.drawn
                if left <= 0 or (until is not None and time.monotonic() >= until):
                    break
                try:
                    self.run_chunk(config, chunk, min(CHUNK, left))
                except _BudgetSpent:
                    break
                except _ShrinkCut:
                    self.keep(shrunk=False)
                    break
                except (_Stopped, _EngineGone):
                    # A stop or a gone engine cuts a shrink short too.
                    self.keep(shrunk=False)
                    raise
                finally:
                    # A mismatch shrunk, even one a stop or a gone engine cut short, is kept.
                    self.keep()
                chunk += 1
        finally:
            self.seconds = time.monotonic() - self.began

    def keep(self, *, shrunk: bool = True) -> None:
        """Record the mismatch just shrunk (or shrunk so far) as a finding; search for others."""
        if self.last is not None and self.target is not None:
            vector, result = self.last
            vector.description = (
                f"{vector.description.removesuffix('.')}; diverged at {result.step} "
                f"({result.clause}) {result.path}: expected {result.expected}, "
                f"got {result.actual}"
                + ("." if shrunk else " (shrunk so far: the search ended before shrinking did).")
            )
            self.found.append(
                Finding(vector=vector, result=result, found_after=self.first_at, shrunk=shrunk)
            )
            self.seen.add(self.target)
        self.target, self.last = None, None

    def outcome(self) -> ProfileExploration:
        """What this profile's search covered, its findings and what was waived."""
        return ProfileExploration(
            profile_id=self.profile.id,
            rounds=self.drawn,
            seconds=self.seconds or time.monotonic() - self.began,
            coverage=self.coverage,
            findings=tuple(self.found),
            waived=tuple(
                Waived(pattern=pattern, reason=reason, clause=clause, rounds=count)
                for (pattern, reason, clause), count in sorted(self.waived.items())
            ),
        )

    def run_chunk(self, config: ExploreConfig, chunk: int, examples: int) -> bool:
        """Draw up to ``examples`` rounds; True when a mismatch was found (and shrunk)."""

        def judge(data: st.DataObject) -> None:
            self.judge(data)

        reuse = (Phase.reuse,) if config.database is not None else ()
        test = settings(
            max_examples=examples,
            deadline=None,
            database=(
                # One directory per profile: a finding is replayed for its own profile alone.
                DirectoryBasedExampleDatabase(str(config.database / self.profile.id))
                if config.database is not None
                else None
            ),
            phases=(*reuse, Phase.generate, Phase.shrink),
            suppress_health_check=list(HealthCheck),
            verbosity=Verbosity.quiet,
            report_multiple_bugs=False,
            print_blob=False,
        )(seed(_chunk_seed(config.seed, self.profile.id, chunk))(given(st.data())(judge)))
        try:
            test()
        except _Mismatch:
            return True
        except Exception:
            # A mismatch that did not come back when replayed (Hypothesis calls it flaky): the
            # last round that diverged is still the finding.
            if self.last is not None:
                return True
            raise
        return False


def explore(config: ExploreConfig) -> ExploreReport:
    """Explore every profile of ``config`` on the engine; ``EngineUnavailableError`` if it goes.

    Profiles the engine does not claim (``Describe``) are skipped. A stop request ends the
    search at once: the report holds what was covered, ``interrupted`` says why.
    """
    started = time.monotonic()
    searches: list[_Search] = []
    interrupted = None
    with asyncio.Runner() as runner:
        live, info = runner.run(_connect(config))
        claimed = set(info.profile_ids)
        try:
            if config.waive.listed:
                # How the listed vectors fail on this engine is what they waive.
                waive = runner.run(config.waive.learn(live.judge, claimed))
                config = live.config = dataclasses.replace(config, waive=waive)
            # The time budget is the search's: it starts once the engine is up.
            deadline = None if config.seconds is None else time.monotonic() + config.seconds
            chosen = [p for p in config.profiles if p.id in claimed]
            for index, profile in enumerate(chosen):
                until = None
                if deadline is not None:
                    # What is left, shared by the profiles not yet explored.
                    until = time.monotonic() + (deadline - time.monotonic()) / (len(chosen) - index)
                searches.append(_Search(runner, live, profile, chosen))
                searches[-1].run(config, until)
        except _Stopped:
            interrupted = config.stop.signum if config.stop else None
        except _EngineGone as gone:
            raise gone.error from None
        finally:
            runner.run(live.close())
    return ExploreReport(
        describe=info,
        profiles=tuple(s.outcome() for s in searches),
        seconds=time.monotonic() - started,
        restarts=live.engine.restarts if live.engine else 0,
        interrupted=interrupted,
        skipped=tuple(p.id for p in config.profiles if p.id not in info.profile_ids),
        waive=config.waive,
    )
