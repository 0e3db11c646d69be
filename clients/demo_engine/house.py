"""What every table of the house shares: money arithmetic and the checks on a seat's stakes."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from croupier.clients.adapter import EngineError
from croupier.clients.demo_engine.cards import check_composition


class House:
    """Money and stake checks; the game dealers build on them."""

    def check_shoe(self, shoe: Sequence[str], decks: int) -> None:
        """No card more often than the table's decks hold (``SHOE_NOT_IN_PROFILE``)."""
        check_composition(shoe, decks)

    def round_money(self, exact: Fraction) -> int:
        """A payout that is not a whole number of minor units is rounded down, in the house's favour."""
        return math.floor(exact)

    def half_stake(self, stake: int) -> int:
        """Half a stake (insurance, surrender refund), rounded down to the minor unit."""
        return stake // 2

    def win(self, stake: int, odds: Fraction) -> int:
        """What a winning bet returns: the stake plus ``stake * odds``, rounded once."""
        return self.round_money(stake + stake * odds)

    def check_stakes(
        self, seat: int, balance: int, stakes: Sequence[tuple[str, int]], limits: tuple[int, int]
    ) -> None:
        """A seat's opening stakes: at least one, within the limits, covered by its balance.

        A stake of 0 or less is below the minimum, like any other stake under it.
        """
        if not stakes:
            raise EngineError("INVALID_ROUND", f"seat {seat} has no bet", seat=seat)
        low, high = limits
        for bet, stake in stakes:
            if not low <= stake <= high:
                raise EngineError(
                    "BET_OUT_OF_LIMITS",
                    f"seat {seat}: the {bet} stake {stake} is outside the limits {low} to {high}",
                    seat=seat,
                    bet=bet,
                    amount=stake,
                    min_bet=low,
                    max_bet=high,
                )
        total = sum(stake for _, stake in stakes)
        if total > balance:
            raise EngineError(
                "INSUFFICIENT_BALANCE",
                f"seat {seat}: stakes of {total} exceed the balance of {balance}",
                seat=seat,
                stake=total,
                balance=balance,
            )
