"""Run reports: a summary line, a JSON Lines report and JUnit XML."""

from __future__ import annotations

import json
import platform
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from xml.etree import ElementTree as ET

from google.protobuf import json_format

from croupier import oracle
from croupier.clients.words import plural
from croupier.conformance.inputs import inputs_lines
from croupier.conformance.results import (
    BAD,
    Result,
    RunReport,
    VectorOutcome,
    by_clause,
    failure_order,
)
from croupier.conformance.since import newer, parse_version
from croupier.v1 import engine_service_pb2

#: The suite's version, written in every report's first line: Croupier's one version.
SUITE_VERSION = oracle.__version__


def summary_line(report: RunReport) -> str:
    """One line: the verdict and the count of every outcome that occurred.

    Only a whole run (every vector of the shipped corpus for every profile the engine claims)
    may say "conformant"; a passing part of it says what it ran ("passed 3 of the 5 vectors
    selected"), and no more.
    """
    counts = ", ".join(
        f"{report.count(outcome)} {outcome.value.lower().replace('_', ' ')}"
        for outcome in VectorOutcome
        if report.count(outcome)
    )
    total = len(report.results)
    waived = f"{plural(report.waived, 'known failure')} waived" if report.waived else ""
    if not report.passed:
        none = " (no vector applies to the engine)" if not report.applicable else ""
        verdict = f"NOT conformant{none}: {plural(total, 'vector')}"
    elif report.whole:
        verdict = (
            f"passed with {waived}, not conformant: {plural(total, 'vector')}"
            if waived
            else f"conformant: {plural(total, 'vector')}"
        )
    else:
        verdict = (
            f"passed {report.count(VectorOutcome.PASS)} of the {plural(total, 'vector')} selected"
        )
        verdict += f", {waived}" if waived else ""
    mode = "certify" if report.certify else "run"
    extra = f", {plural(report.restarts, 'engine restart')}" if report.restarts else ""
    unmatched = (
        f", {plural(len(report.unmatched_patterns), 'known-failure pattern')} matched nothing"
        if report.unmatched_patterns
        else ""
    )
    return (
        f"{mode}: {verdict} ({counts}){unmatched}{extra} in {report.seconds:.1f} s{_scope(report)}"
    )


def _scope(report: RunReport) -> str:
    """What a run that is not whole left out, and that it has no verdict when it passed."""
    if report.whole:
        return ""
    if report.corpus is None:
        scope = "; vector files other than the shipped corpus"
    else:
        scope = f"; the corpus holds {plural(report.corpus, 'vector')} for the engine's profiles"
    return f"{scope}: a partial run, no verdict" if report.passed else scope


def baseline_split(report: RunReport, baseline: str) -> dict[str, list[str]]:
    """The failed vectors' ids by where they stand to the ``baseline`` version a vendor names.

    ``newer``: added or changed after it (their ``since`` is later); ``older``: vectors it
    already held as they are; ``outside``: vectors of no suite version (own files, explored).
    """
    split: dict[str, list[str]] = {"newer": [], "older": [], "outside": []}
    for result in sorted(report.results, key=lambda r: r.vector_id):
        if result.outcome in BAD:
            kind = (
                "outside"
                if not result.since
                else "newer"
                if newer(result.since, baseline)
                else "older"
            )
            split[kind].append(result.vector_id)
    return split


def baseline_line(report: RunReport, baseline: str) -> str:
    """One line: how many failures come from vectors newer than ``baseline``, by version."""
    split = baseline_split(report, baseline)
    total = sum(len(ids) for ids in split.values())
    if not total:
        return f"baseline {baseline}: no failure"
    since = {r.vector_id: r.since for r in report.results}
    versions = Counter(since[vid] for vid in split["newer"])
    by_version = ", ".join(
        f"{version}: {count}"
        for version, count in sorted(versions.items(), key=lambda item: parse_version(item[0]))
    )
    parts = [
        f"{len(split['newer'])} from vectors added or changed after {baseline}"
        + (f" ({by_version}; docs/CHANGES.md lists the changes)" if by_version else ""),
        f"{len(split['older'])} from vectors {baseline} already had",
    ]
    if split["outside"]:
        parts.append(f"{len(split['outside'])} from vectors outside the suite's corpus")
    return f"baseline {baseline}: {plural(total, 'failure')}: {', '.join(parts)}"


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


def failing_clauses(report: RunReport) -> list[dict[str, object]]:
    """Each clause that failures blame, with their count and ids, first failure first."""
    groups = by_clause(
        (r.clause, r.hand_written, r.vector_id) for r in report.results if r.outcome in BAD
    )
    return [
        {"clause": g.clause, "failures": len(g.vector_ids), "vectors": list(g.vector_ids)}
        for g in groups
    ]


def failing_clauses_line(report: RunReport) -> str:
    """One line naming each failing clause, its count and its first failure; empty if none."""
    parts = [
        f"{entry['clause'] or '(no clause)'} {plural(int(str(entry['failures'])), 'failure')} "
        f"(first {_first(entry)})"
        for entry in failing_clauses(report)
    ]
    return f"failing clauses: {'; '.join(parts)}" if parts else ""


def _first(entry: Mapping[str, object]) -> str:
    vectors = entry["vectors"]
    return str(vectors[0]) if isinstance(vectors, list) and vectors else ""


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


def write_junit(path: Path, report: RunReport, *, stopped: str = "") -> None:
    """JUnit XML: one testsuite per profile, one testcase per vector, totals on the root.

    Times are wall clock: vectors run concurrently, so a suite's time is the span from its
    first vector's start to its last one's end, and the root's is the whole run's. Each suite's
    properties carry the run's verdict as the JSONL trailer does: ``croupier.summary``, and
    ``croupier.conformant``, "true" only for a whole run that passed and waived nothing
    (``stopped`` says why a run ended early: it is then never conformant).
    """
    verdict = {
        "croupier.suite_version": SUITE_VERSION,
        "croupier.summary": stopped or summary_line(report),
        "croupier.conformant": "true" if report.conformant and not stopped else "false",
    }
    by_profile: dict[str, list[Result]] = defaultdict(list)
    for result in report.results:
        by_profile[result.profile_id].append(result)
    suites = ET.Element("testsuites", name="croupier-conformance")
    totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    for profile_id in sorted(by_profile):
        results = sorted(by_profile[profile_id], key=failure_order)
        counts = {
            "tests": len(results),
            "failures": sum(_junit_kind(r) == "failure" for r in results),
            "errors": sum(_junit_kind(r) == "error" for r in results),
            "skipped": sum(_junit_kind(r) == "skipped" for r in results),
        }
        first = min(r.started for r in results)
        span = max(r.started + r.seconds for r in results) - first
        attributes = {key: str(value) for key, value in counts.items()}
        suite = ET.SubElement(
            suites,
            "testsuite",
            attributes,
            name=profile_id,
            time=f"{span:.3f}",
            timestamp=_timestamp(report.started + first),
        )
        properties = ET.SubElement(suite, "properties")
        for prop, text in verdict.items():
            ET.SubElement(properties, "property", name=prop, value=text)
        for key, value in counts.items():
            totals[key] += value
        for result in results:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=profile_id,
                name=f"{result.vector_id} {result.name}",
                time=f"{result.seconds:.4f}",
            )
            kind = _junit_kind(result)
            message = result.message or result.known_failure or result.outcome.value
            if kind == "skipped":
                ET.SubElement(case, "skipped", message=message)
            elif kind:
                ET.SubElement(case, kind, message=message, type=result.outcome.value).text = (
                    f"{result.step}: clause {result.clause}: {result.path}: expected "
                    f"{result.expected}, got {result.actual}\n{result.message}\n"
                    + "".join(f"{line}\n" for line in inputs_lines(result.inputs or {}))
                    + f"reproduce: {result.reproduce}"
                )
    for key, value in totals.items():
        suites.set(key, str(value))
    suites.set("time", f"{report.seconds:.3f}")
    suites.set("timestamp", _timestamp(report.started))
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)


def _junit_kind(result: Result) -> str:
    """The JUnit element an outcome becomes: failure, error, skipped, or none for a pass."""
    match result.outcome:
        case VectorOutcome.FAIL | VectorOutcome.UNEXPECTED_PASS:
            return "failure"
        case VectorOutcome.ERROR | VectorOutcome.CRASH | VectorOutcome.TIMEOUT:
            return "error"
        case VectorOutcome.NOT_APPLICABLE | VectorOutcome.EXPECTED_FAIL:
            return "skipped"
        case VectorOutcome.PASS:
            return ""


def _timestamp(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, tz=UTC).isoformat(timespec="seconds")
