"""Run reports: a summary line, a JSON Lines report and JUnit XML."""

from __future__ import annotations

import json
import platform
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from xml.etree import ElementTree as ET

from google.protobuf import json_format

from conformance.results import Result, RunReport, VectorOutcome

#: The suite's version, written in every report's first line.
SUITE_VERSION = "1.0.0"


def summary_line(report: RunReport) -> str:
    """One line: the verdict and the count of every outcome that occurred."""
    counts = ", ".join(
        f"{report.count(outcome)} {outcome.value.lower().replace('_', ' ')}"
        for outcome in VectorOutcome
        if report.count(outcome)
    )
    if report.conformant:
        verdict = "conformant"
    elif report.passed:
        verdict = f"passed with {report.waived} known failure(s) waived, not conformant"
    elif not report.applicable:
        verdict = "NOT conformant (no vector applies to the engine)"
    else:
        verdict = "NOT conformant"
    mode = "certify" if report.certify else "run"
    extra = f", {report.restarts} engine restart(s)" if report.restarts else ""
    unmatched = (
        f", {len(report.unmatched_patterns)} known-failure pattern(s) matched nothing"
        if report.unmatched_patterns
        else ""
    )
    return (
        f"{mode}: {verdict}: {len(report.results)} vectors ({counts}){unmatched}{extra} "
        f"in {report.seconds:.1f} s"
    )


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
    ):
        value = getattr(result, key)
        if value:
            data[key] = value
    return data


def write_jsonl(path: Path, report: RunReport, corpus_hash: str) -> None:
    """First line: suite version, corpus hash, the engine's Describe, time; then one line a vector."""
    header = {
        "suite_version": SUITE_VERSION,
        "corpus_hash": corpus_hash,
        "engine": json_format.MessageToDict(report.describe),
        "time": datetime.fromtimestamp(report.started, tz=UTC).isoformat(),
        "certify": report.certify,
        "conformant": report.conformant,
        "passed": report.passed,
        "waived": report.waived,
        "host": platform.node(),
    }
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(header) + "\n")
        for result in sorted(report.results, key=lambda r: r.vector_id):
            out.write(json.dumps(_result_dict(result)) + "\n")
        out.write(
            json.dumps(
                {
                    "summary": summary_line(report),
                    "counts": {o.value: report.count(o) for o in VectorOutcome},
                    "unmatched_known_failures": [
                        {"pattern": k.pattern, "line": k.line} for k in report.unmatched_patterns
                    ],
                }
            )
            + "\n"
        )


def write_junit(path: Path, report: RunReport) -> None:
    """JUnit XML: one testsuite per profile, one testcase per vector."""
    by_profile: dict[str, list[Result]] = defaultdict(list)
    for result in report.results:
        by_profile[result.profile_id].append(result)
    suites = ET.Element("testsuites", name="croupier-conformance")
    for profile_id in sorted(by_profile):
        results = sorted(by_profile[profile_id], key=lambda r: r.vector_id)
        failures = sum(
            r.outcome in (VectorOutcome.FAIL, VectorOutcome.UNEXPECTED_PASS) for r in results
        )
        errors = sum(
            r.outcome in (VectorOutcome.ERROR, VectorOutcome.CRASH, VectorOutcome.TIMEOUT)
            for r in results
        )
        skipped = sum(
            r.outcome in (VectorOutcome.NOT_APPLICABLE, VectorOutcome.EXPECTED_FAIL)
            for r in results
        )
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=profile_id,
            tests=str(len(results)),
            failures=str(failures),
            errors=str(errors),
            skipped=str(skipped),
            time=f"{sum(r.seconds for r in results):.3f}",
        )
        for result in results:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=profile_id,
                name=f"{result.vector_id} {result.name}",
                time=f"{result.seconds:.4f}",
            )
            detail = (
                f"{result.step}: clause {result.clause}: {result.path}: expected {result.expected}, "
                f"got {result.actual}\n{result.message}\nreproduce: {result.reproduce}"
            )
            match result.outcome:
                case VectorOutcome.FAIL | VectorOutcome.UNEXPECTED_PASS:
                    ET.SubElement(
                        case,
                        "failure",
                        message=result.message or result.outcome.value,
                        type=result.outcome.value,
                    ).text = detail
                case VectorOutcome.ERROR | VectorOutcome.CRASH | VectorOutcome.TIMEOUT:
                    ET.SubElement(
                        case,
                        "error",
                        message=result.message or result.outcome.value,
                        type=result.outcome.value,
                    ).text = detail
                case VectorOutcome.NOT_APPLICABLE | VectorOutcome.EXPECTED_FAIL:
                    ET.SubElement(
                        case,
                        "skipped",
                        message=result.message or result.known_failure or result.outcome.value,
                    )
                case VectorOutcome.PASS:
                    pass
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)
