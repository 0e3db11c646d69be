"""The conformance runner end to end: the reference server, rule-breaking and misbehaving engines.

Engines run as real processes: ``croupier serve`` (the reference) and the small engines of
``tests/conformance/engines.py`` (a shipped profile id served with a changed rule, or an engine
that crashes, hangs or answers garbage on one round). Vectors are built into a temporary
directory from a seeded campaign per profile plus a few hand-made cases, so these tests do not
depend on the shipped corpus; one slow test runs the whole shipped corpus against the reference.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
import trustme
from click.testing import CliRunner
from click.testing import Result as CliResult

from croupier.conformance.cli import main
from croupier.conformance.runner import (
    EngineUnavailableError,
    KnownFailure,
    VectorOutcome,
)
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import (
    LoadedVector,
    corpus_hash,
    load_corpus,
    read_vectors,
)
from tests.conformance.engines import command
from tests.conformance.support import (
    BANKER,
    CASES,
    CROUPIER,
    DOZEN,
    HISTORY,
    NATURAL,
    PROFILES,
    REPO,
    SOFT_17,
    TARGETED,
    VICTIM,
    Vectors,
    assert_only_victim,
    by_id,
    certify,
    free_port,
    read_report,
    run_api,
    start_engine,
    summary,
    victim_round,
)

# --- 1. the reference server passes everything ----------------------------------------------


def test_every_vector_passes_against_the_reference_server(
    reference: str, vectors: Vectors, tmp_path: Path
) -> None:
    loaded = vectors.load()
    assert len(loaded) > 150
    report = run_api(loaded, target=reference)
    assert report.describe.name == "croupier-oracle"
    assert set(PROFILES) <= set(report.describe.profile_ids)
    bad = [r for r in report.results if r.outcome is not VectorOutcome.PASS]
    assert not bad, bad[:3]
    assert len(report.results) == len(loaded)
    # These vectors are not the shipped corpus: everything passed, but nothing is certified.
    assert report.passed
    assert not report.conformant
    assert report.restarts == 0

    result = certify(
        "--target", reference, "--vectors", vectors.directory, "--report", tmp_path / "r.jsonl"
    )
    assert result.exit_code == 0, result.output
    _, lines, trailer = read_report(tmp_path / "r.jsonl")
    assert len(lines) == len(loaded)
    assert {line["outcome"] for line in lines.values()} == {"PASS"}
    assert trailer["counts"]["PASS"] == len(loaded)
    n = len(loaded)
    assert summary(result.output)[:3] == ("run", f"passed {n} of the {n} vectors selected", n)
    assert "conformant" not in result.output.lower()


def test_certify_mode_against_the_reference_server_exits_0(
    reference: str, vectors: Vectors
) -> None:
    result = certify("--target", reference, "--vectors", vectors.targeted, "--certify")
    assert result.exit_code == 0, result.output
    n = len(CASES)
    assert summary(result.output) == (
        "certify",
        f"passed {n} of the {n} vectors selected",
        n,
        {"PASS": n},
    )


# --- 2. rule-breaking engines fail with the rule's clause -------------------------------------


@dataclass(frozen=True)
class Broken:
    """An engine serving a shipped profile with one rule changed, and how it must fail."""

    setting: str
    vector: str
    clause: str
    step: str
    path: str
    expected: str
    actual: str


BROKEN = (
    Broken(
        'blackjack-c.blackjack_pays="1:1"',
        NATURAL.id,
        "BJ.nat-pays",
        "round 0 settle",
        "settlement.lines[0].returned.minor_units",
        "250",
        "200",
    ),
    Broken(
        "blackjack-c.dealer_hits_soft_17=true",
        SOFT_17.id,
        "C.bj.dealer-draw",
        "round 0 decision 0 (DECISION_KIND_STAND)",
        # The dealer stops on soft 17 (6D AS): a third card where the rules have none.
        "state.blackjack.dealer.cards[2]",
        "(none)",
        "2C",
    ),
    Broken(
        'baccarat-c.banker_commission="0.10"',
        BANKER.id,
        "BAC.pay-banker",
        "round 0 settle",
        "settlement.lines[0].returned.minor_units",
        "195",
        "190",
    ),
    Broken(
        'roulette-c.dozen_pays="1:1"',
        DOZEN.id,
        "C.rou.wheel",
        "round 0 settle",
        "settlement.lines[0].returned.minor_units",
        "30",
        "20",
    ),
    Broken(
        "roulette-c.history_length=12",
        HISTORY.id,
        "C.rou.history",
        # The 13th spin is the first whose board a 12-number history cuts short.
        "round 12 deal",
        # The board's oldest result, 0, is the one a 12-number history drops.
        "state.roulette.history[0]",
        "0",
        "1",
    ),
)


def reproduce(command: str, report: Path, *, code: int, **env: str) -> dict[str, dict[str, Any]]:
    """A printed reproduction command, run as printed from the project root (the shell finds
    what it names) with ``--report`` added; it must exit ``code``. Its report's lines by id."""
    again = subprocess.run(  # noqa: S602 - the command under test is a shell line
        f"{command} --report {shlex.quote(str(report))}",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        check=False,
        env={**os.environ, **env},
    )
    assert again.returncode == code, again.stdout + again.stderr
    return read_report(report)[1]


@pytest.mark.parametrize("broken", BROKEN, ids=lambda b: b.setting)
def test_a_broken_rule_fails_its_vector_with_its_clause(
    broken: Broken, vectors: Vectors, tmp_path: Path
) -> None:
    launch = command("--set", broken.setting)
    report_path = tmp_path / "report.jsonl"
    result = certify(
        "--launch", launch, "--vectors", vectors.targeted, "--report", report_path, "--show", "5"
    )
    assert result.exit_code == 1, result.output
    _, lines, _ = read_report(report_path)
    failed = lines[broken.vector]
    assert failed["outcome"] == "FAIL"
    assert failed["clause"] == broken.clause
    assert failed["step"] == broken.step
    assert failed["path"] == broken.path
    assert failed["expected"] == broken.expected
    assert failed["actual"] == broken.actual
    assert broken.expected in failed["message"]
    # Only the vector of the broken rule fails; the other hand-made vectors pass.
    others = {vid: line["outcome"] for vid, line in lines.items() if vid != broken.vector}
    assert set(others.values()) == {"PASS"}, others
    # The failure is shown in detail, with the clause and the reproduction command.
    assert f"FAIL {broken.vector}" in result.output
    assert broken.clause in result.output

    # The reproduction command re-runs just that vector, and it fails the same way.
    # Printed for a run not started as ``croupier``, it names this interpreter and module.
    argv = shlex.split(failed["reproduce"])
    assert argv[1:4] == ["-m", "croupier.conformance.cli", "certify"]
    assert argv[-2:] == ["--vector", broken.vector]
    again_lines = reproduce(failed["reproduce"], tmp_path / "again.jsonl", code=1, COLUMNS="400")
    assert list(again_lines) == [broken.vector]
    rerun = again_lines[broken.vector]
    for key in ("outcome", "clause", "step", "path", "expected", "actual"):
        assert rerun[key] == failed[key], key


def test_the_reproduction_command_keeps_tls_and_the_deadline(
    vectors: Vectors, tmp_path: Path
) -> None:
    authority = trustme.CA()
    issued = authority.issue_cert("127.0.0.1")
    cert, key, ca = tmp_path / "server.pem", tmp_path / "server.key", tmp_path / "ca.pem"
    for blob in issued.cert_chain_pems:
        blob.write_to_path(str(cert), append=True)
    issued.private_key_pem.write_to_path(str(key))
    authority.cert_pem.write_to_path(str(ca))
    serve = ["serve", "--port", "0", "--grace", "0", "--tls-cert", str(cert), "--tls-key", str(key)]
    engine = start_engine([*CROUPIER, *serve])
    try:
        report_path = tmp_path / "r.jsonl"
        result = certify(
            "--target", engine.address, "--tls-ca", ca, "--timeout", "7.5",
            "--vectors", vectors.targeted, "--report", report_path,
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        _, lines, _ = read_report(report_path)
        argv = shlex.split(lines[BANKER.id]["reproduce"])
        assert argv[argv.index("--tls-ca") + 1] == str(ca)
        assert argv[argv.index("--timeout") + 1] == "7.5"
        again_lines = reproduce(lines[BANKER.id]["reproduce"], tmp_path / "again.jsonl", code=0)
        assert {vid: line["outcome"] for vid, line in again_lines.items()} == {BANKER.id: "PASS"}
    finally:
        engine.stop()


# --- 3. crashes, hangs, garbage ------------------------------------------------------------------


@pytest.mark.parametrize("same_port", [False, True], ids=["new-port", "same-port"])
def test_an_engine_that_crashes_is_restarted_and_the_run_goes_on(
    vectors: Vectors, same_port: bool
) -> None:
    loaded = vectors.load(vectors.campaign("blackjack-c").name)
    assert loaded[-1].vector.id > VICTIM  # vectors after the crash must pass
    # An engine on a fixed port comes back at the same address after its restart.
    port = ("--port", str(free_port())) if same_port else ()
    launch = command("--crash-on", victim_round(), *port)
    report = run_api(loaded, launch=launch, concurrency=1)
    assert_only_victim(report, VectorOutcome.CRASH)
    assert report.restarts == 1


def test_a_crash_with_many_vectors_in_flight_is_recorded_and_survived(vectors: Vectors) -> None:
    loaded = vectors.load(vectors.campaign("blackjack-c").name)
    launch = command("--crash-on", victim_round())
    report = run_api(loaded, launch=launch, concurrency=8)
    results = by_id(report.results)
    # Vectors in flight when the engine died may crash with it; none is judged otherwise.
    assert results[VICTIM].outcome is VectorOutcome.CRASH
    assert {r.outcome for r in report.results} <= {VectorOutcome.PASS, VectorOutcome.CRASH}
    assert report.restarts >= 1
    assert report.count(VectorOutcome.PASS) >= len(loaded) - 8


def test_a_call_past_its_deadline_is_a_timeout_and_the_rest_pass(vectors: Vectors) -> None:
    loaded = vectors.load(vectors.campaign("blackjack-c").name)
    launch = command("--hang-on", victim_round(), "--hang-seconds", "30")
    report = run_api(loaded, launch=launch, timeout=2.0)
    victim = assert_only_victim(report, VectorOutcome.TIMEOUT)
    assert victim.message == "no answer within 2 s"
    # The engine still answered everything else: no reason to restart it.
    assert report.restarts == 0


def test_a_hung_engine_times_out_and_is_restarted(vectors: Vectors) -> None:
    loaded = vectors.load(vectors.campaign("blackjack-c").name)
    launch = command("--block-on", victim_round(), "--hang-seconds", "60")
    report = run_api(loaded, launch=launch, timeout=2.0, concurrency=1)
    assert_only_victim(report, VectorOutcome.TIMEOUT)
    assert report.restarts == 1


def test_a_garbage_answer_is_an_error_and_the_rest_pass(vectors: Vectors) -> None:
    loaded = vectors.load(vectors.campaign("blackjack-c").name)
    launch = command("--garbage-on", victim_round())
    report = run_api(loaded, launch=launch)
    victim = assert_only_victim(report, VectorOutcome.ERROR)
    assert "garbage" in victim.message
    assert report.restarts == 0


def test_an_engine_that_exits_before_it_is_ready_is_unavailable(vectors: Vectors) -> None:
    launch = command("--exit-before-ready", "4")
    with pytest.raises(EngineUnavailableError, match="exited with code 4 before it was ready"):
        run_api(vectors.load(TARGETED), launch=launch)
    result = certify("--launch", launch, "--vectors", vectors.targeted)
    assert result.exit_code == 3, result.output
    assert "before it was ready" in result.output


def test_an_unreachable_target_exits_3(vectors: Vectors) -> None:
    address = f"127.0.0.1:{free_port()}"
    result = certify("--target", address, "--vectors", vectors.targeted, "--timeout", "0.5")
    assert result.exit_code == 3, result.output
    assert f"nothing answers at {address}" in " ".join(result.output.split())


def test_a_launch_command_that_does_not_exist_exits_3(vectors: Vectors, tmp_path: Path) -> None:
    missing = tmp_path / "no-such-engine"
    result = certify("--launch", str(missing), "--vectors", vectors.targeted)
    assert result.exit_code == 3, result.output
    assert "cannot start" in result.output


# --- 4. outcomes and modes -----------------------------------------------------------------------


def test_profiles_the_engine_does_not_claim_are_not_applicable(vectors: Vectors) -> None:
    loaded = vectors.load(
        vectors.campaign("blackjack-a").name, vectors.campaign("blackjack-c").name, TARGETED
    )
    claimed = [v for v in loaded if v.vector.profile_id == "blackjack-a"]
    launch = command("--claim", "blackjack-a")
    report = run_api(loaded, launch=launch)
    assert list(report.describe.profile_ids) == ["blackjack-a"]
    for result in report.results:
        if result.profile_id == "blackjack-a":
            assert result.outcome is VectorOutcome.PASS, result
        else:
            assert result.outcome is VectorOutcome.NOT_APPLICABLE, result
            assert result.profile_id in result.message
    assert report.count(VectorOutcome.PASS) == len(claimed) > 0
    assert report.passed

    # An engine that claims nothing the vectors need is not certified on nothing.
    only_c = vectors.load(vectors.campaign("blackjack-c").name)
    nothing = run_api(only_c, launch=launch, certify=True)
    assert nothing.count(VectorOutcome.NOT_APPLICABLE) == len(only_c)
    assert not nothing.conformant


def write_known(path: Path, *lines: str) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


#: A run with a known-failures file: its output, its report's lines by vector id, its trailer.
KnownRun = tuple[CliResult, dict[str, dict[str, Any]], dict[str, Any]]


@pytest.fixture
def certify_known(pays_even: str, vectors: Vectors, tmp_path: Path) -> Callable[..., KnownRun]:
    """Certify the pays-even engine on the targeted vectors with these known-failure lines.

    The run must exit ``code``.
    """

    def run(*known: str, code: int) -> KnownRun:
        report_path = tmp_path / "r.jsonl"
        result = certify(
            "--target", pays_even, "--vectors", vectors.targeted,
            "--known-failures", write_known(tmp_path / "known.txt", *known),
            "--report", report_path,
        )  # fmt: skip
        assert result.exit_code == code, result.output
        _, lines, trailer = read_report(report_path)
        return result, lines, trailer

    return run


def test_a_listed_failure_is_waived_and_the_run_passes_but_is_not_conformant(
    certify_known: Callable[..., KnownRun],
) -> None:
    result, lines, trailer = certify_known(
        "# Blackjack pays even money on this table until release 2.",
        "",
        f"{NATURAL.id}  # pays blackjack 1:1 (ticket 42)",
        code=0,
    )
    assert lines[NATURAL.id]["outcome"] == "EXPECTED_FAIL"
    assert lines[NATURAL.id]["known_failure"] == "pays blackjack 1:1 (ticket 42)"
    assert lines[NATURAL.id]["clause"] == "BJ.nat-pays"
    mode, verdict, _, counts = summary(result.output)
    # Waiving a failure passes the run, and the verdict says so: never "conformant".
    n = len(CASES)
    assert (mode, verdict) == (
        "run",
        f"passed {n - 1} of the {n} vectors selected, 1 known failure waived",
    )
    assert counts == {"PASS": len(CASES) - 1, "EXPECTED_FAIL": 1}
    assert (trailer["passed"], trailer["conformant"], trailer["waived"]) == (True, False, 1)


def test_a_clause_entry_waives_the_failure_on_its_clause_and_is_never_stale(
    certify_known: Callable[..., KnownRun], pays_even: str, vectors: Vectors, tmp_path: Path
) -> None:
    # No vector listed: the entry names the clause and field a failure diverges on; one on a
    # clause nothing fails on matches nothing and fails nothing (it names no vector).
    _, lines, trailer = certify_known(
        "clause:BJ.nat-pays@settlement.lines  # pays blackjack 1:1 (ticket 42)",
        "clause:C.bj.insurance  # kept for explore",
        code=0,
    )
    assert lines[NATURAL.id]["outcome"] == "EXPECTED_FAIL"
    assert lines[NATURAL.id]["known_failure"] == "pays blackjack 1:1 (ticket 42)"
    assert lines[NATURAL.id]["path"].startswith("settlement.lines[0].")
    assert {line["outcome"] for line in lines.values()} == {"PASS", "EXPECTED_FAIL"}
    assert trailer["unmatched_known_failures"] == []
    # Under another path, it waives nothing.
    elsewhere = write_known(tmp_path / "other.txt", "clause:BJ.nat-pays@state  # wrong field")
    assert certify("--target", pays_even, "--vectors", vectors.targeted,
                   "--known-failures", elsewhere).exit_code == 1  # fmt: skip


def test_known_failure_patterns_match_names_by_glob(pays_even: str, vectors: Vectors) -> None:
    known = (KnownFailure(pattern="blackjack-c/runner/natural-*", reason="even money", line=1),)
    report = run_api(vectors.load(TARGETED), target=pays_even, known=known)
    assert by_id(report.results)[NATURAL.id].outcome is VectorOutcome.EXPECTED_FAIL
    assert report.passed
    assert not report.conformant


def test_a_listed_vector_that_passes_fails_the_run(certify_known: Callable[..., KnownRun]) -> None:
    result, lines, _ = certify_known(
        f"{NATURAL.id}  # pays 1:1",
        f"{SOFT_17.id}  # fixed long ago, never unlisted",
        code=1,
    )
    assert lines[SOFT_17.id]["outcome"] == "UNEXPECTED_PASS"
    assert lines[NATURAL.id]["outcome"] == "EXPECTED_FAIL"
    assert f"UNEXPECTED_PASS {SOFT_17.id}" in result.output
    assert summary(result.output)[1] == "NOT conformant"


def test_a_pattern_matching_nothing_fails_the_run(certify_known: Callable[..., KnownRun]) -> None:
    result, lines, trailer = certify_known(
        f"{NATURAL.id}  # pays 1:1",
        "blackjack-c/removed-*  # vectors since deleted",
        code=1,
    )
    assert "'blackjack-c/removed-*' (line 2) matches no vector" in result.output
    assert "1 known-failure pattern matched nothing" in result.output
    assert {line["outcome"] for line in lines.values()} == {"PASS", "EXPECTED_FAIL"}
    assert trailer["unmatched_known_failures"] == [{"pattern": "blackjack-c/removed-*", "line": 2}]


@pytest.mark.parametrize(
    "line",
    [NATURAL.id, f"{NATURAL.id}  #   ", "two patterns  # reason"],
    ids=["no-reason", "blank-reason", "two-patterns"],
)
def test_a_malformed_known_failures_file_exits_2(
    line: str, vectors: Vectors, tmp_path: Path
) -> None:
    known = write_known(tmp_path / "known.txt", f"{SOFT_17.id}  # fine", line)
    # The file is read before any engine is contacted: no engine needed.
    target = f"127.0.0.1:{free_port()}"
    result = certify("--target", target, "--vectors", vectors.targeted, "--known-failures", known)
    assert result.exit_code == 2, result.output
    assert "known.txt:2:" in result.output


def test_a_known_failures_file_that_is_not_utf8_exits_2(vectors: Vectors, tmp_path: Path) -> None:
    known = tmp_path / "known.txt"
    known.write_bytes(b"bja-*  # caf\xe9\n")
    result = certify(
        "--target",
        f"127.0.0.1:{free_port()}",
        "--vectors",
        vectors.targeted,
        "--known-failures",
        known,
    )
    assert result.exit_code == 2, result.output
    assert "known.txt: not UTF-8 text" in " ".join(result.output.split())


def test_certify_does_not_even_read_the_known_failures_file(
    pays_even: str, vectors: Vectors, tmp_path: Path
) -> None:
    # A malformed file would exit 2 in a normal run; certify ignores it, so the run goes on.
    known = write_known(tmp_path / "known.txt", "two patterns  # reason")
    result = certify(
        "--target", pays_even, "--vectors", vectors.targeted, "--known-failures", known, "--certify"
    )
    assert result.exit_code == 1, result.output
    assert summary(result.output)[:2] == ("certify", "NOT conformant")


def test_certify_ignores_known_failures_and_filters(
    pays_even: str, vectors: Vectors, tmp_path: Path
) -> None:
    known = write_known(tmp_path / "known.txt", f"{NATURAL.id}  # pays 1:1")
    common = ("--target", pays_even, "--vectors", vectors.targeted, "--known-failures", known)
    filters = ("--profile", "roulette-c", "--vector", "t-rou-*")

    # A filtered run: the listed vector is filtered out, which does not make its line stale.
    filtered = certify(*common, *filters, "--report", tmp_path / "run.jsonl")
    assert filtered.exit_code == 0, filtered.output
    _, run_lines, _ = read_report(tmp_path / "run.jsonl")
    assert set(run_lines) == {DOZEN.id, HISTORY.id}

    certified = certify(*common, *filters, "--certify", "--report", tmp_path / "cert.jsonl")
    assert certified.exit_code == 1, certified.output
    header, lines, trailer = read_report(tmp_path / "cert.jsonl")
    assert header["certify"] is True
    assert trailer["conformant"] is False
    assert set(lines) == {c.id for c in CASES}
    assert lines[NATURAL.id]["outcome"] == "FAIL"
    assert "known_failure" not in lines[NATURAL.id]
    assert summary(certified.output)[:2] == ("certify", "NOT conformant")


def test_certify_is_withheld_only_by_required_vectors(pays_even: str, vectors: Vectors) -> None:
    loaded = vectors.load(TARGETED, vectors.campaign("baccarat-c").name)
    natural = next(v for v in loaded if v.vector.id == NATURAL.id)
    recommended = vector_pb2.Vector()
    recommended.CopyFrom(natural.vector)
    recommended.level = vector_pb2.LEVEL_RECOMMENDED
    relaxed = [
        LoadedVector(vector=recommended, path=v.path, line=v.line) if v is natural else v
        for v in loaded
    ]

    required = run_api(loaded, target=pays_even, certify=True)
    assert by_id(required.results)[NATURAL.id].outcome is VectorOutcome.FAIL
    assert not required.conformant

    report = run_api(relaxed, target=pays_even, certify=True)
    failed = by_id(report.results)[NATURAL.id]
    assert failed.outcome is VectorOutcome.FAIL
    assert failed.level == "LEVEL_RECOMMENDED"
    assert report.passed
    # Outside certification every failure counts.
    assert not run_api(relaxed, target=pays_even).passed


def test_the_vector_filter_selects_by_id_and_name_glob(
    reference: str, vectors: Vectors, tmp_path: Path
) -> None:
    def selected(name: str, *options: str) -> set[str]:
        """The ids of the vectors a run with these options played (and passed)."""
        report = tmp_path / f"{name}.jsonl"
        result = certify(
            "--target", reference, "--vectors", vectors.directory, *options, "--report", report
        )
        assert result.exit_code == 0, result.output
        return set(read_report(report)[1])

    assert selected("ids", "--vector", "baccarat-d-t-000*", "--vector", "t-rou-*") == {
        f"baccarat-d-t-000{k}" for k in range(10)
    } | {DOZEN.id, HISTORY.id}
    by_name = ("--vector", "blackjack-c/runner/*", "--profile", "blackjack-c")
    assert selected("names", *by_name) == {NATURAL.id, SOFT_17.id}

    nothing = certify("--target", reference, "--vectors", vectors.targeted, "--vector", "zzz*")
    assert nothing.exit_code == 2, nothing.output
    assert "no vector matches" in nothing.output


def test_concurrency_does_not_change_the_results(pays_even: str, vectors: Vectors) -> None:
    loaded = vectors.load(
        TARGETED, vectors.campaign("blackjack-c").name, vectors.campaign("roulette-c").name
    )

    def verdicts(concurrency: int) -> dict[str, tuple[str, ...]]:
        report = run_api(loaded, target=pays_even, concurrency=concurrency)
        return {
            r.vector_id: (r.outcome.value, r.step, r.clause, r.path, r.expected, r.actual)
            for r in report.results
        }

    one = verdicts(1)
    many = verdicts(32)
    assert one == many
    # Not vacuous: both outcomes occur.
    assert {v[0] for v in one.values()} == {"PASS", "FAIL"}


# --- 5. reports ------------------------------------------------------------------------------------


def test_reports_jsonl_junit_and_summary_agree(
    pays_even: str, vectors: Vectors, tmp_path: Path
) -> None:
    copy = tmp_path / "vectors"
    copy.mkdir()
    for name in (
        TARGETED,
        vectors.campaign("blackjack-c").name,
        vectors.campaign("baccarat-b").name,
    ):
        (copy / name).write_bytes(vectors.file(name).read_bytes())
    loaded = load_corpus(copy)
    report_path, junit_path = tmp_path / "r.jsonl", tmp_path / "r.xml"
    result = certify(
        "--target", pays_even, "--vectors", copy, "--report", report_path, "--junit", junit_path
    )
    assert result.exit_code == 1, result.output

    header, lines, trailer = read_report(report_path)
    assert header["suite_version"]
    assert header["corpus_hash"] == corpus_hash(copy)
    assert header["engine"]["name"] == "croupier-oracle"
    assert "blackjack-c" in header["engine"]["profileIds"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d.*\+00:00", header["time"])
    assert trailer["conformant"] is False
    assert trailer["complete"] is True
    assert len(report_path.read_text().splitlines()) == len(loaded) + 2
    assert set(lines) == {v.vector.id for v in loaded}
    counts = Counter(line["outcome"] for line in lines.values())
    assert counts["FAIL"] >= 1
    assert lines[NATURAL.id]["outcome"] == "FAIL"
    assert {k: v for k, v in trailer["counts"].items() if v} == dict(counts)

    mode, verdict, total, summary_counts = summary(result.output)
    assert (mode, verdict, total) == ("run", "NOT conformant", len(loaded))
    assert summary_counts == dict(counts)
    assert trailer["summary"].startswith(f"run: NOT conformant: {len(loaded)} vectors")

    root = ET.parse(junit_path).getroot()  # noqa: S314 - our own report
    assert root.tag == "testsuites"
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == len(loaded)
    assert {s.get("name") for s in root.findall("testsuite")} == {
        "blackjack-c",
        "baccarat-b",
        "baccarat-c",
        "roulette-c",
    }
    failures = [c for c in cases if c.find("failure") is not None]
    assert len(failures) == counts["FAIL"]
    natural = next(c for c in cases if c.get("name", "").startswith(f"{NATURAL.id} "))
    failure = natural.find("failure")
    assert failure is not None
    assert failure.get("type") == "FAIL"
    assert "BJ.nat-pays" in (failure.text or "")
    assert f"certify --target {pays_even} " in (failure.text or "")
    for suite in root.findall("testsuite"):
        assert int(suite.get("tests", "-1")) == len(suite.findall("testcase"))
        assert int(suite.get("failures", "-1")) == len(suite.findall("testcase/failure"))
    # The root has the totals, and wall-clock times: no suite outlasts the run.
    assert root.get("tests") == str(len(loaded))
    assert root.get("failures") == str(counts["FAIL"])
    assert root.get("errors") == root.get("skipped") == "0"
    run_seconds = float(root.get("time", "nan"))
    assert run_seconds > 0
    for suite in root.findall("testsuite"):
        assert float(suite.get("time", "nan")) <= run_seconds
        assert suite.get("timestamp", "").startswith(header["time"][:10])


def test_junit_reports_a_bad_answer_as_an_error(vectors: Vectors, tmp_path: Path) -> None:
    launch = command("--garbage-on", NATURAL.id)
    junit_path = tmp_path / "r.xml"
    result = certify("--launch", launch, "--vectors", vectors.targeted, "--junit", junit_path)
    assert result.exit_code == 1, result.output
    root = ET.parse(junit_path).getroot()  # noqa: S314 - our own report
    errors = root.findall("./testsuite/testcase/error")
    assert [e.get("type") for e in errors] == ["ERROR"]
    assert summary(result.output)[3] == {"PASS": len(CASES) - 1, "ERROR": 1}


# --- 6. croupier vectors build / check ----------------------------------------------------------


def build(*args: str | Path) -> CliResult:
    return CliRunner().invoke(main, ["vectors", "build", *(str(a) for a in args)])


def test_vectors_build_is_deterministic(tmp_path: Path) -> None:
    first, second, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    for path, seed in ((first, "s"), (second, "s"), (other, "t")):
        result = build("--profile", "blackjack-a", "--seed", seed, "--count", "5", "--out", path)
        assert result.exit_code == 0, result.output
    assert len(first.read_text().splitlines()) == 5
    built = [v.vector for v in read_vectors(first)]
    assert [v.id for v in built] == [f"blackjack-a-{k:04d}" for k in range(5)]
    assert {v.profile_id for v in built} == {"blackjack-a"}
    assert all(v.rounds[0].HasField("expected_settle") or v.rounds[0].expected_error for v in built)
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != other.read_bytes()

    to_stdout = build("--profile", "blackjack-a", "--seed", "s", "--count", "5")
    assert to_stdout.exit_code == 0
    assert to_stdout.stdout == first.read_text()


def check(directory: Path) -> CliResult:
    return CliRunner().invoke(
        main, ["vectors", "check", "--dir", str(directory)], env={"COLUMNS": "400"}
    )


def test_vectors_check_finds_a_tampered_vector(vectors: Vectors, tmp_path: Path) -> None:
    copy = tmp_path / "corpus"
    copy.mkdir()
    for path in vectors.directory.glob("*.jsonl"):
        (copy / path.name).write_bytes(path.read_bytes())
    clean = check(copy)
    # A small corpus leaves clauses uncovered, but every vector it holds reproduces.
    vector_problems = [line for line in clean.output.splitlines() if ".jsonl:" in line]
    assert not vector_problems, clean.output

    target = copy / TARGETED
    lines = target.read_text().splitlines()
    tampered = json.loads(lines[0])
    settle = tampered["rounds"][0]["expectedSettle"]["settlement"]["lines"][0]
    settle["returned"]["minorUnits"] = "200"  # 3:2 rewritten as even money
    lines[0] = json.dumps(tampered, separators=(",", ":"))
    lines.append(lines[1])  # and a duplicate id
    target.write_text("\n".join(lines) + "\n")

    result = check(copy)
    assert result.exit_code == 1, result.output
    assert f"{TARGETED}:1 ({NATURAL.id})" in result.output
    assert "no longer reproduces expectedSettle" in result.output
    assert f"duplicate id '{SOFT_17.id}'" in result.output


# --- the shipped corpus ---------------------------------------------------------------------------


@pytest.mark.slow
def test_the_shipped_corpus_passes_against_the_reference_server(reference: str) -> None:
    loaded = load_corpus()
    assert loaded
    report = run_api(loaded, target=reference, concurrency=64, timeout=30.0, corpus=loaded)
    bad = [r for r in report.results if r.outcome is not VectorOutcome.PASS]
    assert not bad, [(r.vector_id, r.outcome.value, r.clause, r.message) for r in bad[:5]]
    assert report.whole
    assert report.conformant
