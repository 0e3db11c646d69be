"""How long the exact baccarat returns take: every shipped baccarat profile, from cold.

``python -m bench.returns [--runs 5]``. Each run is a fresh interpreter (no cache of coup
trees or counts survives from one run to the next) that imports the oracle, then times
``theoretical_returns`` of baccarat-b, baccarat-c and baccarat-d together. Prints each run,
the median and the worst, beside the goal (issue 16: under a second for all three); the
figure is printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

#: Issue 16: computing all baccarat profiles takes under a second.
GOAL_SECONDS = 1.0


def _once() -> float:
    """One cold computation, in this process: the seconds it took."""
    from oracle.clauses import Game  # noqa: PLC0415 - imported before the clock starts
    from oracle.profile import shipped_profiles  # noqa: PLC0415
    from oracle.returns import theoretical_returns  # noqa: PLC0415

    profiles = [p for p in shipped_profiles() if p.game is Game.BACCARAT]
    start = time.perf_counter()
    for profile in profiles:
        theoretical_returns(profile)
    return time.perf_counter() - start


def main() -> None:
    """Run cold computations in fresh interpreters and print their times."""
    parser = argparse.ArgumentParser(prog="python -m bench.returns")
    parser.add_argument("--runs", type=int, default=5, help="fresh interpreters to time")
    parser.add_argument("--once", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.once:
        print(f"{_once():.6f}")
        return
    seconds = []
    for run in range(args.runs):
        out = subprocess.run(
            [sys.executable, "-m", "bench.returns", "--once"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        seconds.append(float(out))
        print(f"# run {run + 1}: {seconds[-1]:.3f} s for baccarat-b, baccarat-c and baccarat-d")
    median, worst = statistics.median(seconds), max(seconds)
    verdict = "pass" if worst < GOAL_SECONDS else "short"
    print(
        f"baccarat returns, all profiles, cold: median {median:.3f} s, worst {worst:.3f} s, "
        f"goal < {GOAL_SECONDS:.1f} s: {verdict}"
    )


if __name__ == "__main__":
    main()
