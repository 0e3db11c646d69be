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

import enum
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

from oracle.cards import Card, Rank, format_cards
from oracle.clauses import Game
from oracle.errors import (
    IllegalDecisionError,
    InvalidRoundError,
    ProfileError,
    RoundNotCompleteError,
    ShoeExhaustedError,
)
from oracle.money import Odds, Payout, Rounding, lose, portion, push, returns, win
from oracle.settlement import Limits, SettlementLine, Step, check_seat_stakes, settled
from oracle.shoe import check_composition

if TYPE_CHECKING:
    from collections.abc import Sequence

    from oracle.profile import Citations, Profile


class Action(enum.Enum):
    """A player decision (DESIGN.md "Rounds, seats, money")."""

    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    INSURANCE = "insurance"
    DECLINE_INSURANCE = "decline-insurance"
    EVEN_MONEY = "even-money"
    DECLINE_EVEN_MONEY = "decline-even-money"


class Phase(enum.Enum):
    """Where the round stands."""

    OFFERS = "offers"
    PLAY = "play"
    COMPLETE = "complete"


class HandStatus(enum.Enum):
    """Where one hand stands."""

    WAITING = "waiting"
    PLAYING = "playing"
    STOOD = "stood"
    BUST = "bust"
    BLACKJACK = "blackjack"
    SURRENDERED = "surrendered"


class SplitPairs(enum.Enum):
    """Which two cards may be split."""

    SAME_RANK = "same-rank"
    SAME_RANK_OR_PICTURES = "same-rank-or-pictures"
    SAME_VALUE = "same-value"


class Peek(enum.Enum):
    """Up cards under which the dealer looks for a blackjack before play."""

    NONE = "none"
    ACE = "ace"
    ACE_OR_TEN = "ace-or-ten"


class BlackjackVsAce(enum.Enum):
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
    insurance_pays: Odds
    blackjack_vs_ace: BlackjackVsAce
    no_double_split_after_insurance: bool
    peek: Peek
    natural_paid_at_once: bool
    dealer_blackjack_takes_all: bool
    double_after_split: bool
    split_pairs: SplitPairs
    max_hands: int
    hit_split_aces: bool
    split_21_is_blackjack: bool
    surrender: bool
    surrender_after_split: bool
    half_stake_rounding: Rounding
    auto_stand_21: bool
    dealer_draws_when_not_needed: bool
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
            insurance_pays=profile.odds("insurance_pays"),
            blackjack_vs_ace=BlackjackVsAce(profile.choice("blackjack_vs_ace")),
            no_double_split_after_insurance=profile.flag("no_double_split_after_insurance"),
            peek=Peek(profile.choice("peek")),
            natural_paid_at_once=profile.flag("natural_paid_at_once"),
            dealer_blackjack_takes_all=profile.choice("dealer_blackjack_takes") == "all-stakes",
            double_after_split=profile.flag("double_after_split"),
            split_pairs=SplitPairs(profile.choice("split_pairs")),
            max_hands=profile.integer("max_hands"),
            hit_split_aces=profile.flag("hit_split_aces"),
            split_21_is_blackjack=profile.flag("split_21_is_blackjack"),
            surrender=profile.flag("surrender"),
            surrender_after_split=profile.flag("surrender_after_split"),
            half_stake_rounding=profile.rounding("half_stake_rounding"),
            auto_stand_21=profile.flag("auto_stand_21"),
            dealer_draws_when_not_needed=profile.flag("dealer_draws_when_not_needed"),
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


@dataclass(frozen=True, slots=True, kw_only=True)
class BlackjackSeat:
    """A seat as it joins a round: its funds and its stake on the box."""

    balance: int
    stake: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Hand:
    """One hand of a seat."""

    cards: tuple[Card, ...]
    stake: int
    doubled: bool = False
    from_split: bool = False
    split_aces: bool = False
    status: HandStatus = HandStatus.PLAYING
    even_money: bool = False
    paid_early: bool = False

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
    """The dealer's cards: up card, hole card, then draws."""

    up: Card
    hole: Card
    draws: tuple[Card, ...] = ()
    hole_revealed: bool = False
    peeked: bool = False

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
class Decision:
    """One decision, addressed to the seat and hand whose turn it is."""

    seat: int
    hand: int
    action: Action


@dataclass(frozen=True, slots=True, kw_only=True)
class BlackjackState:
    """An immutable snapshot of a round."""

    rules: BlackjackRules
    shoe: tuple[Card, ...]
    position: int
    seats: tuple[SeatState, ...]
    dealer: Dealer
    phase: Phase
    turn: Turn | None
    steps: tuple[Step, ...]
    settlement: tuple[SettlementLine, ...] = ()

    @property
    def dealt(self) -> tuple[Card, ...]:
        """Every card taken from the shoe so far, in dealing order."""
        return self.shoe[: self.position]

    @property
    def complete(self) -> bool:
        """Whether the round has ended and carries its settlement."""
        return self.phase is Phase.COMPLETE

    @property
    def legal(self) -> tuple[Action, ...]:
        """The decisions the hand to act may take now; empty once the round is complete."""
        return legal_decisions(self)


# --- dealing and drawing ---------------------------------------------------------------


def _draw(state: BlackjackState, why: str, clause: str) -> tuple[Card, BlackjackState]:
    if state.position >= len(state.shoe):
        raise ShoeExhaustedError(
            f"the shoe ran out: {why} needs card {state.position + 1}, "
            f"but the shoe holds {len(state.shoe)}",
            needed=state.position + 1,
            shoe_size=len(state.shoe),
            clause=clause,
        )
    return state.shoe[state.position], replace(state, position=state.position + 1)


def _log(
    state: BlackjackState, action: str, clauses: tuple[str, ...], detail: str = ""
) -> BlackjackState:
    return replace(state, steps=(*state.steps, Step(action=action, clauses=clauses, detail=detail)))


def _with_hand(state: BlackjackState, seat: int, index: int, hand: Hand) -> BlackjackState:
    seat_state = state.seats[seat]
    hands = (*seat_state.hands[:index], hand, *seat_state.hands[index + 1 :])
    return _with_seat(state, seat, replace(seat_state, hands=hands))


def _with_seat(state: BlackjackState, seat: int, seat_state: SeatState) -> BlackjackState:
    return replace(state, seats=(*state.seats[:seat], seat_state, *state.seats[seat + 1 :]))


def deal(
    rules: BlackjackRules, shoe: Sequence[Card], seats: Sequence[BlackjackSeat]
) -> BlackjackState:
    """Start a round: check the seats and shoe, deal in contract order, then advance.

    BJ.deal, BJ.deal-order: a card to each seat in order, the dealer's up card,
    a second card to each seat, the dealer's hole card.
    """
    if not seats:
        raise InvalidRoundError("a blackjack round needs at least one seat")
    for index, seat in enumerate(seats):
        check_seat_stakes(
            seat=index,
            balance=seat.balance,
            stakes=(("main", seat.stake),),
            limits=rules.limits,
            funds_clause=rules.cite("extra_stakes_need_funds")[0],
        )
    check_composition(tuple(shoe), rules.decks)
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
        status = HandStatus.BLACKJACK if is_two_card_21(cards) else HandStatus.PLAYING
        hand = Hand(cards=cards, stake=seat.stake, status=status)
        seat_states.append(SeatState(balance=seat.balance, stake=seat.stake, hands=(hand,)))
    state = BlackjackState(
        rules=rules,
        shoe=tuple(shoe),
        position=needed,
        seats=tuple(seat_states),
        dealer=Dealer(up=up, hole=hole),
        phase=Phase.OFFERS,
        turn=None,
        steps=(),
    )
    detail = (
        "; ".join(f"seat {i}: {format_cards(s.hands[0].cards)}" for i, s in enumerate(state.seats))
        + f"; dealer up {up}, hole card face down"
    )
    state = _log(state, "deal", ("BJ.deal", "BJ.deal-order"), detail)
    for index, seat_state in enumerate(state.seats):
        if seat_state.hands[0].status is HandStatus.BLACKJACK:
            state = _log(
                state,
                "blackjack",
                ("BJ.natural", "BJ.auto-stand"),
                f"seat {index} holds a blackjack",
            )
    return _advance(state)


# --- legal decisions -------------------------------------------------------------------


def _offer_actions(state: BlackjackState, seat: int) -> tuple[Action, ...]:
    """The insurance or even-money offer a seat gets against an ace (A.insurance, A.even-money, C.bj.insurance)."""
    rules = state.rules
    if state.dealer.up.rank is not Rank.ACE:
        return ()
    seat_state = state.seats[seat]
    hand = seat_state.hands[0]
    # BJ.half-stakes: an offer whose half stake rounds to 0 is not made, even money included.
    cost = _insurance_stake(state, seat)
    if hand.status is HandStatus.BLACKJACK:
        if rules.blackjack_vs_ace is BlackjackVsAce.EVEN_MONEY:
            return (Action.EVEN_MONEY, Action.DECLINE_EVEN_MONEY) if cost > 0 else ()
        if rules.blackjack_vs_ace is BlackjackVsAce.NOTHING:
            return ()
    if not rules.insurance:
        return ()
    if cost <= 0 or (rules.extra_stakes_need_funds and cost > seat_state.free_funds):
        return ()
    return (Action.INSURANCE, Action.DECLINE_INSURANCE)


def _insurance_stake(state: BlackjackState, seat: int) -> int:
    """Half the original stake, rounded by the half-stake rule (BJ.half-stakes)."""
    return state.rules.half_stake_rounding.apply(Fraction(state.seats[seat].stake, 2))


def _funds_cover(state: BlackjackState, seat: int, amount: int) -> bool:
    """BJ.funds: an extra stake needs the seat's uncommitted funds."""
    return not state.rules.extra_stakes_need_funds or amount <= state.seats[seat].free_funds


def _play_actions(state: BlackjackState, seat: int, index: int) -> tuple[Action, ...]:
    rules = state.rules
    seat_state = state.seats[seat]
    hand = seat_state.hands[index]
    if hand.status is not HandStatus.PLAYING:
        return ()
    actions = [Action.HIT, Action.STAND]
    if hand.split_aces and not rules.hit_split_aces:
        actions.remove(Action.HIT)
    two_cards = len(hand.cards) == 2 and not hand.doubled
    insured_block = rules.no_double_split_after_insurance and seat_state.insurance > 0
    if (
        two_cards
        and (not hand.from_split or rules.double_after_split)
        and not insured_block
        and not (hand.split_aces and not rules.hit_split_aces)
        and _funds_cover(state, seat, hand.stake)
    ):
        actions.append(Action.DOUBLE)
    if (
        two_cards
        and is_pair(rules.split_pairs, hand.cards[0], hand.cards[1])
        and len(seat_state.hands) < rules.max_hands
        and not insured_block
        and _funds_cover(state, seat, hand.stake)
    ):
        actions.append(Action.SPLIT)
    if rules.surrender and two_cards and (not hand.from_split or rules.surrender_after_split):
        actions.append(Action.SURRENDER)
    return tuple(actions)


def legal_decisions(state: BlackjackState) -> tuple[Action, ...]:
    """The decisions open to the hand whose turn it is (empty when complete)."""
    if state.turn is None:
        return ()
    if state.phase is Phase.OFFERS:
        return _offer_actions(state, state.turn.seat)
    return _play_actions(state, state.turn.seat, state.turn.hand)


# --- advancing -------------------------------------------------------------------------


def _advance(state: BlackjackState) -> BlackjackState:
    """Move the round on until it waits for a decision or is complete."""
    if state.phase is Phase.OFFERS:
        start = 0 if state.turn is None else state.turn.seat
        for seat in range(start, len(state.seats)):
            if not state.seats[seat].offer_done and _offer_actions(state, seat):
                return replace(state, turn=Turn(seat=seat, hand=0))
        state = _after_offers(state)
        if state.phase is Phase.COMPLETE:
            return state
        state = replace(state, phase=Phase.PLAY, turn=None)
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
    if _peeks(rules, dealer.up):
        state = replace(state, dealer=replace(dealer, peeked=True))
        if dealer.blackjack:
            state = replace(state, dealer=replace(state.dealer, hole_revealed=True))
            state = _log(
                state,
                "peek",
                rules.cite("peek"),
                f"dealer blackjack: {dealer.up} {dealer.hole}; the round ends",
            )
            return _settle(state)
        state = _log(state, "peek", rules.cite("peek"), "no dealer blackjack; play goes on")
    if rules.natural_paid_at_once and (
        state.dealer.peeked or not _dealer_can_have_blackjack(dealer.up)
    ):
        for seat, seat_state in enumerate(state.seats):
            hand = seat_state.hands[0]
            if hand.status is HandStatus.BLACKJACK and not hand.even_money:
                state = _with_hand(state, seat, 0, replace(hand, paid_early=True))
                clauses = ("BJ.nat-pays", *rules.cite("natural_paid_at_once"))
                if dealer.up.rank.is_ten_valued:
                    clauses = (*clauses, "A.nat-vs-ten")
                state = _log(state, "natural paid", clauses, f"seat {seat}: blackjack paid at once")
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
        if _play_actions(state, seat, index):
            return replace(state, turn=Turn(seat=seat, hand=index))
        if hand.status is HandStatus.PLAYING:
            # Nothing is legal (split aces without hits): the hand stands as it is.
            state = _with_hand(state, seat, index, replace(hand, status=HandStatus.STOOD))
        index += 1
    return replace(state, turn=None)


def _settle_card_status(state: BlackjackState, hand: Hand) -> HandStatus:
    """A hand's status after it receives a card: bust, 21 or still playing."""
    total = hand.total
    if total > 21:
        return HandStatus.BUST
    if total == 21 and state.rules.auto_stand_21:
        return HandStatus.STOOD
    return HandStatus.PLAYING


def _deal_split_card(state: BlackjackState, seat: int, index: int) -> BlackjackState:
    rules = state.rules
    hand = state.seats[seat].hands[index]
    card, state = _draw(state, f"seat {seat} hand {index}'s second card", "BJ.deal-order")
    cards = (*hand.cards, card)
    hand = replace(hand, cards=cards, status=HandStatus.PLAYING)
    clauses: tuple[str, ...] = ("BJ.deal-order",)
    if is_two_card_21(cards) and rules.split_21_is_blackjack:
        hand = replace(hand, status=HandStatus.BLACKJACK)
        clauses = (*clauses, *rules.cite("split_21_is_blackjack"))
    else:
        hand = replace(hand, status=_settle_card_status(state, hand))
        if is_two_card_21(cards):
            clauses = (*clauses, *rules.cite("split_21_is_blackjack"), "BJ.auto-stand")
    if hand.split_aces and not rules.hit_split_aces and hand.status is HandStatus.PLAYING:
        hand = replace(hand, status=HandStatus.STOOD)
        clauses = (*clauses, *rules.cite("hit_split_aces"))
    state = _with_hand(state, seat, index, hand)
    return _log(state, "split card", clauses, f"seat {seat} hand {index} receives {card}")


# --- decisions -------------------------------------------------------------------------


def decide(state: BlackjackState, decision: Decision) -> BlackjackState:
    """Apply one decision and advance; an illegal one raises and changes nothing."""
    legal = legal_decisions(state)
    turn = state.turn
    if turn is None:
        raise IllegalDecisionError(
            f"the round is complete; {decision.action.value} is not legal",
            action=decision.action.value,
            legal="",
        )
    if (decision.seat, decision.hand) != (turn.seat, turn.hand):
        raise IllegalDecisionError(
            f"it is seat {turn.seat} hand {turn.hand}'s turn, not seat {decision.seat} hand {decision.hand}'s; "
            f"legal: {_names(legal)}",
            action=decision.action.value,
            seat=turn.seat,
            hand=turn.hand,
            legal=_names(legal),
        )
    if decision.action not in legal:
        raise IllegalDecisionError(
            f"{decision.action.value} is not legal for seat {turn.seat} hand {turn.hand} now; "
            f"legal: {_names(legal)}",
            action=decision.action.value,
            seat=turn.seat,
            hand=turn.hand,
            legal=_names(legal),
        )
    return _advance(_apply(state, turn.seat, turn.hand, decision.action))


def _names(actions: Sequence[Action]) -> str:
    return ",".join(action.value for action in actions)


def _apply(state: BlackjackState, seat: int, index: int, action: Action) -> BlackjackState:
    rules = state.rules
    seat_state = state.seats[seat]
    hand = seat_state.hands[index]
    where = f"seat {seat} hand {index}"
    match action:
        case Action.INSURANCE:
            cost = _insurance_stake(state, seat)
            state = _with_seat(state, seat, replace(seat_state, insurance=cost, offer_done=True))
            return _log(
                state,
                "insurance",
                (*rules.cite("insurance"), "BJ.half-stakes", "BJ.funds"),
                f"seat {seat} insures for {cost}",
            )
        case Action.DECLINE_INSURANCE:
            state = _with_seat(state, seat, replace(seat_state, offer_done=True))
            return _log(state, "decline insurance", rules.cite("insurance"), f"seat {seat}")
        case Action.EVEN_MONEY:
            hand = replace(hand, even_money=True, paid_early=True)
            state = _with_seat(state, seat, replace(seat_state, offer_done=True, hands=(hand,)))
            return _log(
                state, "even money", rules.cite("blackjack_vs_ace"), f"seat {seat} takes 1:1 now"
            )
        case Action.DECLINE_EVEN_MONEY:
            state = _with_seat(state, seat, replace(seat_state, offer_done=True))
            return _log(state, "decline even money", rules.cite("blackjack_vs_ace"), f"seat {seat}")
        case Action.STAND:
            state = _with_hand(state, seat, index, replace(hand, status=HandStatus.STOOD))
            return _log(state, "stand", ("BJ.compare",), where)
        case Action.SURRENDER:
            state = _with_hand(state, seat, index, replace(hand, status=HandStatus.SURRENDERED))
            return _log(state, "surrender", (*rules.cite("surrender"), "BJ.half-stakes"), where)
        case Action.HIT:
            card, state = _draw(state, f"{where}'s hit", "BJ.deal-order")
            hand = replace(hand, cards=(*hand.cards, card))
            hand = replace(hand, status=_settle_card_status(state, hand))
            state = _with_hand(state, seat, index, hand)
            return _log(
                state,
                "hit",
                _status_clauses(hand, ("BJ.values",)),
                f"{where} draws {card}: {hand.total}",
            )
        case Action.DOUBLE:
            card, state = _draw(state, f"{where}'s double", rules.cite("double_after_split")[0])
            hand = replace(hand, cards=(*hand.cards, card), stake=hand.stake * 2, doubled=True)
            status = HandStatus.BUST if hand.total > 21 else HandStatus.STOOD
            hand = replace(hand, status=status)
            state = _with_hand(state, seat, index, hand)
            clauses = (*rules.cite("double_after_split"), "BJ.funds")
            return _log(
                state,
                "double",
                _status_clauses(hand, clauses),
                f"{where} doubles and draws {card}: {hand.total}",
            )
        case Action.SPLIT:
            aces = hand.cards[0].rank is Rank.ACE
            first = Hand(
                cards=(hand.cards[0],),
                stake=hand.stake,
                from_split=True,
                split_aces=aces,
                status=HandStatus.WAITING,
            )
            second = replace(first, cards=(hand.cards[1],))
            hands = (*seat_state.hands[:index], first, second, *seat_state.hands[index + 1 :])
            state = _with_seat(state, seat, replace(seat_state, hands=hands))
            clauses = (*rules.cite("split_pairs"), "BJ.funds")
            return _log(state, "split", clauses, f"{where} splits {hand.cards[0]} {hand.cards[1]}")
    raise IllegalDecisionError(
        f"{action.value} is not a play decision", action=action.value
    )  # pragma: no cover


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
    if reveal and not state.dealer.hole_revealed:
        state = replace(state, dealer=replace(state.dealer, hole_revealed=True))
        state = _log(
            state,
            "hole card",
            ("BJ.dealer-needed", *(_natural_context(state) if shown_to_natural else ())),
            f"dealer turns {state.dealer.hole}: {hand_total(state.dealer.cards[:2])[0]}",
        )
    if draw and not state.dealer.blackjack:
        cite = (*rules.cite("dealer_hits_soft_17"), "BJ.dealer-needed")
        while True:
            total, soft = hand_total(state.dealer.cards)
            if total > 17 or (total == 17 and not (soft and rules.dealer_hits_soft_17)):
                break
            card, state = _draw(state, "the dealer's draw", rules.cite("dealer_hits_soft_17")[0])
            state = replace(state, dealer=replace(state.dealer, draws=(*state.dealer.draws, card)))
            state = _log(
                state, "dealer draws", cite, f"{card}: {hand_total(state.dealer.cards)[0]}"
            )
    return _settle(state)


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
    state = replace(state, phase=Phase.COMPLETE, turn=None, settlement=tuple(lines))
    total = sum(line.payout.returned for line in lines)
    return _log(state, "settle", ("BJ.compare",), f"{len(lines)} line(s), {total} returned")


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
            return portion(stake, Fraction(1, 2), rules.half_stake_rounding), (
                *rules.cite("surrender"),
                "BJ.half-stakes",
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
