"""A launched engine is visible: its stderr's last lines when it fails to start, the whole in a log.

The engines are tiny Python scripts: one writes to stderr and exits at start, one sleeps
without ever being ready, one writes more stderr than a pipe holds before it execs the demo
engine (a reader that did not drain the pipe would leave it blocked, never ready).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.conformance.cli import main

pytest_plugins = ["pytester"]

#: Lines the crashing engine writes before it exits 4: more than are kept (20), so the first
#: ones are gone and the last ones are shown.
CRASH = (
    "import sys\n"
    "for n in range(1, 31):\n"
    "    print(f'engine: loading table {n}', file=sys.stderr)\n"
    "print('engine: FATAL no licence file', file=sys.stderr)\n"
    "sys.exit(4)\n"
)
#: Never ready: it says so on stderr and sleeps.
SLEEPY = "import sys, time\nprint('engine: waiting for a licence server', file=sys.stderr, flush=True)\ntime.sleep(60)\n"
#: 200 KiB of stderr (three pipes' worth) before the demo engine itself takes over.
CHATTY = (
    "import os, sys\n"
    "for n in range(4000):\n"
    "    sys.stderr.write(f'engine: warming up {n:05d} ' + 'x' * 40 + '\\n')\n"
    "sys.stderr.flush()\n"
    "os.execv(sys.executable, [sys.executable, '-m', 'croupier.clients.demo_engine', '--port', '0'])\n"
)


def _engine(tmp_path: Path, name: str, source: str) -> str:
    script = tmp_path / f"{name}.py"
    script.write_text(source, encoding="utf-8")
    return shlex.join([sys.executable, str(script)])


def _croupier(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args], env={"COLUMNS": "400"})
    return result.exit_code, result.output


def _shows_the_crash(output: str) -> None:
    assert "exited with code 4 before it was ready" in output, output
    assert "engine: FATAL no licence file" in output
    # The last lines, in order, and not the first ones (the ring keeps the last).
    assert output.index("loading table 30") < output.index("FATAL no licence file")
    assert "loading table 29" in output
    assert "loading table 1\n" not in output
    assert "loading table 5\n" not in output


@pytest.mark.parametrize("command", ["certify", "explore"])
def test_an_engine_that_dies_at_start_shows_its_last_stderr_lines(
    tmp_path: Path, command: str
) -> None:
    launch = _engine(tmp_path, "crash", CRASH)
    args = ["--out", tmp_path / "found.jsonl"] if command == "explore" else []
    code, output = _croupier(command, "--launch", launch, "--profile", "roulette-c", *args)
    assert code == 3, output
    _shows_the_crash(output)


def test_the_plugin_shows_the_last_stderr_lines_of_an_engine_that_dies(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    launch = _engine(tmp_path, "crash", CRASH)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--croupier-launch", launch, "-k", "rou-h00"
    )
    # One session error with certify's message and exit code, not one failure per vector.
    assert result.ret == 3
    output = result.stdout.str()
    assert output.count("exited with code 4 before it was ready") == 1, output
    assert "failed" not in output
    _shows_the_crash(output)


def test_the_ready_timeout_sets_the_wait_and_shows_what_the_engine_said(tmp_path: Path) -> None:
    launch = _engine(tmp_path, "sleepy", SLEEPY)
    code, output = _croupier(
        "certify", "--launch", launch, "--ready-timeout", "1.5", "--profile", "roulette-c"
    )
    assert code == 3, output
    assert "did not print 'CROUPIER_ENGINE host:port' within 1.5 s" in output
    assert "engine: waiting for a licence server" in output


@pytest.mark.parametrize("value", ["0", "nan", "inf", "-3"])
def test_a_ready_timeout_out_of_range_is_a_usage_error(value: str) -> None:
    code, output = _croupier("certify", "--launch", "true", "--ready-timeout", value)
    assert code == 2, output
    assert "--ready-timeout" in output


def test_the_plugin_checks_its_ready_timeout(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--croupier-launch", "true", "--croupier-ready-timeout", "0"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--croupier-ready-timeout: 0 s is not a number of seconds*"])


def test_an_engine_log_needs_a_launched_engine() -> None:
    code, output = _croupier("certify", "--target", "127.0.0.1:1", "--engine-log", "engine.log")
    assert code == 2, output
    assert "--engine-log needs --launch" in output


def test_the_engine_log_gets_the_whole_stderr_of_a_healthy_chatty_engine(tmp_path: Path) -> None:
    launch = _engine(tmp_path, "chatty", CHATTY)
    log = tmp_path / "engine.log"
    log.write_text("left from an earlier run\n", encoding="utf-8")
    code, output = _croupier(
        "certify",
        "--launch",
        launch,
        "--engine-log",
        log,
        "--vector",
        "rou-h003",
        "--ready-timeout",
        "60",
    )
    assert code == 0, output
    lines = log.read_text(encoding="utf-8").splitlines()
    # Every line, in order, and nothing of the earlier run: the log is emptied at the start.
    expected = [f"engine: warming up {n:05d} " + "x" * 40 for n in range(4000)]
    assert lines[: len(expected)] == expected
    assert "left from an earlier run" not in lines


def test_explore_writes_the_engine_log_too(tmp_path: Path) -> None:
    launch = _engine(tmp_path, "chatty", CHATTY)
    log = tmp_path / "engine.log"
    code, output = _croupier(
        "explore",
        "--launch",
        launch,
        "--engine-log",
        log,
        "--profile",
        "baccarat-b",
        "--rounds",
        "5",
        "--out",
        tmp_path / "found.jsonl",
    )
    assert code == 0, output
    text = log.read_text(encoding="utf-8")
    assert text.count("engine: warming up") == 4000
    assert text.splitlines()[3999].startswith("engine: warming up 03999 ")


def test_croupier_help_names_the_options() -> None:
    for command in ("certify", "explore"):
        code, output = _croupier(command, "--help")
        assert code == 0
        assert "--ready-timeout" in output
        assert "--engine-log" in output
