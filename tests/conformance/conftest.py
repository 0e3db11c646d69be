"""Fixtures of the runner's tests: the reference server, a rule-breaking engine, a small corpus."""

from __future__ import annotations

import shlex
from collections.abc import Iterator

import pytest

from croupier.conformance.cases import build_case
from croupier.conformance.vectors import campaign, write_vectors
from croupier.oracle.profile import shipped_profile
from tests.conformance.engines import command
from tests.conformance.support import (
    CASES,
    CROUPIER,
    PAYS_EVEN,
    PROFILES,
    ROUNDS,
    TARGETED,
    Vectors,
    start_engine,
)


@pytest.fixture(scope="session")
def reference() -> Iterator[str]:
    """``croupier serve --port 0``: the reference oracle server's address."""
    engine = start_engine([*CROUPIER, "serve", "--port", "0", "--grace", "0"])
    yield engine.address
    engine.stop()


@pytest.fixture(scope="session")
def pays_even() -> Iterator[str]:
    """The address of a running engine that pays blackjack 1:1 on blackjack-c."""
    engine = start_engine(shlex.split(command(*PAYS_EVEN)))
    yield engine.address
    engine.stop()


@pytest.fixture(scope="session")
def vectors(tmp_path_factory: pytest.TempPathFactory) -> Vectors:
    """A small corpus: a 30-round campaign per profile and the hand-made cases."""
    directory = tmp_path_factory.mktemp("corpus")
    for profile_id in PROFILES:
        profile = shipped_profile(profile_id)
        built = campaign(profile, f"runner-test/{profile_id}", ROUNDS, f"{profile_id}-t")
        write_vectors(directory / f"{profile_id}.campaign.jsonl", built)
    write_vectors(directory / TARGETED, [build_case(c, shipped_profile(c.profile)) for c in CASES])
    return Vectors(directory)
