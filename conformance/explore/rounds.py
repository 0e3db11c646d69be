"""Rounds an engine has never seen: what a drawn vector of one profile is made of.

Described with ``conformance.explore.draws``: explore samples these specs in bulk from a
seeded generator, and Hypothesis draws the same choices through ``Spec.strategy`` (to shrink
a mismatch, and in the tests).

Each drawn vector is played through the oracle as it is drawn (``conformance.vectors.
play_round``), so it carries the oracle's answers and citations like any corpus vector and
the runner judges it the same way. What is drawn:

- card shoes: a stacked top from a palette of one to four ranks (pairs, aces and tens up,
  naturals, split 21s and soft 17s come often), then the rest of the profile's decks in a
  seeded order;
- one to three seats: stakes odd, of one unit, at the table's limits; balances from the bare
  stake (the funds rule bites) to plenty;
- blackjack decisions drawn at each turn among the legal ones (shrinking towards the first);
- roulette: one spin, a few or a full board at one table, bets of every kind the wheel has;
- at most one fault (``FAULTS``): each must be refused with the contract's reason.

Everything shrinks: fewer rounds, seats, bets and decisions, smaller stakes, the plain shoe.
The test suite draws from these specs too (``tests/strategies.py``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, TypeVar

from croupier.conformance.explore import draws
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import (
    PlayedRound,
    finish_vector,
    play_round,
    with_amounts,
)
from croupier.oracle import baccarat, roulette
from croupier.oracle.cards import DECK, RANKS, Card, Rank
from croupier.oracle.clauses import Game
from croupier.oracle.profile import Profile
from croupier.oracle.roulette import DOUBLE_ZERO, BetKind, Wheel
from croupier.oracle.rounds import BlackjackWager, SeatRequest, Wager
from croupier.oracle.service import convert
from croupier.oracle.shoe import SeededStream
from croupier.v1 import engine_service_pb2, round_pb2

#: Faults of any game's deal: stakes, the currency, the profile, the round id; and a Decide
#: for a round never dealt.
_DEAL_FAULTS = (
    "stake over the balance",
    "stake under the minimum",
    "stake over the maximum",
    "stake in another currency",
    "currency not a currency",
    "unknown profile",
    "malformed round id",
    "reused round id",
    "decision for another round",
    # What a corpus easily never asks: the round after its Settle, ids in another case.
    "settle twice",
    "round id in another case",
)
#: Faults of a card game's shoe.
_SHOE_FAULTS = ("malformed card", "card over the decks", "shoe cut short")

#: The one thing a drawn vector may get wrong, per game; each is refused by the contract.
FAULTS: dict[Game, tuple[str, ...]] = {
    Game.BLACKJACK: (
        *_DEAL_FAULTS,
        *_SHOE_FAULTS,
        "illegal decision",
        "settle before the end",
        "decision after the end",
        "illegal decision, play on",
        "settle before the end, play on",
    ),
    Game.BACCARAT: (
        *_DEAL_FAULTS,
        *_SHOE_FAULTS,
        "two bets of one kind",
        "decision in a game without",
    ),
    Game.ROULETTE: (
        *_DEAL_FAULTS,
        "pocket off the wheel",
        # Drawn as often as all the deal faults: the layout has many shapes to get wrong.
        *("near-miss shape",) * len(_DEAL_FAULTS),
        "decision in a game without",
    ),
}

#: Faults that need another profile of the engine, of the same game: one round id under two
#: profiles (ROUND_EXISTS), and for roulette one table id under two (two boards).
ACROSS: dict[Game, tuple[str, ...]] = {
    Game.BLACKJACK: ("round id of another profile",),
    Game.BACCARAT: ("round id of another profile",),
    Game.ROULETTE: ("round id of another profile", "table of another profile"),
}

#: The reason the contract gives each fault (engine_service.proto, DESIGN.md "Refusals"); an
#: empty reason: the call is accepted (an id in another case is another id; a table under
#: another profile is another board).
REFUSAL: dict[str, str] = {
    "stake over the balance": "INSUFFICIENT_BALANCE",
    "stake under the minimum": "BET_OUT_OF_LIMITS",
    "stake over the maximum": "BET_OUT_OF_LIMITS",
    "stake in another currency": "INVALID_ROUND",
    "currency not a currency": "INVALID_ROUND",
    "unknown profile": "UNKNOWN_PROFILE",
    "malformed round id": "INVALID_ROUND",
    "reused round id": "ROUND_EXISTS",
    "malformed card": "INVALID_CARD",
    "card over the decks": "SHOE_NOT_IN_PROFILE",
    "shoe cut short": "SHOE_EXHAUSTED",
    "illegal decision": "ILLEGAL_DECISION",
    "decision for another round": "ROUND_NOT_FOUND",
    "settle before the end": "ROUND_NOT_COMPLETE",
    "two bets of one kind": "INVALID_ROUND",
    "pocket off the wheel": "INVALID_ROUND",
    "near-miss shape": "INVALID_BET_LAYOUT",
    "decision in a game without": "ILLEGAL_DECISION",
    "settle twice": "ROUND_NOT_FOUND",
    "decision after the end": "ILLEGAL_DECISION",
    "illegal decision, play on": "ILLEGAL_DECISION",
    "settle before the end, play on": "ROUND_NOT_COMPLETE",
    "round id in another case": "",
    "round id of another profile": "ROUND_EXISTS",
    "table of another profile": "",
}

#: One vector in this many carries a fault (shrinking aims at none).
_FAULT_EVERY = 4

#: Card texts that are not cards.
_JUNK_CARDS = ("10H", "th", "1S", "XX", "", "AS ", "KZ")


@cache
def _stakes(profile: Profile) -> draws.Spec[int]:
    low, high = profile.integer("min_bet"), profile.integer("max_bet")
    # Where exact arithmetic and floats part: multiples of 20 (a commission of 0.95 on 60 in
    # floats on major units is 56.99...), odd stakes at 3:2 and halves of odd stakes.
    floats = (15, 20, 30, 60, 120, 140, 380)
    edges = sorted({low, low + 1, 1, 3, 7, 25, 99, 101, 333, *floats, min(high, 10**6), high})
    return draws.one_of(
        draws.integers(min_value=low, max_value=min(high, 500)),
        draws.sampled_from([s for s in edges if low <= s <= high]),
    )


_T = TypeVar("_T")
_COIN = draws.integers(min_value=0, max_value=1)
_AIMED = draws.booleans()
_BETS = draws.integers(min_value=1, max_value=4)
_FOUR = draws.integers(min_value=0, max_value=3)
_SPAN = draws.integers(min_value=0, max_value=2**31 - 1)


def _balance(draw: draws.Draw, staked: int) -> int:
    """A balance from the bare stake to about three times it, or one of its round multiples.

    Drawn from specs built once; shrinks to the bare stake.
    """
    if draw(_COIN):
        return (staked, staked + staked // 2, 2 * staked, 3 * staked)[draw(_FOUR)]
    return staked + draw(_SPAN) % (2 * staked + 51)


def _wagers(draw: draws.Draw, profile: Profile) -> tuple[Wager, ...]:
    stakes = _stakes(profile)
    match profile.game:
        case Game.BLACKJACK:
            return (BlackjackWager(amount=draw(stakes)),)
        case Game.BACCARAT:
            chosen = draw(_BACCARAT_KINDS)
            return tuple(baccarat.BaccaratBet(kind=k, amount=draw(stakes)) for k in chosen)
        case Game.ROULETTE:
            kinds, shapes = _layout(profile)
            count = draw(_BETS)
            bets: list[Wager] = []
            for _ in range(count):
                kind = draw(kinds)
                numbers = draw(shapes[kind])
                bets.append(roulette.RouletteBet(kind=kind, numbers=numbers, amount=draw(stakes)))
            return tuple(bets)
    raise AssertionError(profile.game)


#: Spins at one table in a plain roulette draw: one (five in eight), a few, or a full board.
_SPINS = draws.integers(min_value=0, max_value=7).flatmap(
    lambda n: (draws.just(1), draws.integers(2, 4), draws.integers(14, 16))[(n >= 5) + (n >= 7)]
)

_BACCARAT_KINDS = draws.unique_lists(tuple(baccarat.BetKind), min_size=1, max_size=3)


@cache
def _layout(
    profile: Profile,
) -> tuple[draws.Spec[BetKind], dict[BetKind, draws.Spec[tuple[int, ...]]]]:
    """The kinds of the layout the table offers (VAR.rou.bets-offered), and each one's shapes.

    A kind it does not offer is a fault, drawn apart. Built once a profile: the layout's
    shapes are sorted anew at each call of ``roulette.shapes``.
    """
    wheel = Wheel(profile.choice("wheel"))
    offered = profile.words("bets_offered")
    kinds = [k for k in BetKind if roulette.shapes(wheel, k) and k.value in offered]
    return draws.sampled_from(kinds), {
        k: draws.sampled_from(roulette.shapes(wheel, k)) for k in kinds
    }


Hand = tuple[Rank, Rank]


@draws.composite
def _seat(draw: draws.Draw, profile: Profile) -> tuple[SeatRequest, Hand | None]:
    """A seat's wagers and balance; in blackjack, the shape of its first two cards too."""
    wagers = _wagers(draw, profile)
    staked = sum(w.amount for w in wagers)
    hand = draw(_two_cards) if profile.game is Game.BLACKJACK else None
    return SeatRequest(balance=_balance(draw, staked), wagers=wagers), hand


@cache
def _seat_lists(
    profile: Profile, least: int, most: int
) -> draws.Spec[list[tuple[SeatRequest, Hand | None]]]:
    return draws.lists(_seat(profile), min_size=least, max_size=most)


def _seats(
    draw: draws.Draw, profile: Profile, *, one_seat: bool = False, two: bool = False
) -> tuple[list[round_pb2.Seat], list[Hand]]:
    # A list, not a count: shrinking deletes a seat with its hand, and the rest stay aligned.
    # No more seats than the table takes (TABLE.seats); one or two where an aim fixes the
    # draws.
    most = 1 if one_seat else min(3, profile.integer("max_seats"))
    least = 1
    if two and profile.integer("max_seats") >= 2:
        least = most = 2
    drawn = draw(_seat_lists(profile, least, most))
    hands = [hand for _, hand in drawn if hand is not None]
    return convert.seats([request for request, _ in drawn], "EUR"), hands


def stacked_shoe(decks: int, ranks: Sequence[Rank], seed: int) -> tuple[Card, ...]:
    """Every card of ``decks`` decks: ``ranks`` on top, the rest in an order fixed by ``seed``.

    A rank the shoe has run out of gives way to the first card left (in fresh-deck order).
    """
    return tuple(_stacked(decks, ranks, seed, DECK))


#: Each rank's places in a fresh deck (``DECK``), in order; and each card's text.
_PLACES = {rank: tuple(i for i, c in enumerate(DECK) if c.rank is rank) for rank in RANKS}
_TEXTS = tuple(str(c) for c in DECK)


def _stacked(decks: int, ranks: Sequence[Rank], seed: int, cards: Sequence[_T]) -> list[_T]:
    """``stacked_shoe`` as ``cards`` (the deck's cards, or their texts), place by place."""
    left = [decks] * len(DECK)
    top: list[_T] = []
    for rank in ranks:
        place = next((i for i in _PLACES[rank] if left[i]), None)
        if place is None:
            place = next(i for i, n in enumerate(left) if n)
        left[place] -= 1
        top.append(cards[place])
    rest = [cards[i] for i, n in enumerate(left) for _ in range(n)]
    # Shuffling 300 cards through Hypothesis would cost milliseconds an example, and the
    # interesting cards are the stacked top, which shrinks.
    shuffle(rest, seed)
    return top + rest


def shuffle(items: list[_T], seed: int) -> None:
    """``random.Random(seed).shuffle(items)``, the same order, in about half the time.

    The same Fisher-Yates pass drawing each index by rejection from ``getrandbits`` as
    CPython's ``Random.shuffle`` and ``_randbelow`` do, with the bit count kept from one
    index to the next instead of recomputed, and no method call per card: a shoe is
    shuffled every explored round.
    """
    size = len(items)
    if size < 2:
        return
    bits = random.Random(seed).getrandbits  # noqa: S311 - a test shoe, not a secret
    width = size.bit_length()
    narrower = 1 << (width - 1)  # the smallest bound that still takes ``width`` bits
    for last in range(size - 1, 0, -1):
        bound = last + 1
        if bound < narrower:
            width -= 1
            narrower >>= 1
        pick = bits(width)
        while pick >= bound:
            pick = bits(width)
        items[last], items[pick] = items[pick], items[last]


_ACE = Rank.ACE
_TENS = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)
_LOW = (Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX)
_any_rank = draws.sampled_from(RANKS)
_ten = draws.sampled_from(_TENS)


def _either_order(
    first: draws.Spec[Rank], second: draws.Spec[Rank]
) -> draws.Spec[tuple[Rank, Rank]]:
    return draws.tuples(first, second, draws.booleans()).map(
        lambda t: (t[1], t[0]) if t[2] else (t[0], t[1])
    )


#: A blackjack hand's first two cards: any two (what shrinking aims at), or a shape that
#: makes a rule bite: a natural, a pair (aces and eights most), two ten-valued cards (a pair
#: or not, by the profile's pair rule), a soft hand, a stiff one.
_two_cards = draws.one_of(
    draws.tuples(_any_rank, _any_rank),
    _either_order(draws.just(_ACE), _ten),
    draws.sampled_from((_ACE, _ACE, Rank.EIGHT, Rank.TEN, *RANKS)).map(lambda r: (r, r)),
    draws.tuples(_ten, _ten),
    _either_order(draws.just(_ACE), draws.sampled_from(RANKS[1:9])),
    _either_order(_ten, draws.sampled_from(_LOW)),
)
#: The dealer's up and hole cards: a hand shape, or an ace or a ten up more often than a deck
#: deals them (the offers, the peek, the late blackjack and the insurance rules all start there).
_dealer_cards = draws.one_of(
    _two_cards,
    draws.tuples(draws.sampled_from((_ACE, _ACE, *_TENS, Rank.SIX, *RANKS)), _any_rank),
)
#: Cards drawn after the deal (hits, doubles, split hands, the dealer): tens and aces often.
_drawn_rank = draws.one_of(_any_rank, _ten, draws.just(_ACE), draws.sampled_from(_LOW))


def _blackjack_top(
    hands: Sequence[Hand], dealer: Hand | None = None, first: Sequence[Rank] = ()
) -> draws.Spec[list[Rank]]:
    """The top of a blackjack shoe in deal order (BJ.deal-order): the seats' hands, the dealer's, draws.

    ``dealer``, ``first``: the dealer's cards and the first cards drawn, when an aim fixes them.
    """

    def lay(up_hole: Hand, drawn: list[Rank]) -> list[Rank]:
        up_hole = dealer or up_hole
        return [
            *(h[0] for h in hands),
            up_hole[0],
            *(h[1] for h in hands),
            up_hole[1],
            *first,
            *drawn,
        ]

    return draws.builds(lay, _dealer_cards, _draws(tuple(h[0] for h in hands)))


@cache
def _draws(firsts: tuple[Rank, ...]) -> draws.Spec[list[Rank]]:
    """Cards drawn after the deal, often a seat's first: a split pair meets its rank again."""
    paired = draws.sampled_from(firsts) if firsts else _any_rank
    return draws.lists(draws.one_of(_drawn_rank, paired), max_size=12)


#: Baccarat point values (BAC.values): a rank of each value, tens for 0.
_OF_VALUE = {v: next(r for r in RANKS if r.pip % 10 == v) for v in range(10)}


def _points(total: int) -> draws.Spec[tuple[Rank, Rank]]:
    """Two cards worth ``total`` points (BAC.values)."""
    return _any_rank.map(lambda r: (r, _OF_VALUE[(total - r.pip) % 10]))


def _tableau_top() -> draws.Spec[list[Rank]]:
    """A baccarat top that reaches every cell of the drawing tableau alike.

    The player holds 0 to 5 (and draws), the banker 0 to 7; the player's third card is any
    rank: each (banker total, third card) cell comes once in 80 draws, a rare one included.
    """

    def lay(
        player: tuple[Rank, Rank], banker: tuple[Rank, Rank], third: Rank, fourth: Rank
    ) -> list[Rank]:
        # BAC.deal: player, banker, player, banker, then the player's third card, the banker's.
        return [player[0], banker[0], player[1], banker[1], third, fourth]

    return draws.builds(
        lay,
        draws.integers(0, 5).flatmap(_points),
        draws.integers(0, 7).flatmap(_points),
        _any_rank,
        _any_rank,
    )


def _palette_top() -> draws.Spec[list[Rank]]:
    """A top drawn from one to four ranks (baccarat: naturals, ties and third cards come often)."""
    palettes = draws.unique_lists(RANKS, min_size=1, max_size=4)
    return draws.tuples(palettes, draws.integers(min_value=6, max_value=12)).flatmap(
        lambda ps: draws.lists(draws.sampled_from(ps[0]), min_size=ps[1], max_size=ps[1])
    )


def shoe_cards(
    profile: Profile,
    hands: Sequence[Hand] = (),
    *,
    dealer: Hand | None = None,
    drawn: Sequence[Rank] = (),
    top: Sequence[Rank] | None = None,
) -> draws.Spec[list[str]]:
    """A full shoe of the profile's decks, as card texts: a stacked top, the rest seeded.

    A blackjack top deals the seats ``hands`` (one per seat, in seat order), and ``dealer``
    and the first ``drawn`` cards if given; ``top``: a baccarat top laid as it is.
    """
    decks = profile.integer("decks")
    tops: draws.Spec[list[Rank]]
    if profile.game is Game.BLACKJACK:
        tops = _blackjack_top(hands, dealer, drawn)
    elif top is not None:
        tops = draws.just(list(top))
    else:
        tops = _baccarat_tops()
    return draws.builds(lambda ranks, seed: _stacked(decks, ranks, seed, _TEXTS), tops, _SEEDS)


_SEEDS = draws.integers(min_value=0, max_value=2**32 - 1)


@cache
def _baccarat_tops() -> draws.Spec[list[Rank]]:
    return draws.one_of(draws.lists(_any_rank, max_size=12), _palette_top(), _tableau_top())


@cache
def _pockets(wheel: Wheel) -> draws.Spec[int]:
    """A pocket of ``wheel``, the zeros often (where the wheels' and layouts' rules differ)."""
    zeros = draws.sampled_from(sorted(wheel.zeros))
    return draws.one_of(draws.integers(min_value=0, max_value=wheel.pockets - 1), zeros)


def _pocket_text(pocket: int) -> str:
    return "00" if pocket == DOUBLE_ZERO else str(pocket)


#: Row starts (1, 4, ..., 34): a row of the layout is ``r, r + 1, r + 2``.
_ROWS: Final = tuple(range(1, 35, 3))


_Shape = tuple[int, ...]


def _boundaries() -> dict[BetKind, list[list[_Shape]]]:
    """Near misses of every layout, by family: each kind's shape over an edge (C.rou.geometry)."""
    dz = DOUBLE_ZERO
    return {
        # Off both wheels (00 on the European one comes with the other layout's shapes).
        BetKind.STRAIGHT: [[(38,), (99,), (-1,)]],
        BetKind.SPLIT: [
            # Across a row's end (3-4, 6-7, ... 33-34), and the two ends of one row (1-3).
            [(r + 2, r + 3) for r in _ROWS[:-1]],
            [(r, r + 2) for r in _ROWS],
            # Diagonal (1-5), two rows apart (1-7), and the zeros' wrong neighbours.
            [(n, n + 4) for n in range(1, 33)],
            [(n, n + 6) for n in range(1, 31)],
            [(0, 4), (0, 36), (dz, 1), (dz, 36)],
        ],
        BetKind.STREET: [
            # Across a row's end (2-3-4, 3-4-5), a column's three (1-4-7), past the end.
            [(r + 1, r + 2, r + 3) for r in _ROWS[:-1]],
            [(r + 2, r + 3, r + 4) for r in _ROWS[:-1]],
            [(r, r + 3, r + 6) for r in _ROWS[:-2]],
            [(0, 1, 3), (0, dz, 1), (0, dz, 3)],
        ],
        BetKind.CORNER: [
            # Across a row's end (3-4-6-7), cells apart (1-2-7-8), a run of four (1-2-3-4).
            [(r + 2, r + 3, r + 5, r + 6) for r in _ROWS[:-2]],
            [(r, r + 1, r + 6, r + 7) for r in _ROWS[:-2]],
            [(r, r + 1, r + 2, r + 3) for r in _ROWS[:-1]],
            [(0, 1, 2, 3), (0, dz, 2, 3)],
        ],
        BetKind.FIRST_FOUR: [[(1, 2, 3, 4), (0, 1, 2, 4), (dz, 1, 2, 3), (0, 2, 3, 5)]],
        BetKind.TOP_LINE: [[(0, 1, 2, 3, 4), (0, dz, 1, 2, 4), (dz, 1, 2, 3, 4)]],
        BetKind.LINE: [
            # Across a row's end (2 to 7), rows apart (1-2-3 and 7-8-9), past the last row.
            [tuple(range(r + 1, r + 7)) for r in _ROWS[:-2]],
            [(r, r + 1, r + 2, r + 6, r + 7, r + 8) for r in _ROWS[:-2]],
            [(31, 32, 33, 34, 35, 36, 37)],
        ],
        # Groups 0 and 4 (1 to 3 are the columns and dozens); an even chance naming a pocket.
        BetKind.COLUMN: [[(0,), (4,)]],
        BetKind.DOZEN: [[(0,), (4,)]],
        **{kind: [[(1,), (0,)]] for kind in BetKind if kind.is_even_chance},
    }


@cache
def near_misses(wheel: Wheel) -> dict[BetKind, tuple[_Shape, ...]]:
    """Every near miss explore tries on ``wheel``, per kind (C.rou.geometry, US.rou.geometry).

    Numbers that look like a bet of the layout and are none: each shape kind's boundaries
    (rows' ends, cells not side by side, the zeros' wrong neighbours, off the wheel), and the
    other layout's zero shapes (0-3 on the American wheel; 0-00, 00-2 and the top line on the
    European one). A column or a dozen's numbers are its group.

    In the order an aim's visits take them (``near_miss_bet``): the families in turn, one of
    each before a second of any, so that the first visits each push the shape over another
    edge; those whose numbers are all pockets of the wheel first (the layout's geometry alone
    refuses them), those naming a pocket off it (00 on the European wheel, 37) last.
    """
    other = Wheel.AMERICAN if wheel is Wheel.EUROPEAN else Wheel.EUROPEAN
    found: dict[BetKind, tuple[_Shape, ...]] = {}
    for kind, families in _boundaries().items():
        legal = set(roulette.shapes(wheel, kind))
        borrowed = [n for n in roulette.shapes(other, kind) if n]
        kept = [[n for n in family if n not in legal] for family in (borrowed, *families)]
        turns = (
            family[i] for i in range(max(map(len, kept))) for family in kept if i < len(family)
        )
        ordered = dict.fromkeys(turns)
        found[kind] = tuple(sorted(ordered, key=lambda n: not all(map(wheel.has, n))))
    return found


@cache
def near_miss_shapes(wheel: Wheel) -> draws.Spec[tuple[BetKind, tuple[int, ...]]]:
    """A kind, then one of its near misses (``near_misses``): a bet that is no shape of it."""
    misses = near_misses(wheel)
    return draws.sampled_from(tuple(misses)).flatmap(
        lambda kind: draws.sampled_from(misses[kind]).map(lambda numbers: (kind, numbers))
    )


def near_miss_bet(kind: BetKind, numbers: tuple[int, ...], stake: int) -> round_pb2.Bet:
    """The bet of a near miss: its numbers as pockets, or as the group of a column or dozen."""
    bet = convert.bet(roulette.RouletteBet(kind=kind, numbers=(0,), amount=stake), "EUR")
    bet.roulette.ClearField("pockets")
    if kind in (BetKind.COLUMN, BetKind.DOZEN):
        bet.roulette.group = numbers[0]
    else:
        bet.roulette.group = 0
        bet.roulette.pockets.extend(_pocket_text(n) for n in numbers)
    return bet


def _near_miss_bet(
    draw: draws.Draw,
    wheel: Wheel,
    stake: int,
    kind: BetKind | None = None,
    variant: int | None = None,
) -> round_pb2.Bet:
    if kind is None:
        kind, numbers = draw(near_miss_shapes(wheel))
    else:
        # Visits take the near misses in their order (``near_misses``): families in turn.
        misses = near_misses(wheel)[kind]
        numbers = _pick(draw, misses, None) if variant is None else misses[variant % len(misses)]
    return near_miss_bet(kind, numbers, stake)


def _pick(draw: draws.Draw, options: Sequence[_T], variant: int | None) -> _T:
    """One of ``options``: drawn, or the ``variant``-th (an aim's visits take each in turn).

    Visits step through the options by about 0.618 of their number (a step prime to it):
    every option comes once in as many visits, and neighbours in the list, often of one
    family (the other layout's shapes, a row's ends), come far apart.
    """
    if variant is None:
        return draw(draws.sampled_from(options))
    return options[(variant * _golden_step(len(options))) % len(options)]


@cache
def _golden_step(count: int) -> int:
    step = max(1, round(count * 0.618))
    while math.gcd(step, count) != 1:
        step -= 1
    return step


def _fault_seats(
    draw: draws.Draw,
    profile: Profile,
    fault: str,
    seats: list[round_pb2.Seat],
    *,
    near_miss: BetKind | None = None,
    variant: int | None = None,
) -> None:
    """Give the first seat the fault, if it is one of a seat (``variant``: ``_pick``)."""
    seat = seats[0]
    bet = seat.bets[0]
    match fault:
        case "stake over the balance":
            seat.balance.minor_units = sum(b.stake.minor_units for b in seat.bets) - 1
        case "stake under the minimum":
            bet.stake.minor_units = profile.integer("min_bet") - 1
        case "stake over the maximum":
            bet.stake.minor_units = profile.integer("max_bet") + 1
            seat.balance.minor_units = sum(b.stake.minor_units for b in seat.bets)
        case "stake in another currency":
            bet.stake.currency_code = _pick(draw, ("USD", "GBP", "CHF"), variant)
        case "two bets of one kind":
            seat.bets.append(seat.bets[0])
            seat.balance.minor_units += bet.stake.minor_units
        case "near-miss shape":
            seat.bets[0].CopyFrom(
                _near_miss_bet(
                    draw, Wheel(profile.choice("wheel")), bet.stake.minor_units, near_miss, variant
                )
            )


def _fault_deal(
    draw: draws.Draw,
    profile: Profile,
    fault: str,
    deal: engine_service_pb2.DealRequest,
    variant: int | None = None,
) -> None:
    """Give the deal the fault, if it is one of the deal's own fields or its outcome.

    ``variant``: which of the fault's forms, when an aim's visits take each in turn (``_pick``).
    """
    match fault:
        case "unknown profile":
            deal.profile_id = _pick(draw, ("blackjack-z", "no-such-profile", "lab"), variant)
        case "malformed round id":
            deal.round_id = _pick(draw, ("bad id", "r" * 129, "é/round"), variant)
        case "malformed card":
            index = draw(draws.integers(min_value=0, max_value=5))
            deal.shoe.cards[index] = _pick(draw, _JUNK_CARDS, variant)
        case "card over the decks":
            # One copy too many (a shoe of one deck more would hold it), or twice the decks.
            decks = profile.integer("decks")
            extra = _pick(draw, (1, decks), variant)
            deal.shoe.cards.extend([deal.shoe.cards[0]] * extra)
        case "currency not a currency":
            codes = ("XYZ", "eur", "EURO", "XXX", "")
            code = _uniform(draw, codes) if variant is None else _pick(draw, codes, variant)
            deal.currency_code = code
            for seat in deal.seats:
                seat.balance.currency_code = code
                for bet in seat.bets:
                    bet.stake.currency_code = code
        case "shoe cut short":
            # Fewer cards than the deal itself takes (BJ.deal-order, BAC.deal).
            needed = 2 * len(deal.seats) + 2 if profile.game is Game.BLACKJACK else 4
            del deal.shoe.cards[draw(draws.integers(min_value=1, max_value=needed - 1)) :]
        case "pocket off the wheel":
            wheel = Wheel(profile.choice("wheel"))
            off = ("37", "38", "-1") if wheel is Wheel.AMERICAN else ("00", "37")
            deal.spin.pocket = _pick(draw, off, variant)


#: Decision kinds from the one that ends a turn soonest: shrinking aims at the first legal one.
_SIMPLEST = (
    round_pb2.DECISION_KIND_STAND,
    round_pb2.DECISION_KIND_DECLINE_INSURANCE,
    round_pb2.DECISION_KIND_DECLINE_EVEN_MONEY,
    # Early surrender declined (VAR.bj.surrender): only a lab profile offers it.
    round_pb2.DECISION_KIND_DECLINE_SURRENDER,
    round_pb2.DECISION_KIND_HIT,
    round_pb2.DECISION_KIND_DOUBLE,
    round_pb2.DECISION_KIND_SURRENDER,
    round_pb2.DECISION_KIND_INSURANCE,
    round_pb2.DECISION_KIND_EVEN_MONEY,
    round_pb2.DECISION_KIND_SPLIT,
)

_STAKES_CHANGE = frozenset(_SIMPLEST[5:])

Chooser = Callable[[round_pb2.RoundState, SeededStream], round_pb2.Decision]


def _chooser(
    draw: draws.Draw, illegal_at: int | None, prefer: Sequence[int] = (), hitter: int | None = None
) -> Chooser:
    """Each decision drawn among the legal ones; at step ``illegal_at``, one that is not.

    ``prefer``: kinds taken whenever legal, the first of them open (an aim's decisions);
    ``hitter``: a seat that hits whenever it may, whatever the others prefer.
    """
    taken = [0]

    def choose(state: round_pb2.RoundState, _stream: SeededStream) -> round_pb2.Decision:
        legal = list(state.legal_decisions)
        step = taken[0]
        taken[0] += 1
        turn = (state.turn.seat, state.turn.hand)
        if step == illegal_at:
            others = [k for k in round_pb2.DecisionKind.values() if k and k not in legal]
            kind = draw(draws.sampled_from(others)) if others else legal[0]
            if not others:  # every kind is open: address a hand that is not the turn's
                turn = (turn[0] + 1, turn[1])
            return round_pb2.Decision(
                seat=turn[0], hand=turn[1], kind=round_pb2.DecisionKind.ValueType(kind)
            )
        hits = (round_pb2.DECISION_KIND_HIT,) if turn[0] == hitter else ()
        wanted = next((k for k in (*hits, *prefer) if k in legal), None)
        if wanted is not None:
            return round_pb2.Decision(
                seat=turn[0], hand=turn[1], kind=round_pb2.DecisionKind.ValueType(wanted)
            )
        legal.sort(key=_SIMPLEST.index)
        # One turn in three takes a decision that changes the stakes (double, split, surrender,
        # an offer taken), when one is open: the rules that pay them need them often.
        rare = [k for k in legal if k in _STAKES_CHANGE]
        if rare and _index(draw, 3) == 2:
            return round_pb2.Decision(
                seat=turn[0], hand=turn[1], kind=rare[_index(draw, len(rare))]
            )
        index = _index(draw, len(legal))
        return round_pb2.Decision(seat=turn[0], hand=turn[1], kind=legal[index])

    return choose


def _play_blackjack(
    draw: draws.Draw,
    profile: Profile,
    deal: engine_service_pb2.DealRequest,
    fault: str | None,
    taken: set[str],
    *,
    prefer: Sequence[int] = (),
    variant: int | None = None,
    short: bool = True,
    hitter: int | None = None,
) -> PlayedRound:
    stream = SeededStream("explore")
    if fault == "settle before the end":
        # Play a few decisions, then stop: Settle must be refused while the round waits.
        stop = draw(draws.integers(min_value=0, max_value=3))
        script: list[round_pb2.Decision] = []
        choose = _chooser(draw, None, prefer)
        while True:
            played = play_round(profile, deal, script, None, taken=taken, short=short)
            vround = played.round
            states = [s.expected_state for s in vround.steps] or [vround.expected_state]
            state = states[-1]
            if vround.expected_error != "ROUND_NOT_COMPLETE" or len(script) >= stop:
                return played
            script.append(choose(state, stream))
    if fault == "settle twice":
        played = play_round(
            profile,
            deal,
            [],
            None,
            policy=(_amounts(profile, draw, _chooser(draw, None, prefer)), stream),
            taken=taken,
            short=short,
        )
        if not played.round.HasField("expected_settle"):
            return played
        twice = [vector_pb2.VectorStep(settle=True)]
        decisions = [step.decision for step in played.round.steps]
        return play_round(profile, deal, decisions, None, taken=taken, after=twice, short=short)
    if fault in (
        "decision after the end",
        "illegal decision, play on",
        "settle before the end, play on",
    ):
        return _play_on(
            draw,
            profile,
            deal,
            fault=fault,
            taken=taken,
            stream=stream,
            prefer=prefer,
            variant=variant,
            short=short,
        )
    illegal_at = (
        draw(draws.integers(min_value=0, max_value=1)) if fault == "illegal decision" else None
    )
    return play_round(
        profile,
        deal,
        [],
        None,
        policy=(_amounts(profile, draw, _chooser(draw, illegal_at, prefer, hitter)), stream),
        taken=taken,
        short=short,
    )


def _amounts(profile: Profile, draw: draws.Draw, choose: Chooser) -> Chooser:
    """``choose``, with drawn amounts where the profile takes them; shrinks to the full one."""
    return with_amounts(profile, choose, lambda _stream, bound: _index(draw, bound))


def _play_on(
    draw: draws.Draw,
    profile: Profile,
    deal: engine_service_pb2.DealRequest,
    *,
    fault: str,
    taken: set[str],
    stream: SeededStream,
    prefer: Sequence[int] = (),
    variant: int | None = None,
    short: bool = True,
) -> PlayedRound:
    """A call refused while the round goes on: after the end, or at a drawn step of play.

    The round is played once by the drawn policy; the refused call goes in at the end (a
    decision to a complete round) or before a drawn step (an illegal decision, an early
    Settle), and the rest of the round is played again as before: it must not change.
    """
    choose = _amounts(profile, draw, _chooser(draw, None, prefer))
    first = play_round(profile, deal, [], None, policy=(choose, stream), taken=taken, short=short)
    steps = list(first.round.steps)
    if first.round.expected_error or not first.round.HasField("expected_settle"):
        return first
    decisions: list[round_pb2.Decision | vector_pb2.VectorStep] = [s.decision for s in steps]
    if not steps and fault == "settle before the end, play on":
        return first  # nothing waited: a Settle cannot come before the end
    if fault == "decision after the end" or not steps:
        kinds = [k for k in round_pb2.DecisionKind.values() if k]
        kind = round_pb2.DecisionKind.ValueType(kinds[_index(draw, len(kinds))])
        late = round_pb2.Decision(seat=0, hand=0, kind=kind)
        refused = vector_pb2.VectorStep(decision=late, expected_error="refused")
        return play_round(profile, deal, [*decisions, refused], None, taken=taken, short=short)
    at = _index(draw, len(steps))
    state = steps[at - 1].expected_state if at else first.round.expected_state
    if fault == "settle before the end, play on":
        refused = vector_pb2.VectorStep(settle=True)
    else:
        others = [
            k for k in round_pb2.DecisionKind.values() if k and k not in state.legal_decisions
        ]
        turn = (state.turn.seat, state.turn.hand)
        if not others:  # every kind is open: address a hand that is not the turn's
            turn, others = (turn[0] + 1, turn[1]), [round_pb2.DECISION_KIND_STAND]
        # An aim's visits take the illegal kinds in turn (a refused double, split, hit...).
        pick = (
            others[_index(draw, len(others))] if variant is None else _pick(draw, others, variant)
        )
        kind = round_pb2.DecisionKind.ValueType(pick)
        wrong = round_pb2.Decision(seat=turn[0], hand=turn[1], kind=kind)
        refused = vector_pb2.VectorStep(decision=wrong, expected_error="refused")
    script = [*decisions[:at], refused, *decisions[at:]]
    return play_round(profile, deal, script, None, taken=taken, short=short)


def _index(draw: draws.Draw, count: int) -> int:
    """0 to ``count`` - 1, each as likely; shrinks to 0.

    Hypothesis' ``integers(0, n)`` favours small values and the bounds (good for finding edge
    cases, bad for a choice among peers): drawn by Hypothesis (the tests), a decision or a
    fault at the end of a list would come seldom. The bulk sampler draws every word alike.
    """
    # Hypothesis draws small and boundary values often even from a wide range: a multiplicative
    # hash (Knuth's) spreads them over every residue, and keeps 0 at 0 for shrinking.
    drawn = draw(_WORD)
    return (drawn * 2654435761 % 2**32) % count


_WORD = draws.integers(min_value=0, max_value=2**32 - 1)


def _uniform(draw: draws.Draw, options: Sequence[str]) -> str:
    """One of ``options``, each as likely (``_index``)."""
    return options[_index(draw, len(options))]


_D = round_pb2.DecisionKind


@dataclass(frozen=True, slots=True, kw_only=True)
class _Plan:
    """What an aim (a coverage cell, ``conformance.explore.coverage``) fixes in a draw."""

    fault: str | None = None
    near_miss: BetKind | None = None
    #: The first seat's first stake at a limit (``min``, ``max``), its balance the stakes.
    stake: str | None = None
    exact_funds: bool = False
    #: The first seat's balance four times its stakes: a double, a split or insurance the
    #: funds rule (BJ.funds) does not withhold.
    rich: bool = False
    one_seat: bool = False
    #: Blackjack: the first seat's two cards (and a second seat's, the only other one), the
    #: dealer's, the first cards drawn after.
    hand: Hand | None = None
    other: Hand | None = None
    dealer: Hand | None = None
    drawn: tuple[Rank, ...] = ()
    prefer: tuple[int, ...] = ()
    #: The second seat hits whenever it may (a hand that busts beside one that stands).
    hitter: bool = False
    #: Baccarat: the shoe's top; the first seat's first bet kind (baccarat or roulette).
    top: tuple[Rank, ...] | None = None
    bet: str | None = None
    #: Roulette: the first seat's first bets, of kind ``bet``; the pocket, and how many spins.
    shapes: tuple[tuple[int, ...], ...] = ()
    pocket: int | None = None
    spins: int | None = None
    #: Which form of the fault or near miss (``_pick``); None: drawn.
    variant: int | None = None


_NO_PLAN = _Plan()


def _of_value(draw: draws.Draw, value: int) -> Rank:
    """A rank worth ``value`` baccarat points (BAC.values): tens and pictures for 0."""
    ranks = [r for r in RANKS if r.pip % 10 == value]
    return ranks[_index(draw, len(ranks))]


def _two_worth(draw: draws.Draw, total: int) -> tuple[Rank, Rank]:
    first = RANKS[_index(draw, len(RANKS))]
    return first, _of_value(draw, (total - first.pip) % 10)


def _baccarat_plan(draw: draws.Draw, aim: str) -> _Plan:
    kind, _, rest = aim.partition(":")
    player: tuple[Rank, Rank] | None = None
    banker: tuple[Rank, Rank] | None = None
    third: list[Rank] = []
    if kind == "tableau":
        b, v = (int(x) for x in rest.split(":"))
        player, banker = _two_worth(draw, _index(draw, 6)), _two_worth(draw, b)
        third = [_of_value(draw, v)]
    elif kind == "stood":
        player, banker = _two_worth(draw, 6 + _index(draw, 2)), _two_worth(draw, int(rest))
    elif aim == "natural":
        player, banker = _two_worth(draw, 8 + _index(draw, 2)), _two_worth(draw, _index(draw, 10))
    elif kind == "outcome":
        # Naturals decide at once (BAC.natural): 9 against 0 to 7, or equal naturals.
        win = 8 + _index(draw, 2)
        other = win if rest == "tie" else _index(draw, 8)
        player, banker = (_two_worth(draw, win), _two_worth(draw, other))
        if rest == "banker":
            player, banker = banker, player
    elif kind == "bet":
        return _Plan(bet=rest)
    if player is None or banker is None:
        return _NO_PLAN
    top = (player[0], banker[0], player[1], banker[1], *third, RANKS[_index(draw, len(RANKS))])
    return _Plan(top=top)


_TEN_RANKS = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)


def _blackjack_plan(draw: draws.Draw, aim: str, variant: int) -> _Plan:
    kind, _, rest = aim.partition(":")
    ten = _TEN_RANKS[_index(draw, 4)]
    any_rank = RANKS[_index(draw, len(RANKS))]
    if kind == "pair":
        # Split when the rules let it, and to the first split hand a ten (the pairs that
        # split, split aces, a split 21 that is no blackjack), the pair's rank again (a
        # re-split offered or withheld, VAR.bj.resplit), or after insurance taken against an
        # ace up (C.bj.insurance: what a seat that took it may still do). The forms in turn,
        # each rank from its own: the first visits of the pairs take every form.
        pair = Rank(rest)
        form = (variant + RANKS.index(pair)) % 3
        if form == 2:
            return _Plan(
                hand=(pair, pair),
                dealer=(_ACE, Rank(str(2 + _index(draw, 8)))),
                prefer=(_D.DECISION_KIND_INSURANCE, _D.DECISION_KIND_SPLIT),
                one_seat=True,
                rich=True,
            )
        again = ten if form == 0 else pair
        return _Plan(hand=(pair, pair), drawn=(again,), prefer=(_D.DECISION_KIND_SPLIT,), rich=True)
    if kind == "soft":
        # An ace and a card of the total less 11: two aces for 12, a ten for 21 (BJ.values).
        total = int(rest)
        second = {12: _ACE, 21: ten}.get(total) or Rank(str(total - 11))
        return _Plan(hand=(_ACE, second))
    if aim == "natural:player":
        # Against a 2 to 9 up: where a blackjack is paid at once or at the end, by profile
        # (A.nat-immediate, C.bj.peek); the ace and ten up have aims of their own. Alone, paid
        # at once it ends the round before the hole card; every other visit, beside a stiff
        # 16 that plays on.
        up = (Rank(str(2 + _index(draw, 8))), any_rank)
        if variant % 2 == 0:
            return _Plan(hand=(_ACE, ten), dealer=up, one_seat=True)
        return _Plan(hand=(_ACE, ten), other=(ten, Rank.SIX), dealer=up)
    if aim == "natural:vs-21":
        # A blackjack beside a seat that stands: the dealer's ten and a low card draw to a
        # three-card 21, which is no blackjack (BJ.nat-pays, BJ.natural).
        low = 2 + _index(draw, 5)
        return _Plan(
            hand=(_ACE, ten),
            other=(ten, Rank(str(7 + _index(draw, 3)))),
            dealer=(ten, Rank(str(low))),
            drawn=(_OF_VALUE[11 - low],),
            prefer=(_D.DECISION_KIND_STAND,),
        )
    if aim == "natural:both":
        return _Plan(hand=(_ACE, ten), dealer=(_ACE, ten), one_seat=True)
    if aim == "dealer:blackjack":
        return _Plan(dealer=(_ACE, ten) if _index(draw, 2) else (ten, _ACE), one_seat=True)
    if aim == "dealer:late-blackjack":
        # A ten up and an ace in the hole: no look under a ten (C.bj.peek), the blackjack
        # shows at the end and takes the doubled stake too; every other visit the double
        # makes a three-card 21, which loses to it (BJ.compare).
        drawn: tuple[Rank, ...] = (ten,) if variant % 2 == 0 else ()
        hand = (Rank.FIVE, Rank.SIX) if drawn else (Rank.FIVE, Rank(str(4 + _index(draw, 3))))
        return _Plan(
            hand=hand,
            drawn=drawn,
            dealer=(ten, _ACE),
            prefer=(_D.DECISION_KIND_DOUBLE,),
            one_seat=True,
            rich=True,
        )
    if aim == "dealer:soft-17":
        # Two cards, or every other visit three (an ace and a 2 draw a 4: A.dealer-draw and
        # C.bj.dealer-draw say how a soft 17 of any size stands or draws).
        # The ace in the hole: no offers before play, one decision is enough.
        two = variant % 2 == 0
        return _Plan(
            dealer=(Rank.SIX if two else Rank.TWO, _ACE),
            drawn=() if two else (Rank.FOUR,),
            prefer=(_D.DECISION_KIND_STAND,),
            one_seat=True,
        )
    if aim == "dealer:bust" and variant % 2 == 1:
        # Every other visit beside a 16 that hits and busts first: a bust loses, whatever
        # the dealer does after (BJ.bust); the seat that stands keeps the dealer playing.
        return _Plan(
            hand=(ten, Rank(str(7 + _index(draw, 3)))),
            other=(ten, Rank.SIX),
            dealer=(ten, Rank(str(2 + _index(draw, 5)))),
            drawn=(ten, ten),
            prefer=(_D.DECISION_KIND_STAND,),
            hitter=True,
        )
    if aim == "dealer:bust":
        return _Plan(
            hand=(ten, Rank(str(7 + _index(draw, 3)))),
            dealer=(ten, Rank(str(2 + _index(draw, 5)))),
            drawn=(ten,),
            prefer=(_D.DECISION_KIND_STAND,),
            one_seat=True,
        )
    if aim == "insured-21":
        # A soft 13 to 16 up an ace draws to three-card 21 (A.insurance, C.bj.insurance).
        low = 2 + _index(draw, 4)
        return _Plan(
            hand=(ten, Rank(str(7 + _index(draw, 3)))),
            dealer=(_ACE, Rank(str(low))),
            drawn=(_OF_VALUE[10 - low],),
            prefer=(_D.DECISION_KIND_INSURANCE, _D.DECISION_KIND_STAND),
            one_seat=True,
            rich=True,
        )
    if aim == "resplit":
        pair = any_rank
        return _Plan(
            hand=(pair, pair), drawn=(pair, pair), prefer=(_D.DECISION_KIND_SPLIT,), rich=True
        )
    if kind == "decision":
        return _decision_plan(draw, rest, variant, (ten, any_rank))
    return _NO_PLAN


def _decision_plan(draw: draws.Draw, kind: str, variant: int, ranks: Hand) -> _Plan:
    """A hand on which ``kind`` is open, and the chooser's preference for it.

    ``ranks``: a ten-valued rank and any rank, drawn. A split's visits take in turn two
    different tens (a pair or not by the profile's rule: A.split, C.bj.split; the pairs'
    own cells draw true pairs), a pair after insurance and a pair; a double's, a hand of 9
    to 11 and the same after insurance (C.bj.insurance says what a seat that took it may
    still do).
    """
    ten, any_rank = ranks
    want = round_pb2.DecisionKind.Value(f"DECISION_KIND_{kind.upper().replace('-', '_')}")
    insured = (kind == "split" and variant % 3 == 1) or (kind == "double" and variant % 2 == 1)
    if insured:
        held = (
            (any_rank, any_rank) if kind == "split" else (Rank.FIVE, Rank(str(4 + _index(draw, 3))))
        )
        return _Plan(
            hand=held,
            dealer=(_ACE, Rank(str(2 + _index(draw, 8)))),
            prefer=(_D.DECISION_KIND_INSURANCE, want),
            one_seat=True,
            rich=True,
        )
    if kind == "split" and variant % 3 == 0:
        others = [r for r in _TEN_RANKS if r is not ten]
        return _Plan(hand=(ten, others[_index(draw, 3)]), prefer=(want,), rich=True)
    low = Rank(str(2 + _index(draw, 5)))
    shapes: dict[str, tuple[Hand | None, Hand | None]] = {
        "hit": ((ten, low), None),
        "stand": (None, None),
        "double": ((Rank.FIVE, Rank(str(4 + _index(draw, 3)))), None),
        "split": ((any_rank, any_rank), None),
        "surrender": ((ten, Rank.SIX), (ten, Rank(str(7 + _index(draw, 3))))),
        "decline-surrender": ((ten, Rank.SIX), (_ACE, Rank(str(2 + _index(draw, 4))))),
        "insurance": ((ten, low), (_ACE, any_rank)),
        "decline-insurance": ((ten, low), (_ACE, any_rank)),
        "even-money": ((_ACE, ten), (_ACE, any_rank)),
        "decline-even-money": ((_ACE, ten), (_ACE, any_rank)),
    }
    hand, dealer = shapes[kind]
    return _Plan(hand=hand, dealer=dealer, prefer=(want,), one_seat=dealer is not None, rich=True)


def _roulette_plan(draw: draws.Draw, profile: Profile, aim: str, variant: int | None) -> _Plan:
    kind, _, rest = aim.partition(":")
    wheel = Wheel(profile.choice("wheel"))
    if kind == "bet":
        return _bet_plan(draw, wheel, BetKind(rest), variant)
    if kind == "pocket":
        return _Plan(pocket=DOUBLE_ZERO if rest == "00" else int(rest))
    if aim == "zero:even-chance":
        offered = profile.words("bets_offered")
        evens = [k.value for k in BetKind if k.is_even_chance and k.value in offered]
        zeros = sorted(wheel.zeros)
        return _Plan(pocket=zeros[_index(draw, len(zeros))], bet=evens[_index(draw, len(evens))])
    if aim == "history:full":
        return _Plan(spins=profile.integer("history_length") + 1 + _index(draw, 3))
    return _NO_PLAN


#: Bets of the kind an aimed bet kind places on the first seat: its shapes this many a visit.
_AIMED_BETS = 4


@cache
def _shapes_in_turn(wheel: Wheel, kind: BetKind) -> tuple[tuple[int, ...], ...]:
    """A kind's shapes in the order an aim's visits take them (C.rou.geometry, US.rou.geometry).

    Those on a zero first: where the two layouts part (0-3, 00-2, the top line) and the zero's
    own rules apply; then the rest, stepped through as ``_pick`` steps (rows and ends apart).
    """
    shapes = roulette.shapes(wheel, kind)
    zero = [n for n in shapes if wheel.zeros.intersection(n)]
    rest = [n for n in shapes if not wheel.zeros.intersection(n)]
    step = _golden_step(len(rest)) if rest else 1
    return (*zero, *(rest[(i * step) % len(rest)] for i in range(len(rest))))


def _bet_plan(draw: draws.Draw, wheel: Wheel, kind: BetKind, variant: int | None) -> _Plan:
    """Bets of ``kind`` on the first seat: one drawn, or a visit's next shapes in turn.

    Every other visit the spin lands in the first bet's numbers: a win, paid by the kind's
    odds (C.rou.wheel, US.rou.geometry); the others, wherever it is drawn to.
    """
    if variant is None:
        options = roulette.shapes(wheel, kind)
        return _Plan(bet=kind.value, shapes=(options[_index(draw, len(options))],))
    order = _shapes_in_turn(wheel, kind)
    count = min(_AIMED_BETS, len(order))
    shapes = tuple(order[(variant * count + j) % len(order)] for j in range(count))
    pocket = None
    if variant % 2 == 0:
        covered = sorted(roulette.covered(wheel, kind, shapes[0]))
        pocket = covered[_index(draw, len(covered))]
    return _Plan(bet=kind.value, shapes=shapes, pocket=pocket)


_WAITING_FAULTS = frozenset(
    (
        "illegal decision",
        "settle before the end",
        "illegal decision, play on",
        "settle before the end, play on",
    )
)


def _plan(draw: draws.Draw, profile: Profile, aim: str | None, faults: Sequence[str]) -> _Plan:
    """What ``aim`` fixes in this draw (nothing for a cell without a recipe: a clause)."""
    if aim is None:
        return _NO_PLAN
    # ``CELL#N``: the cell's N-th aimed draw; a fault's forms are taken in turn.
    aim, _, visit = aim.partition("#")
    variant = int(visit) if visit else None
    kind, _, rest = aim.partition(":")
    if kind == "fault":
        # A fault of play needs a hand that waits for a decision: a stiff 16 (BJ.compare).
        waits = profile.game is Game.BLACKJACK and rest in _WAITING_FAULTS
        return _Plan(fault=rest, variant=variant, hand=(Rank.TEN, Rank.SIX) if waits else None)
    if kind == "refusal":
        options = [f for f in faults if REFUSAL[f] == rest]
        return _Plan(fault=options[_index(draw, len(options))]) if options else _NO_PLAN
    if kind == "near-miss":
        return _Plan(fault="near-miss shape", near_miss=BetKind(rest), variant=variant)
    if aim in ("stake:min", "stake:max"):
        return _Plan(stake=rest)
    if aim == "funds:exact":
        return _Plan(exact_funds=True)
    if profile.game is Game.BLACKJACK:
        return _blackjack_plan(draw, aim, variant or 0)
    if profile.game is Game.BACCARAT:
        return _baccarat_plan(draw, aim)
    return _roulette_plan(draw, profile, aim, variant)


def _apply_plan(
    draw: draws.Draw, profile: Profile, plan: _Plan, seats: list[round_pb2.Seat]
) -> None:
    """Give the first seat what the plan fixes: a stake at a limit, its balance, a bet kind."""
    seat = seats[0]
    bet = seat.bets[0]
    if plan.stake is not None:
        bet.stake.minor_units = profile.integer(f"{plan.stake}_bet")
    if plan.bet is not None and profile.game is Game.BACCARAT:
        wanted = baccarat.BaccaratBet(kind=baccarat.BetKind(plan.bet), amount=1)
        pb_kind = convert.bet(wanted, "EUR").baccarat.kind
        if all(b.baccarat.kind != pb_kind for b in seat.bets):
            bet.baccarat.kind = pb_kind
    elif plan.bet is not None:
        wheel = Wheel(profile.choice("wheel"))
        kind = BetKind(plan.bet)
        options = roulette.shapes(wheel, kind)
        shapes = plan.shapes or (options[_index(draw, len(options))],)
        # The aimed bets first, at the drawn stakes in turn; the seat's other drawn bets after.
        stakes = [b.stake.minor_units for b in seat.bets]
        aimed = [
            convert.bet(
                roulette.RouletteBet(kind=kind, numbers=n, amount=stakes[i % len(stakes)]), "EUR"
            )
            for i, n in enumerate(shapes)
        ]
        kept = list(seat.bets[len(aimed) :])
        del seat.bets[:]
        seat.bets.extend([*aimed, *kept])
    staked = sum(b.stake.minor_units for b in seat.bets)
    if plan.rich:
        seat.balance.minor_units = 4 * staked
    elif plan.exact_funds or plan.stake is not None or seat.balance.minor_units < staked:
        seat.balance.minor_units = staked


@draws.composite
def explored_vector(
    draw: draws.Draw,
    profile: Profile,
    vector_id: str,
    partners: Sequence[Profile] = (),
    aim: str | None = None,
    *,
    most: int | None = None,
    short: bool = True,
) -> vector_pb2.Vector:
    """One vector of ``profile``: a round (a few spins at one table for roulette), maybe a fault.

    ``partners``: the engine's other profiles; those of the same game make the faults that span
    profiles (``ACROSS``) possible. ``aim``: a coverage cell (``conformance.explore.coverage``)
    the last round is drawn to reach (its fault, stakes, cards, bets or decisions fixed); a
    cell without a recipe (a clause) leaves the draw as it is. ``most``: the most rounds the
    vector may hold (what is left of a budget in rounds): fewer spins, and no fault that needs
    more rounds than that. ``short=False``: the oracle's citations as recorded, neither
    compacted nor shared as a corpus vector's (the same clauses; a vector only played saves
    the work); the same choices draw the same vector either way.
    """
    game = profile.game
    if aim is not None and not draw(_AIMED):
        # The aim is a choice like any other: explore draws it true, and shrinking may drop
        # it, when the round still diverges the same way drawn plainly.
        aim = None
    # Roulette's faults are mostly near-miss bets, one rule (C.rou.geometry) per shape: half.
    every = 2 if game is Game.ROULETTE else _FAULT_EVERY
    faulty_draw = draw(draws.integers(min_value=0, max_value=every - 1)) == every - 1
    same_game = [p for p in partners if p.game is game and p.id != profile.id]
    faults = (*FAULTS[game], *(ACROSS[game] if same_game else ()))
    fault = _uniform(draw, faults) if faulty_draw else None
    plan = _plan(draw, profile, aim, faults)
    if plan is not _NO_PLAN:
        # An aimed draw carries the aim's fault or none: another would hide what it aims at.
        fault = plan.fault
    if most is not None and _rounds_needed(fault) > most:
        fault = None
    if fault in ACROSS[game]:
        partner = same_game[_index(draw, len(same_game))]
        return _across(draw, profile, vector_id, fault, partner, short=short)
    vector = vector_pb2.Vector(
        id=vector_id,
        name=f"{profile.id}/explore/{vector_id}",
        level=vector_pb2.LEVEL_REQUIRED,
        profile_id=profile.id,
        description=f"Explored{f' ({fault})' if fault else ''}: drawn by croupier explore.",
    )
    # Roulette: mostly one spin, some a few, one in eight enough to fill a board
    # (C.rou.history shows 13; the aim ``history:full`` fills one too).
    count = draw(_SPINS) if game is Game.ROULETTE else 1
    if plan is not _NO_PLAN and game is Game.ROULETTE:
        # An aimed spin is one spin, or the board the aim needs.
        count = plan.spins or 1
    count = min(count, most) if most is not None else count
    count = max(count, _rounds_needed(fault))
    faulty = count - 1  # the fault goes in the last round: the board before it is built
    board: roulette.TableHistory | None = None
    taken: set[str] = set()
    for index in range(count):
        last = index == faulty
        played = _drawn_round(
            draw,
            profile,
            f"{vector_id}-r{index}",
            vector_id,
            here=fault if last else None,
            aimed=plan if last else _NO_PLAN,
            board=board,
            taken=taken,
            short=short,
        )
        board = played.history
        taken.add(played.round.deal.round_id)
        vector.rounds.append(played.round)
    if fault is not None and not _bit(vector.rounds[-1]) and fault != "round id in another case":
        # The round ended before the fault could bite (a natural before any decision).
        vector.description = "Explored: drawn by croupier explore."
    _trim_shoes(vector)
    finish_vector(vector, share=short)
    return vector


def _rounds_needed(fault: str | None) -> int:
    """The fewest rounds a vector with ``fault`` holds (``_across`` plays a table's three).

    A fault of ids needs a round before it; one across profiles, a partner's round first.
    """
    if fault in ("reused round id", "round id in another case", "round id of another profile"):
        return 2
    return 3 if fault == "table of another profile" else 1


def _drawn_round(
    draw: draws.Draw,
    profile: Profile,
    round_id: str,
    vector_id: str,
    *,
    here: str | None,
    aimed: _Plan,
    board: roulette.TableHistory | None,
    taken: set[str],
    short: bool = True,
) -> PlayedRound:
    """One round of a drawn vector: its seats, shoe or spin, its fault, played by the oracle."""
    game = profile.game
    wheel = Wheel(profile.choice("wheel")) if game is Game.ROULETTE else None
    seats, hands = _seats(draw, profile, one_seat=aimed.one_seat, two=aimed.other is not None)
    if aimed is not _NO_PLAN:
        _apply_plan(draw, profile, aimed, seats)
        if aimed.hand is not None:
            hands[0] = aimed.hand
        if aimed.other is not None:
            hands[1] = aimed.other
    if here is not None:
        _fault_seats(draw, profile, here, seats, near_miss=aimed.near_miss, variant=aimed.variant)
    deal = engine_service_pb2.DealRequest(
        round_id=round_id,
        profile_id=profile.id,
        table_id=f"{vector_id}-table",
        currency_code="EUR",
        seats=seats,
    )
    deal.round_id = _round_id(here, vector_id, deal.round_id)
    if wheel is not None:
        pocket = draw(_pockets(wheel))
        pocket = pocket if aimed.pocket is None else aimed.pocket
        deal.spin.pocket = _pocket_text(pocket)
    else:
        shoe = shoe_cards(profile, hands, dealer=aimed.dealer, drawn=aimed.drawn, top=aimed.top)
        deal.shoe.cards.extend(draw(shoe))
    if here is not None:
        _fault_deal(draw, profile, here, deal, aimed.variant)
    if here == "decision for another round":
        stray = vector_pb2.VectorStep(
            decision=round_pb2.Decision(kind=round_pb2.DECISION_KIND_STAND),
            round_id=f"{deal.round_id}-none",
        )
        played = play_round(profile, deal, [stray], board, taken=taken, short=short)
    elif here == "decision in a game without":
        hit = round_pb2.Decision(kind=round_pb2.DECISION_KIND_HIT)
        played = play_round(profile, deal, [hit], board, taken=taken, short=short)
    elif game is Game.BLACKJACK:
        played = _play_blackjack(
            draw,
            profile,
            deal,
            here,
            taken,
            prefer=aimed.prefer,
            variant=aimed.variant,
            short=short,
            hitter=1 if aimed.hitter else None,
        )
    else:
        after = [vector_pb2.VectorStep(settle=True)] if here == "settle twice" else []
        played = play_round(profile, deal, [], board, taken=taken, after=after, short=short)
    return played


def _round_id(fault: str | None, vector_id: str, round_id: str) -> str:
    """The round id a fault gives the last round: the first's, or the first's in another case."""
    if fault == "reused round id":
        return f"{vector_id}-r0"
    if fault == "round id in another case":
        return f"{vector_id}-R0"
    return round_id


def _bit(vround: vector_pb2.VectorRound) -> bool:
    """Whether some call of the round is refused (the fault bit)."""
    return bool(vround.expected_error) or any(
        step.expected_error for step in (*vround.steps, *vround.after_settle)
    )


def _across(
    draw: draws.Draw,
    profile: Profile,
    vector_id: str,
    fault: str,
    partner: Profile,
    *,
    short: bool = True,
) -> vector_pb2.Vector:
    """Rounds of ``partner`` and ``profile``: one round id (ROUND_EXISTS), or one table.

    A roulette table under two profiles is two boards: each holds its own profile's spins.
    """
    vector = vector_pb2.Vector(
        id=vector_id,
        name=f"{profile.id}/explore/{vector_id}",
        level=vector_pb2.LEVEL_REQUIRED,
        profile_id=profile.id,
        other_profile_ids=[partner.id],
        description=f"Explored ({fault}, with {partner.id}): drawn by croupier explore.",
    )
    taken: set[str] = set()
    known = {profile.id, partner.id}
    order = (
        [partner, profile]
        if fault == "round id of another profile"
        else [partner, profile, partner]
    )
    boards: dict[str, roulette.TableHistory | None] = {}
    for index, here in enumerate(order):
        seats, hands = _seats(draw, here)
        same_id = fault == "round id of another profile" and index == 1
        deal = engine_service_pb2.DealRequest(
            round_id=f"{vector_id}-r{0 if same_id else index}",
            profile_id=here.id,
            table_id=f"{vector_id}-table",
            currency_code="EUR",
            seats=seats,
        )
        if here.game is Game.ROULETTE:
            wheel = Wheel(here.choice("wheel"))
            deal.spin.pocket = _pocket_text(draw(draws.integers(0, wheel.pockets - 1)))
        else:
            deal.shoe.cards.extend(draw(shoe_cards(here, hands)))
        if here.game is Game.BLACKJACK:
            played = play_round(
                here,
                deal,
                [],
                None,
                policy=(_amounts(here, draw, _chooser(draw, None)), SeededStream("explore")),
                taken=taken,
                known=known,
                short=short,
            )
        else:
            played = play_round(
                here, deal, [], boards.get(here.id), taken=taken, known=known, short=short
            )
        boards[here.id] = played.history
        taken.add(deal.round_id)
        vector.rounds.append(played.round)
    _trim_shoes(vector)
    finish_vector(vector)
    return vector


def _trim_shoes(vector: vector_pb2.Vector) -> None:
    """Keep a played shoe to the cards used and a margin; a refused deal's shoe whole."""
    for vround in vector.rounds:
        if not vround.deal.HasField("shoe") or not vround.HasField("expected_state"):
            # No shoe (touching one would set it, in place of the spin); or the shoe may be
            # why the deal was refused, and every card of it counts.
            continue
        used = max(
            vround.expected_state.cards_dealt,
            vround.expected_settle.state.cards_dealt,
            *(step.expected_state.cards_dealt for step in vround.steps),
        )
        del vround.deal.shoe.cards[used + 8 :]
