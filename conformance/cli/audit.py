"""``croupier audit``: verify a production log of RoundRecords, recall a table's rounds."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from conformance.audit import AuditSummary, audit_log, recall
from conformance.cli.common import (
    console,
    errors,
    fail,
    load_profile,
    log_format_option,
    profile_files_option,
)
from conformance.recall import describe_record


@click.group()
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
@log_format_option
@click.option(
    "--shard-size",
    default=2000,
    show_default=True,
    type=click.IntRange(1),
    help="Records per shard.",
)
@profile_files_option("log")
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
        load_profile(path)
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
            fail(f"cannot audit {log}: {exc}")
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
@log_format_option
def audit_recall(log: Path, table_id: str, last: int, log_format: str | None) -> None:
    """Print the last N rounds of a table, oldest first: cards, decisions, payouts."""
    rounds = recall(log, table_id, last, log_format)
    if not rounds:
        fail(f"no round of table {table_id!r} in {log}", code=1)
    for record in rounds:
        # As recorded: no markup, no highlighting, no wrapping when piped to a file.
        console.print(describe_record(record), markup=False, highlight=False, soft_wrap=True)
