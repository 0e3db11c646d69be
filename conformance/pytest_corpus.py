"""The corpus plugin, registered by ``conformance.pytest_plugin`` when given an engine.

Each vector is one item whose name is the vector id; markers carry the profile, level
and clauses in their names (``profile_blackjack-a``, ``level_required``,
``clause_BJ.nat-pays``), because ``-m`` selects by marker name, never by argument. The engine
is launched (or reached) once, before the first selected item runs, and stopped at the end;
only the selected vectors run, one per item, through the conformance runner. An engine that
cannot be reached or launched is one session error with certify's message (exit code 3, as
certify's), not a failure per item; one lost during the run fails its item and stops the
session.

``--croupier-ready-timeout`` and ``--croupier-engine-log`` are certify's ``--ready-timeout``
and ``--engine-log``: a launched engine that fails to start or dies shows its last stderr
lines. ``--croupier-tls-*`` reach the engine over TLS as certify's ``--tls-*`` do (the same checks,
the same channel). ``--croupier-known-failures FILE`` reads certify's ``--known-failures``
file: a listed vector that fails is an xfail with the file's reason, one that passes a
failure (UNEXPECTED_PASS), and a pattern that matches no vector of the corpus fails the run.

Under pytest-xdist (``-n 2``) each worker loads the corpus (a fraction of a second) and
launches or reaches its own engine; each vector's result rides on its test report to the
controller, which loads no corpus and prints the verdict (``conformance.pytest_verdict``).

The session ends with certify's summary line: "conformant" only when every vector of the
corpus for every profile the engine claims was played; a session cut by -k, -m, -x or an
interruption says what it ran ("passed N of the M vectors selected").
"""

from __future__ import annotations

import asyncio
import gc
import shlex
from collections.abc import Generator
from typing import Any

import pytest
from _pytest._code.code import ReprEntryNative, ReprExceptionInfo, ReprFileLocation, ReprTraceback

from croupier.conformance.choice import EngineChoice
from croupier.conformance.invocation import croupier_command
from croupier.conformance.pytest_plugin import CORPUS_PLUGIN
from croupier.conformance.pytest_verdict import RESULT, EngineFacts, Verdict, choice, result_fields
from croupier.conformance.results import BAD, KnownFailure, Result, VectorOutcome, claimed_count
from croupier.conformance.runner import (
    EngineUnavailableError,
    RunConfig,
    RunSession,
    stale_patterns,
    start_session,
)
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import LoadedVector, load_corpus
from croupier.v1 import engine_service_pb2


def marker_names(vector: vector_pb2.Vector) -> list[str]:
    """The markers of one vector: its profile, its level and each of its clauses."""
    level = vector_pb2.Level.Name(vector.level).removeprefix("LEVEL_").lower()
    return [
        f"profile_{vector.profile_id}",
        f"level_{level}",
        *(f"clause_{clause}" for clause in vector.clauses),
    ]


class CorpusPlugin(Verdict):
    """The corpus as items, the engine they run against, and certify's verdict at the end.

    Registered in a serial run and in each xdist worker (``ControllerPlugin`` in the
    controller, which plays nothing).
    """

    def __init__(self, config: pytest.Config) -> None:
        engine, known = choice(config)
        super().__init__(known)
        self.engine = _Engine(engine, known)
        config.addinivalue_line("markers", "croupier: a vector of the Croupier conformance corpus")
        names = sorted(
            {name for loaded in self.engine.vectors for name in marker_names(loaded.vector)}
        )
        for name in names:
            config.addinivalue_line(
                "markers", f"{name}: Croupier vectors of this profile, level or clause"
            )

    @pytest.hookimpl(tryfirst=True)  # before -k and -m deselect: they must see the vectors
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        """Append one item per corpus vector."""
        corpus = CorpusCollector.from_parent(session, name="croupier", nodeid="croupier")
        vectors: list[pytest.Item | pytest.Collector] = []
        # One decorator per marker name: add_marker("name") looks the name up each time.
        marks: dict[str, pytest.MarkDecorator] = {}
        for loaded in self.engine.vectors:
            item = VectorItem.from_parent(corpus, name=loaded.vector.id, loaded=loaded)
            for name in ("croupier", *marker_names(loaded.vector)):
                mark = marks.get(name)
                if mark is None:
                    mark = marks[name] = getattr(pytest.mark, name)
                item.add_marker(mark)
            vectors.append(item)
            items.append(item)
        # So that the terminal's "collected N items" counts the vectors.
        config.hook.pytest_collectreport(
            report=pytest.CollectReport("croupier", "passed", None, vectors)
        )

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """In an xdist worker, keep what lives until the end out of the garbage collector's way.

        A worker's process ends with its session: the modules, the corpus and the items are
        frozen (``gc.freeze``), so that neither the collections during the run nor pytest's at
        its end (``gc.collect`` five times) nor the interpreter's on exit walk them again; the
        controller waits for each worker's process to end (a few seconds of a loaded machine's
        wall time). A serial run's process may outlive its session (pytest run in process):
        nothing is frozen there.
        """
        if hasattr(session.config, "workerinput"):
            gc.freeze()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool | None:
        """Start the engine before the first vector: one that cannot be had ends the session.

        Certify's message, and its exit code 3; nothing starts for --collect-only or for a
        selection without vectors. Each xdist worker starts its own.
        """
        if session.config.option.collectonly:
            return None
        if not any(isinstance(item, VectorItem) for item in session.items):
            return None
        try:
            self.engine.start()
        except EngineUnavailableError as exc:
            if hasattr(session.config, "workerinput"):
                # An xdist worker: its controller stops the session with this message (and
                # "Interrupted", exit code 2); exiting here would read as a crashed worker.
                session.shouldstop = f"croupier: {exc}"
                return True
            pytest.exit(f"croupier: {exc}", returncode=3)
        return None

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        """Put the vector's result on the call's report (an xdist worker's reaches the controller)."""
        report = yield
        result = getattr(item, "result", None)
        if isinstance(result, Result) and report.when == "call":
            setattr(report, RESULT, result_fields(result))
        return report

    def facts(self) -> list[EngineFacts]:
        """This process's engine and corpus."""
        return [self.engine.facts()]

    def played(self) -> None:
        """Stop a launched engine now: it shuts down while pytest writes its summary.

        Under xdist the controller waits for each worker's process to end.
        """
        self.engine.terminate()

    def pytest_unconfigure(self) -> None:
        """Stop a launched engine and close the loop."""
        self.engine.close()


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
        self.result: Result | None = None
        # -k matches the vector's name and profile too, not only its id.
        self.extra_keyword_matches.update({loaded.vector.name, loaded.vector.profile_id})

    def runtest(self) -> None:
        """Play the vector against the session's engine and judge it."""
        plugin = self.config.pluginmanager.get_plugin(CORPUS_PLUGIN)
        assert isinstance(plugin, CorpusPlugin)  # noqa: S101 - it made this item
        try:
            result = plugin.engine.play(self.loaded)
        except EngineUnavailableError as exc:
            # The vectors left would all fail against nothing: the session stops here.
            self.session.shouldstop = f"croupier: {exc}"
            raise
        self.result = result
        if result.outcome is VectorOutcome.NOT_APPLICABLE:
            pytest.skip(result.message)
        if result.outcome is VectorOutcome.EXPECTED_FAIL:
            pytest.xfail(result.known_failure)
        if result.outcome in BAD:
            raise VectorFailedError(result)

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None
    ) -> str | Any:
        """A failed vector as the runner reports it: clause, step, path, expected, actual.

        The one-line summary (``-ra``'s "FAILED croupier::ID - ...") names the clause, path,
        expected and actual values too.
        """
        if isinstance(excinfo.value, VectorFailedError):
            result = excinfo.value.result
            path, line, _ = self.reportinfo()
            return ReprExceptionInfo(
                reprtraceback=ReprTraceback(
                    [ReprEntryNative([failure_text(result) + "\n"])], None, "native"
                ),
                reprcrash=ReprFileLocation(str(path), int(line or 0) + 1, summary(result)),
            )
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


def summary(result: Result) -> str:
    """A failure in one line: clause, path, expected and actual (or the message).

    The outcome leads when it is not a plain FAIL (``TIMEOUT CONTRACT.timeout ...``).
    """
    words = [
        "" if result.outcome is VectorOutcome.FAIL else result.outcome.value,
        result.clause,
        f"{result.path}:" if result.path else "",
    ]
    if result.expected or result.actual:
        words.append(
            f"expected {result.expected or '(nothing)'}, actual {result.actual or '(nothing)'}"
        )
    elif result.message:
        words.append(result.message.splitlines()[0])
    return " ".join(word for word in words if word)


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
        self.described = engine_service_pb2.DescribeResponse()

    def start(self) -> None:
        """Launch or reach the engine and have it describe itself (``EngineUnavailableError``)."""
        if self.session is None:
            self.session, self.described = self.loop.run_until_complete(start_session(self.config))
            self.claimed = set(self.described.profile_ids)

    def play(self, loaded: LoadedVector) -> Result:
        """One vector's result; the engine is started first if it is not yet."""
        self.start()
        assert self.session is not None  # noqa: S101 - start() set it or raised
        (result,) = self.loop.run_until_complete(self.session.play([loaded], self.claimed))
        return result

    def facts(self) -> EngineFacts:
        """What the verdict needs of this process's engine and corpus."""
        started = self.session is not None
        known = self.config.known
        return EngineFacts(
            described=self.described,
            restarts=self.session.engine.restarts
            if self.session is not None and self.session.engine is not None
            else 0,
            corpus=claimed_count([v.vector for v in self.vectors], self.claimed)
            if started
            else None,
            stale=tuple(index for index, entry in enumerate(known) if entry in self.stale),
        )

    def terminate(self) -> None:
        """Have a launched engine shut down, without waiting (``close`` reaps it)."""
        if self.session is not None and self.session.engine is not None:
            self.session.engine.terminate()

    def close(self) -> None:
        """Close the channel and stop a launched engine."""
        if self.session is not None:
            self.loop.run_until_complete(self.session.close())
        self.loop.close()
