"""The pytest plugin: the corpus as pytest items against the demo engine and a mutant."""

from __future__ import annotations

import fnmatch
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import trustme

from croupier.conformance.vectors import load_corpus
from croupier.conformance.zoo import launch_command
from tests.conformance.engines import command
from tests.conformance.support import CROUPIER, start_engine

pytest_plugins = ["pytester"]

DEMO = shlex.join([sys.executable, "-m", "croupier.clients.demo_engine", "--port", "0"])
MUTANT = launch_command("blackjack-pays-6-5")


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
    # Three vectors of the corpus are not the corpus: the summary says what ran, and no more.
    result.stdout.fnmatch_lines(
        [
            "croupier run: passed 3 of the 3 vectors selected (3 pass) in *: a partial run, no verdict"
        ]
    )
    assert "conformant" not in result.stdout.str().lower()


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
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure shows the clause, path, expected and actual, in the terminal and the JUnit XML."""
    # As on CI: pytest does not cut the short summary's lines to the terminal's width.
    monkeypatch.setenv("CI", "true")
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
    # The one-line summary names the clause, the path, expected and actual.
    summary = (
        "FAILED croupier::bja-h001 - BJ.nat-pays settlement.lines[[]0[]].returned.minor_units:"
        " expected 250, actual 220"
    )
    result.stdout.fnmatch_lines([summary])
    xml = junit.read_text(encoding="utf-8")
    assert 'name="bja-h001"' in xml
    # certify's verdict properties: one vector is a part of the corpus, and it failed.
    assert '<property name="croupier.conformant" value="false" />' in xml
    assert '<property name="croupier.summary" value="run: NOT conformant: 1 vector (1 fail)' in xml
    # Amounts in the round's currency, with the minor units the contract carries.
    for text in (
        "clause:    BJ.nat-pays",
        "expected:  2.50 EUR (250 minor units)",
        "actual:    2.20 EUR (220 minor units)",
    ):
        assert text in xml


def test_without_its_options_the_plugin_adds_nothing(pytester: pytest.Pytester) -> None:
    """Our own runs, and a vendor's other tests, see no vector and no marker."""
    pytester.makepyfile("def test_one():\n    pass\n")
    result = _run(pytester)
    result.assert_outcomes(passed=1)


def test_the_inert_plugin_imports_neither_the_runner_nor_grpc() -> None:
    """Every pytest run in a venv with Croupier loads the entry point: it must cost nothing.

    ``make bench`` (``plugin``) measures the milliseconds; this says what is not imported.
    """
    probe = (
        "import sys, pytest, croupier.conformance.pytest_plugin\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('conformance', 'oracle', 'clients', 'croupier', 'grpc', 'google', 'hypothesis')))"
    )
    run = subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert run.stdout.split() == [
        "['croupier',",
        "'croupier.conformance',",
        "'croupier.conformance.pytest_plugin',",
        "'croupier.conformance.timeouts']",
    ]


def test_an_unreachable_engine_is_one_session_error_with_certifys_message(
    pytester: pytest.Pytester,
) -> None:
    result = _run(pytester, "--croupier-target", "127.0.0.1:1", "-k", "bja-h00")
    assert result.ret == 3
    output = result.stdout.str()
    assert output.count("croupier: ") == 1, output
    assert "127.0.0.1:1" in output
    assert "FAILED" not in output
    assert "PASSED" not in output


#: Written by the controller of an xdist run: which of the corpus plugin's modules it loaded.
_CONTROLLER_PROBE = """
import sys
from pathlib import Path

def pytest_unconfigure(config):
    if not hasattr(config, "workerinput"):
        heavy = ("runner", "vectors", "pytest_corpus")
        loaded = [m for m in heavy if f"croupier.conformance.{m}" in sys.modules]
        Path("controller-modules.txt").write_text(" ".join(loaded))
"""


def test_two_xdist_workers_share_the_selection_and_the_controller_gives_the_verdict(
    pytester: pytest.Pytester,
) -> None:
    """Each worker launches its own engine; every result reaches the controller's verdict.

    The controller loads no corpus and imports no runner: the stale known-failure pattern and
    the counts of its verdict come from the workers.
    """
    pytester.makeconftest(_CONTROLLER_PROBE)
    known = pytester.makefile(".txt", known="zzz-*  # gone from the corpus\n")
    result = _run(
        pytester,
        "-n",
        "2",
        "--croupier-launch",
        MUTANT,
        "-k",
        "bja-h00",
        "--croupier-known-failures",
        str(known),
    )
    count = sum(1 for v in load_corpus() if fnmatch.fnmatch(v.vector.id, "bja-h00*"))
    outcomes = result.parseoutcomes()
    assert outcomes["failed"] >= 1
    assert outcomes["failed"] + outcomes["passed"] == count
    assert {line.split()[0] for line in result.outlines if line.startswith("[gw")} == {
        "[gw0]",
        "[gw1]",
    }
    verdict = (
        f"croupier run: NOT conformant: {count} vectors ({outcomes['passed']} pass, "
        f"{outcomes['failed']} fail), 1 known-failure pattern matched nothing in *"
    )
    result.stdout.fnmatch_lines(
        ["*known failure pattern 'zzz-*' (line 1) matches no vector*", verdict]
    )
    assert (pytester.path / "controller-modules.txt").read_text(encoding="utf-8") == ""


def test_target_and_launch_together_are_a_usage_error(pytester: pytest.Pytester) -> None:
    """One engine a run: both options are refused before anything is loaded or launched."""
    result = _run(pytester, "--croupier-target", "127.0.0.1:1", "--croupier-launch", DEMO)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--croupier-target or --croupier-launch, not both*"])


# --- TLS ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A CA, its certificate for 127.0.0.1, and a client certificate."""
    directory = tmp_path_factory.mktemp("pki")
    authority = trustme.CA()
    files = {
        name: directory / name
        for name in ("ca.pem", "server.pem", "server.key", "client.pem", "client.key")
    }
    authority.cert_pem.write_to_path(str(files["ca.pem"]))
    for host, stem in (("127.0.0.1", "server"), ("client", "client")):
        issued = authority.issue_cert(host)
        for blob in issued.cert_chain_pems:
            blob.write_to_path(str(files[f"{stem}.pem"]), append=True)
        issued.private_key_pem.write_to_path(str(files[f"{stem}.key"]))
    return files


def test_an_engine_serving_mutual_tls_is_reached_with_the_tls_options(
    pytester: pytest.Pytester, pki: dict[str, Path]
) -> None:
    """The server wants TLS and a client certificate signed by its CA: the three options give both."""
    serve = [
        "serve", "--port", "0", "--grace", "0", "--tls-cert", pki["server.pem"],
        "--tls-key", pki["server.key"], "--tls-client-ca", pki["ca.pem"],
    ]  # fmt: skip
    engine = start_engine([*CROUPIER, *map(str, serve)])
    try:
        tls = [
            "--croupier-tls-ca", pki["ca.pem"], "--croupier-tls-cert", pki["client.pem"],
            "--croupier-tls-key", pki["client.key"],
        ]  # fmt: skip
        reached = _run(
            pytester,
            "--croupier-target",
            engine.address,
            *map(str, tls),
            "-k",
            "bja-h001 or bja-h002",
        )
    finally:
        engine.stop()
    reached.assert_outcomes(passed=2)
    reached.stdout.fnmatch_lines(["*croupier::bja-h001 PASSED*", "*croupier::bja-h002 PASSED*"])


@pytest.mark.parametrize(
    ("files", "says"),
    [
        (
            ("--croupier-tls-cert", "client.pem", "--croupier-tls-key", "client.key"),
            "*--croupier-tls-cert and --croupier-tls-key are a client*give --croupier-tls-ca too*",
        ),
        (
            ("--croupier-tls-ca", "ca.pem", "--croupier-tls-cert", "client.pem"),
            "*--croupier-tls-cert and --croupier-tls-key go together*",
        ),
        (("--croupier-tls-ca", "missing.pem"), "*--croupier-tls-ca: no file *missing.pem*"),
    ],
    ids=["cert-without-ca", "cert-without-key", "missing-ca"],
)
def test_tls_options_are_checked_as_certify_checks_them(
    pytester: pytest.Pytester, pki: dict[str, Path], files: tuple[str, ...], says: str
) -> None:
    """A bad combination is a usage error before any engine is launched or reached."""
    args = [str(pki[f]) if f in pki else f for f in files]
    result = _run(pytester, "--croupier-target", "127.0.0.1:1", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([says])


# --- known failures ----------------------------------------------------------------------------


def test_known_failures_are_xfails_and_a_listed_vector_that_passes_fails(
    pytester: pytest.Pytester,
) -> None:
    """Against the 6:5 mutant bja-h001 fails (listed: xfail) and bja-h002 passes (listed: failure)."""
    known = pytester.makefile(
        ".txt",
        known="# the 6:5 tables\nbja-h001  # pays 6:5 until release 2.0\nbja-h002  # listed by mistake\n",
    )
    result = _run(
        pytester,
        "--croupier-launch",
        MUTANT,
        "--croupier-known-failures",
        str(known),
        "-k",
        "bja-h001 or bja-h002",
    )
    result.assert_outcomes(xfailed=1, failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "*croupier::bja-h001 XFAIL*pays 6:5 until release 2.0*",
            "*UNEXPECTED_PASS bja-h002*",
            "*listed as a known failure (listed by mistake) but passed*",
        ]
    )


def test_a_known_failure_pattern_that_matches_no_vector_fails_the_run(
    pytester: pytest.Pytester,
) -> None:
    """Stale patterns are matched against the whole corpus, not the -k selection, as in certify."""
    known = pytester.makefile(
        ".txt", known="bja-h001  # deselected, still a vector\nzzz-*  # gone from the corpus\n"
    )
    # Nothing is selected: no engine is reached, and the run fails only for the stale pattern.
    result = _run(
        pytester,
        "--croupier-target",
        "127.0.0.1:1",
        "--croupier-known-failures",
        str(known),
        "-k",
        "no-such-vector",
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*known failure pattern 'zzz-*' (line 2) matches no vector*"])
    assert "'bja-h001'" not in result.stdout.str()


def test_a_malformed_known_failures_file_is_a_usage_error(pytester: pytest.Pytester) -> None:
    """A line without its reason is refused with certify's message, before anything runs."""
    known = pytester.makefile(".txt", known="bja-h001\n")
    result = _run(
        pytester, "--croupier-target", "127.0.0.1:1", "--croupier-known-failures", str(known)
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*known.txt:1: a known failure needs a reason after '#'*"])


@pytest.mark.parametrize("seconds", ["0", "-1", "nan"])
def test_a_timeout_certify_would_refuse_is_a_usage_error(
    pytester: pytest.Pytester, seconds: str
) -> None:
    """The same floor as certify's --timeout, before any engine is reached."""
    result = _run(pytester, "--croupier-target", "127.0.0.1:1", "--croupier-timeout", seconds)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--croupier-timeout: * s is under 0.01 s*"])


def test_the_whole_corpus_for_the_profiles_claimed_says_conformant(
    pytester: pytest.Pytester,
) -> None:
    """No -k, -m or -x: every vector of the one profile the engine claims is played."""
    claimed = "roulette-c"
    # A vector that also deals under other profiles (other_profile_ids) is not applicable to
    # an engine claiming this profile alone.
    count = sum(
        1
        for v in load_corpus()
        if v.vector.profile_id == claimed and not v.vector.other_profile_ids
    )
    junit = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-q", "--croupier-launch", command("--claim", claimed),
        f"--junitxml={junit}",
    )  # fmt: skip
    outcomes = result.parseoutcomes()
    assert outcomes["passed"] == count, outcomes
    assert "failed" not in outcomes
    result.stdout.fnmatch_lines(
        [f"croupier run: conformant: * vectors ({count} pass, * not applicable) in *"]
    )
    xml = junit.read_text(encoding="utf-8")
    assert '<property name="croupier.conformant" value="true" />' in xml
