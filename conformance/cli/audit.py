"""``croupier audit``: verify a production log of RoundRecords, recall a table's rounds."""

from __future__ import annotations

import json
import shlex
import sys
import tempfile
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click
from rich import box
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from croupier.clients.audit import AuditLogError, generate_key_pair, load_public_key
from croupier.clients.words import plural
from croupier.conformance.audit.fairness import BAND, P_THRESHOLD, Assessment
from croupier.conformance.audit.recall import recall
from croupier.conformance.audit.spools import brief
from croupier.conformance.audit.verify import AuditSummary, audit_log
from croupier.conformance.cli.common import (
    MAX_SHOWN,
    STDOUT,
    DaskAddress,
    Finite,
    InputFile,
    OutputFile,
    console,
    errors,
    fail,
    log_format_option,
    names_a_file,
    output_name,
    prepare_outputs,
    profile_files_option,
    resolver,
    unwritable,
)
from croupier.conformance.cli.common import verdict as print_verdict
from croupier.conformance.invocation import croupier_command
from croupier.conformance.packaged import document
from croupier.conformance.recall import describe_record
from croupier.conformance.reports.html.audit import audit_page, counts_line
from croupier.conformance.reports.html.shape import ShapeError
from croupier.oracle.money import money_text
from croupier.oracle.returns import percent


@click.group()
def audit() -> None:
    """Audit logs of RoundRecords, for regulators: verify, recall, keygen, guide.

    docs/AUDIT.md is the regulator's guide (`croupier audit guide` prints it; the installed
    package carries it): making keys, what each finding means, and what an unsigned log can
    and cannot prove.
    """


@audit.command("guide")
def audit_guide() -> None:
    """Print the regulator's guide, docs/AUDIT.md (Markdown), as the package carries it."""
    text = document("AUDIT.md")
    if text is None:
        fail("this installation carries no AUDIT.md")
    click.echo(text, nl=False)


#: Most worker processes a verify forks: more only queue shards behind one another.
MAX_WORKERS = 256
#: Most records a shard holds: a worker holds its shard's findings in memory.
MAX_SHARD = 10_000_000
#: The widest band a return is flagged beyond, in standard deviations: beyond it nothing is.
MAX_BAND = 1000.0

#: The console's sections: the report's list, and its title.
_SECTIONS = (
    ("discrepancies", "Discrepancies"),
    ("chain_problems", "Chain problems"),
    ("log_problems", "Log problems"),
    ("malformed", "Malformed entries"),
    ("unreplayable", "Unreplayable records"),
)


@audit.command("verify")
@click.argument("log", type=InputFile())
@click.option(
    "--report",
    type=OutputFile(),
    help="Write the full report as JSON (- for standard output).",
)
@click.option(
    "--html",
    "html",
    type=OutputFile(),
    metavar="FILE",
    help="Write the report as one HTML page: no script, nothing fetched, printable (- for "
    "standard output).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the summary as JSON on standard output (verdict, counts, totals, statements, "
    "statistics and the first findings of each list) instead of the console's tables.",
)
@click.option(
    "--public-key",
    "public_keys",
    multiple=True,
    type=InputFile(),
    metavar="FILE",
    help="The operator's Ed25519 public key (PEM, from 'croupier audit keygen'): check every "
    "signed checkpoint, and that nothing is unsealed or cut off (repeatable).",
)
@click.option(
    "--allow-empty",
    is_flag=True,
    help="Exit 0, not 2, for a log that holds no round record.",
)
@click.option(
    "--show",
    default=20,
    show_default=True,
    type=click.IntRange(0, MAX_SHOWN),
    help="Findings listed per section on the console (the report lists them all).",
)
@click.option(
    "--workers",
    type=click.IntRange(1, MAX_WORKERS),
    default=None,
    help=f"Worker processes, at most {MAX_WORKERS} (default: every core).",
)
@click.option(
    "--dask",
    "dask_address",
    type=DaskAddress(),
    metavar="ADDRESS|local:N",
    help="Run the shards on this Dask scheduler, or on a LocalCluster of N worker processes "
    "started for the run (local:N; optional extra 'dask').",
)
@log_format_option
@click.option(
    "--shard-size",
    default=2000,
    show_default=True,
    type=click.IntRange(1, MAX_SHARD),
    help="Records per shard.",
)
@click.option(
    "--band",
    default=BAND,
    show_default=True,
    type=Finite(0, MAX_BAND, min_open=True),
    metavar="Z",
    help="Flag an actual return whose z-score against the theoretical one is beyond +-Z.",
)
@click.option(
    "--fairness-p",
    "fairness_p",
    default=P_THRESHOLD,
    show_default=True,
    type=Finite(0, 1, min_open=True),
    metavar="P",
    help="Flag a fairness test (chi-square of what was dealt) whose p-value is under P.",
)
@profile_files_option("log")
def audit_verify(
    log: Path,
    report: Path | None,
    html: Path | None,
    as_json: bool,
    public_keys: tuple[Path, ...],
    allow_empty: bool,
    show: int,
    workers: int | None,
    dask_address: str | None,
    log_format: str | None,
    shard_size: int,
    band: float,
    fairness_p: float,
    profile_files: tuple[str, ...],
) -> None:
    """Replay every record of LOG through the oracle, and check the log as a whole.

    Each record: the rules (record, round, clause, path, expected, actual), its totals
    against its lines, one currency per round (TABLE.currency). The log: the hash chain,
    sequence numbers and times, each round id used once, and with --public-key the signed
    checkpoints (records after the last valid one are unsealed; a log without its closing
    checkpoint is truncated). Without a key, re-chaining and truncation cannot be detected,
    and the report says so. The money of a record that cannot be replayed stays in the
    totals, as unverified.

    Then the return to player per profile, bet kind and currency beside the theoretical one
    (z-score, flagged beyond --band), and chi-square fairness tests of what was dealt:
    baccarat outcomes, roulette pockets, blackjack card ranks (flagged under --fairness-p).
    These flags are statistics, not findings: they do not change the verdict or exit code.

    Exit codes: 0 clean; 1 findings; 2 bad usage, an unreadable log, not a Croupier audit
    log, or a log with no round record (0 with --allow-empty).
    """
    # The one registry, as serve builds it: a lab file taking a shipped id is refused here,
    # not met as every record unreplayable.
    resolver(profile_files, "--profile-file")
    inputs = [
        ("the log", log),
        *(("a public key", path) for path in public_keys),
        *(("a profile file", Path(name)) for name in profile_files if names_a_file(name)),
    ]
    if as_json and STDOUT in (report, html):
        fail("--json prints on standard output: give --report and --html a file, not -")
    outputs = prepare_outputs({"--report": report, "--html": html}, inputs)
    report, html = outputs["--report"], outputs["--html"]
    try:
        keys = [load_public_key(path) for path in public_keys]
    except AuditLogError as exc:
        fail(str(exc))
    stack = ExitStack()
    if html is not None and report is None:
        # The page is made from the JSON report: every finding, in constant memory meanwhile.
        report = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "report.json"
    with (
        stack,
        Progress(
            TextColumn("[bold]audit"),
            BarColumn(),
            TextColumn("{task.completed} records"),
            TimeElapsedColumn(),
            console=errors,
            disable=console.quiet or as_json,  # croupier --quiet
        ) as progress,
    ):
        task = progress.add_task("records", total=None)
        try:
            summary = audit_log(
                log,
                workers=workers,
                dask_address=dask_address,
                shard_size=shard_size,
                lab_files=profile_files,
                log_format=log_format,
                public_keys=keys,
                report_path=report,
                progress=lambda n: progress.update(task, advance=n),
                keep_first=show,
                band=band,
                p_threshold=fairness_p,
                # Only what changes what is checked: workers, shards and Dask never change a
                # report (tests/audit/test_scale.py), so the same log checked the same way
                # gives the same report byte for byte, whatever ran it.
                options={
                    "format": log_format or "",
                    "band": band,
                    "fairness_p": fairness_p,
                    "public_keys": [str(path) for path in public_keys],
                    "profile_files": list(profile_files),
                    # What shows one round of the log: the page adds --round ID per finding.
                    "recall": f"{croupier_command()} audit recall {shlex.quote(str(log))}",
                },
            )
        except (OSError, RuntimeError) as exc:
            fail(f"cannot audit {log}: {exc}")
        if html is not None and report is not None:
            _write_html(json.loads(report.read_text(encoding="utf-8")), html)
    if as_json:
        click.echo(json.dumps(summary_json(summary), indent=2, sort_keys=True))
    if summary.verdict == "not an audit log":
        if not as_json:
            _print_sections(summary)
        fail(
            f"{log} is not a Croupier audit log: none of its {summary.records} entries is a "
            "round record (with a round id) or a checkpoint"
        )
    if not as_json:
        _print_audit(summary)
    if summary.verdict == "empty":
        (errors if as_json else console).print(
            f"[bold yellow]audit: nothing verified: {escape(str(log))} holds no round record[/]"
        )
        sys.exit(0 if allow_empty else 2)
    sys.exit(0 if summary.clean else 1)


def summary_json(summary: AuditSummary) -> dict[str, Any]:
    """What ``audit verify --json`` prints: the report's head and the first findings of each list.

    The report (``--report``) has the same keys, with every finding listed instead.
    """
    return {**summary.report, "first": {key: list(summary.first[key]) for key, _ in _SECTIONS}}


def _write_html(report: dict[str, Any], html: Path, source: str = "the report") -> None:
    try:
        text = audit_page(report, made=datetime.now(UTC))
    except ShapeError as exc:
        fail(f"{source} is not a well-formed report of croupier audit verify: {exc}")
    try:
        html.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {output_name(html)}: {exc.strerror or exc}")


@audit.command("html")
@click.argument("report", type=InputFile())
@click.option(
    "-o",
    "--output",
    required=True,
    type=OutputFile(),
    help="The HTML page to write (- for standard output).",
)
def audit_html(report: Path, output: Path) -> None:
    """Make the HTML page of a saved JSON report (croupier audit verify --report)."""
    output = prepare_outputs({"--output": output}, [("the report", report)])["--output"] or output
    try:
        data = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        fail(f"cannot read {report}: {exc}")
    if not isinstance(data, dict) or "verdict" not in data or "counts" not in data:
        fail(f"{report} is not a report of croupier audit verify")
    _write_html(data, output, str(report))


def _print_sections(summary: AuditSummary) -> None:
    """The first findings of each list, by record number, then how many more."""
    for key, title in _SECTIONS:
        count = _count(summary, key)
        if not count:
            continue
        first = summary.first[key]
        console.print(f"[bold]{title}: {count}[/]")
        for line in first:
            # No highlighter: on a long value from the log it takes minutes.
            console.print(f"  [red]{escape(line)}[/]", highlight=False)
        if count > len(first):
            console.print(f"  ... and {count - len(first)} more (--report lists them all)")
    recall = (summary.report.get("options") or {}).get("recall")
    if recall and _count(summary, "discrepancies"):
        # The page gives each finding its own; the console says how to make one. Not indented:
        # it is no item of the last list.
        console.print(
            f"To see a round as recorded: {recall} --round ROUND", markup=False, highlight=False
        )


def _count(summary: AuditSummary, key: str) -> int:
    name = {"chain_problems": "chain", "log_problems": "log"}.get(key, key)
    return summary.counts[name]


def _print_audit(summary: AuditSummary) -> None:
    table = Table(title="Audit totals")
    for column in ("currency", "staked", "paid", "rules say", "difference", "unverified paid"):
        table.add_column(column, justify="right")
    for currency, money in summary.report["totals"].items():
        # Amounts in their currency, as the page and the findings write them.
        table.add_row(
            escape(currency),
            *(
                escape(money_text(money[key], currency))
                for key in ("staked", "paid", "expected_paid", "difference", "unverified_paid")
            ),
        )
    report = summary.report
    if "log_sha256" in report:
        console.print(
            f"log {report['log']}: {plural(report['log_size'], 'byte')}, "
            f"SHA-256 {report['log_sha256']}; Croupier {report['croupier_version']}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    console.print(table)
    profiles = ", ".join(f"{brief(k)}: {v}" for k, v in summary.report["profiles"].items())
    checkpoints = summary.report["checkpoints"]
    # Ids and values come from the log: printed as they are, never read as markup.
    console.print(
        f"{plural(summary.records, 'record')}, {plural(summary.report['rounds'], 'round')} ({profiles})"
        + (f", {plural(checkpoints, 'checkpoint')}" if checkpoints else ""),
        markup=False,
        highlight=False,
    )
    for statement in summary.statements:
        style = "green" if statement.startswith("sealed") else "yellow"
        console.print(f"[{style}]{escape(statement)}[/]")
    if summary.statistics is not None:
        # Beside the money, before the findings: the list of findings ends the output.
        _print_returns(summary.statistics)
        _print_fairness(summary.statistics)
        if summary.statistics.flagged:
            console.print(
                f"[bold yellow]{summary.statistics.flagged} flagged: statistics to look into, "
                "not findings (the verdict is the rules')[/]"
            )
    _print_sections(summary)
    if summary.kinds:
        named = ", ".join(f"{kind} {count}" for kind, count in summary.kinds.items())
        console.print(f"findings: {named}", markup=False)
    counts = summary.counts
    verdict = "clean" if summary.clean else "NOT clean"
    style = "bold green" if summary.clean else "bold red"
    if summary.verdict == "empty":
        # Nothing was verified, so nothing is "NOT clean" either: the next line says why.
        verdict, style = "empty", "bold yellow"
    print_verdict(f"[{style}]audit: {verdict}: {counts_line(counts)}[/]")


def _statistics_table(title: str, columns: tuple[str, ...]) -> Table:
    """Profile, a name, numbers, and a verdict: borderless, so that it fits 80 columns."""
    table = Table(title=title, box=box.SIMPLE)
    table.add_column("profile", overflow="fold")
    table.add_column(columns[0], overflow="fold")
    for column in columns[1:-1]:
        table.add_column(column, justify="right", no_wrap=True)
    table.add_column(columns[-1], overflow="fold")
    return table


def _print_returns(statistics: Assessment) -> None:
    """Actual against theoretical return per profile, bet kind and currency."""
    if not statistics.returns:
        return
    table = _statistics_table(
        f"Returns (flagged beyond |z| > {statistics.band:g})",
        ("bet", "staked", "actual", "theory", "z", ""),
    )
    notes: dict[str, str] = {}
    for row in statistics.returns:
        actual = row.actual
        if row.note:
            notes.setdefault(row.profile_id, row.note)
        table.add_row(
            escape(row.profile_id),
            escape(row.bet),
            escape(money_text(row.staked, row.currency)),
            percent(actual, 2) if actual is not None else "-",
            percent(row.theoretical, 2) if row.theoretical is not None else "-",
            f"{row.z:+.2f}" if row.z is not None else "-",
            "[bold red]FLAG[/]" if row.flagged else "",
        )
    console.print(table)
    console.print(
        f"  z: the standard errors between actual and theory; flagged only beyond "
        f"+-{statistics.band:g}: on few rounds a return far over 100% is chance",
        markup=False,
        highlight=False,
    )
    for profile_id, note in notes.items():
        # The profile on a line of its own: the reason then fits 80 columns.
        console.print(f"  {profile_id}:\n    {note}", markup=False, highlight=False)


def _print_fairness(statistics: Assessment) -> None:
    """Each chi-square test of what a profile dealt, and its verdict."""
    if not statistics.fairness:
        return
    table = _statistics_table(
        f"Fairness (flagged under p < {statistics.p_threshold:g})",
        ("dealt", "n", "chi2", "p", "verdict"),
    )
    for row in statistics.fairness:
        if row.p is None:
            verdict = "[yellow]too few rounds[/]"
        elif row.flagged:
            verdict = f"[bold red]FLAG[/] {escape(row.worst)}"
        else:
            verdict = "[green]consistent[/]"
        table.add_row(
            escape(row.profile_id),
            row.test,
            str(row.observations),
            f"{row.statistic:.1f}" if row.statistic is not None else "-",
            f"{row.p:.3g}" if row.p is not None else "-",
            verdict,
        )
    console.print(table)


@audit.command("keygen")
@click.argument("name", type=click.Path(dir_okay=False, path_type=Path))
def audit_keygen(name: Path) -> None:
    """Make an Ed25519 key pair that signs audit logs: NAME.key (private) and NAME.pub.

    The engine signs its log's checkpoints with NAME.key (adapter kit: --audit-key
    NAME.key): keep it on the engine's host, readable by the engine only. Auditors check
    them with NAME.pub (croupier audit verify --public-key NAME.pub). Existing files are
    never overwritten.
    """
    if not name.name or name.name in {".", ".."} or str(name) == "-":
        fail(
            f"the key pair needs a file name: NAME.key and NAME.pub, not {str(name)!r} (two "
            "files, one of them private, never standard output)"
        )
    private = name.with_name(f"{name.name}.key")
    public = name.with_name(f"{name.name}.pub")
    for path in (private, public):
        problem = unwritable(path)
        if problem:
            fail(f"cannot write {path}: {problem}")
    try:
        key = generate_key_pair(private, public)
    except AuditLogError as exc:
        fail(str(exc))
    console.print(
        f"private key: {private} (for the engine: --audit-key)\n"
        f"public key:  {public} (for auditors: --public-key)\n"
        f"key id:      {key.hex()[:16]}",
        markup=False,
        highlight=False,
    )


@audit.command("recall")
@click.argument("log", type=InputFile())
@click.option("--table", "table_id", default="", help="The table's id.")
@click.option(
    "--round",
    "round_id",
    default="",
    help="One round's id: its record (a finding's round, as the audit page names it).",
)
@click.option(
    "--last",
    default=10,
    show_default=True,
    type=click.IntRange(1, MAX_SHOWN),
    help="How many rounds.",
)
@log_format_option
def audit_recall(
    log: Path, table_id: str, round_id: str, last: int, log_format: str | None
) -> None:
    """Print the last N rounds of a table, or one round, oldest first: cards, decisions, payouts.

    Give --table, --round or both.
    """
    if not table_id and not round_id:
        fail("give --table TABLE (its last rounds) or --round ROUND (one round), or both")
    rounds = recall(log, table_id, last, log_format, round_id=round_id)
    if not rounds:
        which = " of ".join(
            part
            for part in (
                f"round {round_id!r}" if round_id else "round",
                f"table {table_id!r}" if table_id else "",
            )
            if part
        )
        fail(f"no {which} in {log}", code=1)
    for record in rounds:
        # As recorded: no markup, no highlighting, no wrapping when piped to a file.
        console.print(describe_record(record), markup=False, highlight=False, soft_wrap=True)
