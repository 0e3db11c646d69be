"""An output that cannot be written is refused before the run, not after an hour of it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.conformance.cli import main
from croupier.conformance.vectors import CORPUS_DIR

#: Nothing listens there: a command that got as far as calling the engine would exit 3.
NOBODY = "127.0.0.1:9"
VECTORS = str(CORPUS_DIR / "blackjack-a.hand.binpb.gz")


def _run(*arguments: str) -> tuple[int, str]:
    """The exit code and the output without any white space (the console wraps long paths)."""
    result = CliRunner().invoke(main, list(arguments))
    return result.exit_code, "".join(result.output.split())


def _said(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize(
    ("option", "what"),
    [("--junit", "--junit"), ("--html", "--html"), ("--report", "--report")],
)
def test_certify_refuses_an_output_in_a_missing_directory(
    tmp_path: Path, option: str, what: str
) -> None:
    target = tmp_path / "missing" / "out"
    code, output = _run("certify", "--target", NOBODY, "--vectors", VECTORS, option, str(target))
    assert code == 2, output
    assert _said(f"Invalid value for '{what}': cannot write {target}: no directory") in output


def test_explore_refuses_findings_it_could_not_append(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "found.jsonl"
    code, output = _run("explore", "--target", NOBODY, "--rounds", "1", "--out", str(target))
    assert code == 2, output
    assert _said(f"Invalid value for '--out': cannot write {target}: no directory") in output


@pytest.mark.parametrize(("option", "what"), [("--report", "--report"), ("--html", "--html")])
def test_audit_refuses_an_output_before_reading_the_log(
    tmp_path: Path, option: str, what: str
) -> None:
    # The log does not exist either: the output is what is refused first.
    log = tmp_path / "rounds.jsonl"
    log.write_bytes(b"")
    target = tmp_path / "missing" / "out"
    code, output = _run("audit", "verify", str(log), option, str(target))
    assert code == 2, output
    assert _said(f"Invalid value for '{what}': cannot write {target}: no directory") in output


def test_an_output_that_is_a_directory_is_refused(tmp_path: Path) -> None:
    code, output = _run(
        "certify", "--target", NOBODY, "--vectors", VECTORS, "--html", str(tmp_path)
    )
    assert code == 2, output
    assert _said("is a directory") in output
