"""Exact money: integer minor units outside, ``Fraction`` inside, one rounding at settlement.

RULES.md "Money": a result that is not a whole number of minor units is
computed exactly and rounded once, by the profile's rounding rule; both the
exact and the rounded figure are kept. An exact amount that is whole is kept as an ``int``
(``Exact``): most payouts are, and a ``Fraction`` costs microseconds to make and compare.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import iso4217

from croupier.oracle.immutable import Choice

#: An exact amount of minor units: an ``int`` where it is whole, else a ``Fraction``.
Exact = int | Fraction


class Rounding(Choice):
    """How an exact amount becomes whole minor units."""

    DOWN = "down"
    UP = "up"
    HALF_UP = "half-up"
    HALF_EVEN = "half-even"

    def apply(self, exact: Exact) -> int:
        """Round a non-negative exact amount to whole minor units."""
        if exact < 0:
            raise ValueError(f"amounts are never negative, got {exact}")
        if exact.denominator == 1:
            # Whole minor units already: every rule leaves them as they are.
            return exact.numerator
        match self:
            case Rounding.DOWN:
                return math.floor(exact)
            case Rounding.UP:
                return math.ceil(exact)
            case Rounding.HALF_UP:
                return math.floor(exact + Fraction(1, 2))
            case Rounding.HALF_EVEN:
                return round(exact)


#: ISO 4217 codes of the currencies that have minor units (TABLE.currency), from the maintained
#: ``iso4217`` data package: gold, test and "no currency" codes have none, and money here is
#: counted in minor units.
CURRENCIES: frozenset[str] = frozenset(
    currency.code for currency in iso4217.Currency if currency.exponent is not None
)


def is_currency(code: str) -> bool:
    """Whether ``code`` is an ISO 4217 currency with minor units (TABLE.currency)."""
    return code in CURRENCIES


def exact_text(value: Exact) -> str:
    """An exact amount as text, never through a float: ``"250"``, ``"37.5"``, ``"0.95"``, ``"75/7"``.

    A value whose denominator has no prime factor but 2 and 5 is a terminating decimal and is
    written as one; any other stays a fraction.
    """
    if value.denominator == 1:
        return str(value.numerator)
    rest = value.denominator
    twos = fives = 0
    while rest % 2 == 0:
        rest //= 2
        twos += 1
    while rest % 5 == 0:
        rest //= 5
        fives += 1
    if rest != 1:
        return str(value)
    places = max(twos, fives)
    scaled = abs(value.numerator) * 10**places // value.denominator
    sign = "-" if value < 0 else ""
    whole, fraction = divmod(scaled, 10**places)
    return f"{sign}{whole}.{fraction:0{places}d}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Odds:
    """Net odds ``win:per``: a winning stake s gains ``s * win / per``."""

    win: Fraction
    per: int = 1

    @property
    def ratio(self) -> Fraction:
        """Net win per unit staked."""
        return self.win / self.per

    @property
    def returned(self) -> tuple[int, int]:
        """What a winning unit stake returns, stake included, as (numerator, denominator).

        ``1 + win / per`` as one fraction, for ``multiple``: the same value, one exact operation.
        """
        base = self.win.denominator * self.per
        return base + self.win.numerator, base

    def __str__(self) -> str:
        return f"{exact_text(self.win)}:{self.per}"

    @classmethod
    def parse(cls, text: str) -> Odds:
        """Read ``"3:2"``, ``"35:1"`` or ``"0.95:1"``; raise ``ValueError`` otherwise."""
        win, sep, per = text.partition(":")
        if not sep:
            raise ValueError(f"odds must look like '3:2', got {text!r}")
        try:
            win_f = Fraction(win.strip())
            per_i = int(per.strip())
        except ValueError:
            raise ValueError(f"odds must look like '3:2', got {text!r}") from None
        if win_f < 0 or per_i <= 0:
            raise ValueError(f"odds must be non-negative with a positive base, got {text!r}")
        return cls(win=win_f, per=per_i)


@dataclass(frozen=True, slots=True, kw_only=True)
class Payout:
    """What one bet or hand returns: stake included, exact (an int where whole) and rounded."""

    stake: int
    returned_exact: Exact
    returned: int

    @property
    def net(self) -> int:
        """Rounded win (positive) or loss (negative) for the player."""
        return self.returned - self.stake


def multiple(stake: int, numerator: int, denominator: int, rounding: Rounding) -> Payout:
    """A bet that returns ``stake * numerator / denominator``, exact, then rounded once.

    A whole result is an ``int`` and needs no rounding; only another makes a ``Fraction``.
    """
    total = stake * numerator
    whole, rest = divmod(total, denominator)
    if not rest:
        return Payout(stake=stake, returned_exact=whole, returned=whole)
    exact = Fraction(total, denominator)
    return Payout(stake=stake, returned_exact=exact, returned=rounding.apply(exact))


def win(stake: int, odds: Odds, rounding: Rounding) -> Payout:
    """A winning bet: the stake back plus ``stake * odds``, rounded once."""
    numerator, denominator = odds.returned
    return multiple(stake, numerator, denominator, rounding)


def lose(stake: int) -> Payout:
    """A losing bet returns nothing."""
    return Payout(stake=stake, returned_exact=0, returned=0)


def push(stake: int) -> Payout:
    """A pushed bet returns its stake."""
    return Payout(stake=stake, returned_exact=stake, returned=stake)


def portion(stake: int, share: Fraction, rounding: Rounding) -> Payout:
    """A bet that returns a share of its stake (surrender, half back), rounded once."""
    return multiple(stake, share.numerator, share.denominator, rounding)


def returns(stake: int, exact: Exact, rounding: Rounding) -> Payout:
    """A bet that returns an exact amount computed elsewhere, rounded once."""
    if exact.denominator == 1:
        return Payout(stake=stake, returned_exact=exact.numerator, returned=exact.numerator)
    return Payout(stake=stake, returned_exact=exact, returned=rounding.apply(exact))


def money_text(minor_units: int, currency: str) -> str:
    """An amount in its currency's major unit, exactly: 1250 EUR is ``"12.50 EUR"``.

    A code that is no ISO 4217 currency with minor units (a log may hold anything) keeps its
    minor units, and says so.
    """
    if not is_currency(currency):
        return f"{minor_units} {currency} (minor units)"
    exponent = iso4217.Currency(currency).exponent or 0
    whole, minor = divmod(abs(minor_units), 10**exponent)
    sign = "-" if minor_units < 0 else ""
    return (
        f"{sign}{whole}.{minor:0{exponent}d} {currency}"
        if exponent
        else f"{sign}{whole} {currency}"
    )
