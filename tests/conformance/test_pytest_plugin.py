"""The pytest plugin: the corpus as pytest items against the demo engine and a mutant."""

from __future__ import annotations

import shlex
import sys

import pytest

from conformance.zoo import launch_command
from tests.conformance.support import start_engine

pytest_plugins = ["pytester"]

DEMO = shlex.join([sys.executable, "-m", "clients.demo_engine", "--port", "0"])


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """Pytest in a subprocess, as a vendor's CI runs it: the plugin comes from its entry point."""
    return pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--strict-markers", "-v", "-rA", *args
    )


def test_selected_vectors_pass_against_the_demo_engine(pytester: pytest.Pytester) -> None:
    """``-k`` picks vectors by id; each item is named by its vector id."""
    result = _run(pytester, "--croupier-launch", DEMO, "-k", "bja-h001 or bja-h002 or rou-h003")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(
        [
            "*croupier::bja-h001 PASSED*",
            "*croupier::bja-h002 PASSED*",
            "*croupier::rou-h003 PASSED*",
        ]
    )


def test_an_engine_already_running_is_reached_at_its_address(pytester: pytest.Pytester) -> None:
    """``--croupier-target`` plays the vectors against a running engine, which is left running."""
    engine = start_engine(shlex.split(DEMO))
    try:
        result = _run(pytester, "--croupier-target", engine.address, "-k", "bab-h001")
    finally:
        engine.stop()
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*croupier::bab-h001 PASSED*"])


def test_markers_select_a_profile_level_and_clause(pytester: pytest.Pytester) -> None:
    """``-m`` selects by the marker names that carry the profile, level and clause."""
    result = _run(
        pytester,
        "--croupier-launch",
        DEMO,
        "-m",
        "profile_roulette-c and level_required and clause_C.rou.wheel",
        # A handful of them: -k and -m together.
        "-k",
        "h00",
    )
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) >= 1
    assert "failed" not in outcomes
    passed = [line for line in result.outlines if line.endswith("PASSED") or " PASSED " in line]
    assert passed
    assert all("croupier::rou-" in line for line in passed)


def test_a_mutant_fails_with_its_clause_in_the_terminal_and_junit(
    pytester: pytest.Pytester,
) -> None:
    """A failure shows the clause, path, expected and actual, in the terminal and the JUnit XML."""
    junit = pytester.path / "junit.xml"
    result = _run(
        pytester,
        "--croupier-launch",
        launch_command("blackjack-pays-6-5"),
        "-k",
        "bja-h001",
        "--croupier-timeout=5",
        f"--junitxml={junit}",
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*clause:*BJ.nat-pays*",
            "*path:*settlement.lines[[]0[]].returned.minor_units*",
            "*expected:*250*",
            "*actual:*220*",
            "*reproduce:*certify --launch*--timeout 5 --vector bja-h001*",
        ]
    )
    xml = junit.read_text(encoding="utf-8")
    assert 'name="bja-h001"' in xml
    for text in ("clause:    BJ.nat-pays", "expected:  250", "actual:    220"):
        assert text in xml


def test_without_its_options_the_plugin_adds_nothing(pytester: pytest.Pytester) -> None:
    """Our own runs, and a vendor's other tests, see no vector and no marker."""
    pytester.makepyfile("def test_one():\n    pass\n")
    result = _run(pytester)
    result.assert_outcomes(passed=1)


def test_target_and_launch_together_are_a_usage_error(pytester: pytest.Pytester) -> None:
    """One engine a run: both options are refused before anything is loaded or launched."""
    result = _run(pytester, "--croupier-target", "127.0.0.1:1", "--croupier-launch", DEMO)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--croupier-target or --croupier-launch, not both*"])
