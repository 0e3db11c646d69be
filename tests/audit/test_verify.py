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

from croupier.clients.demo_engine import DemoEngine
from croupier.conformance.audit.verify import audit_log
from tests.audit.support import (
    ROUNDS_PER_PROFILE,
    AuditLogs,
    instant,
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
    assert len(rounds) == len(PROFILE_IDS) * ROUNDS_PER_PROFILE
    assert len({r.round_id for r in rounds}) == len(rounds)
    assert Counter(r.profile_id for r in rounds) == dict.fromkeys(PROFILE_IDS, ROUNDS_PER_PROFILE)
    assert len(read_lines(audit_logs.jsonl)) == len(rounds)
    # Blackjack rounds took decisions; card games came in several tables.
    assert sum(r.decisions for r in rounds if r.profile_id.startswith("blackjack")) > 2000
    assert len({r.table_id for r in rounds}) > 100


def test_clean_log_verifies_clean(
    audit_logs: AuditLogs, clean: tuple[Result, dict[str, Any]]
) -> None:
    result, report = clean
    assert result.exit_code == 0, result.output
    assert (
        "audit: clean: 0 discrepancies, 0 malformed records, 0 unreplayable records, "
        "0 chain problems, 0 log problems"
    ) in result.output
    assert (report["clean"], report["verdict"]) == (True, "clean")
    assert report["counts"] == dict.fromkeys(
        ("discrepancies", "malformed", "unreplayable", "chain", "log"), 0
    )
    assert report["findings"] == {}
    for listed in ("chain_problems", "log_problems", "discrepancies", "malformed", "unreplayable"):
        assert report[listed] == [], listed
    assert report["records"] == report["rounds"] == len(audit_logs.rounds)
    assert report["checkpoints"] == 0
    assert (report["log"], report["format"]) == ("log.jsonl", "jsonl")


def test_an_unsigned_log_says_what_it_cannot_prove(clean: tuple[Result, dict[str, Any]]) -> None:
    result, report = clean
    statement = report["signing"]["statement"]
    assert statement.startswith("unsigned: the log holds no signed checkpoint.")
    assert "re-chaining and truncation cannot be detected without a key" in statement
    assert (report["signing"]["checkpoints"], report["signing"]["public_keys"]) == (0, [])
    assert statement in " ".join(result.output.split())


def test_every_record_is_numbered_timed_and_signed_by_its_engine(audit_logs: AuditLogs) -> None:
    """What the kit writes beside each round (round.proto): from 1, one more each, in time order."""
    records = [json.loads(line) for line in read_lines(audit_logs.jsonl)]
    assert [int(r["sequence"]) for r in records] == list(range(1, len(records) + 1))
    times = [r["recordedAt"] for r in records]
    assert all(t.endswith("Z") for t in times)
    instants = [instant(t) for t in times]
    assert instants == sorted(instants)
    assert {(r["engine"]["name"], r["engine"]["version"]) for r in records} == {
        (DemoEngine.name, DemoEngine.version)
    }
    assert all(r["engine"]["instance"] for r in records)


def test_totals_are_the_sums_of_the_settlement_lines(
    audit_logs: AuditLogs, clean: tuple[Result, dict[str, Any]]
) -> None:
    result, report = clean
    staked, returned, _ = _sums(audit_logs.jsonl)
    # A second witness: the Settle answers the fixture received.
    assert staked == sum(r.staked for r in audit_logs.rounds)
    assert returned == sum(r.returned for r in audit_logs.rounds)
    assert report["totals"] == {
        "EUR": {
            "staked": staked,
            "paid": returned,
            "expected_paid": returned,
            "difference": 0,
            "unverified_staked": 0,
            "unverified_paid": 0,
        }
    }

    # The console reads amounts in the currency's major unit (EUR: two decimals).
    def eur(minor: int) -> str:
        return rf"\s*{minor // 100}\.{minor % 100:02d} EUR\s*"

    row = [r"\s*EUR\s*", eur(staked), eur(returned), eur(returned), eur(0), eur(0)]
    assert re.search("│" + "│".join(row) + "│", result.output), result.output


def test_rounds_per_profile(audit_logs: AuditLogs, clean: tuple[Result, dict[str, Any]]) -> None:
    result, report = clean
    _, _, profiles = _sums(audit_logs.jsonl)
    assert profiles == Counter(r.profile_id for r in audit_logs.rounds)
    assert report["profiles"] == dict(sorted(profiles.items()))
    assert report["profiles"] == dict.fromkeys(sorted(PROFILE_IDS), ROUNDS_PER_PROFILE)
    listed = ", ".join(f"{pid}: {ROUNDS_PER_PROFILE}" for pid in sorted(PROFILE_IDS))
    count = len(PROFILE_IDS) * ROUNDS_PER_PROFILE
    assert f"{count} records, {count} rounds ({listed})\n" in result.output


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
    lists = ("chain_problems", "log_problems", "discrepancies", "malformed", "unreplayable")
    assert summary.report == {k: v for k, v in from_binary.items() if k not in lists}
    # What names the file checked differs; what was found in it does not.
    same = ("log", "format", "log_path", "log_size", "log_sha256", "options")
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
    # Refused before it is opened: a log that is not a regular file is no audit log.
    assert f"'LOG': {log} is not a regular file (a FIFO, a device or a socket)" in (
        " ".join(result.output.split())
    )


def _not_a_log(log: Path, report: Path, *options: object) -> dict[str, Any]:
    result, parsed = verify(log, report, *options, codes=frozenset({2}))
    assert f"error: {log} is not a Croupier audit log: none of its " in " ".join(
        result.output.split()
    )
    assert (parsed["verdict"], parsed["clean"]) == ("not an audit log", False)
    return parsed


def test_garbage_lines_are_not_an_audit_log(tmp_path: Path) -> None:
    log = write_lines(tmp_path / "notes.txt", [b"hello auditor\n", b"\n", b"not, a log\n", b"{]\n"])
    report = _not_a_log(log, tmp_path / "report.json", "--workers", 1)
    assert (report["format"], report["rounds"]) == ("jsonl", 0)
    assert report["counts"]["malformed"] == 3
    # Record numbers count entries; the blank line is no entry but keeps its line number.
    assert [(m["record"], m["line"], m["offset"]) for m in report["malformed"]] == [
        (1, 1, 0),
        (2, 3, 15),
        (3, 4, 26),
    ]
    assert all(m["reason"].startswith("not a RoundRecord: ") for m in report["malformed"])


def test_random_bytes_are_not_an_audit_log(tmp_path: Path) -> None:
    log = tmp_path / "noise.bin"
    noise = bytes(range(256)[::-1]) * 40
    for head, reason in (
        (b"\xff\xff\xff\xff\x0f", "implausible length prefix: 4294967295 bytes"),
        (b"", "overlong length prefix"),
    ):
        log.write_bytes(head + noise)
        report = _not_a_log(log, tmp_path / "report.json", "--workers", 1)
        assert report["format"] == "binary"
        (entry,) = report["malformed"]
        assert (entry["record"], entry["offset"]) == (1, 0)
        assert entry["reason"].startswith(reason)


@pytest.mark.parametrize("wrong", ["binary", "jsonl"])
def test_the_wrong_format_is_not_an_audit_log(
    audit_logs: AuditLogs, binary_records: list[bytes], tmp_path: Path, wrong: str
) -> None:
    if wrong == "binary":
        log = write_lines(tmp_path / "head.jsonl", read_lines(audit_logs.jsonl)[:50])
    else:
        log = tmp_path / "head.bin"
        head = sum(len(varint(len(r))) + len(r) for r in binary_records[:50])
        log.write_bytes(audit_logs.binary.read_bytes()[:head])
    report = _not_a_log(log, tmp_path / "report.json", "--format", wrong, "--workers", 1)
    assert report["format"] == wrong
    assert report["counts"]["malformed"] >= 1
    # Text read as protobuf may decode, by chance, as a record without a round id.
    assert report["counts"]["malformed"] + report["counts"]["unreplayable"] == report["records"]
    assert all(not u["round_id"] for u in report["unreplayable"])


@pytest.mark.parametrize("content", [b"", b"\n", b"  \n\n\t\n"], ids=["empty", "newline", "blank"])
def test_an_empty_log_verifies_nothing(tmp_path: Path, content: bytes) -> None:
    log = tmp_path / "empty.jsonl"
    log.write_bytes(content)
    result, report = verify(log, tmp_path / "report.json", codes=frozenset({2}))
    assert "audit: nothing verified: " in result.output
    assert "audit: clean" not in result.output
    assert "NOT clean" not in result.output
    assert "audit: empty: 0 discrepancies" in result.output
    assert (report["verdict"], report["clean"], report["records"], report["rounds"]) == (
        "empty",
        False,
        0,
        0,
    )
    allowed = invoke("audit", "verify", log, "--allow-empty")
    assert allowed.exit_code == 0, allowed.output
    assert "audit: nothing verified: " in allowed.output


@pytest.mark.parametrize(
    ("option", "target", "named"),
    [
        ("--report", "log", "--report {path} is the log"),
        ("--html", "log", "--html {path} is the log"),
        ("--report", "link", "--report {path} is the log"),
        ("--html", "key", "--html {path} is a public key"),
    ],
)
def test_no_output_overwrites_an_input(
    audit_logs: AuditLogs, tmp_path: Path, option: str, target: str, named: str
) -> None:
    """The issue's case: ``--report`` or ``--html`` naming the log overwrote it, exit 0."""
    log = write_lines(tmp_path / "rounds.jsonl", read_lines(audit_logs.jsonl))
    (tmp_path / "link.jsonl").symlink_to(log)
    key = tmp_path / "operator.pub"
    assert invoke("audit", "keygen", tmp_path / "operator").exit_code == 0
    path = {"log": log, "link": tmp_path / "link.jsonl", "key": key}[target]
    before = log.read_bytes(), key.read_bytes()
    result = invoke("audit", "verify", log, "--public-key", key, option, path)
    assert result.exit_code == 2, result.output
    assert f"{named.format(path=path)}: an output never overwrites an input" in (
        " ".join(result.output.split())
    )
    assert (log.read_bytes(), key.read_bytes()) == before


def test_two_outputs_never_name_one_file(audit_logs: AuditLogs, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = invoke("audit", "verify", audit_logs.jsonl, "--report", out, "--html", out)
    assert result.exit_code == 2, result.output
    assert f"--html {out} is also --report: give each output its own file" in (
        " ".join(result.output.split())
    )
    assert not out.exists()
    report = tmp_path / "report.json"
    assert invoke("audit", "verify", audit_logs.jsonl, "--report", report).exit_code == 0
    saved = report.read_bytes()
    result = invoke("audit", "html", report, "-o", report)
    assert result.exit_code == 2, result.output
    assert "is the report: an output never overwrites an input" in result.output
    assert report.read_bytes() == saved


def test_json_prints_the_summary_a_script_reads(audit_logs: AuditLogs, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    result = invoke("audit", "verify", audit_logs.jsonl, "--json", "--report", report)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    full = json.loads(report.read_text(encoding="utf-8"))
    assert summary["verdict"] == full["verdict"] == "clean"
    assert summary["rounds"] == len(audit_logs.rounds)
    assert summary["counts"] == full["counts"]
    assert summary["totals"] == full["totals"]
    assert set(summary["first"]) == {
        "discrepancies",
        "chain_problems",
        "log_problems",
        "malformed",
        "unreplayable",
    }
    assert "Audit totals" not in result.stdout  # no table: JSON alone on standard output


def test_json_of_a_tampered_log_lists_its_first_findings(
    audit_logs: AuditLogs, tmp_path: Path
) -> None:
    lines = read_lines(audit_logs.jsonl)
    del lines[3]  # a record removed: a chain problem
    log = write_lines(tmp_path / "cut.jsonl", lines)
    result = invoke("audit", "verify", log, "--json", "--show", "1")
    assert result.exit_code == 1, result.output
    summary = json.loads(result.stdout)
    assert summary["verdict"] != "clean"
    assert summary["counts"]["chain"] >= 1
    assert len(summary["first"]["chain_problems"]) == 1


def test_report_dash_is_the_report_on_standard_output(
    audit_logs: AuditLogs, tmp_path: Path
) -> None:
    saved = tmp_path / "report.json"
    assert invoke("audit", "verify", audit_logs.jsonl, "--report", saved).exit_code == 0
    result = invoke("audit", "verify", audit_logs.jsonl, "--report", "-")
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    kept = json.loads(saved.read_text(encoding="utf-8"))
    assert printed["counts"] == kept["counts"]
    assert printed["verdict"] == "clean"
    assert "audit: clean" in result.stderr  # the console's lines moved out of the way
    result = invoke("audit", "verify", audit_logs.jsonl, "--report", "-", "--json")
    assert result.exit_code == 2, result.output
    assert "--json prints on standard output" in result.output
