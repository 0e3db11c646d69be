"""Return to player and fairness of what was dealt, over an audit log.

Workers reduce each record to a few counts (``Tally.add``); the main process sums them in
a ``Tally`` whose size depends on the profiles, bet kinds and currencies, never on the number
of records; ``assess`` turns the sums into the report's figures once the log is read.

Returns: per profile, bet kind (the settlement line's first word: "straight 17" is a
straight, "hand 1" a blackjack hand) and currency, actual = returned / staked, in minor units
after MONEY.rounding, beside the exact theoretical return (``oracle.returns``, before
rounding); a blackjack hand beside its return under basic strategy (``oracle.basic_strategy``),
which the players' own decisions, unknown to the log, move away from. Fairness: chi-square goodness of fit of baccarat outcomes against
``coup_probabilities``, of roulette pockets against a uniform wheel, and of the ranks of the
blackjack cards dealt against the shoe's composition.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from croupier.clients.words import plural
from croupier.oracle.basic_strategy import per_unit_staked, rules_of
from croupier.oracle.cards import DECK
from croupier.oracle.clauses import Game
from croupier.oracle.errors import OracleError, ProfileError
from croupier.oracle.profile import Profile
from croupier.oracle.returns import (
    BetReturn,
    coup_probabilities,
    theoretical_returns,
)
from croupier.oracle.roulette import pocket_text
from croupier.oracle.rounds import baccarat_rules, roulette_rules
from croupier.v1 import round_pb2

#: |z| beyond which an actual return is flagged, and the p-value under which a fairness test is.
BAND: Final = 3.0
P_THRESHOLD: Final = 0.001
#: A chi-square test needs this many expected counts in every cell to be read (the usual rule).
MIN_EXPECTED: Final = 5


# --- the chi-square distribution ------------------------------------------------------------


def chi_square_p(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` degrees of freedom.

    The regularized upper incomplete gamma function Q(df/2, statistic/2): its series below
    a + 1, its continued fraction (modified Lentz) above, as in Numerical Recipes 6.2.
    """
    if df < 1:
        raise ValueError(f"a chi-square needs at least one degree of freedom, got {df}")
    a, x = df / 2, statistic / 2
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-16:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-16:
            break
    return math.exp(log_front) * h


# --- one record, in a worker ------------------------------------------------------------------


#: The report's name of each baccarat outcome of the record ("banker").
_OUTCOME_NAMES: Final = {
    value: name.removeprefix("BACCARAT_OUTCOME_").lower()
    for name, value in round_pb2.BaccaratOutcome.items()
    if value
}


def _dealt(record: round_pb2.RoundRecord) -> tuple[str, ...] | list[str]:
    """What a record dealt (``Tally.add``); nothing for a record of no known table."""
    state = record.final_state
    table = state.WhichOneof("table")
    if table == "baccarat":
        outcome = _OUTCOME_NAMES.get(state.baccarat.outcome)
        return (outcome,) if outcome else ()
    if record.pocket:
        return (record.pocket,)
    if table == "blackjack":
        return [card[:-1] for card in record.cards_dealt]
    return ()


# --- the sums, in the main process --------------------------------------------------------------


@dataclass(slots=True)
class Tally:
    """Sums over the log: bounded by profiles x kinds x currencies and by cells per profile.

    ``money`` holds staked, returned, the sum of the squared stakes, and the rounds with the bet.
    """

    money: dict[tuple[str, str, str], list[int]] = field(default_factory=dict)
    dealt: dict[str, Counter[str]] = field(default_factory=dict)

    def add(self, record: round_pb2.RoundRecord) -> dict[str, list[int]]:
        """Add one record's money per bet kind and currency, and what it dealt.

        Its lines are read once, for the totals too: the record's staked and paid per
        currency come back, each amount in its own currency (the round's if unset). A line's
        kind is its first word ("straight 17" is a straight, "hand 1" a blackjack hand); its
        stake and return are summed in the stake's currency: a line in two currencies is a
        mixed-currency finding of its own, and its return is not counted against it. What
        was dealt: the baccarat outcome ("banker"), the roulette pocket ("17", "00"), or the
        rank of every blackjack card ("T", "A", ...).
        """
        profile_id, own = record.profile_id, record.currency_code
        money = self.money
        by_currency: dict[str, list[int]] = {}
        kinds: set[tuple[str, str, str]] = set()
        for line in record.settlement.lines:
            stake, back = line.stake, line.returned
            units, paid = stake.minor_units, back.minor_units
            currency = stake.currency_code or own
            paid_in = back.currency_code or own
            held = by_currency.get(currency)
            if held is None:
                held = by_currency[currency] = [0, 0]
            held[0] += units
            if paid_in != currency:
                held = by_currency.get(paid_in)
                if held is None:
                    held = by_currency[paid_in] = [0, 0]
            held[1] += paid
            key = (profile_id, line.bet.partition(" ")[0], currency)
            sums = money.get(key)
            if sums is None:
                sums = money[key] = [0, 0, 0, 0]
            if key not in kinds:
                # A record sums its lines per kind and currency: one entry is one round.
                kinds.add(key)
                sums[3] += 1
            sums[0] += units
            if paid_in == currency:
                sums[1] += paid
            sums[2] += units * units
        # A profile that dealt nothing readable still has its (empty) count.
        counter = self.dealt.get(profile_id)
        if counter is None:
            counter = self.dealt[profile_id] = Counter()
        counter.update(_dealt(record))
        return by_currency

    def merge(self, other: Tally) -> None:
        """Add another part of the log's counts (a shard's)."""
        for key, sums in other.money.items():
            mine = self.money.setdefault(key, [0, 0, 0, 0])
            for index, value in enumerate(sums):
                mine[index] += value
        for profile_id, dealt in other.dealt.items():
            self.dealt.setdefault(profile_id, Counter()).update(dealt)


# --- the figures --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ReturnRow:
    """One profile's bet kind in one currency: actual return beside the theoretical one.

    ``standard_error`` is that of the actual return if every bet's return has the theoretical
    variance v per unit staked and bets are independent: with stakes s_i,
    SE = sqrt(v * sum(s_i ** 2)) / sum(s_i); ``z`` = (actual - theoretical) / SE.
    """

    profile_id: str
    bet: str
    currency: str
    staked: int
    returned: int
    theoretical: Fraction | None
    variance: Fraction | None
    standard_error: float | None
    z: float | None
    flagged: bool
    note: str = ""
    #: Rounds with at least one bet of the kind in the currency.
    rounds: int = 0

    @property
    def actual(self) -> Fraction | None:
        """Returned / staked, exact; None when nothing was staked."""
        return Fraction(self.returned, self.staked) if self.staked else None

    def as_json(self) -> dict[str, Any]:
        """The row in the report: exact fractions as strings, statistics as numbers."""
        actual = self.actual
        return {
            "profile": self.profile_id,
            "bet": self.bet,
            "currency": self.currency,
            "rounds": self.rounds,
            "staked": self.staked,
            "returned": self.returned,
            "actual": str(actual) if actual is not None else None,
            "theoretical": str(self.theoretical) if self.theoretical is not None else None,
            "variance": str(self.variance) if self.variance is not None else None,
            "standard_error": self.standard_error,
            "z": self.z,
            "flagged": self.flagged,
            "note": self.note,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class FairnessRow:
    """One chi-square test of what a profile dealt; ``p`` is None when the data are too few."""

    profile_id: str
    test: str
    observations: int
    cells: int
    statistic: float | None
    p: float | None
    flagged: bool
    note: str
    #: The cell furthest from its expectation, as "label observed/expected".
    worst: str = ""
    #: Each cell: its label, the count observed, and the count a fair game expects.
    frequencies: tuple[tuple[str, int, float], ...] = ()

    def as_json(self) -> dict[str, Any]:
        """The row in the report."""
        return {
            "profile": self.profile_id,
            "test": self.test,
            "observations": self.observations,
            "cells": self.cells,
            "chi_square": self.statistic,
            "df": self.cells - 1,
            "p": self.p,
            "flagged": self.flagged,
            "note": self.note,
            "worst": self.worst,
            "frequencies": [
                {"cell": label, "observed": observed, "expected": expected}
                for label, observed, expected in self.frequencies
            ],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Assessment:
    """Every return and fairness figure of a log, and the thresholds they were judged by."""

    returns: tuple[ReturnRow, ...]
    fairness: tuple[FairnessRow, ...]
    band: float
    p_threshold: float

    @property
    def flagged(self) -> int:
        """Returns outside the band and fairness tests under the threshold."""
        return sum(r.flagged for r in self.returns) + sum(f.flagged for f in self.fairness)

    def as_json(self) -> dict[str, Any]:
        """The report's "returns" and "fairness" sections."""
        return {
            "band": self.band,
            "p_threshold": self.p_threshold,
            "flagged": self.flagged,
            "returns": [row.as_json() for row in self.returns],
            "fairness": [row.as_json() for row in self.fairness],
        }


#: Why a blackjack log's return differs from the basic-strategy figure beside it.
BASIC_STRATEGY_NOTE: Final = (
    "theory is the return under basic strategy per unit staked (doubles and splits included); "
    "the players' real decisions, not known to the log, explain most of any difference"
)


def _blackjack_row(
    strategy: Fraction | None, bet: str, row: functools.partial[ReturnRow]
) -> ReturnRow:
    """A blackjack hand's return beside basic strategy's (BASIC_STRATEGY_NOTE).

    No z: the players' decisions are not the chart's, so no spread around it is implied.
    """
    theory = strategy if bet == "hand" else None
    note = (
        BASIC_STRATEGY_NOTE if strategy is not None else "no basic-strategy figure for this profile"
    )
    return row(
        theoretical=theory, variance=None, standard_error=None, z=None, flagged=False, note=note
    )


def _return_row(
    profile: Profile | None,
    figures: dict[str, BetReturn],
    strategy: Fraction | None,
    key: tuple[str, str, str],
    sums: list[int],
    *,
    band: float,
) -> ReturnRow:
    profile_id, bet, currency = key
    staked, returned, squares, rounds = sums
    row = functools.partial(
        ReturnRow,
        profile_id=profile_id,
        bet=bet,
        currency=currency,
        staked=staked,
        returned=returned,
        rounds=rounds,
    )
    if profile is None:
        note = "unknown profile"
    elif profile.game is Game.BLACKJACK:
        return _blackjack_row(strategy, bet, row)
    else:
        theory = figures.get(bet)
        note = "" if theory is not None else "no theoretical figure for this bet"
        if theory is not None and staked:
            se = math.sqrt(theory.variance * squares) / staked if squares else 0.0
            z = float(Fraction(returned, staked) - theory.returns) / se if se else None
            return row(
                theoretical=theory.returns,
                variance=theory.variance,
                standard_error=se,
                z=z,
                flagged=z is not None and abs(z) > band,
            )
    return row(
        theoretical=None,
        variance=None,
        standard_error=None,
        z=None,
        flagged=False,
        note=note,
    )


def chi_square_test(
    profile_id: str,
    test: str,
    observed: Counter[str],
    expected_shares: Iterable[tuple[str, Fraction]],
    threshold: float,
) -> FairnessRow:
    """Goodness of fit of counts to shares that add up to 1; "too few rounds" below 5 a cell."""
    shares = list(expected_shares)
    total = sum(observed.values())
    known = {label for label, _ in shares}
    # A value the shares do not name: a pocket off the wheel, a card that is no card.
    strays = sum(n for label, n in observed.items() if label not in known)
    row = functools.partial(
        FairnessRow,
        profile_id=profile_id,
        test=test,
        observations=total,
        cells=len(shares),
        frequencies=tuple(
            (label, observed[label], float(share * total)) for label, share in shares
        ),
    )
    if strays:
        # No chi-square is needed: a fair game never deals what its table does not hold.
        return row(
            statistic=None,
            p=0.0,
            flagged=True,
            note="dealt values the table does not hold",
            worst=f"{plural(strays, 'value')} off the table's cells",
        )
    if not total or min(float(share) * total for _, share in shares) < MIN_EXPECTED:
        return row(statistic=None, p=None, flagged=False, note="too few rounds for a verdict")
    statistic = 0.0
    worst, worst_gap = "", -1.0
    for label, share in shares:
        expected = float(share) * total
        gap = (observed[label] - expected) ** 2 / expected
        statistic += gap
        if gap > worst_gap:
            worst, worst_gap = f"{label} {observed[label]}/{expected:.0f}", gap
    p = chi_square_p(statistic, len(shares) - 1)
    flagged = p < threshold
    return row(
        statistic=statistic,
        p=p,
        flagged=flagged,
        note=f"p < {threshold:g}: not what a fair game deals" if flagged else "consistent",
        worst=worst,
    )


#: The share of each rank in a shoe of canonical decks (1/13 each).
_RANKS: Final = tuple(
    (rank, Fraction(n, len(DECK))) for rank, n in Counter(c.rank.value for c in DECK).items()
)


def _expected(profile: Profile) -> tuple[str, tuple[tuple[str, Fraction], ...]]:
    """The test of a profile's deal and the share each cell should have."""
    if profile.game is Game.BACCARAT:
        chances = coup_probabilities(baccarat_rules(profile))
        return "outcomes", tuple((o.value, p) for o, p in chances)
    if profile.game is Game.ROULETTE:
        pockets = roulette_rules(profile).wheel.pockets
        share = Fraction(1, pockets)
        return "pockets", tuple((pocket_text(p), share) for p in range(pockets))
    return "card ranks", _RANKS


def blackjack_strategy(profile: Profile) -> Fraction | None:
    """A blackjack profile's return per unit staked under basic strategy; None for another game.

    None too for a rule the analysis does not cover yet: the row says so.
    """
    if profile.game is not Game.BLACKJACK:
        return None
    try:
        return per_unit_staked(rules_of(profile))
    except ProfileError:
        return None


def assess(
    tally: Tally,
    profile: Callable[[str], Profile],
    *,
    band: float = BAND,
    p_threshold: float = P_THRESHOLD,
    strategies: Mapping[str, Fraction | None] | None = None,
) -> Assessment:
    """The return and fairness figures of a log's tally; ``profile`` loads a profile by id.

    ``strategies`` are the profiles' ``blackjack_strategy`` computed already (beside the
    shards, by profile id); the others are computed here.
    """
    known = strategies or {}
    loaded: dict[str, Profile | None] = {}
    figures: dict[str, dict[str, BetReturn]] = {}
    analysed: dict[str, Fraction | None] = {}

    def find(profile_id: str) -> Profile | None:
        if profile_id not in loaded:
            try:
                loaded[profile_id] = profile(profile_id)
            except OracleError:
                loaded[profile_id] = None
            found = loaded[profile_id]
            # Roulette settles every shape on every pocket: once a profile, not once a row.
            theory = theoretical_returns(found) if found is not None else ()
            figures[profile_id] = {r.bet: r for r in theory}
            if profile_id in known:
                analysed[profile_id] = known[profile_id]
            else:
                analysed[profile_id] = None if found is None else blackjack_strategy(found)
        return loaded[profile_id]

    returns = tuple(
        _return_row(find(key[0]), figures[key[0]], analysed[key[0]], key, sums, band=band)
        for key, sums in sorted(tally.money.items())
    )
    fairness = []
    for profile_id, observed in sorted(tally.dealt.items()):
        found = find(profile_id)
        if found is None or not observed:
            continue
        test, shares = _expected(found)
        fairness.append(chi_square_test(profile_id, test, observed, shares, p_threshold))
    return Assessment(returns=returns, fairness=tuple(fairness), band=band, p_threshold=p_threshold)
