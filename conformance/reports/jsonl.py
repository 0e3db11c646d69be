"""The JSON Lines report of a run (``certify --report``): a header, a line a vector, a trailer."""

from __future__ import annotations

import json
import platform
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

from google.protobuf import json_format

from croupier.conformance.reports.summary import (
    SUITE_VERSION,
    baseline_line,
    baseline_split,
    failing_clauses,
    summary_line,
)
from croupier.conformance.results import Result, RunReport, VectorOutcome, failure_order
from croupier.v1 import engine_service_pb2


def _result_dict(result: Result) -> dict[str, object]:
    data: dict[str, object] = {
        "id": result.vector_id,
        "name": result.name,
        "profile": result.profile_id,
        "level": result.level,
        "outcome": result.outcome.value,
        "seconds": round(result.seconds, 4),
    }
    for key in (
        "step",
        "clause",
        "path",
        "expected",
        "actual",
        "message",
        "reproduce",
        "known_failure",
        "since",
    ):
        value = getattr(result, key)
        if value:
            data[key] = value
    if result.clauses:
        data["clauses"] = list(result.clauses)
    if result.hand_written:
        data["hand_written"] = True
    if result.inputs is not None:
        data["inputs"] = dict(result.inputs)
    return data


class JsonlReport:
    """The JSON Lines report, written as the run goes, so an interrupted run leaves one.

    First line: suite version, corpus hash, the engine's Describe and how it was reached, start
    time (and the ``--baseline`` named). Then one line
    a vector, in the order they finish, each flushed at once. Last line: the verdict and the
    counts, with ``complete`` false when the run was interrupted or the engine went away.
    """

    def __init__(
        self,
        path: Path,
        corpus_hash: str,
        *,
        certify: bool,
        baseline: str = "",
        engine_command: str = "",
        lab_profiles: Sequence[Mapping[str, object]] = (),
    ) -> None:
        self.path = path
        #: The lab profiles whose corpus the run plays (``certify --profile-file``): file, id,
        #: digest, extends and the parameters that differ from it.
        self._lab_profiles = list(lab_profiles)
        #: How the run reached the engine (``--target ...`` or ``--launch ...``): two engines
        #: that describe themselves alike still read apart.
        self._engine_command = engine_command
        #: The version a vendor compares against (``--baseline``), or empty.
        self._baseline = baseline
        # Opened at once: a report that cannot be written is found before the run, not after.
        self._out = path.open("w", encoding="utf-8")
        self._corpus_hash = corpus_hash
        self._certify = certify
        self._headed = False

    def start(self, describe: engine_service_pb2.DescribeResponse, started: float) -> None:
        """The header line, once the engine has described itself."""
        self._write(
            {
                "suite_version": SUITE_VERSION,
                "corpus_hash": self._corpus_hash,
                "engine": json_format.MessageToDict(describe),
                "time": datetime.fromtimestamp(started, tz=UTC).isoformat(),
                "certify": self._certify,
                "host": platform.node(),
                **({"engine_command": self._engine_command} if self._engine_command else {}),
                **({"baseline": self._baseline} if self._baseline else {}),
                **({"lab_profiles": self._lab_profiles} if self._lab_profiles else {}),
            }
        )
        self._headed = True

    def add(self, result: Result) -> None:
        """One finished vector."""
        self._write(_result_dict(result))

    def coverage(self, data: Mapping[str, object]) -> None:
        """One explored profile's coverage (``certify --explore``): an ``explore_coverage`` line."""
        self._write({"explore_coverage": dict(data)})

    def finish(self, report: RunReport, *, stopped: str = "") -> None:
        """The trailer, then close. ``stopped`` says why a run ended early (it is then partial)."""
        if not self._headed:
            self.start(report.describe, report.started)
        trailer: dict[str, object] = {
            "summary": stopped or summary_line(report),
            "complete": not stopped,
            "conformant": report.conformant and not stopped,
            "passed": report.passed and not stopped,
            # A run of every vector of the shipped corpus (or of the lab profiles' corpus, with
            # --profile-file) for every profile the engine claims.
            "whole_corpus": report.whole and not stopped,
            "corpus_vectors": report.corpus,
            "waived": report.waived,
            "counts": {o.value: report.count(o) for o in VectorOutcome},
            "unmatched_known_failures": [
                {"pattern": k.pattern, "line": k.line} for k in report.unmatched_patterns
            ],
            # The failures by the clause they break, hand-written vectors first: the page's
            # summary and the console's order.
            "failing_clauses": failing_clauses(report),
        }
        if self._baseline:
            trailer["baseline"] = {
                "version": self._baseline,
                "summary": baseline_line(report, self._baseline),
                **baseline_split(report, self._baseline),
            }
        self._write(trailer)
        self._out.close()

    def _write(self, data: dict[str, object]) -> None:
        self._out.write(json.dumps(data) + "\n")
        self._out.flush()


def write_jsonl(path: Path, report: RunReport, corpus_hash: str) -> None:
    """The whole JSON Lines report of a finished run at once (see ``JsonlReport``)."""
    stream = JsonlReport(path, corpus_hash, certify=report.certify)
    stream.start(report.describe, report.started)
    for result in sorted(report.results, key=failure_order):
        stream.add(result)
    stream.finish(report)
