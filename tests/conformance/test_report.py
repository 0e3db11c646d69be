"""Reports of a run, from results made by hand: JUnit totals and wall-clock times, JSONL."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from croupier.conformance.reports.jsonl import JsonlReport, write_jsonl
from croupier.conformance.reports.junit import write_junit
from croupier.conformance.reports.summary import SUITE_VERSION, summary_line
from croupier.conformance.results import Result, RunReport, VectorOutcome
from croupier.v1 import engine_service_pb2


def _result(vector_id: str, outcome: VectorOutcome, started: float, seconds: float) -> Result:
    return Result(
        vector_id=vector_id,
        name=f"blackjack-a/{vector_id}",
        profile_id="blackjack-a",
        level="LEVEL_REQUIRED",
        outcome=outcome,
        started=started,
        seconds=seconds,
    )


#: Two vectors that ran side by side for 2 s each, then one for 1 s: 3 s of wall clock.
RESULTS = (
    _result("v1", VectorOutcome.PASS, 0.0, 2.0),
    _result("v2", VectorOutcome.FAIL, 0.0, 2.0),
    _result("v3", VectorOutcome.EXPECTED_FAIL, 2.0, 1.0),
)
REPORT = RunReport(
    describe=engine_service_pb2.DescribeResponse(name="e", profile_ids=["blackjack-a"]),
    results=RESULTS,
    unmatched_patterns=(),
    certify=False,
    started=1_800_000_000.0,
    seconds=3.5,
    restarts=0,
)


def test_junit_times_are_wall_clock_and_the_root_has_totals(tmp_path: Path) -> None:
    path = tmp_path / "r.xml"
    write_junit(path, REPORT)
    root = ET.parse(path).getroot()  # noqa: S314 - our own report
    (suite,) = root.findall("testsuite")
    # Not 5 s, the sum of the cases: they overlapped.
    assert suite.get("time") == "3.000"
    assert root.get("time") == "3.500"
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == (
        "3",
        "1",
        "0",
        "1",
    )
    assert root.get("timestamp") == "2027-01-15T08:00:00+00:00"


def test_a_stopped_jsonl_report_says_it_is_incomplete(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    stream = JsonlReport(path, "abc", certify=False)
    stream.start(REPORT.describe, REPORT.started)
    stream.add(RESULTS[0])
    # Readable before the run ends: each line is flushed as it is written.
    assert len(path.read_text(encoding="utf-8").splitlines()) == 2
    stream.finish(REPORT, stopped="interrupted by SIGTERM")
    header, line, trailer = (json.loads(x) for x in path.read_text().splitlines())
    assert header["corpus_hash"] == "abc"
    assert line["id"] == "v1"
    assert trailer["complete"] is False
    assert trailer["passed"] is trailer["conformant"] is False
    assert trailer["summary"] == "interrupted by SIGTERM"


def _run(*outcomes: VectorOutcome, corpus: int | None = 40, whole: bool = False) -> RunReport:
    results = tuple(_result(f"v{i}", o, 0.0, 1.0) for i, o in enumerate(outcomes))
    return replace(REPORT, results=results, seconds=1.0, corpus=corpus, whole=whole)


PASS, FAIL, WAIVED = VectorOutcome.PASS, VectorOutcome.FAIL, VectorOutcome.EXPECTED_FAIL
NA = VectorOutcome.NOT_APPLICABLE


@pytest.mark.parametrize(
    ("report", "line"),
    [
        (_run(PASS, whole=True), "run: conformant: 1 vector (1 pass) in 1.0 s"),
        (
            _run(PASS, NA, whole=True),
            "run: conformant: 2 vectors (1 pass, 1 not applicable) in 1.0 s",
        ),
        (
            _run(PASS, WAIVED, whole=True),
            (
                "run: passed with 1 known failure waived, not conformant: 2 vectors "
                "(1 pass, 1 expected fail) in 1.0 s"
            ),
        ),
        (
            _run(PASS, WAIVED, WAIVED, whole=True),
            (
                "run: passed with 2 known failures waived, not conformant: 3 vectors "
                "(1 pass, 2 expected fail) in 1.0 s"
            ),
        ),
        (
            _run(PASS),
            (
                "run: passed 1 of the 1 vector selected (1 pass) in 1.0 s; the corpus holds 40 "
                "vectors for the engine's profiles: a partial run, no verdict"
            ),
        ),
        (
            _run(PASS, NA, corpus=1),
            (
                "run: passed 1 of the 2 vectors selected (1 pass, 1 not applicable) in 1.0 s; the "
                "corpus holds 1 vector for the engine's profiles: a partial run, no verdict"
            ),
        ),
        (
            _run(PASS, WAIVED),
            (
                "run: passed 1 of the 2 vectors selected, 1 known failure waived (1 pass, 1 expected "
                "fail) in 1.0 s; the corpus holds 40 vectors for the engine's profiles: a partial "
                "run, no verdict"
            ),
        ),
        (
            _run(PASS, PASS, corpus=None),
            (
                "run: passed 2 of the 2 vectors selected (2 pass) in 1.0 s; vector files other than "
                "the shipped corpus: a partial run, no verdict"
            ),
        ),
        # A failure is a failure, whatever part of the corpus showed it.
        (
            _run(PASS, FAIL),
            (
                "run: NOT conformant: 2 vectors (1 pass, 1 fail) in 1.0 s; the corpus holds 40 "
                "vectors for the engine's profiles"
            ),
        ),
        (_run(PASS, FAIL, whole=True), "run: NOT conformant: 2 vectors (1 pass, 1 fail) in 1.0 s"),
        (
            _run(NA, whole=True),
            (
                "run: NOT conformant (no vector applies to the engine): 1 vector (1 not applicable) "
                "in 1.0 s"
            ),
        ),
    ],
)
def test_the_summary_says_conformant_only_of_a_whole_run(report: RunReport, line: str) -> None:
    assert summary_line(report) == line
    assert report.conformant is line.startswith("run: conformant")


def test_a_partial_run_is_never_conformant_in_the_jsonl_or_junit(tmp_path: Path) -> None:
    """Every vector selected passed, but the selection is not the whole corpus."""
    partial = _run(PASS, PASS)
    assert partial.passed
    assert not partial.conformant
    write_jsonl(tmp_path / "r.jsonl", partial, "abc")
    trailer = json.loads((tmp_path / "r.jsonl").read_text().splitlines()[-1])
    assert (trailer["passed"], trailer["conformant"], trailer["whole_corpus"]) == (
        True,
        False,
        False,
    )
    assert trailer["corpus_vectors"] == 40
    write_junit(tmp_path / "r.xml", partial)
    write_junit(tmp_path / "w.xml", replace(partial, whole=True))
    props = [_properties(tmp_path / name) for name in ("r.xml", "w.xml")]
    assert props[0]["croupier.conformant"] == "false"
    assert props[0]["croupier.summary"] == summary_line(partial)
    assert props[1]["croupier.conformant"] == "true"
    assert props[1]["croupier.suite_version"] == SUITE_VERSION


def _properties(path: Path) -> dict[str | None, str | None]:
    root = ET.parse(path).getroot()  # noqa: S314 - our own report
    return {p.get("name"): p.get("value") for p in root.iter("property")}
