"""``croupier explore``: rounds the engine has never seen, judged live, each mismatch shrunk."""

from __future__ import annotations

import hashlib
import json
import shlex
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from types import FrameType

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from croupier.clients.words import plural
from croupier.conformance.choice import EngineChoice, engine_choice
from croupier.conformance.cli.common import (
    MAX_COUNT,
    MAX_SECONDS,
    MAX_SHOWN,
    STDOUT,
    DaskAddress,
    Finite,
    InputFile,
    OutputFile,
    OutputFolder,
    console,
    engine_options_on_dask,
    errors,
    fail,
    load_profile,
    names_a_file,
    output_name,
    prepare_outputs,
    progress_option,
    start_engine_log,
    utf8_text,
)
from croupier.conformance.engine import EngineUnavailableError
from croupier.conformance.explore.cluster import CHUNK_ROUNDS, DaskOptions, explore_on_dask
from croupier.conformance.explore.search import (
    ExploreConfig,
    ExploreReport,
    Finding,
    ProfileExploration,
    Stop,
    explore,
)
from croupier.conformance.invocation import croupier_command
from croupier.conformance.known import ExploreWaivers, read_known_failures
from croupier.conformance.labcorpus import default_cache_dir, lab_corpus
from croupier.conformance.results import ConfigError, KnownFailure, Result, VectorOutcome
from croupier.conformance.scheduler import SchedulerError
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import VectorFileError, dump_line, load_corpus, read_vectors
from croupier.oracle.errors import OracleError
from croupier.oracle.profile import SHIPPED_IDS, Profile

#: Rounds per profile when neither --rounds nor --minutes is given.
DEFAULT_ROUNDS = 2000
#: Distinct findings per profile when --max-findings is not given.
DEFAULT_FINDINGS = 5
#: Where the findings are appended when --out is not given.
EXPLORE_OUT = Path("explore-findings.jsonl")
#: How a reproduce command names the findings that went to standard output (--out -).
SAVED = "FINDINGS.jsonl"
#: The longest expected or actual value a finding's summary shows, in characters.
_SHOWN = 200


@click.command("explore")
@engine_options_on_dask
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
    type=click.IntRange(1, MAX_COUNT),
    help=f"Rounds played per profile (a hand, a coup, a spin), shrinking aside (default "
    f"{DEFAULT_ROUNDS} unless "
    "--minutes is given).",
)
@click.option(
    "--minutes",
    type=Finite(0, MAX_SECONDS / 60, min_open=True),
    help="Time budget of the whole run, shared by the profiles.",
)
@click.option(
    "--out",
    type=OutputFile(),
    default=EXPLORE_OUT,
    show_default=True,
    help="Vector file the shrunk findings are appended to (for certify --vectors); - writes "
    f"them to standard output, and each reproduce command then names them {SAVED}.",
)
@click.option(
    "--known-failures",
    type=InputFile(),
    metavar="FILE",
    help="Certify's known-failures file: the corpus vectors it lists are played first, and a "
    "mismatch that diverges as one of them did (clause, outcome, path) is waived, as is one on "
    "a clause entry's clause (clause:ID or clause:ID@PATH).",
)
@click.option(
    "--max-findings",
    type=click.IntRange(1, MAX_SHOWN),
    default=DEFAULT_FINDINGS,
    show_default=True,
    metavar="N",
    help="Distinct findings (by clause and path) per profile before its search stops, each shrunk.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print a JSON summary on stdout instead of the report (progress goes to stderr).",
)
@click.option(
    "--database",
    type=OutputFolder(),
    help="Keep Hypothesis' example database in this directory: a later run replays what "
    "failed before first (default: none kept).",
)
@click.option(
    "--until-covered",
    is_flag=True,
    help="Stop a profile's search once every cell of its coverage is reached (clauses, "
    "decisions, hand shapes, tableau cells, bet kinds, near misses, limits, refusals), or "
    "at the budget.",
)
@click.option(
    "--dask",
    "dask_address",
    type=DaskAddress(),
    metavar="ADDRESS|local:N",
    help="Run each profile's rounds in chunks on this Dask scheduler's workers, or on a "
    "LocalCluster of N worker processes started for the run (local:N; optional extra "
    "'dask'). Each worker launches its own engine (--launch) or takes the --target of its "
    "chunk; the same seed gives the same rounds and findings whatever the workers.",
)
@click.option(
    "--dask-chunk",
    type=click.IntRange(1, MAX_COUNT),
    default=CHUNK_ROUNDS,
    show_default=True,
    metavar="ROUNDS",
    help="Rounds per chunk with --dask (each steered on its own: with the seed, what decides "
    "the rounds drawn).",
)
@progress_option("Print a progress line this often.")
def explore_command(
    target: tuple[str, ...],
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
    known_failures: Path | None,
    max_findings: int,
    as_json: bool,
    database: Path | None,
    until_covered: bool,
    dask_address: str | None,
    dask_chunk: int,
    progress_every: float,
) -> None:
    """Play rounds the engine has never seen and shrink each distinct mismatch.

    Rounds are drawn per profile from Hypothesis' strategies (shaped shoes, one to three
    seats, odd and limit stakes, decisions, every roulette bet, near-miss bet shapes, one
    fault now and then), seven in eight aimed at a coverage cell of the profile (those not
    yet reached first); each is played on the engine and on the oracle, step by step, and
    compared exactly as certify compares a vector. The coverage (cells reached of all, per
    profile, and the cells never reached) ends the report; --until-covered stops once every
    cell is reached. A mismatch is shrunk to the smallest round that diverges the
    same way (clause, outcome and path), summed up (clause, step, path, expected, actual,
    shrunk size, the command that replays it) and appended to --out as a vector; the search
    goes on for up to --max-findings distinct ones per profile. --minutes bounds shrinking
    too: a mismatch not fully shrunk when time is up is reported as shrunk so far, and says
    so. --known-failures waives what a lab has classified.

    With --dask, each profile's rounds are cut into chunks of --dask-chunk rounds run on the
    cluster's workers, each chunk steered by what it reached itself (so the rounds differ from
    a run without --dask, but not with the number of workers); each finding is shrunk on the
    worker that found it; findings are merged by clause, outcome and path, in chunk order. A
    worker lost mid-run has its chunks run again on another.

    Exit codes: 0 nothing found (or only waived mismatches), 1 a mismatch found, 2 usage
    error (or a --dask cluster that cannot be reached, or that lost the workers of a chunk
    too often), 3 engine unreachable or gone, 130 and 143 interrupted by SIGINT and SIGTERM
    (a launched engine is stopped; what was found so far is written).
    """
    if len(target) > 1 and dask_address is None:
        fail("--target is given more than once: several engines need --dask")
    if dask_address is None and dask_chunk != CHUNK_ROUNDS:
        fail("--dask-chunk needs --dask")
    dask = (
        None
        if dask_address is None
        else DaskOptions(
            address=dask_address,
            chunk_rounds=dask_chunk,
            targets=target if len(target) > 1 else (),
        )
    )
    try:
        engine = engine_choice(
            target=target[0] if target else None,
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
    if as_json and STDOUT in (out, engine.engine_log):
        fail("--json prints on standard output: give --out and --engine-log a file, not -")
    inputs = [
        *(("the known failures", path) for path in ([known_failures] if known_failures else [])),
        *(("a profile file", Path(p)) for p in profile_ids if names_a_file(p)),
        *(
            (f"the {flag} file", path)
            for flag, path in (
                ("--tls-ca", tls_ca),
                ("--tls-cert", tls_cert),
                ("--tls-key", tls_key),
            )
            if path is not None
        ),
    ]
    outputs = prepare_outputs({"--out": out, "--engine-log": engine.engine_log}, inputs)
    out = outputs["--out"] or out
    if engine.engine_log is not None:
        engine = replace(engine, engine_log=outputs["--engine-log"])
    start_engine_log(engine)
    profiles = _profiles(profile_ids)
    waive = ExploreWaivers()
    if known_failures is not None:
        try:
            known = read_known_failures(known_failures)
        except ConfigError as exc:
            fail(str(exc))
        waive = ExploreWaivers.of(known, _listed_corpus(profile_ids, profiles, known))
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
        max_findings=max_findings,
        waive=waive,
        as_json=as_json,
        until_covered=until_covered,
        dask=dask,
    )
    if profile_ids and report.skipped:
        errors.print(
            f"[yellow]not explored: the engine does not claim {', '.join(report.skipped)}[/]"
        )
    if not report.profiles:
        fail("no profile to explore: the engine claims none of them")
    if report.interrupted is not None:
        name = signal.Signals(report.interrupted).name
        (errors if as_json else console).print(
            f"[bold red]interrupted by {name}: the engine is stopped[/]"
        )
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
    max_findings: int = 1,
    waive: ExploreWaivers | None = None,
    as_json: bool = False,
    until_covered: bool = False,
    dask: DaskOptions | None = None,
) -> ExploreReport:
    """Explore, print the report (or its JSON), append the findings to ``out``; exits 2 or 3.

    SIGINT and SIGTERM end the search (``interrupted`` is set); the caller exits.
    """
    try:
        known = {loaded.vector.id for loaded in read_vectors(out)} if out.exists() else set()
    except (OSError, VectorFileError) as exc:
        fail(f"cannot append findings to {output_name(out)}: {exc}")
    croupier = croupier_command()
    # Findings sent to standard output are in whatever file it was saved to.
    named = SAVED if output_name(out) != str(out) else str(out)

    def reproduce(vector: vector_pb2.Vector) -> str:
        return (
            f"{croupier} certify {engine.words} --vectors {shlex.quote(named)} "
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
        progress=_Ticker(
            progress_every, errors if as_json else console, together=dask is not None
        ).tick,
        stop=stop,
        id_prefix=f"x{hashlib.sha256(seed.encode()).hexdigest()[:6]}",
        max_findings=max_findings,
        waive=waive or ExploreWaivers(),
        until_covered=until_covered,
    )

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        stop.request(signum)

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        report = explore(config) if dask is None else explore_on_dask(config, dask)
    except EngineUnavailableError as exc:
        fail(str(exc), code=3)
    except SchedulerError as exc:
        fail(str(exc))
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if as_json:
        appended = _append(out, report.findings, known, quiet=True)
        click.echo(json.dumps(summary_json(report, seed, out, appended), indent=2))
    else:
        _print_report(report, seed)
        _append(out, report.findings, known)
    return report


def explored_results(report: ExploreReport) -> list[Result]:
    """One result per finding, or per explored profile without one: a pass naming its rounds.

    The pass names the rounds known failures waived, if any did.
    """
    results: list[Result] = []
    for done in report.profiles:
        if done.findings:
            results.extend(finding.result for finding in done.findings)
            continue
        waived = sum(w.rounds for w in done.waived)
        results.append(
            Result(
                vector_id=f"explore/{done.profile_id}",
                name=f"{done.profile_id}/explore",
                profile_id=done.profile_id,
                level="LEVEL_REQUIRED",
                outcome=VectorOutcome.PASS,
                message=f"{done.rounds} explored rounds, no mismatch"
                + (f" but {plural(waived, 'round')} the known failures waive" if waived else ""),
                seconds=done.seconds,
            )
        )
    return results


def _profiles(chosen: tuple[str, ...]) -> list[Profile]:
    ids = chosen or SHIPPED_IDS
    return [load_profile(p, "--profile") for p in ids]


def _listed_corpus(
    chosen: tuple[str, ...], profiles: Sequence[Profile], known: Sequence[KnownFailure]
) -> list[vector_pb2.Vector]:
    """The corpus the known failures' patterns list vectors of: shipped, or a lab file's.

    A lab profile's corpus is built as certify builds it (``--profile-file``, cached).
    """
    if all(entry.clause for entry in known):
        return []  # clause entries alone: no vector to play
    vectors = [loaded.vector for loaded in load_corpus()]
    for given, profile in zip(chosen or SHIPPED_IDS, profiles, strict=True):
        if given not in SHIPPED_IDS:
            try:
                lab = lab_corpus(
                    Path(given), default_cache_dir(), profile=profile, say=errors.print
                )
                vectors.extend(loaded.vector for loaded in read_vectors(lab.path))
            except (OracleError, OSError, VectorFileError) as exc:
                fail(f"{given}: cannot build its corpus for the known failures: {exc}")
    return vectors


class _Ticker:
    """A progress line every ``every`` seconds: profile, rounds so far, rounds per second.

    ``together``: the profiles are searched at once (``--dask``), each since the start;
    otherwise one after another, each since its first round.
    """

    def __init__(self, every: float, where: Console, *, together: bool = False) -> None:
        self.where = where
        self.every = every
        self.last = time.monotonic()
        self.started = self.last
        self.together = together
        self.since: dict[str, float] = {}

    def tick(self, profile_id: str, rounds: int) -> None:
        now = time.monotonic()
        since = self.since.setdefault(profile_id, self.started if self.together else now)
        if now - self.last >= self.every:
            self.last = now
            rate = rounds / max(now - since, 1e-9)
            self.where.print(
                f"explore: {profile_id} {plural(rounds, 'round')} ({rate:.0f}/s)", highlight=False
            )


def _print_report(report: ExploreReport, seed: str) -> None:
    engine = report.describe
    console.print(
        f"[bold]explore[/] {escape(engine.name)} {escape(engine.version)}: "
        f"seed {escape(seed)}, {plural(report.rounds, 'round')} in {report.seconds:.1f} s "
        f"({report.rounds / max(report.seconds, 1e-9):.0f}/s)",
        highlight=False,
    )
    for done in report.profiles:
        cover = done.coverage
        console.print(
            f"  {done.profile_id}: {plural(done.rounds, 'round')}, "
            f"{plural(len(cover.clauses), 'clause')} reached, "
            f"{plural(sum(cover.refusals.values()), 'refusal')} of "
            f"{plural(len(cover.refusals), 'kind')}"
            + (
                f", decisions {_counts(cover.decisions, 'DECISION_KIND_')}"
                if cover.decisions
                else ""
            )
            + (f", bets {_counts(cover.bets, '')}" if cover.bets else ""),
            highlight=False,
            soft_wrap=True,
        )
    for done in report.profiles:
        _print_cells(done)
    findings = report.findings
    for number, finding in enumerate(findings, start=1):
        _print_finding(finding, number, len(findings))
    for done in report.profiles:
        for waived in done.waived:
            console.print(
                f"  waived in {done.profile_id}: {plural(waived.rounds, 'round')} diverging on "
                f"{waived.clause} (known failure {waived.pattern!r}, reason: "
                f"{waived.reason})",
                highlight=False,
                markup=False,
                soft_wrap=True,
            )
    for vector in report.waive.passed:
        console.print(
            f"[yellow]listed as a known failure but passed: {escape(vector.id)} (it waives "
            "nothing; certify fails it as UNEXPECTED_PASS)[/]",
            highlight=False,
        )
    if report.restarts:
        console.print(f"the engine was restarted {plural(report.restarts, 'time')}")
    if not report.findings and report.interrupted is None:
        console.print("[bold green]no mismatch found[/]")


def _print_cells(done: ProfileExploration) -> None:
    """A profile's coverage: cells reached of all, when the last came, the cells never reached."""
    cells = done.cells
    when = (
        f", all by round {cells.covered_at}"
        if cells.covered_at is not None
        else f"; never reached: {', '.join(cells.unreached)}"
    )
    console.print(
        f"  coverage {done.profile_id}: {cells.reached}/{len(cells.all)} cells{when}",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )


def coverage_json(done: ProfileExploration) -> dict[str, object]:
    """A profile's coverage as ``--json`` and the certificate give it."""
    cells = done.cells
    return {
        "reached": cells.reached,
        "cells": len(cells.all),
        "covered_at": cells.covered_at,
        "unreached": list(cells.unreached),
        "counts": {cell: cells.counts[cell] for cell in cells.all},
    }


def _counts(counter: dict[str, int], prefix: str) -> str:
    return " ".join(f"{k.removeprefix(prefix).lower()}={v}" for k, v in sorted(counter.items()))


def _short(text: str) -> str:
    return text if len(text) <= _SHOWN else f"{text[:_SHOWN]}... ({len(text)} characters)"


def _print_finding(finding: Finding, number: int, count: int) -> None:
    """A finding in a few lines: its clause, where it diverged, how, its size, its replay."""
    result = finding.result
    table = Table(
        show_header=False,
        title=f"[bold red]mismatch {number} of {count}[/] {escape(result.profile_id)}: "
        f"{result.outcome.value} on {escape(result.clause)}, found after "
        f"{plural(finding.found_after, 'round')}",
        title_justify="left",
    )
    table.add_column(style="bold")
    table.add_column(overflow="fold")
    rows = (
        ("clause", result.clause),
        ("step", result.step),
        ("path", result.path),
        ("expected", _short(result.expected)),
        ("actual", _short(result.actual)),
        (
            "shrunk to",
            finding.size
            if finding.shrunk
            else f"{finding.size} (not fully: the search ended first)",
        ),
        ("vector", result.vector_id),
        ("reproduce", result.reproduce),
    )
    for label, value in rows:
        if value:
            table.add_row(label, escape(value))
    console.print(table)


def summary_json(report: ExploreReport, seed: str, out: Path, appended: int) -> dict[str, object]:
    """The run as ``--json`` prints it: profiles, findings (no vectors: they are in ``out``)."""
    return {
        "engine": {"name": report.describe.name, "version": report.describe.version},
        "seed": seed,
        "rounds": report.rounds,
        "seconds": round(report.seconds, 3),
        "restarts": report.restarts,
        "interrupted": (
            None if report.interrupted is None else signal.Signals(report.interrupted).name
        ),
        "skipped": list(report.skipped),
        "profiles": [
            {
                "profile": done.profile_id,
                "rounds": done.rounds,
                "clauses_reached": len(done.coverage.clauses),
                "coverage": coverage_json(done),
                "shrink_rounds": done.shrink_rounds,
                "findings": len(done.findings),
                "waived": sum(w.rounds for w in done.waived),
            }
            for done in report.profiles
        ],
        "findings": [
            {
                "vector_id": f.result.vector_id,
                "profile": f.result.profile_id,
                "outcome": f.result.outcome.value,
                "clause": f.result.clause,
                "step": f.result.step,
                "path": f.result.path,
                "expected": f.result.expected,
                "actual": f.result.actual,
                "found_after": f.found_after,
                "size": f.size,
                "shrunk": f.shrunk,
                "reproduce": f.result.reproduce,
            }
            for f in report.findings
        ],
        "waived": [
            {
                "profile": done.profile_id,
                "clause": w.clause,
                "pattern": w.pattern,
                "reason": w.reason,
                "rounds": w.rounds,
            }
            for done in report.profiles
            for w in done.waived
        ],
        "listed_passed": [vector.id for vector in report.waive.passed],
        "out": output_name(out),
        "appended": appended,
    }


def _append(
    out: Path, findings: tuple[Finding, ...], known: set[str], *, quiet: bool = False
) -> int:
    """Append the findings not yet in ``out``; how many were appended."""
    fresh = [f for f in findings if f.vector.id not in known]
    for finding in findings:
        if finding.vector.id in known and not quiet:
            console.print(f"{finding.vector.id} is already in {output_name(out)}")
    if not fresh:
        return 0
    try:
        with out.open("a", encoding="utf-8") as handle:
            for finding in fresh:
                handle.write(dump_line(finding.vector) + "\n")
    except OSError as exc:
        # The findings are printed above: nothing is lost if the file cannot take them.
        errors.print(
            f"[bold red]error:[/] cannot append findings to {output_name(out)}: {exc.strerror}"
        )
        sys.exit(2)
    if not quiet:
        console.print(f"{plural(len(fresh), 'finding')} appended to {output_name(out)}")
    return len(fresh)
