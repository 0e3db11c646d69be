"""One audit verify of a log, in a process of its own, so that its peak memory is its own.

``python -m bench.audit LOG --workers N [--dask]`` verifies LOG with N workers of the local
process pool, or of a Dask ``LocalCluster`` of N single-threaded worker processes (started
before the clock). It prints one JSON line: records, seconds, whether the log was clean, and
the peak RSS in KiB of this process and of its largest child (a pool worker, or the process
that computes the basic-strategy returns beside them; with Dask, the largest of the cluster's
processes too).
"""

from __future__ import annotations

import argparse
import importlib
import json
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from croupier.conformance.audit.verify import AuditSummary, audit_log


def peak_rss_kib() -> int:
    """This process's peak RSS in KiB since it started (Linux's VmHWM).

    Not ``getrusage``: on Linux its ``ru_maxrss`` survives ``exec``, so a process started by
    a larger one reports its parent's peak.
    """
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def verify(log: Path, workers: int, dask_address: str | None) -> tuple[AuditSummary, float]:
    """The audit's summary and its seconds; the report goes to a throwaway file."""
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        summary = audit_log(
            log, workers=workers, dask_address=dask_address, report_path=Path(tmp) / "r.json"
        )
        return summary, time.perf_counter() - started


def main() -> None:
    """Verify the log as asked and print what it took."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("log", type=Path)
    parser.add_argument("--workers", type=int, required=True)
    parser.add_argument("--dask", action="store_true", help="on a Dask LocalCluster")
    args = parser.parse_args()
    if args.dask:
        distributed: Any = importlib.import_module("distributed")
        with distributed.LocalCluster(
            n_workers=args.workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        ) as cluster:
            summary, seconds = verify(args.log, args.workers, cluster.scheduler_address)
    else:
        summary, seconds = verify(args.log, args.workers, None)
    own = peak_rss_kib()
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(
        json.dumps(
            {
                "records": summary.records,
                "seconds": seconds,
                "clean": summary.clean,
                "main_kib": own,
                "worker_kib": children,
            }
        )
    )


if __name__ == "__main__":
    main()
