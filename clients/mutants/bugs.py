"""The rule bugs of the mutant zoo: each class is the demo engine with one method gone wrong.

A bug that is a house-rule setting gone wrong needs no class: the registry builds it with
``variant(profile, **changes)``. The classes here change one small method of the demo
engine's dealers, the way a vendor's bug would: an off-by-one in a drawing rule, a constant
that holds one rank too many, a payout computed on the wrong amount.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from croupier.clients.adapter import BetInput, DealInput, DecisionInput, Imprisoned, Line
from croupier.clients.demo_engine import (
    HOUSE_RULES,
    LAB_TABLES,
    BaccaratRules,
    BlackjackRules,
    DemoEngine,
    RouletteRules,
)
from croupier.clients.demo_engine.blackjack import BlackjackRound, Box, Hand, HandValue
from croupier.clients.demo_engine.cards import TEN_VALUED, Shoe, rank
from croupier.clients.demo_engine.roulette import EVEN_CHANCES, Shape, layout

# --- blackjack ------------------------------------------------------------------------------


class NaturalPushesAny21(DemoEngine):
    """Settles a player blackjack by the dealer's total: any dealer 21 pushes it."""

    def hand_returns(self, game: BlackjackRound, box: Box, index: int, hand: Hand) -> int:
        """A blackjack against a dealer total of 21, however many cards, gets its stake back."""
        if (
            hand.status == "blackjack"
            and not hand.even_money
            and self.hand_value(game.dealer).total == 21
        ):
            return hand.stake
        return super().hand_returns(game, box, index, hand)


class Any21PushesDealerBlackjack(DemoEngine):
    """Compares totals before checking for a dealer blackjack: a three-card 21 pushes it."""

    def hand_returns(self, game: BlackjackRound, box: Box, index: int, hand: Hand) -> int:
        """A live 21 against a dealer blackjack gets its stake back."""
        if (
            hand.status == "stood"
            and self.hand_value(hand.cards).total == 21
            and self.is_blackjack(game.dealer[:2])
        ):
            return hand.stake
        return super().hand_returns(game, box, index, hand)


class SplitAces21IsBlackjack(DemoEngine):
    """Settles a hand as a blackjack by its cards, not by its status: a split ace and a ten too."""

    def hand_returns(self, game: BlackjackRound, box: Box, index: int, hand: Hand) -> int:
        """A two-card 21 on a split hand is paid 3:2, or pushes a dealer blackjack."""
        if hand.from_split and self.is_blackjack(hand.cards):
            if self.is_blackjack(game.dealer[:2]):
                return hand.stake
            return self.win(hand.stake, game.rules.blackjack_payout)
        return super().hand_returns(game, box, index, hand)


class AcesDropOnce(DemoEngine):
    """Counts every ace 11, then takes 10 off once if the hand is over 21 (A-A-K is 22)."""

    def hand_value(self, cards: Sequence[str]) -> HandValue:
        """Aces 11; over 21, one ace (only one) drops to 1."""
        aces = sum(rank(card) == "A" for card in cards)
        total = sum(
            11 if rank(card) == "A" else 10 if rank(card) in TEN_VALUED else int(rank(card))
            for card in cards
        )
        if total > 21 and aces:
            return HandValue(total - 10, soft=aces > 1)
        return HandValue(total, soft=aces > 0)


class TenIsAPicture(DemoEngine):
    """Under a pictures-may-split house rule, counts the ten as a picture (10-J splits)."""

    def is_pair(self, rules: BlackjackRules, first: str, second: str) -> bool:
        """Any two ten-valued cards are a pair where different pictures are."""
        if rules.pair_rule == "same-rank-or-pictures":
            return rank(first) == rank(second) or (
                rank(first) in TEN_VALUED and rank(second) in TEN_VALUED
            )
        return super().is_pair(rules, first, second)


class SurrenderRefundsAll(DemoEngine):
    """Gives a surrendered hand its whole stake back."""

    def surrender_refund(self, stake: int) -> int:
        """The whole stake, not half."""
        return stake


class SurrenderAfterSplit(DemoEngine):
    """Offers surrender on any two-card hand, split hands included."""

    def can_surrender(self, game: BlackjackRound, box: Box, hand: Hand) -> bool:
        """Where the house offers surrender: every two-card hand."""
        del box
        return game.rules.surrender and len(hand.cards) == 2


class HoleCardFirst(DemoEngine):
    """Deals the dealer's hole card straight after the up card, before the seats' second cards."""

    def deal_initial(self, game: BlackjackRound) -> None:
        """A card to each seat, the up card, the hole card, then a second card to each seat."""
        for box in game.boxes:
            box.hands[0].cards.append(game.shoe.draw())
        game.dealer.append(game.shoe.draw())
        game.dealer.append(game.shoe.draw())
        for box in game.boxes:
            box.hands[0].cards.append(game.shoe.draw())


class SplitDealsBothAtOnce(DemoEngine):
    """Gives both split hands their second card at the split, not each as it starts."""

    def split_pair(self, game: BlackjackRound, seat: int, index: int) -> None:
        """Split, then a second card to the first hand and at once one to the second."""
        super().split_pair(game, seat, index)
        self.start_split_hand(game, seat, index)
        self.start_split_hand(game, seat, index + 1)


class SplitIgnoresFunds(DemoEngine):
    """Offers a split without checking that the seat can cover the second stake."""

    def can_split(self, game: BlackjackRound, box: Box, hand: Hand) -> bool:
        """A pair, once, after insurance where the house allows it: the funds check is missing."""
        rules = game.rules
        return (
            len(hand.cards) == 2
            and len(box.hands) < rules.max_hands
            and self.is_pair(rules, hand.cards[0], hand.cards[1])
            and (rules.split_after_insurance or box.insurance == 0)
        )


class DoubleIgnoresFunds(DemoEngine):
    """Offers a double without checking that the seat can cover the extra stake."""

    def can_double(self, game: BlackjackRound, box: Box, hand: Hand) -> bool:
        """Any first two cards, by the house's split and insurance rules: the funds check is missing."""
        rules = game.rules
        return (
            len(hand.cards) == 2
            and not hand.doubled
            and (rules.double_after_split or not hand.from_split)
            and (rules.double_after_insurance or box.insurance == 0)
        )


class DealerAlwaysPlays(DemoEngine):
    """Plays the dealer's hand out whenever the hole card is turned, even if every hand is bust."""

    def dealer_needed(self, game: BlackjackRound) -> bool:
        """Some hand stood, or went bust (a bust hand does not need the dealer: the bug)."""
        return any(hand.status in ("stood", "bust") for box in game.boxes for hand in box.hands)


class OffersOnNothing(DemoEngine):
    """Makes the insurance and even-money offers even when half the stake rounds to nothing."""

    def offers(self, game: BlackjackRound, seat: int) -> list[str]:
        """Against an ace: even money for a blackjack, else insurance if affordable; 1 unit too."""
        if rank(game.dealer[0]) != "A":
            return []
        box = game.boxes[seat]
        if box.hands[0].status == "blackjack" and game.rules.natural_vs_ace == "even-money":
            return ["even-money", "decline-even-money"]
        if self.can_afford(box, self.half_stake(box.bet)):
            return ["insurance", "decline-insurance"]
        return []


class InsuranceIgnoresFunds(DemoEngine):
    """Offers insurance without checking that the seat can cover it."""

    def offers(self, game: BlackjackRound, seat: int) -> list[str]:
        """Against an ace: even money for a blackjack, else insurance, funds or not."""
        if rank(game.dealer[0]) != "A":
            return []
        box = game.boxes[seat]
        if self.half_stake(box.bet) <= 0:
            return []
        if box.hands[0].status == "blackjack" and game.rules.natural_vs_ace == "even-money":
            return ["even-money", "decline-even-money"]
        return ["insurance", "decline-insurance"]


class SplitHandPlaysOnAt21(DemoEngine):
    """A split hand that makes 21 with its second card plays on instead of standing."""

    def start_split_hand(self, game: BlackjackRound, seat: int, index: int) -> None:
        """The second card of a split hand; only a bust ends the hand there."""
        hand = game.boxes[seat].hands[index]
        hand.cards.append(game.shoe.draw())
        hand.status = "bust" if self.hand_value(hand.cards).total > 21 else "playing"


class HangsOnEvenMoney(DemoEngine):
    """Never answers a Decide that takes even money: its early-payout ledger waits on itself."""

    def decide(self, game: Any, decision: DecisionInput) -> Any:
        """Even money blocks for good; every other decision is played as usual."""
        if decision.kind == "even-money":
            threading.Event().wait()
        return super().decide(game, decision)


class InsurancePaysOnAny21(DemoEngine):
    """Pays insurance when the dealer ends on 21, blackjack or not (a three-card 21 too)."""

    def insurance_returns(self, game: BlackjackRound, box: Box) -> int:
        """Insurance is won by any dealer 21."""
        if self.hand_value(game.dealer).total == 21:
            return self.win(box.insurance, game.rules.insurance_payout)
        return 0


class DealerHitsMultiCardSoft17(DemoEngine):
    """Stands on a two-card soft 17 but hits one of three or more cards (A-2-4)."""

    def dealer_draws(self, rules: BlackjackRules, cards: Sequence[str]) -> bool:
        """Soft 17 made of three or more cards draws."""
        value = self.hand_value(cards)
        if value.total == 17 and value.soft and len(cards) > 2:
            return True
        return super().dealer_draws(rules, cards)


class BustWinsOnDealerBust(DemoEngine):
    """Pays a bust hand 1:1 when the dealer busts too, as if busts cancelled out."""

    def hand_returns(self, game: BlackjackRound, box: Box, index: int, hand: Hand) -> int:
        """Both over 21: the player's bust is forgiven."""
        if hand.status == "bust" and self.hand_value(game.dealer).total > 21:
            return self.win(hand.stake, Fraction(1))
        return super().hand_returns(game, box, index, hand)


class BlackjackNeedsAceFirst(DemoEngine):
    """Knows a blackjack only when the ace comes first: a king then an ace is a plain 21."""

    def is_blackjack(self, cards: Sequence[str]) -> bool:
        """An ace first, then a ten-valued card."""
        return len(cards) == 2 and rank(cards[0]) == "A" and rank(cards[1]) in TEN_VALUED


class ZeroStakeAccepted(DemoEngine):
    """Takes a stake of 0 or less: the minimum is checked only on positive stakes."""

    def check_stakes(
        self, seat: int, balance: int, stakes: Sequence[tuple[str, int]], limits: tuple[int, int]
    ) -> None:
        """Stakes of 0 or less are let through before the limits are read."""
        positive = [(bet, stake) for bet, stake in stakes if stake > 0]
        if positive:
            super().check_stakes(seat, balance, positive, limits)


class MaxBetNotEnforced(DemoEngine):
    """Reads the table minimum but never the maximum."""

    def check_stakes(
        self, seat: int, balance: int, stakes: Sequence[tuple[str, int]], limits: tuple[int, int]
    ) -> None:
        """The maximum is taken as unlimited."""
        super().check_stakes(seat, balance, stakes, (limits[0], 10**15))


class CurrencyCodeNotChecked(DemoEngine):
    """Takes any text as the round's currency code."""

    def valid_currency(self, code: str) -> bool:
        """Every code is fine."""
        del code
        return True


class CurrencyCodeShapeOnly(DemoEngine):
    """Takes any three capital letters as a currency code, listed by ISO 4217 or not."""

    def valid_currency(self, code: str) -> bool:
        """'XYZ' is fine."""
        return len(code) == 3 and code.isascii() and code.isupper()


class BoxOverBalanceAccepted(DemoEngine):
    """Deals a blackjack box whose stake is more than the seat's balance."""

    def check_stakes(
        self, seat: int, balance: int, stakes: Sequence[tuple[str, int]], limits: tuple[int, int]
    ) -> None:
        """A blackjack box is checked against the limits alone."""
        if [bet for bet, _ in stakes] == ["box"]:
            balance = max(balance, sum(stake for _, stake in stakes))
        super().check_stakes(seat, balance, stakes, limits)


class ShoeNotChecked(DemoEngine):
    """Deals from any shoe, whatever the number of copies of a card."""

    def check_shoe(self, shoe: Sequence[str], decks: int) -> None:
        """No composition check."""
        del shoe, decks


class RoundsUp(DemoEngine):
    """Rounds a fractional payout up, in the player's favour."""

    def round_money(self, exact: Fraction) -> int:
        """Up to the next minor unit."""
        return math.ceil(exact)


# --- baccarat -------------------------------------------------------------------------------


class CommissionOnReturn(DemoEngine):
    """Takes the 5% banker commission off the whole amount returned (stake and win): 190, not 195."""

    def banker_returns(self, rules: BaccaratRules, stake: int) -> int:
        """The gross return, stake and 1:1 win, less 5% of it."""
        gross = stake + stake * rules.banker_payout
        return self.round_money(gross * (1 - rules.banker_commission))


class CommissionOnTie(DemoEngine):
    """Charges the banker commission on a banker bet that pushes on a tie: 95 back, not 100."""

    def bet_returns(self, rules: BaccaratRules, kind: str, stake: int, outcome: str) -> int:
        """A tie gives the banker bet its stake back less 5%."""
        returned = super().bet_returns(rules, kind, stake, outcome)
        if kind == "banker" and outcome == "tie" and returned:
            return self.round_money(stake * (1 - rules.banker_commission))
        return returned


class TenCountsTen(DemoEngine):
    """Reads a ten or a picture as the player's third card as 10 in the tableau, not 0."""

    def tableau_value(self, card: str) -> int:
        """Ten-valued cards read 10 (the card's blackjack value)."""
        return 10 if rank(card) in TEN_VALUED else super().tableau_value(card)


class BankerNaturalIgnored(DemoEngine):
    """Stops the coup on a player natural only: a banker natural does not stop the player's draw."""

    def naturals_stop(self, player_total: int, banker_total: int) -> bool:
        """The naturals check looks at the player's hand alone."""
        del banker_total
        return self.is_natural(player_total)


class PlayerDealtFirst(DemoEngine):
    """Deals the player's two cards, then the banker's two: P, P, B, B instead of P, B, P, B."""

    def deal_pairs(self, shoe: Shoe) -> tuple[list[str], list[str]]:
        """The player's pair first, then the banker's."""
        player = [shoe.draw(), shoe.draw()]
        return player, [shoe.draw(), shoe.draw()]


class BankerDrawsFourth(DemoEngine):
    """Lets a banker still on 0 to 2 after its third card draw a fourth."""

    def play_coup(self, rules: BaccaratRules, shoe: Shoe) -> tuple[list[str], list[str]]:
        """The usual coup, then one more banker card while its total is 2 or less."""
        player, banker = super().play_coup(rules, shoe)
        if len(banker) == 3 and self.coup_total(banker) <= 2:
            banker.append(shoe.draw())
        return player, banker


class TotalsNotModuloTen(DemoEngine):
    """Takes 10 off a baccarat total once instead of keeping it modulo 10 (9+9+9 is 17)."""

    def coup_total(self, cards: Sequence[str]) -> int:
        """Points, less 10 once if they reach 10."""
        points = sum(self.baccarat_value(card) for card in cards)
        return points - 10 if points >= 10 else points


class PlayerDrawsOnSix(DemoEngine):
    """Lets the player draw on 6 too."""

    def player_draws(self, total: int) -> bool:
        """0 to 6 draw."""
        return total <= 6


class TieGoesToBanker(DemoEngine):
    """Gives equal values to the banker instead of calling a tie."""

    def coup_outcome(self, player_total: int, banker_total: int) -> str:
        """The banker wins ties."""
        return "player" if player_total > banker_total else "banker"


class PlayerPaysLessCommission(DemoEngine):
    """Takes the banker's 5% commission off winning player bets too."""

    def bet_returns(self, rules: BaccaratRules, kind: str, stake: int, outcome: str) -> int:
        """A winning player bet is paid like a banker bet."""
        if kind == "player" and outcome == "player":
            return self.banker_returns(rules, stake)
        return super().bet_returns(rules, kind, stake, outcome)


# --- roulette -------------------------------------------------------------------------------


class AnySplit(DemoEngine):
    """Accepts any two pockets as a split, adjacent or not (1-5 is taken)."""

    def is_shape(self, rules: RouletteRules, kind: str, cover: Shape) -> bool:
        """Splits are not checked against the layout."""
        return kind == "split" or super().is_shape(rules, kind, cover)


class NoZeroThreeSplit(DemoEngine):
    """Builds the European zero splits as 0-1 and 0-2 only, like the American layout: 0-3 is refused."""

    def is_shape(self, rules: RouletteRules, kind: str, cover: Shape) -> bool:
        """The 0-3 split is missing from the layout."""
        if rules.wheel == "european" and kind == "split" and cover == frozenset({"0", "3"}):
            return False
        return cover in layout(rules.wheel)[kind]


class AnyFourIsACorner(DemoEngine):
    """Takes any four numbers of the grid as a corner."""

    def is_shape(self, rules: RouletteRules, kind: str, cover: Shape) -> bool:
        """Corners are not checked against the layout."""
        return kind == "corner" or super().is_shape(rules, kind, cover)


class AnyTwoRowsAreALine(DemoEngine):
    """Takes any two rows as a line, adjacent or not."""

    def is_shape(self, rules: RouletteRules, kind: str, cover: Shape) -> bool:
        """A line is two whole rows, wherever they are."""
        if kind == "line":
            rows = {(int(p) - 1) // 3 for p in cover if p.isdigit() and p != "0"}
            whole = all({str(3 * r + 1), str(3 * r + 2), str(3 * r + 3)} <= cover for r in rows)
            return len(rows) == 2 and whole
        return super().is_shape(rules, kind, cover)


class RunOfThreeIsAStreet(DemoEngine):
    """Takes any three consecutive numbers as a street, across rows too (2-3-4)."""

    def is_shape(self, rules: RouletteRules, kind: str, cover: Shape) -> bool:
        """A street is a run of three numbers."""
        numbers = sorted(int(p) for p in cover if p.isdigit())
        run = (
            len(numbers) == 3
            and numbers[0] > 0
            and numbers == list(range(numbers[0], numbers[0] + 3))
        )
        return (kind == "street" and run) or super().is_shape(rules, kind, cover)


class AmericanZeroThreeSplit(DemoEngine):
    """Builds the American zero splits from the European ones: 0-3 is taken there too."""

    def is_shape(self, rules: RouletteRules, kind: str, cover: Shape) -> bool:
        """0-3 is a split on every wheel."""
        return (kind == "split" and cover == frozenset({"0", "3"})) or super().is_shape(
            rules, kind, cover
        )


class DoubleZeroIsZero(DemoEngine):
    """Reads 00 as 0 when paying: a straight on 0 wins when 00 comes up."""

    def roulette_bet_returns(
        self, rules: RouletteRules, bet: BetInput, cover: Shape, pocket: str
    ) -> int:
        """00 pays the bets on 0."""
        return super().roulette_bet_returns(rules, bet, cover, "0" if pocket == "00" else pocket)


class DoubleZeroHalfBack(DemoEngine):
    """Returns half an even-money bet on 00 (the single zero alone makes them lose)."""

    def roulette_bet_returns(
        self, rules: RouletteRules, bet: BetInput, cover: Shape, pocket: str
    ) -> int:
        """Half back on 00 for red/black, even/odd, low/high."""
        if pocket == "00" and bet.kind in EVEN_CHANCES:
            return self.half_stake(bet.stake)
        return super().roulette_bet_returns(rules, bet, cover, pocket)


class HoleCardTurnedForABlackjack(DemoEngine):
    """Turns the hole card as soon as a blackjack is settled at the peek, while others play.

    The "at once" misreading: with several seats, a blackjack against a ten or an ace is
    paid after the peek, and the engine shows the hole card then, not when the round ends.
    """

    def close_offers(self, game: BlackjackRound) -> None:
        """After the peek, a blackjack at a table where a seat still plays turns the card."""
        super().close_offers(game)
        hands = [box.hands[0].status for box in game.boxes]
        if game.peeked and "blackjack" in hands and "playing" in hands:
            game.hole_shown = True


# --- lab profiles' variants (issue 24) ------------------------------------------------------


class PrisonPaysWinnings(DemoEngine):
    """An imprisoned bet that wins is paid 1:1 on its stake (VAR.rou.en-prison: stake back only)."""

    def __init__(self) -> None:
        super().__init__({**HOUSE_RULES, **LAB_TABLES})

    def release(self, prisoner: Imprisoned, pocket: str) -> Line:
        """The stake back, and as much again, for an imprisoned bet that wins."""
        line = super().release(prisoner, pocket)
        if line.returned:
            line.returned = 2 * prisoner.stake
        return line


# --- blackjack variants of the lab profiles in docs/examples (LAB_MUTANTS) ---------------------


class DoubleForLessDoublesFull(DemoEngine):
    """Takes a double for less as a full double: the amount the player chose is ignored."""

    def __init__(self) -> None:
        super().__init__({**HOUSE_RULES, **LAB_TABLES})

    def chosen_stake(self, game: BlackjackRound, decision: DecisionInput, legal: list[str]) -> int:
        """A double's extra stake is always the hand's stake."""
        stake = super().chosen_stake(game, decision, legal)
        if decision.kind == "double" and game.turn is not None:
            seat, index = game.turn
            return game.boxes[seat].hands[index].stake
        return stake


class InsuranceForLessInsuresHalf(DemoEngine):
    """Takes insurance for less as insurance for half the stake: the amount chosen is ignored."""

    def __init__(self) -> None:
        super().__init__({**HOUSE_RULES, **LAB_TABLES})

    def chosen_stake(self, game: BlackjackRound, decision: DecisionInput, legal: list[str]) -> int:
        """An insurance stake is always half the bet."""
        stake = super().chosen_stake(game, decision, legal)
        if decision.kind == "insurance" and game.turn is not None:
            return self.half_stake(game.boxes[game.turn[0]].bet)
        return stake


# --- the clause of a difference (issue 22, item 3) ------------------------------------------


class UnplayedHandsStandAtThePeek(DemoEngine):
    """A dealer blackjack found at the peek marks the hands never played as stood."""

    def close_offers(self, game: BlackjackRound) -> None:
        """The peek as it should be; then the hands it leaves unplayed are marked stood."""
        super().close_offers(game)
        if game.phase == "complete" and game.peeked:
            for box in game.boxes:
                for hand in box.hands:
                    if hand.status == "playing":
                        hand.status = "stood"


class DoubleNeedsTwiceTheFunds(DemoEngine):
    """Checks a double's funds against the doubled stake, not the extra one."""

    def can_double(self, game: BlackjackRound, box: Box, hand: Hand) -> bool:
        """As the house says, and the seat's free funds must cover twice the hand's stake."""
        return super().can_double(game, box, hand) and self.can_afford(box, 2 * hand.stake)


class InsuranceOnEvenStakesOnly(DemoEngine):
    """Offers insurance only where half the stake is a whole amount: an odd stake gets none."""

    def offers(self, game: BlackjackRound, seat: int) -> list[str]:
        """No insurance offer on an odd stake (half of it would be rounded)."""
        made = super().offers(game, seat)
        if "insurance" in made and game.boxes[seat].bet % 2:
            return []
        return made


class DealerNeededByTheFirstSeat(DemoEngine):
    """Asks only the first seat whether a hand waits for the dealer."""

    def dealer_needed(self, game: BlackjackRound) -> bool:
        """Whether a hand of seat 0 stood: the other seats' hands are not looked at."""
        return any(hand.status == "stood" for hand in game.boxes[0].hands)


# --- what the corpus never asked (issue 22) ---------------------------------------------------


class DecisionAfterTheEnd(DemoEngine):
    """Answers a decision to a complete round with the round as it is, instead of refusing it."""

    def decide(self, game: Any, decision: DecisionInput) -> Any:
        """A complete round takes the decision and changes nothing."""
        if self.view(game).phase == "complete":
            return game
        return super().decide(game, decision)


class RefusedDoubleKeepsItsCard(DemoEngine):
    """Deals the card of a double before checking that the double is legal.

    Served by a kit that applies a Decide to the round itself (``kits.DecidesInPlace``), a
    refused double leaves its card in the hand: the round does not go on as it was.
    """

    def decide_blackjack(self, game: BlackjackRound, decision: DecisionInput) -> BlackjackRound:
        """A double's card first, the legality check after."""
        turn = game.turn
        refused = decision.kind not in self.legal_decisions(game)
        if decision.kind == "double" and turn is not None and refused:
            game.boxes[turn[0]].hands[turn[1]].cards.append(game.shoe.draw())
        return super().decide_blackjack(game, decision)


class CommissionInFloats(DemoEngine):
    """Works the banker's commission out in floating point on major units, then rounds down.

    60 is 0.60; 0.60 x 0.95 x 100 is 56.99999999999999, not 57: a banker bet of 60 returns 116.
    """

    def banker_returns(self, rules: BaccaratRules, stake: int) -> int:
        """The win in floats on the amount in major units (hundredths), rounded down."""
        odds = float(rules.banker_payout * (1 - rules.banker_commission))
        return stake + math.floor(stake / 100 * odds * 100)


class BoardsSharedAcrossProfiles(DemoEngine):
    """Keeps one board per table id, whatever the profile: two profiles' spins mix."""

    def board_of(self, request: DealInput) -> str:
        """The table id alone."""
        return request.table_id
