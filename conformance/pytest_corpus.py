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
controller, which prints the verdict.

The session ends with certify's summary line: "conformant" only when every vector of the
corpus for every profile the engine claims was played; a session cut by -k, -m, -x or an
interruption says what it ran ("passed N of the M vectors selected").
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import shlex
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from _pytest._code.code import ReprEntryNative, ReprExceptionInfo, ReprFileLocation, ReprTraceback
from _pytest.junitxml import xml_key

from croupier.conformance.cli.common import EngineChoice, engine_choice
from croupier.conformance.engine import start_log
from croupier.conformance.invocation import croupier_command
from croupier.conformance.known import read_known_failures
from croupier.conformance.pytest_plugin import CORPUS_PLUGIN
from croupier.conformance.reports.summary import SUITE_VERSION, summary_line
from croupier.conformance.results import (
    BAD,
    ConfigError,
    KnownFailure,
    Result,
    RunReport,
    VectorOutcome,
    claimed_count,
    covers,
)
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

#: Where an engine's answers to one vector ride from an xdist worker to the controller: extra
#: attributes of a TestReport travel with it (pytest serializes its ``__dict__``).
_RESULT = "croupier_result"
_ENGINE = "croupier_engine"


def marker_names(vector: vector_pb2.Vector) -> list[str]:
    """The markers of one vector: its profile, its level and each of its clauses."""
    level = vector_pb2.Level.Name(vector.level).removeprefix("LEVEL_").lower()
    return [
        f"profile_{vector.profile_id}",
        f"level_{level}",
        *(f"clause_{clause}" for clause in vector.clauses),
    ]


def _choice(config: pytest.Config) -> tuple[EngineChoice, tuple[KnownFailure, ...]]:
    """The engine and known failures the options name, checked as certify checks them."""
    try:
        choice = engine_choice(
            target=config.getoption("croupier_target") or None,
            launch=config.getoption("croupier_launch") or None,
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
    return choice, known


class CorpusPlugin:
    """The corpus as items, the engine they run against, and certify's verdict at the end."""

    def __init__(self, config: pytest.Config) -> None:
        choice, known = _choice(config)
        self.engine = _Engine(choice, known)
        # The xdist controller plays nothing: its workers do, and their reports come here.
        self.controller = config.pluginmanager.hasplugin("dsession")
        self.results: list[Result] = []
        self.described = engine_service_pb2.DescribeResponse()
        self.restarts: dict[str, int] = {}
        self.started = time.time()
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

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool | None:
        """Start the engine before the first vector: one that cannot be had ends the session.

        Certify's message, and its exit code 3; nothing starts for --collect-only, for a
        selection without vectors, or in the xdist controller (each worker starts its own).
        """
        if self.controller or session.config.option.collectonly:
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
        """Put the vector's result and the engine's description on the call's report."""
        report = yield
        result = getattr(item, "result", None)
        if isinstance(result, Result) and report.when == "call":
            fields = dataclasses.asdict(result)
            fields["outcome"] = result.outcome.value
            setattr(report, _RESULT, fields)
            setattr(report, _ENGINE, self.engine.state())
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Keep each vector's result, here or from an xdist worker."""
        fields = getattr(report, _RESULT, None)
        engine = getattr(report, _ENGINE, None)
        if not isinstance(fields, dict) or not isinstance(engine, dict):
            return
        fields = {**fields, "outcome": VectorOutcome(fields["outcome"])}
        fields["clauses"] = tuple(fields["clauses"])
        self.results.append(Result(**fields))
        if not self.described.name:
            self.described = engine_service_pb2.DescribeResponse.FromString(
                bytes.fromhex(engine["describe"])
            )
        self.restarts[engine["worker"]] = engine["restarts"]

    def report(self) -> RunReport | None:
        """The vectors played so far as one run, or None when none was."""
        if not self.results:
            return None
        corpus = [loaded.vector for loaded in self.engine.vectors]
        claimed = set(self.described.profile_ids)
        return RunReport(
            describe=self.described,
            results=tuple(self.results),
            unmatched_patterns=self.engine.stale,
            certify=False,
            started=self.started,
            seconds=time.time() - self.started,
            restarts=sum(self.restarts.values()),
            corpus=claimed_count(corpus, claimed),
            # The plugin plays no recovery vector (it restarts no engine): an engine that
            # claims recovery gets its verdict from croupier certify --launch.
            whole=covers(corpus, claimed, self.results) and not self.described.recovery,
        )

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        """The run's verdict line, as certify prints it, and the stale known-failure patterns.

        Only a session that played every vector of the corpus for every profile the engine
        claims (no -k, -m, -x or interruption cut it) may say "conformant"; a part says what
        it ran.
        """
        if self.engine.stale:
            terminalreporter.section("croupier known failures", red=True)
            for entry in self.engine.stale:
                terminalreporter.write_line(
                    f"known failure pattern {entry.pattern!r} (line {entry.line}) matches no vector",
                    red=True,
                )
        report = self.report()
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
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """A stale known-failure pattern fails the run, as it fails certify's.

        With ``--junitxml``, the file carries certify's verdict properties:
        ``croupier.conformant`` ("true" only for a whole run), ``croupier.summary`` and
        ``croupier.suite_version``.
        """
        xml = session.config.stash.get(xml_key, None)
        report = self.report()
        if xml is not None and report is not None:
            xml.add_global_property("croupier.suite_version", SUITE_VERSION)
            xml.add_global_property("croupier.summary", summary_line(report))
            xml.add_global_property("croupier.conformant", "true" if report.conformant else "false")
        if self.engine.stale and exitstatus in (
            pytest.ExitCode.OK,
            pytest.ExitCode.NO_TESTS_COLLECTED,
        ):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

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

    def state(self) -> dict[str, Any]:
        """What the verdict needs of this process's engine: its description and restarts."""
        engine = self.session.engine if self.session is not None else None
        return {
            "describe": self.described.SerializeToString().hex(),
            "restarts": engine.restarts if engine is not None else 0,
            "worker": str(os.getpid()),
        }

    def close(self) -> None:
        """Close the channel and stop a launched engine."""
        if self.session is not None:
            self.loop.run_until_complete(self.session.close())
        self.loop.close()
