"""The shipped corpus: hand-written cases plus a generated campaign per profile."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from croupier.conformance.cases import build_case
from croupier.conformance.handwritten.shipped import CASES
from croupier.conformance.recovery import RECOVERY_DIR, recovery_vectors
from croupier.conformance.since import stamp
from croupier.conformance.vectors import BINARY, CORPUS_DIR, campaign, corpus_files, write_vectors
from croupier.oracle.profile import shipped_profile


@dataclass(frozen=True, slots=True, kw_only=True)
class Campaign:
    """The generated part of one profile's corpus."""

    seed: str
    rounds: int
    prefix: str


#: Campaign seeds are part of the corpus: changing one changes every vector it made.
CAMPAIGNS: dict[str, Campaign] = {
    "blackjack-a": Campaign(seed="croupier/blackjack-a/1", rounds=1000, prefix="bja-g"),
    "blackjack-c": Campaign(seed="croupier/blackjack-c/1", rounds=1000, prefix="bjc-g"),
    "baccarat-b": Campaign(seed="croupier/baccarat-b/1", rounds=1000, prefix="bab-g"),
    "baccarat-c": Campaign(seed="croupier/baccarat-c/1", rounds=1000, prefix="bac-g"),
    "baccarat-d": Campaign(seed="croupier/baccarat-d/1", rounds=1000, prefix="bad-g"),
    "roulette-c": Campaign(seed="croupier/roulette-c/1", rounds=1000, prefix="rou-g"),
    "roulette-american": Campaign(seed="croupier/roulette-american/1", rounds=1000, prefix="rua-g"),
}


def build_corpus(
    directory: Path = CORPUS_DIR, recovery: Path | None = None
) -> dict[str, tuple[int, int]]:
    """Write every profile's hand-written and campaign files; return counts per profile.

    Each profile's recovery vectors go to ``recovery`` (``conformance.recovery``), apart:
    by default the shipped ``RECOVERY_DIR`` for the shipped corpus, else ``directory``'s
    ``recovery/`` folder (a corpus directory's own files are only those directly in it).

    Binary files (``BINARY``): ``croupier vectors show`` and ``export`` give their JSON.

    Each vector is stamped with the suite version it dates from (``since``).
    """
    if recovery is None:
        recovery = RECOVERY_DIR if directory == CORPUS_DIR else directory / "recovery"
    directory.mkdir(parents=True, exist_ok=True)
    recovery.mkdir(parents=True, exist_ok=True)
    # A file of an earlier build (another profile, another format) would still be loaded.
    for stale in (*corpus_files(directory), *corpus_files(recovery)):
        stale.unlink()
    counts: dict[str, tuple[int, int]] = {}
    for profile_id, spec in CAMPAIGNS.items():
        profile = shipped_profile(profile_id)
        # In id order, whichever module a case is written in (its own or a shared one).
        cases = sorted(CASES[profile_id], key=lambda case: case.id)
        # Each vector says which suite version it dates from (Vector.since).
        hand = write_vectors(
            directory / f"{profile_id}.hand{BINARY}", (stamp(build_case(c, profile)) for c in cases)
        )
        generated = write_vectors(
            directory / f"{profile_id}.campaign{BINARY}",
            (stamp(v) for v in campaign(profile, spec.seed, spec.rounds, spec.prefix)),
        )
        write_vectors(
            recovery / f"{profile_id}.recovery{BINARY}",
            (stamp(v) for v in recovery_vectors(profile, spec.prefix.replace("-g", "-r"))),
        )
        counts[profile_id] = (hand, generated)
    return counts
