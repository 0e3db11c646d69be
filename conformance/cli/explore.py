"""``croupier explore``: rounds the engine has never seen, judged live, each mismatch shrunk."""

from __future__ import annotations

import hashlib
import shlex
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

import click
from croupier.conformance.v1 import vector_pb2
from rich.markup import escape

from conformance.cli.common import (
    EngineChoice,
    Finite,
    check_writable,
    console,
    engine_choice,
    engine_options,
    errors,
    fail,
    load_profile,
    print_result,
    progress_option,
    start_engine_log,
    utf8_text,
)
from conformance.engine import EngineUnavailableError
from conformance.explore.search import ExploreConfig, ExploreReport, Finding, Stop, explore
from conformance.invocation import croupier_command
from conformance.results import ConfigError, Result, VectorOutcome
from conformance.vectors import VectorFileError, dump_line, read_vectors
from oracle.profile import SHIPPED_IDS, Profile

#: Rounds per profile when neither --rounds nor --minutes is given.
DEFAULT_ROUNDS = 2000


@click.command("explore")
@engine_options
@click.option(
    "--profile",
    "profile_ids",
    multiple=True,
    metavar="ID|FILE",
    help="Explore this profile, shipped or a lab's file (repeatable; default: every shipped "
    "profile the engine claims).",
)
@click.option(
    "--seed",
    default="croupier",
    show_default=True,
    callback=utf8_text,
    help="The same seed and engine draw the same rounds.",
)
@click.option(
    "--rounds",
    type=click.IntRange(1),
    help=f"Rounds played per profile (a hand, a coup, a spin), shrinking aside (default "
    f"{DEFAULT_ROUNDS} unless "
    "--minutes is given).",
)
@click.option(
    "--minutes",
    type=Finite(0, min_open=True),
    help="Time budget of the whole run, shared by the profiles.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("explore-findings.jsonl"),
    show_default=True,
    help="Vector file the shrunk findings are appended to (for certify --vectors).",
)
@click.option(
    "--database",
    type=click.Path(file_okay=False, path_type=Path),
    help="Keep Hypothesis' example database in this directory: a later run replays what "
    "failed before first (default: none kept).",
)
@progress_option("Print a progress line this often.")
def explore_command(
    target: str | None,
    launch: str | None,
    timeout: float,
    tls_ca: Path | None,
    tls_cert: Path | None,
    tls_key: Path | None,
    ready_timeout: float,
    engine_log: Path | None,
    profile_ids: tuple[str, ...],
    seed: str,
    rounds: int | None,
    minutes: float | None,
    out: Path,
    database: Path | None,
    progress_every: float,
) -> None:
    """Play rounds the engine has never seen and shrink the first mismatch of each profile.

    Hypothesis draws rounds per profile (shaped shoes, one to three seats, odd and limit
    stakes, decisions, every roulette bet, one fault now and then); each is played on the
    engine and on the oracle, step by step, and compared exactly as certify compares a
    vector. A mismatch is shrunk to the smallest round that diverges the same way, printed
    with its clause and diff, and appended to --out as a vector, with the command that
    replays it.

    Exit codes: 0 nothing found, 1 a mismatch found, 2 usage error, 3 engine unreachable or
    gone, 130 and 143 interrupted by SIGINT and SIGTERM (a launched engine is stopped; what
    was found so far is written).
    """
    try:
        engine = engine_choice(
            target=target,
            launch=launch,
            timeout=timeout,
            tls_ca=tls_ca,
            tls_cert=tls_cert,
            tls_key=tls_key,
            ready_timeout=ready_timeout,
            engine_log=engine_log,
        )
    except ConfigError as exc:
        fail(str(exc))
    check_writable(out, "the findings")
    check_writable(engine.engine_log, "the engine log")
    start_engine_log(engine)
    profiles = _profiles(profile_ids)
    if rounds is None:
        rounds = DEFAULT_ROUNDS if minutes is None else sys.maxsize
    report = run_exploration(
        engine,
        profiles=profiles,
        seed=seed,
        rounds=rounds,
        seconds=None if minutes is None else minutes * 60,
        out=out,
        database=database,
        progress_every=progress_every,
    )
    if profile_ids and report.skipped:
        errors.print(
            f"[yellow]not explored: the engine does not claim {', '.join(report.skipped)}[/]"
        )
    if not report.profiles:
        fail("no profile to explore: the engine claims none of them")
    if report.interrupted is not None:
        name = signal.Signals(report.interrupted).name
        console.print(f"[bold red]interrupted by {name}: the engine is stopped[/]")
        sys.exit(128 + report.interrupted)
    sys.exit(1 if report.findings else 0)


def run_exploration(
    engine: EngineChoice,
    *,
    profiles: Sequence[Profile],
    seed: str,
    rounds: int,
    seconds: float | None,
    out: Path,
    database: Path | None = None,
    progress_every: float = 10.0,
) -> ExploreReport:
    """Explore, print the report, append the findings to ``out``; exits 2 or 3 on failure.

    SIGINT and SIGTERM end the search (``interrupted`` is set); the caller exits.
    """
    try:
        known = {loaded.vector.id for loaded in read_vectors(out)} if out.exists() else set()
    except (OSError, VectorFileError) as exc:
        fail(f"cannot append findings to {out}: {exc}")
    croupier = croupier_command()

    def reproduce(vector: vector_pb2.Vector) -> str:
        return (
            f"{croupier} certify {engine.words} --vectors {shlex.quote(str(out))} "
            f"--vector {shlex.quote(vector.id)}"
        )

    stop = Stop()
    config = ExploreConfig(
        profiles=profiles,
        target=engine.target,
        launch=engine.launch,
        tls=engine.tls,
        seed=seed,
        rounds=rounds,
        seconds=seconds,
        timeout=engine.timeout,
        ready_timeout=engine.ready_timeout,
        engine_log=engine.engine_log,
        database=database,
        reproduce=reproduce,
        progress=_Ticker(progress_every).tick,
        stop=stop,
        id_prefix=f"x{hashlib.sha256(seed.encode()).hexdigest()[:6]}",
    )

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        stop.request(signum)

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        report = explore(config)
    except EngineUnavailableError as exc:
        fail(str(exc), code=3)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    _print_report(report, seed)
    _append(out, report.findings, known)
    return report


def explored_results(report: ExploreReport) -> list[Result]:
    """One result per explored profile: its finding, or a pass naming the rounds it held."""
    results = []
    for done in report.profiles:
        if done.finding is not None:
            results.append(done.finding.result)
            continue
        results.append(
            Result(
                vector_id=f"explore/{done.profile_id}",
                name=f"{done.profile_id}/explore",
                profile_id=done.profile_id,
                level="LEVEL_REQUIRED",
                outcome=VectorOutcome.PASS,
                message=f"{done.rounds} explored rounds, no mismatch",
                seconds=done.seconds,
            )
        )
    return results


def _profiles(chosen: tuple[str, ...]) -> list[Profile]:
    ids = chosen or SHIPPED_IDS
    return [load_profile(p) for p in ids]


class _Ticker:
    """A progress line every ``every`` seconds: profile, rounds so far, rounds per second."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.last = time.monotonic()
        self.since = self.last
        self.profile = ""
        self.count = 0

    def tick(self, profile_id: str, rounds: int) -> None:
        now = time.monotonic()
        if profile_id != self.profile:
            self.profile, self.since, self.count = profile_id, now, 0
        self.count = rounds
        if now - self.last >= self.every:
            self.last = now
            rate = self.count / max(now - self.since, 1e-9)
            console.print(f"explore: {profile_id} {rounds} rounds ({rate:.0f}/s)", highlight=False)


def _print_report(report: ExploreReport, seed: str) -> None:
    engine = report.describe
    console.print(
        f"[bold]explore[/] {escape(engine.name)} {escape(engine.version)}: "
        f"seed {escape(seed)}, {report.rounds} rounds in {report.seconds:.1f} s "
        f"({report.rounds / max(report.seconds, 1e-9):.0f}/s)",
        highlight=False,
    )
    for done in report.profiles:
        cover = done.coverage
        console.print(
            f"  {done.profile_id}: {done.rounds} rounds, {len(cover.clauses)} clauses reached, "
            f"{sum(cover.refusals.values())} refusals of {len(cover.refusals)} kinds"
            + (
                f", decisions {_counts(cover.decisions, 'DECISION_KIND_')}"
                if cover.decisions
                else ""
            )
            + (f", bets {_counts(cover.bets, '')}" if cover.bets else ""),
            highlight=False,
            soft_wrap=True,
        )
    for finding in report.findings:
        _print_finding(finding)
    if report.restarts:
        console.print(f"the engine was restarted {report.restarts} time(s)")
    if not report.findings and report.interrupted is None:
        console.print("[bold green]no mismatch found[/]")


def _counts(counter: dict[str, int], prefix: str) -> str:
    return " ".join(f"{k.removeprefix(prefix).lower()}={v}" for k, v in sorted(counter.items()))


def _print_finding(finding: Finding) -> None:
    result = finding.result
    console.print(
        f"[bold red]mismatch[/] in {result.profile_id} after {finding.found_after} rounds, "
        f"shrunk to {finding.size}:",
        highlight=False,
    )
    print_result(result)
    console.print(dump_line(finding.vector), highlight=False, soft_wrap=True, markup=False)


def _append(out: Path, findings: tuple[Finding, ...], known: set[str]) -> None:
    fresh = [f for f in findings if f.vector.id not in known]
    for finding in findings:
        if finding.vector.id in known:
            console.print(f"{finding.vector.id} is already in {out}")
    if not fresh:
        return
    try:
        with out.open("a", encoding="utf-8") as handle:
            for finding in fresh:
                handle.write(dump_line(finding.vector) + "\n")
    except OSError as exc:
        # The findings are printed above: nothing is lost if the file cannot take them.
        errors.print(f"[bold red]error:[/] cannot append findings to {out}: {exc.strerror}")
        sys.exit(2)
    console.print(f"{len(fresh)} finding(s) appended to {out}")
