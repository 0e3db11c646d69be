"""``croupier audit`` at its edges: odd bytes, odd times, huge values, odd options.

Each case was a traceback, a hang or a wrong reading before: exit 2 with a message for
bad usage, a finding for a bad log, and a console that stays short whatever the log holds.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from croupier.clients import adapter
from croupier.clients.audit import AuditWriter
from croupier.clients.demo_engine import DemoEngine
from croupier.v1 import round_pb2
from tests.audit.engines import settle
from tests.audit.support import dump_line, invoke, read_lines, verify, write_lines


def _binary(path: Path, records: list[round_pb2.RoundRecord]) -> Path:
    writer = AuditWriter.open(path, "binary", durable=False)
    for record in records:
        writer.append(record)
    writer.close()
    return path


def test_times_no_calendar_shows_are_findings_not_tracebacks(tmp_path: Path) -> None:
    """A binary log may hold any Timestamp: 2**62 seconds, -2**62 and negative nanos."""
    late = round_pb2.RoundRecord(round_id="b", profile_id="baccarat-c")
    late.recorded_at.seconds = 2**62
    early = round_pb2.RoundRecord(round_id="c", profile_id="baccarat-c")
    early.recorded_at.seconds, early.recorded_at.nanos = -(2**62), -5
    log = _binary(
        tmp_path / "rounds.bin",
        [round_pb2.RoundRecord(round_id="a", profile_id="baccarat-c"), late, early],
    )
    result, report = verify(log, tmp_path / "report.json", "--workers", 1)
    assert result.exit_code == 1
    (backwards,) = [p for p in report["log_problems"] if p["kind"] == "time-backwards"]
    assert backwards["record"] == 3
    assert backwards["message"] == (
        "recorded at -4611686018427387904 s -5 ns after 1970-01-01T00:00:00Z (out of range), "
        "before record 2 (4611686018427387904 s 0 ns after 1970-01-01T00:00:00Z (out of range))"
    )


def test_zero_bytes_are_one_malformed_entry_not_millions_of_records(tmp_path: Path) -> None:
    log = tmp_path / "zeros.bin"
    log.write_bytes(bytes(1 << 20))
    result, report = verify(log, tmp_path / "report.json", "--workers", 1, codes=frozenset({2}))
    assert report["records"] == 1
    (malformed,) = report["malformed"]
    assert malformed["reason"] == "an empty entry (length 0): the rest of the log is not read"
    assert "is not a Croupier audit log" in result.output


def test_a_huge_round_id_is_cut_short_on_the_console_and_whole_in_the_report(
    tmp_path: Path,
) -> None:
    """Before: a 30 kB id took the console two minutes, 1 MB more than fifteen."""
    huge = "x" * 1_000_000
    log = _binary(tmp_path / "rounds.bin", [round_pb2.RoundRecord(round_id=huge, profile_id=huge)])
    result, report = verify(log, tmp_path / "report.json", "--workers", 1)
    assert result.exit_code == 1
    assert len(result.output) < 20_000
    shown = f"{'x' * 120}...(999880morecharacters)"  # the console wraps: spaces aside
    assert shown in "".join(result.output.split())
    (unreplayable,) = report["unreplayable"]
    assert unreplayable["round_id"] == huge


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--band", "nan"], "'nan' is not a finite number"),
        (["--band", "inf"], "inf is not in the range 0<x<=1000.0"),
        (["--fairness-p", "nan"], "'nan' is not a finite number"),
        (["--workers", "100000"], "100000 is not in the range 1<=x<=256"),
    ],
)
def test_numeric_options_out_of_range_are_usage_errors(
    tmp_path: Path, options: list[str], said: str
) -> None:
    log = _binary(tmp_path / "rounds.bin", [round_pb2.RoundRecord(round_id="a")])
    result = invoke("audit", "verify", log, *options)
    assert result.exit_code == 2, result.output
    assert said in result.output


def test_keygen_without_a_name_is_a_usage_error(tmp_path: Path) -> None:
    result = invoke("audit", "keygen", "")
    assert result.exit_code == 2, result.output
    assert "the key pair needs a file name: NAME.key and NAME.pub" in result.output


def test_a_lab_file_taking_a_shipped_id_is_refused_as_serve_refuses_it(tmp_path: Path) -> None:
    """Before: every record was unreplayable (exit 1)."""
    shipped = Path(__file__).resolve().parents[2] / "oracle" / "profiles" / "baccarat-c.toml"
    log = _binary(tmp_path / "rounds.bin", [round_pb2.RoundRecord(round_id="a")])
    result = invoke("audit", "verify", log, "--profile-file", shipped)
    assert result.exit_code == 2, result.output
    assert "id 'baccarat-c' is a shipped profile's" in " ".join(result.output.split())


def _baccarat_log(tmp_path: Path) -> list[bytes]:
    """One banker natural by the demo engine: a stake of 100 returns 195 (BAC.banker-pays)."""
    log = tmp_path / "engine.jsonl"
    served = adapter.serve(DemoEngine(), port=0, audit_log=log)
    try:
        settle(f"127.0.0.1:{served.port}", ["r1"])
    finally:
        served.stop(grace=0)
    return read_lines(log)


def _with_line(line: bytes, **fields: object) -> bytes:
    value = json.loads(line)
    value["settlement"]["lines"][0].update(fields)
    return dump_line(value)


def test_a_lines_exact_amount_and_clauses_are_checked_when_given(tmp_path: Path) -> None:
    """Before: returned_exact and clauses were never compared with the oracle's."""
    (line,) = _baccarat_log(tmp_path)
    assert "returnedExact" not in json.loads(line)["settlement"]["lines"][0]  # the kit's
    right = write_lines(tmp_path / "right.jsonl", [_with_line(line, returnedExact="195")])
    result, _ = verify(right, tmp_path / "right.json", "--workers", 1)
    assert result.exit_code == 0, result.output
    wrong = write_lines(
        tmp_path / "wrong.jsonl",
        [_with_line(line, returnedExact="196", clauses=["BJ.nat-pays"])],
    )
    result, report = verify(wrong, tmp_path / "wrong.json", "--workers", 1)
    assert result.exit_code == 1
    found = {d["path"]: (d["expected"], d["actual"]) for d in report["discrepancies"]}
    assert found["settlement.lines[0].returned_exact"] == ("195", "196")
    assert found["settlement.lines[0].clauses"][1] == "BJ.nat-pays"
    assert "BJ.nat-pays" not in found["settlement.lines[0].clauses"][0]


@pytest.mark.parametrize("command", [["verify"], ["recall", "--table", "t1"]])
def test_a_fifo_as_the_log_is_refused_not_waited_on(tmp_path: Path, command: list[str]) -> None:
    """Before: reading a FIFO waited for a writer that never came."""
    fifo = tmp_path / "rounds.jsonl"
    os.mkfifo(fifo)
    result = invoke("audit", command[0], fifo, *command[1:])
    assert result.exit_code == 2, result.output
    assert f"{fifo} is not a regular file (a FIFO, a device or a socket)" in result.output
