"""A player decision: what the contract lets a player decide, and to which hand.

Only blackjack takes decisions today; the round and the other games speak of them too (a
baccarat or roulette round offers none), so they live here rather than in one game.
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.oracle.immutable import Choice


class Action(Choice):
    """A player decision (DESIGN.md "Rounds, seats, money")."""

    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    INSURANCE = "insurance"
    DECLINE_INSURANCE = "decline-insurance"
    EVEN_MONEY = "even-money"
    DECLINE_EVEN_MONEY = "decline-even-money"
    #: Keep the hand when early surrender is asked before the dealer's look (VAR.bj.surrender).
    DECLINE_SURRENDER = "decline-surrender"


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """One decision, addressed to the seat and hand whose turn it is."""

    seat: int
    hand: int
    action: Action
    #: The extra stake a double for less puts down (VAR.bj.double-for-less), or an insurance
    #: stake below half (VAR.bj.insurance-stake), in minor units; None for the full amount.
    amount: int | None = None
