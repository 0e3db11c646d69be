"""The replay adapter at a baccarat table: a toy coup that deals the player's two cards first.

The contract deals player, banker, player, banker (BAC.deal); the toy deals both of the
player's cards, then the banker's, so its shoe is reordered with ``mappings.Shoe(order=...)``.
Its bets are ``punto``, ``banco`` and ``egalite``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from croupier.clients.adapter import BaccaratView, DealInput, DecisionInput, Line
from croupier.clients.mappings import NameMap, Shoe
from croupier.clients.replay import Played, ReplayEngine
from croupier.conformance.vectors import LoadedVector, load_corpus
from tests.clients.test_replay import bad, certify

# --- the toy --------------------------------------------------------------------------------


def points(cards: list[str]) -> int:
    return sum(int(c[0]) if c[0].isdigit() else 1 if c[0] == "A" else 0 for c in cards) % 10


def banker_draws(banker: int, third: int | None) -> bool:
    if third is None:
        return banker <= 5
    return banker <= 2 or {3: third != 8, 4: 2 <= third <= 7, 5: 4 <= third <= 7}.get(
        banker, banker == 6 and third in (6, 7)
    )


def coup(
    deck: Iterator[str], bets: list[tuple[str, int]]
) -> tuple[list[str], list[str], list[int]]:
    """Deal a coup (the player's two cards, then the banker's) and pay each (bet, stake)."""
    player = [next(deck), next(deck)]
    banker = [next(deck), next(deck)]
    if max(points(player), points(banker)) < 8:
        third = None
        if points(player) <= 5:
            player.append(next(deck))
            third = points(player[2:])
        if banker_draws(points(banker), third):
            banker.append(next(deck))
    p, b = points(player), points(banker)
    won = "egalite" if p == b else "punto" if p > b else "banco"
    paid = []
    for bet, stake in bets:
        if won == "egalite" and bet != "egalite":
            paid.append(stake)
        elif bet != won:
            paid.append(0)
        else:
            paid.append(
                {"punto": 2 * stake, "banco": stake + stake * 95 // 100}.get(bet, 9 * stake)
            )
    return player, banker, paid


# --- the wrapper ----------------------------------------------------------------------------

BETS = NameMap({"player": "punto", "banker": "banco", "tie": "egalite"}, what="bet")


def play(deal: DealInput, decisions: tuple[DecisionInput, ...]) -> Played:
    shoe = Shoe(deal.shoe or (), order=[0, 2, 1, 3], floor=4)  # the toy's first four
    bets = [(seat, bet) for seat, s in enumerate(deal.seats) for bet in s.bets]
    player, banker, paid = coup(shoe, [(BETS.engine(b.kind), b.stake) for _, b in bets])
    p, b = points(player), points(banker)
    return shoe.contract(
        Played(
            table=BaccaratView(
                player_cards=player,
                banker_cards=banker,
                player_total=p,
                banker_total=b,
                outcome="tie" if p == b else "player" if p > b else "banker",
            ),
            payouts=[
                Line(seat=seat, bet=bet.kind, stake=bet.stake, returned=returned)
                for (seat, bet), returned in zip(bets, paid, strict=True)
            ],
        )
    )


# --- the test -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def coups() -> list[LoadedVector]:
    """Baccarat-c vectors of no refusal: every hand-written one, and the first 100 coups of
    the campaign (naturals, both third cards, ties and the commission among them)."""
    playable = [
        v
        for v in load_corpus()
        if v.vector.profile_id == "baccarat-c"
        and not v.vector.other_profile_ids
        and not any(r.expected_error or r.after_settle for r in v.vector.rounds)
    ]
    hand = [v for v in playable if "-h" in v.vector.id]
    return hand + [v for v in playable if v not in hand][:100]


def test_the_toy_coup_certifies_through_the_replay_adapter(coups: list[LoadedVector]) -> None:
    engine = ReplayEngine(name="toy-coup", version="1", profile_ids=("baccarat-c",), play=play)
    report = certify(engine, coups)
    assert bad(report) == []
    assert len(coups) > 100  # the hand-written ones too
