"""What every game shares: table limits, seat funds, settlement lines and round steps."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from oracle.errors import BetOutOfLimitsError, InsufficientBalanceError, InvalidRoundError
from oracle.money import Payout
from oracle.profile import Profile


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Table limits on a single stake, in minor units (B.limits)."""

    min_bet: int
    max_bet: int

    @classmethod
    def of(cls, profile: Profile) -> Limits:
        """The limits a profile sets."""
        return cls(min_bet=profile.integer("min_bet"), max_bet=profile.integer("max_bet"))

    def check(self, *, seat: int, bet: str, amount: int) -> None:
        """Refuse a stake outside the limits (B.limits)."""
        if not self.min_bet <= amount <= self.max_bet:
            raise BetOutOfLimitsError(
                f"seat {seat}: the {bet} stake {amount} is outside the table limits "
                f"{self.min_bet} to {self.max_bet}",
                seat=seat,
                bet=bet,
                amount=amount,
                min_bet=self.min_bet,
                max_bet=self.max_bet,
            )


def check_seat_stakes(
    *, seat: int, balance: int, stakes: Sequence[tuple[str, int]], limits: Limits
) -> None:
    """Check a seat's opening stakes: positive, within limits, covered by its balance."""
    if balance < 0:
        raise InvalidRoundError(
            f"seat {seat}: balance {balance} is negative", seat=seat, balance=balance
        )
    if not stakes:
        raise InvalidRoundError(f"seat {seat} has no bet", seat=seat)
    for bet, amount in stakes:
        if amount <= 0:
            raise InvalidRoundError(
                f"seat {seat}: the {bet} stake must be positive, got {amount}",
                seat=seat,
                bet=bet,
                amount=amount,
            )
        limits.check(seat=seat, bet=bet, amount=amount)
    total = sum(amount for _, amount in stakes)
    if total > balance:
        raise InsufficientBalanceError(
            f"seat {seat}: stakes of {total} exceed the balance of {balance}",
            seat=seat,
            stake=total,
            balance=balance,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class SettlementLine:
    """One bet or hand, settled: its payout and the clauses that decided it.

    ``clauses[0]`` is the clause that decided the amount (a failure report cites it);
    the others are context.
    """

    seat: int
    bet: str
    payout: Payout
    clauses: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    """One step of a round and the clauses it applied."""

    action: str
    clauses: tuple[str, ...]
    detail: str = ""
