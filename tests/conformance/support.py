"""What the runner's tests share: hand-made cases, engines as processes, a small corpus, helpers.

Engines run as real processes: ``croupier serve`` (the reference) and the small engines of
``tests/conformance/engines.py`` (a shipped profile id served with a changed rule, or an engine
that misbehaves on purpose). Vectors are built into a temporary directory from a seeded
campaign per profile plus a few hand-made cases, so these tests do not depend on the shipped
corpus.
"""

from __future__ import annotations

import asyncio
import json
import queue
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from click.testing import Result as CliResult

from croupier.conformance.cases import Case, CaseRound
from croupier.conformance.cli import main
from croupier.conformance.runner import Result, RunConfig, RunReport, VectorOutcome, run
from croupier.conformance.vectors import LoadedVector, load_corpus, read_vectors
from tests.strategies import SERVICE_PROFILE_IDS

REPO = Path(__file__).resolve().parents[2]
CROUPIER = (sys.executable, "-m", "croupier.conformance.cli")
PROFILES = SERVICE_PROFILE_IDS
#: Rounds of the campaign built per profile (roulette: vectors of 20 rounds).
ROUNDS = 30
#: The hand-made vectors' file.
TARGETED = "targeted.jsonl"

# --- hand-made vectors, one per rule a broken engine below breaks ---------------------------

#: Player A+K against dealer 9+7: a blackjack, 3:2 returns 250 (BJ.nat-pays).
NATURAL = Case(
    id="t-bjc-natural",
    name="blackjack-c/runner/natural-pays-3-2",
    profile="blackjack-c",
    clauses=("BJ.nat-pays",),
    description="A player blackjack against a dealer 16 is paid 3:2.",
    rounds=(CaseRound(seats=("1000:100",), shoe="AH 9C KH 7D 5S 5D", returns=(250,)),),
)
#: Player T+8 stands; dealer 6+A is a soft 17 and stands (C: stands on 17 to 21): 18 wins.
SOFT_17 = Case(
    id="t-bjc-soft17",
    name="blackjack-c/runner/dealer-stands-on-soft-17",
    profile="blackjack-c",
    clauses=("C.bj.dealer-draw",),
    description="The dealer's soft 17 stands; the player's 18 wins even money.",
    rounds=(
        CaseRound(seats=("1000:100",), shoe="TC 6D 8H AS 2C 5C", decisions="stand", returns=(200,)),
    ),
)
#: Player 2+3 = 5, banker 9+K = 9: a banker natural; the banker bet returns 100 + 95.
BANKER = Case(
    id="t-bac-banker",
    name="baccarat-c/runner/banker-pays-less-5-percent",
    profile="baccarat-c",
    clauses=("BAC.pay-banker",),
    description="A winning banker bet pays even money less 5% commission.",
    rounds=(CaseRound(seats=("1000:banker=100",), shoe="2C 9C 3D KD 5S 5D", returns=(195,)),),
)
#: 17 is in the second dozen: 2:1 returns 30 on 10.
DOZEN = Case(
    id="t-rou-dozen",
    name="roulette-c/runner/dozen-pays-2-1",
    profile="roulette-c",
    clauses=("C.rou.wheel",),
    description="A winning dozen pays 2:1.",
    rounds=(CaseRound(seats=("1000:dozen 2=10",), pocket="17", returns=(30,)),),
)
#: Fourteen spins 0..13 at one table: the board shows the last 13.
HISTORY = Case(
    id="t-rou-history",
    name="roulette-c/runner/history-shows-13",
    profile="roulette-c",
    clauses=("C.rou.history",),
    description="The board lists the last 13 winning numbers.",
    rounds=tuple(CaseRound(seats=("1000:red=10",), pocket=str(k)) for k in range(14)),
)
CASES = (NATURAL, SOFT_17, BANKER, DOZEN, HISTORY)


# --- engines as processes ---------------------------------------------------------------------


@dataclass
class Engine:
    """A running engine process and the address it announced."""

    process: subprocess.Popen[bytes]
    address: str

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


def start_engine(argv: Sequence[str], timeout: float = 30.0) -> Engine:
    """Start an engine process and wait for its ``CROUPIER_ENGINE host:port`` line."""
    process = subprocess.Popen(  # noqa: S603 - our own interpreter and scripts
        list(argv), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=REPO
    )
    lines: queue.Queue[bytes] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(b"")

    threading.Thread(target=pump, daemon=True).start()
    try:
        while True:
            line = lines.get(timeout=timeout).decode()
            if not line:
                raise RuntimeError(f"{argv} exited with {process.wait()} before it was ready")
            if line.startswith("CROUPIER_ENGINE "):
                return Engine(process=process, address=line.split()[1])
    except BaseException:
        process.kill()
        process.wait()
        raise


#: A blackjack-c engine that pays a blackjack 1:1: fails t-bjc-natural, passes the others.
PAYS_EVEN = ("--set", 'blackjack-c.blackjack_pays="1:1"')


# --- vectors -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Vectors:
    """The vectors these tests run: a campaign file per profile and the hand-made file."""

    directory: Path

    def file(self, name: str) -> Path:
        return self.directory / name

    def campaign(self, profile_id: str) -> Path:
        return self.directory / f"{profile_id}.campaign.jsonl"

    def load(self, *names: str) -> list[LoadedVector]:
        if not names:
            return load_corpus(self.directory)
        return [v for name in names for v in read_vectors(self.directory / name)]

    @property
    def targeted(self) -> Path:
        return self.directory / TARGETED


# --- running ------------------------------------------------------------------------------------


def run_api(
    loaded: Sequence[LoadedVector],
    *,
    target: str | None = None,
    launch: str | None = None,
    **options: Any,
) -> RunReport:
    """The runner through its Python API."""
    config = RunConfig(vectors=loaded, target=target, launch=launch, **options)
    return asyncio.run(run(config))


def certify(*args: str | Path) -> CliResult:
    """``croupier certify ARGS`` in process; wide enough that rich folds no summary line."""
    return CliRunner().invoke(main, ["certify", *(str(a) for a in args)], env={"COLUMNS": "400"})


def by_id(results: Sequence[Result]) -> dict[str, Result]:
    return {r.vector_id: r for r in results}


def read_report(path: Path) -> tuple[dict[str, Any], dict[str, dict[str, Any]], dict[str, Any]]:
    """A JSONL report: its header, its vector lines by id, its trailer."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    header, *results, trailer = lines
    return header, {r["id"]: r for r in results}, trailer


SUMMARY = re.compile(
    r"(run|certify): (?:(conformant|NOT conformant|passed with \d+ known failures? waived, not "
    r"conformant|NOT conformant \(no vector applies to the engine\)): (\d+) vectors?"
    r"|(passed \d+ of the (\d+) vectors? selected(?:, \d+ known failures? waived)?)) \(([^)]*)\)"
)


def summary(output: str) -> tuple[str, str, int, dict[str, int]]:
    """The summary line's mode, verdict, vector count and outcome counts.

    The verdict of a run that is not the whole corpus is its "passed N of the M vectors
    selected" phrase, and the count is M.
    """
    found = SUMMARY.search(output)
    assert found, output
    counts = {}
    for part in found.group(6).split(", "):
        number, _, name = part.partition(" ")
        counts[name.upper().replace(" ", "_")] = int(number)
    verdict = found.group(2) or found.group(4)
    total = found.group(3) or found.group(5)
    return found.group(1), verdict, int(total), counts


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


#: The campaign vector the misbehaving engines pick on.
VICTIM = "blackjack-c-t-0007"


def victim_round(vector_id: str = VICTIM) -> str:
    return f"{vector_id}-r0"


def assert_only_victim(report: RunReport, outcome: VectorOutcome) -> Result:
    results = by_id(report.results)
    victim = results.pop(VICTIM)
    assert victim.outcome is outcome, victim
    assert victim.step == "round 0 deal"
    assert victim.message
    assert {r.outcome for r in results.values()} == {VectorOutcome.PASS}, [
        r for r in results.values() if r.outcome is not VectorOutcome.PASS
    ]
    assert not report.conformant
    return victim
