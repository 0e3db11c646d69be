"""The blackjack variants' mutants: killed with their clause by vectors of the example profiles.

No shipped profile chooses a variant, so the shipped corpus cannot see these bugs: the vectors
are built here for the lab profiles of ``docs/examples`` (the hand-computed cases of
``conformance.handwritten.lab_blackjack`` and a short campaign each), the demo engine passes
every one, and each mutant of ``clients.mutants.LAB_MUTANTS`` fails some with its clause.
"""

from __future__ import annotations

import asyncio
import shlex
import sys
from pathlib import Path

import pytest

from croupier.clients.demo_engine import LAB_TABLES
from croupier.clients.mutants import LAB_MUTANTS, MUTANTS
from croupier.conformance.cases import build_case
from croupier.conformance.handwritten.lab_blackjack import LAB_CASES
from croupier.conformance.runner import RunConfig, VectorOutcome, run
from croupier.conformance.vectors import LoadedVector, campaign, load_corpus, write_vectors
from croupier.conformance.zoo import AT_LEAST, MutantVerdict, run_zoo
from croupier.oracle.clauses import BY_ID
from croupier.oracle.profile import load_profile_file
from tests.clients import zoo_host

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


@pytest.fixture(scope="module")
def lab_corpus(tmp_path_factory: pytest.TempPathFactory) -> list[LoadedVector]:
    """Each example profile's hand-computed cases and a 60-round campaign, as vector files."""
    directory = tmp_path_factory.mktemp("lab-corpus")
    for profile_id, cases in LAB_CASES.items():
        profile = load_profile_file(EXAMPLES / f"{profile_id}.toml")
        write_vectors(
            directory / f"{profile_id}.hand.jsonl", (build_case(c, profile) for c in cases)
        )
        write_vectors(
            directory / f"{profile_id}.campaign.jsonl",
            campaign(profile, f"lab/{profile_id}", 60, f"{profile_id}-g"),
        )
    return load_corpus(directory)


#: The blackjack lab mutants (the other games' are tests/conformance/test_lab_variants.py's).
BLACKJACK = {name: m for name, m in LAB_MUTANTS.items() if m.profile in LAB_CASES}


@pytest.fixture(scope="module")
def verdicts(
    lab_corpus: list[LoadedVector], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, MutantVerdict]:
    """Every blackjack lab mutant certified once; one process serves all but the first.

    The first is launched as ``make mutants`` launches it (``python -m croupier.clients.mutants
    NAME``), which keeps a lab mutant's launch by name under test; ``zoo_host`` serves the rest.
    """
    first, *rest = BLACKJACK
    log = tmp_path_factory.mktemp("lab-zoo") / "host.log"
    with zoo_host.hosting(rest, log) as addresses:
        assert first not in addresses
        zoo = run_zoo(
            list(BLACKJACK.values()),
            jobs=2,
            corpus=lab_corpus,
            at_least=AT_LEAST,
            targets=addresses,
        )
        return {v.mutant.name: v for v in asyncio.run(zoo)}


def test_every_lab_case_is_of_an_example_profile_the_demo_engine_plays() -> None:
    for profile_id, cases in LAB_CASES.items():
        assert (EXAMPLES / f"{profile_id}.toml").is_file(), profile_id
        assert profile_id in LAB_TABLES, profile_id
        assert all(case.profile == profile_id for case in cases)


def test_each_new_blackjack_variant_has_a_lab_mutant() -> None:
    variants = {cid for cid, c in BY_ID.items() if c.variant and cid.startswith("VAR.bj.")}
    assert {m.clause for m in BLACKJACK.values()} == variants
    assert not set(LAB_MUTANTS) & set(MUTANTS)


def test_the_demo_engine_passes_every_lab_vector(lab_corpus: list[LoadedVector]) -> None:
    report = asyncio.run(
        run(
            RunConfig(
                vectors=lab_corpus,
                launch=shlex.join(
                    [sys.executable, "-m", "croupier.clients.demo_engine", "--lab-tables"]
                ),
            )
        )
    )
    bad = [
        (r.vector_id, r.outcome.value, r.clause, r.message)
        for r in report.results
        if r.outcome is not VectorOutcome.PASS
    ]
    assert not bad, bad[:5]
    assert report.count(VectorOutcome.PASS) == len(lab_corpus)


@pytest.mark.parametrize("name", list(BLACKJACK))
def test_each_lab_mutant_is_killed_with_its_clause(
    name: str, verdicts: dict[str, MutantVerdict]
) -> None:
    verdict = verdicts[name]
    mutant = BLACKJACK[name]
    assert not verdict.error, verdict.error
    assert verdict.first is not None, f"{name} survived the lab vectors"
    assert verdict.first.clause == mutant.clause, (verdict.first.vector_id, verdict.first.path)
    assert verdict.first.profile_id == mutant.profile
    assert verdict.stage == "hand-written"
    assert verdict.ok, (verdict.hand_kills, verdict.kills)
