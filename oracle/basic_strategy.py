"""Blackjack's theoretical return under total-dependent basic strategy, by exact analysis.

The figure a lab signs on a PAR sheet: the expected return per unit of initial stake when
every hand is played by the total-dependent basic strategy of the profile's rules, with the
shoe reshuffled before every round (C.bac.decks' "fresh shoe", the usual "continuous
shuffler" figure). Not a simulation: every card sequence is counted, drawn without
replacement from the profile's finite shoe (BJ.deal, the ``decks`` parameter).

What is exact and what is not:

- Cards. Every probability is that of drawing the cards in question from what is left of
  the shoe once the up card and the player's own cards are out: the dealer's totals are
  worked out for every composition of the player's hand, under every up card, with the
  profile's peek rule (A.peek, C.bj.peek) and soft-17 rule (C.bj.dealer-draw).
- Strategy. The player decides by the hand's total, whether it is soft, whether it is a
  two-card hand or a pair, and the up card (total-dependent basic strategy), never by the
  cards that make the total. Each cell of the chart is the action with the highest return
  summed over every composition of that total, each weighted by how often it is reached
  (``_Up.decide``). The return of that fixed chart is then computed exactly.
- Splits. A split hand is played on its own cards (BJ.deal-order): by the symmetry of a
  shuffled shoe, hands that each draw by their own cards alone have the same joint law with
  the dealer's cards whatever the order they are played in, so with one split each hand's
  return is computed from the shoe less its own cards and the other split card, exactly.
  With re-splits (VAR.bj.resplit) a hand is valued from the shoe less its own cards and
  every split card, not the other hands' cards: the usual simplification (``split_play``).
- Arithmetic. Floating point, in double precision. The return is a probability-weighted
  average, not an amount of money paid: no stake is settled from it, so MONEY.rounding and
  the exact-money rule do not apply. Every quantity is a sum of products of probabilities
  under 1 with stakes of at most a few units; each passes through fewer than 64 roundings,
  each of relative size 2**-53, so the error is below ``ERROR_BOUND`` (1e-12, a ten-billionth
  of a percentage point), far below the 4 decimals printed.

Insurance and even money are declined (the figure is the return without them); taking
them is priced on its own by ``insurance_cost``.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import cache
from importlib import resources
from math import comb
from typing import Final

from croupier.oracle.blackjack import BlackjackRules, DoubleOn, Peek, SplitPairs, is_pair
from croupier.oracle.cards import Card, Rank, Suit
from croupier.oracle.clauses import Game
from croupier.oracle.errors import ProfileError
from croupier.oracle.immutable import Choice, evolve
from croupier.oracle.profile import Profile, shipped_profiles

#: The bound on the floating-point error of a return (see the module's docstring).
ERROR_BOUND: Final = 1e-12

#: Card values 1 (ace) to 10, and how many cards of each a deck holds.
_VALUES: Final = tuple(range(1, 11))
_PER_DECK: Final = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
#: A composition (a multiset of values) is one integer: 5 bits of count per value.
_BITS: Final = 5
_BIT: Final = tuple(0 if v == 0 else 1 << (_BITS * (v - 1)) for v in range(11))
_MASK: Final = (1 << _BITS) - 1

#: Dealer outcomes: 17 to 21, bust, blackjack.
_BUST: Final = 5
_BJ: Final = 6


class Action(Choice):
    """A chart's letters (the usual ones: Wizard of Odds' and Griffin's)."""

    HIT = "H"
    STAND = "S"
    DOUBLE = "D"
    SPLIT = "P"
    SURRENDER = "R"


def _count(key: int, v: int) -> int:
    return (key >> (_BITS * (v - 1))) & _MASK


def _total(key: int) -> tuple[int, bool, int]:
    """Best total, whether soft, and the number of cards of a composition (BJ.values)."""
    hard = 0
    cards = 0
    for v in _VALUES:
        n = _count(key, v)
        hard += n * v
        cards += n
    if _count(key, 1) and hard <= 11:
        return hard + 10, True, cards
    return hard, False, cards


# --- the dealer -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class _DealerGraph:
    """Every hand the dealer can hold after the up card, by the cards drawn, in draw order.

    For state ``i``: ``depth[i]`` cards drawn after the up card; ``kids[i]`` each value the
    next card may have that leads to a later state, as (value, how many of that value the
    state drew, that state); ``ends[i]`` the values that end the hand, by outcome.
    """

    depth: tuple[int, ...]
    kids: tuple[tuple[tuple[int, int, int], ...], ...]
    ends: tuple[tuple[tuple[int, tuple[tuple[int, int], ...]], ...], ...]


@cache
def _dealer_graph(up: int, *, hits_soft_17: bool) -> _DealerGraph:
    """The dealer's draws from an up card (C.bj.dealer-draw, A.dealer-draw; BJ.natural)."""
    index: dict[int, int] = {0: 0}
    order = [0]
    depth = [0]
    kids: list[list[tuple[int, int, int]]] = [[]]
    ends: list[dict[int, list[tuple[int, int]]]] = [{}]
    i = 0
    while i < len(order):
        key = order[i]
        hand = key + _BIT[up]
        for v in _VALUES:
            child = key + _BIT[v]
            total, soft, cards = _total(hand + _BIT[v])
            outcome: int | None = None
            if cards == 2 and total == 21:
                outcome = _BJ
            elif total > 21:
                outcome = _BUST
            elif total > 17 or (total == 17 and not (soft and hits_soft_17)):
                outcome = total - 17
            if outcome is not None:
                ends[i].setdefault(outcome, []).append((v, _count(key, v)))
                continue
            if child not in index:
                index[child] = len(order)
                order.append(child)
                depth.append(depth[i] + 1)
                kids.append([])
                ends.append({})
            kids[i].append((v, _count(key, v), index[child]))
        i += 1
    return _DealerGraph(
        depth=tuple(depth),
        kids=tuple(tuple(k) for k in kids),
        ends=tuple(tuple((o, tuple(c)) for o, c in sorted(e.items())) for e in ends),
    )


#: The dealer's outcomes by the cards out of the shoe, per deck count, up card and soft-17
#: rule: every profile with that shoe and dealer shares them (a profile's variants, the
#: rules' worths). The tables of a few shoes are kept, some 20 MB each.
_DEALER_TABLES: dict[tuple[int, int, bool], dict[int, list[float]]] = {}
_DEALER_SHOES: Final = 4


def _dealer_table(decks: int, up: int, *, hits_soft_17: bool) -> dict[int, list[float]]:
    key = (decks, up, hits_soft_17)
    table = _DEALER_TABLES.get(key)
    if table is None:
        shoes = list(dict.fromkeys((d, h) for d, _, h in _DEALER_TABLES))
        if (decks, hits_soft_17) not in shoes and len(shoes) >= _DEALER_SHOES:
            oldest = shoes[0]
            for stale in [k for k in _DEALER_TABLES if (k[0], k[2]) == oldest]:
                del _DEALER_TABLES[stale]
        table = _DEALER_TABLES[key] = {}
    return table


# --- the rules the analysis reads -------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """What a round's return depends on, read from a profile's typed parameters.

    Parameters that change no return are not here: rounding (the return is before
    MONEY.rounding), limits and funds (every extra stake is assumed covered), when a hole card
    is shown or a natural paid (VAR.bj.hole-card, A.nat-immediate: the same money),
    auto-stand (hitting 21 never gains), a double for less (VAR.bj.double-for-less: a
    double's return is its stake times that of one card then standing, so the best double is
    the full one or none) and the insurance stake (VAR.bj.insurance-stake: insurance is
    declined). The insurance rules price the declined offers only (``Declined``).
    """

    decks: int
    hits_soft_17: bool
    blackjack_pays: float
    peek: Peek
    dealer_blackjack_takes_all: bool
    double_on: DoubleOn
    double_after_split: bool
    split_pairs: SplitPairs
    max_hands: int
    resplit_aces: bool
    hit_split_aces: bool
    split_21_is_blackjack: bool
    surrender: bool
    surrender_early: bool
    surrender_after_split: bool
    insurance: bool
    insurance_pays: float
    no_double_split_after_insurance: bool

    @classmethod
    def of(cls, rules: BlackjackRules) -> Rules:
        """The analysed rules of a blackjack profile's typed parameters."""
        return cls(
            decks=rules.decks,
            hits_soft_17=rules.dealer_hits_soft_17,
            blackjack_pays=float(rules.blackjack_pays.ratio),
            peek=rules.peek,
            dealer_blackjack_takes_all=rules.dealer_blackjack_takes_all,
            double_on=rules.double_on,
            double_after_split=rules.double_after_split,
            split_pairs=rules.split_pairs,
            max_hands=rules.max_hands,
            resplit_aces=rules.resplit_aces,
            hit_split_aces=rules.hit_split_aces,
            split_21_is_blackjack=rules.split_21_is_blackjack,
            surrender=rules.surrender,
            surrender_early=rules.surrender_early,
            surrender_after_split=rules.surrender_after_split,
            insurance=rules.insurance,
            insurance_pays=float(rules.insurance_pays.ratio),
            no_double_split_after_insurance=rules.no_double_split_after_insurance,
        )

    @property
    def digest(self) -> str:
        """A digest of every rule the return depends on: the key of its cache."""
        text = ";".join(f"{f.name}={getattr(self, f.name)!s}" for f in fields(self))
        return hashlib.sha256(text.encode()).hexdigest()

    def peeks(self, up: int) -> bool:
        """Whether the dealer looks for a blackjack under this up card (A.peek, C.bj.peek)."""
        if up == 1:
            return self.peek is not Peek.NONE
        return up == 10 and self.peek is Peek.ACE_OR_TEN


# --- one up card ------------------------------------------------------------------------

#: The chart's rows: hard totals, soft totals, pairs (by value; 1 is the ace).
HARD_ROWS: Final = tuple(range(4, 22))
SOFT_ROWS: Final = tuple(range(12, 22))
PAIR_ROWS: Final = _VALUES
#: The order in which hit-or-stand cells are decided: a hit from each leads only to cells
#: decided before it (a hard total of 11 or more draws to a harder one; a soft total to a
#: higher soft one or a hard one of 12 or more; a hard total of 10 or less to anything).
_HS_ORDER: Final = (
    *((t, False) for t in range(20, 10, -1)),
    *((t, True) for t in range(20, 11, -1)),
    *((t, False) for t in range(10, 3, -1)),
)

#: What losing to a dealer blackjack found after play costs a stood hand: (single, doubled).
_Losses = tuple[float, float]


class _Up:
    """The analysis under one up card: the dealer's totals by composition, values, the chart."""

    def __init__(self, rules: Rules, up: int, *, plain: bool = False) -> None:
        self.rules = rules
        #: No double and no split: a seat that insured under C.bj.insurance.
        self.plain = plain
        self.up = up
        self.shoe = [0] + [n * rules.decks for n in _PER_DECK]
        self.shoe[up] -= 1
        self.cards = sum(self.shoe)
        self.peeked = rules.peeks(up)
        self.graph = _dealer_graph(up, hits_soft_17=rules.hits_soft_17)
        #: The value of the hole card that makes a blackjack, if any.
        self.bj_card = 10 if up == 1 else 1 if up == 10 else 0
        self._dealer = _dealer_table(rules.decks, up, hits_soft_17=rules.hits_soft_17)
        self._values: dict[tuple[int, int, _Losses, bool], float] = {}
        self._splits: dict[int, tuple[float, float]] = {}
        self._stakes: dict[tuple[int, int, bool], float] = {}
        self.hit_stand: dict[tuple[int, bool], Action] = {}
        #: The hit-or-stand cells where a hand of three cards or more doubles (VAR.bj.double-on).
        self.double_later: set[tuple[int, bool]] = set()
        self.first: dict[tuple[int, bool], Action] = {}
        self.pairs: dict[int, Action] = {}

    # The shoe once ``removed`` (a composition) is out of it.

    def left(self, removed: int, v: int) -> int:
        return self.shoe[v] - _count(removed, v)

    def size(self, removed: int) -> int:
        return self.cards - sum(_count(removed, v) for v in _VALUES)

    def no_blackjack(self, removed: int) -> float:
        """The chance the hole card makes no blackjack, with ``removed`` out of the shoe."""
        if not self.bj_card:
            return 1.0
        return 1.0 - self.left(removed, self.bj_card) / self.size(removed)

    def mass(self, removed: int) -> float:
        """The weight of play: the chance of no dealer blackjack where the dealer peeked.

        Under a peek, play happens only when the hole card makes no blackjack, and every
        value below is the return times that chance (the round's blackjacks are counted once,
        at the deal); without one, play happens always.
        """
        return self.no_blackjack(removed) if self.peeked else 1.0

    def dealer(self, removed: int) -> list[float]:
        """The chance of each dealer outcome with ``removed`` out of the shoe (outcome order)."""
        found = self._dealer.get(removed)
        if found is not None:
            return found
        left = [0] + [self.shoe[v] - _count(removed, v) for v in _VALUES]
        size = sum(left)
        graph = self.graph
        depth = graph.depth
        reach = [0.0] * len(depth)
        reach[0] = 1.0
        out = [0.0] * 7
        # A reachable state never drew more of a value than the shoe holds, so every count
        # below is 0 or more; an unreachable one has reach 0 and is skipped.
        for i, (kids, ends) in enumerate(zip(graph.kids, graph.ends, strict=True)):
            p = reach[i]
            if p == 0.0:
                continue
            p /= size - depth[i]
            for v, drawn, target in kids:
                reach[target] += p * (left[v] - drawn)
            for outcome, cards in ends:
                n = 0
                for v, drawn in cards:
                    n += left[v] - drawn
                out[outcome] += p * n
        self._dealer[removed] = out
        return out

    # Values of a hand (its cards ``hand``; ``removed`` is those and the other split card).

    def stand(self, hand: int, removed: int, stake: int, losses: _Losses) -> float:
        """A hand standing on its total against the dealer (BJ.compare; C.bj.peek)."""
        total = _total(hand)[0]
        out = self.dealer(removed)
        win = out[_BUST]
        lose = 0.0
        for i in range(5):
            if 17 + i < total:
                win += out[i]
            elif 17 + i > total:
                lose += out[i]
        if self.peeked:
            return stake * (win - lose)  # a blackjack never reaches play (``mass``)
        return stake * (win - lose) - losses[stake - 1] * out[_BJ]

    def play(self, hand: int, removed: int, losses: _Losses, *, split: bool = False) -> float:
        """A hand that may hit or stand now (or double, on any cards), played by the chart."""
        key = (hand, removed, losses, split)
        found = self._values.get(key)
        if found is not None:
            return found
        total, soft, _ = _total(hand)
        if total > 21:
            value = -self.mass(removed)
        elif total == 21:
            # BJ.auto-stand: 21 stands (hitting it never gains).
            value = self.stand(hand, removed, 1, losses)
        elif self.doubles_later(hand, split=split):
            value = self.double(hand, removed, losses)
        elif self.hit_stand[total, soft] is Action.STAND:
            value = self.stand(hand, removed, 1, losses)
        else:
            value = self.hit(hand, removed, losses, split=split)
        self._values[key] = value
        return value

    def doubles_later(self, hand: int, *, split: bool) -> bool:
        """Whether the chart doubles this hand of three cards or more (VAR.bj.double-on)."""
        total, soft, cards = _total(hand)
        return (
            cards > 2
            and (total, soft) in self.double_later
            and self.may_double(hand, split=split, later=True)
        )

    def play_stake(self, hand: int, removed: int, *, split: bool = False) -> float:
        """What playing on by the chart adds to the hand's stake, ``mass``-weighted.

        A double after hits, where any hand may double (VAR.bj.double-on); else nothing.
        """
        if not self.double_later:
            return 0.0
        key = (hand, removed, split)
        found = self._stakes.get(key)
        if found is not None:
            return found
        total, soft, _ = _total(hand)
        stake = 0.0
        if total >= 21:
            stake = 0.0
        elif self.doubles_later(hand, split=split):
            stake = self.mass(removed)
        elif self.hit_stand[total, soft] is Action.HIT:
            stake = sum(
                chance * self.play_stake(after, gone, split=split)
                for chance, after, gone in self.draws(hand, removed)
            )
        self._stakes[key] = stake
        return stake

    def draws(self, hand: int, removed: int) -> Iterator[tuple[float, int, int]]:
        """Each next card the shoe can give: its chance, the hand and the cards out after it."""
        size = self.size(removed)
        for v in _VALUES:
            n = self.left(removed, v)
            if n > 0:
                yield n / size, hand + _BIT[v], removed + _BIT[v]

    def hit(self, hand: int, removed: int, losses: _Losses, *, split: bool = False) -> float:
        return sum(
            chance * self.play(after, gone, losses, split=split)
            for chance, after, gone in self.draws(hand, removed)
        )

    def may_double(self, hand: int, *, split: bool, later: bool = False) -> bool:
        """Whether the hand may double (A.double, C.bj.double, VAR.bj.double-on)."""
        rules = self.rules
        if self.plain or (split and not rules.double_after_split):
            return False
        if later or rules.double_on is DoubleOn.ANY_CARDS:
            return rules.double_on is DoubleOn.ANY_CARDS
        if rules.double_on is DoubleOn.ANY_TWO:
            return True
        totals = (9, 10, 11) if rules.double_on is DoubleOn.NINE_TO_ELEVEN else (10, 11)
        return _total(hand)[0] in totals

    def double(self, hand: int, removed: int, losses: _Losses) -> float:
        """One card, twice the stake, then stand (A.double, C.bj.double)."""
        value = 0.0
        for chance, after, gone in self.draws(hand, removed):
            if _total(after)[0] > 21:
                value -= chance * 2 * self.mass(gone)
            else:
                value += chance * self.stand(after, gone, 2, losses)
        return value

    def surrender(self, removed: int) -> float:
        """Half the stake back (C.bj.surrender, VAR.bj.surrender).

        Late: after the peek where there is one. Early, under an up card the dealer looks
        under: before it, so half the stake even against a blackjack; the round's
        blackjacks are counted at the deal (``round_value``), which this adds back.
        """
        if self.rules.surrender_early and self.peeked:
            return -0.5 + (1 - self.no_blackjack(removed))
        return -0.5 * self.mass(removed)

    def two_card_options(
        self, hand: int, removed: int, losses: _Losses, *, split: bool
    ) -> dict[Action, float]:
        """The values of what a two-card hand may do besides splitting."""
        rules = self.rules
        options = {Action.HIT: self.play(hand, removed, losses, split=split)}
        if self.may_double(hand, split=split):
            options[Action.DOUBLE] = self.double(hand, removed, losses)
        # Early surrender is asked before play, of the first two cards only (VAR.bj.surrender).
        after_split = rules.surrender_after_split and not rules.surrender_early
        if rules.surrender and (not split or after_split):
            options[Action.SURRENDER] = self.surrender(removed)
        return options

    def by_chart(self, options: dict[Action, float], chosen: Action) -> float:
        """The value of the chart's action, or hit-or-stand where it is not open."""
        return options.get(chosen, options[Action.HIT])

    # Splits (C.bj.split, A.split, VAR.bj.resplit; BJ.deal-order).

    def split_card(self, v: int, w: int, split_cards: int, losses: _Losses) -> tuple[float, float]:
        """A split hand of ``v`` whose second card is ``w``: its value, and its doubled stake.

        ``split_cards`` values ``v`` are out of the shoe: the pair and every card moved to a
        new hand by a re-split.
        """
        rules = self.rules
        hand, gone = _BIT[v] + _BIT[w], split_cards * _BIT[v] + _BIT[w]
        total, soft, _ = _total(hand)
        if total == 21 and rules.split_21_is_blackjack:
            return rules.blackjack_pays * self.no_blackjack(gone), 0.0
        if total == 21 or (v == 1 and not rules.hit_split_aces):
            return self.stand(hand, gone, 1, losses), 0.0
        options = self.two_card_options(hand, gone, losses, split=True)
        chosen = self.first.get((total, soft), Action.HIT)
        return self.by_chart(options, chosen), self.action_stake(
            options, chosen, hand, gone, split=True
        )

    def action_stake(
        self, options: dict[Action, float], chosen: Action, hand: int, removed: int, *, split: bool
    ) -> float:
        """What the chart's action on a two-card hand adds to its stake, ``mass``-weighted."""
        if chosen not in options:
            chosen = Action.HIT
        if chosen is Action.DOUBLE:
            return self.mass(removed)
        if chosen is Action.HIT:
            return self.play_stake(hand, removed, split=split)
        return 0.0

    def split_play(self, v: int) -> tuple[float, float]:
        """A split pair of ``v``, re-split as the profile allows: its value and extra stake.

        Hands are played in order, each drawing its second card (BJ.deal-order); another
        ``v`` starts a new hand while the seat holds fewer than ``max_hands`` (split aces
        only if ``resplit_aces``). With one split (``max_hands`` 2) every hand's value is
        exact: by the symmetry of a shuffled shoe, a hand that draws by its own cards has
        the same joint law with the dealer's cards whatever was drawn before it, so each is
        valued from the shoe less the pair and its own cards. With re-splits each hand is
        valued from the shoe less its own cards and every ``v`` moved to a hand, not the
        other hands' cards (the usual simplification, as the Wizard of Odds' analyses make
        it: a hand's value depends on how many hands were split, not on their cards).
        Where a dealer blackjack found after play takes the original stake only
        (``dealer_blackjack_takes``), only the first hand loses it.
        """
        found = self._splits.get(v)
        if found is not None:
            return found
        rules = self.rules
        most = rules.max_hands if v != 1 or rules.resplit_aces else 2
        memo: dict[tuple[int, int, int], tuple[float, float]] = {}
        cards: dict[tuple[int, int, int], tuple[float, float]] = {}

        def hands(count: int, done: int, split_cards: int) -> tuple[float, float]:
            if done == count:
                return 0.0, 0.0
            key = (count, done, split_cards)
            known = memo.get(key)
            if known is not None:
                return known
            index = 0 if rules.dealer_blackjack_takes_all or done == 0 else 1
            losses = self.losses() if index == 0 else (0.0, 0.0)
            removed = split_cards * _BIT[v]
            size = self.size(removed)
            value = stake = 0.0
            for w in _VALUES:
                n = self.left(removed, w)
                if n == 0:
                    continue
                if w == v and count < most:
                    later_value, later_stake = hands(count + 1, done, split_cards + 1)
                    value += n / size * later_value
                    stake += n / size * (self.mass(removed + _BIT[v]) + later_stake)
                    continue
                hand = cards.get((w, split_cards, index))
                if hand is None:
                    hand = cards[w, split_cards, index] = self.split_card(v, w, split_cards, losses)
                rest_value, rest_stake = hands(count, done + 1, split_cards)
                value += n / size * (hand[0] + rest_value)
                stake += n / size * (hand[1] + rest_stake)
            memo[key] = value, stake
            return value, stake

        value, stake = hands(2, 0, 2)
        found = self._splits[v] = value, stake + self.mass(2 * _BIT[v])
        return found

    def split(self, v: int) -> float:
        """The value of splitting a pair of ``v`` (``split_play``)."""
        return self.split_play(v)[0]

    # The chart.

    def losses(self) -> _Losses:
        return (1.0, 2.0) if self.rules.dealer_blackjack_takes_all else (1.0, 1.0)

    def decide(self) -> None:
        """Fill the chart: every cell the action with the most return over its hands.

        Hit or stand first, cell by cell in ``_HS_ORDER``, each over every composition of
        its total weighted by its chance of being dealt (and, where any hand may double,
        whether a hand of three cards or more doubles); then the two-card cells (double,
        surrender), over the two-card hands that are not pairs; then each pair.
        """
        losses = self.losses()
        by_cell: dict[tuple[int, bool], list[tuple[int, float]]] = {}
        for hand, weight in _compositions(self.rules.decks, self.up):
            total, soft, _ = _total(hand)
            if total < 21:
                by_cell.setdefault((total, soft), []).append((hand, weight))
        later = self.rules.double_on is DoubleOn.ANY_CARDS and not self.plain
        for cell in _HS_ORDER:
            # The sums over every hand of the cell, and over those of three cards or more.
            stand = hit = stand_later = hit_later = double_later = 0.0
            for hand, weight in by_cell.get(cell, ()):
                stood = weight * self.stand(hand, hand, 1, losses)
                hits = weight * self.hit(hand, hand, losses)
                stand += stood
                hit += hits
                if later and _total(hand)[2] > 2:
                    stand_later += stood
                    hit_later += hits
                    double_later += weight * self.double(hand, hand, losses)
            self.hit_stand[cell] = Action.STAND if stand >= hit else Action.HIT
            played = stand_later if self.hit_stand[cell] is Action.STAND else hit_later
            if later and double_later > played:
                # VAR.bj.double-on any-cards: a hand of three cards or more doubles here.
                self.double_later.add(cell)
        for cell, sums in self._two_card_sums(losses).items():
            self.first[cell] = max(sums, key=lambda a: sums[a])
        for v in PAIR_ROWS:
            hand = 2 * _BIT[v]
            options = self.two_card_options(hand, hand, losses, split=False)
            if not self.plain and (v < 10 or _ten_pairs(self.rules, self.up)):
                options[Action.SPLIT] = self.split(v)
            self.pairs[v] = max(options, key=lambda a: options[a])

    def _two_card_sums(self, losses: _Losses) -> dict[tuple[int, bool], dict[Action, float]]:
        sums: dict[tuple[int, bool], dict[Action, float]] = {}
        for a in _VALUES:
            for b in range(a + 1, 11):
                hand = _BIT[a] + _BIT[b]
                total, soft, _ = _total(hand)
                if total == 21:
                    continue
                weight = self.left(0, a) * self.left(_BIT[a], b)
                cell = sums.setdefault((total, soft), {})
                for action, value in self.two_card_options(hand, hand, losses, split=False).items():
                    cell[action] = cell.get(action, 0.0) + weight * value
        return sums

    def two_card_value(self, a: int, b: int) -> float:
        """A starting hand's value by the chart, ``mass``-weighted (naturals at 3:2)."""
        hand = _BIT[a] + _BIT[b]
        total, soft, _ = _total(hand)
        if total == 21:
            return self.rules.blackjack_pays * self.no_blackjack(hand)
        losses = self.losses()
        if a != b:
            options = self.two_card_options(hand, hand, losses, split=False)
            return self.by_chart(options, self.first[total, soft])
        options = self.two_card_options(hand, hand, losses, split=False)
        chosen = self.pairs[a]
        if a < 10:
            if chosen is Action.SPLIT:
                return self.split(a)
            return self.by_chart(options, chosen)
        # Two ten-valued cards: a pair only if the profile's rule says so (A.split).
        share = _ten_pairs(self.rules, self.up)
        unsplit = self.by_chart(options, self.first.get((total, soft), Action.HIT))
        if chosen is Action.SPLIT and share:
            return share * self.split(10) + (1 - share) * unsplit
        return unsplit

    def starting_hands(self) -> Iterator[tuple[int, int, float]]:
        """Each starting hand (two values, the lower first) and its chance under this up card."""
        size = self.cards
        for a in _VALUES:
            for b in range(a, 11):
                na = self.left(0, a)
                nb = self.left(_BIT[a], b)
                if na > 0 and nb > 0:
                    yield a, b, na * nb / (size * (size - 1)) * (1 if a == b else 2)

    def round_value(self) -> float:
        """The return of a round under this up card, given the up card (A.peek, C.bj.peek)."""
        value = 0.0
        for a, b, chance in self.starting_hands():
            hand = _BIT[a] + _BIT[b]
            found = self.two_card_value(a, b)
            if self.peeked:
                # Dealer blackjack, found at the peek: a natural pushes, else one stake lost.
                natural = _total(hand)[0] == 21
                found += (1 - self.no_blackjack(hand)) * (0.0 if natural else -1.0)
            value += chance * found
        return value

    def round_stake(self) -> float:
        """The mean of all a round stakes under this up card, doubles and splits included."""
        stake = 0.0
        for a, b, chance in self.starting_hands():
            stake += chance * (1 + self.extra_stake(a, b))
        return stake

    def extra_stake(self, a: int, b: int) -> float:
        """What a starting hand stakes beyond its first stake, ``mass``-weighted."""
        hand = _BIT[a] + _BIT[b]
        total, soft, _ = _total(hand)
        if total == 21:
            return 0.0
        options = self.two_card_options(hand, hand, self.losses(), split=False)
        unsplit = self.action_stake(
            options, self.first.get((total, soft), Action.HIT), hand, hand, split=False
        )
        if a != b:
            return unsplit
        chosen = self.pairs[a]
        if chosen is not Action.SPLIT:
            if a < 10:
                return self.action_stake(options, chosen, hand, hand, split=False)
            return unsplit
        split = self.split_play(a)[1]
        if a < 10:
            return split
        share = _ten_pairs(self.rules, self.up)
        return share * split + (1 - share) * unsplit

    def insurance(self, pays: float) -> float:
        """Insuring every starting hand but a natural, per unit of the first stake (A.insurance).

        The insurance stake is half the first stake (BJ.half-stakes, before rounding).
        """
        found = 0.0
        for a, b, chance in self.starting_hands():
            hand = _BIT[a] + _BIT[b]
            if _total(hand)[0] == 21:
                continue
            blackjack = 1 - self.no_blackjack(hand)
            found += chance * 0.5 * (pays * blackjack - (1 - blackjack))
        return found

    def even_money(self) -> float:
        """What taking even money on every natural loses against declining it (A.even-money)."""
        found = 0.0
        for a, b, chance in self.starting_hands():
            hand = _BIT[a] + _BIT[b]
            if _total(hand)[0] == 21:
                found += chance * (1.0 - self.rules.blackjack_pays * self.no_blackjack(hand))
        return found


def _compositions(decks: int, up: int) -> Iterator[tuple[int, float]]:
    """Every hand of two cards or more the shoe can hold under ``up``, and its chance.

    Hands total 21 or less with aces as 1; the chance is that of the player's first cards
    being those, in any order.
    """
    shoe = [0] + [n * decks for n in _PER_DECK]
    shoe[up] -= 1
    size = sum(shoe)
    # Ways to draw the composition in some order, over ways to draw that many cards.
    for key, cards_count in _multisets(shoe):
        ways = 1.0
        cards = 0
        for v in _VALUES:
            n = _count(key, v)
            ways *= comb(cards + n, n) * _falling(shoe[v], n)
            cards += n
        yield key, ways / _falling(size, cards_count)


def _multisets(shoe: list[int]) -> Iterator[tuple[int, int]]:
    """Every multiset of two values or more summing to 21 or less, with its size."""

    def grow(v: int, key: int, hard: int, cards: int) -> Iterator[tuple[int, int]]:
        if v > 10:
            if cards >= 2:
                yield key, cards
            return
        n = 0
        while True:
            yield from grow(v + 1, key, hard, cards)
            n += 1
            hard += v
            if hard > 21 or n > shoe[v]:
                return
            key += _BIT[v]
            cards += 1

    yield from grow(1, 0, 0, 0)


def _falling(n: int, k: int) -> int:
    result = 1
    for i in range(k):
        result *= n - i
    return result


@cache
def _ten_pairs(rules: Rules, up: int) -> float:
    """The chance that two ten-valued cards are a pair the profile splits (A.split, C.bj.split).

    Averaged over the ten-valued rank of the up card, when it is one.
    """
    tens = [r for r in Rank if r.is_ten_valued]
    ups = tens if up == 10 else [None]
    share = 0.0
    for up_rank in ups:
        left = {r: 4 * rules.decks - (1 if r is up_rank else 0) for r in tens}
        pairs = total = 0
        for r1 in tens:
            for r2 in tens:
                ways = left[r1] * (left[r2] - (1 if r1 is r2 else 0))
                total += ways
                if is_pair(rules.split_pairs, _card(r1), _card(r2)):
                    pairs += ways
        share += pairs / total
    return share / len(ups)


def _card(rank: Rank) -> Card:
    return Card(rank=rank, suit=Suit.SPADES)


# --- the whole round --------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Chart:
    """The basic strategy: per up card (1 is the ace), each hard, soft and pair row's action.

    ``hard`` and ``soft`` give the two-card action (double and surrender included) where a
    two-card hand of that total exists, and the hit-or-stand action of every other hand in
    ``hit_stand``.
    """

    hard: dict[int, dict[int, Action]]
    soft: dict[int, dict[int, Action]]
    pairs: dict[int, dict[int, Action]]
    hit_stand: dict[int, dict[tuple[int, bool], Action]]
    #: Where any hand may double (VAR.bj.double-on): the cells where three cards or more do.
    double_later: dict[int, frozenset[tuple[int, bool]]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Declined:
    """What the declined offers would cost, per round, per unit of the first stake.

    ``insurance``: insuring every hand but a natural whenever the dealer shows an ace
    (A.insurance, C.bj.insurance), play unchanged. ``after_insurance``: what the seat then
    loses where the profile forbids doubling and splitting after insurance
    (C.bj.insurance), by playing the best chart without them under an ace. ``even_money``:
    taking even money on every natural against an ace instead of waiting (A.even-money).
    Each is a change in the return: negative costs the player.
    """

    insurance: float
    after_insurance: float
    even_money: float


@dataclass(frozen=True, slots=True, kw_only=True)
class StrategyReturn:
    """A profile's return under basic strategy, per unit of the first stake, and its chart.

    ``returns`` is the player's net return (``-house_edge``); ``by_up`` that under each up
    card; ``stake`` the mean of all a round stakes, doubles and splits included, so that a
    log's return per unit staked can be set beside ``per_unit_staked``.
    """

    rules: Rules
    returns: float
    by_up: dict[int, float]
    stake: float
    chart: Chart
    declined: Declined
    error_bound: float = ERROR_BOUND

    @property
    def house_edge(self) -> float:
        """The share of each first stake the house keeps: minus the player's net return."""
        return -self.returns

    @property
    def per_unit_staked(self) -> float:
        """What a unit staked returns, stake included, counting doubled and split stakes."""
        return 1 + self.returns / self.stake

    @property
    def per_unit_staked_exact(self) -> Fraction:
        """``per_unit_staked`` as a decimal of 12 places: every digit is within the error bound."""
        return _decimal(self.per_unit_staked)

    @property
    def returns_exact(self) -> Fraction:
        """``returns`` as a decimal of 12 places: every digit is within the error bound."""
        return _decimal(self.returns)


def _decimal(value: float) -> Fraction:
    return Fraction(round(value * _PLACES), _PLACES)


#: 10 ** 12: the places of a return that the error bound leaves exact.
_PLACES: Final = 10**12


def analyse(rules: Rules) -> StrategyReturn:
    """The return and chart of ``rules``, computed once per digest of the rules."""
    found = _CACHE.get(rules.digest)
    if found is None:
        found = _CACHE[rules.digest] = _analyse(rules)
    return found


_CACHE: dict[str, StrategyReturn] = {}


def _analyse(rules: Rules) -> StrategyReturn:
    shoe = [n * rules.decks for n in _PER_DECK]
    size = sum(shoe)
    total = stake = 0.0
    by_up: dict[int, float] = {}
    hard: dict[int, dict[int, Action]] = {}
    soft: dict[int, dict[int, Action]] = {}
    pairs: dict[int, dict[int, Action]] = {}
    hit_stand: dict[int, dict[tuple[int, bool], Action]] = {}
    double_later: dict[int, frozenset[tuple[int, bool]]] = {}
    insurance = after_insurance = even_money = 0.0
    for up in _VALUES:
        chance = shoe[up - 1] / size
        analysis = _Up(rules, up)
        analysis.decide()
        value = analysis.round_value()
        by_up[up] = value
        total += chance * value
        stake += chance * analysis.round_stake()
        hit_stand[up] = dict(analysis.hit_stand)
        double_later[up] = frozenset(analysis.double_later)
        hard[up], soft[up] = {}, {}
        for (t, is_soft), action in analysis.hit_stand.items():
            first = analysis.first.get((t, is_soft), Action.HIT)
            (soft if is_soft else hard)[up][t] = action if first is Action.HIT else first
        pairs[up] = {
            v: analysis.hit_stand[_total(2 * _BIT[v])[:2]] if a is Action.HIT else a
            for v, a in analysis.pairs.items()
        }
        if up == 1 and rules.insurance:
            insurance = chance * analysis.insurance(rules.insurance_pays)
            even_money = chance * analysis.even_money()
            if rules.no_double_split_after_insurance:
                plain = _Up(rules, up, plain=True)
                plain.decide()
                after_insurance = chance * (plain.round_value() - value)
    return StrategyReturn(
        rules=rules,
        returns=total,
        by_up=by_up,
        stake=stake,
        chart=Chart(
            hard=hard, soft=soft, pairs=pairs, hit_stand=hit_stand, double_later=double_later
        ),
        declined=Declined(
            insurance=insurance, after_insurance=after_insurance, even_money=even_money
        ),
    )


def clear_caches() -> None:
    """Forget every computed return and dealer table (a benchmark's cold start)."""
    _CACHE.clear()
    _DEALER_TABLES.clear()


def rules_of(profile: Profile) -> Rules:
    """The analysed rules of a blackjack profile; ``ProfileError`` for another game."""
    if profile.game is not Game.BLACKJACK:
        raise ProfileError(
            f"profile {profile.id!r} is a {profile.game.value} profile, not blackjack",
            profile=profile.id,
        )
    return Rules.of(BlackjackRules.from_profile(profile))


def strategy_return(profile: Profile) -> StrategyReturn:
    """The basic-strategy return of a blackjack profile (``analyse``)."""
    return analyse(rules_of(profile))


# --- the shipped profiles' figure ----------------------------------------------------------

#: The shipped blackjack profiles' ``per_unit_staked_exact``, beside this module: an
#: audit sets only that figure beside a log, and the analysis costs seconds of a core a
#: profile. Each entry is keyed by its ``Rules.digest``, so rules that differ (a lab's, or a
#: shipped profile changed) are analysed; a test recomputes every entry (``figures_text``).
FIGURES_FILE: Final = "basic_strategy.toml"


def per_unit_staked(rules: Rules) -> Fraction:
    """What a unit staked returns under basic strategy, to 12 places (``StrategyReturn``).

    The shipped table's figure when it holds these rules' digest; analysed otherwise.
    """
    found = shipped_per_unit_staked(rules)
    return found if found is not None else analyse(rules).per_unit_staked_exact


def shipped_per_unit_staked(rules: Rules) -> Fraction | None:
    """The shipped table's figure for these rules (``FIGURES_FILE``); None if it has none."""
    return _shipped_figures().get(rules.digest)


@cache
def _shipped_figures() -> dict[str, Fraction]:
    text = resources.files("croupier.oracle").joinpath(FIGURES_FILE).read_text("utf-8")
    return {e["digest"]: Fraction(e["per_unit_staked"]) for e in tomllib.loads(text).values()}


def figures_text(profiles: Iterable[Profile] | None = None) -> str:
    """``FIGURES_FILE``'s text, each blackjack profile analysed (``make figures`` writes it)."""
    lines = [
        "# Basic strategy's return per unit staked of each shipped blackjack profile, to 12",
        "# places (oracle.basic_strategy.per_unit_staked). Written by `make figures`; a test",
        "# recomputes it. An entry serves only rules whose digest is the one written here.",
    ]
    chosen = shipped_profiles() if profiles is None else tuple(profiles)
    for profile in chosen:
        if profile.game is not Game.BLACKJACK:
            continue
        rules = rules_of(profile)
        figure = analyse(rules).per_unit_staked_exact
        whole, part = divmod(figure.numerator * _PLACES // figure.denominator, _PLACES)
        lines += [
            "",
            f"[{profile.id}]",
            f'digest = "{rules.digest}"',
            f'per_unit_staked = "{whole}.{part:012d}"',
        ]
    return "\n".join(lines) + "\n"


# --- what each rule is worth --------------------------------------------------------------

#: The standard game the contributions are measured from (the usual calculators' base,
#: with the profile's deck count): dealer stands on soft 17, 3:2, peek under an ace and a
#: ten, double any two cards and after a split, one split, same-rank pairs, one card to
#: split aces, no surrender.
STANDARD: Final = {
    "hits_soft_17": False,
    "blackjack_pays": 1.5,
    "peek": Peek.ACE_OR_TEN,
    "dealer_blackjack_takes_all": True,
    "double_on": DoubleOn.ANY_TWO,
    "double_after_split": True,
    "split_pairs": SplitPairs.SAME_RANK,
    "max_hands": 2,
    "resplit_aces": False,
    "hit_split_aces": False,
    "split_21_is_blackjack": False,
    "surrender": False,
    "surrender_early": False,
    "surrender_after_split": False,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Contribution:
    """One rule's worth: the return before and after the game takes the profile's value."""

    rule: str
    standard: str
    profile: str
    before: float
    after: float

    @property
    def worth(self) -> float:
        """What the rule adds to the player's return (negative: what it costs)."""
        return self.after - self.before


def contributions(rules: Rules) -> tuple[StrategyReturn, tuple[Contribution, ...]]:
    """The standard game's return, then the worth of each rule of ``rules`` that differs.

    The rules are applied one after another in ``STANDARD``'s order, so that the worths add
    up to the profile's return.
    """
    current = evolve(rules, **STANDARD)
    base = analyse(current)
    before = base.returns
    found = []
    for name in STANDARD:
        wanted = getattr(rules, name)
        if getattr(current, name) == wanted:
            continue
        shown = _shown(getattr(current, name))
        current = evolve(current, **{name: wanted})
        after = analyse(current).returns
        found.append(
            Contribution(
                rule=name, standard=shown, profile=_shown(wanted), before=before, after=after
            )
        )
        before = after
    return base, tuple(found)


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Choice):
        return str(value.value)
    return str(value)
