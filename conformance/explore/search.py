"""Differential exploration: drawn rounds played on the engine, judged like vectors, shrunk.

For each profile the engine claims, vectors are drawn from the explorer's strategies
(``conformance.explore.rounds``), answered by the oracle as they are drawn, seven in eight
aimed at a coverage cell of the profile (``conformance.explore.coverage``), and the runner
plays each on the engine with the same comparison, clause map and outcomes as a corpus
vector (``conformance.runner.run_vector``), several at once. Each mismatch is shrunk by
Hypothesis to the smallest round that still diverges with the same clause, outcome and path
(seat and line indexes aside); that round is a finding, written out as a vector a lab can add
to its corpus. The search then goes on, up to ``max_findings`` distinct findings per
profile: a round that diverges the way an earlier finding did, or the way a known failure
waives (``waive``), counts as no mismatch.

Reproducible: the same seed and engine draw the same rounds, whatever the concurrency (each
draw is seeded from the seed, the profile and its number; aims follow what the oracle's
answers reached). Bounded: by rounds per profile (exactly: the last vector drawn holds no
more than are left), by coverage (``until_covered``), or by a
time budget checked before each round, shrinking included: a mismatch whose shrinking the
budget cuts short is a finding as shrunk so far (``Finding.shrunk``). Hypothesis keeps no
example database unless ``database`` names a directory for one.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import random
import secrets
import time
from collections import Counter
from collections.abc import Callable, Collection, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st
from hypothesis.database import (
    DirectoryBasedExampleDatabase,
    InMemoryExampleDatabase,
    choices_from_bytes,
    choices_to_bytes,
)

from croupier.clients.words import plural
from croupier.conformance.engine import (
    EngineProcess,
    EngineUnavailableError,
    TlsOptions,
    describe,
    open_channel,
)
from croupier.conformance.explore.coverage import (
    CellCoverage,
    Cited,
    aim_order,
    cited,
    reached,
    tableau_edges,
)
from croupier.conformance.explore.draws import Choice, Spec, sample
from croupier.conformance.explore.rounds import explored_vector
from croupier.conformance.known import ExploreWaivers
from croupier.conformance.results import BAD, Result, signature
from croupier.conformance.runner import Context, run_vector
from croupier.conformance.timeouts import READY_TIMEOUT
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import LoadedVector
from croupier.oracle.profile import Profile, shipped_profiles
from croupier.v1 import engine_service_pb2, engine_service_pb2_grpc, round_pb2

#: The most vectors drawn before their results are read (batches grow to it from 8).
CHUNK = 256
#: Vectors in flight on the engine at once: certify's number (``RunConfig.concurrency``); with
#: eight the explorer waited on the engine about a quarter of the time.
CONCURRENCY = 16
#: One draw in this many aims at no cell: the strategies' own mix, shapes the aims never ask.
PLAIN_EVERY = 8
#: The groups of ``coverage.aim_order`` aimed draws take in turn, a third each: the faults,
#: limits and near misses; the game's decisions, dealer shapes and bets; its hand shapes and
#: tableau cells (roulette has none: their turn goes to its largest group, ``_next_cell``).
_ROTATION = (0, 1, 2)


@dataclass(frozen=True, slots=True, kw_only=True)
class ExploreConfig:
    """What to explore and for how long."""

    profiles: Sequence[Profile]
    target: str | None = None
    launch: str | None = None
    tls: TlsOptions | None = None
    seed: str = "croupier"
    #: Rounds played per profile before the search stops (shrinking a finding adds more); a
    #: drawn vector holds one round, or several spins at one roulette table, and the last
    #: one no more than the budget has left: the search plays exactly this many.
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
    #: Stop a profile's search once every cell of its coverage is reached (or at the budget).
    until_covered: bool = False
    #: False: a mismatch is kept as drawn, not shrunk (what measures rounds until found).
    shrink: bool = True


_R = TypeVar("_R")


class Stop:
    """A request to end the search, made from a signal handler: ``request(signum)``.

    The round in flight is cancelled, the launched engine stopped, and ``explore`` returns
    what it covered with ``interrupted`` set.
    """

    def __init__(self) -> None:
        self.signum: int | None = None
        self._task: asyncio.Task[Any] | None = None

    def request(self, signum: int) -> None:
        """Stop: the first request counts, later ones change nothing."""
        if self.signum is not None:
            return
        self.signum = signum
        task = self._task
        if task is not None:
            # From a signal handler: wake the loop safely, cancel there.
            task.get_loop().call_soon_threadsafe(task.cancel)

    async def guard(self, work: Coroutine[Any, Any, _R]) -> _R:
        """Run ``work`` (a batch of rounds, or one) where a request can cancel it."""
        task = asyncio.ensure_future(work)
        self._task = task
        try:
            return await task
        finally:
            self._task = None


@dataclass(slots=True)
class Coverage:
    """What the drawn rounds reached."""

    clauses: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    bets: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)

    def add(self, vector: vector_pb2.Vector, clauses: Cited | None = None) -> None:
        """Count what one vector reaches: clauses cited, decisions, bet kinds, refusals.

        ``clauses``: what ``vector`` cites (``coverage.cited``), if read already; the clauses
        of its steps after settlement are not counted.
        """
        if clauses is None:
            clauses = cited(vector)
        self.clauses.update(clauses.shared.union(*(played for played, _ in clauses.rounds)))
        for vround in vector.rounds:
            for step in vround.steps:
                self.decisions[round_pb2.DecisionKind.Name(step.decision.kind)] += 1
            for seat in vround.deal.seats:
                for bet in seat.bets:
                    self.bets[_bet_kind(bet)] += 1
            if vround.expected_error:
                self.refusals[vround.expected_error] += 1


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
    #: The profile's cells (``conformance.explore.coverage``): how often each was reached.
    cells: CellCoverage
    findings: tuple[Finding, ...] = ()
    waived: tuple[Waived, ...] = ()
    #: Rounds played on the engine while shrinking the findings (not in ``rounds``).
    shrink_rounds: int = 0


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


class Live:
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


async def connect(config: ExploreConfig) -> tuple[Live, engine_service_pb2.DescribeResponse]:
    """Reach (or launch) the engine of ``config`` and ask what it claims (``Live.close`` after)."""
    engine = (
        EngineProcess(config.launch, startup_timeout=config.ready_timeout, log=config.engine_log)
        if config.launch
        else None
    )
    address = await engine.start() if engine else config.target
    if address is None:
        raise EngineUnavailableError("give --target HOST:PORT or --launch CMD")
    live = Live(config, engine, address)
    try:
        info = await describe(live.ctx.stub, config.timeout, address, config.tls)
    except BaseException:
        await live.close()
        raise
    return live, info


def _chunk_seed(base: str, profile_id: str, chunk: int) -> int:
    digest = hashlib.sha256(f"{base}/{profile_id}/{chunk}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True, slots=True)
class _Draw:
    """One drawn vector: its aim, the choices that draw it again, and where it came."""

    vector: vector_pb2.Vector
    aim: str | None
    choices: tuple[Any, ...]
    #: The most rounds it could hold (what was left of the budget): shrinking draws alike.
    most: int
    #: Rounds drawn in the profile once this vector was drawn.
    drawn: int
    #: The coverage cells it reaches.
    hit: frozenset[str]
    #: What it cites, read once for its cells and its coverage.
    clauses: Cited


class _Search:
    """One profile's search: draw in bulk, judge concurrently, shrink each distinct mismatch.

    Rounds are drawn from the explorer's strategies (``explored_vector``) by a seeded
    generator of the choices Hypothesis makes (``_draw_once``), each aimed at the profile's least-reached
    coverage cell (``next_aim``), and played on the engine ``CONCURRENCY`` at a time. A
    mismatch is handed to Hypothesis with the choices that drew it: Hypothesis replays and
    shrinks it. What is drawn depends on the seed and on the oracle's answers alone, never on
    the engine or the timing: the same seed draws the same rounds, and a mismatch is found at
    the same round.
    """

    def __init__(
        self,
        runner: asyncio.Runner,
        live: Live,
        profile: Profile,
        partners: Sequence[Profile] = (),
    ) -> None:
        self.runner = runner
        self.live = live
        self.profile = profile
        #: The engine's other profiles explored with this one (the faults that span profiles).
        self.partners = tuple(partners)
        #: Rounds drawn (a round is a deal: a blackjack hand, a coup, a spin), vectors drawn,
        #: and rounds played while shrinking.
        self.drawn = 0
        self.ids = 0
        self.shrink_rounds = 0
        #: Rounds whose results were read, in draw order (the search may draw a few more).
        self.played = 0
        #: The signature of the mismatch being shrunk, if one is.
        self.target: tuple[str, str, str] | None = None
        self.found: list[Finding] = []
        self.seen: set[tuple[str, str, str]] = set()
        self.waived: Counter[tuple[str, str, str]] = Counter()
        self.coverage = Coverage()
        #: What the rounds read reached (reported), and what the rounds drawn did (steering).
        self.cells = CellCoverage.of(profile, self.partners)
        self.steer = CellCoverage.of(profile, self.partners)
        #: The cells an aimed draw may take, in the order aims go round (``next_aim``).
        shuffle = random.Random(_chunk_seed(live.config.seed, profile.id, -1)).shuffle  # noqa: S311
        self.groups = aim_order(self.cells.all, shuffle, tableau_edges(profile))
        self.aimed = 0
        self.visits: Counter[str] = Counter()
        #: Rounds drawn aiming at each cell: once every cell of a group was aimed at, the
        #: group's next aim is the cell that has had the fewest (the budget is in rounds).
        self.spent: Counter[str] = Counter()
        self.began = time.monotonic()
        self.seconds = 0.0
        self.until: float | None = None
        config = live.config
        self.database = (
            # One directory per profile: a finding is replayed for its own profile alone.
            DirectoryBasedExampleDatabase(str(config.database / profile.id))
            if config.database is not None
            else None
        )

    # --- drawing -------------------------------------------------------------------------

    def until_covered(self) -> bool:
        """Whether the search stops because every cell is reached (``--until-covered``)."""
        return self.live.config.until_covered and not self.steer.unreached

    def next_aim(self) -> str | None:
        """The cell the next draw aims at; one draw in ``PLAIN_EVERY`` aims at none.

        Aimed draws take the groups of ``aim_order`` in turn (``_ROTATION``); in a group,
        the first cell not yet reached, then the first never aimed at (reached by chance, it
        has not had the form its aim draws first: a zero's shapes, a fault's first form),
        and once all are, each cell in turn, by rounds (the one that has had the fewest
        rounds aimed at it: a full board's turn comes less often than a spin's). Aims depend
        on what earlier draws reached (the oracle's answers), never on the engine.
        """
        cell = self._next_cell()
        if cell is None:
            return None
        self.visits[cell] += 1
        # The cell's visit: a fault or near miss of several forms takes each in turn.
        return f"{cell}#{self.visits[cell] - 1}"

    def _next_cell(self) -> str | None:
        if self.ids % PLAIN_EVERY == 0:
            return None
        self.aimed += 1
        which = _ROTATION[self.aimed % len(_ROTATION)]
        if not self.groups[which]:
            # An empty group's turn goes to the largest: its first round of aims is longest.
            which = max(range(len(self.groups)), key=lambda i: len(self.groups[i]))
        group = self.groups[which]
        counts = self.steer.counts
        first = next((c for c in group if not counts[c]), None)
        first = first or next((c for c in group if not self.visits[c]), None)
        if first is not None or not group:
            return first
        return min(group, key=self.spent.__getitem__)

    def budget_left(self) -> bool:
        """Whether another vector may be drawn: rounds, time, coverage, findings."""
        config = self.live.config
        return (
            self.drawn < config.rounds
            and not self.out_of_time()
            and not self.until_covered()
            and len(self.found) < config.max_findings
        )

    def vector_id(self) -> str:
        self.ids += 1
        return f"{self.live.config.id_prefix}-{self.profile.id}-{self.ids:06d}"

    def draw(self, replay: tuple[Any, ...] | None = None) -> _Draw:
        """Draw the next vector (or the one of a stored finding); what it reaches steers."""
        vector_id = self.vector_id()
        if replay is not None:
            aim, choices = (replay[0] or None), replay[1:]
        else:
            aim, choices = self.next_aim(), None
        source = _chunk_seed(self.live.config.seed, self.profile.id, self.ids)
        # The last vector holds no more rounds than the budget has left: it ends there.
        most = max(1, self.live.config.rounds - self.drawn)
        # Played, not kept: the citations as the oracle records them (``written``).
        spec = explored_vector(self.profile, vector_id, self.partners, aim, most=most, short=False)
        vector, drawn_choices = _draw_once(spec, source, choices)
        self.drawn += len(vector.rounds)
        if aim is not None:
            self.spent[aim.partition("#")[0]] += len(vector.rounds)
        clauses = cited(vector)
        hit = frozenset(reached(self.profile, vector, clauses))
        self.steer.add(hit, self.drawn)
        return _Draw(
            vector=vector,
            aim=aim,
            choices=drawn_choices,
            most=most,
            drawn=self.drawn,
            hit=hit,
            clauses=clauses,
        )

    # --- judging -------------------------------------------------------------------------

    async def _batch(self, size: int, replays: list[tuple[Any, ...]]) -> list[tuple[_Draw, Result]]:
        """Draw up to ``size`` vectors and play them, ``CONCURRENCY`` at once, in draw order."""
        tasks: list[tuple[_Draw, asyncio.Task[Result]]] = []
        try:
            while len(tasks) < size and (replays or self.budget_left()):
                drawn = self.draw(replays.pop(0) if replays else None)
                tasks.append((drawn, asyncio.ensure_future(self.live.judge(drawn.vector))))
                running = [t for _, t in tasks if not t.done()]
                if len(running) >= CONCURRENCY:
                    await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                else:
                    await asyncio.sleep(0)
            return [(drawn, await task) for drawn, task in tasks]
        finally:
            for _, task in tasks:
                task.cancel()

    def play(self, work: Coroutine[Any, Any, Any]) -> Any:
        """Run ``work`` on the loop where a stop request can cancel it; map its endings."""
        stop = self.live.config.stop
        held: list[Any] = []

        async def hold() -> None:
            # The task returns nothing: when a run ends, asyncio.Runner finds its SIGINT
            # handler by value, and the failed lookup formats the main task, its result
            # whole (a batch's vectors: milliseconds a batch, for nothing).
            held.append(await work)

        try:
            if stop is None:
                self.runner.run(hold())
            elif stop.signum is not None:
                work.close()
                raise _Stopped
            else:
                self.runner.run(stop.guard(hold()))
            return held[0]
        except EngineUnavailableError as exc:
            raise _EngineGone(exc) from None
        except asyncio.CancelledError:
            if stop is not None and stop.signum is not None:
                raise _Stopped from None
            raise

    def run(self, config: ExploreConfig, until: float | None) -> None:
        """Search until ``max_findings`` mismatches are shrunk or the budget is spent."""
        self.until = until
        replays = self.stored()
        size = min(8, CHUNK)
        try:
            while replays or self.budget_left():
                batch = self.play(self._batch(size, replays))
                # Bigger batches once the search runs long: fewer waits between them.
                size = min(size * 2, CHUNK)
                for drawn, result in batch:
                    # Read in draw order, up to the end of the search: what is reported.
                    if len(self.found) >= config.max_findings:
                        break
                    self.played = drawn.drawn
                    self.coverage.add(drawn.vector, drawn.clauses)
                    self.cells.add(drawn.hit, self.played)
                    progress = config.progress
                    if progress is not None:
                        progress(self.profile.id, self.played)
                    self.judged(drawn, result)
        except _ShrinkCut:
            pass  # the budget ended a shrink: the finding is kept, the search ends
        finally:
            self.seconds = time.monotonic() - self.began

    def judged(self, drawn: _Draw, result: Result) -> None:
        """A vector's result: a new mismatch is shrunk and kept; a known one, or waived, not."""
        if result.outcome not in BAD:
            return
        found = signature(result)
        if found in self.seen:
            return  # an earlier finding's: no new mismatch
        entry = self.live.config.waive(drawn.vector, result)
        if entry is not None:
            self.waived[(entry.pattern, entry.reason, result.clause)] += 1
            return
        if self.database is not None:
            self.database.save(_DB_KEY, choices_to_bytes((drawn.aim or "", *drawn.choices)))
        if not self.live.config.shrink:
            self.keep(self.written(drawn), result, found, drawn.drawn)
            return
        self.target = found
        last = [(self.written(drawn), result)]
        try:
            self.shrink(drawn, found, last)
        except (_ShrinkCut, _Stopped, _EngineGone):
            # Time is up, a stop, or the engine gone: the finding is what is shrunk so far.
            self.keep(*last[-1], found, drawn.drawn, shrunk=False)
            raise
        finally:
            self.target = None
        self.keep(*last[-1], found, drawn.drawn)

    def written(self, drawn: _Draw) -> vector_pb2.Vector:
        """The vector ``drawn`` as a finding is written: drawn again, citations compacted."""
        spec = explored_vector(
            self.profile, drawn.vector.id, self.partners, drawn.aim, most=drawn.most
        )
        return _draw_once(spec, 0, drawn.choices)[0]

    def stored(self) -> list[tuple[Any, ...]]:
        """The draws of earlier findings kept in ``--database``: replayed first."""
        if self.database is None:
            return []
        kept = [choices_from_bytes(entry) for entry in self.database.fetch(_DB_KEY)]
        return sorted(k for k in kept if k and isinstance(k[0], str))

    # --- shrinking -----------------------------------------------------------------------

    def out_of_time(self) -> bool:
        """Whether the profile's time budget is spent (never, without one)."""
        return self.until is not None and time.monotonic() >= self.until

    def shrink(
        self,
        drawn: _Draw,
        target: tuple[str, str, str],
        last: list[tuple[vector_pb2.Vector, Result]],
    ) -> None:
        """Append to ``last`` Hypothesis' smallest round drawn like ``drawn`` diverging alike.

        ``_ShrinkCut`` when the time budget ends the shrink first.
        """

        def judge(data: st.DataObject) -> None:
            if self.out_of_time():
                # The budget holds while shrinking too: what is shrunk so far is the finding.
                raise _ShrinkCut
            vector = data.draw(
                explored_vector(
                    self.profile, self.vector_id(), self.partners, drawn.aim, most=drawn.most
                ).strategy,
                label="vector",
            )
            self.shrink_rounds += len(vector.rounds)
            shrunk = self.play(self.live.judge(vector))
            if shrunk.outcome in BAD and signature(shrunk) == target:
                last.append((vector, shrunk))
                raise _Mismatch(shrunk.clause)

        database = InMemoryExampleDatabase()
        # Under the secondary key: what Hypothesis replays first and then shrinks (an entry
        # under the primary key it takes as shrunk already).
        database.save(_DB_KEY + b".secondary", choices_to_bytes(drawn.choices))
        test = settings(
            # Shrinking's budget grows with it; nothing new is generated.
            max_examples=CHUNK,
            deadline=None,
            database=database,
            phases=(Phase.reuse, Phase.shrink),
            suppress_health_check=list(HealthCheck),
            verbosity=Verbosity.quiet,
            report_multiple_bugs=False,
            print_blob=False,
        )(seed(drawn.drawn)(given(st.data())(judge)))
        test._hypothesis_internal_database_key = _DB_KEY  # type: ignore[attr-defined]  # noqa: SLF001
        try:
            test()
        except _Mismatch:
            pass
        except Exception:  # noqa: BLE001, S110 - a mismatch that did not come back when replayed
            # (Hypothesis calls it flaky): the last round that diverged is still the finding.
            pass

    def keep(
        self,
        vector: vector_pb2.Vector,
        result: Result,
        target: tuple[str, str, str],
        found_after: int,
        *,
        shrunk: bool = True,
    ) -> None:
        """Record a shrunk (or shrunk so far) mismatch as a finding; search for others."""
        vector.description = (
            f"{vector.description.removesuffix('.')}; diverged at {result.step} "
            f"({result.clause}) {result.path}: expected {result.expected}, "
            f"got {result.actual}"
            + ("." if shrunk else " (shrunk so far: the search ended before shrinking did).")
        )
        self.found.append(
            Finding(vector=vector, result=result, found_after=found_after, shrunk=shrunk)
        )
        self.seen.add(target)

    def outcome(self) -> ProfileExploration:
        """What this profile's search covered, its findings and what was waived."""
        return ProfileExploration(
            profile_id=self.profile.id,
            rounds=self.played,
            seconds=self.seconds or time.monotonic() - self.began,
            coverage=self.coverage,
            cells=self.cells,
            findings=tuple(self.found),
            waived=tuple(
                Waived(pattern=pattern, reason=reason, clause=clause, rounds=count)
                for (pattern, reason, clause), count in sorted(self.waived.items())
            ),
            shrink_rounds=self.shrink_rounds,
        )


#: The key of a draw's choices in an example database (the shrinker's, and ``--database``).
_DB_KEY = b"croupier-explore"


def _draw_once(
    spec: Spec[vector_pb2.Vector], source: int, choices: tuple[Any, ...] | None
) -> tuple[vector_pb2.Vector, tuple[Choice, ...]]:
    """Draw from ``spec`` by the seeded sampler, from ``source`` (or replay ``choices``).

    No Hypothesis engine: each choice from ``random.Random(source)``, recorded, so that
    Hypothesis can replay and shrink the draw (``_Search.shrink``). A replay past the choices
    recorded takes the simplest ones.
    """
    if choices is None:
        # The first choice, whether the draw takes its aim (``explored_vector``): it does.
        return sample(spec, random.Random(source), (True,))  # noqa: S311 - a test's draw
    return sample(spec, None, choices)


def chosen_profiles(
    profiles: Sequence[Profile], claimed: Collection[str]
) -> tuple[list[Profile], list[Profile]]:
    """The profiles explored (those the engine claims), and the partners their faults may use.

    The faults across profiles may use any profile the engine claims, explored or not: a
    round id or a table under a shipped profile beside the one explored.
    """
    chosen = [p for p in profiles if p.id in claimed]
    ids = {p.id for p in chosen}
    partners = [*chosen, *(p for p in shipped_profiles() if p.id in claimed and p.id not in ids)]
    return chosen, partners


def search_profile(
    runner: asyncio.Runner,
    live: Live,
    profile: Profile,
    partners: Sequence[Profile],
    until: float | None,
) -> tuple[ProfileExploration, bool]:
    """One profile's search on ``live``'s engine, under ``live.config``, up to ``until``.

    What it covered, and whether a stop request ended it; ``EngineUnavailableError`` if the
    engine went away. ``explore`` runs one per profile; a Dask chunk runs one of its own
    (``conformance.explore.cluster``).
    """
    search = _Search(runner, live, profile, partners)
    try:
        search.run(live.config, until)
    except _Stopped:
        return search.outcome(), True
    except _EngineGone as gone:
        raise gone.error from None
    return search.outcome(), False


def explore(config: ExploreConfig) -> ExploreReport:
    """Explore every profile of ``config`` on the engine; ``EngineUnavailableError`` if it goes.

    Profiles the engine does not claim (``Describe``) are skipped. A stop request ends the
    search at once: the report holds what was covered, ``interrupted`` says why.
    """
    started = time.monotonic()
    searches: list[ProfileExploration] = []
    interrupted = None
    with asyncio.Runner() as runner:
        live, info = runner.run(connect(config))
        claimed = set(info.profile_ids)
        try:
            if config.waive.listed:
                # How the listed vectors fail on this engine is what they waive.
                waive = runner.run(config.waive.learn(live.judge, claimed))
                config = live.config = dataclasses.replace(config, waive=waive)
            # The time budget is the search's: it starts once the engine is up.
            deadline = None if config.seconds is None else time.monotonic() + config.seconds
            chosen, partners = chosen_profiles(config.profiles, claimed)
            for index, profile in enumerate(chosen):
                until = None
                if deadline is not None:
                    # What is left, shared by the profiles not yet explored.
                    until = time.monotonic() + (deadline - time.monotonic()) / (len(chosen) - index)
                done, stopped = search_profile(runner, live, profile, partners, until)
                searches.append(done)
                if stopped:
                    interrupted = config.stop.signum if config.stop else None
                    break
        finally:
            runner.run(live.close())
    return ExploreReport(
        describe=info,
        profiles=tuple(searches),
        seconds=time.monotonic() - started,
        restarts=live.engine.restarts if live.engine else 0,
        interrupted=interrupted,
        skipped=tuple(p.id for p in config.profiles if p.id not in info.profile_ids),
        waive=config.waive,
    )
