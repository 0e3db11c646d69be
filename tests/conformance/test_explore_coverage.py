"""Explore's coverage: the cells of each profile, what a round reaches, aims that reach each.

A cell no aimed draw reaches is a bug of the generator: every cell of every shipped profile
is drawn here, without an engine (the oracle answers every drawn round as it is drawn).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.conformance.cli import main
from croupier.conformance.explore import search
from croupier.conformance.explore.coverage import CellCoverage, cells, reached
from croupier.conformance.explore.rounds import (
    ACROSS,
    FAULTS,
    REFUSAL,
    explored_vector,
    stacked_shoe,
)
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import finish_vector, play_round
from croupier.oracle import baccarat
from croupier.oracle.cards import Card
from croupier.oracle.clauses import Game
from croupier.oracle.profile import Profile, shipped_profile, shipped_profiles
from croupier.oracle.rounds import BlackjackWager, SeatRequest
from croupier.oracle.service import convert
from croupier.v1 import engine_service_pb2, round_pb2
from tests.conformance.test_explore import DEMO, REASON

PROFILES = shipped_profiles()


def test_each_fault_is_refused_with_the_reason_the_contract_gives() -> None:
    # REASON is the contract's table, written by hand in the explore tests.
    assert {f: REFUSAL[f] for f in REASON} == REASON
    assert {f for g in FAULTS.values() for f in g} | {f for g in ACROSS.values() for f in g} == set(
        REFUSAL
    )


def test_a_profiles_cells_follow_its_rules() -> None:
    # A.surrender: document A offers no surrender; C.bj.surrender: C does. Neither re-splits
    # (max_hands 2), both insure (A.insurance, C.bj.insurance); only A has even money.
    a, c = set(cells(shipped_profile("blackjack-a"))), set(cells(shipped_profile("blackjack-c")))
    assert "decision:surrender" not in a
    assert "decision:surrender" in c
    assert "resplit" not in a | c
    assert {"insured-21", "decision:even-money"} <= a
    assert "decision:even-money" not in c
    assert {f"pair:{r}" for r in "A23456789TJQK"} <= a
    assert {f"soft:{t}" for t in range(12, 22)} <= c
    # BAC.banker-tableau: a banker total 0 to 7 by a third card of 0 to 9; BAC.banker-stood.
    bac = cells(shipped_profile("baccarat-b"))
    assert len([x for x in bac if x.startswith("tableau:")]) == 80
    assert {f"stood:{b}" for b in range(8)} <= set(bac)
    # The wheels' zeros (C.rou.wheel, US.rou.wheel); the top line is American only.
    eu, us = (
        set(cells(shipped_profile("roulette-c"))),
        set(cells(shipped_profile("roulette-american"))),
    )
    assert "pocket:0" in eu
    assert "pocket:00" not in eu
    assert {"pocket:0", "pocket:00", "bet:top-line"} <= us
    assert "bet:top-line" not in eu
    assert "near-miss:split" in eu & us
    assert "refusal:INVALID_BET_LAYOUT" in eu
    assert "refusal:INVALID_BET_LAYOUT" not in a
    # Each fault drawn is a cell; those across profiles only beside a profile of the game.
    assert {f"fault:{f}" for f in FAULTS[Game.BLACKJACK]} <= a
    assert "fault:round id of another profile" not in a
    both = cells(shipped_profile("blackjack-a"), [shipped_profile("blackjack-c")])
    assert "fault:round id of another profile" in both
    alone = cells(shipped_profile("blackjack-a"), [shipped_profile("baccarat-b")])
    assert "fault:round id of another profile" not in alone


def _coup(shoe: list[str]) -> vector_pb2.Vector:
    profile = shipped_profile("baccarat-c")
    seat = SeatRequest(
        balance=10, wagers=(baccarat.BaccaratBet(kind=baccarat.BetKind.BANKER, amount=10),)
    )
    deal = engine_service_pb2.DealRequest(
        round_id="r0",
        profile_id=profile.id,
        table_id="t",
        currency_code="EUR",
        seats=convert.seats([seat], "EUR"),
    )
    top = [Card.parse(c).rank for c in shoe]
    deal.shoe.cards.extend(str(c) for c in stacked_shoe(profile.integer("decks"), top, 0))
    vector = vector_pb2.Vector(id="v", profile_id=profile.id)
    vector.rounds.append(play_round(profile, deal, [], None, taken=set()).round)
    finish_vector(vector)
    return vector


def test_a_coup_reaches_its_tableau_cell() -> None:
    # BAC.deal: player 2, banker 3, player 3, banker K: player 5 draws (BAC.player-draw) a 7;
    # the banker holds 3 and draws against a 7 (BAC.banker-tableau). The seat stakes its whole
    # balance, 10: neither limit of the table (1 to 1,000,000).
    profile = shipped_profile("baccarat-c")
    hit = reached(profile, _coup(["2H", "3H", "3S", "KH", "7C", "4D"]))
    assert {"tableau:3:7", "bet:banker", "funds:exact", "clause:BAC.banker-tableau"} <= hit
    assert not {x for x in hit if x.startswith(("stood:", "natural", "stake:"))}
    # Player 6 stands; banker 0 + 5 = 5 draws (BAC.banker-stood).
    stood = reached(profile, _coup(["6H", "TH", "KS", "5H", "2C", "4D"]))
    assert "stood:5" in stood
    assert "clause:BAC.banker-stood" in stood


def test_a_blackjack_round_reaches_its_shapes() -> None:
    # blackjack-a, one seat: 8-8 against a 6 up; the seat splits, each hand stands.
    profile = shipped_profile("blackjack-a")
    deal = engine_service_pb2.DealRequest(
        round_id="r0",
        profile_id=profile.id,
        table_id="t",
        currency_code="EUR",
        seats=convert.seats([SeatRequest(balance=2, wagers=(BlackjackWager(amount=1),))], "EUR"),
    )
    top = [Card.parse(c).rank for c in ("8H", "6C", "8S", "TD", "KH", "AD", "9C")]
    deal.shoe.cards.extend(str(c) for c in stacked_shoe(profile.integer("decks"), top, 0))
    decisions = [
        round_pb2.Decision(seat=0, hand=0, kind=round_pb2.DECISION_KIND_SPLIT),
        round_pb2.Decision(seat=0, hand=0, kind=round_pb2.DECISION_KIND_STAND),  # 8-K: 18
        round_pb2.Decision(seat=0, hand=1, kind=round_pb2.DECISION_KIND_STAND),  # 8-A: soft 19
    ]
    vector = vector_pb2.Vector(id="v", profile_id=profile.id)
    vector.rounds.append(play_round(profile, deal, decisions, None, taken=set()).round)
    finish_vector(vector)
    hit = reached(profile, vector)
    assert {"pair:8", "decision:split", "decision:stand", "soft:19", "stake:min"} <= hit
    assert "clause:A.split" in hit
    # A balance of 2 for a stake of 1: the split's stake is there (BJ.funds), not staked.
    assert "funds:exact" not in hit
    # The dealer's 6 and ten is 16: a 9 busts it.
    assert "dealer:bust" in hit
    assert "decision:hit" not in hit


@pytest.mark.parametrize("prof", PROFILES, ids=lambda p: p.id)
def test_every_cell_is_reached_by_a_draw_aimed_at_it(prof: Profile) -> None:
    cover = CellCoverage.of(prof, PROFILES)
    missed = []
    rng = random.Random(prof.id)  # noqa: S311 - a test's seeds
    for cell in cover.all:
        if cell.startswith("clause:"):
            continue  # no recipe: clauses come by the way, checked below
        # A few draws at most: some faults bite only when the round waits (a Settle before
        # its end), and an aim's visits take a fault's forms in turn (``CELL#N``).
        for attempt in range(6):
            spec = explored_vector(prof, f"v{attempt}", PROFILES, f"{cell}#{attempt}")
            vector, _ = search._draw_once(spec, rng.getrandbits(64), None)
            hit = reached(prof, vector)
            cover.add(hit, 0)
            if cell in hit:
                break
        else:
            missed.append(cell)
    assert not missed
    assert not cover.unreached


def test_explore_until_covered_stops_once_every_cell_is_reached(tmp_path: Path) -> None:
    args = ["explore", "--launch", DEMO, "--profile", "blackjack-c", "--until-covered"]
    args += ["--rounds", "2000", "--json", "--out", str(tmp_path / "f.jsonl")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    (done,) = summary["profiles"]
    coverage = done["coverage"]
    assert coverage["unreached"] == []
    assert (
        coverage["reached"]
        == coverage["cells"]
        == len(cells(shipped_profile("blackjack-c"), PROFILES))
    )
    # It stopped at the round that reached the last cell, far short of the budget.
    assert done["rounds"] == coverage["covered_at"] < 2000
    assert all(count > 0 for count in coverage["counts"].values())
