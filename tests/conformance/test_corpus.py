"""The shipped conformance corpus (DESIGN.md "Vectors").

The corpus passes its own check (no stale expectation, no duplicate id, no unknown clause,
every clause of RULES.md covered); the check does flag each of those problems; hand-written
vectors cite only clauses that apply to their profile and cover every one of them; the
campaigns are large enough; and the files on disk are exactly what ``build_corpus`` writes,
so nobody edits a vector by hand.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from croupier.conformance.corpus import CAMPAIGNS, build_corpus
from croupier.conformance.handwritten.shipped import CASES
from croupier.conformance.recovery import RECOVERY_DIR
from croupier.conformance.runner import exchanges
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import (
    CORPUS_DIR,
    CorpusProblem,
    LoadedVector,
    check_corpus,
    corpus_files,
    read_vectors,
    write_vectors,
)
from croupier.oracle.clauses import BY_ID, CONTRACT, Game
from croupier.oracle.profile import SHIPPED_IDS, Profile, shipped_profile
from croupier.oracle.provenance import ABSENT, Difference, cite
from croupier.oracle.service import flat

#: Clauses every profile of a game shares (RULES.md "common to ...").
GAME_CLAUSES: dict[Game, tuple[str, ...]] = {
    Game.BLACKJACK: ("BJ.",),
    Game.BACCARAT: ("BAC.",),
    # Each wheel has its own clauses: C.rou.* for the European, US.rou.* for the American.
    Game.ROULETTE: (),
}

#: Each profile's own document clauses.
OWN_CLAUSES: dict[str, tuple[str, ...]] = {
    "blackjack-a": ("A.",),
    "blackjack-c": ("C.bj.",),
    "baccarat-b": ("B.",),
    "baccarat-c": ("C.bac.decks",),
    "baccarat-d": ("D.decks",),
    "roulette-c": ("C.rou.",),
    "roulette-american": ("US.rou.",),
}

#: Clauses of every game that no parameter configures: the code applies them to every profile.
EVERY_GAME = ("TABLE.currency",)

PREFIXES = {
    "blackjack-a": "bja",
    "blackjack-c": "bjc",
    "baccarat-b": "bab",
    "baccarat-c": "bac",
    "baccarat-d": "bad",
    "roulette-c": "rou",
    "roulette-american": "rua",
}

#: RULES.md C.rou.history: "the results of the 13 previous spins".
BOARD = 13


def applicable(profile: Profile) -> frozenset[str]:
    """The clauses that apply to a profile: its game's, its document's, its parameters'."""
    prefixes = GAME_CLAUSES[profile.game] + OWN_CLAUSES[profile.id] + EVERY_GAME
    return frozenset(c for c in BY_ID if c.startswith(prefixes)) | profile.clause_ids()


@cache
def shipped_part(profile_id: str, part: str) -> tuple[LoadedVector, ...]:
    """One file of the shipped corpus (``hand`` or ``campaign``), read once per session."""
    return tuple(read_vectors(CORPUS_DIR / f"{profile_id}.{part}.binpb.gz"))


def hand_vectors(profile_id: str) -> list[LoadedVector]:
    return list(shipped_part(profile_id, "hand"))


def _report(problems: list[CorpusProblem]) -> str:
    return "\n".join(f"{p.where}: {p.message}" for p in problems)


# --- the shipped corpus ----------------------------------------------------------------------


def test_shipped_corpus_passes_the_check() -> None:
    files = corpus_files(CORPUS_DIR)
    expected = [f"{pid}.{part}.binpb.gz" for pid in SHIPPED_IDS for part in ("campaign", "hand")]
    assert sorted(p.name for p in files) == sorted(expected)
    problems = check_corpus(
        [
            lv
            for pid in SHIPPED_IDS
            for part in ("hand", "campaign")
            for lv in shipped_part(pid, part)
        ],
        shipped_profile,
    )
    assert not problems, _report(problems)


def test_corpus_files_are_what_build_corpus_writes(tmp_path: Path) -> None:
    counts = build_corpus(tmp_path)
    assert set(counts) == set(SHIPPED_IDS)
    built = {p.name: p.read_bytes() for p in corpus_files(tmp_path)}
    shipped = {p.name: p.read_bytes() for p in corpus_files(CORPUS_DIR)}
    assert sorted(built) == sorted(shipped), "a corpus file is missing or left over"
    stale = [name for name in built if built[name] != shipped[name]]
    assert not stale, (
        f"{stale} differ from what build_corpus writes: rebuild with "
        '`python -c "from croupier.conformance.corpus import build_corpus; build_corpus()"`'
    )
    # The recovery vectors go to the built corpus's recovery/ folder, the shipped ones apart.
    recovered = {p.name: p.read_bytes() for p in corpus_files(tmp_path / "recovery")}
    assert recovered == {p.name: p.read_bytes() for p in corpus_files(RECOVERY_DIR)}, (
        "conformance/recovery/ differs from what build_corpus writes: make corpus"
    )


@pytest.mark.parametrize("profile_id", SHIPPED_IDS)
def test_campaign_has_at_least_1000_rounds(profile_id: str) -> None:
    rounds = sum(len(lv.vector.rounds) for lv in shipped_part(profile_id, "campaign"))
    assert rounds >= 1000
    assert CAMPAIGNS[profile_id].rounds >= 1000


@pytest.mark.parametrize("profile_id", SHIPPED_IDS)
def test_every_vector_is_filed_under_its_profile(profile_id: str) -> None:
    for part in ("hand", "campaign"):
        for loaded in shipped_part(profile_id, part):
            assert loaded.vector.profile_id == profile_id, loaded.vector.id


# --- citations ------------------------------------------------------------------------------

#: Values no rule decides: the request's shape does (which game's table, a seat too many), and
#: a difference there is CONTRACT.request, as the runner says when nothing is recorded.
SHAPE = re.compile(
    r"state|settlement|state\.(blackjack|baccarat|roulette)|state\.blackjack\.(dealer|seats\[\d+\])"
)
#: Values the contract decides, and the labels the oracle records for them (and a line
#: after the last is CONTRACT.settlement: one line per bet or hand).
CONTRACT_DECIDED = {
    re.compile(r"state\.(round_id|profile_id)"): "CONTRACT.round-id",
    re.compile(r"settlement\.total_(staked|returned)(\.minor_units)?"): "CONTRACT.settlement",
}


@pytest.mark.parametrize("profile_id", SHIPPED_IDS)
def test_every_value_the_rules_decide_is_cited_by_a_rule(profile_id: str) -> None:
    # Every path of every expected answer, as the runner would look it up for a difference
    # there: a value the rules decide never falls back to a contract label. (An insurance
    # stake's amount, ``...insurance.minor_units``, once did: its key is ``*.insurance``.)
    wrong: dict[str, str] = {}
    for part in ("hand", "campaign"):
        for loaded in shipped_part(profile_id, part):
            vector = loaded.vector
            for index in range(len(vector.rounds)):
                for exchange in exchanges(vector, index, ""):
                    if exchange.expected is None:
                        continue
                    citations = exchange.citations
                    for path, value in flat.view(exchange.expected).items():
                        found = cite(citations, Difference(path=path, expected=value, actual="\0"))
                        label = next(
                            (c for r, c in CONTRACT_DECIDED.items() if r.fullmatch(path)), None
                        )
                        if path.startswith("settlement.lines[") and value == ABSENT:
                            label = "CONTRACT.settlement"  # a line too many
                        if label is not None:
                            ok = found[:1] == (label,)
                        elif SHAPE.fullmatch(path):
                            ok = not found
                        else:
                            ok = bool(found) and found[0] in BY_ID
                        if not ok:
                            wrong.setdefault(re.sub(r"\[\d+\]", "[i]", path), vector.id)
    assert not wrong, wrong


# --- hand-written vectors --------------------------------------------------------------------


@pytest.mark.parametrize("profile_id", SHIPPED_IDS)
def test_hand_written_clauses_apply_to_their_profile(profile_id: str) -> None:
    # Negative vectors of the contract cite its labels (CONTRACT.balance...).
    allowed = applicable(shipped_profile(profile_id)) | frozenset(CONTRACT)
    for loaded in hand_vectors(profile_id):
        foreign = set(loaded.vector.clauses) - allowed
        assert not foreign, f"{loaded.vector.id} cites {sorted(foreign)}, not {profile_id}'s"


@pytest.mark.parametrize("profile_id", SHIPPED_IDS)
def test_hand_written_vectors_cover_every_applicable_clause(profile_id: str) -> None:
    cited = {c for loaded in hand_vectors(profile_id) for c in loaded.vector.clauses}
    missing = applicable(shipped_profile(profile_id)) - cited
    assert not missing, f"{profile_id}: no hand-written vector for {sorted(missing)}"


@pytest.mark.parametrize("profile_id", SHIPPED_IDS)
def test_hand_written_ids_names_and_descriptions(profile_id: str) -> None:
    shape = re.compile(rf"{PREFIXES[profile_id]}-h\d{{3}}")
    for loaded in hand_vectors(profile_id):
        vector = loaded.vector
        assert shape.fullmatch(vector.id), vector.id
        parts = vector.name.split("/")
        assert parts[0] == profile_id, vector.name
        assert len(parts) >= 3, f"{vector.name}: expected <profile>/<topic>/<case>"
        assert all(parts), vector.name
        assert vector.description.strip().endswith("."), vector.id
        assert not vector.seed, f"{vector.id}: a hand-written vector has no seed"
    assert len(CASES[profile_id]) == len(hand_vectors(profile_id))


def test_hand_written_names_are_unique() -> None:
    names = [lv.vector.name for pid in SHIPPED_IDS for lv in hand_vectors(pid)]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("profile_id", ["roulette-c", "roulette-american"])
def test_history_vectors_show_the_last_13_spins(profile_id: str) -> None:
    """C.rou.history: after each spin the board holds that spin and the 12 before it.

    The spins of its own table under its own profile: a board belongs to a (profile, table).
    """
    vectors = [lv.vector for lv in hand_vectors(profile_id) if "C.rou.history" in lv.vector.clauses]
    assert any(len(v.rounds) >= BOARD + 1 for v in vectors), "no vector spins 14 times or more"
    assert any(v.other_profile_ids for v in vectors), "no vector shares a table across profiles"
    for vector in vectors:
        spins: dict[tuple[str, str], list[str]] = {}
        for vround in vector.rounds:
            table = spins.setdefault((vround.deal.profile_id, vround.deal.table_id), [])
            table.append(vround.deal.spin.pocket)
            board = list(vround.expected_state.roulette.history)
            assert board == table[-BOARD:], f"{vector.id} after {len(table)} spins"


# --- the check flags each problem --------------------------------------------------------------


def _sample() -> list[vector_pb2.Vector]:
    """A few hand-written vectors of three games, copied so tests may tamper with them."""
    out = []
    for profile_id in ("blackjack-a", "baccarat-b", "roulette-c"):
        for loaded in hand_vectors(profile_id)[:2]:
            copy = vector_pb2.Vector()
            copy.CopyFrom(loaded.vector)
            out.append(copy)
    return out


def _check(tmp_path: Path, vectors: list[vector_pb2.Vector]) -> list[CorpusProblem]:
    """Write the vectors to a file, read them back and check them; drop coverage findings."""
    path = tmp_path / "sample.jsonl"
    write_vectors(path, vectors)
    problems = check_corpus(list(read_vectors(path)), shipped_profile)
    return [p for p in problems if p.where != "corpus"]


def test_untampered_sample_is_clean(tmp_path: Path) -> None:
    assert _check(tmp_path, _sample()) == []


def test_check_flags_a_tampered_amount(tmp_path: Path) -> None:
    vectors = _sample()
    line = vectors[0].rounds[0].expected_settle.settlement.lines[0]
    line.returned.minor_units += 1
    problems = _check(tmp_path, vectors)
    assert len(problems) == 1, _report(problems)
    assert f"({vectors[0].id})" in problems[0].where
    assert "no longer reproduces expectedSettle" in problems[0].message


def test_check_flags_a_duplicate_id(tmp_path: Path) -> None:
    vectors = _sample()
    twin = vector_pb2.Vector()
    twin.CopyFrom(vectors[3])
    vectors.append(twin)
    problems = _check(tmp_path, vectors)
    assert len(problems) == 1, _report(problems)
    assert problems[0].message.startswith(f"duplicate id {vectors[3].id!r}")


def test_check_flags_an_unknown_clause(tmp_path: Path) -> None:
    vectors = _sample()
    vectors[4].clauses.append("C.rou.nope")
    problems = _check(tmp_path, vectors)
    assert [p.message for p in problems] == ["unknown clause 'C.rou.nope'"]
    assert f"({vectors[4].id})" in problems[0].where


def test_check_flags_an_uncovered_clause(tmp_path: Path) -> None:
    kept = [
        lv.vector
        for pid in SHIPPED_IDS
        for lv in hand_vectors(pid)
        if "C.rou.history" not in lv.vector.clauses
    ]
    path = tmp_path / "no-history.jsonl"
    write_vectors(path, kept)
    problems = check_corpus(list(read_vectors(path)), shipped_profile)
    assert problems == [CorpusProblem(where="corpus", message="clause C.rou.history has no vector")]
