"""The JUnit XML report of a run (``certify --junit``): a testsuite a profile, a testcase a vector."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from xml.etree import ElementTree as ET

from croupier.conformance.inputs import inputs_lines
from croupier.conformance.reports.summary import SUITE_VERSION, summary_line
from croupier.conformance.results import Result, RunReport, VectorOutcome, failure_order


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
