"""``croupier explore`` at scale: its speed beside certify's, its coverage, its zoo.

- ``explore``: explore's rounds/s against the demo engine beside certify's rounds/s on the
  same engine, each launching its own (goal: at least half).
- ``explore-covered``: ``croupier explore --until-covered`` on a launched demo engine, every
  shipped profile, seed ``croupier`` and a budget of 10,000 rounds a profile; per profile the
  rounds it took to reach every cell (pass), or the cells never reached (short).
- ``explore-zoo``: against every mutant of the zoo, the rounds explore plays on the mutant's
  profile, seed ``croupier`` and the default budget, before the first mismatch (not shrunk:
  the rounds until found do not depend on it); median and worst (goals 16 and 300).

Nothing here asserts: figures are printed (``bench.figures``).
"""

from __future__ import annotations

import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench.figures import Figure, Goal, against
from croupier.clients.mutants import MUTANTS
from croupier.conformance.explore.search import ExploreConfig, explore
from croupier.conformance.runner import RunConfig, run
from croupier.conformance.vectors import LoadedVector, load_corpus
from croupier.conformance.zoo import launch_command
from croupier.oracle.profile import shipped_profile, shipped_profiles

DEMO = shlex.join([sys.executable, "-m", "croupier.clients.demo_engine", "--port", "0"])
SPEED_GOAL = Goal(at_least=0.5, text=">= 0.50x")
MEDIAN_GOAL = Goal(below=16.5, on="value", text="<= 16")
WORST_GOAL = Goal(below=300.5, on="value", text="<= 300")
#: The budget and seed of the zoo's rule: ``croupier explore``'s defaults.
ZOO_ROUNDS = 2000
ZOO_SEED = "croupier"
#: ``--until-covered``'s seed (explore's default) and a budget far above what covering takes
#: (a few hundred rounds a profile): a profile that spends it has a cell no draw reaches.
COVER_SEED = "croupier"
COVER_ROUNDS = 10_000


def certify_rate(vectors: Sequence[LoadedVector]) -> tuple[float, int]:
    """Rounds/s of the runner playing ``vectors`` on a launched demo engine, once it is up."""
    import asyncio  # noqa: PLC0415 - only this figure runs a loop here

    began: list[float] = []
    config = RunConfig(
        vectors=vectors, launch=DEMO, on_start=lambda _info: began.append(time.monotonic())
    )
    asyncio.run(run(config))
    seconds = time.monotonic() - began[0]
    rounds = sum(len(v.vector.rounds) for v in vectors)
    return rounds / seconds, rounds


def explore_rate(rounds: int) -> tuple[float, int]:
    """Rounds/s of explore on every shipped profile of a launched demo engine."""
    report = explore(
        ExploreConfig(profiles=shipped_profiles(), launch=DEMO, rounds=rounds, seed="bench")
    )
    seconds = sum(p.seconds for p in report.profiles)
    return report.rounds / seconds, report.rounds


def bench_explore(
    *, quick: bool, show: Callable[[Figure], None], note: Callable[[str], None]
) -> None:
    """Explore's rounds/s beside certify's on the demo engine."""
    corpus = load_corpus()
    vectors = [v for v in corpus if ".hand." in v.path.name] if quick else corpus
    certify, certified = certify_rate(vectors)
    explored_rate, explored = explore_rate(200 if quick else 1500)
    note(
        f"explore: {explored:,} rounds drawn over the 7 shipped profiles against the demo "
        f"engine, beside certify's {certified:,} rounds of "
        f"{'the hand-written vectors' if quick else 'the shipped corpus'} on the same engine "
        "(each launches its own; seconds counted from the engine's Describe)"
    )
    show(against("explore rounds/s vs certify", explored_rate, ("certify", certify), SPEED_GOAL))


def until_covered(rounds: int = COVER_ROUNDS, seed: str = COVER_SEED) -> dict[str, Any]:
    """The JSON summary of ``croupier explore --until-covered`` on a launched demo engine."""
    argv = [sys.executable, "-m", "croupier.conformance.cli", "explore", "--launch", DEMO]
    argv += ["--until-covered", "--seed", seed, "--rounds", str(rounds)]
    argv += ["--json", "--out", os.devnull]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    # 0: nothing found; 1: a mismatch found (said by the figures); anything else: no summary.
    if done.returncode not in {0, 1}:
        raise RuntimeError(f"{shlex.join(argv)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


def covered_figures(summary: dict[str, Any]) -> list[tuple[Figure, str]]:
    """Per profile of an ``--until-covered`` summary: its figure and a line on what it reached.

    The value is the round that reached the last cell, or the rounds played when one stayed
    unreached; the figure passes when every cell was reached, and the line names the cells
    never reached.
    """
    shown = []
    for done in summary["profiles"]:
        coverage = done["coverage"]
        unreached = coverage["unreached"]
        covered_at = coverage["covered_at"]
        cells = f"{coverage['reached']}/{coverage['cells']} cells"
        if covered_at is not None and not unreached:
            line = f"every cell reached in {covered_at:,} rounds"
        else:
            line = f"{len(unreached)} never reached in {done['rounds']:,} rounds: "
            line += ", ".join(unreached)
        if done["findings"]:
            line += f"; {done['findings']} finding(s): the search stops at --max-findings"
        figure = Figure(
            name=f"rounds to cover {done['profile']}",
            value=done["rounds"] if covered_at is None else covered_at,
            unit="rounds",
            goal=Goal(text="every cell"),
            note=cells,
            met=not unreached,
        )
        shown.append((figure, f"explore --until-covered {done['profile']}: {cells}, {line}"))
    return shown


def bench_covered(show: Callable[[Figure], None], note: Callable[[str], None]) -> None:
    """The rounds ``croupier explore --until-covered`` takes to reach every cell, per profile."""
    summary = until_covered()
    note(
        f"explore-covered: croupier explore --until-covered on a launched demo engine, seed "
        f"{summary['seed']!r}, budget {COVER_ROUNDS:,} rounds a profile: {summary['rounds']:,} "
        f"rounds over {len(summary['profiles'])} profiles in {summary['seconds']:.1f} s"
        + (f"; not claimed: {', '.join(summary['skipped'])}" if summary["skipped"] else "")
    )
    for figure, line in covered_figures(summary):
        note(line)
        show(figure)


def _found_after(name: str) -> tuple[str, int | None, str]:
    mutant = MUTANTS[name]
    report = explore(
        ExploreConfig(
            profiles=[shipped_profile(mutant.profile)],
            launch=launch_command(name),
            rounds=ZOO_ROUNDS,
            seed=ZOO_SEED,
            max_findings=1,
            shrink=False,
        )
    )
    if not report.findings:
        return name, None, ""
    return name, report.findings[0].found_after, report.findings[0].result.clause


def bench_zoo(jobs: int, show: Callable[[Figure], None], note: Callable[[str], None]) -> None:
    """Rounds until found against every mutant of the zoo: median and worst."""
    counts: list[int] = []
    missed: list[str] = []
    with ProcessPoolExecutor(jobs) as pool:
        for name, after, clause in pool.map(_found_after, sorted(MUTANTS)):
            note(f"explore-zoo {name}: " + (f"{after} ({clause})" if after else "not found"))
            if after is None:
                missed.append(name)
            else:
                counts.append(after)
    note(
        f"explore-zoo: {len(counts)} of {len(MUTANTS)} mutants found within {ZOO_ROUNDS} rounds "
        f"of their profile, seed {ZOO_SEED!r}"
        + (f"; not found: {', '.join(missed)}" if missed else "")
    )
    worst = max(counts, default=0) if not missed else ZOO_ROUNDS
    show(
        Figure(
            name="explore zoo median rounds until found",
            value=statistics.median(counts or [0]),
            unit="rounds",
            goal=MEDIAN_GOAL,
        )
    )
    show(
        Figure(
            name="explore zoo worst rounds until found", value=worst, unit="rounds", goal=WORST_GOAL
        )
    )
