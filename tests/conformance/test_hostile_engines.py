"""The runner survives everything an engine can send, and says what went wrong.

Each test runs a real misbehaving engine (``tests/conformance/engines.py``) or a real server
with the wrong TLS set-up, and checks both the verdict and that the run ends as it should:
with the other vectors judged, a report written, the engine stopped, the right exit code.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
import trustme

from croupier.conformance.runner import VectorOutcome
from tests.conformance.engines import command
from tests.conformance.support import (
    CASES,
    CROUPIER,
    NATURAL,
    REPO,
    TARGETED,
    VICTIM,
    Engine,
    Vectors,
    assert_only_victim,
    certify,
    read_report,
    run_api,
    start_engine,
    summary,
    victim_round,
)

# --- status details --------------------------------------------------------------------------


@pytest.mark.parametrize("fault", ["--bad-details-on", "--mismatched-details-on"])
def test_status_details_that_do_not_decode_or_disagree_are_an_error_and_the_run_goes_on(
    fault: str, vectors: Vectors, tmp_path: Path
) -> None:
    loaded = vectors.load(vectors.campaign("blackjack-c").name)
    report = run_api(loaded, launch=command(fault, victim_round()))
    victim = assert_only_victim(report, VectorOutcome.ERROR)
    assert victim.clause == "CONTRACT.malformed"
    assert victim.path == "error.details"

    # Through the command: a verdict, a complete report, no traceback.
    report_path = tmp_path / "r.jsonl"
    result = certify(
        "--launch", command(fault, victim_round()),
        "--vectors", vectors.campaign("blackjack-c"), "--report", report_path,
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    _, lines, trailer = read_report(report_path)
    assert lines[VICTIM]["outcome"] == "ERROR"
    assert trailer["complete"] is True
    assert trailer["counts"]["PASS"] == len(loaded) - 1


# --- output ----------------------------------------------------------------------------------


def test_output_lines_of_any_length_neither_stop_the_runner_nor_block_the_engine(
    vectors: Vectors,
) -> None:
    # A 1 MiB line before the ready line, and one after every Deal: far past readline's
    # 64 KiB limit and a pipe's buffer, so the engine blocks unless its output is drained.
    loaded = vectors.load(vectors.campaign("blackjack-c").name, TARGETED)
    report = run_api(loaded, launch=command("--chatter", str(1 << 20)), timeout=20.0)
    assert {r.outcome for r in report.results} == {VectorOutcome.PASS}
    assert report.restarts == 0


# --- an engine that stops listening ------------------------------------------------------------


def test_a_launched_engine_that_stops_listening_ends_the_run_with_exit_3(
    vectors: Vectors, tmp_path: Path
) -> None:
    report_path = tmp_path / "r.jsonl"
    result = certify(
        "--launch", command("--stop-listening-after", "3"), "--vectors", vectors.directory,
        "--concurrency", "4", "--report", report_path,
    )  # fmt: skip
    assert result.exit_code == 3, result.output
    assert "stopped answering" in result.output
    # The run ended at once: the vectors in flight, not hundreds of CRASH results.
    _, lines, trailer = read_report(report_path)
    assert trailer["complete"] is False
    assert trailer["summary"].startswith("stopped: ")
    assert len(lines) < 20
    assert sum(line["outcome"] == "CRASH" for line in lines.values()) <= 4


def test_a_target_that_stops_listening_ends_the_run_with_exit_3(vectors: Vectors) -> None:
    engine = start_engine(shlex.split(command("--stop-listening-after", "3")))
    try:
        result = certify(
            "--target", engine.address, "--vectors", vectors.directory, "--concurrency", "4"
        )
        assert result.exit_code == 3, result.output
        assert f"the engine at {engine.address} stopped answering" in result.output
    finally:
        engine.stop()


# --- signals ---------------------------------------------------------------------------------


def _alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        return "zombie" not in status.read_text(encoding="utf-8")
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_the_engine_keeps_the_reports_and_exits_128_plus_it(
    signum: signal.Signals, vectors: Vectors, tmp_path: Path
) -> None:
    campaign = vectors.campaign("blackjack-c")
    total = len(vectors.load(campaign.name))
    pid_file = tmp_path / "engine.pid"
    launch = command(
        "--hang-on", victim_round(), "--hang-seconds", "600", "--pid-file", str(pid_file)
    )
    report_path, junit_path = tmp_path / "r.jsonl", tmp_path / "r.xml"
    process = subprocess.Popen(  # noqa: S603 - our own interpreter
        [
            *CROUPIER, "certify", "--launch", launch, "--vectors", str(campaign),
            "--timeout", "300", "--report", str(report_path), "--junit", str(junit_path),
            "--progress-every", "0.2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )  # fmt: skip
    try:
        # Every vector but the victim finishes, and is in the report at once (header + one
        # line each); the victim waits on the hung Deal.
        _wait_for(lambda: _lines(report_path) >= total, process)
        time.sleep(0.5)  # a progress line or two
        engine_pid = int(pid_file.read_text(encoding="utf-8"))
        assert _alive(engine_pid)
        process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 128 + signum, stdout + stderr
    assert "Traceback" not in stderr
    assert f"interrupted by {signum.name}: {total - 1} of {total} vectors finished" in stdout
    # A run cut short says nothing of conformance, anywhere.
    assert "conformant" not in stdout.lower()
    # The progress lines of a run without a terminal.
    assert stdout.count(f"/{total} vectors (") >= 2, stdout
    assert not _alive(engine_pid)

    header, lines, trailer = read_report(report_path)
    assert header["engine"]["name"] == "croupier-oracle"
    assert set(lines) == {v.vector.id for v in vectors.load(campaign.name)} - {VICTIM}
    assert trailer["complete"] is False
    assert trailer["summary"] == f"interrupted by {signum.name}"
    assert trailer["conformant"] is False
    assert trailer["counts"]["PASS"] == total - 1
    root = ET.parse(junit_path).getroot()  # noqa: S314 - our own report
    assert root.get("tests") == str(total - 1)
    properties = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert properties["croupier.conformant"] == "false"
    assert properties["croupier.summary"] == f"interrupted by {signum.name}"


def _lines(path: Path) -> int:
    try:
        return len(path.read_text(encoding="utf-8").splitlines())
    except FileNotFoundError:
        return 0


def _wait_for(condition: Any, process: subprocess.Popen[str], seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run did not get there"
        time.sleep(0.1)


# --- verdicts --------------------------------------------------------------------------------


def test_a_run_no_vector_applies_to_is_not_conformant(vectors: Vectors) -> None:
    launch = command("--claim", "blackjack-a")
    for mode in ((), ("--certify",)):
        result = certify("--launch", launch, "--vectors", vectors.campaign("blackjack-c"), *mode)
        assert result.exit_code == 1, result.output
        verdict = summary(result.output)[1]
        assert verdict == "NOT conformant (no vector applies to the engine)"


# --- TLS -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A CA and its server certificate, and a client certificate from another CA."""
    directory = tmp_path_factory.mktemp("pki")
    authority, stranger = trustme.CA(), trustme.CA()
    files = {
        name: directory / name
        for name in ("server.pem", "server.key", "ca.pem", "client.pem", "client.key", "other.pem")
    }
    server = authority.issue_cert("127.0.0.1")
    for blob in server.cert_chain_pems:
        blob.write_to_path(str(files["server.pem"]), append=True)
    server.private_key_pem.write_to_path(str(files["server.key"]))
    authority.cert_pem.write_to_path(str(files["ca.pem"]))
    client = stranger.issue_cert("client")
    for blob in client.cert_chain_pems:
        blob.write_to_path(str(files["client.pem"]), append=True)
    client.private_key_pem.write_to_path(str(files["client.key"]))
    stranger.cert_pem.write_to_path(str(files["other.pem"]))
    return files


def _serve(*tls: str | Path) -> Engine:
    serve = ["serve", "--port", "0", "--grace", "0", *(str(t) for t in tls)]
    return start_engine([*CROUPIER, *serve])


@pytest.mark.parametrize(
    ("server", "client", "says"),
    [
        ("plain", ("--tls-ca", "ca.pem"), "TLS handshake with {address} failed"),
        ("tls", (), "{address} closed the connection: does it speak TLS?"),
        ("tls", ("--tls-ca", "other.pem"), "certificate does not verify against --tls-ca"),
        ("mtls", ("--tls-ca", "ca.pem"), "does it want a client certificate?"),
        (
            "mtls",
            ("--tls-ca", "ca.pem", "--tls-cert", "client.pem", "--tls-key", "client.key"),
            "was the client certificate refused?",
        ),
    ],
    ids=[
        "tls-to-plaintext",
        "plaintext-to-tls",
        "unknown-server-ca",
        "no-client-cert",
        "client-cert-refused",
    ],
)
def test_tls_problems_are_named_with_the_address(
    server: str, client: tuple[str, ...], says: str, pki: dict[str, Path], vectors: Vectors
) -> None:
    server_tls = {
        "plain": (),
        "tls": ("--tls-cert", pki["server.pem"], "--tls-key", pki["server.key"]),
        "mtls": (
            "--tls-cert", pki["server.pem"], "--tls-key", pki["server.key"],
            "--tls-client-ca", pki["ca.pem"],
        ),
    }[server]  # fmt: skip
    engine = _serve(*server_tls)
    try:
        args = [pki.get(a, a) for a in client]
        result = certify("--target", engine.address, *args, "--vectors", vectors.targeted)
    finally:
        engine.stop()
    assert result.exit_code == 3, result.output
    output = " ".join(result.output.split())
    assert says.format(address=engine.address) in output, output
    assert engine.address in output
    assert "DEADLINE_EXCEEDED" not in output


def test_a_client_certificate_without_a_ca_is_a_usage_error(
    pki: dict[str, Path], vectors: Vectors
) -> None:
    result = certify(
        "--target", "127.0.0.1:1", "--tls-cert", pki["client.pem"], "--tls-key",
        pki["client.key"], "--vectors", vectors.targeted,
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "--tls-ca" in result.output


# --- the reproduce command -------------------------------------------------------------------


def test_the_reproduce_command_runs_as_printed_from_the_project_root(
    pays_even: str, vectors: Vectors, tmp_path: Path
) -> None:
    # Started as a user does: the environment's croupier, typed relative to the project.
    croupier = os.path.relpath(Path(sys.executable).parent / "croupier", REPO)
    report_path = tmp_path / "r.jsonl"
    first = subprocess.run(  # noqa: S603 - our own script
        [croupier, "certify", "--target", pays_even, "--vectors", str(vectors.targeted),
         "--report", str(report_path)],
        capture_output=True, text=True, timeout=120, cwd=REPO, check=False,
    )  # fmt: skip
    assert first.returncode == 1, first.stdout + first.stderr
    _, lines, _ = read_report(report_path)
    reproduce = lines[NATURAL.id]["reproduce"]
    assert reproduce.startswith(f"{croupier} certify ")

    again_path = tmp_path / "again.jsonl"
    again = subprocess.run(  # noqa: S602 - the printed command is a shell line
        f"{reproduce} --report {shlex.quote(str(again_path))}",
        shell=True, capture_output=True, text=True, timeout=120, cwd=REPO, check=False,
    )  # fmt: skip
    assert again.returncode == 1, again.stdout + again.stderr
    _, again_lines, _ = read_report(again_path)
    assert {vid: line["outcome"] for vid, line in again_lines.items()} == {NATURAL.id: "FAIL"}
    assert again_lines[NATURAL.id]["clause"] == lines[NATURAL.id]["clause"] == "BJ.nat-pays"
    assert len(lines) == len(CASES)  # the first run played them all, the rerun just one
