"""Explore's aims: which cells come first, and which form each visit to a cell takes.

No engine: the draws are the oracle's, and what a draw aims at depends on the seed and on what
the oracle's answers reached alone (``conformance.explore.search``).
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from croupier.conformance.explore import search
from croupier.conformance.explore.coverage import aim_order, cells, tableau_edges
from croupier.conformance.explore.rounds import explored_vector, near_misses
from croupier.conformance.v1 import vector_pb2
from croupier.oracle.cards import Card
from croupier.oracle.profile import shipped_profile, shipped_profiles
from croupier.oracle.roulette import BetKind, Wheel

PROFILES = shipped_profiles()


def _aimed(profile_id: str, aim: str, source: int = 0) -> vector_pb2.Vector:
    strategy = explored_vector(shipped_profile(profile_id), "v", PROFILES, aim)
    vector, _ = search._draw_once(strategy, source, None)
    return vector


def _total(cards: Any) -> int:
    """A blackjack total, aces soft when they can be (BJ.values)."""
    ranks = [Card.parse(c).rank for c in cards]
    hard = sum(min(r.pip, 10) for r in ranks)
    return hard + 10 if any(r.pip == 1 for r in ranks) and hard + 10 <= 21 else hard


# --- roulette: near misses and bet kinds ---------------------------------------------------


def test_a_near_miss_takes_each_edge_of_the_layout_in_turn() -> None:
    # C.rou.geometry: a split is two numbers side by side. Pushed over each edge in turn:
    # across a row's end, a row's two ends, a diagonal, two rows apart, a zero's wrong
    # neighbour; then the next of each.
    splits = near_misses(Wheel.EUROPEAN)[BetKind.SPLIT]
    assert splits[:6] == ((3, 4), (1, 3), (1, 5), (1, 7), (0, 4), (6, 7))
    # US.rou.geometry: on the American layout, the European 0-3 comes first.
    assert near_misses(Wheel.AMERICAN)[BetKind.SPLIT][0] == (0, 3)


@pytest.mark.parametrize("wheel", list(Wheel))
def test_near_misses_of_the_wheels_own_numbers_come_before_those_off_it(wheel: Wheel) -> None:
    for kind, misses in near_misses(wheel).items():
        off = [all(map(wheel.has, numbers)) for numbers in misses]
        assert off == sorted(off, reverse=True), kind


def test_a_bet_kinds_first_visit_places_the_zero_shapes_and_wins() -> None:
    # C.rou.wheel: the European zero's splits are 0-1, 0-2 and 0-3; four splits a visit, the
    # spin in the first one's numbers.
    (vround,) = _aimed("roulette-c", "bet:split#0").rounds
    bets = [tuple(bet.roulette.pockets) for bet in vround.deal.seats[0].bets[:4]]
    assert bets[:3] == [("0", "1"), ("0", "2"), ("0", "3")]
    assert "0" not in bets[3]
    assert vround.deal.spin.pocket in ("0", "1")
    # The next visit, the next four: none on the zero.
    (vround,) = _aimed("roulette-c", "bet:split#1").rounds
    assert all("0" not in bet.roulette.pockets for bet in vround.deal.seats[0].bets[:4])


def test_a_search_shares_its_rounds_between_the_cells_it_aims_at() -> None:
    # A full board (history:full, 14 spins or more) takes its turn less often than a spin.
    found = _search("roulette-c", 400)
    assert found.visits["history:full"] >= 1
    assert found.visits["history:full"] < found.visits["bet:red"] / 3
    # Every cell the search may aim at had its turn, reached by chance or not.
    assert all(found.visits[c] for group in found.groups for c in group)


def _search(profile_id: str, rounds: int) -> Any:
    profile = shipped_profile(profile_id)
    live = SimpleNamespace(config=search.ExploreConfig(profiles=[profile], rounds=rounds))
    partners = [profile, *(p for p in PROFILES if p.id != profile_id)]
    found = search._Search(None, live, profile, partners)  # type: ignore[arg-type]
    while found.drawn < rounds:
        found.draw()
    return found


# --- baccarat: the tableau's edges -----------------------------------------------------------


def test_the_tableaus_edges_are_where_the_bankers_decision_turns() -> None:
    # BAC.banker-tableau: with 4 the banker draws on a third card of 2 to 7, with 5 on 4 to
    # 7, with 6 on 6 or 7; B.tableau draws on an ace too at 4, 5 and 6. BAC.banker-stood: with
    # the player stood, the banker draws on 5 and stands on 6.
    standard = tableau_edges(shipped_profile("baccarat-c"))
    assert {"tableau:4:1", "tableau:4:2", "tableau:4:7", "tableau:4:8"} <= standard
    assert {"tableau:5:1", "tableau:6:1", "stood:5", "stood:6"} <= standard
    assert not {"tableau:0:5", "tableau:7:3", "tableau:4:4", "stood:2"} & standard
    document_b = tableau_edges(shipped_profile("baccarat-b"))
    assert {"tableau:4:0", "tableau:4:1", "tableau:5:1", "tableau:6:1"} <= document_b
    assert not tableau_edges(shipped_profile("blackjack-a"))


def test_aims_come_by_tier_pairs_before_soft_totals_edges_before_the_tableau() -> None:
    shuffle = random.Random(1).shuffle  # noqa: S311 - an order for the test
    bja = shipped_profile("blackjack-a")
    shapes = aim_order(cells(bja), shuffle)[2]
    assert [c.split(":")[0] for c in shapes] == ["pair"] * 13 + ["soft"] * 10
    bab = shipped_profile("baccarat-b")
    edges = tableau_edges(bab)
    tableau = aim_order(cells(bab), shuffle, edges)[2]
    assert set(tableau[: len(edges)]) == edges
    assert len(tableau) == 88


# --- blackjack: the forms of an aim --------------------------------------------------------


def test_a_natural_is_drawn_alone_then_beside_a_seat_that_plays_on() -> None:
    # A.nat-immediate: alone against 2 to 9 up, a blackjack is paid at once and the round
    # ends before the hole card is dealt: four cards.
    (alone,) = _aimed("blackjack-a", "natural:player#0").rounds
    assert len(alone.deal.seats) == 1
    assert alone.expected_state.cards_dealt == 4
    (beside,) = _aimed("blackjack-a", "natural:player#1").rounds
    assert len(beside.deal.seats) == 2
    assert beside.steps  # the other seat decides


def test_a_dealer_bust_is_drawn_beside_a_hand_that_busts_first() -> None:
    # BJ.bust: a hand over 21 loses, whatever the dealer does after.
    (vround,) = _aimed("blackjack-a", "dealer:bust#1").rounds
    final = vround.expected_settle.state.blackjack
    first, second = (seat.hands[0].cards for seat in final.seats)
    assert _total(first) <= 21 < _total(second)
    assert _total(final.dealer.cards) > 21


def test_a_split_is_drawn_after_insurance_and_on_two_different_tens() -> None:
    # A.insurance offers insurance against an ace up; C.bj.insurance says what may follow it.
    (insured,) = _aimed("blackjack-a", "decision:split#1").rounds
    kinds = [step.decision.kind for step in insured.steps]
    assert kinds[:2] == [6, 4]  # DECISION_KIND_INSURANCE, then DECISION_KIND_SPLIT
    (tens,) = _aimed("blackjack-c", "decision:split#0").rounds
    first = [tens.deal.shoe.cards[0], tens.deal.shoe.cards[len(tens.deal.seats) + 1]]
    assert {Card.parse(c).rank.pip for c in first} == {10}
    assert Card.parse(first[0]).rank is not Card.parse(first[1]).rank
