"""Determinism and scale: the report does not depend on workers, shards or Dask; reading streams."""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.message import DecodeError

from croupier.clients.audit import Entry
from croupier.conformance.audit import verify as conformance_audit
from croupier.conformance.audit.replay import Shard
from croupier.conformance.audit.verify import audit_log
from croupier.oracle.roulette import TableHistory
from croupier.v1 import round_pb2
from tests.audit.support import CASES, INFLATED, AuditLogs, Case, DamagedLog, invoke


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
    (
        paid_more,
        paid_less,
        paid_more_baccarat,
        other_rank,
        no_last_decision,
        total_over,
        line_in_gbp,
        unknown_profile,
        inflated,
        other_suit,
        board,
    ) = damaged.altered
    replayed = {paid_more, paid_less, paid_more_baccarat, other_rank, no_last_decision}
    assert {d["round_id"] for d in report["discrepancies"] if d["kind"] == "rules"} == replayed | {
        other_suit,
        board,
    }
    assert {
        (d["round_id"], d["kind"]) for d in report["discrepancies"] if d["kind"] != "rules"
    } == {
        (total_over, "totals"),
        (line_in_gbp, "mixed-currency"),
    }
    for finding in report["discrepancies"]:
        assert ids[finding["record"] - 1] == finding["round_id"]

    # The next record's link breaks after each altered record (the reused id's included) and
    # after the gap; the swapped pair is reordered; the unreadable entry and the copy of a
    # record, byte for byte, leave the chain whole.
    reuser = [i for i, rid in enumerate(ids) if rid == damaged.reused][-1]
    after = {ids[ids.index(rid) + 1] for rid in damaged.altered} | {ids[reuser + 1]}
    first, second = damaged.swapped
    chain = {(p["round_id"], p["kind"]) for p in report["chain_problems"]}
    gap = {p["round_id"] for p in report["chain_problems"]} - after - {first, second}
    assert len(gap) == 1
    assert chain == {(rid, "broken") for rid in after | gap} | {
        (first, "reordered"),
        (second, "reordered"),
    }
    assert damaged.deleted not in ids
    assert {(p["round_id"], p["kind"]) for p in report["log_problems"]} == {
        (damaged.reused, "round-id-reused"),
        (damaged.duplicated, "duplicate"),
        (gap.pop(), "sequence-gap"),
        (first, "sequence-reversal"),
        (first, "time-backwards"),
    }

    malformed = report["malformed"]
    assert [m["reason"].split(":")[0] for m in malformed] == [
        "not a RoundRecord",
        "truncated record",
    ]
    assert [m["record"] for m in malformed] == [1751, len(damaged.records)]
    unreplayable = report["unreplayable"]
    assert [(u["round_id"], u["reason"].split(":")[0]) for u in unreplayable] == [
        (unknown_profile, "UNKNOWN_PROFILE"),
        (inflated, "INSUFFICIENT_BALANCE"),
    ]
    # Their money stays in the totals, as unverified: the inflated payout too.
    eur = report["totals"]["EUR"]
    assert eur["unverified_paid"] >= INFLATED
    assert eur["difference"] == eur["paid"] - eur["unverified_paid"] - eur["expected_paid"]
    # The line in GBP is counted in GBP: paid by no rule, all of it a difference.
    gbp = report["totals"]["GBP"]
    assert gbp["paid"] == gbp["difference"] > 0
    assert gbp["expected_paid"] == 0
    assert report["records"] == len(damaged.records)
    assert report["counts"] == {
        "discrepancies": len(report["discrepancies"]),
        "malformed": 2,
        "unreplayable": 2,
        "chain": len(report["chain_problems"]),
        "log": 5,
    }


#: The console's sections, in order: the report's list, and its title.
SECTIONS = (
    ("discrepancies", "Discrepancies"),
    ("chain_problems", "Chain problems"),
    ("log_problems", "Log problems"),
    ("malformed", "Malformed entries"),
    ("unreplayable", "Unreplayable records"),
)


def _console_sections(output: str, report: dict[str, Any], show: int) -> None:
    """Each list of the report on the console: its count, its first ``show`` records, the rest
    as a count."""
    lines = output.splitlines()
    starts = [lines.index(f"{title}: {len(report[key])}") for key, title in SECTIONS]
    assert starts == sorted(starts)
    for (key, _), start in zip(SECTIONS, starts, strict=True):
        items = report[key]
        shown = lines[start + 1 : start + 1 + min(show, len(items))]
        assert all(line.startswith("  record ") for line in shown), shown
        # Each line starts with its record number: "record N (round or byte): ..."
        numbers = [int(line.split()[1].rstrip(":")) for line in shown]
        assert numbers == [item["record"] for item in items[:show]]
        after = lines[start + 1 + len(shown)]
        if len(items) > show:
            assert after == f"  ... and {len(items) - show} more (--report lists them all)"
        else:
            assert not after.startswith("  ")


@pytest.mark.parametrize(
    "options",
    [
        ("--workers", 2, "--show", 1),
        ("--workers", 2, "--shard-size", 333),
        ("--workers", 1, "--shard-size", 7, "--show", 0),
    ],
    ids=["2-workers-show-1", "2-workers-333", "1-worker-7-show-0"],
)
def test_report_is_the_same_whatever_the_workers_and_shards(
    damaged: DamagedLog, tmp_path: Path, options: tuple[object, ...]
) -> None:
    report = tmp_path / "report.json"
    result = invoke("audit", "verify", damaged.path, "--report", report, *options)
    assert result.exit_code == 1, result.output
    # --show shortens the console's lists, never the report's.
    assert report.read_bytes() == damaged.report
    show = int(str(options[options.index("--show") + 1])) if "--show" in options else 20
    _console_sections(result.output, json.loads(damaged.report), show)


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
    real = conformance_audit.read_log

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

    monkeypatch.setattr(conformance_audit, "read_log", counting)
    workers, shard = 2, 250
    summary = audit_log(audit_logs.binary, workers=workers, shard_size=shard, progress=progress)

    total = len(audit_logs.rounds)
    assert summary.clean
    assert read == verified == total
    assert len(ahead) == -(-total // shard)
    # At most 2 x workers shards in flight, then one more being cut.
    assert max(ahead) <= 2 * workers * shard < total // 3


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    """A Dask cluster of threads, shared by the per-case comparisons."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


@pytest.mark.parametrize("name", CASES)
def test_dask_gives_the_same_report_on_every_case(
    cases: dict[str, Case], dask_scheduler: str, tmp_path: Path, name: str
) -> None:
    case = cases[name]
    local, on_dask = tmp_path / "local.json", tmp_path / "dask.json"
    here = invoke("audit", "verify", case.path, "--report", local, *case.options)
    there = invoke(
        "audit", "verify", case.path, "--report", on_dask, *case.options, "--dask", dask_scheduler
    )
    assert here.exit_code == there.exit_code == (1 if case.findings else 0), here.output
    assert on_dask.read_bytes() == local.read_bytes()
    assert json.loads(local.read_bytes())["findings"] == case.findings


def test_a_shard_crosses_to_a_worker_whole() -> None:
    board = TableHistory(table_id="t", results=(17, 0, 32))
    items = [(3, b"first", None), (4, b"", board), (9, b"third record", None)]
    shard = Shard()
    for item in items:
        shard.add(*item)
    assert len(shard) == 3
    assert list(shard) == items
    again = pickle.loads(pickle.dumps(shard))  # noqa: S301 - our own bytes
    assert list(again) == items
    assert list(Shard()) == []
