"""``croupier explore --dask`` on 1 and 2 workers: the speed-up, and that nothing else changes.

The same exploration (the seven shipped profiles of the demo engine, seed ``bench``, the same
budget and chunk size) on a Dask ``LocalCluster`` of 1, then of 2, single-threaded worker
processes (``--dask local:N``), each worker launching its own demo engine. The clusters are
started before the clock; each run's seconds are the explore's own
(``ExploreReport.seconds``: the first engine's Describe, every worker's engine launch, the
chunks, the merge). Runs alternate, three of each; the figure is the median of the 2-worker
rates over the 1-worker rates; the note says whether every run drew the same rounds and
found the same (they must: chunk-local steering).
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable

from bench.figures import Figure, Goal, repeated
from croupier.conformance.explore.cluster import DaskOptions, explore_on_dask
from croupier.conformance.explore.search import ExploreConfig, ExploreReport
from croupier.conformance.results import signature
from croupier.oracle.profile import shipped_profiles

DEMO = shlex.join([sys.executable, "-m", "croupier.clients.demo_engine", "--port", "0"])
#: Two workers, each with its engine, share the machine's cores with the main process: on
#: two cores, four busy processes. The audit's goal (1.8x) has no engine beside each worker.
SPEED_UP_GOAL = Goal(at_least=1.5, text=">= 1.50x")


def _explored(workers: int, rounds: int, chunk: int) -> ExploreReport:
    config = ExploreConfig(profiles=shipped_profiles(), launch=DEMO, rounds=rounds, seed="bench")
    # local:N, as croupier explore --dask local:N starts it: up before the run's clock starts.
    return explore_on_dask(config, DaskOptions(address=f"local:{workers}", chunk_rounds=chunk))


def _seen(report: ExploreReport) -> list[object]:
    return [
        (
            p.profile_id,
            p.rounds,
            sorted(p.cells.counts.items()),
            [(f.vector.id, f.found_after, signature(f.result)) for f in p.findings],
        )
        for p in report.profiles
    ]


def bench_explore_dask(
    *, quick: bool, show: Callable[[Figure], None], note: Callable[[str], None]
) -> None:
    """Explore's rounds/s on a 2-worker LocalCluster against a 1-worker one, interleaved."""
    rounds, chunk, repeat = (100, 50, 1) if quick else (600, 150, 3)
    ones: list[ExploreReport] = []
    twos: list[ExploreReport] = []
    for _ in range(repeat):
        ones.append(_explored(1, rounds, chunk))
        twos.append(_explored(2, rounds, chunk))
    same = all(_seen(report) == _seen(ones[0]) for report in (*ones, *twos))
    note(
        f"explore-dask: {ones[0].rounds:,} rounds over the 7 shipped profiles (chunks of "
        f"{chunk}), on 1 worker in {', '.join(f'{r.seconds:.1f}' for r in ones)} s, on 2 in "
        f"{', '.join(f'{r.seconds:.1f}' for r in twos)} s, each worker with its own demo "
        f"engine; every run the same rounds, coverage and findings: {'yes' if same else 'NO'}"
    )
    show(
        repeated(
            "explore --dask rounds/s, 2 workers vs 1",
            [r.rounds / r.seconds for r in twos],
            ("1 worker", [r.rounds / r.seconds for r in ones]),
            SPEED_UP_GOAL,
        )
    )
