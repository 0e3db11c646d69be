"""A lab profile's corpus as strong as a shipped one: targeted and refusal vectors generated.

For every lab profile of docs/examples, the coverage rule of DESIGN.md "Vectors": every value
a parameter may take is told apart from the profile's own by a vector (``conformance.
targeted``), or no round can under that profile, for a stated reason. The other values are
worked out here on their own, and each alternative profile is written as a lab writes one (a
file that extends the example); the vector the builder names must change under it. The demo
engine and ``croupier serve`` pass every generated vector, and each lab mutant of the zoo is
caught, with its own clause, by a generated vector of its profile.
"""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.clients.mutants import LAB_MUTANTS
from croupier.conformance.cli import main
from croupier.conformance.labcorpus import shared_cases
from croupier.conformance.results import VectorOutcome
from croupier.conformance.runner import BAD
from croupier.conformance.targeted.alternatives import shown
from croupier.conformance.targeted.builder import (
    CHOSEN_VARIANT_VECTORS,
    GENERATORS,
    Targeted,
    build_targeted,
)
from croupier.conformance.targeted.expectations import expectations
from croupier.conformance.targeted.probe import ProbeRound, fitted, probe
from croupier.conformance.targeted.refusals import build_refusals
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import (
    LoadedVector,
    read_vectors,
    replay,
    round_clauses,
    write_vectors,
)
from croupier.conformance.zoo import certify_mutant
from croupier.oracle.clauses import Game
from croupier.oracle.errors import ProfileError
from croupier.oracle.parameters import SPECS, Kind, ParamSpec, RawValue
from croupier.oracle.profile import Profile, load_profile_file, load_profile_text
from tests.clients import zoo_host
from tests.conformance.support import run_api

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
FILES = sorted(EXAMPLES.glob("*.toml"))
IDS = [path.stem for path in FILES]


@cache
def _profile(stem: str) -> Profile:
    return load_profile_file(EXAMPLES / f"{stem}.toml")


@cache
def _targeted(stem: str) -> Targeted:
    return build_targeted(_profile(stem))


def test_every_parameter_has_its_generator() -> None:
    for game, specs in SPECS.items():
        assert set(GENERATORS[game]) == set(specs), (
            f"{game.value}: a parameter without a generator, or a generator of none: "
            f"{set(specs) ^ set(GENERATORS[game])}"
        )


def _others(profile: Profile, spec: ParamSpec) -> list[RawValue]:
    """The other values the rule tells apart, worked out from oracle/parameters.py alone."""
    value = profile[spec.name]
    if spec.kind is Kind.BOOL:
        return [not value]
    if spec.kind in (Kind.CHOICE, Kind.ROUNDING):
        return [c for c in spec.choices if c != getattr(value, "value", value)]
    if spec.kind is Kind.INT:
        assert isinstance(value, int)
        low = spec.minimum if spec.minimum is not None else value - 1
        high = spec.maximum if spec.maximum is not None else value + 1
        return [n for n in (value - 1, value + 1) if low <= n <= high]
    if spec.kind is Kind.WORDS:
        # From the kinds of the wheel's layout: a set may not name the other wheel's zero bet.
        assert isinstance(value, tuple)
        off = "top-line" if profile.choice("wheel") == "european" else "first-four"
        kinds = tuple(w for w in value if w != off)
        flipped = [
            tuple(w for w in spec.choices if (w in kinds) != (w == word)) for word in spec.choices
        ]
        return [words for words in (kinds, *flipped) if words and words != value]
    # Odds and fractions: the builder's neighbours are checked by the told entries below.
    return []


def _written(raw: RawValue) -> str:
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, int):
        return str(raw)
    if isinstance(raw, tuple):
        return json.dumps(list(raw))
    return json.dumps(raw)


def _lab_file(tmp: Path, stem: str, name: str, raw: RawValue) -> Profile | None:
    """The example with one parameter changed, as a lab writes it; None if the values clash."""
    parent = _profile(stem)
    listed = parent.parameter(name)
    clauses = listed.clauses if listed else SPECS[parent.game][name].clauses
    path = tmp / f"{stem}-{name}.toml"
    path.write_text(
        f'id = "{parent.id}"\nextends = "{EXAMPLES / (stem + ".toml")}"\n[parameters]\n'
        f"{name} = {{ value = {_written(raw)}, clauses = {json.dumps(list(clauses))}, "
        'status = "assumed" }\n',
        encoding="utf-8",
    )
    try:
        return load_profile_file(path)
    except ProfileError:
        return None


#: The reasons a value may be left untold, by parameter: what no round can show.
SAME = {
    "dealer_blackjack_takes": "looks under an ace and a ten",
    "natural_paid_at_once": "shown only at a showdown",
    "surrender_after_split": "no surrender",
    "banker_six_pays": "either way",
    "rounding": "whole",
    "top_line_pays": "layout has no",
}


@pytest.mark.parametrize("stem", IDS)
def test_every_value_a_parameter_may_take_is_told_apart(stem: str, tmp_path: Path) -> None:
    profile = _profile(stem)
    targeted = _targeted(stem)
    assert not targeted.untold, [(t.name, t.other) for t in targeted.untold]
    by_id = {v.id: v for v in targeted.vectors}
    told = {(t.name, t.other): t for t in targeted.told}
    for name, spec in SPECS[profile.game].items():
        for raw in _others(profile, spec):
            if _lab_file(tmp_path, stem, name, raw) is not None:
                assert (name, shown(raw)) in told, f"{name} = {raw!r} is not tried"
    for entry in targeted.told:
        if entry.reason:
            wanted = SAME.get(entry.name, "offers no")
            assert wanted in entry.reason, (entry.name, entry.other, entry.reason)
            continue
        raws = [
            r for r in _others(profile, SPECS[profile.game][entry.name]) if shown(r) == entry.other
        ]
        other = _lab_file(tmp_path, stem, entry.name, raws[0]) if raws else None
        if other is None:
            continue  # odds and fractions: the builder's own replay decided
        vector = by_id[entry.vector]
        assert expectations(replay(vector, other)) != expectations(vector), (entry, vector.id)


@pytest.mark.parametrize("stem", IDS)
def test_the_targeted_vectors_are_the_profile_s_and_named_for_their_parameter(stem: str) -> None:
    profile = _profile(stem)
    vectors = _targeted(stem).vectors
    assert [v.id for v in vectors] == [f"{profile.id}-t{n:03d}" for n in range(1, len(vectors) + 1)]
    for vector in vectors:
        assert vector.profile_id == profile.id
        _, kind, name, _ = vector.name.split("/")
        assert (kind, name in SPECS[profile.game]) == ("targeted", True), vector.name
        # It exercises the rule of its parameter, as the profile cites it.
        assert set(profile.citations()(name)) <= set(vector.clauses), vector.id


def _generated(stem: str) -> list[vector_pb2.Vector]:
    profile = _profile(stem)
    return [*shared_cases(profile), *_targeted(stem).vectors, *build_refusals(profile)]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[LoadedVector]]:
    """Each example's generated vectors (all but the campaign), as a vector file."""
    folder = tmp_path_factory.mktemp("lab-generated")
    found = {}
    for stem in IDS:
        path = folder / f"{stem}.generated.binpb.gz"
        write_vectors(path, _generated(stem))
        found[_profile(stem).id] = list(read_vectors(path))
    return found


def test_the_refusals_cover_every_reason_the_lab_profiles_give(
    generated: dict[str, list[LoadedVector]],
) -> None:
    refused = {
        pid: {r.expected_error for v in vectors for r in v.vector.rounds if r.expected_error}
        for pid, vectors in generated.items()
    }
    common = {
        "INVALID_ROUND", "BET_OUT_OF_LIMITS", "UNKNOWN_PROFILE", "ROUND_EXISTS",
        "ROUND_NOT_FOUND", "INSUFFICIENT_BALANCE",
    }  # fmt: skip
    cards = {"INVALID_CARD", "SHOE_NOT_IN_PROFILE", "SHOE_EXHAUSTED", "ILLEGAL_DECISION"}
    for pid, reasons in refused.items():
        profile = next(p for p in map(_profile, IDS) if p.id == pid)
        game = profile.game
        wanted = common | (cards if game is not Game.ROULETTE else {"INVALID_BET_LAYOUT"})
        if game is Game.BLACKJACK:
            wanted |= {"ROUND_NOT_COMPLETE"}
        # A table of fewer seats than the contract's 16 refuses one more (TABLE.seats).
        if profile.integer("max_seats") < 16:
            wanted |= {"TOO_MANY_SEATS"}
        if game is Game.ROULETTE and len(profile.words("bets_offered")) < 14:
            wanted |= {"BET_NOT_OFFERED"}
        assert wanted <= reasons, (pid, wanted - reasons)


def _every(generated: dict[str, list[LoadedVector]]) -> list[LoadedVector]:
    return [loaded for vectors in generated.values() for loaded in vectors]


def test_the_demo_engine_passes_every_generated_vector(
    generated: dict[str, list[LoadedVector]],
) -> None:
    demo = shlex.join([sys.executable, "-m", "croupier.clients.demo_engine", "--lab-tables"])
    report = run_api(_every(generated), launch=demo, concurrency=8)
    bad = [(r.vector_id, r.outcome.value, r.message) for r in report.results if r.outcome in BAD]
    assert not bad, bad[:5]
    assert report.count(VectorOutcome.PASS) == len(_every(generated))


def test_croupier_serve_passes_every_generated_vector(
    generated: dict[str, list[LoadedVector]],
) -> None:
    files = [arg for path in FILES for arg in ("--profile", str(path))]
    serve = shlex.join(
        [sys.executable, "-m", "croupier.conformance.cli", "serve", "--port", "0", *files]
    )
    report = run_api(_every(generated), launch=serve, concurrency=8)
    bad = [(r.vector_id, r.outcome.value, r.message) for r in report.results if r.outcome in BAD]
    assert not bad, bad[:5]
    assert report.count(VectorOutcome.PASS) == len(_every(generated))


@pytest.fixture(scope="module")
def caught(
    generated: dict[str, list[LoadedVector]], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[str, str, int]]:
    """Each lab mutant against its profile's generated vectors: first kill, its clause, kills.

    One process serves every lab mutant, each on its port (``zoo_host``).
    """
    log = tmp_path_factory.mktemp("lab-zoo") / "host.log"
    with zoo_host.hosting(LAB_MUTANTS, log) as addresses:
        return asyncio.run(_each_caught(generated, addresses))


async def _each_caught(
    generated: dict[str, list[LoadedVector]], addresses: dict[str, str]
) -> dict[str, tuple[str, str, int]]:
    two = asyncio.Semaphore(2)

    async def one(name: str) -> tuple[str, tuple[str, str, int]]:
        mutant = LAB_MUTANTS[name]
        async with two:
            verdict = await certify_mutant(
                mutant, [], generated[mutant.profile], target=addresses[name]
            )
        first = verdict.first
        assert not verdict.error, verdict.error
        return name, ("", "", 0) if first is None else (
            first.vector_id,
            first.clause,
            verdict.kills,
        )

    return dict(await asyncio.gather(*(one(name) for name in LAB_MUTANTS)))


@pytest.mark.parametrize("name", list(LAB_MUTANTS))
def test_each_lab_mutant_is_caught_with_its_clause_by_a_generated_vector(
    name: str, caught: dict[str, tuple[str, str, int]]
) -> None:
    vector_id, clause, kills = caught[name]
    mutant = LAB_MUTANTS[name]
    assert vector_id, f"{name} survived the generated vectors of {mutant.profile}"
    assert vector_id.startswith(f"{mutant.profile}-"), vector_id
    assert clause == mutant.clause, (vector_id, clause)
    assert kills >= 1


def _build(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["vectors", "build", *arguments], env={"COLUMNS": "400"})
    return result.exit_code, result.stdout, result.stderr


def test_vectors_build_of_a_lab_profile_makes_its_corpus_and_says_what_tells_values_apart(
    tmp_path: Path,
) -> None:
    out = tmp_path / "lab.binpb.gz"
    outside = str(EXAMPLES / "outside-bets-five-seats.toml")
    code, _, said = _build("--profile", outside, "--count", "40", "--out", str(out))
    assert code == 0, said
    ids = [loaded.vector.id for loaded in read_vectors(out)]
    targeted = _targeted("outside-bets-five-seats")
    assert [i for i in ids if "-t" in i] == [v.id for v in targeted.vectors]
    assert sum(i.removeprefix("outside-bets-five-seats-").isdigit() for i in ids) == 2  # 40 spins
    told = sum(1 for t in targeted.told if t.vector)
    assert f"coverage: {told} other values of the parameters told apart" in said, said
    assert "same: straight_pays = 36:1: the table offers no straight bet" in said, said
    assert "not told apart" not in said


def test_vectors_build_names_a_value_no_vector_tells_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A generator that proposes nothing: no vector tells the other history lengths apart.
    monkeypatch.setitem(GENERATORS[Game.ROULETTE], "history_length", lambda _p, _o: [])
    french = str(EXAMPLES / "french-roulette.toml")
    code, _, said = _build("--profile", french, "--count", "1", "--out", str(tmp_path / "f.jsonl"))
    assert code == 0, said
    for other in (12, 14):
        assert f"not told apart: history_length = 13 from {other}" in said, said


def test_vectors_build_of_a_shipped_profile_is_a_campaign_of_its_seed() -> None:
    code, _, said = _build("--profile", "baccarat-c")
    assert code == 2
    assert "--seed is required for a shipped profile" in said


def test_a_lab_that_sets_only_max_hands_is_refused_a_split_by_the_resplit_variant() -> None:
    """``max_hands = { value = 4 }`` over blackjack-a inherits A.split, which says two hands;
    the fifth hand's refusal cites VAR.bj.resplit, the rule the lab chose (issue 24)."""
    lab = load_profile_text(
        'id = "lab"\nextends = "blackjack-a"\n[parameters]\nmax_hands = { value = 4 }\n'
    )
    fifths = [v for v in build_targeted(lab).vectors if v.name.endswith("/max_hands/4-not-5")]
    # A variant the lab chose is asked by CHOSEN_VARIANT_VECTORS rounds.
    assert len(fifths) == CHOSEN_VARIANT_VECTORS
    for fifth in fifths:
        assert fifth.rounds[-1].expected_error == "ILLEGAL_DECISION"
        assert round_clauses(fifth.rounds[-1]) == ["VAR.bj.resplit"]


#: Lab profiles beside the examples, written against what the generators assume: stakes of
#: about 100 under limits that refuse them, one deck, six to five, no look, la partage.
OTHER_LABS = {
    "high-limits": ("blackjack-c", "min_bet = { value = 1000 }\nmax_bet = { value = 20000 }"),
    "low-limits": ("blackjack-a", "min_bet = { value = 2 }\nmax_bet = { value = 40 }"),
    "one-deck-6-5": (
        "blackjack-a",
        "decks = { value = 1 }\nblackjack_pays = { value = '6:5' }\npeek = { value = 'ace' }",
    ),
    "baccarat-low-limits": ("baccarat-b", "min_bet = { value = 2 }\nmax_bet = { value = 40 }"),
    "american-half-back-limits": (
        "roulette-american",
        "zero_rule = { value = 'half-back' }\nmin_bet = { value = 500 }",
    ),
}


@pytest.mark.parametrize("lab", list(OTHER_LABS))
def test_the_rule_holds_for_other_lab_profiles(lab: str) -> None:
    base, lines = OTHER_LABS[lab]
    profile = load_profile_text(f'id = "lab"\nextends = "{base}"\n[parameters]\n{lines}\n')
    targeted = build_targeted(profile)
    assert targeted.vectors
    assert not targeted.untold, [(t.name, t.value, t.other) for t in targeted.untold]


def test_a_probe_s_stakes_are_fitted_to_the_table_s_limits() -> None:
    double = probe("a double for 50", ProbeRound(seats=("1000:100",), shoe="5S", plan="double=50"))

    def under(low: int, high: int) -> Profile:
        return load_profile_text(
            'id = "lab"\nextends = "blackjack-a"\n[parameters]\n'
            f"min_bet = {{ value = {low} }}\nmax_bet = {{ value = {high} }}\n"
        )

    # The smallest odd factor that lifts 100 to 500: 5.
    (lifted,) = fitted(under(500, 10**6), double).rounds
    assert (lifted.seats, lifted.plan) == (("5000:500",), "double=250")
    # 600 needs 6, made odd: 7.
    assert fitted(under(600, 10**6), double).rounds[0].seats == ("7000:700",)
    # Under a maximum of 40: amounts over 3.
    (cut,) = fitted(under(1, 40), double).rounds
    assert (cut.seats, cut.plan) == (("333:33",), "double=16")
    # Within the limits, exact, or unable to fit: as written.
    assert fitted(under(1, 10**6), double) == double
    exact = probe("a stake of 100", ProbeRound(seats=("1000:100",), shoe="5S"), exact=True)
    assert fitted(under(500, 10**6), exact) == exact
    assert fitted(under(150, 160), double) == double
