"""``make bench`` part ``plugin``: the pytest plugin inert, and the corpus through it.

What the plugin costs a run that does not use it, and the whole corpus through it, serial
against two xdist workers.

- inert: CPU milliseconds of ``pytest --collect-only`` of one trivial test, in a fresh process,
  with the plugin against ``-p no:croupier`` (medians of interleaved runs; goal: under 50 ms
  more). CPU time of the child, not wall time: a shared machine's load does not move it.
- corpus: wall seconds of ``pytest --croupier-launch "python -m croupier.clients.demo_engine"``
  over the whole shipped corpus, with ``-n 2`` against serial (goal: faster, a ratio of serial
  over ``-n 2`` above 1), the medians of interleaved runs of each (3; 1 with ``--quick``); the
  note gives each one's CPU seconds (pytest, its workers and their engines). ``--quick`` plays
  what ``-k "h0 or h1 or h2 or h3"`` selects: the hand-written vectors, about 470.
"""

from __future__ import annotations

import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.figures import Figure, Goal

INERT_GOAL = Goal(below=50.0, on="value", text="< 50 ms more")
PARALLEL_GOAL = Goal(at_least=1.0, text="> 1.00x (faster)")
DEMO = shlex.join([sys.executable, "-m", "croupier.clients.demo_engine", "--port", "0"])


def _child_cpu_ms(argv: list[str], cwd: Path) -> float:
    """CPU milliseconds (user and system) of one child process run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, cwd=cwd, capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used * 1000


def inert_cost(repeat: int) -> tuple[float, float]:
    """Median CPU ms of a collect-only run with the plugin, and without it."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "test_one.py").write_text("def test_one():\n    pass\n", encoding="utf-8")
        base = [sys.executable, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider"]
        # One of each first: the page cache holds every file either run reads.
        _child_cpu_ms(base, work)
        _child_cpu_ms([*base, "-p", "no:croupier"], work)
        with_plugin, without = [], []
        for _ in range(repeat):
            with_plugin.append(_child_cpu_ms(base, work))
            without.append(_child_cpu_ms([*base, "-p", "no:croupier"], work))
    return statistics.median(with_plugin), statistics.median(without)


def corpus_seconds(workers: int, *, quick: bool) -> tuple[float, float, str]:
    """Wall and CPU seconds of the plugin playing the corpus on the demo engine, and pytest's last line.

    CPU: user and system time of pytest and every process it waited for (xdist's workers,
    their engines).
    """
    with tempfile.TemporaryDirectory() as tmp:
        argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        argv += ["--croupier-launch", DEMO]
        if quick:
            argv += ["-k", "h0 or h1 or h2 or h3"]
        if workers > 1:
            argv += ["-n", str(workers)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(argv, cwd=tmp, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.strip().splitlines()
    return seconds, cpu, lines[-1] if lines else done.stderr.strip()[-200:]


def _median_run(runs: list[tuple[float, float, str]]) -> tuple[float, float, str]:
    """The run of median wall time (the lower middle one of an even count)."""
    return sorted(runs)[(len(runs) - 1) // 2]


def bench_plugin(*, repeat: int, runs_each: int, quick: bool) -> list[tuple[str, Figure]]:
    """The plugin's figures, each with the note that says what was measured."""
    figures: list[tuple[str, Figure]] = []
    with_plugin, without = inert_cost(repeat)
    figures.append(
        (
            (
                f"plugin: CPU of `pytest --collect-only` of one test in a fresh process, with "
                f"the inert plugin against -p no:croupier (medians of {repeat} interleaved "
                "runs); the value is the difference"
            ),
            Figure(
                name="plugin inert cost",
                value=with_plugin - without,
                unit="ms",
                anchor="without",
                anchor_value=without,
                ratio=with_plugin / without if without > 0 else None,
                goal=INERT_GOAL,
            ),
        )
    )
    # Interleaved, so that a shared machine's load falls on both alike: the medians.
    runs: dict[int, list[tuple[float, float, str]]] = {1: [], 2: []}
    for _ in range(runs_each):
        for workers in (1, 2):
            runs[workers].append(corpus_seconds(workers, quick=quick))
    (serial, serial_cpu, serial_line), (parallel, parallel_cpu, parallel_line) = (
        _median_run(runs[1]),
        _median_run(runs[2]),
    )
    what = "the hand-written vectors (-k)" if quick else "the whole shipped corpus"
    figures.append(
        (
            (
                f"plugin: wall seconds of pytest --croupier-launch (demo engine) over {what}, "
                f"-n 2 against serial, {os.cpu_count()} cores (medians of {runs_each} "
                f"interleaved runs each); serial: {serial_cpu:.1f} s CPU, {serial_line!r}; "
                f"-n 2: {parallel_cpu:.1f} s CPU, {parallel_line!r}; the ratio is serial over -n 2"
            ),
            Figure(
                name="plugin corpus, -n 2",
                value=parallel,
                unit="s",
                anchor="serial",
                anchor_value=serial,
                ratio=serial / parallel if parallel > 0 else None,
                goal=PARALLEL_GOAL,
            ),
        )
    )
    return figures
