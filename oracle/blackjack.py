"""Blackjack as a state machine over a forced shoe (RULES.md "Blackjack").

A round is an immutable ``BlackjackState``. ``deal`` starts it; ``decide``
applies one decision and returns a new state; an illegal decision raises
``IllegalDecisionError`` listing the legal ones and leaves the old state as it
was. Between decisions the machine advances by itself (offers, peek, split
hands' second cards, the dealer), so a state always waits for a decision or
is complete, and a complete state carries its settlement.

Inside, a round is played on a small mutable working state (``_Work``: plain slots, the
cards' face-value sums kept as ints), copied by ``decide`` before it plays on it; a state's
frozen seats, dealer and steps are built from it only when read. Each rule records the clause
tuple that decided a value where it decides, taken from a per-profile table (``_Table``).

Seats and hands are numbered from 0, in the order the contract deals them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Final

from croupier.oracle.cards import Card, Rank
from croupier.oracle.clauses import Game

# Blackjack is the game of decisions: its module re-exports them (``blackjack.Action``).
from croupier.oracle.decision import Action as Action  # noqa: PLC0414
from croupier.oracle.decision import Decision as Decision  # noqa: PLC0414
from croupier.oracle.errors import (
    IllegalDecisionError,
    InvalidRoundError,
    ProfileError,
    RoundNotCompleteError,
    ShoeExhaustedError,
)
from croupier.oracle.immutable import Choice
from croupier.oracle.money import Odds, Payout, Rounding, lose, portion, push, returns, win
from croupier.oracle.profile import Citations  # at run time: mypyc's dataclasses read field types
from croupier.oracle.provenance import ABSENT, joined
from croupier.oracle.settlement import Limits, SettlementLine, Step, check_seat_stakes, settled
from croupier.oracle.shoe import check_composition

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from croupier.oracle.profile import Profile


class Phase(Choice):
    """Where the round stands."""

    OFFERS = "offers"
    PLAY = "play"
    COMPLETE = "complete"


class HandStatus(Choice):
    """Where one hand stands."""

    WAITING = "waiting"
    PLAYING = "playing"
    STOOD = "stood"
    BUST = "bust"
    BLACKJACK = "blackjack"
    SURRENDERED = "surrendered"


class SplitPairs(Choice):
    """Which two cards may be split."""

    SAME_RANK = "same-rank"
    SAME_RANK_OR_PICTURES = "same-rank-or-pictures"
    SAME_VALUE = "same-value"


class Peek(Choice):
    """Up cards under which the dealer looks for a blackjack before play."""

    NONE = "none"
    ACE = "ace"
    ACE_OR_TEN = "ace-or-ten"


class DoubleOn(Choice):
    """Which hands may double (VAR.bj.double-on)."""

    ANY_TWO = "any-two"
    NINE_TO_ELEVEN = "nine-to-eleven"
    TEN_ELEVEN = "ten-eleven"
    ANY_CARDS = "any-cards"


# The module's constants are Final: compiled, mypyc reads a Final name from a C static, where
# it looks any other module name up in the module's dict at every read (a round reads dozens).

#: The two-card totals each restricted double takes (VAR.bj.double-on).
_DOUBLE_TOTALS: Final[dict[DoubleOn, tuple[int, ...]]] = {
    DoubleOn.NINE_TO_ELEVEN: (9, 10, 11),
    DoubleOn.TEN_ELEVEN: (10, 11),
}


class BlackjackVsAce(Choice):
    """What a player blackjack is offered against a dealer ace."""

    EVEN_MONEY = "even-money"
    INSURANCE = "insurance"
    NOTHING = "nothing"


@dataclass(frozen=True, slots=True, kw_only=True)
class BlackjackRules:
    """A blackjack profile's parameters, typed, with the clauses each one cites."""

    profile_id: str
    decks: int
    dealer_hits_soft_17: bool
    blackjack_pays: Odds
    insurance: bool
    insurance_up_to_half: bool
    insurance_pays: Odds
    blackjack_vs_ace: BlackjackVsAce
    no_double_split_after_insurance: bool
    peek: Peek
    natural_paid_at_once: bool
    dealer_blackjack_takes_all: bool
    double_on: DoubleOn
    double_for_less: bool
    double_after_split: bool
    split_pairs: SplitPairs
    max_hands: int
    resplit_aces: bool
    hit_split_aces: bool
    split_21_is_blackjack: bool
    surrender: bool
    surrender_early: bool
    surrender_after_split: bool
    half_stake_rounding: Rounding
    auto_stand_21: bool
    dealer_draws_when_not_needed: bool
    hole_card_at_showdown: bool
    extra_stakes_need_funds: bool
    rounding: Rounding
    limits: Limits
    cite: Citations

    def __hash__(self) -> int:
        # Equal rules share a profile id, so this is a valid hash, and a cheap one: rules key
        # the table each round looks up (``_table``).
        return hash(self.profile_id)

    @classmethod
    def from_profile(cls, profile: Profile) -> BlackjackRules:
        """Type a blackjack profile's parameters; ``ProfileError`` for another game."""
        if profile.game is not Game.BLACKJACK:
            raise ProfileError(
                f"profile {profile.id!r} is a {profile.game.value} profile, not blackjack",
                profile=profile.id,
            )
        return cls(
            profile_id=profile.id,
            decks=profile.integer("decks"),
            dealer_hits_soft_17=profile.flag("dealer_hits_soft_17"),
            blackjack_pays=profile.odds("blackjack_pays"),
            insurance=profile.flag("insurance"),
            insurance_up_to_half=profile.choice("insurance_stake") == "up-to-half",
            insurance_pays=profile.odds("insurance_pays"),
            blackjack_vs_ace=BlackjackVsAce(profile.choice("blackjack_vs_ace")),
            no_double_split_after_insurance=profile.flag("no_double_split_after_insurance"),
            peek=Peek(profile.choice("peek")),
            natural_paid_at_once=profile.flag("natural_paid_at_once"),
            dealer_blackjack_takes_all=profile.choice("dealer_blackjack_takes") == "all-stakes",
            double_on=DoubleOn(profile.choice("double_on")),
            double_for_less=profile.flag("double_for_less"),
            double_after_split=profile.flag("double_after_split"),
            split_pairs=SplitPairs(profile.choice("split_pairs")),
            max_hands=profile.integer("max_hands"),
            resplit_aces=profile.flag("resplit_aces"),
            hit_split_aces=profile.flag("hit_split_aces"),
            split_21_is_blackjack=profile.flag("split_21_is_blackjack"),
            surrender=profile.flag("surrender"),
            surrender_early=profile.choice("surrender_timing") == "early",
            surrender_after_split=profile.flag("surrender_after_split"),
            half_stake_rounding=profile.rounding("half_stake_rounding"),
            auto_stand_21=profile.flag("auto_stand_21"),
            dealer_draws_when_not_needed=profile.flag("dealer_draws_when_not_needed"),
            hole_card_at_showdown=profile.choice("hole_card") == "showdown",
            extra_stakes_need_funds=profile.flag("extra_stakes_need_funds"),
            rounding=profile.rounding(),
            limits=Limits.of(profile),
            cite=profile.citations(),
        )


# --- hand arithmetic -----------------------------------------------------------------

#: Each rank's face value (BJ.values), by rank: ranks hash by identity, so the look-up is cheap.
_PIPS: Final[dict[Rank, int]] = {rank: rank.pip for rank in Rank}
#: The ten-valued ranks (BJ.values), and the up cards under which a dealer may hold a
#: blackjack (BJ.natural): sets of ``Rank.is_ten_valued``, looked up without a call.
_TENS: Final[frozenset[Rank]] = frozenset(rank for rank in Rank if rank.is_ten_valued)
_NATURAL_UP: Final[frozenset[Rank]] = _TENS | {Rank.ACE}


def _best(hard: int, *, ace: bool) -> int:
    """The best total of cards whose face values add up to ``hard``, ``ace`` among them.

    One ace counts 11 unless that busts (BJ.values).
    """
    return hard + 10 if ace and hard <= 11 else hard


def hand_total(cards: Sequence[Card]) -> tuple[int, bool]:
    """Best total and whether it is soft: one ace counts 11 unless that busts (BJ.values)."""
    hard = sum(_PIPS[card.rank] for card in cards)
    total = _best(hard, ace=any(card.rank is Rank.ACE for card in cards))
    return total, total != hard


def is_two_card_21(cards: Sequence[Card]) -> bool:
    """An ace and a ten-valued card as the only two cards (BJ.natural)."""
    return len(cards) == 2 and hand_total(cards)[0] == 21


def _pairs_with(rule: SplitPairs, rank: Rank) -> object:
    """What a rank must share with another to make a pair under the rule (A.split, C.bj.split)."""
    match rule:
        case SplitPairs.SAME_RANK:
            return rank
        case SplitPairs.SAME_RANK_OR_PICTURES:
            return "picture" if rank.is_picture else rank
        case SplitPairs.SAME_VALUE:
            return rank.pip


#: Each rule's ``_pairs_with`` of every rank, worked out once: every hand of two cards asks.
_PAIRS_WITH: Final[dict[SplitPairs, dict[Rank, object]]] = {
    rule: {rank: _pairs_with(rule, rank) for rank in Rank} for rule in SplitPairs
}


def is_pair(rule: SplitPairs, first: Card, second: Card) -> bool:
    """Whether two cards may be split under the profile's rule (A.split, C.bj.split)."""
    pairs_with = _PAIRS_WITH[rule]
    return pairs_with[first.rank] == pairs_with[second.rank]


# --- the public values -------------------------------------------------------------------

#: A reason: the clauses that decided a value, deciding clause first.
Why = tuple[str, ...]

_DEAL: Final[Why] = ("BJ.deal",)
_ORDER: Final[Why] = ("BJ.deal-order",)
_DEAL_STEP: Final[Why] = ("BJ.deal", "BJ.deal-order")
_VALUES: Final[Why] = ("BJ.values",)
_BUST: Final[Why] = ("BJ.bust", "BJ.values")
_COMPARE: Final[Why] = ("BJ.compare",)
_NEEDED: Final[Why] = ("BJ.dealer-needed",)


@dataclass(frozen=True, slots=True, kw_only=True, init=False)
class BlackjackSeat:
    """A seat as it joins a round: its funds and its stake on the box."""

    balance: int
    stake: int

    # Written out (init=False): mypyc compiles it, where a generated __init__ runs as Python
    # (``oracle.immutable``); every round makes one a seat.
    def __init__(self, *, balance: int, stake: int) -> None:
        object.__setattr__(self, "balance", balance)
        object.__setattr__(self, "stake", stake)


@dataclass(frozen=True, slots=True, kw_only=True)
class Hand:
    """One hand of a seat; ``why`` is what decided its status, and that it takes no more cards."""

    cards: tuple[Card, ...]
    stake: int
    doubled: bool = False
    from_split: bool = False
    split_aces: bool = False
    status: HandStatus = HandStatus.PLAYING
    even_money: bool = False
    paid_early: bool = False
    #: How many hands splitting this one has made: the next is numbered after them
    #: (VAR.bj.resplit).
    splits: int = 0
    why: Why = _DEAL

    @property
    def total(self) -> int:
        """The hand's best total (BJ.values)."""
        return hand_total(self.cards)[0]

    @property
    def soft(self) -> bool:
        """Whether an ace counts 11 in the total (BJ.values)."""
        return hand_total(self.cards)[1]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatState:
    """A seat during the round."""

    balance: int
    stake: int
    hands: tuple[Hand, ...]
    insurance: int = 0
    offer_done: bool = False
    #: The seat answered the early surrender asked before the dealer's look (VAR.bj.surrender).
    surrender_asked: bool = False

    @property
    def committed(self) -> int:
        """Every stake the seat has put on the table this round."""
        return sum(hand.stake for hand in self.hands) + self.insurance

    @property
    def free_funds(self) -> int:
        """Balance not yet committed (BJ.funds)."""
        return self.balance - self.committed


@dataclass(frozen=True, slots=True, kw_only=True)
class Dealer:
    """The dealer's cards: up card, hole card, then draws.

    ``why_hole`` is what decided that the hole card is face down, or turned; ``why_stopped``
    what decided that the dealer takes no more cards, once the dealer has played.
    """

    up: Card
    hole: Card
    draws: tuple[Card, ...] = ()
    hole_revealed: bool = False
    peeked: bool = False
    why_hole: Why = _DEAL
    why_stopped: Why = ()
    #: What decided that the dealer draws at all, where the dealer drew: every condition
    #: checked, the one passed narrowly first (``_passed``).
    why_drew: Why = ()

    @property
    def cards(self) -> tuple[Card, ...]:
        """All the dealer's cards in the order received."""
        return (self.up, self.hole, *self.draws)

    @property
    def visible(self) -> tuple[Card, ...]:
        """What a player sees: the up card, and the rest once the hole card is turned."""
        return self.cards if self.hole_revealed else (self.up,)

    @property
    def blackjack(self) -> bool:
        """Up card and hole card make a blackjack (BJ.natural)."""
        return is_two_card_21((self.up, self.hole))


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn:
    """The hand whose decision the round waits for."""

    seat: int
    hand: int


#: Each turn a round has waited on, made once: turns are immutable, so rounds share them.
_TURNS: Final[dict[tuple[int, int], Turn]] = {}


def _turn(seat: int, hand: int) -> Turn:
    """The turn of one seat's hand."""
    turn = _TURNS.get((seat, hand))
    if turn is None:
        turn = _TURNS[seat, hand] = Turn(seat=seat, hand=hand)
    return turn


# --- the per-profile table -------------------------------------------------------------


class _Table:
    """One profile's blackjack citations, worked out once for all its rounds.

    Each rule below records one of these clause tuples where it decides (a reference, not a
    look-up); nothing later looks a clause up again.
    """

    __slots__ = (
        "auto_stand",
        "decks",
        "double",
        "double_for_less",
        "double_for_less_stake",
        "double_funds",
        "double_on",
        "double_on_opened",
        "double_step",
        "drew",
        "drew_narrowly",
        "drew_plainly",
        "even_money",
        "funds",
        "funds_rule",
        "hit_split_aces",
        "hole_card",
        "insurance",
        "insurance_pays",
        "insurance_stake",
        "insured",
        "insured_step",
        "max_hands",
        "natural",
        "paid_at_once",
        "paid_at_once_step",
        "peek",
        "peek_ended",
        "peek_stopped",
        "peeks",
        "play_checks",
        "resplit_aces",
        "rounding",
        "rules",
        "split",
        "split_21",
        "split_funds",
        "split_hands",
        "split_made",
        "split_step",
        "stops",
        "surrender",
        "surrender_after_split",
        "surrender_timing",
        "surrendered",
        "takes",
    )

    def __reduce__(self) -> tuple[type[_Table], tuple[BlackjackRules]]:
        # Pickled and deep-copied as what it is worked out from, as a compiled one must be.
        return _Table, (self.rules,)

    def __init__(self, rules: BlackjackRules) -> None:
        self.rules = rules
        cite = rules.cite
        self.insurance = cite("insurance")
        self.insured_step = (*self.insurance, "BJ.half-stakes", "BJ.funds")
        self.insurance_stake = cite("insurance_stake")
        self.insurance_pays = cite("insurance_pays")
        self.even_money = cite("blackjack_vs_ace")
        self.peek = cite("peek")
        # Why a hand the peek's blackjack leaves unplayed ends, and why the dealer stops.
        self.peek_ended, self.peek_stopped = (*self.peek, "BJ.natural"), ("BJ.natural", *self.peek)
        #: The up cards' ranks under which the dealer looks (``_peeks``): every round asks.
        self.peeks = frozenset(rank for rank in Rank if _peeks(rules, rank))
        self.paid_at_once = cite("natural_paid_at_once")
        self.paid_at_once_step = ("BJ.nat-pays", *self.paid_at_once)
        self.hole_card = cite("hole_card")
        self.stops = cite("dealer_hits_soft_17")
        self.drew = (*self.stops, "BJ.dealer-needed")
        # Why the dealer drew at all (``_dealer_and_settle``): the need passed narrowly or not.
        self.drew_narrowly, self.drew_plainly = (
            _passed(self.stops, [(narrowly, _NEEDED)]) for narrowly in (True, False)
        )
        self.split = cite("split_pairs")
        self.split_made = (*self.split, "BJ.deal-order")
        self.split_step = (*self.split, "BJ.funds")
        self.split_hands = cite("split_pairs", "max_hands")
        self.max_hands = cite("max_hands")
        self.resplit_aces = cite("resplit_aces")
        self.double = cite("double_after_split")
        self.double_step = (*self.double, "BJ.funds")
        self.double_on = cite("double_on")
        self.double_on_opened = (*self.double_on, *self.double)
        self.double_for_less = cite("double_for_less")
        self.double_for_less_stake = cite("double_for_less", "double_after_split")
        self.hit_split_aces = cite("hit_split_aces")
        self.surrender = cite("surrender")
        self.surrendered = (*self.surrender, "BJ.half-stakes")
        self.surrender_timing = cite("surrender_timing")
        self.surrender_after_split = cite("surrender_after_split")
        self.insured = cite("no_double_split_after_insurance")
        self.funds = cite("extra_stakes_need_funds")
        # The funds rule, where the profile has it: a condition every extra stake passes.
        self.funds_rule = self.funds if rules.extra_stakes_need_funds else ()
        self.double_funds = (*self.funds, *self.double)
        self.split_funds = (*self.funds, *self.split)
        self.auto_stand = cite("auto_stand_21")
        self.natural = ("BJ.natural", *self.auto_stand)
        self.split_21 = cite("split_21_is_blackjack")
        self.takes = cite("dealer_blackjack_takes")
        self.rounding = cite("rounding")
        self.decks = cite("decks")
        # The clauses that withhold each play decision, check by check (``_play_checks``).
        double_cards: tuple[Why, ...] = ()
        if rules.double_on is not DoubleOn.ANY_CARDS:
            double_cards = (self.double,)
            if rules.double_on in _DOUBLE_TOTALS:
                double_cards = (self.double, self.double_on)
        self.play_checks: tuple[tuple[Why, ...], ...] = (
            (self.hit_split_aces,),
            (*double_cards, self.double, self.insured, self.hit_split_aces, self.double_funds),
            (
                self.split,
                self.split,
                self.max_hands,
                self.resplit_aces,
                self.insured,
                self.split_funds,
            ),
            (self.surrender, self.surrender, self.surrender_after_split, self.surrender_timing),
        )


@cache
def _table(rules: BlackjackRules) -> _Table:
    """The rules' table, worked out on their first round (rules are cached per profile)."""
    return _Table(rules)


# --- the working state -----------------------------------------------------------------


class _WorkHand:
    """A hand as the round plays it: its cards, their face-value sum and best total, in place.

    Made with every slot given (``_hand`` makes a new hand): a copy sets each slot once. The
    best total is worked out once a card (``take``), not at each of the rules that read it.
    """

    __slots__ = (
        "ace",
        "cards",
        "doubled",
        "even_money",
        "from_split",
        "hard",
        "paid_early",
        "split_aces",
        "splits",
        "stake",
        "status",
        "total",
        "why",
    )

    def __init__(
        self,
        held: tuple[list[Card], int, bool, int],
        stake: int,
        status: HandStatus,
        why: Why,
        flags: tuple[bool, bool, int, bool, bool, bool],
    ) -> None:
        # The cards, their face-value sum, whether an ace is among them, and the best total.
        self.cards, self.hard, self.ace, self.total = held
        self.stake = stake
        self.status = status
        self.why = why
        (
            self.from_split,
            self.split_aces,
            self.splits,
            self.doubled,
            self.even_money,
            self.paid_early,
        ) = flags

    def two_card_21(self) -> bool:
        """Two cards making 21 (BJ.natural)."""
        return self.total == 21 and len(self.cards) == 2

    def take(self, card: Card) -> None:
        """One more card, and the hand's best total with it (BJ.values)."""
        self.cards.append(card)
        hard = self.hard = self.hard + _PIPS[card.rank]
        ace = self.ace = self.ace or card.rank is Rank.ACE
        self.total = _best(hard, ace=ace)

    def copy(self) -> _WorkHand:
        """A copy to play on, this one left as it is."""
        return _WorkHand(
            (self.cards[:], self.hard, self.ace, self.total),
            self.stake,
            self.status,
            self.why,
            (
                self.from_split,
                self.split_aces,
                self.splits,
                self.doubled,
                self.even_money,
                self.paid_early,
            ),
        )

    def __reduce__(self) -> tuple[type[_WorkHand], tuple[object, ...]]:
        # Pickled and deep-copied through __init__, which a compiled class cannot do without.
        flags = (
            self.from_split,
            self.split_aces,
            self.splits,
            self.doubled,
            self.even_money,
            self.paid_early,
        )
        held = (self.cards, self.hard, self.ace, self.total)
        return _WorkHand, (held, self.stake, self.status, self.why, flags)

    def public(self) -> Hand:
        """The frozen hand."""
        return Hand(
            cards=tuple(self.cards),
            stake=self.stake,
            doubled=self.doubled,
            from_split=self.from_split,
            split_aces=self.split_aces,
            status=self.status,
            even_money=self.even_money,
            paid_early=self.paid_early,
            splits=self.splits,
            why=self.why,
        )


def _hand(
    cards: list[Card],
    stake: int,
    status: HandStatus,
    why: Why,
    *,
    from_split: bool = False,
    split_aces: bool = False,
    splits: int = 0,
) -> _WorkHand:
    """A new hand of ``cards``, neither doubled nor paid, with their face-value sum."""
    hard, ace = 0, False
    for card in cards:
        hard += _PIPS[card.rank]
        ace = ace or card.rank is Rank.ACE
    flags = (from_split, split_aces, splits, False, False, False)
    return _WorkHand((cards, hard, ace, _best(hard, ace=ace)), stake, status, why, flags)


class _WorkSeat:
    """A seat as the round plays it."""

    __slots__ = ("balance", "hands", "insurance", "offer_done", "stake", "surrender_asked")

    def __init__(
        self,
        balance: int,
        stake: int,
        hands: list[_WorkHand],
        answered: tuple[int, bool, bool] = (0, False, False),
    ) -> None:
        self.balance = balance
        self.stake = stake
        self.hands = hands
        # The insurance stake, whether the offers and early surrender were answered.
        self.insurance, self.offer_done, self.surrender_asked = answered

    def free_funds(self) -> int:
        """Balance not yet committed to a stake (BJ.funds)."""
        free = self.balance - self.insurance
        for hand in self.hands:
            free -= hand.stake
        return free

    def copy(self) -> _WorkSeat:
        """A copy to play on, this one left as it is."""
        return _WorkSeat(
            self.balance,
            self.stake,
            [hand.copy() for hand in self.hands],
            (self.insurance, self.offer_done, self.surrender_asked),
        )

    def __reduce__(self) -> tuple[type[_WorkSeat], tuple[object, ...]]:
        # Pickled and deep-copied through __init__, which a compiled class cannot do without.
        answered = (self.insurance, self.offer_done, self.surrender_asked)
        return _WorkSeat, (self.balance, self.stake, self.hands, answered)

    def public(self) -> SeatState:
        """The frozen seat."""
        return SeatState(
            balance=self.balance,
            stake=self.stake,
            hands=tuple(hand.public() for hand in self.hands),
            insurance=self.insurance,
            offer_done=self.offer_done,
            surrender_asked=self.surrender_asked,
        )


#: A step as the rules log it: its action, clauses, words and values (``Step``, when read).
_Logged = tuple[str, Why, str, tuple[object, ...]]


#: A round's state beyond its seats: the dealer's draws, face-value sum, ace, best total and
#: blackjack, hole card turned, peeked, the dealer's three reasons, then the phase, turn,
#: steps, why and legal.
_Played = tuple[
    list[Card],
    int,
    bool,
    int,
    bool,
    bool,
    bool,
    Why,
    Why,
    Why,
    Phase,
    Turn | None,
    list[_Logged],
    Why,
    tuple[Action, ...],
]


class _Work:
    """A round as the rules play it: plain slots, changed in place.

    ``decide`` plays on a copy; a ``BlackjackState`` wraps a working state that nothing changes
    any more, and builds its frozen seats, dealer and steps from it only when they are read.
    ``why`` is what decided where the round stands (its phase and turn): the first rule that
    moved it on since the last decision (an offer withheld, the peek, a hand that stands),
    or, when nothing moved it, what keeps it waiting where it is.
    """

    __slots__ = (
        "dealer_ace",
        "dealer_hard",
        "dealer_natural",
        "dealer_total",
        "draws",
        "hole",
        "hole_revealed",
        "legal",
        "peeked",
        "phase",
        "position",
        "rules",
        "seats",
        "settlement",
        "shoe",
        "steps",
        "table",
        "turn",
        "up",
        "views",
        "why",
        "why_drew",
        "why_hole",
        "why_stopped",
    )

    def __init__(
        self,
        rules: BlackjackRules,
        table: _Table,
        shoe: tuple[Card, ...],
        seats: list[_WorkSeat],
        *,
        up: Card,
        hole: Card,
        position: int,
        played: _Played | None = None,
    ) -> None:
        self.rules = rules
        self.table = table
        self.shoe = shoe
        self.position = position
        self.seats = seats
        self.up = up
        self.hole = hole
        if played is None:
            # As dealt: the dealer's two cards alone, the round at the offers. Their best total
            # is 21 exactly where they make a blackjack (BJ.natural): decided once, at the deal.
            hard = _PIPS[up.rank] + _PIPS[hole.rank]
            ace = up.rank is Rank.ACE or hole.rank is Rank.ACE
            total = _best(hard, ace=ace)
            played = (
                [],
                hard,
                ace,
                total,
                total == 21,
                False,
                False,
                _DEAL,
                (),
                (),
                Phase.OFFERS,
                None,
                [],
                (),
                (),
            )
        #: ``legal``: the decisions the hand to act may take now, in Action order; empty once
        #: complete. Recorded where the round stops to wait, from the rules that decide each.
        #: ``dealer_total`` is the dealer's best total (BJ.values), kept as the dealer draws.
        (
            self.draws,
            self.dealer_hard,
            self.dealer_ace,
            self.dealer_total,
            self.dealer_natural,
            self.hole_revealed,
            self.peeked,
            self.why_hole,
            self.why_stopped,
            self.why_drew,
            self.phase,
            self.turn,
            self.steps,
            self.why,
            self.legal,
        ) = played
        self.settlement: tuple[SettlementLine, ...] = ()
        #: The frozen seats, dealer and steps, once read.
        self.views: tuple[tuple[SeatState, ...], Dealer, tuple[Step, ...]] | None = None

    def copy(self) -> _Work:
        """A copy to play on, this one left as it is (only a round waiting to be played is)."""
        return _Work(
            self.rules,
            self.table,
            self.shoe,
            [seat.copy() for seat in self.seats],
            up=self.up,
            hole=self.hole,
            position=self.position,
            played=self._played(self.draws[:], self.steps[:]),
        )

    def __reduce__(self) -> tuple[Callable[..., _Work], tuple[object, ...]]:
        # Pickled and deep-copied through __init__, which a compiled class cannot do without;
        # the frozen views are left to be built again when read.
        made = (self.rules, self.table, self.shoe, self.seats, self.up, self.hole, self.position)
        return _work, (made, self._played(self.draws, self.steps), self.settlement)

    def _played(self, draws: list[Card], steps: list[_Logged]) -> _Played:
        """How far the round has been played, with ``draws`` and ``steps`` (``__init__``)."""
        return (
            draws,
            self.dealer_hard,
            self.dealer_ace,
            self.dealer_total,
            self.dealer_natural,
            self.hole_revealed,
            self.peeked,
            self.why_hole,
            self.why_stopped,
            self.why_drew,
            self.phase,
            self.turn,
            steps,
            self.why,
            self.legal,
        )

    def note(self, why: Why) -> None:
        """Record what moved the round on, unless something did already since the last decision."""
        if not self.why:
            self.why = why

    def public(self) -> tuple[tuple[SeatState, ...], Dealer, tuple[Step, ...]]:
        """The frozen seats, dealer and steps, built on the first read."""
        views = self.views
        if views is None:
            dealer = Dealer(
                up=self.up,
                hole=self.hole,
                draws=tuple(self.draws),
                hole_revealed=self.hole_revealed,
                peeked=self.peeked,
                why_hole=self.why_hole,
                why_stopped=self.why_stopped,
                why_drew=self.why_drew,
            )
            steps = tuple(
                Step(action=action, clauses=clauses, says=says, values=values)
                for action, clauses, says, values in self.steps
            )
            views = self.views = (tuple(seat.public() for seat in self.seats), dealer, steps)
        return views


def _work(
    made: tuple[BlackjackRules, _Table, tuple[Card, ...], list[_WorkSeat], Card, Card, int],
    played: _Played,
    settlement: tuple[SettlementLine, ...],
) -> _Work:
    """A working state unpickled or deep-copied (``_Work.__reduce__``)."""
    rules, table, shoe, seats, up, hole, position = made
    work = _Work(rules, table, shoe, seats, up=up, hole=hole, position=position, played=played)
    work.settlement = settlement
    return work


@dataclass(frozen=True, slots=True, eq=False, repr=False, init=False)
class BlackjackState:
    """An immutable snapshot of a round, over the working state it was played on.

    Nothing changes ``work`` once it is wrapped (``decide`` plays on a copy); the frozen
    ``seats``, ``dealer`` and ``steps`` are built from it when first read. Two states are
    equal when every public value is.
    """

    work: _Work

    # Written out (init=False): mypyc compiles it, where a generated __init__ runs as Python
    # (``oracle.immutable``); a round makes these at every step.
    def __init__(self, work: _Work) -> None:
        object.__setattr__(self, "work", work)

    @property
    def rules(self) -> BlackjackRules:
        """The profile's rules."""
        return self.work.rules

    @property
    def shoe(self) -> tuple[Card, ...]:
        """The forced shoe the round is dealt from."""
        return self.work.shoe

    @property
    def position(self) -> int:
        """How many cards of the shoe the round has taken."""
        return self.work.position

    @property
    def seats(self) -> tuple[SeatState, ...]:
        """Every seat and its hands, frozen."""
        return self.work.public()[0]

    @property
    def dealer(self) -> Dealer:
        """The dealer's cards and what decided them, frozen."""
        return self.work.public()[1]

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every step of the round and the clauses it applied."""
        return self.work.public()[2]

    @property
    def phase(self) -> Phase:
        """Where the round stands."""
        return self.work.phase

    @property
    def turn(self) -> Turn | None:
        """The hand whose decision the round waits for, None once complete."""
        return self.work.turn

    @property
    def settlement(self) -> tuple[SettlementLine, ...]:
        """The settlement, once complete; empty before."""
        return self.work.settlement

    @property
    def why(self) -> Why:
        """What decided where the round stands (``_Work``)."""
        return self.work.why

    @property
    def legal(self) -> tuple[Action, ...]:
        """The decisions the hand to act may take now, in Action order; empty once complete."""
        return self.work.legal

    def total(self, seat: int, hand: int) -> int:
        """One hand's best total (BJ.values), without building the frozen seats."""
        return self.work.seats[seat].hands[hand].total

    @property
    def dealt(self) -> tuple[Card, ...]:
        """Every card taken from the shoe so far, in dealing order."""
        work = self.work
        return work.shoe[: work.position]

    @property
    def complete(self) -> bool:
        """Whether the round has ended and carries its settlement."""
        return self.work.phase is Phase.COMPLETE

    def citations(self) -> dict[str, Why]:
        """The clauses behind every value of the round state (``oracle.provenance``)."""
        return citations(self)

    @property
    def history(self) -> None:
        """A card game keeps no board."""
        return None

    def decide(self, decision: Decision) -> BlackjackState:
        """The round after one decision (``decide``)."""
        return decide(self, decision)

    def _values(self) -> tuple[object, ...]:
        return (
            self.rules,
            self.shoe,
            self.position,
            self.seats,
            self.dealer,
            self.phase,
            self.turn,
            self.steps,
            self.settlement,
            self.why,
            self.legal,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BlackjackState):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return "BlackjackState({})".format(", ".join(repr(value) for value in self._values()))


# --- dealing and drawing ---------------------------------------------------------------


def _card(work: _Work, asked_by: str, why: str, *values: object) -> Card:
    """The shoe's next card; ``ShoeExhaustedError`` saying who needed it.

    Running out is refused by the shoe's rule whoever needs the card, the dealer too: the
    contract deals from the forced shoe only (BJ.deal-order), and an engine that goes on is
    wrong about the shoe. ``asked_by``, the rule that wanted the card, is what a recorded
    round without it breaks; ``why`` formatted with ``values`` says what the card was for.
    """
    position, shoe = work.position, work.shoe
    if position >= len(shoe):
        raise ShoeExhaustedError(
            f"the shoe ran out: {why.format(*values)} needs card {position + 1}, "
            f"but the shoe holds {len(shoe)}",
            needed=position + 1,
            shoe_size=len(shoe),
            clause="BJ.deal-order",
            asked_by=asked_by,
        )
    return shoe[position]


#: The deal step's words for each seat count, made on first use.
_DEAL_SAYS: Final[dict[int, str]] = {}


def deal(
    rules: BlackjackRules, shoe: Sequence[Card], seats: Sequence[BlackjackSeat]
) -> BlackjackState:
    """Start a round: check the seats and shoe, deal in contract order, then advance.

    BJ.deal, BJ.deal-order: a card to each seat in order, the dealer's up card,
    a second card to each seat, the dealer's hole card.
    """
    if not seats:
        raise InvalidRoundError("a blackjack round needs at least one seat", field="seats")
    table = _table(rules)
    for index, seat in enumerate(seats):
        check_seat_stakes(
            seat=index,
            balance=seat.balance,
            stakes=(("main", seat.stake),),
            limits=rules.limits,
            funds_clause=table.funds[0],
        )
    cards = tuple(shoe)
    check_composition(cards, rules.decks, clause=table.decks[0])
    n = len(seats)
    needed = 2 * n + 2
    if len(cards) < needed:
        raise ShoeExhaustedError(
            f"the shoe ran out: the deal needs {needed} cards, but the shoe holds {len(cards)}",
            needed=needed,
            shoe_size=len(cards),
            clause="BJ.deal",
        )
    work = _Work(rules, table, cards, [], up=cards[n], hole=cards[2 * n + 1], position=needed)
    # The deal step's values: each seat's two cards, then the up card (its words, _DEAL_SAYS).
    dealt: list[Card] = []
    for index, seat in enumerate(seats):
        first, second = cards[index], cards[n + 1 + index]
        hand = _hand([first, second], seat.stake, HandStatus.PLAYING, _DEAL)
        if hand.two_card_21():
            hand.status, hand.why = HandStatus.BLACKJACK, table.natural
        work.seats.append(_WorkSeat(seat.balance, seat.stake, [hand]))
        dealt += (first, second)
    says = _DEAL_SAYS.get(n)
    if says is None:
        # A seat's two cards written as format_cards writes them: a space between.
        says = _DEAL_SAYS[n] = (
            "".join(f"seat {i}: {{}} {{}}; " for i in range(n))
            + "dealer up {}, hole card face down"
        )
    work.steps.append(("deal", _DEAL_STEP, says, (*dealt, work.up)))
    for index, seat_work in enumerate(work.seats):
        if seat_work.hands[0].status is HandStatus.BLACKJACK:
            work.steps.append(
                (
                    "blackjack",
                    ("BJ.natural", "BJ.auto-stand"),
                    "seat {} holds a blackjack",
                    (index,),
                )
            )
    _advance(work)
    return BlackjackState(work=work)


# --- legal decisions -------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True, init=False)
class Option:
    """Whether one decision is open to the hand to act now, and the clauses that decide it."""

    open: bool
    why: Why

    # Written out (init=False): mypyc compiles it, where a generated __init__ runs as Python
    # (``oracle.immutable``); every round's offers and citations make a dozen.
    def __init__(self, *, open: bool, why: Why) -> None:  # noqa: A002 - the field's name
        object.__setattr__(self, "open", open)
        object.__setattr__(self, "why", why)


_OFFERS: Final[tuple[Action, ...]] = (
    Action.INSURANCE,
    Action.DECLINE_INSURANCE,
    Action.EVEN_MONEY,
    Action.DECLINE_EVEN_MONEY,
)
_PLAYS: Final[tuple[Action, ...]] = (
    Action.HIT,
    Action.STAND,
    Action.DOUBLE,
    Action.SPLIT,
    Action.SURRENDER,
)


def _pair(offer: Action, decline: Action, option: Option) -> dict[Action, Option]:
    return {offer: option, decline: option}


def _offer_options(work: _Work, seat: int) -> dict[Action, Option]:
    """The insurance and even-money offers of a seat against an ace.

    A.insurance, A.even-money, C.bj.insurance; BJ.half-stakes: an offer whose half stake rounds
    to 0 is not made, even money included; BJ.funds: insurance needs the uncommitted funds.
    """
    rules, table = work.rules, work.table
    insurance_rule, even_money_rule = table.insurance, table.even_money
    if work.up.rank is not Rank.ACE:
        return {
            **_pair(
                Action.INSURANCE, Action.DECLINE_INSURANCE, Option(open=False, why=insurance_rule)
            ),
            **_pair(
                Action.EVEN_MONEY,
                Action.DECLINE_EVEN_MONEY,
                Option(open=False, why=even_money_rule),
            ),
        }
    seat_work = work.seats[seat]
    hand = seat_work.hands[0]
    cost = _insurance_stake(work, seat)
    half_is_nothing = ("BJ.half-stakes", *insurance_rule)
    even_money = Option(open=False, why=even_money_rule)
    insurance: Option
    if (
        hand.status is HandStatus.BLACKJACK
        and rules.blackjack_vs_ace is not BlackjackVsAce.INSURANCE
    ):
        if rules.blackjack_vs_ace is BlackjackVsAce.EVEN_MONEY:
            even_money = (
                Option(
                    open=True,
                    why=_passed(even_money_rule, [(seat_work.stake % 2 == 1, ("BJ.half-stakes",))]),
                )
                if cost > 0
                else Option(open=False, why=("BJ.half-stakes", *even_money_rule))
            )
        insurance = Option(open=False, why=even_money_rule)
    elif not rules.insurance:
        insurance = Option(open=False, why=insurance_rule)
    elif cost <= 0:
        insurance = Option(open=False, why=half_is_nothing)
    elif not _funds_cover(rules, seat_work.free_funds(), 1 if rules.insurance_up_to_half else cost):
        insurance = Option(open=False, why=(*table.funds, *insurance_rule))
    else:
        checked = [
            (seat_work.stake % 2 == 1, ("BJ.half-stakes",)),
            (_funds_narrow(rules, seat_work.free_funds(), cost), table.funds_rule),
        ]
        insurance = Option(open=True, why=_passed(insurance_rule, checked))
    return {
        **_pair(Action.INSURANCE, Action.DECLINE_INSURANCE, insurance),
        **_pair(Action.EVEN_MONEY, Action.DECLINE_EVEN_MONEY, even_money),
    }


def _offer_made(options: dict[Action, Option]) -> Option | None:
    """The offer a seat gets, if any (even money or insurance)."""
    for action in (Action.EVEN_MONEY, Action.INSURANCE):
        if options[action].open:
            return options[action]
    return None


def _offer_withheld(work: _Work, seat: int, options: dict[Action, Option]) -> Why:
    """Why a seat gets no offer: its blackjack's rule, else the insurance rule."""
    hand = work.seats[seat].hands[0]
    if (
        hand.status is HandStatus.BLACKJACK
        and work.rules.blackjack_vs_ace is BlackjackVsAce.EVEN_MONEY
    ):
        return options[Action.EVEN_MONEY].why
    return options[Action.INSURANCE].why


def _insurance_stake(work: _Work, seat: int) -> int:
    """Half the original stake, rounded by the half-stake rule (BJ.half-stakes)."""
    stake = work.seats[seat].stake
    if stake % 2:
        return work.rules.half_stake_rounding.apply(Fraction(stake, 2))
    # Half an even stake is whole, which every rounding keeps: no Fraction made (a Fraction
    # is Python even in the compiled build, and every round under an ace asks).
    return stake // 2


def _funds_cover(rules: BlackjackRules, free: int, amount: int) -> bool:
    """BJ.funds: an extra stake needs the seat's uncommitted funds, ``free``."""
    return not rules.extra_stakes_need_funds or amount <= free


def _funds_narrow(rules: BlackjackRules, free: int, amount: int) -> bool:
    """Whether BJ.funds let an extra stake through narrowly: the funds cover it, not twice.

    An engine that counts the stake once too often (or compares strictly) withholds it there.
    """
    return rules.extra_stakes_need_funds and free < 2 * amount


def _passed(opened: Why, conditions: Sequence[tuple[bool, Why]]) -> Why:
    """An open decision's clauses: every condition it passed, those passed narrowly first.

    A decision withheld cites the condition that failed; one opened has passed them all, and
    an engine that withholds it most likely got the narrowest wrong (funds just enough, a
    half stake rounded), else the rule that opens it.
    """
    narrow = [why for near, why in conditions if near]
    rest = [why for near, why in conditions if not near]
    return joined(*narrow, opened, *rest)


#: One play decision's rules for the hand to act: the checks in order (failed, the clauses
#: that withhold it), the clauses that open it, and the conditions it passes (narrowly, why).
_Checks = tuple[tuple[bool, Why], ...]
_Play = tuple[Action, _Checks, Why, _Checks]


#: Each play decision's checks, True where one fails: hit, double, split, surrender (stand has
#: none), in the order ``_Table.play_checks`` words them.
_Failed = tuple[tuple[bool, ...], tuple[bool, ...], tuple[bool, ...], tuple[bool, ...]]


def _play_checks(work: _Work, seat: int, index: int) -> _Failed:
    """The checks of one hand's play decisions, True where one fails.

    The first check that fails withholds a decision and is the one cited: a 10-5 is not a
    pair before any question of funds.
    """
    rules = work.rules
    seat_work = work.seats[seat]
    hand = seat_work.hands[index]
    cards = hand.cards
    no_hits = hand.split_aces and not rules.hit_split_aces
    two_cards = len(cards) == 2 and not hand.doubled
    insured = rules.no_double_split_after_insurance and seat_work.insurance > 0
    free = seat_work.free_funds()
    funds = _funds_cover(rules, free, hand.stake)
    # A double for less needs one unit free at least (VAR.bj.double-for-less); a full double
    # needs the hand's stake, as a split does.
    double_funds = _funds_cover(rules, free, 1) if rules.double_for_less else funds
    double_cards: tuple[bool, ...]
    if rules.double_on is DoubleOn.ANY_CARDS:
        # Any hand still playing may double, after hits too (VAR.bj.double-on): a doubled
        # hand plays no more.
        double_cards = ()
    else:
        totals = _DOUBLE_TOTALS.get(rules.double_on)
        double_cards = (
            (not two_cards,) if totals is None else (not two_cards, hand.total not in totals)
        )
    from_split = hand.from_split
    return (
        (no_hits,),
        (
            *double_cards,
            from_split and not rules.double_after_split,
            insured,
            no_hits,
            not double_funds,
        ),
        (
            not two_cards,
            # Past two cards the check before has failed already: no pair to look at.
            two_cards and not is_pair(rules.split_pairs, cards[0], cards[1]),
            len(seat_work.hands) >= rules.max_hands,
            hand.split_aces and not rules.resplit_aces,
            insured,
            not funds,
        ),
        (
            not rules.surrender,
            not two_cards,
            from_split and not rules.surrender_after_split,
            # Early surrender was asked before the look; it is not asked again in play.
            seat_work.surrender_asked,
        ),
    )


def _play_rules(work: _Work, seat: int, index: int) -> tuple[_Play, ...]:
    """The play decisions of one hand still playing, each with the checks that decide it.

    The checks are ``_play_checks``, each with the clauses that withhold the decision where
    it fails (``_Table.play_checks``).
    """
    rules, table = work.rules, work.table
    seat_work = work.seats[seat]
    hand = seat_work.hands[index]
    hit, double, split, surrender = _play_checks(work, seat, index)
    hit_why, double_why, split_why, surrender_why = table.play_checks
    double_rule = table.double
    if rules.double_on is DoubleOn.ANY_CARDS:
        double_opened = table.double_on if len(hand.cards) > 2 else double_rule
    elif rules.double_on in _DOUBLE_TOTALS:
        double_opened = table.double_on_opened
    else:
        double_opened = double_rule
    funds_narrow = _funds_narrow(rules, seat_work.free_funds(), hand.stake)
    return (
        (Action.HIT, tuple(zip(hit, hit_why, strict=True)), _VALUES, ()),
        (Action.STAND, (), _COMPARE, ()),
        (
            Action.DOUBLE,
            tuple(zip(double, double_why, strict=True)),
            double_opened,
            ((funds_narrow and not rules.double_for_less, table.funds_rule),),
        ),
        (
            Action.SPLIT,
            tuple(zip(split, split_why, strict=True)),
            table.split,
            (
                # A re-split: an engine that withholds it most likely allows one split only.
                (len(seat_work.hands) > 1, table.max_hands),
                (funds_narrow, table.funds_rule),
            ),
        ),
        (Action.SURRENDER, tuple(zip(surrender, surrender_why, strict=True)), table.surrender, ()),
    )


def _withholding(checks: _Checks) -> Why | None:
    """The clauses of the first check that fails, or None when every one passes."""
    for failed, why in checks:
        if failed:
            return why
    return None


def _open_plays(work: _Work, seat: int, index: int) -> tuple[Action, ...]:
    """The play decisions open to one hand, in Action order: those whose checks all pass."""
    if work.seats[seat].hands[index].status is not HandStatus.PLAYING:
        return ()
    hit, double, split, surrender = _play_checks(work, seat, index)
    # Indexed by whether each is open (a bool is 0 or 1): no tuple of four made and hashed.
    by_hit = _OPEN_PLAYS[True not in hit]
    return by_hit[True not in double][True not in split][True not in surrender]


def _plays_open(*, hit: bool, double: bool, split: bool, surrender: bool) -> tuple[Action, ...]:
    """The play decisions open, in Action order, when hit, double, split and surrender are."""
    return tuple(
        action
        for action, is_open in (
            (Action.HIT, hit),
            (Action.STAND, True),
            (Action.DOUBLE, double),
            (Action.SPLIT, split),
            (Action.SURRENDER, surrender),
        )
        if is_open
    )


_Open = tuple[tuple[Action, ...], ...]
#: ``_plays_open`` of every case, indexed by whether hit, double, split and surrender are open.
_OPEN_PLAYS: Final[tuple[tuple[tuple[_Open, ...], ...], ...]] = tuple(
    tuple(
        tuple(
            tuple(
                _plays_open(hit=hit, double=double, split=split, surrender=surrender)
                for surrender in (False, True)
            )
            for split in (False, True)
        )
        for double in (False, True)
    )
    for hit in (False, True)
)


def _play_options(work: _Work, seat: int, index: int) -> dict[Action, Option]:
    """The play decisions of one hand, each open or withheld with its clause."""
    hand = work.seats[seat].hands[index]
    if hand.status is not HandStatus.PLAYING:
        return dict.fromkeys(_PLAYS, Option(open=False, why=hand.why))
    out: dict[Action, Option] = {}
    for action, checks, opened, narrow in _play_rules(work, seat, index):
        withheld = _withholding(checks)
        out[action] = (
            Option(open=True, why=_passed(opened, narrow))
            if withheld is None
            else Option(open=False, why=withheld)
        )
    return out


def options(state: BlackjackState) -> dict[Action, Option]:
    """Every decision, open or withheld now, with the clauses that decide it.

    ``decline-surrender`` is a decision only of a profile with early surrender.
    """
    return _options(state.work)


def _options(work: _Work) -> dict[Action, Option]:
    rules, table, turn = work.rules, work.table, work.turn
    early: dict[Action, Option] = {}
    if rules.surrender_early:
        early = {Action.DECLINE_SURRENDER: Option(open=False, why=table.surrender_timing)}
    if turn is None:
        return dict.fromkeys(_actions(rules), Option(open=False, why=work.why or _ORDER))
    if work.phase is Phase.OFFERS:
        if _early_surrender_due(work, turn.seat):
            asked = Option(open=True, why=table.surrender_timing)
            waiting = Option(open=False, why=asked.why)
            return {
                **dict.fromkeys(_actions(rules), waiting),
                Action.SURRENDER: asked,
                Action.DECLINE_SURRENDER: asked,
            }
        offers = _offer_options(work, turn.seat)
        offer = _offer_made(offers)
        # Offers come first: no play decision while one is open (A.peek, C.bj.insurance).
        waiting = Option(open=False, why=offer.why if offer else table.insurance)
        return {**offers, **dict.fromkeys(_PLAYS, waiting), **early}
    plays = _play_options(work, turn.seat, turn.hand)
    return {
        **early,
        **plays,
        **_pair(
            Action.INSURANCE,
            Action.DECLINE_INSURANCE,
            Option(open=False, why=table.insurance),
        ),
        **_pair(
            Action.EVEN_MONEY,
            Action.DECLINE_EVEN_MONEY,
            Option(open=False, why=table.even_money),
        ),
    }


def _actions(rules: BlackjackRules) -> tuple[Action, ...]:
    """The decisions of the profile: every one but decline-surrender unless it surrenders early."""
    if rules.surrender_early:
        return tuple(Action)
    return tuple(action for action in Action if action is not Action.DECLINE_SURRENDER)


def _early_surrender_due(work: _Work, seat: int) -> bool:
    """Whether the seat is yet to answer early surrender, asked before the dealer's look.

    VAR.bj.surrender: early surrender comes before any look, so it is asked where the dealer
    looks under this up card; under any other up card surrender is offered in play as ever.
    """
    rules, seat_work = work.rules, work.seats[seat]
    # Early surrender implies surrender: the profile refuses one without the other.
    return (
        rules.surrender_early
        and not seat_work.surrender_asked
        and seat_work.hands[0].status is HandStatus.PLAYING
        and work.up.rank in work.table.peeks
    )


def _open(options: dict[Action, Option], order: Sequence[Action]) -> tuple[Action, ...]:
    """The open decisions among ``options``, in ``order``."""
    return tuple(action for action in order if options[action].open)


_OFFERS_ORDER: Final[tuple[Action, ...]] = (
    Action.INSURANCE,
    Action.DECLINE_INSURANCE,
    Action.EVEN_MONEY,
    Action.DECLINE_EVEN_MONEY,
)


# --- advancing -------------------------------------------------------------------------


def _advance(work: _Work) -> None:
    """Move the round on until it waits for a decision or is complete."""
    if work.phase is Phase.OFFERS:
        start = 0 if work.turn is None else work.turn.seat
        for seat in range(start, len(work.seats)):
            if _early_surrender_due(work, seat):
                work.note(work.table.surrender_timing)
                work.turn = _turn(seat, 0)
                work.legal = (Action.SURRENDER, Action.DECLINE_SURRENDER)
                return
            # A seat that surrendered early is done with the offers too.
            if work.seats[seat].offer_done or work.up.rank is not Rank.ACE:
                continue
            offers = _offer_options(work, seat)
            offer = _offer_made(offers)
            if offer is not None:
                work.note(offer.why)
                work.turn = _turn(seat, 0)
                work.legal = _open(offers, _OFFERS_ORDER)
                return
            work.note(_offer_withheld(work, seat, offers))
        if not _after_offers(work):
            return
        work.phase, work.turn = Phase.PLAY, None
    if work.phase is Phase.PLAY:
        _next_hand(work)
        if work.turn is None:
            _dealer_and_settle(work)


def _peeks(rules: BlackjackRules, up: Rank) -> bool:
    """Whether the dealer looks at the hole card before play under this up card (A.peek, C.bj.peek).

    Asked once per rank for the profile's table (``_Table.peeks``).
    """
    if up is Rank.ACE:
        return rules.peek in (Peek.ACE, Peek.ACE_OR_TEN)
    return up in _TENS and rules.peek is Peek.ACE_OR_TEN


def _after_offers(work: _Work) -> bool:
    """Peek if the profile says so; pay naturals that can no longer be tied.

    Whether play goes on: not when the peek finds a blackjack, which ends the round.
    """
    rules, table, up = work.rules, work.table, work.up
    if up.rank in _NATURAL_UP:
        # Under an ace or a ten, whether the dealer looks is the peek rule's to say.
        work.note(table.peek)
    if up.rank in table.peeks:
        work.peeked, work.why_hole = True, table.peek
        if work.dealer_natural:
            # The round ends unplayed: the peek decides every hand still waiting to play.
            for box in work.seats:
                for hand in box.hands:
                    if hand.status is HandStatus.PLAYING:
                        hand.why = table.peek_ended
            work.hole_revealed, work.why_stopped = True, table.peek_stopped
            work.steps.append(
                ("peek", table.peek, "dealer blackjack: {} {}; the round ends", (up, work.hole))
            )
            _settle(work)
            return False
        work.steps.append(("peek", table.peek, "no dealer blackjack; play goes on", ()))
    if rules.natural_paid_at_once and (work.peeked or up.rank not in _NATURAL_UP):
        for seat, seat_work in enumerate(work.seats):
            hand = seat_work.hands[0]
            if hand.status is HandStatus.BLACKJACK and not hand.even_money:
                clauses = table.paid_at_once_step
                if up.rank in _TENS:
                    clauses = (*clauses, "A.nat-vs-ten")
                work.steps.append(
                    ("natural paid", clauses, "seat {}: blackjack paid at once", (seat,))
                )
                hand.paid_early = True
                work.note(table.paid_at_once)
    return True


def _next_hand(work: _Work) -> None:
    """Find the next hand to act, dealing a split hand's second card as it starts (BJ.deal-order)."""
    turn = work.turn
    seat, index = (0, 0) if turn is None else (turn.seat, turn.hand)
    seats = work.seats
    while seat < len(seats):
        hands = seats[seat].hands
        if index >= len(hands):
            seat, index = seat + 1, 0
            continue
        hand = hands[index]
        if hand.status is HandStatus.WAITING:
            _deal_split_card(work, seat, index)
        if hand.status is HandStatus.PLAYING:
            legal = _open_plays(work, seat, index)
            if legal:
                work.note(hand.why)
                work.turn = _turn(seat, index)
                work.legal = legal
                return
            # Nothing is legal (split aces without hits): the hand stands as it is.
            hand.status, hand.why = HandStatus.STOOD, work.table.hit_split_aces
        work.note(hand.why)
        index += 1
    work.turn = None


def _after_card(work: _Work, hand: _WorkHand) -> None:
    """A hand after it receives a card: bust, 21 or still playing, and the clause that says so."""
    total = hand.total
    if total > 21:
        hand.status, hand.why = HandStatus.BUST, _BUST
    elif total == 21 and work.rules.auto_stand_21:
        hand.status, hand.why = HandStatus.STOOD, work.table.auto_stand
    else:
        hand.status, hand.why = HandStatus.PLAYING, _VALUES


def _deal_split_card(work: _Work, seat: int, index: int) -> None:
    rules, table = work.rules, work.table
    hand = work.seats[seat].hands[index]
    card = _card(work, "BJ.deal-order", "seat {} hand {}'s second card", seat, index)
    hand.take(card)
    work.position += 1
    clauses: Why = _ORDER
    two_card_21 = hand.two_card_21()
    if two_card_21 and rules.split_21_is_blackjack:
        hand.status, hand.why = HandStatus.BLACKJACK, table.split_21
        clauses = (*clauses, *table.split_21)
    else:
        _after_card(work, hand)
        if two_card_21:
            # A two-card 21 on a split hand is a plain 21 (A.split, C.bj.split), which stands
            # by BJ.auto-stand: its status is the auto-stand's, not the split rule's.
            clauses = (*clauses, *table.split_21, "BJ.auto-stand")
    if (
        hand.split_aces
        and not rules.hit_split_aces
        and hand.status is HandStatus.PLAYING
        and not _may_resplit(work, seat, index)
    ):
        hand.status, hand.why = HandStatus.STOOD, table.hit_split_aces
        clauses = (*clauses, *table.hit_split_aces)
    work.steps.append(("split card", clauses, "seat {} hand {} receives {}", (seat, index, card)))


def _may_resplit(work: _Work, seat: int, index: int) -> bool:
    """Whether split aces that take no hits may be split again now (VAR.bj.resplit)."""
    return Action.SPLIT in _open_plays(work, seat, index)


# --- decisions -------------------------------------------------------------------------


def decide(state: BlackjackState, decision: Decision) -> BlackjackState:
    """Apply one decision and advance; an illegal one raises and changes nothing.

    The error's ``clause`` is the rule that withholds the decision now.
    """
    work = state.work
    turn = work.turn
    if turn is None:
        raise IllegalDecisionError(
            f"the round is complete; {decision.action.value} is not legal",
            action=decision.action.value,
            legal="",
            clause="CONTRACT.lifecycle",
        )
    legal = work.legal
    if decision.seat != turn.seat or decision.hand != turn.hand:
        raise IllegalDecisionError(
            f"it is seat {turn.seat} hand {turn.hand}'s turn, not seat {decision.seat} hand {decision.hand}'s; "
            f"legal: {_names(legal)}",
            action=decision.action.value,
            seat=turn.seat,
            hand=turn.hand,
            legal=_names(legal),
            clause="CONTRACT.request",
        )
    if decision.action not in legal:
        raise IllegalDecisionError(
            f"{decision.action.value} is not legal for seat {turn.seat} hand {turn.hand} now; "
            f"legal: {_names(legal)}",
            action=decision.action.value,
            seat=turn.seat,
            hand=turn.hand,
            legal=_names(legal),
            clause=_withheld_by(work, decision.action),
        )
    amount = _amount(work, turn, decision)
    work = work.copy()
    _apply(work, turn.seat, turn.hand, decision.action, amount)
    _advance(work)
    return BlackjackState(work=work)


def _withheld_by(work: _Work, action: Action) -> str:
    """The clause that withholds a decision now; decline-surrender is early surrender's alone."""
    option = _options(work).get(action)
    return option.why[0] if option else work.table.surrender_timing[0]


def _names(actions: Sequence[Action]) -> str:
    return ",".join(action.value for action in actions)


def _amount(work: _Work, turn: Turn, decision: Decision) -> int:
    """The stake a legal double or insurance puts down; an amount the rules refuse raises.

    VAR.bj.double-for-less: a double's extra stake is 1 unit to the hand's stake;
    VAR.bj.insurance-stake: an insurance stake 1 unit to half the stake. No amount is the full
    one; an amount on any other decision, or where the profile lets none be chosen, is refused.
    """
    rules, table = work.rules, work.table
    seat_work = work.seats[turn.seat]
    if decision.action is Action.DOUBLE:
        full = seat_work.hands[turn.hand].stake
        variant, chosen = table.double_for_less, rules.double_for_less
    elif decision.action is Action.INSURANCE:
        full, variant = _insurance_stake(work, turn.seat), table.insurance_stake
        chosen = rules.insurance_up_to_half
    elif decision.amount is None:
        return 0
    else:
        full, variant, chosen = 0, ("CONTRACT.request",), False
    amount = full if decision.amount is None else decision.amount
    if decision.amount is not None and not chosen:
        problem, clause = "this profile takes no amount on it", variant[0]
    elif not 1 <= amount <= full:
        problem, clause = f"the amount must be 1 to {full}", variant[0]
    elif not _funds_cover(rules, free := seat_work.free_funds(), amount):
        problem, clause = f"the seat has {free} free", table.funds[0]
    else:
        return amount
    raise IllegalDecisionError(
        f"{decision.action.value} for {amount} is not legal for seat {turn.seat} hand "
        f"{turn.hand}: {problem}; legal: {_names(work.legal)}",
        action=decision.action.value,
        seat=turn.seat,
        hand=turn.hand,
        amount=amount,
        legal=_names(work.legal),
        clause=clause,
    )


def _apply(work: _Work, seat: int, index: int, action: Action, amount: int) -> None:
    """The round right after a legal decision: what it changed, logged, and nothing moved on yet.

    ``amount`` is the stake a double or an insurance puts down (``_amount``).
    """
    table = work.table
    seat_work = work.seats[seat]
    hand = seat_work.hands[index]
    work.why = ()
    match action:
        # The decisions most rounds take first: the cases are tried in turn.
        case Action.HIT:
            card = _card(work, "BJ.deal-order", "seat {} hand {}'s hit", seat, index)
            hand.take(card)
            _after_card(work, hand)
            _drawn(work, seat, index, hand, ("hit", _VALUES, "draws"), card=card)
        case Action.STAND:
            hand.status, hand.why = HandStatus.STOOD, _COMPARE
            work.steps.append(("stand", _COMPARE, "seat {} hand {}", (seat, index)))
        case Action.INSURANCE:
            seat_work.insurance, seat_work.offer_done = amount, True
            work.steps.append(
                ("insurance", table.insured_step, "seat {} insures for {}", (seat, amount))
            )
        case Action.EVEN_MONEY:
            hand.even_money = hand.paid_early = True
            hand.why = (*hand.why, *table.even_money)
            seat_work.offer_done = True
            work.steps.append(("even money", table.even_money, "seat {} takes 1:1 now", (seat,)))
        case Action.DECLINE_INSURANCE:
            seat_work.offer_done = True
            work.steps.append(("decline insurance", table.insurance, "seat {}", (seat,)))
        case Action.DECLINE_EVEN_MONEY:
            seat_work.offer_done = True
            work.steps.append(("decline even money", table.even_money, "seat {}", (seat,)))
        case Action.SURRENDER:
            clauses = table.surrendered
            hand.status, hand.why = HandStatus.SURRENDERED, clauses
            if work.phase is Phase.OFFERS:
                # Early surrender, before the look: the hand takes no insurance either.
                clauses = (*table.surrender_timing, *clauses)
                seat_work.surrender_asked = seat_work.offer_done = True
            work.steps.append(("surrender", clauses, "seat {} hand {}", (seat, index)))
        case Action.DECLINE_SURRENDER:
            seat_work.surrender_asked = True
            work.steps.append(("decline surrender", table.surrender_timing, "seat {}", (seat,)))
        case Action.DOUBLE:
            _double(work, seat, index, amount)
        case Action.SPLIT:
            _split(work, seat, index)
        case _:  # pragma: no cover - every decision is one of the above
            raise IllegalDecisionError(f"{action.value} is not a decision", action=action.value)


def _double(work: _Work, seat: int, index: int, amount: int) -> None:
    """A hand doubled for ``amount`` more: it takes exactly one card (A.double, C.bj.double)."""
    table = work.table
    hand = work.seats[seat].hands[index]
    card = _card(work, table.double[0], "seat {} hand {}'s double", seat, index)
    hand.take(card)
    hand.stake += amount
    hand.doubled = True
    if hand.total > 21:
        hand.status, hand.why = HandStatus.BUST, _BUST
    else:
        hand.status, hand.why = HandStatus.STOOD, table.double
    _drawn(work, seat, index, hand, ("double", table.double_step, "doubles and draws"), card=card)


def _split(work: _Work, seat: int, index: int) -> None:
    """A pair split into two hands waiting for their second cards (A.split, C.bj.split)."""
    table = work.table
    hands = work.seats[seat].hands
    hand = hands[index]
    first, second = hand.cards
    aces = first.rank is Rank.ACE
    made_by = table.split_made
    # The hands a split makes are numbered right after the hand split, in the order they were
    # made (VAR.bj.resplit): after those its earlier splits made.
    made = index + 1 + hand.splits
    hands[index] = _hand(
        [first],
        hand.stake,
        HandStatus.WAITING,
        made_by,
        from_split=True,
        split_aces=aces,
        splits=hand.splits + 1,
    )
    hands.insert(
        made,
        _hand([second], hand.stake, HandStatus.WAITING, made_by, from_split=True, split_aces=aces),
    )
    work.steps.append(
        ("split", table.split_step, "seat {} hand {} splits {} {}", (seat, index, first, second))
    )


def _drawn(
    work: _Work,
    seat: int,
    index: int,
    hand: _WorkHand,
    logged: tuple[str, Why, str],
    *,
    card: Card,
) -> None:
    """Log a hand that has taken ``card`` by a hit or a double, with its status."""
    action, clauses, verb = logged
    work.position += 1
    if hand.status is HandStatus.BUST:
        clauses = (*clauses, "BJ.bust")
    elif hand.status is HandStatus.STOOD and hand.total == 21:
        clauses = (*clauses, "BJ.auto-stand")
    work.steps.append(
        (action, clauses, "seat {} hand {} " + verb + " {}: {}", (seat, index, card, hand.total))
    )


# --- dealer and settlement -------------------------------------------------------------


def _dealer_and_settle(work: _Work) -> None:
    """The dealer turns the hole card and draws only if a hand waits for its total (BJ.dealer-needed)."""
    rules, table = work.rules, work.table
    hands = [hand for seat in work.seats for hand in seat.hands]
    # One pass over the hands: how many stood and wait for the dealer's total, whether a
    # blackjack not taken by even money is among them, and whether every hand was paid.
    waiting_hands, natural, all_paid = 0, False, True
    for hand in hands:
        if hand.status is HandStatus.STOOD:
            waiting_hands += 1
        elif hand.status is HandStatus.BLACKJACK and not hand.even_money:
            natural = True
        all_paid = all_paid and hand.paid_early
    draw = waiting_hands > 0 or rules.dealer_draws_when_not_needed
    # A.nat-vs-ten, A.even-money: a blackjack that waited for the peek is shown the hole card;
    # only one paid at once (A.nat-immediate) or by even money never sees it.
    shown_to_natural = work.peeked and natural
    reveal = draw or shown_to_natural or not all_paid
    if reveal and rules.hole_card_at_showdown and not _showdown(work, hands):
        # No hand is left to compare with the dealer: the hole card stays face down and the
        # dealer draws nothing (VAR.bj.hole-card).
        work.why_hole = work.why_stopped = table.hole_card
        # Nor does it draw: no hand stood, and a showdown profile never draws unneeded.
        reveal = False
    elif not reveal:
        # Every hand was paid at once or by even money: the hole card is never shown.
        paid_by = table.even_money if all(hand.even_money for hand in hands) else table.paid_at_once
        work.why_hole = work.why_stopped = paid_by
    elif not work.hole_revealed:
        why = (*_NEEDED, *(_natural_context(work) if shown_to_natural else ()))
        work.hole_revealed = True
        work.why_hole = work.why_stopped = why
        work.steps.append(("hole card", why, "dealer turns {}: {}", (work.hole, work.dealer_total)))
    if reveal and work.dealer_natural:
        work.why_stopped = ("BJ.natural",)
    elif draw:
        stops = table.stops
        while True:
            total = work.dealer_total
            soft = total != work.dealer_hard
            if total > 17 or (total == 17 and not (soft and rules.dealer_hits_soft_17)):
                break
            card = _card(work, stops[0], "the dealer's draw")
            work.position += 1
            work.draws.append(card)
            hard = work.dealer_hard = work.dealer_hard + _PIPS[card.rank]
            ace = work.dealer_ace = work.dealer_ace or card.rank is Rank.ACE
            work.dealer_total = _best(hard, ace=ace)
            work.steps.append(("dealer draws", table.drew, "{}: {}", (card, work.dealer_total)))
        # Needed narrowly: one hand alone waits while others do not. An engine that skips the
        # dealer then most likely counts the waiting hands wrong; else its drawing rule.
        narrow_need = waiting_hands == 1 < len(hands)
        work.why_drew = table.drew_narrowly if narrow_need else table.drew_plainly
        work.why_stopped = stops
    work.note(_NEEDED)
    _settle(work)


def _showdown(work: _Work, hands: Sequence[_WorkHand]) -> bool:
    """Whether some hand is compared with the dealer's cards (VAR.bj.hole-card).

    A stood hand is; so is a blackjack that the dealer may still tie: not paid yet, under an
    ace or a ten the dealer has not looked beneath.
    """
    unknown = not work.peeked and work.up.rank in _NATURAL_UP
    return any(
        hand.status is HandStatus.STOOD
        or (hand.status is HandStatus.BLACKJACK and unknown and not hand.paid_early)
        for hand in hands
    )


def _settle(work: _Work) -> None:
    lines: list[SettlementLine] = []
    table = work.table
    total = 0
    for seat, seat_work in enumerate(work.seats):
        for index, hand in enumerate(seat_work.hands):
            paid, kept, clauses = _settle_hand(work, seat_work, index, hand)
            line = _line(table, seat, f"hand {index}", (paid, hand.stake, kept), clauses)
            lines.append(line)
            total += line.payout.returned
        if seat_work.insurance:
            paid, clauses = _settle_insurance(work)
            line = _line(table, seat, "insurance", (paid, seat_work.insurance, 0), clauses)
            lines.append(line)
            total += line.payout.returned
    work.steps.append(
        (
            "settle",
            _COMPARE,
            "{} line(s), {} returned",
            (len(lines), total),
        )
    )
    work.phase, work.turn, work.legal = Phase.COMPLETE, None, ()
    work.settlement = tuple(lines)


class _Paid(Choice):
    """How a line's payout follows from its stake (``_payout``)."""

    LOST = "lost"
    PUSHED = "pushed"
    EVEN = "even"
    NATURAL = "natural"
    INSURED = "insured"
    HALF = "half"
    #: The stake but for the original one (VAR.bj.dealer-blackjack-takes): ``kept`` returned.
    KEPT = "kept"


#: What a line pays: how, on what stake, and what a KEPT line returns (0 for any other).
_Owed = tuple[_Paid, int, int]


@lru_cache(maxsize=4096)
def _line(table: _Table, seat: int, bet: str, owed: _Owed, clauses: Why) -> SettlementLine:
    """A settlement line (cached: lines are immutable, and most rounds settle alike)."""
    return settled(
        seat=seat, bet=bet, payout=_payout(table, owed), clauses=clauses, rounding=table.rounding
    )


def _payout(table: _Table, owed: _Owed) -> Payout:
    """What a line returns: its stake paid as ``_settle_hand`` or ``_settle_insurance`` said."""
    rules = table.rules
    paid, stake, kept = owed
    match paid:
        case _Paid.LOST:
            return lose(stake)
        case _Paid.PUSHED:
            return push(stake)
        case _Paid.EVEN:
            return win(stake, _EVEN, rules.rounding)
        case _Paid.NATURAL:
            return win(stake, rules.blackjack_pays, rules.rounding)
        case _Paid.INSURED:
            return win(stake, rules.insurance_pays, rules.rounding)
        case _Paid.HALF:
            return portion(stake, Fraction(1, 2), rules.half_stake_rounding)
        case _:
            return returns(stake, Fraction(kept), rules.rounding)


def _settle_insurance(work: _Work) -> tuple[_Paid, Why]:
    """An insurance stake wins against a dealer blackjack, else loses (A.insurance)."""
    clauses = (*work.table.insurance_pays, "BJ.half-stakes")
    if work.dealer_natural:
        return _Paid.INSURED, clauses
    return _Paid.LOST, clauses


_EVEN: Final = Odds(win=Fraction(1))


def _settle_hand(
    work: _Work, seat_work: _WorkSeat, index: int, hand: _WorkHand
) -> tuple[_Paid, int, Why]:
    """How one hand is paid, what a KEPT hand returns (else 0), and the clauses that decided it."""
    rules, table = work.rules, work.table
    match hand.status:
        case HandStatus.SURRENDERED:
            # Surrendered before the look (VAR.bj.surrender): half back whatever the hole card.
            early = table.surrender_timing if seat_work.surrender_asked else ()
            return _Paid.HALF, 0, (*table.surrendered, *early)
        case HandStatus.BUST:
            return _Paid.LOST, 0, ("BJ.bust",)
        case HandStatus.BLACKJACK:
            if hand.even_money:
                return _Paid.EVEN, 0, table.even_money
            context = _natural_context(work)
            if work.dealer_natural:
                return _Paid.PUSHED, 0, ("BJ.nat-pays", *context)
            return _Paid.NATURAL, 0, ("BJ.nat-pays", "BJ.natural", *context)
        case _:
            pass
    # A live hand: stood, doubled, or never played because a peek ended the round.
    if work.dealer_natural:
        extra_stakes = hand.doubled or hand.from_split
        if work.peeked:
            clauses = (*table.peek, "BJ.compare", "BJ.natural")
        elif extra_stakes:
            clauses = (*table.takes, "BJ.compare", "BJ.natural")
        else:
            clauses = ("BJ.compare", "BJ.natural", *table.peek)
        if work.peeked or rules.dealer_blackjack_takes_all:
            return _Paid.LOST, 0, clauses
        # Only the original stake is lost; the doubled part and a split hand's stake come back.
        return _Paid.KEPT, hand.stake - (seat_work.stake if index == 0 else 0), clauses
    # A two-card 21 made on a split hand is a plain 21 (A.split, C.bj.split).
    split_21: Why = ()
    if hand.from_split and hand.two_card_21():
        split_21 = table.split_21
    dealer_total, total = work.dealer_total, hand.total
    if dealer_total > 21 or total > dealer_total:
        return _Paid.EVEN, 0, (*split_21, "BJ.compare")
    if total == dealer_total:
        return _Paid.PUSHED, 0, (*split_21, "BJ.compare")
    return _Paid.LOST, 0, (*split_21, "BJ.compare")


def _natural_context(work: _Work) -> Why:
    """The source clauses that say how a blackjack meets this up card."""
    table, up = work.table, work.up
    if up.rank is Rank.ACE:
        return table.even_money
    if up.rank in _TENS:
        return table.peek
    return table.paid_at_once


def settle(state: BlackjackState) -> tuple[SettlementLine, ...]:
    """The settlement of a complete round; ``RoundNotCompleteError`` while it waits for a decision."""
    if not state.complete:
        turn = state.turn
        where = f"seat {turn.seat} hand {turn.hand}" if turn else "a decision"
        raise RoundNotCompleteError(
            f"the round is not complete: it waits for {where} ({_names(state.legal)})",
            legal=_names(state.legal),
        )
    return state.settlement


# --- what decided each value ----------------------------------------------------------


def citations(state: BlackjackState) -> dict[str, Why]:
    """The clauses that decided every value of the round state, by path (``oracle.provenance``).

    Read off what the rules recorded as they decided: each hand's and the dealer's reasons,
    where the round stands, and each decision's option.
    """
    work = state.work
    rules, table = work.rules, work.table
    out: dict[str, Why] = {}
    position = work.why or _ORDER
    out["phase"] = position
    out["turn"] = position
    out["cards_dealt"] = _ORDER
    for action, option in _options(work).items():
        out[f"legal_decisions[{action.value}]"] = option.why
    split_rule = table.split_hands
    # Fields that one rule decides on every hand or seat.
    out["*.doubled"] = table.double
    out["*.from_split"] = split_rule
    out["*.even_money"] = table.even_money
    out["*.insurance"] = ("BJ.half-stakes", *table.insurance)
    if rules.insurance_up_to_half:
        out["*.insurance"] = (*table.insurance_stake, *out["*.insurance"])
    complete = work.phase is Phase.COMPLETE
    for i, seat in enumerate(work.seats):
        base = f"blackjack.seats[{i}]"
        out[f"{base}.hands"] = split_rule
        for j, hand in enumerate(seat.hands):
            path = f"{base}.hands[{j}]"
            # A wrong card where both have one was dealt from the wrong place; a card too many
            # or too few is decided by whatever ended or continues the hand.
            out[f"{path}.cards"] = _ORDER
            if j > 0 and hand.from_split and len(hand.cards) > 1:
                # A split hand's second card comes when the hand before it is done: what ended
                # that hand decided it, unless the player did (then the dealing order did).
                before = seat.hands[j - 1].why
                out[f"{path}.cards[1]={ABSENT}"] = _ORDER if before == _COMPARE else before
            done = complete or hand.status not in (HandStatus.PLAYING, HandStatus.WAITING)
            out[f"{path}.cards[{len(hand.cards)}]"] = hand.why if done else _ORDER
            out[f"{path}.status"] = hand.why
            if hand.status is not HandStatus.BUST:
                # Not bust: the hand's total by the card values is 21 or less.
                out[f"{path}.status=bust"] = _VALUES
            if hand.from_split and hand.two_card_21():
                # A two-card 21 on a split hand is not a blackjack (A.split, C.bj.split).
                out[f"{path}.status=blackjack"] = table.split_21
            if hand.doubled and rules.double_for_less:
                out[f"{path}.stake"] = table.double_for_less_stake
            elif hand.doubled:
                out[f"{path}.stake"] = table.double
            elif hand.from_split:
                out[f"{path}.stake"] = split_rule
            else:
                out[f"{path}.stake"] = _DEAL
    # Why the round takes no card beyond those dealt, once it is complete.
    out["cards_dealt+"] = work.why_stopped or work.why_hole
    out["blackjack.dealer.cards"] = _ORDER
    out["blackjack.dealer.hole_card_hidden"] = work.why_hole
    if not work.hole_revealed:
        out["blackjack.dealer.cards[1]"] = work.why_hole
        return out
    out[f"blackjack.dealer.cards[1]={ABSENT}"] = work.why_hole
    count = 2 + len(work.draws)
    for index in range(2, count):
        # The first draw is whatever made the dealer draw at all; the later ones the rule.
        out[f"blackjack.dealer.cards[{index}]={ABSENT}"] = (
            work.why_drew if index == 2 else table.drew
        )
    out[f"blackjack.dealer.cards[{count}]"] = work.why_stopped or table.drew
    return out


def accepted(rules: BlackjackRules) -> dict[str, Why]:
    """Why a deal the rules take is not refused, keyed ``error=REASON`` (``oracle.provenance``)."""
    return {
        "error=BET_OUT_OF_LIMITS": rules.limits.clauses,
        "error=INSUFFICIENT_BALANCE": rules.cite("extra_stakes_need_funds"),
        "error=SHOE_NOT_IN_PROFILE": rules.cite("decks"),
        "error=SHOE_EXHAUSTED": ("BJ.deal", "BJ.deal-order"),
    }
