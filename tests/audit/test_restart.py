"""A restart never launders a log: a writer seals only what its own key sealed before.

The issue's four cases, each on a real demo engine process writing a signed log: a record
edited in the unsealed tail a crash left, a closing checkpoint deleted and a record edited,
the last 30 records cut, a forged round appended. Each verifies NOT clean, the engine
restarted on it refuses to start (and leaves it as it was), and the log stays NOT clean.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
from google.protobuf import json_format

from croupier.clients.audit import encode_entry, read_log
from croupier.v1 import round_pb2
from tests.audit.engines import refused, run_engine, settle, stop
from tests.audit.support import invoke, read_lines, rechain, write_lines

#: Rounds of the first run, and records between two checkpoints.
ROUNDS, EVERY = 45, 10


def _options(directory: Path, log: Path) -> list[object]:
    return [
        "--audit-log",
        log,
        "--audit-key",
        directory / "operator.key",
        "--audit-checkpoint-every",
        EVERY,
    ]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[bytes]]:
    """A signed log of 45 rounds the demo engine wrote and closed, and a crashed run after it.

    Returns the directory (with operator.key and .pub) and the closed log's lines; the
    crashed run's log is ``crashed.jsonl``: four more records, no checkpoint after them.
    """
    directory = tmp_path_factory.mktemp("restart")
    assert invoke("audit", "keygen", directory / "operator").exit_code == 0
    log = directory / "closed.jsonl"
    engine = run_engine(_options(directory, log), directory / "first.err")
    try:
        settle(engine.address, [f"r{n}" for n in range(1, ROUNDS + 1)])  # type: ignore[attr-defined]
    finally:
        assert stop(engine, directory / "first.err") == 0
    closed = read_lines(log)
    crashed = write_lines(directory / "crashed.jsonl", closed)
    engine = run_engine(_options(directory, crashed), directory / "crashed.err")
    try:
        settle(engine.address, [f"r{n}" for n in range(ROUNDS + 1, ROUNDS + 5)])  # type: ignore[attr-defined]
    finally:
        engine.send_signal(signal.SIGKILL)
        engine.wait(30)
    return directory, closed


def _entries(lines: list[bytes]) -> list[round_pb2.RoundRecord | round_pb2.AuditCheckpointEntry]:
    out: list[round_pb2.RoundRecord | round_pb2.AuditCheckpointEntry] = []
    for line in lines:
        value = json.loads(line)
        message = (
            round_pb2.AuditCheckpointEntry() if "checkpoint" in value else round_pb2.RoundRecord()
        )
        json_format.ParseDict(value, message)
        out.append(message)
    return out


def _lines(entries: list[round_pb2.RoundRecord | round_pb2.AuditCheckpointEntry]) -> list[bytes]:
    return [encode_entry(entry, "jsonl") for entry in entries]


def _pay_more(
    entries: list[round_pb2.RoundRecord | round_pb2.AuditCheckpointEntry], seq: int
) -> None:
    """Record ``seq`` pays one unit more; every link after it recomputed (as a forger can)."""
    record = next(e for e in entries if isinstance(e, round_pb2.RoundRecord) and e.sequence == seq)
    record.settlement.lines[0].returned.minor_units += 1
    record.settlement.total_returned.minor_units += 1
    rechain(entries)


def _not_clean(directory: Path, log: Path) -> str:
    result = invoke("audit", "verify", log, "--public-key", directory / "operator.pub")
    assert result.exit_code == 1, result.output
    assert "sealed: every record" not in result.output
    return result.output


def _edited_tail_after_a_crash(directory: Path, closed: list[bytes]) -> list[bytes]:
    entries = _entries(read_lines(directory / "crashed.jsonl"))
    assert isinstance(entries[-1], round_pb2.RoundRecord)  # the crash left records unsealed
    _pay_more(entries, ROUNDS + 3)
    return _lines(entries)


def _closing_deleted_and_a_record_edited(directory: Path, closed: list[bytes]) -> list[bytes]:
    entries = _entries(closed)
    assert isinstance(entries[-1], round_pb2.AuditCheckpointEntry)
    assert entries[-1].checkpoint.closing
    del entries[-1]
    _pay_more(entries, ROUNDS - 2)  # after the last checkpoint but the closing one
    return _lines(entries)


def _last_30_records_cut(directory: Path, closed: list[bytes]) -> list[bytes]:
    entries = _entries(closed)
    last = next(
        i
        for i, e in enumerate(entries)
        if isinstance(e, round_pb2.RoundRecord) and e.sequence == ROUNDS - 30
    )
    return _lines(entries[: last + 1])


def _last_30_records_cut_at_a_checkpoint(directory: Path, closed: list[bytes]) -> list[bytes]:
    entries = _entries(closed)
    kept = next(
        i
        for i, e in enumerate(entries)
        if isinstance(e, round_pb2.AuditCheckpointEntry) and e.checkpoint.sequence == 10
    )
    return _lines(entries[: kept + 1])


def _forged_round_appended(directory: Path, closed: list[bytes]) -> list[bytes]:
    entries = _entries(closed)
    forged = round_pb2.RoundRecord()
    last = entries[-2]
    assert isinstance(last, round_pb2.RoundRecord)
    forged.CopyFrom(last)
    forged.round_id = "forged"
    forged.sequence = last.sequence + 1
    entries.append(forged)
    rechain(entries)
    return _lines(entries)


@pytest.mark.parametrize(
    ("launder", "why"),
    [
        (
            _edited_tail_after_a_crash,
            "its last record (sequence 49) comes after its last checkpoint",
        ),
        (_closing_deleted_and_a_record_edited, "its last record (sequence 45) comes after"),
        (_last_30_records_cut, "its last record (sequence 15) comes after its last checkpoint"),
        (
            _last_30_records_cut_at_a_checkpoint,
            "it ends with a checkpoint (sequence 10) that is not",
        ),
        (_forged_round_appended, "its last record (sequence 46) comes after its last checkpoint"),
    ],
)
def test_a_restart_refuses_a_log_its_key_did_not_seal(
    written: tuple[Path, list[bytes]], launder: object, why: str, tmp_path: Path
) -> None:
    directory, closed = written
    assert callable(launder)
    log = write_lines(tmp_path / "rounds.jsonl", launder(directory, closed))
    _not_clean(directory, log)
    before = log.read_bytes()
    error = refused(_options(directory, log), tmp_path / "restart.err")
    assert f"error: {log} cannot be continued with a signing key: {why}" in error
    assert "--audit-new-log keeps it under another name" in error
    assert log.read_bytes() == before, "a refused log is left as it was"
    _not_clean(directory, log)


def test_a_new_log_after_a_crash_keeps_the_crashed_one_not_clean(
    written: tuple[Path, list[bytes]], tmp_path: Path
) -> None:
    directory, _ = written
    log = write_lines(tmp_path / "rounds.jsonl", read_lines(directory / "crashed.jsonl"))
    engine = run_engine([*_options(directory, log), "--audit-new-log"], tmp_path / "new.err")
    try:
        settle(engine.address, ["n1"])  # type: ignore[attr-defined]
    finally:
        assert stop(engine, tmp_path / "new.err") == 0
    (kept,) = (p for p in tmp_path.iterdir() if p.name.startswith("rounds.jsonl."))
    output = _not_clean(directory, kept)
    assert "unsealed" in output
    assert "truncated" in output
    result = invoke("audit", "verify", log, "--public-key", directory / "operator.pub")
    assert result.exit_code == 0, result.output
    assert [e.record.round_id for e in read_log(log) if e.record is not None] == ["n1"]


def test_a_closing_checkpoint_removed_from_the_middle_is_a_hidden_restart(
    written: tuple[Path, list[bytes]], tmp_path: Path
) -> None:
    """A second run continues the closed log; deleting the first run's closing checkpoint
    would hide the restart, and the second run's checkpoints count it."""
    directory, closed = written
    log = write_lines(tmp_path / "rounds.jsonl", closed)
    engine = run_engine(_options(directory, log), tmp_path / "second.err")
    try:
        settle(engine.address, ["s1", "s2"])  # type: ignore[attr-defined]
    finally:
        assert stop(engine, tmp_path / "second.err") == 0
    result = invoke("audit", "verify", log, "--public-key", directory / "operator.pub")
    assert result.exit_code == 0, result.output
    assert "restarted 1 time on it" in " ".join(result.output.split())
    lines = read_lines(log)
    index = len(closed) - 1
    assert b'"closing":true' in lines[index]
    hidden = write_lines(tmp_path / "hidden.jsonl", lines[:index] + lines[index + 1 :])
    output = " ".join(_not_clean(directory, hidden).split())
    assert "restart-mismatch" in output
    assert (
        "the checkpoint counts 1 restart of the log's writer before it, and the log shows 0"
        in output
    )


def test_a_checkpoint_copied_after_itself_is_a_duplicate(
    written: tuple[Path, list[bytes]], tmp_path: Path
) -> None:
    directory, closed = written
    periodic = next(i for i, line in enumerate(closed) if b'"checkpoint"' in line)
    copied = write_lines(tmp_path / "copied.jsonl", closed[: periodic + 1] + closed[periodic:])
    output = " ".join(_not_clean(directory, copied).split())
    assert (
        f"record {periodic + 2}: checkpoint-duplicate: the same checkpoint as one just before it"
        in output
    )
