"""``croupier report``: documents made later from a run's JSON Lines report."""

from __future__ import annotations

from pathlib import Path

import click

from conformance.cli.common import console, fail
from conformance.html.certificate import ReportFileError, write_certificate


@click.group()
def report() -> None:
    """Documents made from a run's JSON Lines report (certify --report)."""


@report.command("html")
@click.argument("jsonl", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The page to write (default: the report's name with .html).",
)
def html(jsonl: Path, output: Path | None) -> None:
    """The certification report as one self-contained HTML page.

    The same page certify --html writes, byte for byte: engine, suite and corpus, verdict, a
    matrix of clauses by profiles, and every failure with its clause's text and the command
    that reproduces it. Exit codes: 0 written, 2 not a run report or not writable.
    """
    out = output or jsonl.with_suffix(".html")
    try:
        write_certificate(jsonl, out)
    except ReportFileError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror}")
    console.print(f"wrote {out}", soft_wrap=True)
