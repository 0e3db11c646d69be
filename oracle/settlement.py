"""What every game shares: table limits, seat funds, settlement lines and round steps."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from croupier.oracle.errors import BetOutOfLimitsError, InsufficientBalanceError, InvalidRoundError
from croupier.oracle.immutable import Choice
from croupier.oracle.money import Payout
from croupier.oracle.profile import Profile


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Table limits on a single stake, in minor units, and the clauses that set them."""

    min_bet: int
    max_bet: int
    clauses: tuple[str, ...] = ("TABLE.limits",)

    @classmethod
    def of(cls, profile: Profile) -> Limits:
        """The limits a profile sets (TABLE.limits, B.limits)."""
        return cls(
            min_bet=profile.integer("min_bet"),
            max_bet=profile.integer("max_bet"),
            clauses=profile.citations()("min_bet", "max_bet"),
        )

    def check(self, *, seat: int, bet: str, amount: int) -> None:
        """Refuse a stake outside the limits, 0 and negative stakes included (TABLE.limits)."""
        if not self.min_bet <= amount <= self.max_bet:
            raise BetOutOfLimitsError(
                f"seat {seat}: the {bet} stake {amount} is outside the table limits "
                f"{self.min_bet} to {self.max_bet}",
                seat=seat,
                bet=bet,
                amount=amount,
                min_bet=self.min_bet,
                max_bet=self.max_bet,
                clause=self.clauses[0],
            )


def check_seat_stakes(
    *,
    seat: int,
    balance: int,
    stakes: Sequence[tuple[str, int]],
    limits: Limits,
    funds_clause: str = "CONTRACT.balance",
) -> None:
    """Check a seat's opening stakes: within the limits, together covered by its balance.

    ``funds_clause`` is the rule that asks the balance to cover the stakes (BJ.funds for
    blackjack; the contract elsewhere).
    """
    if balance < 0:
        raise InvalidRoundError(
            f"seat {seat}: balance {balance} is negative",
            field=f"seats[{seat}].balance",
            seat=seat,
            balance=balance,
            clause="CONTRACT.request",
        )
    if not stakes:
        raise InvalidRoundError(f"seat {seat} has no bet", seat=seat, clause="CONTRACT.request")
    for bet, amount in stakes:
        limits.check(seat=seat, bet=bet, amount=amount)
    total = sum(amount for _, amount in stakes)
    if total > balance:
        raise InsufficientBalanceError(
            f"seat {seat}: stakes of {total} exceed the balance of {balance}",
            seat=seat,
            stake=total,
            balance=balance,
            clause=funds_clause,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class SettlementLine:
    """One bet or hand, settled: its payout and the clauses that decided it.

    ``clauses[0]`` is the clause that decided the amount (a failure report cites it);
    the others are context. ``won_by`` is, for a bet that returns something, the clause that
    says it is not lost (the pocket is one it covers): an engine that pays it nothing broke
    that rule, not the odds.
    """

    seat: int
    bet: str
    payout: Payout
    clauses: tuple[str, ...]
    won_by: tuple[str, ...] = ()
    #: Where the variant says so (VAR.rou.en-prison): the bet stays on the table, imprisoned,
    #: and returns nothing yet; or the line decides a bet imprisoned on an earlier round,
    #: whose stake was counted there (so it stakes 0 here).
    prison: Prison | None = None


class Prison(Choice):
    """How a settlement line stands to the table's prison (VAR.rou.en-prison)."""

    #: The bet was imprisoned by this round's zero: it returns nothing now.
    IMPRISONED = "imprisoned"
    #: The line decides a bet imprisoned by an earlier round: stake 0 here, its stake back or 0.
    RELEASED = "released"


def settled(
    *,
    seat: int,
    bet: str,
    payout: Payout,
    clauses: tuple[str, ...],
    rounding: tuple[str, ...],
    won_by: tuple[str, ...] = (),
    prison: Prison | None = None,
) -> SettlementLine:
    """A settlement line; a payout that rounding changed cites the rounding rule too.

    ``rounding`` is what the profile cites for its rounding rule (MONEY.rounding).
    """
    if payout.returned != payout.returned_exact:
        clauses = (*clauses, *(c for c in rounding if c not in clauses))
    return SettlementLine(
        seat=seat, bet=bet, payout=payout, clauses=clauses, won_by=won_by, prison=prison
    )


def settlement_citations(
    lines: Sequence[SettlementLine], rounding: tuple[str, ...]
) -> dict[str, tuple[str, ...]]:
    """Why each line returns what it does, keyed ``lines[i]``, and the settlement's shape.

    A rounded line also says why it is not rounded the other way: the profile's rounding
    rule (MONEY.rounding), keyed by the other amount.
    """
    shape = ("CONTRACT.settlement",)
    out: dict[str, tuple[str, ...]] = {
        "lines": shape,
        "total_staked": shape,
        "total_returned": shape,
    }
    for index, line in enumerate(lines):
        out[f"lines[{index}]"] = line.clauses
        if line.won_by and line.payout.returned:
            out[f"lines[{index}].returned.minor_units=0"] = line.won_by
        exact = line.payout.returned_exact
        if exact.denominator != 1:
            for other in {math.floor(exact), math.ceil(exact)} - {line.payout.returned}:
                out[f"lines[{index}].returned.minor_units={other}"] = (*rounding, *line.clauses)
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    """One step of a round and the clauses it applied.

    ``detail`` words the step for a person: ``says`` formatted with ``values``
    (``str.format``), written only when read, since most rounds are played and checked
    without anyone reading their steps.
    """

    action: str
    clauses: tuple[str, ...]
    says: str = ""
    values: tuple[object, ...] = ()

    @property
    def detail(self) -> str:
        """What the step did, in words."""
        return self.says.format(*self.values) if self.values else self.says
