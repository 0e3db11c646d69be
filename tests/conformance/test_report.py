"""Reports of a run, from results made by hand: JUnit totals and wall-clock times, JSONL."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

from croupier.v1 import engine_service_pb2

from conformance.report import JsonlReport, write_junit
from conformance.results import Result, RunReport, VectorOutcome


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
