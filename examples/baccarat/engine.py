"""pybaccarat 0.10 (PyPI) served as a Croupier engine, under ``examples/baccarat/profile.toml``.

pybaccarat plays one coup with ``Game.play_hand``: from a ``Shoe`` of its ``Card`` objects it
deals player, banker, player, banker (BAC.deal, the contract's order), draws each third card
by ``Hand.need_hit`` and names the winner ``"P"``, ``"B"`` or ``"T"``. It takes no bets, so
``PAYS`` (document D's pay table, the lab profile's) turns the winner into amounts: that table
is the lab's, not the engine's. Run: ``python examples/baccarat/engine.py [--port N]``.
"""

from __future__ import annotations

import math
from fractions import Fraction

from pybaccarat.baccarat import Game, Hand
from pybaccarat.playingcards import Card, Shoe

from croupier.clients import adapter, mappings, replay
from croupier.clients.adapter import BaccaratView, DealInput, DecisionInput, EngineError, Line

# pybaccarat is Python 2 code (its README: "Run ... with Python 2.7.13"): play_hand compares
# hands with < and >, which Python 2 derived from Hand.__cmp__ and Python 3 does not. These
# two lines restore them from the engine's own __cmp__; without them every coup raises.
Hand.__lt__ = lambda self, other: self.__cmp__(other) < 0
Hand.__gt__ = lambda self, other: self.__cmp__(other) > 0

WINNER = {"P": "player", "B": "banker", "T": "tie"}
#: What a winning bet returns per unit staked, stake included: 1:1, 1:1 less 5%, 8:1.
PAYS = {"player": Fraction(2), "banker": Fraction(195, 100), "tie": Fraction(9)}
RANKS = "A23456789TJQK"


def engine_card(card: str) -> Card:
    """A contract card (``"TH"``) as pybaccarat's ``Card(rank 1-13, suit "cdhs")``."""
    return Card(RANKS.index(card[0]) + 1, card[1].lower())


def cards(hand: Hand) -> list[str]:
    """A hand's cards as the contract writes them (pybaccarat's ``str`` is ``"Th"``)."""
    shown = [hand.get_card(i) for i in range(3)]
    return [str(card)[0] + str(card)[1].upper() for card in shown if card is not None]


def returned(bet: str, stake: int, winner: str) -> int:
    """The lab's pay table: a winning bet is paid, a tie pushes player and banker bets."""
    if bet == winner:
        return math.floor(stake * PAYS[bet])  # MONEY.rounding: down
    return stake if winner == "tie" else 0


def play(deal: DealInput, decisions: tuple[DecisionInput, ...]) -> replay.Played:
    """One coup on pybaccarat, paid by the lab's pay table (a coup takes no decision)."""
    del decisions
    shoe = deal.shoe or ()
    player, banker = Hand(), Hand()
    try:
        win, _diff, _bonus = Game(Shoe([engine_card(c) for c in shoe]), player, banker).play_hand()
    except ValueError as exc:
        # Hand.add(None): pybaccarat's Shoe.deal gives None once it is empty.
        if len(cards(player)) + len(cards(banker)) < len(shoe):
            raise
        # "needed": four for a shoe that cannot make the first deal, else the missing card's place.
        needed = 4 if len(shoe) < 4 else len(shoe) + 1
        raise EngineError("SHOE_EXHAUSTED", f"the shoe ran out: {exc}", needed=needed) from None
    winner = WINNER[win]
    lines = [
        Line(
            seat=s,
            bet=mappings.line_label(bet),
            stake=bet.stake,
            returned=returned(bet.kind, bet.stake, winner),
        )
        for s, seat in enumerate(deal.seats)
        for bet in seat.bets
    ]
    table = BaccaratView(
        player_cards=cards(player),
        banker_cards=cards(banker),
        player_total=player.value(),
        banker_total=banker.value(),
        outcome=winner,
    )
    dealt = len(table.player_cards) + len(table.banker_cards)
    return replay.Played(table=table, payouts=lines, cards_dealt=dealt)


ENGINE = replay.ReplayEngine(
    name="pybaccarat", version="0.10", profile_ids=("pybaccarat",), play=play
)

if __name__ == "__main__":
    adapter.main(ENGINE)
