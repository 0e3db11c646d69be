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


@dataclass(frozen=True, slots=True, kw_only=True, init=False)
class Decision:
    """One decision, addressed to the seat and hand whose turn it is."""

    seat: int
    hand: int
    action: Action
    #: The extra stake a double for less puts down (VAR.bj.double-for-less), or an insurance
    #: stake below half (VAR.bj.insurance-stake), in minor units; None for the full amount.
    amount: int | None = None

    # Written out (init=False): mypyc compiles it, where a generated __init__ runs as Python
    # (``oracle.immutable``); a round takes one at every step.
    def __init__(self, *, seat: int, hand: int, action: Action, amount: int | None = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "amount", amount)
