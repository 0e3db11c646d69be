"""Baccarat: the coup from a forced shoe, and the payout of player, banker and tie bets."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from croupier.clients.adapter import BaccaratView, EngineError, Line, RoundView, SeatInput
from croupier.clients.demo_engine.cards import TEN_VALUED, Shoe, check_deal_length, rank
from croupier.clients.demo_engine.house import House
from croupier.clients.demo_engine.rules import BaccaratRules


@dataclass(slots=True)
class Coup:
    """One coup and the bets on it; ``outcome`` is player, banker or tie."""

    player: list[str]
    banker: list[str]
    player_total: int
    banker_total: int
    outcome: str
    cards_dealt: int
    #: One line per bet, in seat order then in the order the seat gave them.
    lines: list[Line]


class BaccaratDealer(House):
    """Deals and pays baccarat coups under a ``BaccaratRules`` table."""

    def baccarat_value(self, card: str) -> int:
        """Ace 1, two to nine their face, tens and pictures 0."""
        return 0 if rank(card) in TEN_VALUED else 1 if rank(card) == "A" else int(rank(card))

    def coup_total(self, cards: Sequence[str]) -> int:
        """A hand's value: its points modulo 10."""
        return sum(self.baccarat_value(card) for card in cards) % 10

    def tableau_value(self, card: str) -> int:
        """The player's third card as the banker's tableau reads it: its baccarat value."""
        return self.baccarat_value(card)

    def is_natural(self, total: int) -> bool:
        """An 8 or 9 on two cards: both hands stand."""
        return total >= 8

    def player_draws(self, total: int) -> bool:
        """The player draws on 0 to 5 and stands on 6 and 7."""
        return total <= 5

    def banker_draws(self, rules: BaccaratRules, total: int, player_third: str | None) -> bool:
        """The banker's rule: by its total alone if the player stood; else it draws on 0-2, stands on 7, and between reads the tableau."""
        if player_third is None:
            return total < rules.banker_stands_on
        if total <= 2 or total >= 7:
            return total <= 2
        return self.tableau_value(player_third) in rules.tableau[total]

    def deal_pairs(self, shoe: Shoe) -> tuple[list[str], list[str]]:
        """Two cards to each hand: player, banker, player, banker."""
        player, banker = [shoe.draw()], [shoe.draw()]
        player.append(shoe.draw())
        banker.append(shoe.draw())
        return player, banker

    def naturals_stop(self, player_total: int, banker_total: int) -> bool:
        """A natural in either hand ends the coup on two cards each."""
        return self.is_natural(player_total) or self.is_natural(banker_total)

    def play_coup(self, rules: BaccaratRules, shoe: Shoe) -> tuple[list[str], list[str]]:
        """Two cards each; then the player's third card, then the banker's."""
        player, banker = self.deal_pairs(shoe)
        player_total, banker_total = self.coup_total(player), self.coup_total(banker)
        if self.naturals_stop(player_total, banker_total):
            return player, banker
        third = None
        if self.player_draws(player_total):
            third = shoe.draw()
            player.append(third)
        if self.banker_draws(rules, banker_total, third):
            banker.append(shoe.draw())
        return player, banker

    def coup_outcome(self, player_total: int, banker_total: int) -> str:
        """The higher value wins; equal values are a tie."""
        if player_total == banker_total:
            return "tie"
        return "player" if player_total > banker_total else "banker"

    def bet_returns(self, rules: BaccaratRules, kind: str, stake: int, outcome: str) -> int:
        """What one bet returns, stake included."""
        if kind == "tie":
            return self.win(stake, rules.tie_payout) if outcome == "tie" else 0
        if outcome == "tie":
            return stake if rules.tie_pushes else 0
        if kind != outcome:
            return 0
        if kind == "banker":
            return self.banker_returns(rules, stake)
        return self.win(stake, rules.player_payout)

    def banker_returns(self, rules: BaccaratRules, stake: int) -> int:
        """A winning banker bet: 1:1 less the commission, taken on the win (0.95:1)."""
        return self.win(stake, rules.banker_payout * (1 - rules.banker_commission))

    def banker_variant_returns(
        self, rules: BaccaratRules, stake: int, banker: Sequence[str], banker_total: int
    ) -> int | None:
        """A winning banker bet a house variant pays apart, else None.

        A 6 at its own odds (Super 6); with no commission (EZ), a three-card 7 pushes.
        """
        if rules.banker_six_payout is not None and banker_total == 6:
            return self.win(stake, rules.banker_six_payout)
        if rules.no_commission and banker_total == 7 and len(banker) == 3:
            return stake
        return None

    def coup_bet_returns(self, rules: BaccaratRules, bet: str, stake: int, coup: Coup) -> int:
        """What one bet returns on the coup, the house's banker variants first."""
        if bet == "banker" and coup.outcome == "banker":
            special = self.banker_variant_returns(rules, stake, coup.banker, coup.banker_total)
            if special is not None:
                return special
        return self.bet_returns(rules, bet, stake, coup.outcome)

    def deal_baccarat(
        self, rules: BaccaratRules, seats: Sequence[SeatInput], shoe: tuple[str, ...]
    ) -> Coup:
        """Check the bets and the shoe, deal the coup and pay every bet."""
        for index, seat in enumerate(seats):
            kinds = [bet.kind for bet in seat.bets]
            for kind in kinds:
                if kinds.count(kind) > 1:
                    raise EngineError(
                        "INVALID_ROUND",
                        f"seat {index} has more than one {kind} bet",
                        seat=index,
                        bet=kind,
                    )
            self.check_stakes(
                index,
                seat.balance,
                [(bet.kind, bet.stake) for bet in seat.bets],
                (rules.min_bet, rules.max_bet),
            )
        self.check_shoe(shoe, rules.decks)
        # Two cards to each hand before any third (BAC.deal).
        check_deal_length(shoe, 4)
        dealt = Shoe(shoe)
        player, banker = self.play_coup(rules, dealt)
        player_total, banker_total = self.coup_total(player), self.coup_total(banker)
        outcome = self.coup_outcome(player_total, banker_total)
        coup = Coup(
            player=player,
            banker=banker,
            player_total=player_total,
            banker_total=banker_total,
            outcome=outcome,
            cards_dealt=dealt.dealt,
            lines=[],
        )
        coup.lines.extend(
            Line(
                seat=index,
                bet=bet.kind,
                stake=bet.stake,
                returned=self.coup_bet_returns(rules, bet.kind, bet.stake, coup),
            )
            for index, seat in enumerate(seats)
            for bet in seat.bets
        )
        return coup

    def view_baccarat(self, coup: Coup) -> RoundView:
        """A coup is complete as soon as it is dealt."""
        return RoundView(
            phase="complete",
            cards_dealt=coup.cards_dealt,
            table=BaccaratView(
                player_cards=coup.player,
                banker_cards=coup.banker,
                player_total=coup.player_total,
                banker_total=coup.banker_total,
                outcome=coup.outcome,
            ),
        )
