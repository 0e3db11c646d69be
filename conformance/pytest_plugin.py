"""The conformance corpus as pytest items: ``pytest --croupier-target HOST:PORT`` or ``--croupier-launch CMD``.

Installed with the package (entry point ``pytest11``), inert unless one of the two options is
given. Each vector is one item whose name is the vector id; markers carry the profile, level
and clauses in their names (``profile_blackjack-a``, ``level_required``,
``clause_BJ.nat-pays``), because ``-m`` selects by marker name, never by argument. The engine
is launched (or reached) once, at the first selected item, and stopped at the end; only the
selected vectors run, one per item, through the conformance runner.
"""

from __future__ import annotations

import asyncio
import shlex
from typing import Any

import pytest
from croupier.conformance.v1 import vector_pb2

from conformance.cli.common import DEFAULT_TIMEOUT
from conformance.engine import EngineProcess, describe, open_channel
from conformance.invocation import croupier_command
from conformance.results import BAD, Result, VectorOutcome
from conformance.runner import EngineUnavailableError, RunConfig, RunSession
from conformance.vectors import LoadedVector, load_corpus

_KEY = pytest.StashKey["_Engine"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """The plugin's options, in their own group."""
    group = parser.getgroup("croupier", "Croupier conformance corpus")
    group.addoption(
        "--croupier-target", metavar="HOST:PORT", help="Run the corpus against this engine."
    )
    group.addoption(
        "--croupier-launch",
        metavar="CMD",
        help="Launch this engine (it prints CROUPIER_ENGINE host:port) and run the corpus against it.",
    )
    group.addoption(
        "--croupier-timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"Deadline of each call (default {DEFAULT_TIMEOUT:g}).",
    )


def marker_names(vector: vector_pb2.Vector) -> list[str]:
    """The markers of one vector: its profile, its level and each of its clauses."""
    level = vector_pb2.Level.Name(vector.level).removeprefix("LEVEL_").lower()
    return [
        f"profile_{vector.profile_id}",
        f"level_{level}",
        *(f"clause_{clause}" for clause in vector.clauses),
    ]


def pytest_configure(config: pytest.Config) -> None:
    """Load the corpus and register its markers, only when asked to run it."""
    target = config.getoption("croupier_target")
    launch = config.getoption("croupier_launch")
    if not target and not launch:
        return
    if target and launch:
        raise pytest.UsageError("give --croupier-target or --croupier-launch, not both")
    engine = _Engine(target=target, launch=launch, timeout=config.getoption("croupier_timeout"))
    config.stash[_KEY] = engine
    config.addinivalue_line("markers", "croupier: a vector of the Croupier conformance corpus")
    names = sorted({name for loaded in engine.vectors for name in marker_names(loaded.vector)})
    for name in names:
        config.addinivalue_line(
            "markers", f"{name}: Croupier vectors of this profile, level or clause"
        )


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect: they must see the vectors
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Append one item per corpus vector."""
    engine = config.stash.get(_KEY, None)
    if engine is None:
        return
    corpus = CorpusCollector.from_parent(session, name="croupier", nodeid="croupier")
    vectors: list[pytest.Item | pytest.Collector] = []
    for loaded in engine.vectors:
        item = VectorItem.from_parent(corpus, name=loaded.vector.id, loaded=loaded)
        item.add_marker("croupier")
        for name in marker_names(loaded.vector):
            item.add_marker(name)
        vectors.append(item)
        items.append(item)
    # So that the terminal's "collected N items" counts the vectors.
    config.hook.pytest_collectreport(
        report=pytest.CollectReport("croupier", "passed", None, vectors)
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop a launched engine and close the loop."""
    engine = config.stash.get(_KEY, None)
    if engine is not None:
        engine.close()


class CorpusCollector(pytest.Collector):
    """The parent of the vector items; it collects nothing itself."""

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        """Nothing: the items are made in ``pytest_collection_modifyitems``."""
        return []


class VectorFailedError(Exception):
    """A vector whose outcome fails the run."""

    def __init__(self, result: Result) -> None:
        super().__init__(result.vector_id)
        self.result = result


class VectorItem(pytest.Item):
    """One vector of the corpus."""

    def __init__(self, *, loaded: LoadedVector, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.loaded = loaded
        # -k matches the vector's name and profile too, not only its id.
        self.extra_keyword_matches.update({loaded.vector.name, loaded.vector.profile_id})

    def runtest(self) -> None:
        """Play the vector against the session's engine and judge it."""
        engine: _Engine = self.config.stash[_KEY]
        result = engine.play(self.loaded)
        if result.outcome is VectorOutcome.NOT_APPLICABLE:
            pytest.skip(result.message)
        if result.outcome in BAD:
            raise VectorFailedError(result)

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None
    ) -> str | Any:
        """A failed vector as the runner reports it: clause, step, path, expected, actual."""
        if isinstance(excinfo.value, VectorFailedError):
            return failure_text(excinfo.value.result)
        if isinstance(excinfo.value, EngineUnavailableError):
            return f"engine unavailable: {excinfo.value}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[str, int, str]:
        """Where the vector was read from."""
        return str(self.loaded.path), self.loaded.line - 1, f"{self.name} {self.loaded.vector.name}"


def failure_text(result: Result) -> str:
    """The lines of a failed vector's report."""
    lines = [f"{result.outcome.value} {result.vector_id} {result.name}"]
    lines.extend(f"{label + ':':10} {value}" for label, value in result.details())
    return "\n".join(lines)


class _Engine:
    """The session's engine: the corpus, a loop owned by the plugin, and the runner's session."""

    def __init__(self, *, target: str | None, launch: str | None, timeout: float) -> None:
        self.vectors = load_corpus()
        words = (
            f"--target {shlex.quote(target)}" if target else f"--launch {shlex.quote(launch or '')}"
        )
        # The reproduce command replays the vector with this run's deadline.
        if timeout != DEFAULT_TIMEOUT:
            words += f" --timeout {timeout:g}"
        croupier = croupier_command("croupier")
        self.config = RunConfig(
            vectors=(),
            target=target,
            launch=launch,
            timeout=timeout,
            concurrency=1,
            reproduce=lambda v: f"{croupier} certify {words} --vector {shlex.quote(v.id)}",
        )
        # A loop of our own, run only inside items: pytest's loop-owning plugins never see it.
        self.loop = asyncio.new_event_loop()
        self.session: RunSession | None = None
        self.claimed: set[str] = set()
        self.gone: EngineUnavailableError | None = None

    def play(self, loaded: LoadedVector) -> Result:
        """One vector's result; the engine is started at the first."""
        if self.gone is not None:
            raise self.gone
        try:
            return self.loop.run_until_complete(self._play(loaded))
        except EngineUnavailableError as exc:
            # The vectors left would all fail against nothing: each says why at once.
            self.gone = exc
            raise

    async def _play(self, loaded: LoadedVector) -> Result:
        session = self.session or await self._start()
        results = await session.play([loaded], self.claimed)
        return results[0]

    async def _start(self) -> RunSession:
        config = self.config
        engine = EngineProcess(config.launch) if config.launch else None
        address = await engine.start() if engine else config.target
        assert address is not None  # noqa: S101 - one of the two is set
        self.session = RunSession(config, engine, open_channel(address, None))
        self.session.ctx.address = address
        info = await describe(self.session.ctx.stub, config.timeout, address, None)
        self.claimed = set(info.profile_ids)
        return self.session

    def close(self) -> None:
        """Close the channel and stop a launched engine."""
        if self.session is not None:
            self.loop.run_until_complete(self.session.close())
        self.loop.close()
