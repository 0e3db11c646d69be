"""Blackjack as a state machine over a forced shoe (RULES.md "Blackjack").

A round is an immutable ``BlackjackState``. ``deal`` starts it; ``decide``
applies one decision and returns a new state; an illegal decision raises
``IllegalDecisionError`` listing the legal ones and leaves the old state as it
was. Between decisions the machine advances by itself (offers, peek, split
hands' second cards, the dealer), so a state always waits for a decision or
is complete, and a complete state carries its settlement.

Seats and hands are numbered from 0, in the order the contract deals them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from oracle.cards import Card, Rank, format_cards
from oracle.clauses import Game

# Blackjack is the game of decisions: its module re-exports them (``blackjack.Action``).
from oracle.decision import Action as Action  # noqa: PLC0414
from oracle.decision import Decision as Decision  # noqa: PLC0414
from oracle.errors import (
    IllegalDecisionError,
    InvalidRoundError,
    ProfileError,
    RoundNotCompleteError,
    ShoeExhaustedError,
)
from oracle.immutable import Choice, evolve
from oracle.money import Odds, Payout, Rounding, lose, portion, push, returns, win
from oracle.profile import Citations  # at run time: mypyc's dataclasses read field types
from oracle.provenance import ABSENT, joined
from oracle.settlement import Limits, SettlementLine, Step, check_seat_stakes, settled
from oracle.shoe import check_composition

if TYPE_CHECKING:
    from collections.abc import Sequence

    from oracle.profile import Profile


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


#: The two-card totals each restricted double takes (VAR.bj.double-on).
_DOUBLE_TOTALS = {DoubleOn.NINE_TO_ELEVEN: (9, 10, 11), DoubleOn.TEN_ELEVEN: (10, 11)}


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


def hand_total(cards: Sequence[Card]) -> tuple[int, bool]:
    """Best total and whether it is soft: one ace counts 11 unless that busts (BJ.values)."""
    total = sum(card.rank.pip for card in cards)
    if total <= 11 and any(card.rank is Rank.ACE for card in cards):
        return total + 10, True
    return total, False


def is_two_card_21(cards: Sequence[Card]) -> bool:
    """An ace and a ten-valued card as the only two cards (BJ.natural)."""
    return len(cards) == 2 and hand_total(cards)[0] == 21


def is_pair(rule: SplitPairs, first: Card, second: Card) -> bool:
    """Whether two cards may be split under the profile's rule (A.split, C.bj.split)."""
    if first.rank is second.rank:
        return True
    match rule:
        case SplitPairs.SAME_RANK:
            return False
        case SplitPairs.SAME_RANK_OR_PICTURES:
            return first.rank.is_picture and second.rank.is_picture
        case SplitPairs.SAME_VALUE:
            return first.rank.pip == second.rank.pip


# --- state -----------------------------------------------------------------------------

#: A reason: the clauses that decided a value, deciding clause first.
Why = tuple[str, ...]

_DEAL: Why = ("BJ.deal",)
_ORDER: Why = ("BJ.deal-order",)


@dataclass(frozen=True, slots=True)
class _Cards:
    """Cards in a step's words, written as ``format_cards`` writes them when the step is read."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return format_cards(self.cards)


@dataclass(frozen=True, slots=True, kw_only=True)
class BlackjackSeat:
    """A seat as it joins a round: its funds and its stake on the box."""

    balance: int
    stake: int


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


@dataclass(frozen=True, slots=True, kw_only=True)
class BlackjackState:
    """An immutable snapshot of a round.

    ``why`` is what decided where the round stands (its phase and turn): the first rule that
    moved it on since the last decision (an offer withheld, the peek, a hand that stands), or,
    when nothing moved it, what keeps it waiting where it is.
    """

    rules: BlackjackRules
    shoe: tuple[Card, ...]
    position: int
    seats: tuple[SeatState, ...]
    dealer: Dealer
    phase: Phase
    turn: Turn | None
    steps: tuple[Step, ...]
    settlement: tuple[SettlementLine, ...] = ()
    why: Why = ()
    #: The decisions the hand to act may take now, in Action order; empty once complete.
    #: Recorded where the round stops to wait, from the rules that decide each one (``options``).
    legal: tuple[Action, ...] = ()

    @property
    def dealt(self) -> tuple[Card, ...]:
        """Every card taken from the shoe so far, in dealing order."""
        return self.shoe[: self.position]

    @property
    def complete(self) -> bool:
        """Whether the round has ended and carries its settlement."""
        return self.phase is Phase.COMPLETE

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


# --- dealing and drawing ---------------------------------------------------------------


def _card(state: BlackjackState, why: str, asked_by: str, *, ahead: int = 0) -> Card:
    """The shoe's next card (``ahead`` more along); ``ShoeExhaustedError`` saying who needed it.

    Running out is refused by the shoe's rule whoever needs the card, the dealer too: the
    contract deals from the forced shoe only (BJ.deal-order), and an engine that goes on is
    wrong about the shoe. ``asked_by``, the rule that wanted the card, is what a recorded
    round without it breaks.
    """
    position = state.position + ahead
    if position >= len(state.shoe):
        raise ShoeExhaustedError(
            f"the shoe ran out: {why} needs card {position + 1}, "
            f"but the shoe holds {len(state.shoe)}",
            needed=position + 1,
            shoe_size=len(state.shoe),
            clause="BJ.deal-order",
            asked_by=asked_by,
        )
    return state.shoe[position]


def _step(
    state: BlackjackState,
    action: str,
    clauses: tuple[str, ...],
    says: str,
    *values: object,
    **changes: object,
) -> BlackjackState:
    """The state with ``changes`` and one more step logged, built once for both.

    The step's words are ``says`` formatted with ``values`` when someone reads them.
    """
    step = Step(action=action, clauses=clauses, says=says, values=values)
    return evolve(state, steps=(*state.steps, step), **changes)


def _note(state: BlackjackState, why: Why) -> BlackjackState:
    """Record what moved the round on, unless something did already since the last decision."""
    return state if state.why else evolve(state, why=why)


def _seats_with_hand(
    state: BlackjackState, seat: int, index: int, hand: Hand
) -> tuple[SeatState, ...]:
    seat_state = state.seats[seat]
    hands = (*seat_state.hands[:index], hand, *seat_state.hands[index + 1 :])
    return _seats_with(state, seat, evolve(seat_state, hands=hands))


def _seats_with(state: BlackjackState, seat: int, seat_state: SeatState) -> tuple[SeatState, ...]:
    return (*state.seats[:seat], seat_state, *state.seats[seat + 1 :])


def deal(
    rules: BlackjackRules, shoe: Sequence[Card], seats: Sequence[BlackjackSeat]
) -> BlackjackState:
    """Start a round: check the seats and shoe, deal in contract order, then advance.

    BJ.deal, BJ.deal-order: a card to each seat in order, the dealer's up card,
    a second card to each seat, the dealer's hole card.
    """
    if not seats:
        raise InvalidRoundError("a blackjack round needs at least one seat", field="seats")
    for index, seat in enumerate(seats):
        check_seat_stakes(
            seat=index,
            balance=seat.balance,
            stakes=(("main", seat.stake),),
            limits=rules.limits,
            funds_clause=rules.cite("extra_stakes_need_funds")[0],
        )
    check_composition(tuple(shoe), rules.decks, clause=rules.cite("decks")[0])
    needed = 2 * len(seats) + 2
    if len(shoe) < needed:
        raise ShoeExhaustedError(
            f"the shoe ran out: the deal needs {needed} cards, but the shoe holds {len(shoe)}",
            needed=needed,
            shoe_size=len(shoe),
            clause="BJ.deal",
        )
    n = len(seats)
    firsts, up, seconds, hole = shoe[:n], shoe[n], shoe[n + 1 : 2 * n + 1], shoe[2 * n + 1]
    seat_states = []
    for seat, first, second in zip(seats, firsts, seconds, strict=True):
        cards = (first, second)
        if is_two_card_21(cards):
            hand = Hand(
                cards=cards,
                stake=seat.stake,
                status=HandStatus.BLACKJACK,
                why=("BJ.natural", *rules.cite("auto_stand_21")),
            )
        else:
            hand = Hand(cards=cards, stake=seat.stake, status=HandStatus.PLAYING, why=_DEAL)
        seat_states.append(SeatState(balance=seat.balance, stake=seat.stake, hands=(hand,)))
    says = "".join(f"seat {i}: {{}}; " for i in range(n)) + "dealer up {}, hole card face down"
    dealt = (*(_Cards(s.hands[0].cards) for s in seat_states), up)
    steps = [Step(action="deal", clauses=("BJ.deal", "BJ.deal-order"), says=says, values=dealt)]
    steps.extend(
        Step(
            action="blackjack",
            clauses=("BJ.natural", "BJ.auto-stand"),
            says="seat {} holds a blackjack",
            values=(index,),
        )
        for index, seat_state in enumerate(seat_states)
        if seat_state.hands[0].status is HandStatus.BLACKJACK
    )
    state = BlackjackState(
        rules=rules,
        shoe=tuple(shoe),
        position=needed,
        seats=tuple(seat_states),
        dealer=Dealer(up=up, hole=hole),
        phase=Phase.OFFERS,
        turn=None,
        steps=tuple(steps),
    )
    return _advance(state)


# --- legal decisions -------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Option:
    """Whether one decision is open to the hand to act now, and the clauses that decide it."""

    open: bool
    why: Why


_OFFERS = (Action.INSURANCE, Action.DECLINE_INSURANCE, Action.EVEN_MONEY, Action.DECLINE_EVEN_MONEY)
_PLAYS = (Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)


def _pair(offer: Action, decline: Action, option: Option) -> dict[Action, Option]:
    return {offer: option, decline: option}


def _offer_options(state: BlackjackState, seat: int) -> dict[Action, Option]:
    """The insurance and even-money offers of a seat against an ace.

    A.insurance, A.even-money, C.bj.insurance; BJ.half-stakes: an offer whose half stake rounds
    to 0 is not made, even money included; BJ.funds: insurance needs the uncommitted funds.
    """
    rules = state.rules
    insurance_rule, even_money_rule = rules.cite("insurance"), rules.cite("blackjack_vs_ace")
    if state.dealer.up.rank is not Rank.ACE:
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
    seat_state = state.seats[seat]
    hand = seat_state.hands[0]
    cost = _insurance_stake(state, seat)
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
                    why=_passed(
                        even_money_rule, [(seat_state.stake % 2 == 1, ("BJ.half-stakes",))]
                    ),
                )
                if cost > 0
                else Option(open=False, why=("BJ.half-stakes", *even_money_rule))
            )
        insurance = Option(open=False, why=even_money_rule)
    elif not rules.insurance:
        insurance = Option(open=False, why=insurance_rule)
    elif cost <= 0:
        insurance = Option(open=False, why=half_is_nothing)
    elif not _funds_cover(state, seat, 1 if rules.insurance_up_to_half else cost):
        insurance = Option(
            open=False, why=(*rules.cite("extra_stakes_need_funds"), *insurance_rule)
        )
    else:
        funds = rules.cite("extra_stakes_need_funds") if rules.extra_stakes_need_funds else ()
        checked = [
            (seat_state.stake % 2 == 1, ("BJ.half-stakes",)),
            (_funds_narrow(state, seat, cost), funds),
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


def _offer_withheld(state: BlackjackState, seat: int, options: dict[Action, Option]) -> Why:
    """Why a seat gets no offer: its blackjack's rule, else the insurance rule."""
    hand = state.seats[seat].hands[0]
    if (
        hand.status is HandStatus.BLACKJACK
        and state.rules.blackjack_vs_ace is BlackjackVsAce.EVEN_MONEY
    ):
        return options[Action.EVEN_MONEY].why
    return options[Action.INSURANCE].why


def _insurance_stake(state: BlackjackState, seat: int) -> int:
    """Half the original stake, rounded by the half-stake rule (BJ.half-stakes)."""
    return state.rules.half_stake_rounding.apply(Fraction(state.seats[seat].stake, 2))


def _funds_cover(state: BlackjackState, seat: int, amount: int) -> bool:
    """BJ.funds: an extra stake needs the seat's uncommitted funds."""
    return not state.rules.extra_stakes_need_funds or amount <= state.seats[seat].free_funds


def _funds_narrow(state: BlackjackState, seat: int, amount: int) -> bool:
    """Whether BJ.funds let an extra stake through narrowly: the funds cover it, not twice.

    An engine that counts the stake once too often (or compares strictly) withholds it there.
    """
    rules = state.rules
    return rules.extra_stakes_need_funds and state.seats[seat].free_funds < 2 * amount


def _passed(opened: Why, conditions: Sequence[tuple[bool, Why]]) -> Why:
    """An open decision's clauses: every condition it passed, those passed narrowly first.

    A decision withheld cites the condition that failed; one opened has passed them all, and
    an engine that withholds it most likely got the narrowest wrong (funds just enough, a
    half stake rounded), else the rule that opens it.
    """
    narrow = [why for near, why in conditions if near]
    rest = [why for near, why in conditions if not near]
    return joined(*narrow, opened, *rest)


def _play_options(state: BlackjackState, seat: int, index: int) -> dict[Action, Option]:
    """The play decisions of one hand, each open or withheld with its clause.

    The first rule that withholds a decision is the one cited: a 10-5 is not a pair before
    any question of funds.
    """
    rules = state.rules
    seat_state = state.seats[seat]
    hand = seat_state.hands[index]
    if hand.status is not HandStatus.PLAYING:
        return dict.fromkeys(_PLAYS, Option(open=False, why=hand.why))
    no_hits = hand.split_aces and not rules.hit_split_aces
    two_cards = len(hand.cards) == 2 and not hand.doubled
    insured = rules.no_double_split_after_insurance and seat_state.insurance > 0
    funds = _funds_cover(state, seat, hand.stake)
    # A double for less needs one unit free at least (VAR.bj.double-for-less).
    double_funds = _funds_cover(state, seat, 1 if rules.double_for_less else hand.stake)
    double_rule, split_rule = rules.cite("double_after_split"), rules.cite("split_pairs")
    surrender_rule = rules.cite("surrender")
    double_on = rules.cite("double_on")
    if rules.double_on is DoubleOn.ANY_CARDS:
        # Any hand still playing may double, after hits too (VAR.bj.double-on): a doubled
        # hand plays no more.
        double_cards: list[tuple[bool, Why]] = []
        double_opened = double_on if len(hand.cards) > 2 else double_rule
    else:
        double_cards = [(not two_cards, double_rule)]
        totals = _DOUBLE_TOTALS.get(rules.double_on)
        if totals is not None:
            double_cards.append((hand.total not in totals, double_on))
        double_opened = double_rule if totals is None else (*double_on, *double_rule)

    def first(
        checks: Sequence[tuple[bool, Why]], opened: Why, narrow: Sequence[tuple[bool, Why]] = ()
    ) -> Option:
        for failed, why in checks:
            if failed:
                return Option(open=False, why=why)
        return Option(open=True, why=_passed(opened, narrow))

    # The funds rule, where the profile has it: a condition every extra stake passes.
    funds_rule = rules.cite("extra_stakes_need_funds") if rules.extra_stakes_need_funds else ()
    funds_narrow = _funds_narrow(state, seat, hand.stake)

    return {
        Action.HIT: first([(no_hits, rules.cite("hit_split_aces"))], ("BJ.values",)),
        Action.STAND: Option(open=True, why=("BJ.compare",)),
        Action.DOUBLE: first(
            [
                *double_cards,
                (hand.from_split and not rules.double_after_split, double_rule),
                (insured, rules.cite("no_double_split_after_insurance")),
                (no_hits, rules.cite("hit_split_aces")),
                (not double_funds, (*rules.cite("extra_stakes_need_funds"), *double_rule)),
            ],
            double_opened,
            [(funds_narrow and not rules.double_for_less, funds_rule)],
        ),
        Action.SPLIT: first(
            [
                (not two_cards, split_rule),
                (not is_pair(rules.split_pairs, hand.cards[0], hand.cards[1]), split_rule),
                (len(seat_state.hands) >= rules.max_hands, rules.cite("max_hands")),
                (hand.split_aces and not rules.resplit_aces, rules.cite("resplit_aces")),
                (insured, rules.cite("no_double_split_after_insurance")),
                (not funds, (*rules.cite("extra_stakes_need_funds"), *split_rule)),
            ],
            split_rule,
            [
                # A re-split: an engine that withholds it most likely allows one split only.
                (len(seat_state.hands) > 1, rules.cite("max_hands")),
                (funds_narrow, funds_rule),
            ],
        ),
        Action.SURRENDER: first(
            [
                (not rules.surrender, surrender_rule),
                (not two_cards, surrender_rule),
                (
                    hand.from_split and not rules.surrender_after_split,
                    rules.cite("surrender_after_split"),
                ),
                # Early surrender was asked before the look; it is not asked again in play.
                (seat_state.surrender_asked, rules.cite("surrender_timing")),
            ],
            surrender_rule,
        ),
    }


def options(state: BlackjackState) -> dict[Action, Option]:
    """Every decision, open or withheld now, with the clauses that decide it.

    ``decline-surrender`` is a decision only of a profile with early surrender.
    """
    rules = state.rules
    early: dict[Action, Option] = {}
    if rules.surrender_early:
        early = {Action.DECLINE_SURRENDER: Option(open=False, why=rules.cite("surrender_timing"))}
    if state.turn is None:
        return dict.fromkeys(_actions(rules), Option(open=False, why=state.why or _ORDER))
    if state.phase is Phase.OFFERS:
        if _early_surrender_due(state, state.turn.seat):
            asked = Option(open=True, why=rules.cite("surrender_timing"))
            waiting = Option(open=False, why=asked.why)
            return {
                **dict.fromkeys(_actions(rules), waiting),
                Action.SURRENDER: asked,
                Action.DECLINE_SURRENDER: asked,
            }
        offers = _offer_options(state, state.turn.seat)
        offer = _offer_made(offers)
        # Offers come first: no play decision while one is open (A.peek, C.bj.insurance).
        waiting = Option(open=False, why=offer.why if offer else rules.cite("insurance"))
        return {**offers, **dict.fromkeys(_PLAYS, waiting), **early}
    plays = _play_options(state, state.turn.seat, state.turn.hand)
    return {
        **early,
        **plays,
        **_pair(
            Action.INSURANCE,
            Action.DECLINE_INSURANCE,
            Option(open=False, why=rules.cite("insurance")),
        ),
        **_pair(
            Action.EVEN_MONEY,
            Action.DECLINE_EVEN_MONEY,
            Option(open=False, why=rules.cite("blackjack_vs_ace")),
        ),
    }


def _actions(rules: BlackjackRules) -> tuple[Action, ...]:
    """The decisions of the profile: every one but decline-surrender unless it surrenders early."""
    if rules.surrender_early:
        return tuple(Action)
    return tuple(action for action in Action if action is not Action.DECLINE_SURRENDER)


def _early_surrender_due(state: BlackjackState, seat: int) -> bool:
    """Whether the seat is yet to answer early surrender, asked before the dealer's look.

    VAR.bj.surrender: early surrender comes before any look, so it is asked where the dealer
    looks under this up card; under any other up card surrender is offered in play as ever.
    """
    rules, seat_state = state.rules, state.seats[seat]
    # Early surrender implies surrender: the profile refuses one without the other.
    return (
        rules.surrender_early
        and not seat_state.surrender_asked
        and seat_state.hands[0].status is HandStatus.PLAYING
        and _peeks(rules, state.dealer.up)
    )


def _open(options: dict[Action, Option], order: Sequence[Action]) -> tuple[Action, ...]:
    """The open decisions among ``options``, in ``order``."""
    return tuple(action for action in order if options[action].open)


_OFFERS_ORDER = (
    Action.INSURANCE,
    Action.DECLINE_INSURANCE,
    Action.EVEN_MONEY,
    Action.DECLINE_EVEN_MONEY,
)


# --- advancing -------------------------------------------------------------------------


def _advance(state: BlackjackState) -> BlackjackState:
    """Move the round on until it waits for a decision or is complete."""
    if state.phase is Phase.OFFERS:
        start = 0 if state.turn is None else state.turn.seat
        for seat in range(start, len(state.seats)):
            if _early_surrender_due(state, seat):
                return evolve(
                    state,
                    why=state.why or state.rules.cite("surrender_timing"),
                    turn=Turn(seat=seat, hand=0),
                    legal=(Action.SURRENDER, Action.DECLINE_SURRENDER),
                )
            # A seat that surrendered early is done with the offers too.
            if state.seats[seat].offer_done or state.dealer.up.rank is not Rank.ACE:
                continue
            offers = _offer_options(state, seat)
            offer = _offer_made(offers)
            if offer is not None:
                return evolve(
                    state,
                    why=state.why or offer.why,
                    turn=Turn(seat=seat, hand=0),
                    legal=_open(offers, _OFFERS_ORDER),
                )
            state = _note(state, _offer_withheld(state, seat, offers))
        state = _after_offers(state)
        if state.phase is Phase.COMPLETE:
            return state
        state = evolve(state, phase=Phase.PLAY, turn=None)
    if state.phase is Phase.PLAY:
        state = _next_hand(state)
        if state.turn is not None:
            return state
        return _dealer_and_settle(state)
    return state


def _dealer_can_have_blackjack(up: Card) -> bool:
    return up.rank is Rank.ACE or up.rank.is_ten_valued


def _peeks(rules: BlackjackRules, up: Card) -> bool:
    """Whether the dealer looks at the hole card before play (A.peek, C.bj.peek)."""
    if up.rank is Rank.ACE:
        return rules.peek in (Peek.ACE, Peek.ACE_OR_TEN)
    return up.rank.is_ten_valued and rules.peek is Peek.ACE_OR_TEN


def _after_offers(state: BlackjackState) -> BlackjackState:
    """Peek if the profile says so; pay naturals that can no longer be tied."""
    rules, dealer = state.rules, state.dealer
    if _dealer_can_have_blackjack(dealer.up):
        # Under an ace or a ten, whether the dealer looks is the peek rule's to say.
        state = _note(state, rules.cite("peek"))
    if _peeks(rules, dealer.up):
        state = evolve(state, dealer=evolve(dealer, peeked=True, why_hole=rules.cite("peek")))
        if dealer.blackjack:
            # The round ends unplayed: the peek decides every hand still waiting to play.
            ended = (*rules.cite("peek"), "BJ.natural")
            seats = tuple(
                evolve(
                    seat,
                    hands=tuple(
                        evolve(hand, why=ended) if hand.status is HandStatus.PLAYING else hand
                        for hand in seat.hands
                    ),
                )
                for seat in state.seats
            )
            state = evolve(
                state,
                seats=seats,
                dealer=evolve(
                    state.dealer,
                    hole_revealed=True,
                    why_hole=rules.cite("peek"),
                    why_stopped=("BJ.natural", *rules.cite("peek")),
                ),
            )
            state = _step(
                state,
                "peek",
                rules.cite("peek"),
                "dealer blackjack: {} {}; the round ends",
                dealer.up,
                dealer.hole,
            )
            return _settle(state)
        state = _step(state, "peek", rules.cite("peek"), "no dealer blackjack; play goes on")
    if rules.natural_paid_at_once and (
        state.dealer.peeked or not _dealer_can_have_blackjack(dealer.up)
    ):
        for seat, seat_state in enumerate(state.seats):
            hand = seat_state.hands[0]
            if hand.status is HandStatus.BLACKJACK and not hand.even_money:
                clauses = ("BJ.nat-pays", *rules.cite("natural_paid_at_once"))
                if dealer.up.rank.is_ten_valued:
                    clauses = (*clauses, "A.nat-vs-ten")
                state = _step(
                    state,
                    "natural paid",
                    clauses,
                    "seat {}: blackjack paid at once",
                    seat,
                    seats=_seats_with_hand(state, seat, 0, evolve(hand, paid_early=True)),
                    why=state.why or rules.cite("natural_paid_at_once"),
                )
    return state


def _next_hand(state: BlackjackState) -> BlackjackState:
    """Find the next hand to act, dealing a split hand's second card as it starts (BJ.deal-order)."""
    seat, index = (0, 0) if state.turn is None else (state.turn.seat, state.turn.hand)
    while seat < len(state.seats):
        hands = state.seats[seat].hands
        if index >= len(hands):
            seat, index = seat + 1, 0
            continue
        hand = hands[index]
        if hand.status is HandStatus.WAITING:
            state = _deal_split_card(state, seat, index)
            hand = state.seats[seat].hands[index]
        legal = _open(_play_options(state, seat, index), _PLAYS)
        if legal:
            return evolve(
                state, why=state.why or hand.why, turn=Turn(seat=seat, hand=index), legal=legal
            )
        if hand.status is HandStatus.PLAYING:
            # Nothing is legal (split aces without hits): the hand stands as it is.
            hand = evolve(hand, status=HandStatus.STOOD, why=state.rules.cite("hit_split_aces"))
            state = evolve(state, seats=_seats_with_hand(state, seat, index, hand))
        state = _note(state, hand.why)
        index += 1
    return evolve(state, turn=None)


def _after_card(state: BlackjackState, hand: Hand) -> Hand:
    """A hand after it receives a card: bust, 21 or still playing, and the clause that says so."""
    total = hand.total
    if total > 21:
        return evolve(hand, status=HandStatus.BUST, why=("BJ.bust", "BJ.values"))
    if total == 21 and state.rules.auto_stand_21:
        return evolve(hand, status=HandStatus.STOOD, why=state.rules.cite("auto_stand_21"))
    return evolve(hand, status=HandStatus.PLAYING, why=("BJ.values",))


def _may_resplit(state: BlackjackState, seat: int, index: int, hand: Hand) -> bool:
    """Whether split aces that take no hits may be split again now (VAR.bj.resplit)."""
    probe = evolve(state, seats=_seats_with_hand(state, seat, index, hand))
    return _play_options(probe, seat, index)[Action.SPLIT].open


def _deal_split_card(state: BlackjackState, seat: int, index: int) -> BlackjackState:
    rules = state.rules
    hand = state.seats[seat].hands[index]
    card = _card(state, f"seat {seat} hand {index}'s second card", "BJ.deal-order")
    cards = (*hand.cards, card)
    hand = evolve(hand, cards=cards)
    clauses: tuple[str, ...] = ("BJ.deal-order",)
    if is_two_card_21(cards) and rules.split_21_is_blackjack:
        hand = evolve(hand, status=HandStatus.BLACKJACK, why=rules.cite("split_21_is_blackjack"))
        clauses = (*clauses, *rules.cite("split_21_is_blackjack"))
    else:
        hand = _after_card(state, hand)
        if is_two_card_21(cards):
            # A two-card 21 on a split hand is a plain 21 (A.split, C.bj.split), which stands
            # by BJ.auto-stand: its status is the auto-stand's, not the split rule's.
            clauses = (*clauses, *rules.cite("split_21_is_blackjack"), "BJ.auto-stand")
    if (
        hand.split_aces
        and not rules.hit_split_aces
        and hand.status is HandStatus.PLAYING
        and not _may_resplit(state, seat, index, hand)
    ):
        hand = evolve(hand, status=HandStatus.STOOD, why=rules.cite("hit_split_aces"))
        clauses = (*clauses, *rules.cite("hit_split_aces"))
    return _step(
        state,
        "split card",
        clauses,
        "seat {} hand {} receives {}",
        seat,
        index,
        card,
        position=state.position + 1,
        seats=_seats_with_hand(state, seat, index, hand),
    )


# --- decisions -------------------------------------------------------------------------


def decide(state: BlackjackState, decision: Decision) -> BlackjackState:
    """Apply one decision and advance; an illegal one raises and changes nothing.

    The error's ``clause`` is the rule that withholds the decision now.
    """
    turn = state.turn
    if turn is None:
        raise IllegalDecisionError(
            f"the round is complete; {decision.action.value} is not legal",
            action=decision.action.value,
            legal="",
            clause="CONTRACT.lifecycle",
        )
    legal = state.legal
    if (decision.seat, decision.hand) != (turn.seat, turn.hand):
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
            clause=_withheld_by(state, decision.action),
        )
    amount = _amount(state, decision)
    return _advance(_apply(state, turn.seat, turn.hand, decision.action, amount))


def _withheld_by(state: BlackjackState, action: Action) -> str:
    """The clause that withholds a decision now; decline-surrender is early surrender's alone."""
    option = options(state).get(action)
    return option.why[0] if option else state.rules.cite("surrender_timing")[0]


def _names(actions: Sequence[Action]) -> str:
    return ",".join(action.value for action in actions)


def _amount(state: BlackjackState, decision: Decision) -> int:
    """The stake a legal double or insurance puts down; an amount the rules refuse raises.

    VAR.bj.double-for-less: a double's extra stake is 1 unit to the hand's stake;
    VAR.bj.insurance-stake: an insurance stake 1 unit to half the stake. No amount is the full
    one; an amount on any other decision, or where the profile lets none be chosen, is refused.
    """
    rules, turn = state.rules, state.turn
    assert turn is not None  # noqa: S101 - decide checked the turn
    seat_state = state.seats[turn.seat]
    hand = seat_state.hands[turn.hand]
    if decision.action is Action.DOUBLE:
        full, variant, chosen = hand.stake, rules.cite("double_for_less"), rules.double_for_less
    elif decision.action is Action.INSURANCE:
        full, variant = _insurance_stake(state, turn.seat), rules.cite("insurance_stake")
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
    elif not _funds_cover(state, turn.seat, amount):
        free = seat_state.free_funds
        problem, clause = f"the seat has {free} free", rules.cite("extra_stakes_need_funds")[0]
    else:
        return amount
    raise IllegalDecisionError(
        f"{decision.action.value} for {amount} is not legal for seat {turn.seat} hand "
        f"{turn.hand}: {problem}; legal: {_names(state.legal)}",
        action=decision.action.value,
        seat=turn.seat,
        hand=turn.hand,
        amount=amount,
        legal=_names(state.legal),
        clause=clause,
    )


def _apply(
    state: BlackjackState, seat: int, index: int, action: Action, amount: int
) -> BlackjackState:
    """The round right after a legal decision: what it changed, logged, and nothing moved on yet.

    ``amount`` is the stake a double or an insurance puts down (``_amount``).
    """
    rules = state.rules
    seat_state = state.seats[seat]
    hand = seat_state.hands[index]
    where = f"seat {seat} hand {index}"
    match action:
        case Action.INSURANCE:
            cost = amount
            seat_state = evolve(seat_state, insurance=cost, offer_done=True)
            return _step(
                state,
                "insurance",
                (*rules.cite("insurance"), "BJ.half-stakes", "BJ.funds"),
                "seat {} insures for {}",
                seat,
                cost,
                seats=_seats_with(state, seat, seat_state),
                why=(),
            )
        case Action.EVEN_MONEY:
            hand = evolve(
                hand,
                even_money=True,
                paid_early=True,
                why=(*hand.why, *rules.cite("blackjack_vs_ace")),
            )
            seat_state = evolve(seat_state, offer_done=True, hands=(hand,))
            return _step(
                state,
                "even money",
                rules.cite("blackjack_vs_ace"),
                "seat {} takes 1:1 now",
                seat,
                seats=_seats_with(state, seat, seat_state),
                why=(),
            )
        case Action.DECLINE_INSURANCE | Action.DECLINE_EVEN_MONEY:
            offer = "insurance" if action is Action.DECLINE_INSURANCE else "blackjack_vs_ace"
            return _step(
                state,
                action.value.replace("-", " "),
                rules.cite(offer),
                "seat {}",
                seat,
                seats=_seats_with(state, seat, evolve(seat_state, offer_done=True)),
                why=(),
            )
        case Action.STAND:
            hand = evolve(hand, status=HandStatus.STOOD, why=("BJ.compare",))
            return _step(
                state,
                "stand",
                ("BJ.compare",),
                where,
                seats=_seats_with_hand(state, seat, index, hand),
                why=(),
            )
        case Action.SURRENDER:
            clauses = (*rules.cite("surrender"), "BJ.half-stakes")
            seats = _seats_with_hand(
                state, seat, index, evolve(hand, status=HandStatus.SURRENDERED, why=clauses)
            )
            if state.phase is Phase.OFFERS:
                # Early surrender, before the look: the hand takes no insurance either.
                clauses = (*rules.cite("surrender_timing"), *clauses)
                asked = evolve(seats[seat], surrender_asked=True, offer_done=True)
                seats = (*seats[:seat], asked, *seats[seat + 1 :])
            return _step(state, "surrender", clauses, where, seats=seats, why=())
        case Action.DECLINE_SURRENDER:
            return _step(
                state,
                "decline surrender",
                rules.cite("surrender_timing"),
                "seat {}",
                seat,
                seats=_seats_with(state, seat, evolve(seat_state, surrender_asked=True)),
                why=(),
            )
        case Action.HIT:
            card = _card(state, f"{where}'s hit", "BJ.deal-order")
            hand = _after_card(state, evolve(hand, cards=(*hand.cards, card)))
            return _drawn(state, seat, index, hand, ("hit", ("BJ.values",), "draws"), card=card)
        case Action.DOUBLE:
            card = _card(state, f"{where}'s double", rules.cite("double_after_split")[0])
            hand = evolve(hand, cards=(*hand.cards, card), stake=hand.stake + amount, doubled=True)
            # A doubled hand takes exactly one card (A.double, C.bj.double).
            if hand.total > 21:
                hand = evolve(hand, status=HandStatus.BUST, why=("BJ.bust", "BJ.values"))
            else:
                hand = evolve(hand, status=HandStatus.STOOD, why=rules.cite("double_after_split"))
            clauses = (*rules.cite("double_after_split"), "BJ.funds")
            return _drawn(
                state, seat, index, hand, ("double", clauses, "doubles and draws"), card=card
            )
        case Action.SPLIT:
            aces = hand.cards[0].rank is Rank.ACE
            first = Hand(
                cards=(hand.cards[0],),
                stake=hand.stake,
                from_split=True,
                split_aces=aces,
                status=HandStatus.WAITING,
                splits=hand.splits + 1,
                why=(*rules.cite("split_pairs"), "BJ.deal-order"),
            )
            second = evolve(first, cards=(hand.cards[1],), splits=0)
            # The hands a split makes are numbered right after the hand split, in the order
            # they were made (VAR.bj.resplit): after those its earlier splits made.
            made = index + 1 + hand.splits
            hands = (
                *seat_state.hands[:index],
                first,
                *seat_state.hands[index + 1 : made],
                second,
                *seat_state.hands[made:],
            )
            return _step(
                state,
                "split",
                (*rules.cite("split_pairs"), "BJ.funds"),
                "{} splits {} {}",
                where,
                hand.cards[0],
                hand.cards[1],
                seats=_seats_with(state, seat, evolve(seat_state, hands=hands)),
                why=(),
            )
    raise IllegalDecisionError(
        f"{action.value} is not a play decision", action=action.value
    )  # pragma: no cover


def _drawn(
    state: BlackjackState,
    seat: int,
    index: int,
    hand: Hand,
    logged: tuple[str, tuple[str, ...], str],
    *,
    card: Card,
) -> BlackjackState:
    """The round once a hand has taken ``card`` by a hit or a double, logged with its status."""
    action, clauses, verb = logged
    return _step(
        state,
        action,
        _status_clauses(hand, clauses),
        "seat {} hand {} " + verb + " {}: {}",
        seat,
        index,
        card,
        hand.total,
        position=state.position + 1,
        seats=_seats_with_hand(state, seat, index, hand),
        why=(),
    )


def _status_clauses(hand: Hand, clauses: tuple[str, ...]) -> tuple[str, ...]:
    if hand.status is HandStatus.BUST:
        return (*clauses, "BJ.bust")
    if hand.status is HandStatus.STOOD and hand.total == 21:
        return (*clauses, "BJ.auto-stand")
    return clauses


# --- dealer and settlement -------------------------------------------------------------


def _all_hands(state: BlackjackState) -> list[Hand]:
    return [hand for seat in state.seats for hand in seat.hands]


def _dealer_and_settle(state: BlackjackState) -> BlackjackState:
    """The dealer turns the hole card and draws only if a hand waits for its total (BJ.dealer-needed)."""
    rules = state.rules
    hands = _all_hands(state)
    waiting = any(hand.status is HandStatus.STOOD for hand in hands)
    draw = waiting or rules.dealer_draws_when_not_needed
    # A.nat-vs-ten, A.even-money: a blackjack that waited for the peek is shown the hole card;
    # only one paid at once (A.nat-immediate) or by even money never sees it.
    shown_to_natural = state.dealer.peeked and any(
        hand.status is HandStatus.BLACKJACK and not hand.even_money for hand in hands
    )
    reveal = draw or shown_to_natural or not all(hand.paid_early for hand in hands)
    dealer = state.dealer
    steps: list[Step] = []
    if reveal and rules.hole_card_at_showdown and not _showdown(state, hands):
        # No hand is left to compare with the dealer: the hole card stays face down and the
        # dealer draws nothing (VAR.bj.hole-card).
        showdown = rules.cite("hole_card")
        dealer = evolve(dealer, why_hole=showdown, why_stopped=showdown)
        # Nor does it draw: no hand stood, and a showdown profile never draws unneeded.
        reveal = False
    elif not reveal:
        # Every hand was paid at once or by even money: the hole card is never shown.
        paid_by = (
            rules.cite("blackjack_vs_ace")
            if all(hand.even_money for hand in hands)
            else rules.cite("natural_paid_at_once")
        )
        dealer = evolve(dealer, why_hole=paid_by, why_stopped=paid_by)
    elif not dealer.hole_revealed:
        why = ("BJ.dealer-needed", *(_natural_context(state) if shown_to_natural else ()))
        dealer = evolve(dealer, hole_revealed=True, why_hole=why, why_stopped=why)
        total = hand_total(dealer.cards[:2])[0]
        says = "dealer turns {}: {}"
        steps.append(Step(action="hole card", clauses=why, says=says, values=(dealer.hole, total)))
    drawn: tuple[Card, ...] = ()
    if reveal and dealer.blackjack:
        dealer = evolve(dealer, why_stopped=("BJ.natural",))
    elif draw:
        stops = rules.cite("dealer_hits_soft_17")
        cite = (*stops, "BJ.dealer-needed")
        cards = dealer.cards
        while True:
            total, soft = hand_total(cards)
            if total > 17 or (total == 17 and not (soft and rules.dealer_hits_soft_17)):
                break
            card = _card(state, "the dealer's draw", stops[0], ahead=len(drawn))
            drawn, cards = (*drawn, card), (*cards, card)
            total = hand_total(cards)[0]
            steps.append(
                Step(action="dealer draws", clauses=cite, says="{}: {}", values=(card, total))
            )
        # Needed narrowly: one hand alone waits while others do not. An engine that skips the
        # dealer then most likely counts the waiting hands wrong; else its drawing rule.
        waiting_hands = sum(hand.status is HandStatus.STOOD for hand in hands)
        narrow_need = waiting_hands == 1 < len(hands)
        why_drew = _passed(stops, [(narrow_need, ("BJ.dealer-needed",))])
        dealer = evolve(dealer, draws=(*dealer.draws, *drawn), why_stopped=stops, why_drew=why_drew)
    state = evolve(
        state,
        position=state.position + len(drawn),
        dealer=dealer,
        steps=(*state.steps, *steps),
        why=state.why or ("BJ.dealer-needed",),
    )
    return _settle(state)


def _showdown(state: BlackjackState, hands: Sequence[Hand]) -> bool:
    """Whether some hand is compared with the dealer's cards (VAR.bj.hole-card).

    A stood hand is; so is a blackjack that the dealer may still tie: not paid yet, under an
    ace or a ten the dealer has not looked beneath.
    """
    dealer = state.dealer
    unknown = not dealer.peeked and _dealer_can_have_blackjack(dealer.up)
    return any(
        hand.status is HandStatus.STOOD
        or (hand.status is HandStatus.BLACKJACK and unknown and not hand.paid_early)
        for hand in hands
    )


def _settle(state: BlackjackState) -> BlackjackState:
    lines: list[SettlementLine] = []
    rounding = state.rules.cite("rounding")
    for seat, seat_state in enumerate(state.seats):
        for index, hand in enumerate(seat_state.hands):
            payout, clauses = _settle_hand(state, seat_state, index, hand)
            lines.append(
                settled(
                    seat=seat,
                    bet=f"hand {index}",
                    payout=payout,
                    clauses=clauses,
                    rounding=rounding,
                )
            )
        if seat_state.insurance:
            payout, clauses = _settle_insurance(state, seat_state.insurance)
            lines.append(
                settled(
                    seat=seat, bet="insurance", payout=payout, clauses=clauses, rounding=rounding
                )
            )
    total = sum(line.payout.returned for line in lines)
    return _step(
        state,
        "settle",
        ("BJ.compare",),
        "{} line(s), {} returned",
        len(lines),
        total,
        phase=Phase.COMPLETE,
        turn=None,
        legal=(),
        settlement=tuple(lines),
    )


def _settle_insurance(state: BlackjackState, stake: int) -> tuple[Payout, tuple[str, ...]]:
    rules = state.rules
    clauses = (*rules.cite("insurance_pays"), "BJ.half-stakes")
    if state.dealer.blackjack:
        return win(stake, rules.insurance_pays, rules.rounding), clauses
    return lose(stake), clauses


def _settle_hand(
    state: BlackjackState, seat_state: SeatState, index: int, hand: Hand
) -> tuple[Payout, tuple[str, ...]]:
    """One hand's payout and the clauses that decided it."""
    rules, dealer = state.rules, state.dealer
    stake = hand.stake
    match hand.status:
        case HandStatus.SURRENDERED:
            # Surrendered before the look (VAR.bj.surrender): half back whatever the hole card.
            early = rules.cite("surrender_timing") if seat_state.surrender_asked else ()
            return portion(stake, Fraction(1, 2), rules.half_stake_rounding), (
                *rules.cite("surrender"),
                "BJ.half-stakes",
                *early,
            )
        case HandStatus.BUST:
            return lose(stake), ("BJ.bust",)
        case HandStatus.BLACKJACK:
            if hand.even_money:
                return win(stake, Odds(win=Fraction(1)), rules.rounding), rules.cite(
                    "blackjack_vs_ace"
                )
            context = _natural_context(state)
            if dealer.blackjack:
                return push(stake), ("BJ.nat-pays", *context)
            return win(stake, rules.blackjack_pays, rules.rounding), (
                "BJ.nat-pays",
                "BJ.natural",
                *context,
            )
        case _:
            pass
    # A live hand: stood, doubled, or never played because a peek ended the round.
    if dealer.blackjack:
        extra_stakes = hand.doubled or hand.from_split
        if dealer.peeked:
            clauses = (*rules.cite("peek"), "BJ.compare", "BJ.natural")
        elif extra_stakes:
            clauses = (*rules.cite("dealer_blackjack_takes"), "BJ.compare", "BJ.natural")
        else:
            clauses = ("BJ.compare", "BJ.natural", *rules.cite("peek"))
        if dealer.peeked or rules.dealer_blackjack_takes_all:
            return lose(stake), clauses
        # Only the original stake is lost; the doubled part and a split hand's stake come back.
        kept = stake - (seat_state.stake if index == 0 else 0)
        return returns(stake, Fraction(kept), rules.rounding), clauses
    # A two-card 21 made on a split hand is a plain 21 (A.split, C.bj.split).
    split_21: tuple[str, ...] = ()
    if hand.from_split and is_two_card_21(hand.cards):
        split_21 = rules.cite("split_21_is_blackjack")
    dealer_total = hand_total(dealer.cards)[0]
    if dealer_total > 21 or hand.total > dealer_total:
        return win(stake, Odds(win=Fraction(1)), rules.rounding), (*split_21, "BJ.compare")
    if hand.total == dealer_total:
        return push(stake), (*split_21, "BJ.compare")
    return lose(stake), (*split_21, "BJ.compare")


def _natural_context(state: BlackjackState) -> tuple[str, ...]:
    """The source clauses that say how a blackjack meets this up card."""
    rules, up = state.rules, state.dealer.up
    if up.rank is Rank.ACE:
        return rules.cite("blackjack_vs_ace")
    if up.rank.is_ten_valued:
        return rules.cite("peek")
    return rules.cite("natural_paid_at_once")


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
    rules = state.rules
    out: dict[str, Why] = {}
    position = state.why or _ORDER
    out["phase"] = position
    out["turn"] = position
    out["cards_dealt"] = _ORDER
    for action, option in options(state).items():
        out[f"legal_decisions[{action.value}]"] = option.why
    split_rule = rules.cite("split_pairs", "max_hands")
    # Fields that one rule decides on every hand or seat.
    out["*.doubled"] = rules.cite("double_after_split")
    out["*.from_split"] = split_rule
    out["*.even_money"] = rules.cite("blackjack_vs_ace")
    out["*.insurance"] = ("BJ.half-stakes", *rules.cite("insurance"))
    if rules.insurance_up_to_half:
        out["*.insurance"] = (*rules.cite("insurance_stake"), *out["*.insurance"])
    for i, seat in enumerate(state.seats):
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
                out[f"{path}.cards[1]={ABSENT}"] = _ORDER if before == ("BJ.compare",) else before
            done = state.complete or hand.status not in (HandStatus.PLAYING, HandStatus.WAITING)
            out[f"{path}.cards[{len(hand.cards)}]"] = hand.why if done else _ORDER
            out[f"{path}.status"] = hand.why
            if hand.status is not HandStatus.BUST:
                # Not bust: the hand's total by the card values is 21 or less.
                out[f"{path}.status=bust"] = ("BJ.values",)
            if hand.from_split and is_two_card_21(hand.cards):
                # A two-card 21 on a split hand is not a blackjack (A.split, C.bj.split).
                out[f"{path}.status=blackjack"] = rules.cite("split_21_is_blackjack")
            if hand.doubled and rules.double_for_less:
                out[f"{path}.stake"] = rules.cite("double_for_less", "double_after_split")
            elif hand.doubled:
                out[f"{path}.stake"] = rules.cite("double_after_split")
            elif hand.from_split:
                out[f"{path}.stake"] = split_rule
            else:
                out[f"{path}.stake"] = _DEAL
    dealer = state.dealer
    # Why the round takes no card beyond those dealt, once it is complete.
    out["cards_dealt+"] = dealer.why_stopped or dealer.why_hole
    out["blackjack.dealer.cards"] = _ORDER
    out["blackjack.dealer.hole_card_hidden"] = dealer.why_hole
    if not dealer.hole_revealed:
        out["blackjack.dealer.cards[1]"] = dealer.why_hole
        return out
    out[f"blackjack.dealer.cards[1]={ABSENT}"] = dealer.why_hole
    drew = (*rules.cite("dealer_hits_soft_17"), "BJ.dealer-needed")
    for index in range(2, len(dealer.cards)):
        # The first draw is whatever made the dealer draw at all; the later ones the rule.
        out[f"blackjack.dealer.cards[{index}]={ABSENT}"] = dealer.why_drew if index == 2 else drew
    out[f"blackjack.dealer.cards[{len(dealer.cards)}]"] = dealer.why_stopped or drew
    return out


def accepted(rules: BlackjackRules) -> dict[str, Why]:
    """Why a deal the rules take is not refused, keyed ``error=REASON`` (``oracle.provenance``)."""
    return {
        "error=BET_OUT_OF_LIMITS": rules.limits.clauses,
        "error=INSUFFICIENT_BALANCE": rules.cite("extra_stakes_need_funds"),
        "error=SHOE_NOT_IN_PROFILE": rules.cite("decks"),
        "error=SHOE_EXHAUSTED": ("BJ.deal", "BJ.deal-order"),
    }
