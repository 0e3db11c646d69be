"""``croupier report``: documents made later from a run's JSON Lines report."""

from __future__ import annotations

from pathlib import Path

import click

from croupier.conformance.cli.common import (
    InputFile,
    OutputFile,
    console,
    fail,
    output_name,
    prepare_outputs,
)
from croupier.conformance.reports.html.certificate import ReportFileError, write_certificate


@click.group()
def report() -> None:
    """Documents made from a run's JSON Lines report (certify --report)."""


@report.command("html")
@click.argument("jsonl", type=InputFile())
@click.option(
    "-o",
    "--output",
    type=OutputFile(),
    help="The page to write (default: the report's name with .html; - for standard output).",
)
def html(jsonl: Path, output: Path | None) -> None:
    """The certification report as one self-contained HTML page.

    The same page certify --html writes, byte for byte: engine, suite and corpus, verdict, a
    matrix of clauses by profiles, and every failure with its clause's text and the command
    that reproduces it. Exit codes: 0 written, 2 not a run report or not writable.
    """
    out = output or jsonl.with_suffix(".html")
    out = prepare_outputs({"--output": out}, [("the report", jsonl)])["--output"] or out
    try:
        write_certificate(jsonl, out)
    except ReportFileError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {output_name(out)}: {exc.strerror}")
    console.print(f"wrote {output_name(out)}", soft_wrap=True)
