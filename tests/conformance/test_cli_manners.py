"""The ``croupier`` command behaves as a CI tool is expected to (issue 26, item 4).

Off a terminal it wraps nothing; a closed pipe ends it quietly; counts read in English.
The commands run for real, in a subprocess whose stdout is a pipe, as in a CI log.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conformance.report import plural
from oracle.profile import shipped_profiles


def _croupier(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``croupier ARGS`` with stdout and stderr pipes and no COLUMNS: nothing is a terminal."""
    environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    return subprocess.run(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-m", "conformance.cli", *args],
        capture_output=True,
        text=True,
        env={**environment, **(env or {})},
        timeout=120,
        check=False,
    )


def test_off_a_terminal_an_error_line_is_whole_however_long(tmp_path: Path) -> None:
    # A profile file in a folder whose name alone is longer than 80 columns.
    folder = tmp_path / ("a-folder-with-a-name-much-longer-than-a-terminal-is-wide-" * 3)
    folder.mkdir()
    missing = folder / "no-such-profile.toml"
    result = _croupier("profiles", "show", str(missing))
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert str(missing) in lines[0]


def test_off_a_terminal_a_table_cell_is_never_cut() -> None:
    result = _croupier("profiles", "show", "blackjack-a")
    assert result.returncode == 0, result.stderr
    profile = next(p for p in shipped_profiles() if p.id == "blackjack-a")
    notes = [p.note for p in profile.parameters if len(p.note) > 60]
    assert notes, "a note longer than 60 characters, that 80 columns would fold"
    for note in notes:
        # Each note whole on one line: beside its parameter, as on a wide terminal.
        assert any(note in line for line in result.stdout.splitlines()), note


def test_columns_still_decides_the_width() -> None:
    result = _croupier("profiles", "show", "blackjack-a", env={"COLUMNS": "80"})
    assert result.returncode == 0, result.stderr
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


def _closes_early(argv: list[str]) -> subprocess.CompletedProcess[bytes]:
    """``argv | head -0``: a reader that closed the pipe before the first line."""
    read, write = os.pipe()
    os.close(read)  # every write now fails with EPIPE, whatever the timing
    try:
        result = subprocess.run(  # noqa: S603 - our own interpreter and module
            argv,
            stdout=write,
            capture_output=False,
            stderr=subprocess.PIPE,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)
    return result


def test_a_closed_pipe_ends_croupier_quietly() -> None:
    argv = [sys.executable, "-m", "conformance.cli", "profiles", "strategy", "blackjack-a"]
    result = _closes_early(argv)
    assert b"Traceback" not in result.stderr
    assert b"BrokenPipeError" not in result.stderr
    assert result.returncode in (0, 1)


def test_a_closed_pipe_ends_the_mutant_list_quietly() -> None:
    result = _closes_early([sys.executable, "-m", "clients.mutants", "--list"])
    assert result.stderr == b""
    assert result.returncode in (0, 1)


def test_plural_forms() -> None:
    assert plural(1, "vector") == "1 vector"
    assert plural(0, "vector") == "0 vectors"
    assert plural(2, "vector") == "2 vectors"
    assert plural(1, "discrepancy", "discrepancies") == "1 discrepancy"
    assert plural(3, "discrepancy", "discrepancies") == "3 discrepancies"


def test_a_corpus_of_one_vector_says_one_vector(tmp_path: Path) -> None:
    shipped = Path(__file__).parents[2] / "conformance" / "vectors"
    first = next(iter(sorted(shipped.glob("*.jsonl"))))
    line = first.read_text(encoding="utf-8").splitlines()[0]
    (tmp_path / first.name).write_text(line + "\n", encoding="utf-8")
    result = _croupier("vectors", "check", "--dir", str(tmp_path))
    # One vector cannot cover every clause: the check fails, and counts in the singular.
    assert " in 1 vector\n" in result.stderr or "corpus ok: 1 vector," in result.stdout, (
        result.stdout + result.stderr
    )
    assert "1 vectors" not in result.stdout + result.stderr
