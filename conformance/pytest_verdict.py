"""Certify's verdict on a pytest run of the corpus, from the reports of the vectors played.

The part of the corpus plugin that plays nothing, and all that pytest-xdist's controller
registers: its workers load the corpus and play it, so the controller imports neither the
runner nor the vectors, and loads no corpus. Each call's report carries its vector's result
(pytest serializes a report's ``__dict__`` from worker to controller). What the verdict needs
of the engine and the corpus besides (the engine's description, its restarts, how many
vectors the corpus holds for the profiles it claims, the known-failure patterns that match
no vector) is the process's own in a serial run, and each worker's ``workeroutput`` under
xdist, sent once when the worker finishes.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _pytest.junitxml import xml_key

from croupier.conformance.choice import EngineChoice, engine_choice
from croupier.conformance.engine import start_log
from croupier.conformance.known import read_known_failures
from croupier.conformance.reports.summary import SUITE_VERSION, summary_line
from croupier.conformance.results import ConfigError, KnownFailure, Result, RunReport, VectorOutcome
from croupier.v1 import engine_service_pb2

#: Where a vector's result rides on its call's report, and a worker's facts in its
#: ``workeroutput``.
RESULT = "croupier_result"
FACTS = "croupier"


def choice(config: pytest.Config) -> tuple[EngineChoice, tuple[KnownFailure, ...]]:
    """The engine and known failures the options name, checked as certify checks them."""
    try:
        engine = engine_choice(
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
        # Emptied once: by the controller under xdist, its workers' engines append to it.
        if not hasattr(config, "workerinput"):
            start_log(engine.engine_log)
        known_file: Path | None = config.getoption("croupier_known_failures")
        known = read_known_failures(known_file) if known_file is not None else ()
    except ConfigError as exc:
        raise pytest.UsageError(str(exc)) from None
    except OSError as exc:
        raise pytest.UsageError(
            f"cannot write the engine log {exc.filename}: {exc.strerror}"
        ) from None
    return engine, known


def result_fields(result: Result) -> dict[str, Any]:
    """A result as plain data, for its report."""
    fields = dataclasses.asdict(result)
    fields["outcome"] = result.outcome.value
    return fields


def result_of(fields: dict[str, Any]) -> Result:
    """The result ``result_fields`` made plain."""
    fields = {**fields, "outcome": VectorOutcome(fields["outcome"])}
    fields["clauses"] = tuple(fields["clauses"])
    return Result(**fields)


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineFacts:
    """What the verdict needs of one process's engine and corpus, besides the results."""

    #: The engine's Describe; empty when the process never started its engine.
    described: engine_service_pb2.DescribeResponse
    restarts: int
    #: How many vectors of the corpus are of a profile the engine claims (None: not started).
    corpus: int | None
    #: The known-failure entries (their indexes in the file) that match no vector of the corpus.
    stale: tuple[int, ...]

    def plain(self) -> dict[str, Any]:
        """The facts as the plain data a worker's ``workeroutput`` carries."""
        return {
            "describe": self.described.SerializeToString().hex(),
            "restarts": self.restarts,
            "corpus": self.corpus,
            "stale": list(self.stale),
        }

    @classmethod
    def of(cls, plain: dict[str, Any]) -> EngineFacts:
        """The facts ``plain`` made plain."""
        return cls(
            described=engine_service_pb2.DescribeResponse.FromString(
                bytes.fromhex(plain["describe"])
            ),
            restarts=int(plain["restarts"]),
            corpus=plain["corpus"],
            stale=tuple(plain["stale"]),
        )


class Verdict:
    """The results of the vectors played, here or by xdist workers, and certify's verdict."""

    def __init__(self, known: tuple[KnownFailure, ...]) -> None:
        self.known = known
        self.results: list[Result] = []
        self.started = time.time()

    def facts(self) -> list[EngineFacts]:
        """The facts of each engine of the run (one per process that played)."""
        raise NotImplementedError

    def played(self) -> None:
        """The session's last vector was played (nothing to do where none is)."""

    def stale(self) -> tuple[KnownFailure, ...]:
        """The known-failure patterns that match no vector of the corpus: they fail the run."""
        facts = self.facts()
        return tuple(self.known[index] for index in facts[0].stale) if facts else ()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Keep each vector's result, here or from an xdist worker."""
        fields = getattr(report, RESULT, None)
        if isinstance(fields, dict):
            self.results.append(result_of(fields))

    def report(self) -> RunReport | None:
        """The vectors played so far as one run, or None when none was."""
        if not self.results:
            return None
        facts = self.facts()
        started = next((fact for fact in facts if fact.corpus is not None), None)
        described = started.described if started else engine_service_pb2.DescribeResponse()
        corpus = started.corpus if started is not None and started.corpus is not None else 0
        claimed = set(described.profile_ids)
        # Every vector of the corpus for a claimed profile has a result (ids are unique).
        played = {r.vector_id for r in self.results if r.profile_id in claimed}
        return RunReport(
            describe=described,
            results=tuple(self.results),
            unmatched_patterns=self.stale(),
            certify=False,
            started=self.started,
            seconds=time.time() - self.started,
            restarts=sum(fact.restarts for fact in facts),
            corpus=corpus,
            # The plugin plays no recovery vector (it restarts no engine): an engine that
            # claims recovery gets its verdict from croupier certify --launch.
            whole=started is not None and len(played) == corpus and not described.recovery,
        )

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        """The run's verdict line, as certify prints it, and the stale known-failure patterns.

        Only a session that played every vector of the corpus for every profile the engine
        claims (no -k, -m, -x or interruption cut it) may say "conformant"; a part says what
        it ran.
        """
        stale = self.stale()
        if stale:
            terminalreporter.section("croupier known failures", red=True)
            for entry in stale:
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
        ``croupier.suite_version``. An xdist worker sends its facts to the controller.
        """
        self.played()
        output = getattr(session.config, "workeroutput", None)
        if isinstance(output, dict):
            output[FACTS] = [fact.plain() for fact in self.facts()]
        xml = session.config.stash.get(xml_key, None)
        report = self.report()
        if xml is not None and report is not None:
            xml.add_global_property("croupier.suite_version", SUITE_VERSION)
            xml.add_global_property("croupier.summary", summary_line(report))
            xml.add_global_property("croupier.conformant", "true" if report.conformant else "false")
        if self.stale() and exitstatus in (
            pytest.ExitCode.OK,
            pytest.ExitCode.NO_TESTS_COLLECTED,
        ):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


class ControllerPlugin(Verdict):
    """The plugin in pytest-xdist's controller: the options checked, the workers' verdict.

    A bad option is one usage error here, before any worker starts.
    """

    def __init__(self, config: pytest.Config) -> None:
        _, known = choice(config)
        super().__init__(known)
        self.workers: dict[str, list[EngineFacts]] = {}

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any) -> None:
        """Keep a finished worker's facts (a worker that crashed sent none)."""
        output = getattr(node, "workeroutput", None)
        facts = output.get(FACTS) if isinstance(output, dict) else None
        if isinstance(facts, list):
            self.workers[str(node.gateway.id)] = [EngineFacts.of(plain) for plain in facts]

    def facts(self) -> list[EngineFacts]:
        """Every finished worker's facts, in the order of their names."""
        return [fact for name in sorted(self.workers) for fact in self.workers[name]]
