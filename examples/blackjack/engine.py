"""blackjack21 5.0.0 (PyPI) served as a Croupier engine, under ``examples/blackjack/profile.toml``.

blackjack21's ``Table`` seats one player per seat, deals from any ``CardSource`` and plays by
``hit``, ``stand``, ``double_down``, ``split`` and ``surrender``, offering what
``available_actions`` lists; it names each hand's result (``GameResult``) but keeps no money,
so ``PAYS`` (the lab profile's odds) turns a result into an amount. It gives both hands of a
split their second card at once; ``mappings.DealOrder`` maps that to the contract's order.
Each Decide replays the round from the Deal (``clients.replay``).
Run: ``python examples/blackjack/engine.py [--port N]``.
"""

from __future__ import annotations

from fractions import Fraction

from blackjack21 import Card, GameResult, GameState, InvalidPlayersData, Table
from blackjack21.deck import DEFAULT_RANKS

from croupier.clients import adapter, mappings, replay
from croupier.clients.adapter import (
    BlackjackView,
    DealInput,
    DecisionInput,
    EngineError,
    HandView,
    Line,
    SeatView,
)

SUITS = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
#: What a hand returns per unit staked, stake included, by its result: the lab's pay table.
PAYS = {
    GameResult.BLACKJACK: Fraction(5, 2),
    GameResult.PLAYER_WIN: Fraction(2),
    GameResult.DEALER_BUST: Fraction(2),
    GameResult.PUSH: Fraction(1),
    GameResult.SURRENDER: Fraction(1, 2),  # BJ.half-stakes: rounded down, as every amount
    GameResult.PLAYER_BUST: Fraction(0),
    GameResult.DEALER_WIN: Fraction(0),
}
ORDER = mappings.DealOrder(split="at-split")


class Source:
    """The round's shoe as blackjack21's ``CardSource``: its cards in the engine's order."""

    def __init__(self, shoe: mappings.Shoe) -> None:
        self.shoe = shoe

    def draw_card(self) -> Card:
        """The next card, as blackjack21 spells it (``"10"`` of ``"Hearts"``)."""
        text = self.shoe.draw()
        rank = "10" if text[0] == "T" else text[0]
        return Card(SUITS[text[1]], rank, DEFAULT_RANKS[rank])

    def __len__(self) -> int:
        return len(self.shoe.cards) - len(self.shoe.taken)


def text(card: Card) -> str:
    """A blackjack21 card as the contract writes it (``"TH"``)."""
    return str("T" if card.rank == "10" else card.rank) + str(card.suit)[0]


def play(deal: DealInput, decisions: tuple[DecisionInput, ...]) -> replay.Played:
    """Deal on a fresh blackjack21 table and take every decision so far, in order."""
    shoe = ORDER.shoe(deal, decisions)
    players = [(f"seat {s}", seat.bets[0].stake) for s, seat in enumerate(deal.seats)]
    try:
        table = Table(players, Source(shoe))
    except InvalidPlayersData:  # validate_player: a bet of 0 or less
        s = next(s for s, (_, bet) in enumerate(players) if bet <= 0)
        raise EngineError(
            "BET_OUT_OF_LIMITS", f"seat {s}: blackjack21 takes no bet of 0 or less", seat=s
        ) from None
    table.start_game()
    moves = {"hit": table.hit, "stand": table.stand, "double": table.double_down}
    moves |= {"split": table.split, "surrender": table.surrender}
    for decision in decisions:
        moves[decision.kind]()
    over = table.state is GameState.ROUND_OVER
    # The engine shows the hand in play only as an object (current_hand); its indexes are private.
    turn = None if over else (table._current_player_idx, table._current_hand_idx)  # noqa: SLF001
    seats, lines = [], []
    for s, player in enumerate(table.players):
        hands = []
        for h, hand in enumerate(player.hands):
            split = len(player.hands) > 1
            if hand.surrendered or hand.bust:
                status = "surrendered" if hand.surrendered else "bust"
            elif len(hand) == 2 and hand.total == 21 and not split:  # blackjack21's own test
                status = "blackjack"
            else:
                status = "stood" if hand.is_complete else "playing"
            stake = deal.seats[s].bets[0].stake
            hands.append(
                HandView(
                    cards=[text(c) for c in hand],
                    stake=hand.bet,
                    status=status,
                    doubled=hand.bet != stake,
                    from_split=split,
                )
            )
            if over and hand.result is not None:
                won = int(hand.bet * PAYS[hand.result])  # MONEY.rounding: down
                lines.append(Line(seat=s, bet=mappings.hand_label(h), stake=hand.bet, returned=won))
        seats.append(SeatView(hands=hands))
    view = BlackjackView(
        seats=seats,
        dealer_cards=[text(c) for c in table.dealer_visible_hand],
        hole_card_hidden=table.state not in (GameState.DEALER_TURN, GameState.ROUND_OVER),
    )
    legal = sorted(action.value for action in table.available_actions())
    played = replay.Played(table=view, legal=legal, turn=turn, payouts=lines if over else None)
    return shoe.contract(played)


ENGINE = replay.ReplayEngine(
    name="blackjack21", version="5.0.0", profile_ids=("blackjack21",), play=play
)

if __name__ == "__main__":
    adapter.main(ENGINE)
