"""The theoretical return to player of every bet a profile offers, exact.

Baccarat: the first coup off the profile's full shoe (B.decks, C.bac.decks, D.decks),
enumerated exactly over card values drawn without replacement, each coup decided by the
oracle's own ``play_coup`` (BAC.natural, BAC.player-draw, BAC.banker-stood, the profile's
tableau: BAC.banker-tableau, or B.tableau as printed) and each bet settled by its own
``play_round`` (BAC.pay-player, BAC.pay-banker, BAC.pay-tie, BAC.tie-push). That is C's game
exactly (a fresh shoe every round) and the usual "off the top" figure for B's and D's shoes.
Roulette: every pocket of the wheel equally likely (C.rou.wheel, US.rou.wheel), each bet
settled by ``spin_round`` (the odds and the zero rule). Blackjack's return depends on the
players' decisions: its figure is that of basic strategy, in ``oracle.basic_strategy``.

Returns are before MONEY.rounding: the exact amount a unit stake gets back on average.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import perm
from typing import Final

from croupier.oracle.baccarat import (
    BaccaratBet,
    BaccaratRules,
    BaccaratSeat,
    Coup,
    CoupOutcome,
    Tableau,
    card_value,
    hand_value,
    play_coup,
    play_round,
)
from croupier.oracle.baccarat import BetKind as BaccaratBetKind
from croupier.oracle.cards import DECK, Card
from croupier.oracle.clauses import Game
from croupier.oracle.errors import ShoeExhaustedError
from croupier.oracle.profile import Profile
from croupier.oracle.roulette import (
    BetKind,
    RouletteBet,
    RouletteRules,
    RouletteSeat,
    TableHistory,
    shapes,
    spin_round,
)
from croupier.oracle.settlement import Prison


@dataclass(frozen=True, slots=True, kw_only=True)
class BetReturn:
    """What one bet gets back per unit staked, on average, exact (before MONEY.rounding).

    ``returns`` counts the stake (a push returns 1); ``variance`` is that of one bet's return,
    so that an audit can put a standard error next to an actual figure. ``clauses`` are those
    the figure rests on: the shoe or wheel, the drawing rules, what each outcome pays.
    """

    bet: str
    returns: Fraction
    variance: Fraction
    clauses: tuple[str, ...]

    @property
    def house_edge(self) -> Fraction:
        """The share of each stake the house keeps on average: 1 less the return."""
        return 1 - self.returns


def theoretical_returns(profile: Profile) -> tuple[BetReturn, ...]:
    """Every bet's exact return under the profile; ``()`` for blackjack (``oracle.basic_strategy``)."""
    if profile.game is Game.BACCARAT:
        return baccarat_returns(BaccaratRules.from_profile(profile))
    if profile.game is Game.ROULETTE:
        return roulette_returns(RouletteRules.from_profile(profile))
    return ()


def percent(value: Fraction, places: int = 4) -> str:
    """A share as a percentage with ``places`` decimals: ``Fraction(1, 74)`` is ``"1.3514%"``.

    Rounded once, exactly, to the nearest last place, a tie to the even digit (``round`` on
    a ``Fraction``); never through a float.
    """
    scaled = round(value * 100 * 10**places)
    sign = "-" if scaled < 0 else ""
    whole, decimals = divmod(abs(scaled), 10**places)
    return f"{sign}{whole}.{decimals:0{places}d}%" if places else f"{sign}{whole}%"


# --- baccarat -------------------------------------------------------------------------

#: The coup's outcomes, in the order the enumeration counts them.
_OUTCOMES: Final = tuple(CoupOutcome)
_INDEX: Final = {outcome: i for i, outcome in enumerate(_OUTCOMES)}
#: The enumeration counts the banker's wins in three classes, since a variant pays them apart:
#: on a total of 6 (VAR.bac.banker-six), on three cards totalling 7 (VAR.bac.ez), and the rest
#: (index ``_INDEX[BANKER]``). Each class's coups settle every bet alike, under every profile.
_BANKER_SIX: Final = len(_OUTCOMES)
_BANKER_THREE_CARD_SEVEN: Final = len(_OUTCOMES) + 1
_CLASSES: Final = len(_OUTCOMES) + 2
_OUTCOME_OF_CLASS: Final = (*_OUTCOMES, CoupOutcome.BANKER, CoupOutcome.BANKER)


def _class(coup: Coup) -> int:
    """The coup's class: its outcome, the banker's wins on 6 and on a three-card 7 apart."""
    if coup.outcome is CoupOutcome.BANKER:
        if coup.banker_total == 6:
            return _BANKER_SIX
        if coup.banker_total == 7 and len(coup.banker) == 3:
            return _BANKER_THREE_CARD_SEVEN
    return _INDEX[coup.outcome]


#: The point values a card can have (BAC.values), one card standing for each, and how many
#: cards of one deck have it: counting by value is what makes the enumeration small.
_VALUES: Final = tuple(sorted({card_value(card) for card in DECK}))
_STAND_IN: Final = tuple(next(c for c in DECK if card_value(c) == v) for v in _VALUES)
_PER_DECK: Final = tuple(Counter(card_value(card) for card in DECK)[v] for v in _VALUES)

#: A coup decided once its sixth card is known: the outcome's index.
_Sixth = int
#: After five cards: the outcome, or one per value of the sixth card.
_Fifth = int | tuple[_Sixth, ...]
#: After four cards: the outcome, or one subtree per value of the fifth card.
_Fourth = int | tuple[_Fifth, ...]

#: Every coup draws its cards from the first six of the shoe (BAC.deal: three a hand at most).
_MOST_CARDS: Final = 6


def _decide(tableau: Tableau, values: tuple[int, ...]) -> int | None:
    """The outcome ``play_coup`` gives a shoe starting with these values; None: one more card."""
    try:
        coup = play_coup(tableau, tuple(_STAND_IN[i] for i in values))
    except ShoeExhaustedError:
        return None
    return _class(coup)


def _after_five(tableau: Tableau, values: tuple[int, ...]) -> _Fifth:
    decided = _decide(tableau, values)
    if decided is not None:
        return decided
    sixth = []
    for y in range(len(_VALUES)):
        outcome = _decide(tableau, (*values, y))
        if outcome is None:  # BAC.deal: no hand takes more than three cards
            message = f"the coup on {(*values, y)} asks for a seventh card"
            raise AssertionError(message)
        sixth.append(outcome)
    return tuple(sixth)


def _after_four(tableau: Tableau, values: tuple[int, ...]) -> _Fourth:
    decided = _decide(tableau, values)
    if decided is not None:
        return decided
    return tuple(_after_five(tableau, (*values, x)) for x in range(len(_VALUES)))


@cache
def _pairs() -> tuple[tuple[int, int], ...]:
    """One pair of values for each two-card total 0-9, in the order of the totals."""
    found: dict[int, tuple[int, int]] = {}
    for a in range(len(_VALUES)):
        for b in range(len(_VALUES)):
            found.setdefault(_total(a, b), (a, b))
    # Totals run 0 to 9 (BAC.values), so a total is its own index in the coup tree.
    if sorted(found) != list(range(len(found))):
        message = f"two-card totals are {sorted(found)}, not 0 to {len(found) - 1}"
        raise AssertionError(message)
    return tuple(found[total] for total in sorted(found))


@cache
def _coups(tableau: Tableau) -> tuple[tuple[_Fourth, ...], ...]:
    """The coup tree for each player and banker two-card total, indexed ``[player][banker]``.

    The rules look at the first four cards only through the two totals (BAC.natural,
    BAC.player-draw, BAC.banker-stood, BAC.banker-tableau), so one pair of cards per total
    stands for all of them; ``play_coup`` is asked about every card after those, and says
    when it needs one.
    """
    return tuple(
        tuple(_after_four(tableau, (p[0], b[0], p[1], b[1])) for b in _pairs()) for p in _pairs()
    )


@cache
def _total(a: int, b: int) -> int:
    """The two-card total of two values, as BAC.values reads it."""
    return hand_value((_STAND_IN[a], _STAND_IN[b]))


@cache
def _coup_counts(tableau: Tableau, decks: int) -> tuple[tuple[int, ...], int]:
    """Ordered six-card sequences of the full shoe by class (``_class``), and how many there are.

    Cards are counted by value class (BAC.values: ten, jack, queen and king are one class of
    16 a deck), and a third card is drawn only where ``play_coup`` asks for it. A coup
    decided on its k-th card stands for every way to draw its k values in order (the product
    of what is left of each value as it is drawn) times every way to fill the 6 - k positions
    after it, so that all counts share one denominator, 52 * decks taken 6 at a time in order.
    """
    coups = _coups(tableau)
    full = [n * decks for n in _PER_DECK]
    size = sum(full)
    after_four, after_five = perm(size - 4, 2), size - 5
    # The order inside each two-card hand changes neither its total nor the weight: each
    # unordered pair counts twice unless both cards have the same value.
    pairs = [
        (a, b, 1 if a == b else 2, _total(a, b))
        for a in range(len(_VALUES))
        for b in range(a, len(_VALUES))
    ]
    counts = [0] * _CLASSES
    for a, b, player_orders, player in pairs:
        for c, d, banker_orders, banker in pairs:
            left = full.copy()
            ways = left[a]
            left[a] -= 1
            ways *= left[b]
            left[b] -= 1
            ways *= left[c]
            left[c] -= 1
            ways *= left[d]
            left[d] -= 1
            if not ways:
                continue
            ways *= player_orders * banker_orders
            fourth = coups[player][banker]
            if isinstance(fourth, int):
                counts[fourth] += ways * after_four
                continue
            for x, fifth in enumerate(fourth):
                ways_x = ways * left[x]
                if not ways_x:
                    continue
                if isinstance(fifth, int):
                    counts[fifth] += ways_x * after_five
                    continue
                left[x] -= 1
                for y, sixth in enumerate(fifth):
                    counts[sixth] += ways_x * left[y]
                left[x] += 1
    return tuple(counts), perm(size, _MOST_CARDS)


def coup_probabilities(rules: BaccaratRules) -> tuple[tuple[CoupOutcome, Fraction], ...]:
    """The exact chance of each outcome of the first coup off the profile's full shoe.

    B.decks, C.bac.decks or D.decks for the shoe; BAC.values, BAC.deal, BAC.natural,
    BAC.player-draw, BAC.banker-stood and the profile's tableau (BAC.banker-tableau,
    B.tableau) through ``play_coup``; BAC.outcome. The chances add up to exactly 1.
    """
    counts, total = _class_counts(rules)
    merged = dict.fromkeys(_OUTCOMES, 0)
    for klass, count in enumerate(counts):
        merged[_OUTCOME_OF_CLASS[klass]] += count
    return tuple((outcome, Fraction(merged[outcome], total)) for outcome in _OUTCOMES)


def _class_counts(rules: BaccaratRules) -> tuple[tuple[int, ...], int]:
    return _coup_counts(rules.tableau, rules.decks)


def _paths(tableau: Tableau) -> Iterable[tuple[tuple[int, ...], int]]:
    """Every way the coup tree ends: the values in dealing order, and the class reached."""
    coups = _coups(tableau)
    for player, (a, b) in enumerate(_pairs()):
        for banker, (c, d) in enumerate(_pairs()):
            four = (a, c, b, d)
            fourth = coups[player][banker]
            if isinstance(fourth, int):
                yield four, fourth
                continue
            for x, fifth in enumerate(fourth):
                if isinstance(fifth, int):
                    yield (*four, x), fifth
                    continue
                for y, sixth in enumerate(fifth):
                    yield (*four, x, y), sixth


def _shoe(tableau: Tableau, klass: int) -> tuple[Card, ...]:
    """Cards of one deck, all different, whose coup ends in ``klass`` on them alone.

    The shortest such coup: a natural decides every outcome on four cards (BAC.natural).
    """
    for values, reached in sorted(_paths(tableau), key=lambda path: len(path[0])):
        if reached != klass:
            continue
        unused = list(DECK)
        shoe = []
        for i in values:
            card = next((x for x in unused if card_value(x) == _VALUES[i]), None)
            if card is None:
                break
            unused.remove(card)
            shoe.append(card)
        else:
            return tuple(shoe)
    message = f"no coup of one deck ends in class {klass}"
    raise AssertionError(message)


def _moments(first: Fraction, second: Fraction, stake: int) -> tuple[Fraction, Fraction]:
    """Mean and variance per unit staked, from the means of a stake's return and its square."""
    mean = first / stake
    return mean, second / (stake * stake) - mean * mean


def baccarat_returns(rules: BaccaratRules) -> tuple[BetReturn, ...]:
    """The player, banker and tie bets' exact returns (``coup_probabilities``).

    What each outcome returns is what ``play_round`` settles a stake at on a coup with that
    outcome (BAC.pay-player, BAC.pay-banker with its commission, BAC.pay-tie, BAC.tie-push),
    exact, before MONEY.rounding.
    """
    stake = rules.limits.min_bet
    kinds = tuple(BaccaratBetKind)
    seat = BaccaratSeat(
        balance=stake * len(kinds),
        bets=tuple(BaccaratBet(kind=kind, amount=stake) for kind in kinds),
    )
    # The mean amount returned on the stake, and the mean of its square.
    first = dict.fromkeys(kinds, Fraction(0))
    second = dict.fromkeys(kinds, Fraction(0))
    clauses: dict[BaccaratBetKind, dict[str, None]] = {kind: {} for kind in kinds}
    counts, total = _class_counts(rules)
    for klass, count in enumerate(counts):
        played = play_round(rules, _shoe(rules.tableau, klass), [seat])
        if _class(played.coup) != klass:  # the tree said so; play_round must agree
            message = f"the coup chosen for class {klass} ended in {_class(played.coup)}"
            raise AssertionError(message)
        chance = Fraction(count, total)
        for kind, line in zip(kinds, played.settlement, strict=True):
            back = line.payout.returned_exact
            first[kind] += chance * back
            second[kind] += chance * back * back
            clauses[kind].update(dict.fromkeys(line.clauses))
    shoe = (
        *rules.cite("decks", "tableau"),
        "BAC.values",
        "BAC.deal",
        "BAC.natural",
        "BAC.player-draw",
        "BAC.banker-stood",
    )
    found = []
    for kind in kinds:
        mean, variance = _moments(first[kind], second[kind], stake)
        cited = tuple(dict.fromkeys((*shoe, *_exact(rules.cite("rounding"), clauses[kind]))))
        found.append(BetReturn(bet=kind.value, returns=mean, variance=variance, clauses=cited))
    return tuple(found)


def _exact(rounding: tuple[str, ...], clauses: Iterable[str]) -> tuple[str, ...]:
    """The clauses without the rounding rule's: a return is counted before MONEY.rounding."""
    return tuple(c for c in clauses if c not in rounding)


# --- roulette -------------------------------------------------------------------------


def _wins(bet: RouletteBet, pocket: int, rules: RouletteRules) -> bool:
    """Whether the bet wins on the pocket, as ``spin_round`` settles it."""
    seat = RouletteSeat(balance=bet.amount, bets=(bet,))
    line = spin_round(rules, TableHistory.new("returns"), pocket, [seat]).settlement[0]
    return line.payout.returned > 0


def roulette_returns(rules: RouletteRules) -> tuple[BetReturn, ...]:
    """Each bet kind's exact return on the profile's wheel, every pocket equally likely.

    Every shape of every kind the layout offers (C.rou.geometry, US.rou.geometry) is settled
    by ``spin_round`` on every pocket (the odds of C.rou.wheel or US.rou.geometry, the zero
    rule C.rou.zero-loses or the profile's own). A kind whose shapes all return the same is
    one line; a kind that the layout does not offer (the first four on the American wheel,
    the top line on the European one) has none.
    """
    stake = rules.limits.min_bet
    bets = tuple(
        RouletteBet(kind=kind, numbers=numbers, amount=stake)
        for kind in BetKind
        if kind in rules.offered
        for numbers in shapes(rules.wheel, kind)
    )
    seats = [RouletteSeat(balance=stake * len(bets), bets=bets)]
    pockets = rules.wheel.pockets
    # What each bet returns in all, and its square, summed over the pockets.
    first = [Fraction(0)] * len(bets)
    second = [Fraction(0)] * len(bets)
    clauses: list[dict[str, None]] = [dict.fromkeys(rules.cite("wheel")) for _ in bets]
    for pocket in range(pockets):
        played = spin_round(rules, TableHistory.new("returns"), pocket, seats)
        for i, settled in enumerate(played.settlement):
            back = settled.payout.returned_exact
            if settled.prison is Prison.IMPRISONED:
                # The seat's next spin decides it: the stake back if the bet would win, else
                # nothing, each pocket as likely (VAR.rou.en-prison).
                wins = sum(1 for p in range(pockets) if _wins(bets[i], p, rules))
                first[i] += Fraction(wins * stake, pockets)
                second[i] += Fraction(wins * stake * stake, pockets)
                clauses[i].update(dict.fromkeys(settled.clauses))
                continue
            if back:
                first[i] += back
                second[i] += back * back
            clauses[i].update(dict.fromkeys((*settled.won_by, *settled.clauses)))
    rounding = rules.cite("rounding")
    by_kind: dict[BetKind, list[BetReturn]] = {}
    for i, bet in enumerate(bets):
        mean, variance = _moments(first[i] / pockets, second[i] / pockets, stake)
        line = BetReturn(
            bet=bet.label, returns=mean, variance=variance, clauses=_exact(rounding, clauses[i])
        )
        by_kind.setdefault(bet.kind, []).append(line)
    found: list[BetReturn] = []
    for kind, lines in by_kind.items():
        if len({(line.returns, line.variance) for line in lines}) == 1:
            cited = tuple(dict.fromkeys(c for line in lines for c in line.clauses))
            found.append(
                BetReturn(
                    bet=kind.value,
                    returns=lines[0].returns,
                    variance=lines[0].variance,
                    clauses=cited,
                )
            )
        else:
            # Odds are per kind, so no layout has such a kind today; should one ever, each
            # shape keeps its own figure rather than one standing for all.
            found.extend(lines)
    return tuple(found)
