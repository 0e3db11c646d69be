"""The replay adapter at a roulette table: a toy wheel with French bet names and no board.

The toy pays a spin and forgets it; the kit's ``Boards`` keeps each table's board across the
rounds (C.rou.history), and the bet kinds are mapped by name. Without the board, the suite
reports the board's clause: the kit makes no board up on its own.
"""

from __future__ import annotations

import pytest

from croupier.clients.adapter import DealInput, DecisionInput, Line, RouletteView
from croupier.clients.mappings import NameMap, line_label
from croupier.clients.replay import Boards, Played, ReplayEngine
from croupier.conformance.vectors import LoadedVector, load_corpus
from tests.clients.test_replay import bad, certify

# --- the toy: a wheel that pays, in its own words ---------------------------------------------

RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
ODDS = {"plein": 35, "cheval": 17, "transversale": 11, "carre": 8, "quatre": 8, "sixain": 5}
ODDS |= {"colonne": 2, "douzaine": 2} | dict.fromkeys(
    ["rouge", "noir", "pair", "impair", "manque", "passe"], 1
)


def covered(kind: str, numbers: list[int], group: int) -> set[int]:
    if numbers:
        return set(numbers)
    wheel = set(range(1, 37))
    return {
        "colonne": {n for n in wheel if n % 3 == group % 3},
        "douzaine": set(range(12 * group - 11, 12 * group + 1)),
        "rouge": RED,
        "noir": wheel - RED,
        "pair": {n for n in wheel if n % 2 == 0},
        "impair": {n for n in wheel if n % 2},
        "manque": set(range(1, 19)),
        "passe": set(range(19, 37)),
    }[kind]


def toy_spin(pocket: int, bets: list[tuple[str, list[int], int, int]]) -> list[int]:
    """What each bet (kind, numbers, group, stake) returns when the ball lands on ``pocket``."""
    return [
        stake * (ODDS[kind] + 1) if pocket in covered(kind, numbers, group) else 0
        for kind, numbers, group, stake in bets
    ]


# --- the wrapper --------------------------------------------------------------------------------

KINDS = NameMap(
    {
        "straight": "plein",
        "split": "cheval",
        "street": "transversale",
        "corner": "carre",
        "first-four": "quatre",
        "line": "sixain",
        "column": "colonne",
        "dozen": "douzaine",
        "red": "rouge",
        "black": "noir",
        "even": "pair",
        "odd": "impair",
        "low": "manque",
        "high": "passe",
    },
    what="bet kind",
)


def play(deal: DealInput, decisions: tuple[DecisionInput, ...]) -> Played:
    bets = [(index, bet) for index, seat in enumerate(deal.seats) for bet in seat.bets]
    pocket = deal.pocket or ""
    back = toy_spin(
        int(pocket),
        [(KINDS.engine(b.kind), [int(p) for p in b.pockets], b.group, b.stake) for _, b in bets],
    )
    return Played(
        table=RouletteView(pocket=pocket, history=()),
        payouts=[
            Line(seat=seat, bet=line_label(bet), stake=bet.stake, returned=returned)
            for (seat, bet), returned in zip(bets, back, strict=True)
        ],
    )


# --- the tests ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spins() -> list[LoadedVector]:
    """Roulette-c vectors of no refusal: a campaign of 20 spins at one table among them."""
    return [
        v
        for v in load_corpus()
        if v.vector.profile_id == "roulette-c"
        and not v.vector.other_profile_ids
        and not any(r.expected_error or r.after_settle for r in v.vector.rounds)
    ][:12]


def results(engine: ReplayEngine, vectors: list[LoadedVector]) -> list[tuple[str, str, str]]:
    return [r[:3] for r in bad(certify(engine, vectors))]


def test_the_toy_wheel_certifies_with_the_kits_board(spins: list[LoadedVector]) -> None:
    assert any(len(v.vector.rounds) >= 20 for v in spins)
    engine = ReplayEngine(
        name="toy-wheel", version="1", profile_ids=("roulette-c",), play=play, boards=Boards(13)
    )
    assert results(engine, spins) == []


def test_without_a_board_the_board_is_what_fails(spins: list[LoadedVector]) -> None:
    engine = ReplayEngine(name="toy-wheel", version="1", profile_ids=("roulette-c",), play=play)
    failures = results(engine, spins)
    assert failures
    assert {(outcome, clause) for _, outcome, clause in failures} == {("FAIL", "C.rou.history")}
