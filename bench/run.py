"""Croupier's benchmarks: oracle rounds per second per game, runner throughput, audit replay.

``python -m bench.run [--records N] [--only NAME]``. Numbers are printed, never
asserted: speed is measured here and not in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from croupier.v1 import round_pb2

from clients.audit import AuditWriter
from conformance.vectors import campaign
from oracle.blackjack import Decision
from oracle.profile import Profile, shipped_profiles
from oracle.roulette import TableHistory
from oracle.rounds import RoundRequest, apply_decision, start_round
from oracle.service import convert

Play = tuple[RoundRequest, list[Decision]]


def _timed(label: str, count: int, work: Callable[[], None]) -> None:
    started = time.perf_counter()
    work()
    seconds = time.perf_counter() - started
    print(f"{label:<44} {count / seconds:>12,.0f} /s   ({count:,} in {seconds:.2f} s)")


def bench_oracle(rounds: int) -> None:
    """Rounds per second through the oracle in process, per profile (requests prepared first)."""
    for profile in shipped_profiles():
        vectors = campaign(profile, "bench", rounds, "b")
        plays = [
            (
                convert.round_request_from(vr.deal),
                [convert.decision_from(s.decision) for s in vr.steps],
            )
            for v in vectors
            for vr in v.rounds
        ]

        def work(profile: Profile = profile, plays: list[Play] = plays) -> None:
            board: TableHistory | None = None
            for request, decisions in plays:
                current = start_round(profile, request, board)
                for decision in decisions:
                    current = apply_decision(current, decision)
                current.settlement  # noqa: B018 - settle, as an engine would
                board = getattr(current.game, "history", board)

        _timed(f"oracle rounds, {profile.id}", len(plays), work)


def bench_runner() -> None:
    """Vectors per second: the shipped corpus against the reference server over loopback."""
    server = subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        address = server.stdout.readline().split()[-1]
        started = time.perf_counter()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "conformance.cli",
                "certify",
                "--target",
                address,
                "--report",
                os.devnull,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        whole = time.perf_counter() - started
        line = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-300:]
        # The rate over the run itself (the summary line's own time), not the command's start-up.
        found = re.search(r": (\d+) vectors .* in ([\d.]+) s$", line)
        vectors, seconds = (int(found[1]), float(found[2])) if found else (0, whole)
        print(
            f"{'runner vectors vs reference server':<44} {vectors / seconds:>12,.0f} /s   "
            f"({line}; {whole:.1f} s with start-up)"
        )
    finally:
        server.terminate()
        server.wait()


def write_log(path: Path, records: int) -> None:
    """A chained log of ``records`` rounds over all profiles: a campaign replayed, ids made unique."""
    base: list[round_pb2.RoundRecord] = []
    for profile in shipped_profiles():
        for vector in campaign(profile, "bench-log", 200, profile.id):
            board = None
            for vr in vector.rounds:
                current = start_round(profile, convert.round_request_from(vr.deal), board)
                for step in vr.steps:
                    current = apply_decision(current, convert.decision_from(step.decision))
                board = getattr(current.game, "history", board)
                base.append(convert.round_record(current))
    writer = AuditWriter.open(path, "binary", durable=False)  # a throwaway log: no fsync per record
    for index in range(records):
        record = round_pb2.RoundRecord()
        record.CopyFrom(base[index % len(base)])
        # Each copy of a roulette table is its own table, so every board stays true.
        lap = index // len(base)
        record.round_id = f"{record.round_id}-{lap}"
        record.table_id = f"{record.table_id}-{lap}"
        record.final_state.round_id = record.round_id
        writer.append(record)
    writer.close()


def bench_audit(records: int) -> None:
    """Audit records verified per second with 1 and 2 workers, and the peak memory of each run."""
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "bench.log"
        started = time.perf_counter()
        write_log(log, records)
        size = log.stat().st_size
        print(
            f"{'(log written)':<44} {records:>12,} records, {size / 1e6:,.0f} MB in {time.perf_counter() - started:.0f} s"
        )
        for workers in (1, 2):
            report = Path(tmp) / f"report-{workers}.json"
            code = (
                "import resource, sys, time\n"
                "from pathlib import Path\n"
                "from conformance.audit import audit_log\n"
                "t = time.perf_counter()\n"
                f"s = audit_log(Path({str(log)!r}), workers={workers}, report_path=Path({str(report)!r}))\n"
                "dt = time.perf_counter() - t\n"
                "own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
                "kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
                "print(s.records, dt, own, kids, s.clean)\n"
            )
            out = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            )
            count, seconds, own, kids, clean = out.stdout.split()
            print(
                f"{f'audit verify, {workers} worker(s)':<44} {int(count) / float(seconds):>12,.0f} /s   "
                f"({int(count):,} in {float(seconds):.1f} s; peak RSS main {int(own) / 1024:.0f} MiB, "
                f"largest worker {int(kids) / 1024:.0f} MiB; clean={clean})"
            )


def main() -> None:
    """Run the benchmarks named on the command line (all by default)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--records", type=int, default=1_000_000, help="audit log size (default 1,000,000)"
    )
    parser.add_argument(
        "--rounds", type=int, default=2000, help="oracle rounds per profile (default 2000)"
    )
    parser.add_argument("--only", choices=("oracle", "runner", "audit"), action="append")
    args = parser.parse_args()
    chosen = args.only or ["oracle", "runner", "audit"]
    print(json.dumps({"python": sys.version.split()[0], "cpus": os.cpu_count()}))
    if "oracle" in chosen:
        bench_oracle(args.rounds)
    if "runner" in chosen:
        bench_runner()
    if "audit" in chosen:
        bench_audit(args.records)


if __name__ == "__main__":
    main()
