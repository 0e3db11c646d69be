"""The mutant zoo: every mutant is a one-bug demo engine, and the shipped corpus kills each one
with the clause that bug breaks.

One run of the zoo is shared by the per-mutant tests: the hand-written vectors, then the
campaigns, until three vectors have failed (``make mutants --quick``; ``make mutants`` plays
them all and counts), the mutant's own profile first (``verdicts``).
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys

import pytest
from rich.console import Console

from croupier.clients.demo_engine import HOUSE_RULES, DemoEngine
from croupier.clients.demo_engine.engine import game_of
from croupier.clients.mutants import LAB_MUTANTS, MUTANTS, RECOVERY_MUTANTS
from croupier.conformance.runner import BAD
from croupier.conformance.vectors import load_corpus
from croupier.conformance.zoo import AT_LEAST, MutantVerdict, run_zoo, split_corpus, verdict_table
from croupier.oracle.clauses import BY_ID, CONTRACT
from tests.clients import zoo_host

KEBAB = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
#: Mutants certified at once: one hung mutant waits out its timeouts while others play.
JOBS = 4


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, MutantVerdict]:
    """Every mutant certified against the shipped corpus, once, its own profile's vectors first.

    ``run_zoo(at_least=3)``, as ``make mutants --quick`` runs it: each mutant plays the
    hand-written vectors, its own profile's first, until three have failed (the first of
    them is the one with the smallest id of its profile whenever one fails there, the vector
    the test asks for), then the campaigns if it needs more kills. One process serves every
    mutant (``zoo_host``), each on its port, instead of one launched per mutant.
    """
    log = tmp_path_factory.mktemp("zoo") / "host.log"
    with zoo_host.hosting(MUTANTS, log) as addresses:
        zoo = run_zoo(list(MUTANTS.values()), jobs=JOBS, at_least=AT_LEAST, targets=addresses)
        return {v.mutant.name: v for v in asyncio.run(zoo)}


def test_the_zoo_holds_eighty_named_one_line_mutants() -> None:
    assert len(MUTANTS) >= 80
    for name, mutant in MUTANTS.items():
        assert mutant.name == name
        assert KEBAB.fullmatch(name), name
        assert mutant.description.endswith("."), name
        assert "\n" not in mutant.description, name
        assert mutant.profile in HOUSE_RULES, name
        assert isinstance(mutant.factory(), DemoEngine), name
        # The clause exists and belongs to the game of the profile it targets, or to every game,
        # or is a contract label for a protocol failure.
        if mutant.clause not in CONTRACT:
            game = BY_ID[mutant.clause].game
            assert game is None or game.value == game_of(HOUSE_RULES[mutant.profile]), name


@pytest.mark.slow
@pytest.mark.parametrize("name", list(MUTANTS))
def test_each_mutant_is_killed_with_its_clause(
    name: str, verdicts: dict[str, MutantVerdict]
) -> None:
    verdict = verdicts[name]
    mutant = MUTANTS[name]
    assert not verdict.error, verdict.error
    assert verdict.first is not None, f"{name} survived the shipped corpus"
    first = verdict.first
    assert first.outcome in BAD
    assert first.clause == mutant.clause, (first.vector_id, first.step, first.path)
    assert first.profile_id == mutant.profile, first.vector_id
    # The hand-written vectors kill every mutant: the campaigns are the safety net.
    assert verdict.stage == "hand-written", first.vector_id
    # And more than one vector: a corpus that lost one vector would still kill it.
    assert verdict.hand_kills >= 1
    assert verdict.kills >= AT_LEAST, verdict.kills
    assert verdict.ok


def test_a_survivor_is_reported() -> None:
    # The American top line is never bet in baccarat: on those vectors the mutant survives.
    hand, _ = split_corpus(load_corpus())
    baccarat = [v for v in hand if v.vector.profile_id == "baccarat-c"]
    mutant = MUTANTS["top-line-pays-8-1"]
    (verdict,) = asyncio.run(run_zoo([mutant], corpus=baccarat))
    assert (verdict.killed, verdict.clause_matches, verdict.ok) == (False, False, False)
    console = Console(width=200, record=True)
    console.print(verdict_table([verdict]))
    text = console.export_text()
    assert "top-line-pays-8-1" in text
    assert "SURVIVED" in text


def test_the_command_line_lists_and_refuses() -> None:
    def mutants(*arguments: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "croupier.clients.mutants", *arguments]
        # This interpreter, the mutants module, fixed arguments.
        return subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)  # noqa: S603

    listed = mutants("--list")
    assert listed.returncode == 0
    # The zoo, then the mutants of the lab profiles' variants, then the recovery mutants.
    listed_names = [line.split()[0] for line in listed.stdout.splitlines()]
    assert listed_names == [*MUTANTS, *LAB_MUTANTS, *RECOVERY_MUTANTS]
    unknown = mutants("no-such-bug")
    assert unknown.returncode == 2
    assert "no mutant 'no-such-bug'" in unknown.stderr


def test_the_recovery_mutants_are_six_recovery_bugs() -> None:
    # Each claims recovery through a kit of its own; the recovery vectors kill it
    # (tests/conformance/test_recovery.py plays one; make mutants plays them all).
    assert len(RECOVERY_MUTANTS) >= 6
    assert not set(RECOVERY_MUTANTS) & set(MUTANTS)
    kits = {mutant.kit for mutant in RECOVERY_MUTANTS.values()}
    assert len(kits) == len(RECOVERY_MUTANTS)
    for name, mutant in RECOVERY_MUTANTS.items():
        assert mutant.recovery, name
        assert mutant.clause == "CONTRACT.recovery", name
        assert KEBAB.fullmatch(name), name
        assert mutant.description.endswith("."), name
