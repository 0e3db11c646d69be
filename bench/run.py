"""Croupier's benchmarks: each figure next to an anchor measured in the same run.

``python -m bench.run [--quick] [--only NAME]... [--records N] [--rounds N] [--repeat N]``.
One line per figure: name, value, anchor, ratio, goal, pass or short (``bench.figures``).

- ``blackjack``: oracle blackjack rounds/s on one core against Gymnasium's ``Blackjack-v1``
  with the same policy, repetitions interleaved, median ratio (goal 5x compiled, 2x pure).
- ``oracle``: rounds/s on one core per profile, over campaign rounds (several seats and
  bets); baccarat and roulette aim at 50,000 compiled, 25,000 pure.

Both run once per build of the rules (``oracle/build.py``), each in its own process: the pure
Python modules, then the mypyc-compiled ones when ``make compiled`` could build them (a C
compiler is present); each figure names its build (``pure`` or ``mypyc``).
- ``runner``: gRPC calls/s of ``croupier certify`` against ``croupier serve``, against a bare
  ``grpc.aio`` echo server and client making the same calls at the same concurrency, each in
  its own process (goal 80% of the echo).
- ``audit``: ``croupier audit verify`` records/s of a binary log with 1 and 2 workers, the
  speed-up, records a minute and peak RSS (goals 1.8x, 1,000,000/min, main and each worker
  under 200 MB).
- ``dask``: the same log on a 2-worker Dask ``LocalCluster`` against the local pool (goal:
  within 25%).
- ``explore``, ``explore-covered``, ``explore-zoo``: explore's rounds/s beside certify's on
  the demo engine, the rounds ``croupier explore --until-covered`` takes to reach every cell
  of each shipped profile (pass, or the cells never reached), and the rounds until found
  against the zoo (``bench.explore``).
- ``explore-dask``: ``croupier explore --dask`` rounds/s on a 2-worker ``LocalCluster``
  against a 1-worker one, each worker with its own demo engine, and whether both drew and
  found the same (``bench.explore_dask``).
- ``corpus``: seconds to load the shipped corpus in a fresh process on one core, against the
  same vectors as JSON Lines (goal under 2 s), and the size of 1,000 campaign vectors of a
  lab profile, binary against JSON Lines (goal under 2 MB).
- ``plugin``: what the inert pytest plugin adds to a ``pytest --collect-only`` (CPU ms, goal
  under 50), and the whole corpus through the plugin with ``-n 2`` against serial (goal:
  faster; medians of interleaved runs, each one's CPU in the note); ``bench/plugin.py``.

Numbers are printed, never asserted: speed is measured here and not in tests.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from bench import echo, gym_anchor
from bench.explore import bench_covered, bench_explore, bench_zoo
from bench.explore_dask import bench_explore_dask
from bench.figures import Figure, Goal, against, header, repeated
from bench.plugin import bench_plugin
from croupier.clients.audit import AuditWriter
from croupier.conformance.runner import exchanges
from croupier.conformance.vectors import (
    BINARY,
    CORPUS_DIR,
    campaign,
    corpus_files,
    read_vectors,
    write_vectors,
)
from croupier.oracle import BUILD, build
from croupier.oracle.blackjack import Decision
from croupier.oracle.clauses import Game
from croupier.oracle.profile import Profile, load_profile_file, shipped_profiles
from croupier.oracle.roulette import TableHistory
from croupier.oracle.rounds import RoundRequest, apply_decision, start_round
from croupier.oracle.service import convert
from croupier.v1 import engine_service_pb2, round_pb2

NAMES = (
    "blackjack",
    "oracle",
    "runner",
    "audit",
    "dask",
    "corpus",
    "plugin",
    "explore",
    "explore-covered",
    "explore-zoo",
    "explore-dask",
)
#: The runner's default: vectors in flight at once (``croupier certify --concurrency``).
CONCURRENCY = 16
#: The runner's round ids carry a run prefix of this shape (``run-`` and 8 hex digits).
RUN_PREFIX = "run-00000000-"
MB = 1_000_000

#: The build this process runs, as the rules' figures name it.
BUILD_NAME = "mypyc" if BUILD == build.COMPILED else "pure"
# The goals of issue 15, raised for the compiled build by issue 30: each figure prints pass or
# short against its own.
GYM_GOAL = (
    Goal(at_least=5.0, text=">= 5x") if BUILD_NAME == "mypyc" else Goal(at_least=2.0, text=">= 2x")
)
ROUNDS_GOAL = (
    Goal(at_least=50_000, on="value", text=">= 50,000 /s")
    if BUILD_NAME == "mypyc"
    else Goal(at_least=25_000, on="value", text=">= 25,000 /s")
)
ECHO_GOAL = Goal(at_least=0.80, text=">= 0.80x")
SPEED_UP_GOAL = Goal(at_least=1.8, text=">= 1.80x")
PER_MINUTE_GOAL = Goal(at_least=1_000_000, on="value", text=">= 1,000,000 /min")
RSS_GOAL = Goal(below=200, on="value", text="< 200 MB")
DASK_GOAL = Goal(at_least=0.75, text=">= 0.75x")
# The goals of issue 24: the corpus loads fast, and a lab's corpus stays small.
LOAD_GOAL = Goal(below=2.0, on="value", text="< 2 s")
SIZE_GOAL = Goal(below=2.0, on="value", text="< 2 MB")
#: The lab profile whose 1,000 campaign vectors are weighed (blackjack: the heaviest game).
LAB_PROFILE = Path(__file__).parents[1] / "docs" / "examples" / "atlantic-city.toml"

Play = tuple[RoundRequest, list[Decision]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Sizes:
    """How much each part measures: the full run, or ``--quick`` for a smoke run."""

    rounds: int
    gym_rounds: int
    #: Interleaved repetitions: of Gymnasium and the oracle, of the echo and the runner.
    blackjack_repeat: int
    runner_repeat: int
    records: int
    runner_vectors: tuple[Path, ...]


def show(figure: Figure) -> None:
    """Print one figure's line."""
    print(figure.line(), flush=True)


def note(text: str) -> None:
    """Print a line of context (what was measured, against what)."""
    print(f"# {text}", flush=True)


# --- oracle blackjack against Gymnasium -------------------------------------------------------


def bench_blackjack(sizes: Sizes) -> None:
    """Oracle blackjack rounds/s against Gymnasium's Blackjack-v1, median ratio of repetitions."""
    repeat = sizes.blackjack_repeat
    oracle_rates, gym_rates, described = gym_anchor.measure(sizes.gym_rounds, repeat)
    note(
        f"anchor: {described}; policy hit below 17 else stand, one seat; oracle "
        f"{gym_anchor.PROFILE}, seeded 6-deck shoes, insurance declined, settled; "
        f"{repeat} x {sizes.gym_rounds:,} rounds each, interleaved; build: {BUILD}"
    )
    name = f"oracle blackjack rounds/s, 1 core, {BUILD_NAME}"
    show(repeated(name, oracle_rates, ("gym", gym_rates), GYM_GOAL))


# --- oracle rounds per profile ----------------------------------------------------------------


def _plays(profile: Profile, rounds: int) -> list[Play]:
    return [
        (
            convert.round_request_from(vr.deal),
            [convert.decision_from(s.decision, vr.deal.currency_code) for s in vr.steps],
        )
        for v in campaign(profile, "bench", rounds, "b")
        for vr in v.rounds
    ]


def _play_all(profile: Profile, plays: list[Play]) -> float:
    """The CPU seconds of one core playing ``plays``: per core, whatever else the machine runs.

    The garbage the requests' preparation left is collected before the clock: its deferred
    full collection (about 60 ms, measured) otherwise fell inside one profile's 2,000 rounds.
    """
    gc.collect()
    started = time.process_time()
    board: TableHistory | None = None
    for request, decisions in plays:
        current = start_round(profile, request, board)
        for decision in decisions:
            current = apply_decision(current, decision)
        current.settlement  # noqa: B018 - settle, as an engine would
        board = current.history or board
    return time.process_time() - started


def bench_oracle(sizes: Sizes) -> None:
    """Rounds per second through the oracle in process, per profile (requests prepared first)."""
    note(
        f"oracle: {sizes.rounds:,} campaign rounds per profile on one core (about 2 seats; "
        "baccarat about 3 bets, roulette 5 bets a round), requests prepared before the clock, "
        "CPU time; "
        f"build: {BUILD}"
    )
    for profile in shipped_profiles():
        plays = _plays(profile, sizes.rounds)
        seconds = _play_all(profile, plays)
        aimed = profile.game in {Game.BACCARAT, Game.ROULETTE}
        show(
            Figure(
                name=f"oracle {profile.id} rounds/s, {BUILD_NAME}",
                value=len(plays) / seconds,
                unit="/s",
                goal=ROUNDS_GOAL if aimed else None,
            )
        )


# --- the runner against a bare gRPC echo ------------------------------------------------------


def runner_payloads(paths: Sequence[Path]) -> list[bytes]:
    """The request bytes of every call the runner makes against a conformant engine, in order.

    Describe first, then each vector's rounds: Deal, each Decide, Settle; a round stops at
    the call its vector expects to be refused. Vectors of every profile apply (the
    reference server claims them all).
    """
    payloads = [engine_service_pb2.DescribeRequest().SerializeToString()]
    for path in paths:
        for loaded in read_vectors(path):
            for index in range(len(loaded.vector.rounds)):
                for exchange in exchanges(loaded.vector, index, RUN_PREFIX):
                    payloads.append(exchange.request.SerializeToString())
                    if exchange.expected_error:
                        break
    return payloads


@contextmanager
def _serving(argv: list[str], ready: str, errors: IO[str]) -> Iterator[str]:
    """A server process started for one measurement; its address once it says it is ready."""
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=errors, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        if not line.startswith(ready):
            errors.seek(0)
            raise RuntimeError(f"{' '.join(argv)} did not start: {errors.read()[-2000:]}")
        yield line.split()[-1]
    finally:
        server.terminate()
        server.wait()


def _certify_seconds(address: str, vectors: Sequence[Path]) -> tuple[float, str]:
    """The certify run's own seconds (its summary line) and that line."""
    argv = [sys.executable, "-m", "croupier.conformance.cli", "certify", "--target", address]
    argv += ["--certify", "--report", os.devnull, "--concurrency", str(CONCURRENCY)]
    for path in vectors:
        argv += ["--vectors", str(path)]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    line = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-300:]
    found = re.search(r" in ([\d.]+) s$", line)
    if found is None:
        raise RuntimeError(f"certify gave no summary: {line}")
    return float(found[1]), line


def _served_build() -> str:
    """The build of the rules a ``croupier`` started now runs (``--version`` names it).

    Not this process's: a full run compiles the rules after this process chose its build.
    """
    argv = [sys.executable, "-m", "croupier.conformance.cli", "--version"]
    version = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    found = re.search(r"\((.*)\)", version)
    return found[1] if found else version.strip()


def _echo_seconds(payload_file: Path, errors: IO[str]) -> float:
    serve = [sys.executable, "-m", "bench.echo", "serve"]
    with _serving(serve, "ECHO ", errors) as address:
        argv = [sys.executable, "-m", "bench.echo", "client", address, str(payload_file)]
        argv += ["--concurrency", str(CONCURRENCY)]
        out = subprocess.run(argv, capture_output=True, text=True, check=True)
        return float(out.stdout.split()[1])


def bench_runner(sizes: Sizes) -> None:
    """Runner calls/s against the reference server, next to a bare echo's, interleaved."""
    paths = sizes.runner_vectors or tuple(corpus_files(CORPUS_DIR))
    payloads = runner_payloads(paths)
    calls = len(payloads)
    runner_rates, echo_rates, summary = [], [], ""
    with tempfile.TemporaryDirectory() as tmp, (Path(tmp) / "stderr").open("w+") as errors:
        payload_file = Path(tmp) / "payloads"
        echo.write_payloads(payload_file, payloads)
        serve = [sys.executable, "-m", "croupier.conformance.cli", "serve", "--port", "0"]
        for _ in range(sizes.runner_repeat):
            echo_rates.append(calls / _echo_seconds(payload_file, errors))
            with _serving(serve, "CROUPIER_ENGINE ", errors) as address:
                seconds, summary = _certify_seconds(address, sizes.runner_vectors)
            runner_rates.append(calls / seconds)
    corpus = "the shipped corpus" if not sizes.runner_vectors else f"{len(paths)} vector file(s)"
    note(
        f"runner: certify of {corpus} against croupier serve, {calls:,} calls at "
        f"concurrency {CONCURRENCY} on one channel; anchor: a grpc.aio echo server and client "
        f"making the same calls (the runner's request bytes) at the same concurrency; "
        f"{sizes.runner_repeat} run(s) each, interleaved; rules build of both: {_served_build()}; "
        f"last certify: {summary}"
    )
    # A run of some vector files is never conformant (a partial run): only failures matter here.
    if "NOT conformant" in summary:
        note("the run had failures: failed vectors stop early, so it made fewer calls")
    show(
        repeated("runner calls/s vs croupier serve", runner_rates, ("echo", echo_rates), ECHO_GOAL)
    )


# --- audit replay -----------------------------------------------------------------------------


def write_log(path: Path, records: int) -> None:
    """A chained log of ``records`` rounds over all profiles: a campaign replayed, ids made unique."""
    base: list[round_pb2.RoundRecord] = []
    for profile in shipped_profiles():
        for vector in campaign(profile, "bench-log", 200, profile.id):
            board = None
            for vr in vector.rounds:
                current = start_round(profile, convert.round_request_from(vr.deal), board)
                for step in vr.steps:
                    decision = convert.decision_from(step.decision, vr.deal.currency_code)
                    current = apply_decision(current, decision)
                board = current.history or board
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


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditRun:
    """One audit verify, measured in its own process."""

    records: int
    seconds: float
    clean: bool
    main_mb: float
    worker_mb: float

    @property
    def rate(self) -> float:
        """Records per second."""
        return self.records / self.seconds


def _audit(log: Path, workers: int, *, dask: bool = False) -> AuditRun:
    argv = [sys.executable, "-m", "bench.audit", str(log), "--workers", str(workers)]
    done = subprocess.run(
        [*argv, "--dask"] if dask else argv, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed:\n{done.stderr[-2000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return AuditRun(
        records=out["records"],
        seconds=out["seconds"],
        clean=out["clean"],
        main_mb=out["main_kib"] * 1024 / MB,
        worker_mb=out["worker_kib"] * 1024 / MB,
    )


def _pool_figures(one: AuditRun, two: AuditRun) -> list[Figure]:
    return [
        Figure(name="audit verify records/s, 1 worker", value=one.rate, unit="/s"),
        against(
            "audit verify records/s, 2 workers",
            two.rate,
            ("1 worker", one.rate),
            SPEED_UP_GOAL,
            "the speed-up",
        ),
        Figure(
            name="audit verify records/min, 2 workers",
            value=two.rate * 60,
            unit="/min",
            goal=PER_MINUTE_GOAL,
        ),
        Figure(name="audit peak RSS main, 1 worker", value=one.main_mb, unit="MB", goal=RSS_GOAL),
        Figure(name="audit peak RSS main, 2 workers", value=two.main_mb, unit="MB", goal=RSS_GOAL),
        Figure(
            name="audit peak RSS largest worker, 2 w.",
            value=two.worker_mb,
            unit="MB",
            goal=RSS_GOAL,
        ),
    ]


def bench_audit(sizes: Sizes, chosen: Sequence[str]) -> None:
    """Audit records verified per second with 1 and 2 workers, and on Dask, with peak memory."""
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "bench.log"
        started = time.perf_counter()
        write_log(log, sizes.records)
        note(
            f"audit: a binary log of {sizes.records:,} records over all seven profiles, "
            f"{log.stat().st_size / MB:,.0f} MB, written in {time.perf_counter() - started:.0f} s; "
            "each verify in its own process"
        )
        runs: dict[str, AuditRun] = {}
        if "audit" in chosen:
            runs["1"] = _audit(log, 1)
        runs["2"] = _audit(log, 2)
        if "dask" in chosen:
            runs["dask"] = _audit(log, 2, dask=True)
    if any(not run.clean for run in runs.values()):
        note("a verify found discrepancies in the log: the oracle and the log disagree")
    if "audit" in chosen:
        for figure in _pool_figures(runs["1"], runs["2"]):
            show(figure)
    if "dask" in chosen:
        pool, dask = runs["2"], runs["dask"]
        show(
            against(
                "audit verify records/s, Dask 2 workers",
                dask.rate,
                ("pool", pool.rate),
                DASK_GOAL,
                "LocalCluster, 2 single-threaded worker processes, started before the clock",
            )
        )


# --- the corpus on disk and loading ----------------------------------------------------------

#: A fresh interpreter loads a corpus directory and prints its CPU seconds (one thread).
_LOAD = (
    "import sys, time; from pathlib import Path; from croupier.conformance.vectors import load_corpus; "
    "t = time.process_time(); n = len(load_corpus(Path(sys.argv[1]))); "
    "print(time.process_time() - t, n)"
)


def _load_seconds(directory: Path) -> tuple[float, int]:
    """CPU seconds a fresh process takes to load ``directory`` (imports before the clock)."""
    argv = [sys.executable, "-c", _LOAD, str(directory)]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), int(out[1])


def _beside(name: str, value: float, unit: str, as_json: float, goal: Goal) -> Figure:
    """A figure beside the same vectors' figure as JSON Lines (the goal is on the value)."""
    return Figure(
        name=name,
        value=value,
        unit=unit,
        anchor="JSON Lines",
        anchor_value=as_json,
        ratio=value / as_json if as_json > 0 else None,
        goal=goal,
    )


def bench_corpus(sizes: Sizes) -> None:
    """The shipped corpus's load time, and the size of 1,000 lab vectors, binary and JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        as_json = Path(tmp) / "jsonl"
        as_json.mkdir()
        for path in corpus_files(CORPUS_DIR):
            name = path.name.removesuffix(BINARY) + ".jsonl"
            write_vectors(as_json / name, (v.vector for v in read_vectors(path)))
        binary = [_load_seconds(CORPUS_DIR) for _ in range(sizes.runner_repeat)]
        json_seconds, count = _load_seconds(as_json)
        note(
            f"corpus: the shipped corpus ({count:,} vectors) loaded in a fresh process, CPU "
            f"seconds on one thread (median of {len(binary)}), against one load of the same "
            "vectors as JSON Lines"
        )
        seconds = sorted(s for s, _ in binary)[len(binary) // 2]
        show(_beside("corpus load, 1 core", seconds, "s", json_seconds, LOAD_GOAL))
        profile = load_profile_file(LAB_PROFILE)
        vectors = campaign(profile, "bench/corpus", 1000, "lab")
        small, large = Path(tmp) / f"lab{BINARY}", Path(tmp) / "lab.jsonl"
        write_vectors(small, vectors)
        write_vectors(large, vectors)
        note(f"corpus: 1,000 campaign vectors of the lab profile {LAB_PROFILE.name}, on disk")
        size, json_size = small.stat().st_size / MB, large.stat().st_size / MB
        show(_beside("lab vectors per 1,000, on disk", size, "MB", json_size, SIZE_GOAL))


# --- the pytest plugin ------------------------------------------------------------------------


def _plugin(sizes: Sizes, *, quick: bool) -> None:
    """The plugin's inert cost, and the corpus through it with -n 2 against serial."""
    figures = bench_plugin(
        repeat=5 * sizes.runner_repeat, runs_each=sizes.runner_repeat, quick=quick
    )
    for text, figure in figures:
        note(text)
        show(figure)


# --- the command ------------------------------------------------------------------------------


def _sizes(args: argparse.Namespace) -> Sizes:
    quick = args.quick
    hand = tuple(sorted(CORPUS_DIR.glob("*.hand.binpb.gz")))
    return Sizes(
        rounds=args.rounds or (200 if quick else 2000),
        gym_rounds=args.rounds or (2000 if quick else 20_000),
        blackjack_repeat=args.repeat or (3 if quick else 5),
        runner_repeat=args.repeat or (1 if quick else 3),
        records=args.records or (20_000 if quick else 1_000_000),
        runner_vectors=hand if quick else (),
    )


#: The parts that measure the rules themselves: run once per build.
RULES_PARTS = ("blackjack", "oracle")


def _each_build(parts: Sequence[str], args: argparse.Namespace) -> None:
    """The rules' parts in a process per build: pure, then compiled (where it can be built).

    The build is chosen when ``oracle`` is first imported, so each needs its own process.
    """
    from bench import compiled  # noqa: PLC0415 - it imports mypyc's builder only on demand

    builds = ["pure"]
    why = compiled.cannot_compile()
    if why is None:
        compiled.build_command()
        builds.append("compiled")
    else:
        note(f"no compiled build: {why}; the rules are measured in pure Python only")
    argv = [sys.executable, "-m", "bench.run", *(f"--only={part}" for part in parts)]
    argv += ["--quick"] if args.quick else []
    argv += [f"--{o}={v}" for o in ("rounds", "repeat") if (v := getattr(args, o)) is not None]
    for which in builds:
        env = {**os.environ, build.ENV: which}
        with subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, text=True) as child:
            assert child.stdout is not None
            # The child's first two lines are the interpreter's and the header, printed above.
            for number, line in enumerate(child.stdout):
                if number >= 2:
                    print(line, end="", flush=True)
        if child.returncode != 0:
            raise RuntimeError(f"the {which} build's measurement failed ({child.returncode})")


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmarks named on the command line (all by default)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", choices=NAMES, action="append", help="run only this part")
    parser.add_argument(
        "--quick", action="store_true", help="small sizes: a smoke run of about a minute"
    )
    parser.add_argument("--records", type=int, help="audit log size (default 1,000,000)")
    parser.add_argument(
        "--rounds", type=int, help="oracle rounds per profile and per blackjack repetition"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        help="interleaved repetitions (default 5 for blackjack, 3 for the runner)",
    )
    args = parser.parse_args(argv)
    # The zoo's hundred engines take a quarter of an hour: a quick run names it to run it.
    chosen = args.only or [n for n in NAMES if not (args.quick and n == "explore-zoo")]
    sizes = _sizes(args)
    print(json.dumps({"python": sys.version.split()[0], "cpus": os.cpu_count()}))
    print(header())
    parts: dict[str, Callable[[], Any]] = {
        "blackjack": lambda: bench_blackjack(sizes),
        "oracle": lambda: bench_oracle(sizes),
        "runner": lambda: bench_runner(sizes),
        "corpus": lambda: bench_corpus(sizes),
        "plugin": lambda: _plugin(sizes, quick=args.quick),
        "explore": lambda: bench_explore(quick=args.quick, show=show, note=note),
        "explore-covered": lambda: bench_covered(show, note),
        "explore-zoo": lambda: bench_zoo(2, show, note),
        "explore-dask": lambda: bench_explore_dask(quick=args.quick, show=show, note=note),
    }
    rules = [name for name in RULES_PARTS if name in chosen]
    if rules and build.ENV not in os.environ:
        _each_build(rules, args)
        chosen = [name for name in chosen if name not in rules]
    for name, part in parts.items():
        if name in chosen:
            part()
    if "audit" in chosen or "dask" in chosen:
        bench_audit(sizes, chosen)


if __name__ == "__main__":
    main()
