"""The conformance corpus as pytest items: ``pytest --croupier-target HOST:PORT`` or ``--croupier-launch CMD``.

Installed with the package (entry point ``pytest11``), inert unless one of the two options is
given. Each vector is one item whose name is the vector id; markers carry the profile, level
and clauses in their names (``profile_blackjack-a``, ``level_required``,
``clause_BJ.nat-pays``), because ``-m`` selects by marker name, never by argument. The engine
is launched (or reached) once, at the first selected item, and stopped at the end; only the
selected vectors run, one per item, through the conformance runner.

``--croupier-ready-timeout`` and ``--croupier-engine-log`` are certify's ``--ready-timeout``
and ``--engine-log``: a launched engine that fails to start or dies shows its last stderr
lines. ``--croupier-tls-*`` reach the engine over TLS as certify's ``--tls-*`` do (the same checks,
the same channel). ``--croupier-known-failures FILE`` reads certify's ``--known-failures``
file: a listed vector that fails is an xfail with the file's reason, one that passes a
failure (UNEXPECTED_PASS), and a pattern that matches no vector of the corpus fails the run.

The session ends with certify's summary line: "conformant" only when every vector of the
corpus for every profile the engine claims was played; a session cut by -k, -m, -x or an
interruption says what it ran ("passed N of the M vectors selected").
"""

from __future__ import annotations

import asyncio
import shlex
import time
from pathlib import Path
from typing import Any

import pytest
from _pytest.junitxml import xml_key
from croupier.conformance.v1 import vector_pb2
from croupier.v1 import engine_service_pb2

from conformance.cli.common import DEFAULT_TIMEOUT, EngineChoice, engine_choice
from conformance.engine import READY_TIMEOUT, start_log
from conformance.invocation import croupier_command
from conformance.known import read_known_failures
from conformance.report import SUITE_VERSION, summary_line
from conformance.results import (
    BAD,
    ConfigError,
    KnownFailure,
    Result,
    RunReport,
    VectorOutcome,
    claimed_count,
    covers,
)
from conformance.runner import (
    EngineUnavailableError,
    RunConfig,
    RunSession,
    stale_patterns,
    start_session,
)
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
    group.addoption(
        "--croupier-ready-timeout",
        type=float,
        default=READY_TIMEOUT,
        metavar="SECONDS",
        help=f"How long a launched engine is given to print its ready line (default "
        f"{READY_TIMEOUT:g}).",
    )
    group.addoption(
        "--croupier-engine-log",
        type=Path,
        metavar="FILE",
        help="Write the whole stderr of the launched engine to FILE (its last lines are shown "
        "anyway when it fails to start or dies).",
    )
    group.addoption(
        "--croupier-tls-ca",
        type=Path,
        metavar="FILE",
        help="CA of the engine's certificate: turns on TLS (as certify's --tls-ca).",
    )
    group.addoption(
        "--croupier-tls-cert",
        type=Path,
        metavar="FILE",
        help="Client certificate for mutual TLS; needs --croupier-tls-key and --croupier-tls-ca.",
    )
    group.addoption(
        "--croupier-tls-key",
        type=Path,
        metavar="FILE",
        help="Client key for mutual TLS; needs --croupier-tls-cert and --croupier-tls-ca.",
    )
    group.addoption(
        "--croupier-known-failures",
        type=Path,
        metavar="FILE",
        help="Lines 'pattern  # reason', as certify's --known-failures: a listed vector that "
        "fails is an xfail, one that passes fails; a pattern matching no vector fails the run.",
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
    try:
        choice = engine_choice(
            target=target or None,
            launch=launch or None,
            timeout=config.getoption("croupier_timeout"),
            tls_ca=config.getoption("croupier_tls_ca"),
            tls_cert=config.getoption("croupier_tls_cert"),
            tls_key=config.getoption("croupier_tls_key"),
            ready_timeout=config.getoption("croupier_ready_timeout"),
            engine_log=config.getoption("croupier_engine_log"),
            prefix="--croupier-",
        )
        start_log(choice.engine_log)
        known_file: Path | None = config.getoption("croupier_known_failures")
        known = read_known_failures(known_file) if known_file is not None else ()
    except ConfigError as exc:
        raise pytest.UsageError(str(exc)) from None
    except OSError as exc:
        raise pytest.UsageError(
            f"cannot write the engine log {exc.filename}: {exc.strerror}"
        ) from None
    engine = _Engine(choice, known)
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


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """The run's verdict line, as certify prints it, and the stale known-failure patterns.

    Only a session that played every vector of the corpus for every profile the engine claims
    (no -k, -m, -x or interruption cut it) may say "conformant"; a part says what it ran.
    """
    engine = config.stash.get(_KEY, None)
    if engine is None:
        return
    if engine.stale:
        terminalreporter.section("croupier known failures", red=True)
        for entry in engine.stale:
            terminalreporter.write_line(
                f"known failure pattern {entry.pattern!r} (line {entry.line}) matches no vector",
                red=True,
            )
    report = engine.report()
    if report is None:
        return
    terminalreporter.section("croupier")
    terminalreporter.write_line(
        f"croupier {summary_line(report)}",
        green=report.conformant,
        yellow=report.passed and not report.conformant,
        red=not report.passed,
    )


@pytest.hookimpl(tryfirst=True)  # before --junitxml writes its file
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A stale known-failure pattern fails the run, as it fails certify's.

    With ``--junitxml``, the file carries certify's verdict properties: ``croupier.conformant``
    ("true" only for a whole run), ``croupier.summary`` and ``croupier.suite_version``.
    """
    engine = session.config.stash.get(_KEY, None)
    xml = session.config.stash.get(xml_key, None)
    report = engine.report() if engine is not None else None
    if xml is not None and report is not None:
        xml.add_global_property("croupier.suite_version", SUITE_VERSION)
        xml.add_global_property("croupier.summary", summary_line(report))
        xml.add_global_property("croupier.conformant", "true" if report.conformant else "false")
    if (
        engine is not None
        and engine.stale
        and exitstatus
        in (
            pytest.ExitCode.OK,
            pytest.ExitCode.NO_TESTS_COLLECTED,
        )
    ):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


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
        if result.outcome is VectorOutcome.EXPECTED_FAIL:
            pytest.xfail(result.known_failure)
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

    def __init__(self, choice: EngineChoice, known: tuple[KnownFailure, ...]) -> None:
        self.vectors = load_corpus()
        croupier = croupier_command("croupier")
        self.config = RunConfig(
            vectors=(),
            target=choice.target,
            launch=choice.launch,
            tls=choice.tls,
            timeout=choice.timeout,
            ready_timeout=choice.ready_timeout,
            engine_log=choice.engine_log,
            concurrency=1,
            # The runner judges each result against the file (apply_known): EXPECTED_FAIL...
            known=known,
            # ... and a pattern is stale when it matches no vector of the corpus, selected or not.
            known_scope=self.vectors,
            # The reproduce command replays the vector over this run's connection and deadline.
            reproduce=lambda v: f"{croupier} certify {choice.words} --vector {shlex.quote(v.id)}",
        )
        self.stale = stale_patterns(self.config)
        # A loop of our own, run only inside items: pytest's loop-owning plugins never see it.
        self.loop = asyncio.new_event_loop()
        self.session: RunSession | None = None
        self.claimed: set[str] = set()
        self.gone: EngineUnavailableError | None = None
        self.described = engine_service_pb2.DescribeResponse()
        self.results: list[Result] = []
        self.started = time.time()

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
        self.results.append(results[0])
        return results[0]

    async def _start(self) -> RunSession:
        self.started = time.time()
        self.session, self.described = await start_session(self.config)
        self.claimed = set(self.described.profile_ids)
        return self.session

    def report(self) -> RunReport | None:
        """The vectors played so far as one run, or None when none was."""
        if not self.results:
            return None
        corpus = [loaded.vector for loaded in self.vectors]
        engine = self.session.engine if self.session is not None else None
        return RunReport(
            describe=self.described,
            results=tuple(self.results),
            unmatched_patterns=self.stale,
            certify=False,
            started=self.started,
            seconds=time.time() - self.started,
            restarts=engine.restarts if engine is not None else 0,
            corpus=claimed_count(corpus, self.claimed),
            whole=covers(corpus, self.claimed, self.results),
        )

    def close(self) -> None:
        """Close the channel and stop a launched engine."""
        if self.session is not None:
            self.loop.run_until_complete(self.session.close())
        self.loop.close()
