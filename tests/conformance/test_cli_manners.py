"""The ``croupier`` command behaves as a CI tool is expected to (issue 26, item 4).

Off a terminal it wraps nothing; a closed pipe ends it quietly; counts read in English.
The commands run for real, in a subprocess whose stdout is a pipe, as in a CI log.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.clients.words import plural
from croupier.conformance.cli import common, main
from croupier.conformance.vectors import campaign, write_vectors
from croupier.oracle.profile import Status, shipped_profile, shipped_profiles
from tests.conformance.support import Vectors


def _croupier(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``croupier ARGS`` with stdout and stderr pipes and no COLUMNS: nothing is a terminal."""
    environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    return subprocess.run(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-m", "croupier.conformance.cli", *args],
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


def test_columns_is_read_at_each_print_not_when_the_console_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A command first imported inside one invocation (the lazy group) makes its console under
    # that invocation's environment: the next one, in the same process, must not inherit it.
    monkeypatch.setenv("COLUMNS", "80")
    made = common._Console()  # the class of every command's console
    monkeypatch.setenv("COLUMNS", "200")
    assert made.size.width == 200
    monkeypatch.delenv("COLUMNS")
    assert made.size.width == common.UNWRAPPED


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
    argv = [sys.executable, "-m", "croupier.conformance.cli", "profiles", "strategy", "blackjack-a"]
    result = _closes_early(argv)
    assert b"Traceback" not in result.stderr
    assert b"BrokenPipeError" not in result.stderr
    assert result.returncode in (0, 1)


def test_a_closed_pipe_ends_the_mutant_list_quietly() -> None:
    result = _closes_early([sys.executable, "-m", "croupier.clients.mutants", "--list"])
    assert result.stderr == b""
    assert result.returncode in (0, 1)


def test_plural_forms() -> None:
    assert plural(1, "vector") == "1 vector"
    assert plural(0, "vector") == "0 vectors"
    assert plural(2, "vector") == "2 vectors"
    assert plural(1, "discrepancy", "discrepancies") == "1 discrepancy"
    assert plural(3, "discrepancy", "discrepancies") == "3 discrepancies"


def _small_corpus(folder: Path, rounds: int) -> Path:
    """A corpus of its own: a campaign of ``rounds`` rounds of blackjack-c, a vector a round."""
    profile = shipped_profile("blackjack-c")
    write_vectors(folder / "blackjack-c.jsonl", campaign(profile, "manners", rounds, "manners"))
    return folder


def test_a_corpus_of_one_vector_says_one_vector(tmp_path: Path) -> None:
    result = _croupier("vectors", "check", "--dir", str(_small_corpus(tmp_path, 1)))
    # One vector cannot cover every clause: the check fails, and counts in the singular.
    assert result.returncode == 1
    assert " in 1 vector\n" in result.stderr, result.stderr
    assert "1 vectors" not in result.stdout + result.stderr


def test_profiles_list_and_its_bare_form_list_every_shipped_profile() -> None:
    runner = CliRunner()
    listed = runner.invoke(main, ["profiles", "list"], env={"COLUMNS": "400"})
    bare = runner.invoke(main, ["profiles"], env={"COLUMNS": "400"})
    assert listed.exit_code == bare.exit_code == 0
    assert listed.output == bare.output
    for profile in shipped_profiles():
        assert profile.id in listed.output


def test_profiles_list_json_is_what_a_script_reads() -> None:
    result = CliRunner().invoke(main, ["profiles", "list", "--json"])
    assert result.exit_code == 0, result.output
    listed = json.loads(result.output)
    assert [entry["id"] for entry in listed] == [p.id for p in shipped_profiles()]
    by_id = {entry["id"]: entry for entry in listed}
    for profile in shipped_profiles():
        entry = by_id[profile.id]
        assert entry["game"] == profile.game.value
        assert entry["title"] == profile.title
        assert entry["parameters"] == len(profile.parameters)
        assert entry["assumed"] == sum(p.status is Status.ASSUMED for p in profile.parameters)


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_shells_script(shell: str) -> None:
    result = CliRunner().invoke(main, ["completion", shell])
    assert result.exit_code == 0, result.output
    assert f"_CROUPIER_COMPLETE={shell}_complete" in result.output


def test_completion_refuses_an_unknown_shell() -> None:
    result = CliRunner().invoke(main, ["completion", "tcsh"])
    assert result.exit_code == 2
    assert "tcsh" in result.output


def test_the_completion_script_answers_with_commands() -> None:
    # What the bash script asks the command when TAB is pressed after "croupier prof".
    result = _croupier(
        env={
            "_CROUPIER_COMPLETE": "bash_complete",
            "COMP_WORDS": "croupier prof",
            "COMP_CWORD": "1",
        }
    )
    assert result.returncode == 0, result.stderr
    assert "plain,profiles" in result.stdout.split()


def test_quiet_certify_prints_the_verdict_line_alone(reference: str, vectors: Vectors) -> None:
    args = ["certify", "--target", reference, "--vectors", str(vectors.targeted)]
    runner = CliRunner()
    loud = runner.invoke(main, args, env={"COLUMNS": "400"})
    quiet = runner.invoke(main, ["--quiet", *args], env={"COLUMNS": "400"})
    assert loud.exit_code == quiet.exit_code == 0, loud.output
    verdict = loud.output.strip().splitlines()[-1]
    assert "passed" in verdict
    assert len(loud.output.strip().splitlines()) > 1  # progress or the table came first
    # The same verdict line alone, but for the run's duration ("in 0.1 s").
    [line] = quiet.output.strip().splitlines()
    assert line.split(" in ")[0] == verdict.split(" in ")[0]
    assert line.split(" s; ")[1] == verdict.split(" s; ")[1]


def test_quiet_keeps_errors(tmp_path: Path) -> None:
    log = tmp_path / "one.jsonl"
    log.write_text('{"x": 1}\n', encoding="utf-8")
    result = _croupier("--quiet", "audit", "verify", str(log))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert "not a Croupier audit log" in result.stderr


def test_vectors_check_prints_progress_on_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A clock that moves 1 s each time it is read: a progress line is due at every vector.
    ticks = iter(range(10_000))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(ticks)))
    corpus = _small_corpus(tmp_path, 3)
    result = CliRunner().invoke(
        main, ["vectors", "check", "--dir", str(corpus), "--progress-every", "1"]
    )
    progress = [line for line in result.stderr.splitlines() if line.startswith("vectors check:")]
    # Before each vector, the count so far, of the corpus's 3; the seconds since the start.
    assert [line.split(" (")[0] for line in progress] == [
        f"vectors check: {done}/3 vectors checked" for done in range(3)
    ], result.stderr
    assert all(line.endswith(" s)") for line in progress)
    assert not any(line.startswith("vectors check:") for line in result.stdout.splitlines())


def test_vectors_check_progress_waits_its_interval(tmp_path: Path) -> None:
    corpus = _small_corpus(tmp_path, 3)
    result = CliRunner().invoke(
        main, ["vectors", "check", "--dir", str(corpus), "--progress-every", "3600"]
    )
    assert "vectors check:" not in result.output
