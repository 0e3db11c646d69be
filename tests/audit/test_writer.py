"""A writer never loses a log: it continues an existing one, refuses what it cannot continue.

The issue's case: a restarted engine (``--audit-log`` on an existing file) truncated its
log to zero without a word. Here the demo engine is restarted on its own log, as a process
and in process, and damaged logs are offered to the kit: none is ever shortened.
"""

from __future__ import annotations

import errno
import json
import os
import resource
from pathlib import Path

import grpc
import pytest

from croupier.clients import adapter
from croupier.clients.audit import AuditLogError, AuditWriter, read_log
from croupier.clients.client import CroupierClient, CroupierError
from croupier.clients.demo_engine import DemoEngine
from croupier.v1 import round_pb2
from tests.audit.engines import refused, run_engine, settle, stop
from tests.audit.support import invoke, read_lines, write_lines
from tests.clients.conftest import baccarat_deal


def test_restarting_the_demo_engine_continues_its_signed_log(tmp_path: Path) -> None:
    assert invoke("audit", "keygen", tmp_path / "operator").exit_code == 0
    log = tmp_path / "rounds.jsonl"
    args: list[object] = [
        "--audit-log",
        log,
        "--audit-key",
        tmp_path / "operator.key",
        "--audit-checkpoint-every",
        2,
    ]
    first = run_engine(args, tmp_path / "first.err")
    try:
        settle(first.address, ["r1", "r2", "r3"])  # type: ignore[attr-defined]
    finally:
        assert stop(first, tmp_path / "first.err") == 0
    written = log.read_bytes()

    second = run_engine(args, tmp_path / "second.err")
    try:
        settle(second.address, ["r4", "r5"])  # type: ignore[attr-defined]
    finally:
        assert stop(second, tmp_path / "second.err") == 0

    assert (tmp_path / "first.err").read_text() == ""
    assert f"audit: continuing {log} after record 3 (restart 1 of this log)\n" in (
        (tmp_path / "second.err").read_text()
    )
    # Nothing of the first run is lost: the second run's entries follow its bytes.
    assert log.read_bytes().startswith(written)
    lines = [json.loads(line) for line in read_lines(log)]
    assert [(int(r["sequence"]), r["roundId"]) for r in lines if "roundId" in r] == [
        (1, "r1"),
        (2, "r2"),
        (3, "r3"),
        (4, "r4"),
        (5, "r5"),
    ]
    result = invoke("audit", "verify", log, "--public-key", tmp_path / "operator.pub")
    assert result.exit_code == 0, result.output
    assert "sealed: every record is sealed" in result.output
    assert "5 records, 5 rounds (baccarat-c: 5), 4 checkpoints\n" in result.output
    # The first run closed its log at record 3 and checkpoint 5 (every 2): record 6 restarts.
    assert (
        "restarts: the log's writer restarted 1 time on it, each after a closing "
        "checkpoint: after sequence 3 (record 6)." in " ".join(result.output.split())
    )


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """A log of three rounds, written by the demo engine through the kit."""
    path = tmp_path / "rounds.jsonl"
    served = adapter.serve(DemoEngine(), port=0, audit_log=path)
    try:
        settle(f"127.0.0.1:{served.port}", ["a", "b", "c"])
    finally:
        served.stop(grace=0)
    return path


def _refused(path: Path, *options: str) -> None:
    """The kit's command line refuses to start on ``path`` (exit 2), and leaves it as it was."""
    before = path.read_bytes()
    with pytest.raises(SystemExit) as stopped:
        adapter.main(DemoEngine(), ["--audit-log", str(path), *options])
    assert stopped.value.code == 2
    assert path.read_bytes() == before, "a refused log is left as it was"


def test_a_log_cut_in_the_middle_of_a_record_is_refused(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = read_lines(log)
    write_lines(log, [*lines[:-1], lines[-1][:40]])
    _refused(log)
    error = capsys.readouterr().err
    offset = sum(len(line) for line in lines[:-1])
    assert error.startswith(f"error: {log} cannot be continued: its last entry (byte {offset}) ")
    assert "truncated last line" in error
    assert "--audit-new-log keeps it under another name" in error


def test_a_binary_log_cut_short_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "rounds.bin"
    writer = AuditWriter.open(path, "binary", durable=False)
    for number in range(3):
        writer.append(round_pb2.RoundRecord(round_id=f"r{number}", profile_id="baccarat-c"))
    writer.close()
    whole = path.read_bytes()
    path.write_bytes(whole[:-3])
    with pytest.raises(
        AuditLogError,
        match=r"cannot be continued: its last entry \(byte \d+\) is damaged \(truncated record",
    ):
        AuditWriter.open(path, "binary")
    assert path.read_bytes() == whole[:-3]


def test_a_log_of_the_other_format_is_refused(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _refused(log, "--audit-format", "binary")
    assert (
        f"error: {log} is a jsonl audit log, and this writer writes binary: continue it in "
        "its own format (--audit-format jsonl), or start a new log (--audit-new-log)"
    ) in capsys.readouterr().err


def test_a_log_without_sequence_numbers_is_refused(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [json.loads(line) for line in read_lines(log)]
    for record in records:
        del record["sequence"]
    log.write_text("".join(json.dumps(r) + "\n" for r in records))
    _refused(log)
    assert "its last record carries no sequence number (an older writer wrote it)" in (
        capsys.readouterr().err
    )


def test_a_file_that_is_no_log_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("shift notes, not a log\n")
    _refused(notes)
    assert "is not a Croupier audit log" in capsys.readouterr().err


def test_a_new_log_keeps_the_old_file(log: Path) -> None:
    lines = read_lines(log)
    write_lines(log, [*lines[:-1], lines[-1][:40]])  # damaged: it cannot be continued
    damaged = log.read_bytes()
    served = adapter.serve(DemoEngine(), port=0, audit_log=log, audit_new_log=True)
    try:
        assert served.adapter.audit is not None
        notice = served.adapter.audit.notice
        settle(f"127.0.0.1:{served.port}", ["d"])
    finally:
        served.stop(grace=0)
    (kept,) = (p for p in log.parent.iterdir() if p.name.startswith(f"{log.name}."))
    assert kept.read_bytes() == damaged
    assert notice == f"kept the existing {log} as {kept.name}; started a new log"
    (record,) = (json.loads(line) for line in read_lines(log))
    assert (record["roundId"], record["sequence"]) == ("d", "1")
    assert "previousRecordSha256" not in record


def test_a_second_writer_is_refused(log: Path) -> None:
    writer = AuditWriter.open(log)
    try:
        with pytest.raises(AuditLogError, match="is in use by another writer"):
            AuditWriter.open(log)
    finally:
        writer.close()
    assert AuditWriter.open(log).sequence == 3


def test_a_failed_write_leaves_no_part_of_the_record(
    log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = log.read_bytes()
    writer = AuditWriter.open(log)
    real = os.write

    def half_then_fail(fd: int, data: bytes | memoryview) -> int:
        real(fd, bytes(data)[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", half_then_fail)
    with pytest.raises(OSError, match="No space left"):
        writer.append(round_pb2.RoundRecord(round_id="lost", profile_id="baccarat-c"))
    monkeypatch.undo()
    assert log.read_bytes() == before
    writer.append(round_pb2.RoundRecord(round_id="kept", profile_id="baccarat-c"))
    writer.close()
    entries = list(read_log(log))
    assert [e.error for e in entries] == [""] * 4
    assert [(e.record.round_id, e.record.sequence) for e in entries if e.record][-1] == ("kept", 4)


def test_every_entry_is_flushed_to_disk_before_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert invoke("audit", "keygen", tmp_path / "k").exit_code == 0
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.fstat(fd).st_size), real(fd)))
    served = adapter.serve(
        DemoEngine(),
        port=0,
        audit_log=tmp_path / "rounds.bin",
        audit_format="binary",
        audit_key=tmp_path / "k.key",
        audit_checkpoint_every=2,
    )
    settle(f"127.0.0.1:{served.port}", ["a", "b", "c"])
    served.stop(grace=0)
    # Three records, a checkpoint after the second (written with it, as one), a closing one:
    # each write synced once, in order.
    assert len(synced) == 4
    assert synced == sorted(set(synced))
    assert synced[-1] == (tmp_path / "rounds.bin").stat().st_size


def test_a_round_whose_record_cannot_be_written_is_not_settled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served = adapter.serve(DemoEngine(), port=0, audit_log=tmp_path / "rounds.jsonl")
    try:
        assert served.adapter.audit is not None
        with CroupierClient.connect(f"127.0.0.1:{served.port}", timeout=30) as client:
            client.deal(baccarat_deal("r1"))

            def full(data: bytes) -> None:
                raise OSError(errno.ENOSPC, "No space left on device")

            monkeypatch.setattr(served.adapter.audit, "_write", full)
            with pytest.raises(CroupierError) as refused:
                client.settle("r1")
            assert refused.value.code is grpc.StatusCode.INTERNAL
            assert "No space left on device" in str(refused.value)
            monkeypatch.undo()
            # The round stayed open: once the disk has room, it settles and is logged.
            settled = client.settle("r1")
    finally:
        served.stop(grace=0)
    assert settled.settlement.total_returned.minor_units == 195
    assert [json.loads(line)["roundId"] for line in read_lines(tmp_path / "rounds.jsonl")] == ["r1"]


def test_an_audit_key_without_a_log_is_bad_usage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        adapter.main(DemoEngine(), ["--audit-key", str(tmp_path / "none.key")])
    assert stopped.value.code == 2
    assert "error: an audit key signs an audit log: give --audit-log too" in capsys.readouterr().err


def test_a_key_that_cannot_be_read_is_bad_usage(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = log.with_name("missing.key")
    _refused(log, "--audit-key", str(key))
    assert f"error: cannot read the audit key {key}: No such file or directory" in (
        capsys.readouterr().err
    )


def test_a_round_settled_after_the_log_is_sealed_is_refused(tmp_path: Path) -> None:
    """The closing checkpoint is the log's last entry: a late Settle fails, its round unpaid."""
    assert invoke("audit", "keygen", tmp_path / "k").exit_code == 0
    log = tmp_path / "rounds.jsonl"
    served = adapter.serve(DemoEngine(), port=0, audit_log=log, audit_key=tmp_path / "k.key")
    try:
        with CroupierClient.connect(f"127.0.0.1:{served.port}", timeout=30) as client:
            client.deal(baccarat_deal("r1"))
            client.settle("r1")
            client.deal(baccarat_deal("r2"))
            served.adapter.close_audit()
            with pytest.raises(CroupierError) as refused:
                client.settle("r2")
    finally:
        served.stop(grace=0)
    assert refused.value.code is grpc.StatusCode.INTERNAL
    assert f"the audit log {log} is closed" in str(refused.value)
    entries = [json.loads(line) for line in read_lines(log)]
    assert [
        e.get("roundId") or ("closing" if e["checkpoint"]["closing"] else "") for e in entries
    ] == [
        "r1",
        "closing",
    ]
    result = invoke("audit", "verify", log, "--public-key", tmp_path / "k.pub")
    assert result.exit_code == 0, result.output


def test_a_record_whose_checkpoint_does_not_fit_is_undone_and_settles_once(
    tmp_path: Path,
) -> None:
    """A file size limit on the engine process leaves room for a record, not its checkpoint.

    The record and its checkpoint are one write: Settle fails with nothing logged, the round
    stays open, and once the limit is lifted it settles and is logged once.
    """
    assert invoke("audit", "keygen", tmp_path / "operator").exit_code == 0
    log = tmp_path / "rounds.jsonl"
    options: list[object] = ["--audit-log", log, "--audit-key", tmp_path / "operator.key"]
    engine = run_engine([*options, "--audit-checkpoint-every", 2], tmp_path / "engine.err")
    try:
        with CroupierClient.connect(engine.address, timeout=30) as client:  # type: ignore[attr-defined]
            client.deal(baccarat_deal("r1"))
            client.settle("r1")
            first = log.stat().st_size
            # The second record is the first's size and its link (under 100 bytes more); a
            # checkpoint is over 200 bytes.
            limit = 2 * first + 150
            resource.prlimit(engine.pid, resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
            client.deal(baccarat_deal("r2"))
            with pytest.raises(CroupierError) as failed:
                client.settle("r2")
            assert failed.value.code is grpc.StatusCode.INTERNAL
            assert "File too large" in str(failed.value)
            assert log.stat().st_size == first, "the record without its checkpoint was undone"
            resource.prlimit(
                engine.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
            )
            settled = client.settle("r2")
    finally:
        assert stop(engine, tmp_path / "engine.err") == 0
    assert settled.settlement.total_returned.minor_units == 195
    rounds = [e.record.round_id for e in read_log(log) if e.record is not None]
    assert rounds == ["r1", "r2"]
    result = invoke("audit", "verify", log, "--public-key", tmp_path / "operator.pub")
    assert result.exit_code == 0, result.output
    assert "sealed: every record is sealed" in " ".join(result.output.split())


def test_a_fifo_as_the_log_is_refused_at_once(tmp_path: Path) -> None:
    """Before: the engine blocked at start, waiting for a reader, without a word."""
    fifo = tmp_path / "rounds.jsonl"
    os.mkfifo(fifo)
    error = refused(["--audit-log", fifo], tmp_path / "engine.err")
    assert f"error: cannot use {fifo} as an audit log: it is not a regular file" in error


def test_a_log_renamed_while_running_takes_no_more_records(tmp_path: Path) -> None:
    """Before: records went on into the renamed file, which nobody would look for."""
    log = tmp_path / "rounds.jsonl"
    engine = run_engine(["--audit-log", log], tmp_path / "engine.err")
    try:
        with CroupierClient.connect(engine.address, timeout=30) as client:  # type: ignore[attr-defined]
            client.deal(baccarat_deal("r1"))
            client.settle("r1")
            moved = log.rename(tmp_path / "moved.jsonl")
            client.deal(baccarat_deal("r2"))
            with pytest.raises(CroupierError) as failed:
                client.settle("r2")
    finally:
        stop(engine, tmp_path / "engine.err")
    assert failed.value.code is grpc.StatusCode.INTERNAL
    assert f"the audit log {log} was renamed or deleted while the engine ran" in str(failed.value)
    assert [e.record.round_id for e in read_log(moved) if e.record is not None] == ["r1"]


def test_sigterm_when_the_log_cannot_grow_says_the_log_is_unsealed(tmp_path: Path) -> None:
    """Before: the closing checkpoint's failed write ended the engine in a traceback."""
    assert invoke("audit", "keygen", tmp_path / "operator").exit_code == 0
    log = tmp_path / "rounds.jsonl"
    options: list[object] = ["--audit-log", log, "--audit-key", tmp_path / "operator.key"]
    engine = run_engine(options, tmp_path / "engine.err")
    settle(engine.address, ["r1"])  # type: ignore[attr-defined]
    size = log.stat().st_size
    resource.prlimit(engine.pid, resource.RLIMIT_FSIZE, (size, resource.RLIM_INFINITY))
    assert stop(engine, tmp_path / "engine.err") == 1
    error = (tmp_path / "engine.err").read_text()
    assert "Traceback" not in error
    assert f"error: stopped, but the audit log {log} could not be sealed (" in error
    assert "it ends without its closing checkpoint" in error
    assert log.stat().st_size == size
    result = invoke("audit", "verify", log, "--public-key", tmp_path / "operator.pub")
    assert result.exit_code == 1
    assert "truncated" in result.output
