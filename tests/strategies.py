"""Shared Hypothesis strategies for every test package."""

from __future__ import annotations

from hypothesis import strategies as st

from croupier.oracle.cards import DECK, Card

#: Any single card.
cards: st.SearchStrategy[Card] = st.sampled_from(DECK)


def shoes(
    decks: int, *, min_size: int = 0, max_size: int | None = None
) -> st.SearchStrategy[tuple[Card, ...]]:
    """A forced shoe that a profile of ``decks`` decks can contain: a prefix of a permutation."""
    full = DECK * decks
    top = len(full) if max_size is None else min(max_size, len(full))
    return st.permutations(full).flatmap(
        lambda perm: st.integers(min_value=min(min_size, top), max_value=top).map(
            lambda n: tuple(perm[:n])
        )
    )


# --- blackjack strategies ---

# Imported here, not at the top, so that this section stays self-contained for its editors.
from croupier.conformance.explore.rounds import stacked_shoe  # noqa: E402
from croupier.oracle.blackjack import Action, BlackjackSeat  # noqa: E402
from croupier.oracle.cards import RANKS  # noqa: E402


def blackjack_shoes(decks: int, *, max_stacked: int = 30) -> st.SearchStrategy[tuple[Card, ...]]:
    """A full shoe of ``decks`` decks: a stacked top, then every other card in a seeded order.

    The top draws its ranks from a small palette of one to four ranks, so that pairs,
    re-splits, blackjacks and dealer aces come often; it shrinks towards aces.
    """
    palettes = st.lists(st.sampled_from(RANKS), min_size=1, max_size=4, unique=True)
    sizes = st.integers(min_value=min(6, max_stacked), max_value=max_stacked)
    tops = st.tuples(palettes, sizes).flatmap(
        lambda ps: st.lists(st.sampled_from(ps[0]), min_size=ps[1], max_size=ps[1])
    )
    seeds = st.integers(min_value=0, max_value=2**32 - 1)
    return st.builds(lambda ranks, seed: stacked_shoe(decks, ranks, seed), tops, seeds)


#: Orders of preference that drive play to the rarer paths: split and double whenever
#: legal, take every offer, hit to the end, surrender.
_BLACKJACK_ORDERS: tuple[tuple[Action, ...], ...] = (
    (
        Action.SPLIT,
        Action.DOUBLE,
        Action.INSURANCE,
        Action.EVEN_MONEY,
        Action.HIT,
        Action.STAND,
        Action.SURRENDER,
        Action.DECLINE_INSURANCE,
        Action.DECLINE_EVEN_MONEY,
    ),
    (
        Action.SPLIT,
        Action.HIT,
        Action.DECLINE_INSURANCE,
        Action.DECLINE_EVEN_MONEY,
        Action.DOUBLE,
        Action.STAND,
        Action.SURRENDER,
        Action.INSURANCE,
        Action.EVEN_MONEY,
    ),
    (
        Action.SURRENDER,
        Action.INSURANCE,
        Action.EVEN_MONEY,
        Action.STAND,
        Action.HIT,
        Action.DOUBLE,
        Action.SPLIT,
        Action.DECLINE_INSURANCE,
        Action.DECLINE_EVEN_MONEY,
    ),
)


def blackjack_orders() -> st.SearchStrategy[tuple[Action, ...]]:
    """Every action in an order of preference: a play policy takes the first legal one."""
    return st.one_of(st.sampled_from(_BLACKJACK_ORDERS), st.permutations(tuple(Action)))


def blackjack_seat(*, max_stake: int = 500) -> st.SearchStrategy[BlackjackSeat]:
    """A seat with a stake of 1 to ``max_stake`` and a balance from the stake to 3 stakes + 50.

    Balances of exactly one or two stakes come often, so that BJ.funds refuses doubles,
    splits and insurance.
    """

    def seat(stake: int) -> st.SearchStrategy[BlackjackSeat]:
        balances = st.one_of(
            st.integers(min_value=stake, max_value=3 * stake + 50),
            st.sampled_from((stake, stake + stake // 2, 2 * stake, 3 * stake)),
        )
        return balances.map(lambda balance: BlackjackSeat(balance=balance, stake=stake))

    return st.integers(min_value=1, max_value=max_stake).flatmap(seat)


def blackjack_seats(*, max_seats: int = 4) -> st.SearchStrategy[tuple[BlackjackSeat, ...]]:
    """One to ``max_seats`` seats."""
    return st.lists(blackjack_seat(), min_size=1, max_size=max_seats).map(tuple)


# --- baccarat strategies ---

# Imported as a module, here and not at the top, so that this section stays self-contained
# and its names (BetKind) cannot clash with another game's.
from croupier.oracle import baccarat  # noqa: E402

#: The shipped baccarat profiles.
BACCARAT_PROFILE_IDS: tuple[str, ...] = ("baccarat-b", "baccarat-c", "baccarat-d")


@st.composite
def baccarat_seats(draw: st.DrawFn, *, max_amount: int = 1000) -> baccarat.BaccaratSeat:
    """A seat with one to three bets of distinct kinds and a balance covering them (maybe exactly)."""
    kinds = draw(st.lists(st.sampled_from(baccarat.BetKind), min_size=1, max_size=3, unique=True))
    bets = tuple(
        baccarat.BaccaratBet(kind=kind, amount=draw(st.integers(min_value=1, max_value=max_amount)))
        for kind in kinds
    )
    spare = draw(st.integers(min_value=0, max_value=max_amount))
    return baccarat.BaccaratSeat(balance=sum(b.amount for b in bets) + spare, bets=bets)


# --- roulette strategies ---

# Imported here, not at the top, so that this section stays self-contained for its editors.
from croupier.oracle.roulette import DOUBLE_ZERO, BetKind, RouletteBet, RouletteSeat, Wheel  # noqa: E402

#: Either wheel.
roulette_wheels: st.SearchStrategy[Wheel] = st.sampled_from(Wheel)


def roulette_pockets(wheel: Wheel) -> st.SearchStrategy[int]:
    """A pocket of the wheel: 0 to 36, and 37 (00) on the American wheel."""
    return st.integers(min_value=0, max_value=37 if wheel is Wheel.AMERICAN else 36)


def _row(r: int) -> tuple[int, ...]:
    return (3 * r + 1, 3 * r + 2, 3 * r + 3)


def _roulette_shape_choices(
    wheel: Wheel,
) -> list[st.SearchStrategy[tuple[BetKind, tuple[int, ...]]]]:
    # Built from row/column arithmetic (n sits in row (n-1)//3, column (n-1)%3), not from the
    # oracle's tables, so that the tests check the oracle against an independent reading.
    american = wheel is Wheel.AMERICAN
    zz = DOUBLE_ZERO
    zero_splits = (
        [(0, 1), (0, 2), (zz, 2), (zz, 3), (0, zz)] if american else [(0, 1), (0, 2), (0, 3)]
    )
    trios = [(0, 1, 2), (0, zz, 2), (zz, 2, 3)] if american else [(0, 1, 2), (0, 2, 3)]
    rows = st.integers(min_value=0, max_value=11)
    upper_rows = st.integers(min_value=0, max_value=10)
    left_cols = st.integers(min_value=0, max_value=1)
    k = st.integers(min_value=1, max_value=3)

    def kind(
        bet_kind: BetKind, numbers: st.SearchStrategy[tuple[int, ...]]
    ) -> st.SearchStrategy[tuple[BetKind, tuple[int, ...]]]:
        return numbers.flatmap(st.permutations).map(lambda ns: (bet_kind, tuple(ns)))

    across = st.tuples(rows, left_cols).map(
        lambda rc: (3 * rc[0] + rc[1] + 1, 3 * rc[0] + rc[1] + 2)
    )
    down = st.integers(min_value=1, max_value=33).map(lambda n: (n, n + 3))
    corner = st.tuples(upper_rows, left_cols).map(
        lambda rc: tuple(3 * rc[0] + rc[1] + d for d in (1, 2, 4, 5))
    )
    choices = [
        kind(BetKind.STRAIGHT, roulette_pockets(wheel).map(lambda n: (n,))),
        kind(BetKind.SPLIT, st.one_of(across, down, st.sampled_from(zero_splits))),
        kind(BetKind.STREET, st.one_of(rows.map(_row), st.sampled_from(trios))),
        kind(BetKind.CORNER, corner),
        kind(BetKind.LINE, upper_rows.map(lambda r: _row(r) + _row(r + 1))),
        k.map(lambda i: (BetKind.COLUMN, (i,))),
        k.map(lambda i: (BetKind.DOZEN, (i,))),
        st.sampled_from(
            [BetKind.RED, BetKind.BLACK, BetKind.EVEN, BetKind.ODD, BetKind.LOW, BetKind.HIGH]
        ).map(lambda b: (b, ())),
    ]
    if american:
        choices.append(kind(BetKind.TOP_LINE, st.just((0, zz, 1, 2, 3))))
    else:
        choices.append(kind(BetKind.FIRST_FOUR, st.just((0, 1, 2, 3))))
    return choices


def roulette_shapes(wheel: Wheel) -> st.SearchStrategy[tuple[BetKind, tuple[int, ...]]]:
    """A legal (kind, numbers) of the wheel's layout, numbers in any order."""
    return st.one_of(*_roulette_shape_choices(wheel))


def roulette_candidates(wheel: Wheel) -> st.SearchStrategy[tuple[BetKind, tuple[int, ...]]]:
    """Any (kind, numbers), legal or not: random kinds with random small tuples, or legal shapes."""
    junk = st.tuples(
        st.sampled_from(BetKind),
        st.lists(st.integers(min_value=-1, max_value=38), max_size=7).map(tuple),
    )
    return st.one_of(junk, roulette_shapes(wheel))


def roulette_bets(wheel: Wheel, *, max_amount: int = 1000) -> st.SearchStrategy[RouletteBet]:
    """A legal bet of the wheel with a positive stake."""
    return st.tuples(roulette_shapes(wheel), st.integers(min_value=1, max_value=max_amount)).map(
        lambda sa: RouletteBet(kind=sa[0][0], numbers=sa[0][1], amount=sa[1])
    )


def roulette_seats(wheel: Wheel, *, max_bets: int = 6) -> st.SearchStrategy[RouletteSeat]:
    """A seat with legal bets and a balance that covers them (possibly exactly)."""
    return st.tuples(
        st.lists(roulette_bets(wheel), min_size=1, max_size=max_bets).map(tuple),
        st.integers(min_value=0, max_value=500),
    ).map(lambda bs: RouletteSeat(balance=sum(b.amount for b in bs[0]) + bs[1], bets=bs[0]))


# --- service strategies ---

# Imported here, not at the top, so that this section stays self-contained for its editors.
# These build croupier.v1 request messages, well-formed or not, for the service tests.
from collections.abc import Sequence  # noqa: E402
from typing import Any  # noqa: E402

from croupier.oracle.shoe import seeded_shoe  # noqa: E402
from croupier.v1 import common_pb2, engine_service_pb2, round_pb2  # noqa: E402

#: The seven shipped profiles, and the decks of the card games among them.
SERVICE_PROFILE_IDS: tuple[str, ...] = (
    "blackjack-a",
    "blackjack-c",
    "baccarat-b",
    "baccarat-c",
    "baccarat-d",
    "roulette-c",
    "roulette-american",
)
_SERVICE_DECKS = {
    "blackjack-a": 6,
    "blackjack-c": 6,
    "baccarat-b": 8,
    "baccarat-c": 6,
    "baccarat-d": 8,
}

#: int64 values: small ones, the edges of the limits and of the type, and any.
wire_int64s: st.SearchStrategy[int] = st.one_of(
    st.integers(min_value=0, max_value=1000),
    st.sampled_from((-1, 0, 1, 999_999, 1_000_000, 1_000_001, 2**62, 2**63 - 1, -(2**63))),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
)
#: int32 values for seats, hands and groups: small ones, then any.
wire_int32s: st.SearchStrategy[int] = st.one_of(
    st.integers(min_value=-1, max_value=3), st.integers(min_value=-(2**31), max_value=2**31 - 1)
)
#: Enum fields as plain ints: the contract's values, and unknown ones (negative included).
wire_enums: st.SearchStrategy[int] = st.one_of(
    st.integers(min_value=0, max_value=16), st.integers(min_value=-(2**31), max_value=2**31 - 1)
)
#: Free text for ids and names: empty, unicode, too long.
wire_texts: st.SearchStrategy[str] = st.one_of(
    st.text(max_size=12), st.sampled_from(("", " ", "a" * 129, "r/1:x.y-z", "é"))
)
wire_currencies: st.SearchStrategy[str] = st.one_of(
    st.just("EUR"), st.sampled_from(("", "eur", "USD", "EU", "EURO")), st.text(max_size=4)
)
#: Card texts: real cards and junk ("10H", "th", "").
wire_cards: st.SearchStrategy[str] = st.one_of(
    st.sampled_from([str(c) for c in DECK]),
    st.sampled_from(("10H", "th", "", "1S", "XX", "AS ")),
    st.text(max_size=3),
)
#: Pocket texts: real pockets and junk ("07", "37", "-1").
wire_pockets: st.SearchStrategy[str] = st.one_of(
    st.integers(min_value=0, max_value=36).map(str),
    st.sampled_from(("00", "000", "37", "-1", "07", " 7", "")),
    st.text(max_size=3),
)


def wire_amounts(currency: str = "EUR") -> st.SearchStrategy[common_pb2.Amount]:
    """An Amount, mostly in the round's currency, with any int64."""
    return st.builds(
        common_pb2.Amount,
        currency_code=st.one_of(st.just(currency), st.just(""), wire_currencies),
        minor_units=wire_int64s,
    )


def wire_bets(currency: str = "EUR") -> st.SearchStrategy[round_pb2.Bet]:
    """A Bet of any game or none, with any enum values, pockets and group."""
    kinds: st.SearchStrategy[dict[str, Any]] = st.one_of(
        st.just({}),
        st.just({"blackjack": round_pb2.BlackjackBet()}),
        st.builds(round_pb2.BaccaratBet, kind=wire_enums).map(lambda b: {"baccarat": b}),
        st.builds(
            round_pb2.RouletteBet,
            kind=wire_enums,
            pockets=st.lists(wire_pockets, max_size=6),
            group=wire_int32s,
        ).map(lambda b: {"roulette": b}),
    )
    return st.builds(
        lambda stake, kind: round_pb2.Bet(stake=stake, **kind), wire_amounts(currency), kinds
    )


def wire_seats(currency: str = "EUR") -> st.SearchStrategy[round_pb2.Seat]:
    """A Seat with any balance and zero to four bets of any kind."""
    return st.builds(
        lambda balance, bets: round_pb2.Seat(balance=balance, bets=bets),
        wire_amounts(currency),
        st.lists(wire_bets(currency), max_size=4),
    )


#: The one thing a plausible Deal may get wrong.
_DEAL_FAULTS = (
    "no seat",
    "no bet",
    "two blackjack bets",
    "zero stake",
    "stake over the limit",
    "balance short",
    "junk table id",
    "wrong outcome",
    "short shoe",
    "00 on any wheel",
    "unknown bet kind",
    "duplicate baccarat kind",
)


@st.composite
def _plausible_bet(
    draw: st.DrawFn, game: str, baccarat_kind: int, fault: str | None
) -> round_pb2.Bet:
    units = draw(st.integers(min_value=1, max_value=300))
    if fault == "zero stake":
        units = 0
    elif fault == "stake over the limit":
        units = 1_000_001
    stake = common_pb2.Amount(currency_code="EUR", minor_units=units)
    if game == "blackjack":
        return round_pb2.Bet(stake=stake, blackjack=round_pb2.BlackjackBet())
    if game == "baccarat":
        kind = draw(wire_enums) if fault == "unknown bet kind" else baccarat_kind
        return round_pb2.Bet(
            stake=stake,
            baccarat=round_pb2.BaccaratBet(kind=round_pb2.BaccaratBetKind.ValueType(kind)),
        )
    numbers = st.integers(min_value=0, max_value=36).map(str)
    kind, group, pockets = draw(
        st.one_of(
            # Red, black, even, odd, low, high: nothing to name.
            st.tuples(st.integers(min_value=10, max_value=15), st.just(0), st.just([])),
            # Column, dozen: a group, 1 to 3.
            st.tuples(
                st.integers(min_value=8, max_value=9),
                st.integers(min_value=1, max_value=3),
                st.just([]),
            ),
            # Straight: one pocket.
            st.tuples(st.just(1), st.just(0), st.lists(numbers, min_size=1, max_size=1)),
            # Other inside bets: random pockets, mostly not a shape of the layout.
            st.tuples(
                st.integers(min_value=2, max_value=7),
                st.just(0),
                st.lists(numbers, min_size=1, max_size=6),
            ),
        )
    )
    if fault == "unknown bet kind":
        kind = draw(wire_enums)
    if fault == "00 on any wheel":
        kind, group, pockets = 1, 0, ["00"]
    return round_pb2.Bet(
        stake=stake,
        roulette=round_pb2.RouletteBet(
            kind=round_pb2.RouletteBetKind.ValueType(kind), pockets=pockets, group=group
        ),
    )


@st.composite
def plausible_deals(
    draw: st.DrawFn,
    round_ids: Sequence[str],
    profile_ids: Sequence[str] = SERVICE_PROFILE_IDS,
) -> engine_service_pb2.DealRequest:
    """A Deal that often succeeds: one of the profiles, EUR, bets of its game, a seeded shoe.

    About half of them get one thing wrong (``_DEAL_FAULTS``); they shrink to the plausible one.
    """
    fault = draw(st.sampled_from((None,) * len(_DEAL_FAULTS) + _DEAL_FAULTS))
    profile_id = draw(st.sampled_from(profile_ids))
    game = profile_id.split("-")[0]
    seats = []
    for index in range(0 if fault == "no seat" else draw(st.integers(min_value=1, max_value=3))):
        seat_fault = fault if index == 0 else None
        if seat_fault == "no bet":
            count = 0
        elif game == "blackjack":
            count = 2 if seat_fault == "two blackjack bets" else 1
        else:
            count = draw(st.integers(min_value=1, max_value=3))
        kinds = draw(st.permutations((1, 2, 3)))
        if seat_fault == "duplicate baccarat kind":
            count, kinds = 2, [kinds[0]] * 3
        bets = [draw(_plausible_bet(game, kinds[i % 3], seat_fault)) for i in range(count)]
        staked = sum(b.stake.minor_units for b in bets)
        balance = draw(
            st.one_of(
                st.integers(min_value=staked, max_value=staked + 1000),
                st.sampled_from((staked, 2 * staked, 3 * staked)),
            )
        )
        if seat_fault == "balance short":
            balance = max(staked - 1, 0)
        seats.append(
            round_pb2.Seat(
                balance=common_pb2.Amount(currency_code="EUR", minor_units=balance), bets=bets
            )
        )
    table_ids = wire_texts if fault == "junk table id" else st.sampled_from(("t1", "t2"))
    message = engine_service_pb2.DealRequest(
        round_id=draw(st.sampled_from(round_ids)),
        profile_id=profile_id,
        table_id=draw(table_ids),
        currency_code="EUR",
        seats=seats,
    )
    if (game != "roulette") != (fault == "wrong outcome"):
        decks = _SERVICE_DECKS.get(profile_id, 8)
        shoe = seeded_shoe(f"service-fuzz/{draw(st.integers(0, 2**16))}", decks)
        cut = draw(st.sampled_from((3, 4, 5, 6, 8, 12))) if fault == "short shoe" else None
        message.shoe.cards.extend(str(c) for c in shoe[:cut])
    else:
        pocket = draw(st.integers(min_value=0, max_value=36))
        message.spin.pocket = "00" if fault == "00 on any wheel" else str(pocket)
    return message


@st.composite
def junk_deals(draw: st.DrawFn, round_ids: Sequence[str]) -> engine_service_pb2.DealRequest:
    """A Deal with any field values: ids, profile, currency, seats, bets, cards, pocket."""
    currency = draw(wire_currencies)
    message = engine_service_pb2.DealRequest(
        round_id=draw(st.one_of(st.sampled_from(round_ids), wire_texts)),
        profile_id=draw(st.one_of(st.sampled_from(SERVICE_PROFILE_IDS), wire_texts)),
        table_id=draw(wire_texts),
        currency_code=currency,
        seats=draw(st.lists(wire_seats(currency), max_size=4)),
    )
    outcome = draw(st.sampled_from(("shoe", "spin", "none")))
    if outcome == "shoe":
        message.shoe.cards.extend(draw(st.lists(wire_cards, max_size=16)))
    elif outcome == "spin":
        message.spin.pocket = draw(wire_pockets)
    return message


def wire_deals(round_ids: Sequence[str]) -> st.SearchStrategy[engine_service_pb2.DealRequest]:
    """A Deal, plausible or junk, whose round id is mostly one of ``round_ids``."""
    return st.one_of(plausible_deals(round_ids), junk_deals(round_ids))


def wire_decisions() -> st.SearchStrategy[round_pb2.Decision]:
    """A Decision: mostly small seats and hands and real kinds, else anything."""
    return st.builds(
        round_pb2.Decision,
        seat=wire_int32s,
        hand=wire_int32s,
        kind=st.one_of(st.integers(min_value=1, max_value=9), wire_enums),
    )


def wire_decides(round_ids: Sequence[str]) -> st.SearchStrategy[engine_service_pb2.DecideRequest]:
    """A Decide for one of ``round_ids`` or any id, with any decision (or none set)."""
    return st.builds(
        engine_service_pb2.DecideRequest,
        round_id=st.one_of(st.sampled_from(round_ids), wire_texts),
        decision=st.one_of(wire_decisions(), st.just(round_pb2.Decision())),
    )


def plausible_decides(
    round_ids: Sequence[str],
) -> st.SearchStrategy[engine_service_pb2.DecideRequest]:
    """A Decide for one of ``round_ids``: seat and hand 0 to 2, a real decision kind."""
    return st.builds(
        engine_service_pb2.DecideRequest,
        round_id=st.sampled_from(round_ids),
        decision=st.builds(
            round_pb2.Decision,
            seat=st.integers(min_value=0, max_value=2),
            hand=st.integers(min_value=0, max_value=2),
            kind=st.integers(min_value=1, max_value=9),
        ),
    )


def wire_settles(round_ids: Sequence[str]) -> st.SearchStrategy[engine_service_pb2.SettleRequest]:
    """A Settle for one of ``round_ids`` or any id."""
    return st.builds(
        engine_service_pb2.SettleRequest, round_id=st.one_of(st.sampled_from(round_ids), wire_texts)
    )


@st.composite
def wire_records(draw: st.DrawFn, round_ids: Sequence[str]) -> round_pb2.RoundRecord:
    """A RoundRecord from a plausible or junk deal, with any decisions, lines and board."""
    deal = draw(wire_deals(round_ids))
    record = round_pb2.RoundRecord(
        round_id=deal.round_id,
        profile_id=deal.profile_id,
        table_id=deal.table_id,
        currency_code=deal.currency_code,
        seats=deal.seats,
        cards_dealt=deal.shoe.cards,
        pocket=deal.spin.pocket,
        decisions=draw(st.lists(wire_decisions(), max_size=4)),
        previous_record_sha256=draw(st.binary(max_size=40)),
    )
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        record.settlement.lines.append(
            common_pb2.SettlementLine(
                seat=draw(wire_int32s),
                bet=draw(wire_texts),
                stake=draw(wire_amounts(deal.currency_code)),
                returned=draw(wire_amounts(deal.currency_code)),
            )
        )
    if draw(st.booleans()):
        record.final_state.roulette.history.extend(draw(st.lists(wire_pockets, max_size=15)))
    return record


# --- explored rounds: croupier explore's own strategies, for tests of the search ---

# Imported here, not at the top, so that this section stays self-contained for its editors.
from croupier.conformance.explore import rounds as _explore  # noqa: E402
from croupier.conformance.v1 import vector_pb2  # noqa: E402
from croupier.oracle.profile import Profile  # noqa: E402

#: The faults a drawn round may carry, per game.
FAULTS = _explore.FAULTS


def explored_vector(
    profile: Profile,
    vector_id: str,
    partners: Sequence[Profile] = (),
    aim: str | None = None,
) -> st.SearchStrategy[vector_pb2.Vector]:
    """One drawn vector of a profile: a round (spins at one table), maybe a fault."""
    return _explore.explored_vector(profile, vector_id, partners, aim).strategy


def shoe_cards(
    profile: Profile, hands: Sequence[_explore.Hand] = ()
) -> st.SearchStrategy[list[str]]:
    """A full shoe with a stacked top, the seats' ``hands`` dealt from it."""
    return _explore.shoe_cards(profile, hands).strategy
