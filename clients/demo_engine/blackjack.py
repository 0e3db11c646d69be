"""Blackjack: the round's data model and the dealer who runs it.

A round is plain mutable data (``BlackjackRound``); the rules live in
``BlackjackDealer``'s methods, each one small and named after what a pit boss
would call it, so a house (or a test) can change one rule by overriding one
method. Between two decisions the dealer moves the round on by itself:
insurance offers, the peek, a split hand's second card, the dealer's draws.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from croupier.clients.adapter import (
    BlackjackView,
    DecisionInput,
    EngineError,
    HandView,
    Line,
    RoundView,
    SeatInput,
    SeatView,
)
from croupier.clients.demo_engine.cards import PICTURES, TEN_VALUED, Shoe, check_deal_length, rank
from croupier.clients.demo_engine.house import House
from croupier.clients.demo_engine.rules import BlackjackRules

#: Every decision, in the contract's order (DecisionKind); legal lists follow it.
DECISION_ORDER = (
    "hit",
    "stand",
    "double",
    "split",
    "surrender",
    "insurance",
    "decline-insurance",
    "even-money",
    "decline-even-money",
    "decline-surrender",
)

_POINTS = {r: 1 if r == "A" else 10 if r in TEN_VALUED else int(r) for r in "A23456789TJQK"}


class HandValue(NamedTuple):
    """A hand's best total, and whether an ace counts 11 in it (a soft total)."""

    total: int
    soft: bool


@dataclass(slots=True)
class Hand:
    """One hand; ``status`` is waiting, playing, stood, bust, blackjack or surrendered."""

    cards: list[str]
    stake: int
    status: str = "playing"
    doubled: bool = False
    from_split: bool = False
    even_money: bool = False
    #: A blackjack paid before the dealer needed the hole card (no look was due).
    paid_at_once: bool = False
    #: How many hands splitting this one has made: the next one goes after them.
    splits: int = 0

    @property
    def split_aces(self) -> bool:
        """Whether the hand came from splitting aces."""
        return self.from_split and rank(self.cards[0]) == "A"


@dataclass(slots=True)
class Box:
    """A seat's box: its funds, its original bet, its hands and its insurance."""

    balance: int
    bet: int
    hands: list[Hand]
    insurance: int = 0
    answered_offer: bool = False
    #: The seat answered early surrender, asked before the dealer's look.
    surrender_asked: bool = False

    @property
    def free_funds(self) -> int:
        """Money the seat has not put on the table yet."""
        return self.balance - sum(hand.stake for hand in self.hands) - self.insurance


@dataclass(slots=True)
class BlackjackRound:
    """A blackjack round; ``phase`` is offers, play or complete; ``turn`` is (seat, hand)."""

    rules: BlackjackRules
    shoe: Shoe
    boxes: list[Box]
    dealer: list[str] = field(default_factory=list)
    hole_shown: bool = False
    peeked: bool = False
    phase: str = "offers"
    turn: tuple[int, int] | None = None


class BlackjackDealer(House):
    """Runs blackjack rounds under a ``BlackjackRules`` table."""

    # --- cards and totals --------------------------------------------------------------

    def hand_value(self, cards: Sequence[str]) -> HandValue:
        """Aces count 11 unless that busts the hand, then 1; pictures count 10."""
        total = sum(_POINTS[rank(card)] for card in cards)
        if total <= 11 and any(rank(card) == "A" for card in cards):
            return HandValue(total + 10, soft=True)
        return HandValue(total, soft=False)

    def is_blackjack(self, cards: Sequence[str]) -> bool:
        """An ace and a ten-valued card as a hand's first two cards."""
        return len(cards) == 2 and self.hand_value(cards).total == 21

    def is_pair(self, rules: BlackjackRules, first: str, second: str) -> bool:
        """Two cards that may be split: the same rank, or (where the house says so) two pictures, or any two of one value."""
        if rank(first) == rank(second):
            return True
        if rules.pair_rule == "same-value":
            return _POINTS[rank(first)] == _POINTS[rank(second)]
        pictures = rank(first) in PICTURES and rank(second) in PICTURES
        return rules.pair_rule == "same-rank-or-pictures" and pictures

    # --- the deal ----------------------------------------------------------------------

    def deal_blackjack(
        self, rules: BlackjackRules, seats: Sequence[SeatInput], shoe: tuple[str, ...]
    ) -> BlackjackRound:
        """Check the seats and the shoe, deal, and play the round on to its first decision."""
        for index, seat in enumerate(seats):
            if len(seat.bets) != 1:
                raise EngineError(
                    "INVALID_ROUND",
                    f"blackjack seat {index} must have exactly one bet, got {len(seat.bets)}",
                    seat=index,
                )
        for index, seat in enumerate(seats):
            self.check_stakes(
                index, seat.balance, [("box", seat.bets[0].stake)], (rules.min_bet, rules.max_bet)
            )
        self.check_shoe(shoe, rules.decks)
        # Two cards to each seat and two to the dealer (BJ.deal-order).
        check_deal_length(shoe, 2 * len(seats) + 2)
        game = BlackjackRound(
            rules=rules,
            shoe=Shoe(shoe),
            boxes=[
                Box(
                    balance=seat.balance,
                    bet=seat.bets[0].stake,
                    hands=[Hand(cards=[], stake=seat.bets[0].stake)],
                )
                for seat in seats
            ],
        )
        self.deal_initial(game)
        for box in game.boxes:
            if self.is_blackjack(box.hands[0].cards):
                box.hands[0].status = "blackjack"
        self.advance(game)
        return game

    def deal_initial(self, game: BlackjackRound) -> None:
        """A card to each seat, the dealer's up card, a second card to each seat, the hole card."""
        for box in game.boxes:
            box.hands[0].cards.append(game.shoe.draw())
        game.dealer.append(game.shoe.draw())
        for box in game.boxes:
            box.hands[0].cards.append(game.shoe.draw())
        game.dealer.append(game.shoe.draw())

    # --- moving the round on -----------------------------------------------------------

    def advance(self, game: BlackjackRound) -> None:
        """Move on until the round waits for a decision or is complete."""
        if game.phase == "offers":
            for seat in range(len(game.boxes)):
                if self.early_surrender_due(game, seat) or (
                    not game.boxes[seat].answered_offer and self.offers(game, seat)
                ):
                    game.turn = (seat, 0)
                    return
            self.close_offers(game)
            if game.phase == "complete":
                return
            game.phase, game.turn = "play", None
        if self.next_turn(game):
            return
        self.dealer_plays(game)
        game.phase, game.turn = "complete", None

    def close_offers(self, game: BlackjackRound) -> None:
        """The dealer looks at the hole card if the house says so; a blackjack ends the round."""
        up = game.dealer[0]
        if self.dealer_peeks(game.rules, up):
            game.peeked = True
            if self.is_blackjack(game.dealer[:2]):
                game.hole_shown = True
                game.phase, game.turn = "complete", None
                return
        if game.rules.pay_naturals_at_once and rank(up) not in "A" + TEN_VALUED:
            for box in game.boxes:
                if box.hands[0].status == "blackjack":
                    box.hands[0].paid_at_once = True

    def dealer_peeks(self, rules: BlackjackRules, up: str) -> bool:
        """Whether the dealer looks for a blackjack before play: under an ace or a ten where the house says so."""
        if rank(up) == "A":
            return rules.peek_under_ace
        return rank(up) in TEN_VALUED and rules.peek_under_ten

    def early_surrender_due(self, game: BlackjackRound, seat: int) -> bool:
        """Early surrender is asked of each seat, before the dealer looks, where the dealer looks."""
        box = game.boxes[seat]
        return (
            game.rules.surrender
            and game.rules.early_surrender
            and not box.surrender_asked
            and box.hands[0].status == "playing"
            and self.dealer_peeks(game.rules, game.dealer[0])
        )

    def next_turn(self, game: BlackjackRound) -> bool:
        """Find the next hand to play, from the current one on; False when every hand is done."""
        seat, index = game.turn or (0, 0)
        while seat < len(game.boxes):
            hands = game.boxes[seat].hands
            if index >= len(hands):
                seat, index = seat + 1, 0
                continue
            if hands[index].status == "waiting":
                self.start_split_hand(game, seat, index)
            if hands[index].status == "playing":
                game.turn = (seat, index)
                return True
            index += 1
        return False

    def start_split_hand(self, game: BlackjackRound, seat: int, index: int) -> None:
        """A split hand receives its second card when its turn comes; a 21 there is not a blackjack."""
        box = game.boxes[seat]
        hand = box.hands[index]
        hand.cards.append(game.shoe.draw())
        self.update_status(hand)
        # Split aces that take no more cards stand, unless they may split again.
        if (
            hand.status == "playing"
            and hand.split_aces
            and not game.rules.hit_split_aces
            and not self.can_split(game, box, hand)
        ):
            hand.status = "stood"

    def update_status(self, hand: Hand) -> None:
        """After a card: over 21 the hand is bust, on 21 it stands, otherwise it plays on."""
        total = self.hand_value(hand.cards).total
        hand.status = "bust" if total > 21 else "stood" if total == 21 else "playing"

    # --- decisions ---------------------------------------------------------------------

    def offers(self, game: BlackjackRound, seat: int) -> list[str]:
        """The offer a seat gets against a dealer ace: even money for a blackjack (where offered), else insurance."""
        if rank(game.dealer[0]) != "A":
            return []
        box = game.boxes[seat]
        if box.hands[0].status == "surrendered":
            return []
        # Half of a 1-unit stake rounds to nothing: no offer at all, even money included.
        cost = self.half_stake(box.bet)
        if box.hands[0].status == "blackjack" and game.rules.natural_vs_ace == "even-money":
            return ["even-money", "decline-even-money"] if cost > 0 else []
        if cost > 0 and self.can_afford(box, 1 if game.rules.insure_for_less else cost):
            return ["insurance", "decline-insurance"]
        return []

    def can_afford(self, box: Box, amount: int) -> bool:
        """An extra stake (split, double, insurance) needs the seat's uncommitted funds."""
        return amount <= box.free_funds

    def can_double(self, game: BlackjackRound, box: Box, hand: Hand) -> bool:
        """Double on the hands the house allows, split hands included, funds permitting."""
        rules = game.rules
        cards = not hand.doubled if rules.double_on == "any-cards" else len(hand.cards) == 2
        totals = {"nine-to-eleven": (9, 10, 11), "ten-eleven": (10, 11)}.get(rules.double_on)
        return (
            cards
            and (totals is None or self.hand_value(hand.cards).total in totals)
            and (rules.double_after_split or not hand.from_split)
            and (rules.double_after_insurance or box.insurance == 0)
            and (rules.hit_split_aces or not hand.split_aces)
            and self.can_afford(box, 1 if rules.double_for_less else hand.stake)
        )

    def can_split(self, game: BlackjackRound, box: Box, hand: Hand) -> bool:
        """Split a pair while the seat holds fewer hands than the house allows, funds permitting."""
        rules = game.rules
        return (
            len(hand.cards) == 2
            and len(box.hands) < rules.max_hands
            and self.is_pair(rules, hand.cards[0], hand.cards[1])
            and (rules.resplit_aces or not hand.split_aces)
            and (rules.split_after_insurance or box.insurance == 0)
            and self.can_afford(box, hand.stake)
        )

    def can_surrender(self, game: BlackjackRound, box: Box, hand: Hand) -> bool:
        """Surrender where the house offers it: first two cards only, never a split hand, not after early surrender was asked."""
        return (
            game.rules.surrender
            and len(hand.cards) == 2
            and not hand.from_split
            and not box.surrender_asked
        )

    def play_options(self, game: BlackjackRound, seat: int, index: int) -> list[str]:
        """What a playing hand may do now."""
        box = game.boxes[seat]
        hand = box.hands[index]
        options = ["hit", "stand"]
        if hand.split_aces and not game.rules.hit_split_aces:
            options = ["stand"]
        if self.can_double(game, box, hand):
            options.append("double")
        if self.can_split(game, box, hand):
            options.append("split")
        if self.can_surrender(game, box, hand):
            options.append("surrender")
        return options

    def legal_decisions(self, game: BlackjackRound) -> list[str]:
        """The decisions the hand to act may take, in the contract's order; none once complete."""
        if game.turn is None:
            return []
        seat, index = game.turn
        if game.phase == "offers" and self.early_surrender_due(game, seat):
            options = ["surrender", "decline-surrender"]
        elif game.phase == "offers":
            options = self.offers(game, seat)
        else:
            options = self.play_options(game, seat, index)
        return sorted(options, key=DECISION_ORDER.index)

    def decide_blackjack(self, game: BlackjackRound, decision: DecisionInput) -> BlackjackRound:
        """Apply one decision to the hand whose turn it is, then move the round on."""
        legal = self.legal_decisions(game)
        if game.turn is None:
            raise EngineError(
                "ILLEGAL_DECISION", "the round is complete", action=decision.kind, legal=""
            )
        if (decision.seat, decision.hand) != game.turn or decision.kind not in legal:
            seat, index = game.turn
            raise EngineError(
                "ILLEGAL_DECISION",
                f"seat {decision.seat} hand {decision.hand} may not {decision.kind}: it is seat "
                f"{seat} hand {index}'s turn, which may {', '.join(legal)}",
                action=decision.kind,
                seat=seat,
                hand=index,
                legal=",".join(legal),
            )
        stake = self.chosen_stake(game, decision, legal)
        if decision.kind == "double":
            self.double_down(game, *game.turn, stake)
        elif decision.kind == "insurance":
            self.take_insurance(game, *game.turn, stake)
        else:
            actions: dict[str, Callable[[BlackjackRound, int, int], None]] = {
                "hit": self.hit,
                "stand": self.stand,
                "split": self.split_pair,
                "surrender": self.surrender,
                "decline-insurance": self.decline_offer,
                "even-money": self.take_even_money,
                "decline-even-money": self.decline_offer,
                "decline-surrender": self.decline_surrender,
            }
            actions[decision.kind](game, *game.turn)
        self.advance(game)
        return game

    def chosen_stake(self, game: BlackjackRound, decision: DecisionInput, legal: list[str]) -> int:
        """The stake a double or insurance puts down: the full one, or the amount the player chose where the house lets them."""
        seat, index = game.turn or (0, 0)
        box = game.boxes[seat]
        rules = game.rules
        if decision.kind == "double":
            full, choose = box.hands[index].stake, rules.double_for_less
        elif decision.kind == "insurance":
            full, choose = self.half_stake(box.bet), rules.insure_for_less
        else:
            full, choose = 0, False
        if decision.amount is None:
            if full and not self.can_afford(box, full):
                self.refuse_amount(decision, legal, f"the full {full} is not free")
            return full
        if not choose:
            self.refuse_amount(decision, legal, "this table takes no amount on it")
        if not 1 <= decision.amount <= full:
            self.refuse_amount(decision, legal, f"the amount must be 1 to {full}")
        if not self.can_afford(box, decision.amount):
            self.refuse_amount(decision, legal, "the seat's free funds do not cover it")
        return decision.amount

    def refuse_amount(self, decision: DecisionInput, legal: list[str], why: str) -> None:
        """An amount the table does not take: ILLEGAL_DECISION."""
        raise EngineError(
            "ILLEGAL_DECISION",
            f"{decision.kind} for {decision.amount}: {why}",
            action=decision.kind,
            legal=",".join(legal),
        )

    def hit(self, game: BlackjackRound, seat: int, index: int) -> None:
        """One more card."""
        hand = game.boxes[seat].hands[index]
        hand.cards.append(game.shoe.draw())
        self.update_status(hand)

    def stand(self, game: BlackjackRound, seat: int, index: int) -> None:
        """No more cards: the hand waits for the dealer."""
        game.boxes[seat].hands[index].status = "stood"

    def double_down(self, game: BlackjackRound, seat: int, index: int, extra: int) -> None:
        """Add the extra stake (the hand's stake, or less where the house allows) and take exactly one card."""
        hand = game.boxes[seat].hands[index]
        hand.stake += extra
        hand.doubled = True
        hand.cards.append(game.shoe.draw())
        hand.status = "bust" if self.hand_value(hand.cards).total > 21 else "stood"

    def split_pair(self, game: BlackjackRound, seat: int, index: int) -> None:
        """Two hands of one card each, the second with a stake equal to the first; each gets its second card when it starts."""
        hands = game.boxes[seat].hands
        hand = hands[index]
        first = Hand(
            cards=hand.cards[:1],
            stake=hand.stake,
            status="waiting",
            from_split=True,
            splits=hand.splits + 1,
        )
        second = Hand(cards=hand.cards[1:], stake=hand.stake, status="waiting", from_split=True)
        # The new hand goes after those this hand's earlier splits made.
        hands[index] = first
        hands.insert(index + 1 + hand.splits, second)

    def surrender(self, game: BlackjackRound, seat: int, index: int) -> None:
        """Give the hand up; it gets half its stake back at settlement."""
        box = game.boxes[seat]
        box.hands[index].status = "surrendered"
        if game.phase == "offers":
            # Early surrender, before the look: no insurance offer follows.
            box.surrender_asked = box.answered_offer = True

    def decline_surrender(self, game: BlackjackRound, seat: int, index: int) -> None:
        """Keep the hand when early surrender is asked; it is not asked again."""
        del index
        game.boxes[seat].surrender_asked = True

    def take_insurance(self, game: BlackjackRound, seat: int, index: int, stake: int) -> None:
        """Insure for half the original stake, or the smaller amount chosen."""
        del index
        box = game.boxes[seat]
        box.insurance = stake
        box.answered_offer = True

    def take_even_money(self, game: BlackjackRound, seat: int, index: int) -> None:
        """Take 1:1 now for a blackjack against an ace."""
        box = game.boxes[seat]
        box.hands[index].even_money = True
        box.answered_offer = True

    def decline_offer(self, game: BlackjackRound, seat: int, index: int) -> None:
        """Refuse the insurance or even-money offer."""
        del index
        game.boxes[seat].answered_offer = True

    # --- the dealer --------------------------------------------------------------------

    def dealer_needed(self, game: BlackjackRound) -> bool:
        """Whether some hand waits for the dealer's total (stood, not bust, surrendered or a blackjack)."""
        return any(hand.status == "stood" for box in game.boxes for hand in box.hands)

    def dealer_draws(self, rules: BlackjackRules, cards: Sequence[str]) -> bool:
        """The dealer draws to 16 and stands on 17, a soft 17 too unless the house hits it."""
        value = self.hand_value(cards)
        return value.total < 17 or (value.total == 17 and value.soft and rules.dealer_hits_soft_17)

    def dealer_plays(self, game: BlackjackRound) -> None:
        """Turn the hole card unless every hand is paid already, then draw if some hand needs the total."""
        needed = self.dealer_needed(game)
        hands = [hand for box in game.boxes for hand in box.hands]
        if game.rules.hole_card_at_showdown:
            # Turned only for a hand compared with it: a stood hand, or a blackjack the
            # dealer may still tie (not looked under an ace or a ten).
            unseen = not game.peeked and rank(game.dealer[0]) in "A" + TEN_VALUED
            tied = any(h.status == "blackjack" and not h.even_money for h in hands) and unseen
            game.hole_shown = needed or tied
        elif needed or not all(hand.even_money or hand.paid_at_once for hand in hands):
            game.hole_shown = True
        if needed:
            while self.dealer_draws(game.rules, game.dealer):
                game.dealer.append(game.shoe.draw())

    # --- settlement --------------------------------------------------------------------

    def surrender_refund(self, stake: int) -> int:
        """A surrendered hand gets half its stake back, rounded down."""
        return self.half_stake(stake)

    def hand_returns(self, game: BlackjackRound, box: Box, index: int, hand: Hand) -> int:
        """What one hand returns, stake included."""
        rules = game.rules
        dealer_blackjack = self.is_blackjack(game.dealer[:2])
        if hand.status == "surrendered":
            return self.surrender_refund(hand.stake)
        if hand.status == "bust":
            return 0
        if hand.status == "blackjack":
            if hand.even_money:
                return self.win(hand.stake, Fraction(1))
            if dealer_blackjack:
                return hand.stake
            return self.win(hand.stake, rules.blackjack_payout)
        if dealer_blackjack:
            if game.peeked or rules.late_blackjack_takes_all:
                return 0
            # Only the original bet is lost; a doubled half and a split hand's stake come back.
            return hand.stake - (box.bet if index == 0 else 0)
        player = self.hand_value(hand.cards).total
        dealer = self.hand_value(game.dealer).total
        if dealer > 21 or player > dealer:
            return self.win(hand.stake, Fraction(1))
        return hand.stake if player == dealer else 0

    def insurance_returns(self, game: BlackjackRound, box: Box) -> int:
        """Insurance pays when the hole card makes a dealer blackjack, else it is lost."""
        if self.is_blackjack(game.dealer[:2]):
            return self.win(box.insurance, game.rules.insurance_payout)
        return 0

    def settle_blackjack(self, game: BlackjackRound) -> list[Line]:
        """Per seat: ``hand 0``, ``hand 1``, then ``insurance`` if taken."""
        lines = []
        for seat, box in enumerate(game.boxes):
            for index, hand in enumerate(box.hands):
                returned = self.hand_returns(game, box, index, hand)
                lines.append(
                    Line(seat=seat, bet=f"hand {index}", stake=hand.stake, returned=returned)
                )
            if box.insurance:
                returned = self.insurance_returns(game, box)
                lines.append(
                    Line(seat=seat, bet="insurance", stake=box.insurance, returned=returned)
                )
        return lines

    # --- what the player sees ----------------------------------------------------------

    def view_blackjack(self, game: BlackjackRound) -> RoundView:
        """The table as a player sees it: the dealer's hole card only once it is turned."""
        seats = [
            SeatView(
                hands=[
                    HandView(
                        cards=list(hand.cards),
                        stake=hand.stake,
                        status=hand.status,
                        doubled=hand.doubled,
                        from_split=hand.from_split,
                        even_money=hand.even_money,
                    )
                    for hand in box.hands
                ],
                insurance=box.insurance,
            )
            for box in game.boxes
        ]
        dealer = list(game.dealer) if game.hole_shown else game.dealer[:1]
        return RoundView(
            phase=game.phase,
            cards_dealt=game.shoe.dealt,
            table=BlackjackView(
                seats=seats, dealer_cards=dealer, hole_card_hidden=not game.hole_shown
            ),
            turn=game.turn,
            legal=self.legal_decisions(game),
        )
