"""The clause IDs of RULES.md, each with the game it belongs to and a short title.

Code, profiles, vectors and reports cite rules by these IDs; citing an ID not
listed here is an error.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from oracle.errors import ProfileError


class Game(enum.Enum):
    """The three games the oracle knows."""

    BLACKJACK = "blackjack"
    BACCARAT = "baccarat"
    ROULETTE = "roulette"


@dataclass(frozen=True, slots=True, kw_only=True)
class Clause:
    """One numbered rule of RULES.md."""

    id: str
    game: Game
    title: str


_BJ, _BAC, _ROU = Game.BLACKJACK, Game.BACCARAT, Game.ROULETTE

CLAUSES: tuple[Clause, ...] = tuple(
    Clause(id=cid, game=game, title=title)
    for cid, game, title in (
        ("BJ.values", _BJ, "Card values; an ace counts 11 unless that busts; soft hands"),
        ("BJ.deal", _BJ, "Two cards to each seat, an up card and a hole card to the dealer"),
        ("BJ.deal-order", _BJ, "The contract's dealing order, split hands dealt as they start"),
        ("BJ.bust", _BJ, "A hand over 21 loses at once"),
        ("BJ.auto-stand", _BJ, "A hand that reaches 21 stands; a blackjack has no decisions"),
        ("BJ.dealer-needed", _BJ, "The dealer draws only if some hand waits for its total"),
        ("BJ.half-stakes", _BJ, "Insurance stake and surrender refund are half, rounded down"),
        ("BJ.natural", _BJ, "A blackjack is an ace and a ten-valued card as the first two"),
        ("BJ.compare", _BJ, "Higher total wins 1:1, dealer bust pays, equal totals push"),
        ("BJ.nat-pays", _BJ, "A blackjack pays 3:2 unless the dealer has one too"),
        ("BJ.funds", _BJ, "Extra stakes need the seat's uncommitted funds"),
        ("A.double", _BJ, "A: double any two-card hand but a blackjack, one card"),
        ("A.split", _BJ, "A: split same rank or two pictures; two hands at most"),
        ("A.dealer-draw", _BJ, "A: dealer draws to 16, stands on every 17 (assumed)"),
        ("A.peek", _BJ, "A: dealer peeks under an ace or a ten before the player acts"),
        ("A.nat-immediate", _BJ, "A: a blackjack against 2-9 is paid at once"),
        ("A.even-money", _BJ, "A: a blackjack against an ace is offered even money"),
        ("A.nat-vs-ten", _BJ, "A: a blackjack against a ten waits for the dealer's reveal"),
        ("A.insurance", _BJ, "A: insurance of half the stake against an ace, pays 2:1"),
        ("A.surrender", _BJ, "A: no surrender"),
        ("C.bj.dealer-draw", _BJ, "C: dealer stands on 17 to 21, draws on 16 or less"),
        ("C.bj.double", _BJ, "C: double on the first two cards, also after a split"),
        ("C.bj.split", _BJ, "C: split same rank only; split 21 is not a blackjack"),
        ("C.bj.surrender", _BJ, "C: surrender the first two cards for half the stake"),
        ("C.bj.insurance", _BJ, "C: insurance pays 2:1; no double or split after it"),
        ("C.bj.peek", _BJ, "C: peek only under an ace; a late dealer blackjack takes all"),
        ("C.bj.no-withdraw", _BJ, "C: stakes cannot be withdrawn once cards are dealt"),
        ("BAC.values", _BAC, "Ace 1, 2-9 face, tens and pictures 0; total modulo 10"),
        ("BAC.deal", _BAC, "Player, banker, player, banker; third cards player first"),
        ("BAC.natural", _BAC, "An 8 or 9 on two cards: both hands stand"),
        ("BAC.player-draw", _BAC, "The player draws on 0-5, stands on 6-7"),
        ("BAC.banker-stood", _BAC, "Player stood: banker draws on 0-5, stands on 6-7"),
        ("BAC.banker-tableau", _BAC, "Player drew: banker acts by the tableau"),
        ("BAC.outcome", _BAC, "The higher value wins; equal values tie"),
        ("BAC.pay-player", _BAC, "A winning player bet pays 1:1"),
        ("BAC.pay-banker", _BAC, "A winning banker bet pays 1:1 less 5% commission"),
        ("BAC.pay-tie", _BAC, "A winning tie bet pays 8:1"),
        ("BAC.tie-push", _BAC, "On a tie, player and banker bets push"),
        ("B.decks", _BAC, "B: eight decks"),
        ("B.tableau", _BAC, "B: the banker's tableau as printed"),
        ("B.limits", _BAC, "B: bets within the table limits"),
        ("C.bac.decks", _BAC, "C: six decks, a fresh shoe every round"),
        ("D.decks", _BAC, "D: decks not stated, eight assumed"),
        ("C.rou.wheel", _ROU, "Pockets, colours, layout, bets and their odds"),
        ("C.rou.zero-loses", _ROU, "Zero makes outside bets lose"),
        ("C.rou.geometry", _ROU, "A bet that is not a shape of the layout is refused"),
        ("C.rou.history", _ROU, "The board shows the 13 previous results"),
    )
)

BY_ID: dict[str, Clause] = {clause.id: clause for clause in CLAUSES}


def clause(clause_id: str) -> Clause:
    """The clause with this ID; ``ProfileError`` if RULES.md has no such clause."""
    try:
        return BY_ID[clause_id]
    except KeyError:
        raise ProfileError(f"unknown clause {clause_id!r}", clause=clause_id) from None
