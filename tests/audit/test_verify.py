"""``croupier audit verify`` on the demo engine's clean log: verdict, totals, formats, exit codes."""

from __future__ import annotations

import json
import re
import socket
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from conformance.audit import audit_log
from tests.audit.support import (
    AuditLogs,
    invoke,
    read_lines,
    units,
    varint,
    verify,
    write_lines,
)
from tests.service.support import PROFILE_IDS


@pytest.fixture(scope="module")
def clean(
    audit_logs: AuditLogs, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Result, dict[str, Any]]:
    """The CLI's verdict on the JSON log, with every core."""
    return verify(audit_logs.jsonl, tmp_path_factory.mktemp("clean") / "report.json")


def _sums(log: Path) -> tuple[int, int, Counter[str]]:
    """Staked, returned and rounds per profile, read from the log with nothing but ``json``."""
    staked = returned = 0
    profiles: Counter[str] = Counter()
    with log.open("rb") as handle:
        for raw in handle:
            record = json.loads(raw)
            lines = record["settlement"].get("lines", [])
            staked += sum(units(line.get("stake")) for line in lines)
            returned += sum(units(line.get("returned")) for line in lines)
            profiles[record["profileId"]] += 1
            # The engine's own totals agree with its lines.
            assert units(record["settlement"].get("totalStaked")) == sum(
                units(line.get("stake")) for line in lines
            )
            assert units(record["settlement"].get("totalReturned")) == sum(
                units(line.get("returned")) for line in lines
            )
    return staked, returned, profiles


def test_the_fixture_log_holds_every_round_played(audit_logs: AuditLogs) -> None:
    rounds = audit_logs.rounds
    assert len(rounds) >= 10_000
    assert len({r.round_id for r in rounds}) == len(rounds)
    assert Counter(r.profile_id for r in rounds) == dict.fromkeys(PROFILE_IDS, 1440)
    assert len(read_lines(audit_logs.jsonl)) == len(rounds)
    # Blackjack rounds took decisions; card games came in several tables.
    assert sum(r.decisions for r in rounds if r.profile_id.startswith("blackjack")) > 2000
    assert len({r.table_id for r in rounds}) > 100


def test_clean_log_verifies_clean(
    audit_logs: AuditLogs, clean: tuple[Result, dict[str, Any]]
) -> None:
    result, report = clean
    assert result.exit_code == 0, result.output
    assert "audit: clean: 0 discrepancies, 0 malformed records, 0 chain problems" in result.output
    assert report["clean"] is True
    assert report["counts"] == {"discrepancies": 0, "malformed": 0, "chain": 0}
    assert (report["chain_problems"], report["discrepancies"], report["malformed"]) == ([], [], [])
    assert report["records"] == report["rounds"] == len(audit_logs.rounds)
    assert report["unreplayable"] == 0
    assert (report["log"], report["format"]) == ("log.jsonl", "jsonl")


def test_totals_are_the_sums_of_the_settlement_lines(
    audit_logs: AuditLogs, clean: tuple[Result, dict[str, Any]]
) -> None:
    result, report = clean
    staked, returned, _ = _sums(audit_logs.jsonl)
    # A second witness: the Settle answers the fixture received.
    assert staked == sum(r.staked for r in audit_logs.rounds)
    assert returned == sum(r.returned for r in audit_logs.rounds)
    assert report["totals"] == {
        "EUR": {"staked": staked, "paid": returned, "expected_paid": returned, "difference": 0}
    }
    row = [r"\s*EUR\s*", rf"\s*{staked}\s*", rf"\s*{returned}\s*", rf"\s*{returned}\s*", r"\s*0\s*"]
    assert re.search("│" + "│".join(row) + "│", result.output), result.output


def test_rounds_per_profile(audit_logs: AuditLogs, clean: tuple[Result, dict[str, Any]]) -> None:
    result, report = clean
    _, _, profiles = _sums(audit_logs.jsonl)
    assert profiles == Counter(r.profile_id for r in audit_logs.rounds)
    assert report["profiles"] == dict(sorted(profiles.items()))
    assert report["profiles"] == dict.fromkeys(sorted(PROFILE_IDS), 1440)
    listed = ", ".join(f"{pid}: 1440" for pid in sorted(PROFILE_IDS))
    assert f"10080 records, 10080 rounds replayed ({listed})" in result.output


def test_binary_log_gives_the_same_verdict_and_totals(
    audit_logs: AuditLogs, clean: tuple[Result, dict[str, Any]], tmp_path: Path
) -> None:
    _, from_json = clean
    summary = audit_log(audit_logs.binary, workers=2, report_path=tmp_path / "binary.json")
    assert summary.clean
    assert summary.records == len(audit_logs.rounds)
    assert (summary.discrepancies, summary.malformed, summary.chain_problems) == (0, 0, 0)
    from_binary = json.loads((tmp_path / "binary.json").read_text(encoding="utf-8"))
    assert (from_binary["log"], from_binary["format"]) == ("log.bin", "binary")
    lists = ("chain_problems", "discrepancies", "malformed")
    assert summary.report == {k: v for k, v in from_binary.items() if k not in lists}
    same = ("log", "format")
    assert {k: v for k, v in from_binary.items() if k not in same} == {
        k: v for k, v in from_json.items() if k not in same
    }


# --- exit codes --------------------------------------------------------------------------------


def test_a_directory_is_bad_usage(tmp_path: Path) -> None:
    result = invoke("audit", "verify", tmp_path)
    assert result.exit_code == 2
    assert "is a directory" in result.output


def test_a_missing_log_is_bad_usage(tmp_path: Path) -> None:
    result = invoke("audit", "verify", tmp_path / "nowhere.jsonl")
    assert result.exit_code == 2
    assert "does not exist" in result.output


def test_an_unreadable_log_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A path that exists, is no directory and passes the permission check, yet cannot be
    # opened for reading by anyone, root included: a Unix socket (open() fails, ENXIO on
    # Linux). A chmod 0 file would not do: root reads it, and for others click's own check
    # refuses it before the audit starts.
    monkeypatch.chdir(tmp_path)  # bound by a short relative name: socket paths are short
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind("log.jsonl")
        log = tmp_path / "log.jsonl"
        result = invoke("audit", "verify", log)
    assert result.exit_code == 2, result.output
    assert f"error: cannot audit {log}: " in result.output


def test_garbage_lines_are_each_malformed(tmp_path: Path) -> None:
    log = write_lines(tmp_path / "notes.txt", [b"hello auditor\n", b"\n", b"not, a log\n", b"{]\n"])
    result, report = verify(log, tmp_path / "report.json", "--workers", 1)
    assert result.exit_code == 1, result.output
    assert report["format"] == "jsonl"
    assert report["rounds"] == 0
    assert report["counts"] == {"discrepancies": 0, "malformed": 3, "chain": 0}
    # Record numbers count entries; the blank line is no entry but keeps its line number.
    assert [(m["record"], m["line"], m["offset"]) for m in report["malformed"]] == [
        (1, 1, 0),
        (2, 3, 15),
        (3, 4, 26),
    ]
    assert all(m["reason"].startswith("not a RoundRecord: ") for m in report["malformed"])
    assert "3 malformed records" in result.output


def test_random_bytes_are_malformed_not_a_crash(tmp_path: Path) -> None:
    log = tmp_path / "noise.bin"
    noise = bytes(range(256)[::-1]) * 40
    for head, reason in (
        (b"\xff\xff\xff\xff\x0f", "implausible length prefix: 4294967295 bytes"),
        (b"", "overlong length prefix"),
    ):
        log.write_bytes(head + noise)
        result, report = verify(log, tmp_path / "report.json", "--workers", 1)
        assert result.exit_code == 1, result.output
        assert report["format"] == "binary"
        assert report["rounds"] == 0
        (entry,) = report["malformed"]
        assert (entry["record"], entry["offset"]) == (1, 0)
        assert entry["reason"].startswith(reason)


@pytest.mark.parametrize("wrong", ["binary", "jsonl"])
def test_the_wrong_format_makes_every_entry_malformed(
    audit_logs: AuditLogs, binary_records: list[bytes], tmp_path: Path, wrong: str
) -> None:
    if wrong == "binary":
        log = write_lines(tmp_path / "head.jsonl", read_lines(audit_logs.jsonl)[:50])
    else:
        log = tmp_path / "head.bin"
        head = sum(len(varint(len(r))) + len(r) for r in binary_records[:50])
        log.write_bytes(audit_logs.binary.read_bytes()[:head])
    result, report = verify(log, tmp_path / "report.json", "--format", wrong, "--workers", 1)
    assert result.exit_code == 1, result.output
    assert report["format"] == wrong
    assert report["rounds"] == 0
    assert report["counts"]["malformed"] >= 1
    assert report["counts"]["malformed"] == report["records"]
