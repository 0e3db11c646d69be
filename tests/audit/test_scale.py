"""Determinism and scale: the report does not depend on workers, shards or Dask; reading streams."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from croupier.v1 import round_pb2
from google.protobuf.message import DecodeError

import conformance.audit
from clients.audit import Entry
from conformance.audit import audit_log
from tests.audit.support import AuditLogs, DamagedLog, invoke


def _round_id(data: bytes) -> str | None:
    record = round_pb2.RoundRecord()
    try:
        record.ParseFromString(data)
    except DecodeError:
        return None
    return record.round_id


def test_the_damaged_log_reports_every_damage(damaged: DamagedLog) -> None:
    """The reference report the determinism tests compare with finds what the fixture did."""
    report = json.loads(damaged.report)
    ids = [_round_id(data) for data in damaged.records]
    unknown_profile = damaged.altered[5]
    replayed_altered = set(damaged.altered) - {unknown_profile}
    assert {d["round_id"] for d in report["discrepancies"]} == replayed_altered
    for finding in report["discrepancies"]:
        assert ids[finding["record"] - 1] == finding["round_id"]

    # The next record's link breaks after each altered record and after the gap; the swapped
    # pair is reordered; the unreadable entry is skipped without breaking the chain.
    after = {ids[ids.index(rid) + 1] for rid in damaged.altered}
    first, second = damaged.swapped
    chain = {(p["round_id"], p["kind"]) for p in report["chain_problems"]}
    gap = {p["round_id"] for p in report["chain_problems"]} - after - {first, second}
    assert len(gap) == 1
    assert chain == {(rid, "broken") for rid in after | gap} | {
        (first, "reordered"),
        (second, "reordered"),
    }
    assert damaged.deleted not in ids

    malformed = report["malformed"]
    assert [m["record"] for m in malformed] == sorted(m["record"] for m in malformed)
    assert [m["reason"].split(":")[0] for m in malformed] == [
        "UNKNOWN_PROFILE",
        "not a RoundRecord",
        "truncated record",
    ]
    assert malformed[0]["round_id"] == unknown_profile
    assert malformed[1]["record"] == 3501
    assert malformed[2]["record"] == len(damaged.records)
    assert report["records"] == len(damaged.records)


@pytest.mark.parametrize(
    "options",
    [("--workers", 2), ("--workers", 2, "--shard-size", 333), ("--workers", 1, "--shard-size", 7)],
    ids=["2-workers", "2-workers-333", "1-worker-7"],
)
def test_report_is_the_same_whatever_the_workers_and_shards(
    damaged: DamagedLog, tmp_path: Path, options: tuple[object, ...]
) -> None:
    report = tmp_path / "report.json"
    result = invoke("audit", "verify", damaged.path, "--report", report, *options)
    assert result.exit_code == 1, result.output
    assert report.read_bytes() == damaged.report


@pytest.mark.parametrize(
    ("processes", "workers", "threads"),
    [(False, 1, 2), (True, 2, 1)],
    ids=["threads", "processes"],
)
def test_dask_gives_the_same_report(
    damaged: DamagedLog, tmp_path: Path, processes: bool, workers: int, threads: int
) -> None:
    distributed = pytest.importorskip("distributed")
    report = tmp_path / "report.json"
    with distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=threads,
        processes=processes,
        dashboard_address=None,
    ) as cluster:
        result = invoke(
            "audit", "verify", damaged.path, "--report", report, "--dask", cluster.scheduler_address
        )
    assert result.exit_code == 1, result.output
    assert report.read_bytes() == damaged.report


def test_the_log_is_read_as_a_stream(
    audit_logs: AuditLogs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Records are read only a few shards ahead of those verified: never the whole log first."""
    read = 0
    real = conformance.audit.read_log

    def counting(path: Path, fmt: str | None = None) -> Iterator[Entry]:
        nonlocal read
        for entry in real(path, fmt):
            read += 1
            yield entry

    verified = 0
    ahead: list[int] = []

    def progress(count: int) -> None:
        nonlocal verified
        verified += count
        ahead.append(read - verified)

    monkeypatch.setattr(conformance.audit, "read_log", counting)
    workers, shard = 2, 500
    summary = audit_log(audit_logs.binary, workers=workers, shard_size=shard, progress=progress)

    total = len(audit_logs.rounds)
    assert summary.clean
    assert read == verified == total
    assert len(ahead) == -(-total // shard)
    # At most 2 x workers shards in flight, then one more being cut.
    assert max(ahead) <= 2 * workers * shard < total // 3
