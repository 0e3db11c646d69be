"""Signed checkpoints: a log only the operator's key can extend, and what a log without one proves.

The signed log (``signed_log`` in conftest) was written by the demo engine through the
adapter kit in two runs on one file, with a key from ``croupier audit keygen``.
"""

from __future__ import annotations

import stat
from pathlib import Path

from croupier.v1 import round_pb2
from tests.audit.support import Case, SignedLog, invoke, only, parse_entry, verify


def _entries(signed: SignedLog) -> list[round_pb2.RoundRecord | round_pb2.AuditCheckpointEntry]:
    return [parse_entry(data) for data in signed.entries]


def test_the_second_run_continues_the_first(signed_log: SignedLog) -> None:
    entries = _entries(signed_log)
    records = [e for e in entries if isinstance(e, round_pb2.RoundRecord)]
    assert [r.sequence for r in records] == list(range(1, len(signed_log.rounds) + 1))
    assert [r.round_id for r in records] == [r.round_id for r in signed_log.rounds]
    # A checkpoint every N records, and one as each run closed the log.
    every, first = signed_log.checkpoint_every, signed_log.first_run
    marks = [
        (e.checkpoint.sequence, e.checkpoint.closing)
        for e in entries
        if isinstance(e, round_pb2.AuditCheckpointEntry)
    ]
    assert marks == [
        *((n, False) for n in range(every, first + 1, every)),
        (first, True),
        *((n, False) for n in range(first + every, len(records) + 1, every)),
        (len(records), True),
    ]


def test_a_signed_log_verifies_sealed(
    cases: dict[str, Case], signed_log: SignedLog, tmp_path: Path
) -> None:
    result, report = verify(signed_log.path, tmp_path / "report.json", *cases["signed"].options)
    assert result.exit_code == 0, result.output
    checkpoints = sum(isinstance(e, round_pb2.AuditCheckpointEntry) for e in _entries(signed_log))
    assert report["signing"]["checkpoints"] == report["checkpoints"] == checkpoints
    assert report["signing"]["valid_checkpoints"] == checkpoints
    assert report["signing"]["statement"].startswith("sealed: every record is sealed")
    assert report["records"] == report["rounds"] == len(signed_log.rounds)
    assert f"{len(signed_log.rounds)} records, {len(signed_log.rounds)} rounds (" in result.output
    assert f", {checkpoints} checkpoints\n" in result.output


def test_without_the_key_the_report_says_what_is_not_proven(
    cases: dict[str, Case], tmp_path: Path
) -> None:
    for name in ("signed-without-key", "truncated-without-key", "forged-without-key"):
        case = cases[name]
        result, report = verify(case.path, tmp_path / "report.json", *case.options)
        assert result.exit_code == 0, (name, result.output)
        statement = report["signing"]["statement"]
        assert statement.startswith("not checked: the log holds ")
        assert "re-chaining and truncation cannot be detected without a key" in statement
        assert report["signing"]["valid_checkpoints"] is None


def test_a_tail_cut_off_after_a_checkpoint(cases: dict[str, Case], tmp_path: Path) -> None:
    case = cases["truncated"]
    result, report = verify(case.path, tmp_path / "report.json", *case.options)
    found = only(report["log_problems"])
    assert found["kind"] == "truncated"
    assert found["record"] == report["records"] + report["checkpoints"]
    assert "does not end with a closing checkpoint" in found["message"]
    assert f"record {found['record']}: truncated: " in result.output


def test_a_tail_cut_off_between_checkpoints(
    cases: dict[str, Case], signed_log: SignedLog, tmp_path: Path
) -> None:
    case = cases["truncated-unsealed"]
    _, report = verify(case.path, tmp_path / "report.json", *case.options)
    unsealed, truncated = report["log_problems"]
    assert (unsealed["kind"], truncated["kind"]) == ("unsealed", "truncated")
    # Cut 10 records after a checkpoint: those 10 are unsealed, from the first of them on.
    assert unsealed["message"].startswith(
        f"10 records from record {unsealed['record']} on come after the last valid checkpoint"
    )
    assert truncated["record"] == unsealed["record"] + 9
    assert report["rounds"] == 12 * signed_log.checkpoint_every + 10


def test_an_edit_rechained_breaks_every_later_checkpoint(
    cases: dict[str, Case], tmp_path: Path
) -> None:
    case = cases["rechained"]
    _, report = verify(case.path, tmp_path / "report.json", *case.options)
    # No rule sees a round moved to another table: only the checkpoints do.
    assert report["discrepancies"] == report["chain_problems"] == []
    mismatches = [p for p in report["log_problems"] if p["kind"] == "checkpoint-mismatch"]
    assert len(mismatches) == case.findings["checkpoint-mismatch"] > 2
    assert (
        "records before it were changed, added, removed or re-chained" in mismatches[0]["message"]
    )


def test_checkpoints_forged_without_the_key_do_not_verify(
    cases: dict[str, Case], tmp_path: Path
) -> None:
    case = cases["forged"]
    _, report = verify(case.path, tmp_path / "report.json", *case.options)
    invalid = [p for p in report["log_problems"] if p["kind"] == "checkpoint-invalid"]
    assert len(invalid) == case.findings["checkpoint-invalid"]
    assert all("the signature does not verify" in p["message"] for p in invalid)
    unsealed = [p for p in report["log_problems"] if p["kind"] == "unsealed"]
    assert len(unsealed) == 1


def test_another_key_verifies_nothing_and_a_second_key_is_accepted(
    signed_log: SignedLog, tmp_path: Path
) -> None:
    assert invoke("audit", "keygen", tmp_path / "other").exit_code == 0
    other = tmp_path / "other.pub"
    result, report = verify(signed_log.path, tmp_path / "report.json", "--public-key", other)
    checkpoints = report["checkpoints"]
    assert report["findings"] == {"checkpoint-invalid": checkpoints, "unsealed": 1}
    assert "which is none of the public keys given" in report["log_problems"][0]["message"]
    # Keys are rotated: a log checks against every key given.
    result, report = verify(
        signed_log.path,
        tmp_path / "report.json",
        "--public-key",
        other,
        "--public-key",
        signed_log.public_key,
    )
    assert result.exit_code == 0, result.output
    assert report["signing"]["valid_checkpoints"] == checkpoints


def test_keygen_writes_a_private_key_only_its_owner_reads_and_never_overwrites(
    tmp_path: Path,
) -> None:
    result = invoke("audit", "keygen", tmp_path / "site")
    assert result.exit_code == 0, result.output
    private, public = tmp_path / "site.key", tmp_path / "site.pub"
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert private.read_text().startswith("-----BEGIN PRIVATE KEY-----")
    assert public.read_text().startswith("-----BEGIN PUBLIC KEY-----")
    assert "key id:" in result.output
    before = private.read_bytes()
    again = invoke("audit", "keygen", tmp_path / "site")
    assert again.exit_code == 2
    assert f"{private} already exists: a key file is never overwritten" in again.output
    assert private.read_bytes() == before


def test_a_public_key_that_is_no_key_is_bad_usage(signed_log: SignedLog, tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.pub"
    bogus.write_text("not a key\n")
    result = invoke("audit", "verify", signed_log.path, "--public-key", bogus)
    assert result.exit_code == 2
    assert f"{bogus} is not a PEM public key" in " ".join(result.output.split())
    # A private key given where the public one goes is named as such.
    result = invoke("audit", "verify", signed_log.path, "--public-key", signed_log.private_key)
    assert result.exit_code == 2


def test_recall_skips_checkpoints(signed_log: SignedLog) -> None:
    table = signed_log.rounds[0].table_id
    wanted = [r.round_id for r in signed_log.rounds if r.table_id == table][-3:]
    result = invoke("audit", "recall", signed_log.path, "--table", table, "--last", 3)
    assert result.exit_code == 0, result.output
    assert [
        line.split()[1] for line in result.output.splitlines() if line.startswith("round ")
    ] == wanted
