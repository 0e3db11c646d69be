"""The ``croupier`` command: one front door to the oracle, the server and the suite."""

from __future__ import annotations

import asyncio
import fnmatch
import hashlib
import logging
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import click
from croupier.conformance.v1 import vector_pb2
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import oracle
from conformance.audit import AuditSummary, audit_log, recall
from conformance.corpus import build_corpus
from conformance.recall import describe_record
from conformance.report import summary_line, write_jsonl, write_junit
from conformance.runner import (
    BAD,
    ConfigError,
    EngineUnavailableError,
    Result,
    RunConfig,
    RunReport,
    TlsOptions,
    read_known_failures,
    run,
)
from conformance.vectors import (
    CORPUS_DIR,
    LoadedVector,
    VectorFileError,
    campaign,
    check_corpus,
    corpus_files,
    corpus_hash,
    dump_line,
    load_corpus,
    read_vectors,
    write_vectors,
)
from oracle.cards import format_cards
from oracle.errors import OracleError
from oracle.profile import Profile, Status, resolve_profile, shipped_profiles
from oracle.roulette import DOUBLE_ZERO, pocket_text
from oracle.service.server import OracleServer, ServerConfig, TlsFiles
from oracle.shoe import seeded_shoe, seeded_spins

console = Console()
errors = Console(stderr=True)

#: The default deadline of every call the runner makes, in seconds.
DEFAULT_TIMEOUT = 10.0


def _fail(message: str, code: int = 2) -> None:
    errors.print(f"[bold red]error:[/] {escape(message)}")
    sys.exit(code)


def _load(id_or_path: str) -> Profile:
    try:
        return resolve_profile(id_or_path)
    except OracleError as exc:
        _fail(str(exc))
        raise  # unreachable: _fail exits


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(oracle.__version__, prog_name="croupier")
def main() -> None:
    """Croupier: a rules-compliance test oracle for blackjack, baccarat and roulette.

    Every rule it applies cites its clause ID from RULES.md.
    """


# --- serve ----------------------------------------------------------------------------------


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=50051,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port; 0 picks a free one.",
)
@click.option(
    "--tls-cert",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Server certificate (PEM).",
)
@click.option(
    "--tls-key",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Server private key (PEM).",
)
@click.option(
    "--tls-client-ca",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="CA that signs client certificates: turns on mutual TLS.",
)
@click.option(
    "--max-open-rounds",
    default=10_000,
    show_default=True,
    type=click.IntRange(1),
    help="Open rounds held at once; more get RESOURCE_EXHAUSTED.",
)
@click.option(
    "--round-ttl",
    default=900.0,
    show_default=True,
    type=click.FloatRange(1),
    help="Seconds before an untouched round expires.",
)
@click.option(
    "--grace",
    default=5.0,
    show_default=True,
    type=click.FloatRange(0),
    help="Seconds in-flight calls get on shutdown.",
)
@click.option(
    "--profile",
    "profiles",
    multiple=True,
    metavar="FILE",
    help="A lab's profile file to serve too (repeatable).",
)
def serve(
    host: str,
    port: int,
    tls_cert: Path | None,
    tls_key: Path | None,
    tls_client_ca: Path | None,
    max_open_rounds: int,
    round_ttl: float,
    grace: float,
    profiles: tuple[str, ...],
) -> None:
    """Serve EngineService and OracleService over gRPC, with health and reflection.

    Prints "CROUPIER_ENGINE host:port" when ready; stops gracefully on SIGTERM.
    """
    if (tls_cert is None) != (tls_key is None):
        _fail("--tls-cert and --tls-key go together")
    if tls_client_ca is not None and tls_cert is None:
        _fail("--tls-client-ca needs --tls-cert and --tls-key")
    tls = None
    if tls_cert is not None and tls_key is not None:
        tls = TlsFiles(cert=tls_cert, key=tls_key, client_ca=tls_client_ca)
    for path in profiles:
        _load(path)
    config = ServerConfig(
        host=host,
        port=port,
        tls=tls,
        max_open_rounds=max_open_rounds,
        round_ttl_seconds=round_ttl,
        grace_seconds=grace,
        profiles=profiles,
    )
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")

    def ready(address: str) -> None:
        print(f"CROUPIER_ENGINE {address}", flush=True)  # noqa: T201 - the launch protocol's line

    async def run() -> None:
        # grpc.aio binds its server to the running event loop: build it inside.
        try:
            server = OracleServer(config)
        except (OSError, RuntimeError) as exc:
            _fail(f"cannot serve on {host}:{port}: {exc}", code=3)
        await server.serve_until_signalled(ready)

    asyncio.run(run())


# --- profiles -------------------------------------------------------------------------------


@main.group(invoke_without_command=True)
@click.pass_context
def profiles(ctx: click.Context) -> None:
    """List the shipped rule profiles (subcommands: show, diff)."""
    if ctx.invoked_subcommand is not None:
        return
    table = Table(title="Rule profiles")
    for column in ("id", "game", "source", "title", "assumed"):
        table.add_column(column)
    for profile in shipped_profiles():
        assumed = sum(p.status is Status.ASSUMED for p in profile.parameters)
        table.add_row(
            profile.id,
            profile.game.value,
            profile.source,
            profile.title,
            f"{assumed}/{len(profile.parameters)}",
        )
    console.print(table)


@profiles.command("show")
@click.argument("profile_id")
def profiles_show(profile_id: str) -> None:
    """Show one profile: every parameter, its clauses, documented or assumed.

    PROFILE_ID is a shipped id or a lab's profile file.
    """
    profile = _load(profile_id)
    extends = f", extends {profile.extends}" if profile.extends else ""
    table = Table(
        title=f"{profile.id}: {profile.title} ({profile.game.value}, document {profile.source}{extends})"
    )
    for column in ("parameter", "value", "status", "clauses", "note"):
        table.add_column(column, overflow="fold")
    for param in profile.parameters:
        status = (
            "[green]documented[/]" if param.status is Status.DOCUMENTED else "[yellow]assumed[/]"
        )
        table.add_row(param.name, _value(param.raw), status, " ".join(param.clauses), param.note)
    console.print(table)


@profiles.command("diff")
@click.argument("first")
@click.argument("second")
def profiles_diff(first: str, second: str) -> None:
    """Show the parameters whose value or status differs between two profiles."""
    a, b = _load(first), _load(second)
    if a.game is not b.game:
        _fail(f"{a.id} is {a.game.value} and {b.id} is {b.game.value}: nothing to compare")
    names = [p.name for p in a.parameters] + [
        p.name for p in b.parameters if a.parameter(p.name) is None
    ]
    table = Table(title=f"{a.id} vs {b.id}")
    for column in ("parameter", a.id, b.id):
        table.add_column(column, overflow="fold")
    differ = 0
    for name in names:
        pa, pb = a.parameter(name), b.parameter(name)
        va = f"{_value(pa.raw)} ({pa.status.value})" if pa else f"{_value(a[name])} (default)"
        vb = f"{_value(pb.raw)} ({pb.status.value})" if pb else f"{_value(b[name])} (default)"
        if va != vb:
            differ += 1
            table.add_row(name, va, vb)
    if differ:
        console.print(table)
    else:
        console.print(f"{a.id} and {b.id} have the same parameters.")


def _value(raw: object) -> str:
    if isinstance(raw, bool):
        return "true" if raw else "false"
    return str(getattr(raw, "value", raw))


# --- shoe and spins -------------------------------------------------------------------------


@main.command()
@click.option("--seed", required=True, help="The seed, any UTF-8 text (may be empty).")
@click.option(
    "--decks", default=1, show_default=True, type=click.IntRange(1, 8), help="Decks in the shoe."
)
@click.option("--count", type=click.IntRange(1), help="Print only the first COUNT cards.")
def shoe(seed: str, decks: int, count: int | None) -> None:
    """Print the portable seeded shoe of SEED in text form, first card dealt first."""
    cards = seeded_shoe(seed, decks)
    print(format_cards(cards[:count] if count else cards))  # noqa: T201 - plain output for pipes


@main.command()
@click.option("--seed", required=True, help="The seed, any UTF-8 text (may be empty).")
@click.option(
    "--count", default=13, show_default=True, type=click.IntRange(1), help="How many spins."
)
@click.option(
    "--wheel", type=click.Choice(["european", "american"]), default="european", show_default=True
)
def spins(seed: str, count: int, wheel: str) -> None:
    """Print the portable seeded roulette spins of SEED (00 on the American wheel)."""
    pockets = 38 if wheel == "american" else 37
    values = seeded_spins(seed, count, pockets)
    print(" ".join(pocket_text(v) if v != DOUBLE_ZERO else "00" for v in values))  # noqa: T201


# --- vectors --------------------------------------------------------------------------------


@main.group()
def vectors() -> None:
    """Build and check conformance vectors."""


@vectors.command("build")
@click.option(
    "--profile", "profile_ref", required=True, help="A shipped profile id or a lab's profile file."
)
@click.option(
    "--seed", required=True, help="The campaign seed; shoes, spins and decisions derive from it."
)
@click.option(
    "--count", default=1000, show_default=True, type=click.IntRange(1), help="Rounds to generate."
)
@click.option("--prefix", default=None, help="Vector id prefix (default: the profile id).")
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), help="Output file (default: stdout)."
)
def vectors_build(
    profile_ref: str, seed: str, count: int, prefix: str | None, out: Path | None
) -> None:
    """Generate a campaign: portable seeded shoes or spins, seeded legal decisions, oracle results."""
    profile = _load(profile_ref)
    built = campaign(profile, seed, count, prefix or profile.id)
    if out is None:
        for vector in built:
            print(dump_line(vector))  # noqa: T201 - JSON Lines to stdout
    else:
        write_vectors(out, built)
        errors.print(f"wrote {len(built)} vectors ({count} rounds) to {out}")


@vectors.command("check")
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=None,
    help="Corpus directory (default: the shipped corpus).",
)
@click.option(
    "--profile-file",
    "profile_files",
    multiple=True,
    metavar="FILE",
    help="A lab profile the corpus uses (repeatable).",
)
def vectors_check(directory: Path | None, profile_files: tuple[str, ...]) -> None:
    """Check a corpus: the oracle reproduces every expectation, ids are unique, clauses exist and are covered."""
    resolve = _resolver(profile_files)
    try:
        loaded = load_corpus(directory or CORPUS_DIR)
    except VectorFileError as exc:
        _fail(str(exc))
    problems = check_corpus(loaded, resolve)
    for problem in problems:
        errors.print(f"[red]{problem.where}[/]: {problem.message}")
    if problems:
        errors.print(f"[bold red]{len(problems)} problem(s)[/] in {len(loaded)} vectors")
        sys.exit(1)
    console.print(
        f"corpus ok: {len(loaded)} vectors, hash {corpus_hash(directory or CORPUS_DIR)[:16]}"
    )


@vectors.command("build-corpus")
def vectors_build_corpus() -> None:
    """Rebuild the shipped corpus (hand-written cases and campaigns) from the current oracle."""
    counts = build_corpus()
    for profile_id, (hand, generated) in counts.items():
        console.print(f"{profile_id}: {hand} hand-written, {generated} generated vectors")


def _resolver(profile_files: tuple[str, ...]) -> Callable[[str], Profile]:
    labs = {p.id: p for p in (_load(f) for f in profile_files)}

    def resolve(profile_id: str) -> Profile:
        return labs.get(profile_id) or resolve_profile(profile_id)

    return resolve


# --- certify --------------------------------------------------------------------------------


@main.command()
@click.option("--target", metavar="HOST:PORT", help="Attach to a running engine.")
@click.option(
    "--launch", metavar="CMD", help="Start the engine; it must print 'CROUPIER_ENGINE host:port'."
)
@click.option(
    "--vectors",
    "vector_paths",
    multiple=True,
    type=click.Path(exists=True, path_type=Path),
    help="Vector file or directory (default: the shipped corpus; repeatable).",
)
@click.option(
    "--profile",
    "profile_filter",
    multiple=True,
    metavar="ID",
    help="Run only vectors of this profile (repeatable).",
)
@click.option(
    "--vector",
    "vector_filter",
    multiple=True,
    metavar="PATTERN",
    help="Run only vectors whose id or name matches this glob (repeatable).",
)
@click.option(
    "--known-failures",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Lines 'pattern  # reason'; listed vectors are expected to fail.",
)
@click.option(
    "--certify",
    "certify_mode",
    is_flag=True,
    help="Certification: ignore known failures and filters; conformant only if every applicable REQUIRED vector passes.",
)
@click.option(
    "--concurrency",
    default=16,
    show_default=True,
    type=click.IntRange(1, 1024),
    help="Vectors in flight at once.",
)
@click.option(
    "--timeout",
    default=DEFAULT_TIMEOUT,
    show_default=True,
    type=click.FloatRange(0.01),
    help="Deadline of every call, in seconds.",
)
@click.option(
    "--report", type=click.Path(dir_okay=False, path_type=Path), help="Write a JSON Lines report."
)
@click.option(
    "--junit", type=click.Path(dir_okay=False, path_type=Path), help="Write a JUnit XML report."
)
@click.option(
    "--tls-ca",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="CA of the engine's certificate: turns on TLS.",
)
@click.option(
    "--tls-cert",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Client certificate for mutual TLS.",
)
@click.option(
    "--tls-key",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Client key for mutual TLS.",
)
@click.option(
    "--fail-fast",
    is_flag=True,
    help="Stop starting vectors after the first failure (ignored with --certify).",
)
@click.option(
    "--show",
    default=10,
    show_default=True,
    type=click.IntRange(0),
    help="Failures to show in detail.",
)
def certify(
    target: str | None,
    launch: str | None,
    vector_paths: tuple[Path, ...],
    profile_filter: tuple[str, ...],
    vector_filter: tuple[str, ...],
    known_failures: Path | None,
    certify_mode: bool,
    concurrency: int,
    timeout: float,
    report: Path | None,
    junit: Path | None,
    tls_ca: Path | None,
    tls_cert: Path | None,
    tls_key: Path | None,
    fail_fast: bool,
    show: int,
) -> None:
    """Run the conformance vectors against an engine and give a verdict.

    Exit codes: 0 conformant, 1 failures, 2 usage or configuration error,
    3 engine unreachable or failed to start.
    """
    if (target is None) == (launch is None):
        _fail("give exactly one of --target HOST:PORT and --launch CMD")
    if (tls_cert is None) != (tls_key is None):
        _fail("--tls-cert and --tls-key go together")
    try:
        loaded = _load_vectors(vector_paths)
        # --certify ignores the known-failures file altogether, so it is not even read.
        known = read_known_failures(known_failures) if known_failures and not certify_mode else ()
    except (VectorFileError, ConfigError) as exc:
        _fail(str(exc))
    corpus = loaded
    if not certify_mode:
        loaded = [v for v in loaded if _selected(v.vector, profile_filter, vector_filter)]
    if not loaded:
        _fail("no vector matches the filters")
    tls = TlsOptions(ca=tls_ca, cert=tls_cert, key=tls_key) if (tls_ca or tls_cert) else None
    engine_arg = f"--target {target}" if target else f"--launch {shlex.quote(launch or '')}"
    vectors_arg = "".join(f" --vectors {shlex.quote(str(p))}" for p in vector_paths)
    # The same connection as this run: TLS files and a non-default deadline go along.
    tls_arg = "".join(
        f" {flag} {shlex.quote(str(path))}"
        for flag, path in (("--tls-ca", tls_ca), ("--tls-cert", tls_cert), ("--tls-key", tls_key))
        if path is not None
    )
    timeout_arg = f" --timeout {timeout:g}" if timeout != DEFAULT_TIMEOUT else ""

    def reproduce(vector: vector_pb2.Vector) -> str:
        return (
            f"croupier certify {engine_arg}{tls_arg}{timeout_arg}{vectors_arg} "
            f"--vector {shlex.quote(vector.id)}"
        )

    with Progress(
        TextColumn("[bold]certify"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        console=errors,
        transient=False,
    ) as progress:
        task = progress.add_task("vectors", total=len(loaded), status="")
        tally: dict[str, int] = {}

        def tick(result: Result) -> None:
            tally[result.outcome.value] = tally.get(result.outcome.value, 0) + 1
            status = " ".join(f"{k.lower()}={v}" for k, v in sorted(tally.items()))
            progress.update(task, advance=1, status=status)

        config = RunConfig(
            vectors=loaded,
            target=target,
            launch=launch,
            tls=tls,
            concurrency=concurrency,
            timeout=timeout,
            known=known,
            known_scope=corpus,
            certify=certify_mode,
            fail_fast=fail_fast and not certify_mode,
            reproduce=reproduce,
            progress=tick,
        )
        try:
            result = asyncio.run(run(config))
        except ConfigError as exc:
            _fail(str(exc))
        except EngineUnavailableError as exc:
            _fail(str(exc), code=3)
    _print_failures(result, show)
    if report is not None:
        write_jsonl(report, result, _vectors_hash(vector_paths))
    if junit is not None:
        write_junit(junit, result)
    line = summary_line(result)
    console.print(f"[bold green]{line}[/]" if result.conformant else f"[bold red]{line}[/]")
    sys.exit(0 if result.conformant else 1)


def _load_vectors(paths: tuple[Path, ...]) -> list[LoadedVector]:
    if not paths:
        return load_corpus(CORPUS_DIR)
    out: list[LoadedVector] = []
    for path in paths:
        out.extend(load_corpus(path) if path.is_dir() else read_vectors(path))
    return out


def _vectors_hash(paths: tuple[Path, ...]) -> str:
    if not paths:
        return corpus_hash(CORPUS_DIR)
    digest = hashlib.sha256()
    for path in paths:
        files = corpus_files(path) if path.is_dir() else [path]
        for file in files:
            digest.update(file.name.encode() + b"\x00" + file.read_bytes())
    return digest.hexdigest()


def _selected(
    vector: vector_pb2.Vector, profiles: tuple[str, ...], patterns: tuple[str, ...]
) -> bool:
    if profiles and vector.profile_id not in profiles:
        return False
    return not patterns or any(
        fnmatch.fnmatchcase(vector.id, p) or fnmatch.fnmatchcase(vector.name, p) for p in patterns
    )


def _print_failures(report: RunReport, show: int) -> None:
    bad = [r for r in report.results if r.outcome in BAD]
    for entry in report.unmatched_patterns:
        errors.print(
            f"[red]known failure pattern {entry.pattern!r} (line {entry.line}) matches no vector[/]"
        )
    for result in sorted(bad, key=lambda r: r.vector_id)[:show]:
        table = Table(
            show_header=False,
            title=f"[bold red]{result.outcome.value}[/] {result.vector_id} {result.name}",
            title_justify="left",
        )
        table.add_column(style="bold")
        table.add_column(overflow="fold")
        for label, value in (
            ("step", result.step),
            ("clause", result.clause),
            ("path", result.path),
            ("expected", result.expected),
            ("actual", result.actual),
            ("message", result.message),
            ("reproduce", result.reproduce),
        ):
            if value:
                table.add_row(label, value)
        console.print(table)
    if len(bad) > show:
        console.print(f"... and {len(bad) - show} more (see --report)")


# --- audit ----------------------------------------------------------------------------------


@main.group()
def audit() -> None:
    """Replay production audit logs of RoundRecords (regulators' tools)."""


@audit.command("verify")
@click.argument("log", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--report",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the full report as JSON.",
)
@click.option(
    "--workers",
    type=click.IntRange(1),
    default=None,
    help="Worker processes (default: every core).",
)
@click.option(
    "--dask",
    "dask_address",
    metavar="ADDRESS",
    help="Run the shards on this Dask scheduler (optional extra 'dask').",
)
@click.option(
    "--format",
    "log_format",
    type=click.Choice(["jsonl", "binary"]),
    default=None,
    help="Log format (default: detected).",
)
@click.option(
    "--shard-size",
    default=2000,
    show_default=True,
    type=click.IntRange(1),
    help="Records per shard.",
)
@click.option(
    "--profile-file",
    "profile_files",
    multiple=True,
    metavar="FILE",
    help="A lab profile the log uses (repeatable).",
)
def audit_verify(
    log: Path,
    report: Path | None,
    workers: int | None,
    dask_address: str | None,
    log_format: str | None,
    shard_size: int,
    profile_files: tuple[str, ...],
) -> None:
    """Replay every record of LOG through the oracle and check the hash chain.

    Reports every discrepancy (record, round, clause, path, expected, actual),
    malformed records, broken or reordered chain links, and totals. Exit codes:
    0 clean, 1 discrepancies found, 2 bad usage or unreadable log.
    """
    for path in profile_files:
        _load(path)
    with Progress(
        TextColumn("[bold]audit"),
        BarColumn(),
        TextColumn("{task.completed} records"),
        TimeElapsedColumn(),
        console=errors,
    ) as progress:
        task = progress.add_task("records", total=None)
        try:
            summary = audit_log(
                log,
                workers=workers,
                dask_address=dask_address,
                shard_size=shard_size,
                lab_files=profile_files,
                log_format=log_format,
                report_path=report,
                progress=lambda n: progress.update(task, advance=n),
            )
        except (OSError, RuntimeError) as exc:
            _fail(f"cannot audit {log}: {exc}")
    _print_audit(summary)
    sys.exit(0 if summary.clean else 1)


def _print_audit(summary: AuditSummary) -> None:
    table = Table(title="Audit totals")
    for column in ("currency", "staked", "paid", "rules say", "difference"):
        table.add_column(column, justify="right")
    for currency, money in summary.report["totals"].items():
        table.add_row(
            escape(currency),
            str(money["staked"]),
            str(money["paid"]),
            str(money["expected_paid"]),
            str(money["difference"]),
        )
    console.print(table)
    profiles = ", ".join(f"{k}: {v}" for k, v in summary.report["profiles"].items())
    # Ids and values come from the log: printed as they are, never read as markup.
    console.print(
        f"{summary.records} records, {summary.report['rounds']} rounds replayed ({profiles})",
        markup=False,
    )
    for line in summary.first:
        console.print(f"[red]{escape(line)}[/]")
    verdict = "clean" if summary.clean else "NOT clean"
    style = "bold green" if summary.clean else "bold red"
    console.print(
        f"[{style}]audit: {verdict}: {summary.discrepancies} discrepancies, "
        f"{summary.malformed} malformed records, {summary.chain_problems} chain problems[/]"
    )


@audit.command("recall")
@click.argument("log", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--table", "table_id", required=True, help="The table's id.")
@click.option(
    "--last", default=10, show_default=True, type=click.IntRange(1), help="How many rounds."
)
@click.option(
    "--format",
    "log_format",
    type=click.Choice(["jsonl", "binary"]),
    default=None,
    help="Log format (default: detected).",
)
def audit_recall(log: Path, table_id: str, last: int, log_format: str | None) -> None:
    """Print the last N rounds of a table, oldest first: cards, decisions, payouts."""
    rounds = recall(log, table_id, last, log_format)
    if not rounds:
        _fail(f"no round of table {table_id!r} in {log}", code=1)
    for record in rounds:
        # As recorded: no markup, no highlighting, no wrapping when piped to a file.
        console.print(describe_record(record), markup=False, highlight=False, soft_wrap=True)


if __name__ == "__main__":
    main()
