"""Hand-computed blackjack tests, clause by clause (RULES.md "Blackjack").

Every expected figure below is worked out by hand from RULES.md and the
worked examples of documents A and C, never copied from a run of the code.
Each test names the clause it proves; a shoe is written in contract order
(BJ.deal-order): first card to each seat, dealer up card, second card to each
seat, dealer hole card, then every draw as it happens.

Amounts are "returned" figures: stake included, as the documents state them
(A1: stake 100, blackjack, "reçoit 250").
"""

# Test names carry RULES.md clause IDs as written (A.insurance -> test_A_insurance_...).
# ruff: noqa: N802

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import pytest

from croupier.oracle.blackjack import (
    Action,
    BlackjackRules,
    BlackjackSeat,
    BlackjackState,
    Dealer,
    Decision,
    Hand,
    HandStatus,
    Turn,
    deal,
    decide,
    hand_total,
    is_two_card_21,
    options,
    settle,
)
from croupier.oracle.cards import parse_cards
from croupier.oracle.errors import (
    BetOutOfLimitsError,
    IllegalDecisionError,
    InsufficientBalanceError,
    InvalidRoundError,
    RoundNotCompleteError,
    ShoeExhaustedError,
    ShoeNotInProfileError,
)
from croupier.oracle.money import Rounding
from croupier.oracle.profile import load_profile_text, shipped_profile
from croupier.oracle.settlement import SettlementLine

RULES_A = BlackjackRules.from_profile(shipped_profile("blackjack-a"))
RULES_C = BlackjackRules.from_profile(shipped_profile("blackjack-c"))
LAB_H17 = BlackjackRules.from_profile(
    load_profile_text(
        'id = "lab"\nextends = "blackjack-c"\ntitle = "t"\n'
        "[parameters]\ndealer_hits_soft_17 = { value = true }\n"
    )
)
PROFILES = {"A": RULES_A, "C": RULES_C}

HIT, STAND, DOUBLE, SPLIT = Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT
SURRENDER, INSURANCE, NO_INSURANCE = Action.SURRENDER, Action.INSURANCE, Action.DECLINE_INSURANCE
EVEN_MONEY, NO_EVEN_MONEY = Action.EVEN_MONEY, Action.DECLINE_EVEN_MONEY


# --- helpers ---------------------------------------------------------------------------


def seat(stake: int = 100, balance: int = 1000) -> BlackjackSeat:
    return BlackjackSeat(balance=balance, stake=stake)


def start(rules: BlackjackRules, shoe: str, *seats: BlackjackSeat) -> BlackjackState:
    """Deal a round from a forced shoe; one seat staking 100 of 1000 unless told."""
    return deal(rules, parse_cards(shoe), list(seats) or [seat()])


def play(state: BlackjackState, *actions: Action) -> BlackjackState:
    """Apply each action to whichever seat and hand the round waits for."""
    for action in actions:
        turn = state.turn
        assert turn is not None, f"the round is complete; cannot {action.value}"
        state = decide(state, Decision(seat=turn.seat, hand=turn.hand, action=action))
    return state


def line(state: BlackjackState, seat_index: int, bet: str) -> SettlementLine:
    assert state.complete
    matches = [ln for ln in state.settlement if (ln.seat, ln.bet) == (seat_index, bet)]
    assert len(matches) == 1, state.settlement
    return matches[0]


def returned(state: BlackjackState) -> dict[tuple[int, str], int]:
    """Every settlement line's rounded return, keyed by (seat, bet)."""
    assert state.complete
    return {(ln.seat, ln.bet): ln.payout.returned for ln in state.settlement}


def legal(state: BlackjackState) -> set[Action]:
    return set(state.legal)


def committed(state: BlackjackState) -> int:
    return sum(h.stake for s in state.seats for h in s.hands) + sum(
        s.insurance for s in state.seats
    )


# --- BJ.values -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "total", "soft"),
    [
        pytest.param("2S 3H", 5, False, id="BJ.values-2+3"),
        pytest.param("KD 7C", 17, False, id="BJ.values-K-counts-10"),
        pytest.param("JH QS", 20, False, id="BJ.values-J+Q"),
        pytest.param("TD 9C", 19, False, id="BJ.values-ten"),
        pytest.param("AS 6H", 17, True, id="BJ.values-A6-soft-17"),
        pytest.param("AS 6H TD", 17, False, id="BJ.values-A6+10-hard-17"),
        pytest.param("AS AH", 12, True, id="BJ.values-AA-soft-12"),
        pytest.param("AS AH 9C", 21, True, id="BJ.values-AA9-soft-21"),
        pytest.param("AS AH AD 8C", 21, True, id="BJ.values-AAA8-21"),
        pytest.param("AS 5H AD", 17, True, id="BJ.values-A5A-soft-17"),
        pytest.param("AS AH AD AC 7S", 21, True, id="BJ.values-four-aces-7"),
        pytest.param("AS 9H 5C", 15, False, id="BJ.values-ace-falls-to-1"),
        pytest.param("9S 8H 5C", 22, False, id="BJ.values-22"),
    ],
)
def test_BJ_values_hand_total(cards: str, total: int, soft: bool) -> None:
    # Ace 11 unless that passes 21: A+A+9 = 11+1+9; A+A+A+8 = 11+1+1+8; A+6+10 = 1+6+10.
    assert hand_total(parse_cards(cards)) == (total, soft)


def test_BJ_values_A_A_9_in_play_is_soft_21_not_a_blackjack() -> None:
    # Seat AS AH (soft 12), dealer 7D + TC = 17. Hit 9C: 11 + 1 + 9 = 21, soft.
    state = start(RULES_A, "AS 7D AH TC 9C")
    state = play(state, HIT)
    hand = state.seats[0].hands[0]
    assert hand.cards == parse_cards("AS AH 9C")
    assert (hand.total, hand.soft) == (21, True)
    # 21 beats 17 at 1:1 (a three-card 21 is not a blackjack): 100 + 100.
    assert returned(state) == {(0, "hand 0"): 200}


def test_BJ_values_A_A_A_8_in_play_is_21() -> None:
    # Seat AS AH, dealer 9D + 8C = 17. Hit AD: 1+1+1+10 = 13 soft; hit 8H: 3 + 8 + 10 = 21.
    state = start(RULES_C, "AS 9D AH 8C AD 8H")
    state = play(state, HIT)
    assert (state.seats[0].hands[0].total, state.seats[0].hands[0].soft) == (13, True)
    state = play(state, HIT)
    assert state.seats[0].hands[0].total == 21
    assert returned(state) == {(0, "hand 0"): 200}


def test_BJ_values_A_6_then_10_is_hard_17() -> None:
    # AS 6H is soft 17; a ten makes the ace count 1: 1 + 6 + 10 = 17, hard.
    # Dealer 9D + 9C = 18.
    state = start(RULES_A, "AS 9D 6H 9C TD")
    assert (state.seats[0].hands[0].total, state.seats[0].hands[0].soft) == (17, True)
    state = play(state, HIT)
    hand = state.seats[0].hands[0]
    assert (hand.total, hand.soft) == (17, False)
    assert legal(state) == {HIT, STAND}  # 17 < 21: the hand goes on
    state = play(state, STAND)
    assert returned(state) == {(0, "hand 0"): 0}  # 17 < 18


# --- BJ.deal, BJ.deal-order ------------------------------------------------------------


@pytest.mark.parametrize("pid", ["A", "C"])
def test_BJ_deal_two_face_up_cards_and_a_hidden_hole_card(pid: str) -> None:
    state = start(PROFILES[pid], "9S 7D 8H KC")
    assert state.seats[0].hands[0].cards == parse_cards("9S 8H")
    assert state.seats[0].hands[0].stake == 100
    assert state.dealer.up == parse_cards("7D")[0]
    assert state.dealer.hole == parse_cards("KC")[0]
    assert state.dealer.visible == parse_cards("7D")
    assert state.position == 4
    assert state.turn == Turn(seat=0, hand=0)


def test_BJ_deal_order_two_seats() -> None:
    # seat0 c1, seat1 c1, up, seat0 c2, seat1 c2, hole; then seat 0's draws, seat 1's, dealer's.
    state = start(RULES_C, "2S 3S 4S 5S 6S 7S 8S 9S TS", seat(), seat())
    assert state.seats[0].hands[0].cards == parse_cards("2S 5S")
    assert state.seats[1].hands[0].cards == parse_cards("3S 6S")
    assert state.dealer.up == parse_cards("4S")[0]
    assert state.dealer.hole == parse_cards("7S")[0]
    assert state.turn == Turn(seat=0, hand=0)
    state = play(state, HIT, STAND)  # seat 0: 2+5+8 = 15
    assert state.turn == Turn(seat=1, hand=0)
    state = play(state, HIT, STAND)  # seat 1: 3+6+9 = 18
    # Dealer 4+7 = 11, draws TS: 21.
    assert state.seats[0].hands[0].cards == parse_cards("2S 5S 8S")
    assert state.seats[1].hands[0].cards == parse_cards("3S 6S 9S")
    assert state.dealer.cards == parse_cards("4S 7S TS")
    assert returned(state) == {(0, "hand 0"): 0, (1, "hand 0"): 0}


@pytest.mark.parametrize("pid", ["A", "C"])
def test_BJ_deal_order_split_hand_gets_its_second_card_when_it_starts(pid: str) -> None:
    # Seat 8S 8H, dealer 6D + TC = 16. Then 3C, 9D, 2C, KH.
    state = start(PROFILES[pid], "8S 6D 8H TC 3C 9D 2C KH")
    state = play(state, SPLIT)
    hands = state.seats[0].hands
    assert hands[0].cards == parse_cards("8S 3C")  # the first hand gets the next card now
    assert hands[1].cards == parse_cards("8H")  # the second hand waits
    assert state.position == 5
    assert state.turn == Turn(seat=0, hand=0)
    state = play(state, HIT)  # 8 + 3 + 9 = 20
    assert state.seats[0].hands[1].cards == parse_cards("8H")
    state = play(state, STAND)
    hands = state.seats[0].hands
    assert hands[0].cards == parse_cards("8S 3C 9D")
    assert hands[1].cards == parse_cards("8H 2C")  # dealt only once hand 0 is finished
    assert state.position == 7
    assert state.turn == Turn(seat=0, hand=1)
    state = play(state, STAND)  # hand 1 stands on 10
    # Dealer 16 draws KH: 26, bust; both live hands win 1:1.
    assert state.dealer.cards == parse_cards("6D TC KH")
    assert returned(state) == {(0, "hand 0"): 200, (0, "hand 1"): 200}


def test_BJ_deal_order_split_then_next_seat() -> None:
    # seat0 8S 8H, seat1 TS 7C = 17, dealer 6D + TC = 16.
    # Draws: seat 0 hand 0's second card 2C (10), its hit 9D (19); hand 1's second card 3C
    # (11), its hit KC (21, stands); seat 1's hit 4H (21); the dealer's draw 5S (21).
    state = start(RULES_A, "8S TS 6D 8H 7C TC 2C 9D 3C KC 4H 5S", seat(), seat())
    state = play(state, SPLIT, HIT, STAND, HIT)
    assert state.seats[0].hands[0].cards == parse_cards("8S 2C 9D")
    assert state.seats[0].hands[1].cards == parse_cards("8H 3C KC")
    assert state.turn == Turn(seat=1, hand=0)
    state = play(state, HIT)
    assert state.seats[1].hands[0].cards == parse_cards("TS 7C 4H")
    assert state.dealer.cards == parse_cards("6D TC 5S")
    # 19 < 21 lost; 21 = 21 push; 21 = 21 push.
    assert returned(state) == {(0, "hand 0"): 0, (0, "hand 1"): 100, (1, "hand 0"): 100}


# --- BJ.bust ---------------------------------------------------------------------------


def test_BJ_bust_loses_even_when_the_dealer_busts_later() -> None:
    # seat0 TS 5C = 15, seat1 9H 8C = 17, dealer 6D + TH = 16.
    state = start(RULES_A, "TS 9H 6D 5C 8C TH KD 9S", seat(), seat())
    state = play(state, HIT)  # seat 0 draws KD: 25
    assert state.seats[0].hands[0].status is HandStatus.BUST
    assert state.turn == Turn(seat=1, hand=0)  # the bust hand is finished at once
    state = play(state, STAND)
    # Dealer 16 draws 9S: 25, bust. Seat 1 wins 1:1; seat 0 had already lost.
    assert state.dealer.cards == parse_cards("6D TH 9S")
    assert returned(state) == {(0, "hand 0"): 0, (1, "hand 0"): 200}
    assert "BJ.bust" in line(state, 0, "hand 0").clauses


# --- BJ.auto-stand ---------------------------------------------------------------------


def test_BJ_auto_stand_a_hand_reaching_21_gets_no_more_decisions() -> None:
    # seat0 7S 4H = 11, seat1 9H 8C = 17, dealer 9D + 8D = 17.
    state = start(RULES_A, "7S 9H 9D 4H 8C 8D TC", seat(), seat())
    state = play(state, HIT)  # seat 0 draws TC: 21
    assert state.seats[0].hands[0].total == 21
    assert state.turn == Turn(seat=1, hand=0)
    state = play(state, STAND)
    assert returned(state) == {(0, "hand 0"): 200, (1, "hand 0"): 100}  # 21 > 17; 17 = 17


def test_BJ_auto_stand_single_hand_reaching_21_ends_the_round() -> None:
    state = start(RULES_C, "7S 9D 4H 8C TC")
    state = play(state, HIT)  # 7 + 4 + 10 = 21
    assert state.complete
    assert state.legal == ()
    assert returned(state) == {(0, "hand 0"): 200}  # 21 > 9 + 8


def test_BJ_auto_stand_a_blackjack_has_no_decisions() -> None:
    # seat0 AS KH blackjack, seat1 9H 8C = 17, dealer 7D + TD = 17.
    state = start(RULES_C, "AS 9H 7D KH 8C TD", seat(), seat())
    assert state.turn == Turn(seat=1, hand=0)  # seat 0 is skipped
    state = play(state, STAND)
    assert returned(state) == {(0, "hand 0"): 250, (1, "hand 0"): 100}


# --- BJ.dealer-needed ------------------------------------------------------------------


@pytest.mark.parametrize("pid", ["A", "C"])
def test_BJ_dealer_needed_no_draw_when_every_hand_busted(pid: str) -> None:
    # Seat TS 6H = 16, dealer 6D + TC = 16 (would draw if needed).
    state = start(PROFILES[pid], "TS 6D 6H TC 9C 2S 3S")
    state = play(state, HIT)  # 16 + 9 = 25
    assert state.complete
    assert state.dealer.draws == ()
    assert state.dealer.visible == parse_cards("6D TC")  # the hole card is turned
    assert state.position == 5
    assert state.shoe[state.position :] == parse_cards("2S 3S")  # unused cards stay
    assert returned(state) == {(0, "hand 0"): 0}


def test_BJ_dealer_needed_no_draw_when_every_hand_surrendered() -> None:
    state = start(RULES_C, "TS 6D 6H TC 2S")
    state = play(state, SURRENDER)
    assert state.dealer.draws == ()
    assert state.position == 4
    assert returned(state) == {(0, "hand 0"): 50}


def test_BJ_dealer_needed_a_blackjack_needs_only_the_hole_card() -> None:
    # C: blackjack against 7D; dealer 7D + 5C = 12 would draw, but nothing waits for a total.
    state = start(RULES_C, "AS 7D KH 5C 9S")
    assert state.complete
    assert state.dealer.cards == parse_cards("7D 5C")
    assert state.dealer.visible == parse_cards("7D 5C")  # turned: C never pays before the hole card
    assert state.position == 4
    assert returned(state) == {(0, "hand 0"): 250}


def test_BJ_dealer_needed_no_draw_after_even_money() -> None:
    # A: blackjack against AD; dealer AD + 5C = soft 16 would draw.
    state = start(RULES_A, "AS AD KH 5C 9S")
    state = play(state, EVEN_MONEY)
    assert state.complete
    assert state.dealer.draws == ()
    assert state.position == 4
    assert returned(state) == {(0, "hand 0"): 200}


# --- BJ.half-stakes --------------------------------------------------------------------


def test_BJ_half_stakes_insurance_on_odd_stake_15_is_7() -> None:
    # 15 / 2 = 7.5, rounded down: 7. Dealer AD + KC blackjack: insurance 7 at 2:1 = 7 + 14.
    state = start(RULES_A, "9S AD 7H KC", seat(stake=15))
    state = play(state, INSURANCE)
    assert state.seats[0].insurance == 7
    ins = line(state, 0, "insurance").payout
    assert (ins.stake, ins.returned_exact, ins.returned) == (7, Fraction(21), 21)
    main = line(state, 0, "hand 0").payout
    assert (main.stake, main.returned) == (15, 0)


def test_BJ_half_stakes_insurance_rounds_an_odd_stake_up_where_the_profile_says() -> None:
    # 15 / 2 = 7.5, rounded up: 8; 16 / 2 = 8 exactly. Dealer AD + KC blackjack: insurance 8
    # at 2:1 = 8 + 16. The stake is whole minor units, an int (no float near money).
    rules = dataclasses.replace(RULES_A, half_stake_rounding=Rounding.UP)
    for stake in (15, 16):
        state = play(start(rules, "9S AD 7H KC", seat(stake=stake)), INSURANCE)
        insurance = state.seats[0].insurance
        assert (insurance, type(insurance)) == (8, int)
        ins = line(state, 0, "insurance").payout
        assert (ins.stake, ins.returned) == (8, 24)


def test_BJ_half_stakes_surrender_on_odd_stake_15_returns_7() -> None:
    state = start(RULES_C, "TS 6D 6H 9C", seat(stake=15))
    state = play(state, SURRENDER)
    payout = line(state, 0, "hand 0").payout
    # 15 / 2 = 7.5 exact, 7 rounded down.
    assert (payout.stake, payout.returned_exact, payout.returned) == (15, Fraction(15, 2), 7)


# --- BJ.natural ------------------------------------------------------------------------


@pytest.mark.parametrize("pid", ["A", "C"])
def test_BJ_natural_ten_first_then_ace_is_a_blackjack(pid: str) -> None:
    state = start(PROFILES[pid], "QS 7D AH 9C")
    assert state.seats[0].hands[0].status is HandStatus.BLACKJACK
    assert returned(state) == {(0, "hand 0"): 250}  # 100 + 100 * 3/2


def test_BJ_natural_three_card_21_is_not_a_blackjack_and_pushes_a_dealer_21() -> None:
    # Seat 7S 4H, hit KD: 21 in three cards. Dealer 9D + 5C = 14, draws 7H: 21.
    state = start(RULES_C, "7S 9D 4H 5C KD 7H")
    state = play(state, HIT)
    assert state.dealer.cards == parse_cards("9D 5C 7H")
    assert returned(state) == {(0, "hand 0"): 100}  # 21 = 21 push, not 250


def test_BJ_natural_dealer_three_card_21_does_not_tie_a_player_blackjack() -> None:
    # seat0 AS KH blackjack; seat1 9H TC = 19; dealer 6D + 5C = 11 draws TD: 21 (three cards).
    state = start(RULES_C, "AS 9H 6D KH TC 5C TD", seat(), seat())
    state = play(state, STAND)
    assert state.dealer.cards == parse_cards("6D 5C TD")
    assert returned(state) == {(0, "hand 0"): 250, (1, "hand 0"): 0}


@pytest.mark.parametrize("pid", ["A", "C"])
def test_BJ_natural_an_ace_the_dealer_draws_onto_11_makes_no_blackjack(pid: str) -> None:
    # Seat 7S 4H = 11, hits TD: 21 in three cards. Dealer 6D + 5C = 11 draws AS (12: the ace
    # counts 1, 11 would bust) then 9S: 21 in four cards, no blackjack. 21 against 21 pushes.
    state = play(start(PROFILES[pid], "7S 6D 4H 5C TD AS 9S"), HIT)
    if not state.complete:
        state = play(state, STAND)
    assert state.dealer.cards == parse_cards("6D 5C AS 9S")
    assert returned(state) == {(0, "hand 0"): 100}


# --- BJ.compare ------------------------------------------------------------------------


@pytest.mark.parametrize("pid", ["A", "C"])
@pytest.mark.parametrize(
    ("shoe", "expected"),
    [
        # Player TS 9H = 19 against dealer 9D + 8C = 17: wins 1:1.
        pytest.param("TS 9D 9H 8C", 200, id="BJ.compare-higher-wins"),
        # 17 against 17: push.
        pytest.param("TS 9D 7H 8C", 100, id="BJ.compare-equal-pushes"),
        # 16 against 17: lost.
        pytest.param("TS 9D 6H 8C", 0, id="BJ.compare-lower-loses"),
        # A's example: stake 100, the dealer busts (6D TC = 16, draws 8S: 24), player gets 200.
        pytest.param("TS 6D 2H TC 8S", 200, id="BJ.compare-dealer-bust-A-example-200"),
    ],
)
def test_BJ_compare(pid: str, shoe: str, expected: int) -> None:
    state = play(start(PROFILES[pid], shoe), STAND)
    assert returned(state) == {(0, "hand 0"): expected}


def test_BJ_compare_dealer_blackjack_beats_a_player_21_that_is_not_a_blackjack() -> None:
    # C, ten up (no peek): seat 7S 4H, hits KD: 21. Dealer TD + AC is a blackjack.
    state = start(RULES_C, "7S TD 4H AC KD")
    state = play(state, HIT)
    assert returned(state) == {(0, "hand 0"): 0}


# --- BJ.nat-pays -----------------------------------------------------------------------


def test_BJ_nat_pays_A1_blackjack_against_7_returns_250_hole_not_shown() -> None:
    # Example A1: stake 100, blackjack, dealer 7 up: 250 at once, hole card not shown.
    state = start(RULES_A, "AS 7D KH 9C")
    assert state.complete
    payout = line(state, 0, "hand 0").payout
    assert (payout.stake, payout.returned) == (100, 250)
    assert state.dealer.visible == parse_cards("7D")
    assert not state.dealer.hole_revealed


@pytest.mark.parametrize("pid", ["A", "C"])
def test_BJ_nat_pays_3_to_2_on_odd_stake_15_rounds_down(pid: str) -> None:
    # 15 + 15 * 3/2 = 37.5 exact; rounded down: 37.
    state = start(PROFILES[pid], "AS 7D KH 9C", seat(stake=15))
    payout = line(state, 0, "hand 0").payout
    assert (payout.stake, payout.returned_exact, payout.returned) == (15, Fraction(75, 2), 37)


@pytest.mark.parametrize("pid", ["A", "C"])
def test_BJ_nat_pays_push_against_a_dealer_blackjack(pid: str) -> None:
    state = start(PROFILES[pid], "AS TD KH AC")
    assert state.complete
    assert returned(state) == {(0, "hand 0"): 100}


# --- BJ.funds --------------------------------------------------------------------------


@pytest.mark.parametrize("pid", ["A", "C"])
@pytest.mark.parametrize(
    ("balance", "offered"),
    [
        pytest.param(150, False, id="BJ.funds-150-no-split-no-double"),
        pytest.param(199, False, id="BJ.funds-199-no-split-no-double"),
        pytest.param(200, True, id="BJ.funds-200-split-and-double"),
    ],
)
def test_BJ_funds_split_and_double_need_a_second_stake(
    pid: str, balance: int, offered: bool
) -> None:
    # Stake 100 committed; split or double needs 100 more of the uncommitted balance.
    state = start(PROFILES[pid], "8S 6D 8H TC", seat(stake=100, balance=balance))
    assert (SPLIT in legal(state)) is offered
    assert (DOUBLE in legal(state)) is offered
    assert {HIT, STAND} <= legal(state)


@pytest.mark.parametrize(
    ("balance", "offered"),
    [
        pytest.param(100, False, id="BJ.funds-insurance-100"),
        pytest.param(149, False, id="BJ.funds-insurance-149"),
        pytest.param(150, True, id="BJ.funds-insurance-150"),
    ],
)
@pytest.mark.parametrize("pid", ["A", "C"])
def test_BJ_funds_insurance_needs_half_a_stake_free(pid: str, balance: int, offered: bool) -> None:
    state = start(PROFILES[pid], "9S AD 7H 6C", seat(stake=100, balance=balance))
    assert (INSURANCE in legal(state)) is offered


@pytest.mark.parametrize(
    ("balance", "offered"),
    [
        pytest.param(249, False, id="BJ.funds-after-insurance-249"),
        pytest.param(250, True, id="BJ.funds-after-insurance-250"),
    ],
)
def test_BJ_funds_insurance_counts_as_committed(balance: int, offered: bool) -> None:
    # A (no restriction after insurance): 100 + 50 committed; split/double need 100 more.
    state = start(RULES_A, "8S AD 8H 6C", seat(stake=100, balance=balance))
    state = play(state, INSURANCE)  # dealer AD 6C: no blackjack, play goes on
    assert (SPLIT in legal(state)) is offered
    assert (DOUBLE in legal(state)) is offered


@pytest.mark.parametrize("pid", ["A", "C"])
@pytest.mark.parametrize(
    ("balance", "offered"),
    [
        pytest.param(250, False, id="BJ.funds-double-after-split-250"),
        pytest.param(300, True, id="BJ.funds-double-after-split-300"),
    ],
)
def test_BJ_funds_split_stake_counts_for_a_later_double(
    pid: str, balance: int, offered: bool
) -> None:
    # Split 5 5: 200 committed. Hand 0 gets 6C (11); doubling it needs 100 more.
    state = start(PROFILES[pid], "5S 6D 5H TC 6C", seat(stake=100, balance=balance))
    state = play(state, SPLIT)
    assert state.seats[0].hands[0].cards == parse_cards("5S 6C")
    assert (DOUBLE in legal(state)) is offered


# --- A.double / C.bj.double ------------------------------------------------------------


@pytest.mark.parametrize(
    "pid",
    [pytest.param("A", id="A.double"), pytest.param("C", id="C.bj.double")],
)
def test_double_doubles_the_stake_and_deals_exactly_one_card(pid: str) -> None:
    # 6S 5H = 11 against 6D + TC = 16. Double: one card 9C, 20, nothing more.
    state = start(PROFILES[pid], "6S 6D 5H TC 9C 7D")
    state = play(state, DOUBLE)
    assert state.complete
    hand = state.seats[0].hands[0]
    assert hand.cards == parse_cards("6S 5H 9C")
    assert hand.stake == 200
    # Dealer 16 draws 7D: 23, bust. 200 staked wins 1:1: 400.
    assert state.dealer.cards == parse_cards("6D TC 7D")
    assert returned(state) == {(0, "hand 0"): 400}


@pytest.mark.parametrize(
    "pid",
    [pytest.param("A", id="A.double"), pytest.param("C", id="C.bj.double")],
)
def test_double_bust_loses_both_stakes(pid: str) -> None:
    state = start(PROFILES[pid], "TS 6D 6H TC 9C")
    state = play(state, DOUBLE)  # 16 + 9 = 25
    payout = line(state, 0, "hand 0").payout
    assert (payout.stake, payout.returned) == (200, 0)


def test_A_double_on_a_soft_hand() -> None:
    # "N'importe quelle main": A7 may double.
    assert DOUBLE in legal(start(RULES_A, "AS 6D 7H TC"))


@pytest.mark.parametrize(
    "pid",
    [pytest.param("A", id="A.double"), pytest.param("C", id="C.bj.double")],
)
def test_double_only_on_the_first_two_cards(pid: str) -> None:
    state = start(PROFILES[pid], "2S 6D 3H TC 4C")
    assert DOUBLE in legal(state)
    state = play(state, HIT)  # 2 + 3 + 4 = 9 in three cards
    assert DOUBLE not in legal(state)
    assert {HIT, STAND} <= legal(state)


@pytest.mark.parametrize(
    "pid",
    [pytest.param("A", id="A.double"), pytest.param("C", id="C.bj.double")],
)
def test_double_after_split(pid: str) -> None:
    # 5S 5H against 6D + TC = 16. Split; hand 0 gets 6C (11): double, 4C: 15, no more cards.
    # Hand 1 then gets 9S: 14, stands. Dealer draws KS: 26, bust.
    state = start(PROFILES[pid], "5S 6D 5H TC 6C 4C 9S KS")
    state = play(state, SPLIT)
    assert DOUBLE in legal(state)
    state = play(state, DOUBLE)
    assert state.seats[0].hands[0].cards == parse_cards("5S 6C 4C")
    assert state.turn == Turn(seat=0, hand=1)
    assert state.seats[0].hands[1].cards == parse_cards("5H 9S")
    state = play(state, STAND)
    assert returned(state) == {(0, "hand 0"): 400, (0, "hand 1"): 200}


# --- A.split / C.bj.split --------------------------------------------------------------


@pytest.mark.parametrize(
    ("pair", "splits"),
    [
        pytest.param("JS QH", True, id="A.split-J-Q"),
        pytest.param("KS QH", True, id="A.split-K-Q"),
        pytest.param("JS KH", True, id="A.split-J-K"),
        pytest.param("TS TH", True, id="A.split-10-10"),
        pytest.param("AS AH", True, id="A.split-A-A"),
        pytest.param("2S 2H", True, id="A.split-2-2"),
        pytest.param("TS JH", False, id="A.split-10-J-refused"),
        pytest.param("KS TH", False, id="A.split-K-10-refused"),
        pytest.param("9S 8H", False, id="A.split-9-8-refused"),
    ],
)
def test_A_split_pairs(pair: str, splits: bool) -> None:
    first, second = pair.split()
    state = start(RULES_A, f"{first} 6D {second} 9C")
    assert (SPLIT in legal(state)) is splits


@pytest.mark.parametrize(
    ("pair", "splits"),
    [
        pytest.param("KS KH", True, id="C.bj.split-K-K"),
        pytest.param("TS TH", True, id="C.bj.split-10-10"),
        pytest.param("AS AH", True, id="C.bj.split-A-A"),
        pytest.param("KS QH", False, id="C.bj.split-K-Q-refused"),
        pytest.param("TS KH", False, id="C.bj.split-10-K-refused"),
        pytest.param("JS QH", False, id="C.bj.split-J-Q-refused"),
    ],
)
def test_C_bj_split_pairs_same_rank_only(pair: str, splits: bool) -> None:
    first, second = pair.split()
    state = start(RULES_C, f"{first} 6D {second} 9C")
    assert (SPLIT in legal(state)) is splits


@pytest.mark.parametrize(
    "pid",
    [pytest.param("A", id="A.split"), pytest.param("C", id="C.bj.split")],
)
def test_split_second_stake_equal_and_no_resplit(pid: str) -> None:
    state = start(PROFILES[pid], "8S 6D 8H TC 8C")
    state = play(state, SPLIT)
    hands = state.seats[0].hands
    assert [h.stake for h in hands] == [100, 100]
    assert hands[0].cards == parse_cards("8S 8C")  # a pair again
    assert SPLIT not in legal(state)  # two hands at most
    assert {HIT, STAND} <= legal(state)


@pytest.mark.parametrize(
    "pid",
    [pytest.param("A", id="A.split"), pytest.param("C", id="C.bj.split")],
)
def test_split_aces_may_hit(pid: str) -> None:
    # Split AS AH; hand 0 gets 5C: soft 16, and may take more cards.
    state = start(PROFILES[pid], "AS 6D AH TC 5C 3C")
    state = play(state, SPLIT)
    assert state.seats[0].hands[0].cards == parse_cards("AS 5C")
    assert HIT in legal(state)
    state = play(state, HIT)
    assert state.seats[0].hands[0].cards == parse_cards("AS 5C 3C")


@pytest.mark.parametrize(
    "pid",
    [pytest.param("A", id="A.split"), pytest.param("C", id="C.bj.split")],
)
def test_split_aces_21_is_plain_21_pushed_by_dealer_21(pid: str) -> None:
    # Split AS AH: hand 0 gets KH (21), hand 1 gets QH (21): no decisions on either.
    # Dealer 9D + 7C = 16 draws 5S: 21 in three cards. 21 = 21: both push (not 250 each).
    state = start(PROFILES[pid], "AS 9D AH 7C KH QH 5S")
    state = play(state, SPLIT)
    assert state.complete
    assert state.seats[0].hands[0].cards == parse_cards("AS KH")
    assert state.seats[0].hands[1].cards == parse_cards("AH QH")
    assert state.dealer.cards == parse_cards("9D 7C 5S")
    assert returned(state) == {(0, "hand 0"): 100, (0, "hand 1"): 100}


@pytest.mark.parametrize(
    "pid",
    [pytest.param("A", id="A.split"), pytest.param("C", id="C.bj.split")],
)
def test_split_aces_21_wins_only_1_to_1(pid: str) -> None:
    # Split AS AH: hand 0 gets KH (21, stands), hand 1 gets 9H (20), stands.
    # Dealer 9D + 9C = 18. 21 > 18 pays 1:1 (200, not 250); 20 > 18: 200.
    state = start(PROFILES[pid], "AS 9D AH 9C KH 9H")
    state = play(state, SPLIT)
    assert state.turn == Turn(seat=0, hand=1)  # hand 0 on 21 got no decision
    state = play(state, STAND)
    assert returned(state) == {(0, "hand 0"): 200, (0, "hand 1"): 200}


def test_C_bj_split_aces_21_beaten_by_a_dealer_blackjack() -> None:
    # C, ten up, no peek: split AS AH; hands get KH and QH (21 each). Dealer TD + AC: blackjack.
    # A dealer blackjack beats every 21 that is not a blackjack, and takes all stakes.
    state = start(RULES_C, "AS TD AH AC KH QH")
    state = play(state, SPLIT)
    assert returned(state) == {(0, "hand 0"): 0, (0, "hand 1"): 0}


# --- A.dealer-draw / C.bj.dealer-draw --------------------------------------------------


@pytest.mark.parametrize(
    "pid",
    [pytest.param("A", id="A.dealer-draw"), pytest.param("C", id="C.bj.dealer-draw")],
)
@pytest.mark.parametrize(
    ("shoe", "dealer", "expected"),
    [
        # Player TS 9H = 19 throughout.
        pytest.param("TS 6D 9H AC 5S", "6D AC", 200, id="soft-17-stands"),
        pytest.param("TS 2D 9H 4C AS 5S", "2D 4C AS", 200, id="three-card-soft-17-stands"),
        pytest.param("TS 7D 9H TC 5S", "7D TC", 200, id="hard-17-stands"),
        pytest.param("TS 6D 9H TC 5S", "6D TC 5S", 0, id="16-draws"),
        pytest.param("TS 6D 9H 5C 2S 6S", "6D 5C 2S 6S", 100, id="draws-until-17-or-more"),
    ],
)
def test_dealer_draw(pid: str, shoe: str, dealer: str, expected: int) -> None:
    # 6+A soft 17; 2+4+A soft 17; 6+T+5 = 21; 6+5 = 11, +2 = 13 (draws), +6 = 19: push.
    state = play(start(PROFILES[pid], shoe), STAND)
    assert state.dealer.cards == parse_cards(dealer)
    assert returned(state) == {(0, "hand 0"): expected}


@pytest.mark.parametrize(
    ("shoe", "dealer", "expected"),
    [
        # 6D AC soft 17 draws 3S: soft 20 beats the player's 19.
        pytest.param("TS 6D 9H AC 3S", "6D AC 3S", 0, id="lab-soft-17-hits"),
        # Hard 17 still stands.
        pytest.param("TS 7D 9H TC 3S", "7D TC", 200, id="lab-hard-17-stands"),
    ],
)
def test_C_bj_dealer_draw_lab_dealer_hits_soft_17(shoe: str, dealer: str, expected: int) -> None:
    state = play(start(LAB_H17, shoe), STAND)
    assert state.dealer.cards == parse_cards(dealer)
    assert returned(state) == {(0, "hand 0"): expected}


# --- A.peek ----------------------------------------------------------------------------


def test_A_peek_ace_up_offers_come_before_the_check() -> None:
    # Dealer AD + KC is a blackjack, yet the offer is made first.
    state = start(RULES_A, "9S AD 7H KC")
    assert not state.complete
    assert state.turn == Turn(seat=0, hand=0)
    assert legal(state) == {INSURANCE, NO_INSURANCE}
    assert state.dealer.visible == parse_cards("AD")
    state = play(state, NO_INSURANCE)
    assert state.complete
    assert state.dealer.visible == parse_cards("AD KC")
    assert returned(state) == {(0, "hand 0"): 0}


def test_A_peek_ten_up_dealer_blackjack_ends_round_single_stake_lost() -> None:
    # 6S 5H = 11 would double, but the peek under KD finds AC before any decision.
    state = start(RULES_A, "6S KD 5H AC 9C", seat(stake=100, balance=1000))
    assert state.complete
    assert state.position == 4
    assert state.dealer.visible == parse_cards("KD AC")
    payout = line(state, 0, "hand 0").payout
    assert (payout.stake, payout.returned) == (100, 0)  # only the single stake


def test_A_peek_ten_up_dealer_blackjack_blackjack_pushes() -> None:
    # seat0 AS KH blackjack, seat1 TS QH = 20; dealer KD + AC blackjack.
    state = start(RULES_A, "AS TS KD KH QH AC", seat(), seat())
    assert state.complete
    assert returned(state) == {(0, "hand 0"): 100, (1, "hand 0"): 0}


def test_A_peek_ten_up_no_dealer_blackjack_play_goes_on() -> None:
    state = start(RULES_A, "TS KD 8H 7C")
    assert not state.complete
    assert legal(state) == {HIT, STAND, DOUBLE}


def test_A_peek_ace_up_seat_by_seat_offers() -> None:
    # seat0 9S 7H = 16, seat1 AS KH blackjack; dealer AD + 6C (no blackjack).
    state = start(RULES_A, "9S AS AD 7H KH 6C", seat(), seat())
    assert state.turn == Turn(seat=0, hand=0)
    assert legal(state) == {INSURANCE, NO_INSURANCE}
    state = play(state, NO_INSURANCE)
    assert state.turn == Turn(seat=1, hand=0)
    assert legal(state) == {EVEN_MONEY, NO_EVEN_MONEY}
    state = play(state, NO_EVEN_MONEY)
    assert state.turn == Turn(seat=0, hand=0)
    assert legal(state) == {HIT, STAND, DOUBLE}
    state = play(state, STAND)  # dealer A6 soft 17 stands
    assert returned(state) == {(0, "hand 0"): 0, (1, "hand 0"): 250}


# --- A.nat-immediate -------------------------------------------------------------------


def test_A_nat_immediate_A1_paid_before_other_seats_play() -> None:
    # seat0 AS KH blackjack against 7D, seat1 9H 8C = 17 still to play.
    state = start(RULES_A, "AS 9H 7D KH 8C TD", seat(), seat())
    assert state.turn == Turn(seat=1, hand=0)
    paid = [st for st in state.steps if "A.nat-immediate" in st.clauses]
    assert len(paid) == 1
    assert state.dealer.visible == parse_cards("7D")
    state = play(state, STAND)  # dealer 7 + 10 = 17
    assert returned(state) == {(0, "hand 0"): 250, (1, "hand 0"): 100}


def test_A_nat_immediate_contrast_C_turns_the_hole_card() -> None:
    # Same deal as A1 under C: the blackjack waits for the hole card, then pays 250.
    state = start(RULES_C, "AS 7D KH 9C")
    assert not any("A.nat-immediate" in st.clauses for st in state.steps)
    assert state.dealer.visible == parse_cards("7D 9C")
    assert returned(state) == {(0, "hand 0"): 250}


# --- A.even-money ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hole", "action", "expected"),
    [
        pytest.param("9C", EVEN_MONEY, 200, id="A.even-money-A2-taken-200"),
        pytest.param("KC", EVEN_MONEY, 200, id="A.even-money-A2-taken-dealer-bj-200"),
        pytest.param("9C", NO_EVEN_MONEY, 250, id="A.even-money-A2-declined-no-dealer-bj-250"),
        pytest.param("KC", NO_EVEN_MONEY, 100, id="A.even-money-A2-declined-dealer-bj-100"),
    ],
)
def test_A_even_money_example_A2(hole: str, action: Action, expected: int) -> None:
    state = start(RULES_A, f"AS AD KH {hole}")
    assert legal(state) == {EVEN_MONEY, NO_EVEN_MONEY}  # no insurance offer to a blackjack
    state = play(state, action)
    assert state.complete
    assert returned(state) == {(0, "hand 0"): expected}


@pytest.mark.parametrize(
    ("action", "visible"),
    [
        # "... ou le croupier révèle sa deuxième carte": declining, the blackjack sees it turned.
        pytest.param(NO_EVEN_MONEY, "AD 9C", id="A.even-money-declined-hole-shown"),
        # Taking even money settles at once, instead of the reveal.
        pytest.param(EVEN_MONEY, "AD", id="A.even-money-taken-hole-not-shown"),
    ],
)
def test_A_even_money_hole_card(action: Action, visible: str) -> None:
    state = play(start(RULES_A, "AS AD KH 9C"), action)
    assert state.complete
    assert state.dealer.visible == parse_cards(visible)


# --- A.nat-vs-ten ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hole", "expected"),
    [
        pytest.param("9C", 250, id="A.nat-vs-ten-A3-no-dealer-bj-250"),
        pytest.param("AC", 100, id="A.nat-vs-ten-A3-dealer-bj-push-100"),
    ],
)
def test_A_nat_vs_ten_example_A3(hole: str, expected: int) -> None:
    state = start(RULES_A, f"AS TD KH {hole}")
    assert state.complete
    assert returned(state) == {(0, "hand 0"): expected}


def test_A_nat_vs_ten_A3_the_dealer_reveals_the_hole_card() -> None:
    # A.nat-vs-ten: "the dealer reveals" ("le croupier révèle sa deuxième carte"), unlike A1
    # where the blackjack is paid "sans que le croupier ne montre sa deuxième carte".
    state = start(RULES_A, "AS TD KH 9C")
    assert state.complete
    assert state.dealer.visible == parse_cards("TD 9C")


# --- A.insurance -----------------------------------------------------------------------


def test_A_insurance_example_A4_net_zero() -> None:
    # Stake 100, insurance 50; dealer AD + KC blackjack: main lost, insurance 50 + 2 * 50 = 150.
    state = start(RULES_A, "9S AD 7H KC")
    state = play(state, INSURANCE)
    assert state.complete
    ins = line(state, 0, "insurance").payout
    assert (ins.stake, ins.returned) == (50, 150)
    assert "A.insurance" in line(state, 0, "insurance").clauses
    main = line(state, 0, "hand 0").payout
    assert (main.stake, main.returned) == (100, 0)
    # 150 staked, 150 returned: "le joueur n'a donc rien perdu".
    assert sum(ln.payout.returned for ln in state.settlement) == 150
    assert sum(ln.payout.stake for ln in state.settlement) == 150


def test_A_insurance_lost_and_play_goes_on() -> None:
    # Dealer AD + 6C: no blackjack. Insurance lost; the 16 plays on (and may double: A does not
    # restrict play after insurance), stands; dealer soft 17 stands: 16 loses.
    state = start(RULES_A, "9S AD 7H 6C")
    state = play(state, INSURANCE)
    assert not state.complete
    assert state.dealer.visible == parse_cards("AD")  # looked at, not shown, during play
    assert legal(state) == {HIT, STAND, DOUBLE}
    state = play(state, STAND)
    assert returned(state) == {(0, "hand 0"): 0, (0, "insurance"): 0}
    assert line(state, 0, "insurance").payout.stake == 50


def test_A_insurance_declined_dealer_blackjack_main_lost() -> None:
    state = play(start(RULES_A, "9S AD 7H KC"), NO_INSURANCE)
    assert returned(state) == {(0, "hand 0"): 0}


def test_A_insurance_then_double_and_split_still_allowed() -> None:
    state = play(start(RULES_A, "8S AD 8H 6C"), INSURANCE)
    assert {DOUBLE, SPLIT} <= legal(state)


# --- A.surrender -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shoe", "before"),
    [
        pytest.param("TS 6D 6H TC", (), id="A.surrender-16-vs-6"),
        pytest.param("8S TD 8H 7C", (), id="A.surrender-pair-vs-ten"),
        pytest.param("TS AD 6H 7C", (NO_INSURANCE,), id="A.surrender-after-ace-check"),
    ],
)
def test_A_surrender_never_offered(shoe: str, before: tuple[Action, ...]) -> None:
    state = play(start(RULES_A, shoe), *before)
    assert SURRENDER not in legal(state)
    with pytest.raises(IllegalDecisionError):
        play(state, SURRENDER)


# --- C.bj.surrender --------------------------------------------------------------------


def test_C_bj_surrender_half_stake_returned() -> None:
    state = play(start(RULES_C, "TS 9D 6H 8C"), SURRENDER)
    payout = line(state, 0, "hand 0").payout
    assert (payout.stake, payout.returned) == (100, 50)
    assert {"C.bj.surrender", "BJ.half-stakes"} <= set(line(state, 0, "hand 0").clauses)


def test_C_bj_surrender_offered_after_the_ace_check() -> None:
    state = start(RULES_C, "TS AD 6H 7C")
    assert legal(state) == {INSURANCE, NO_INSURANCE}  # no surrender before the check
    state = play(state, NO_INSURANCE)  # AD 7C: no blackjack
    assert SURRENDER in legal(state)
    state = play(state, SURRENDER)
    assert returned(state) == {(0, "hand 0"): 50}


def test_C_bj_surrender_not_possible_against_a_peeked_blackjack() -> None:
    state = play(start(RULES_C, "TS AD 6H KC"), NO_INSURANCE)
    assert state.complete
    assert returned(state) == {(0, "hand 0"): 0}


def test_C_bj_surrender_under_a_ten_keeps_half_against_a_late_blackjack() -> None:
    state = start(RULES_C, "TS KD 6H AC")
    assert not state.complete  # no peek under a ten
    state = play(state, SURRENDER)
    assert state.dealer.visible == parse_cards("KD AC")
    assert returned(state) == {(0, "hand 0"): 50}


def test_C_bj_surrender_not_on_a_split_hand() -> None:
    state = start(RULES_C, "8S 6D 8H TC 3C 4C")
    assert SURRENDER in legal(state)
    state = play(state, SPLIT)
    assert SURRENDER not in legal(state)
    state = play(state, STAND)
    assert state.turn == Turn(seat=0, hand=1)
    assert SURRENDER not in legal(state)


def test_C_bj_surrender_not_after_a_hit() -> None:
    state = play(start(RULES_C, "2S 6D 3H TC 4C"), HIT)
    assert SURRENDER not in legal(state)


# --- C.bj.insurance --------------------------------------------------------------------


def test_C_bj_insurance_pays_2_to_1_net_zero() -> None:
    state = play(start(RULES_C, "9S AD 7H KC"), INSURANCE)
    assert returned(state) == {(0, "hand 0"): 0, (0, "insurance"): 150}  # 50 + 2 * 50
    assert "C.bj.insurance" in line(state, 0, "insurance").clauses


def test_C_bj_insurance_lost_play_continues_without_double_or_split() -> None:
    state = play(start(RULES_C, "8S AD 8H 6C"), INSURANCE)
    assert not state.complete
    assert legal(state) == {HIT, STAND, SURRENDER}


def test_C_bj_insurance_declined_double_and_split_offered() -> None:
    state = play(start(RULES_C, "8S AD 8H 6C"), NO_INSURANCE)
    assert {DOUBLE, SPLIT} <= legal(state)


@pytest.mark.parametrize(
    ("hole", "expected"),
    [
        # Dealer blackjack: the blackjack pushes (100), insurance 50 returns 150: 250 in all.
        pytest.param("KC", {(0, "hand 0"): 100, (0, "insurance"): 150}, id="C.bj.insurance-bj"),
        # No dealer blackjack: the blackjack pays 3:2 (250), insurance lost: 250 in all.
        pytest.param("9C", {(0, "hand 0"): 250, (0, "insurance"): 0}, id="C.bj.insurance-no-bj"),
    ],
)
def test_C_bj_insurance_a_blackjack_may_insure_no_even_money(
    hole: str, expected: dict[tuple[int, str], int]
) -> None:
    state = start(RULES_C, f"AS AD KH {hole}")
    assert legal(state) == {INSURANCE, NO_INSURANCE}
    state = play(state, INSURANCE)
    assert returned(state) == expected


# --- C.bj.peek -------------------------------------------------------------------------


def test_C_bj_peek_ace_up_always_checks_even_without_an_offer() -> None:
    # Balance 100 = stake: insurance cannot be covered, so nobody is asked; the dealer still
    # looks and the blackjack ends the round before play.
    state = start(RULES_C, "9S AD 7H KC", seat(stake=100, balance=100))
    assert state.complete
    assert returned(state) == {(0, "hand 0"): 0}


def test_C_bj_peek_ten_up_no_peek_player_acts() -> None:
    state = start(RULES_C, "TS KD 7H AC")
    assert not state.complete
    assert state.dealer.visible == parse_cards("KD")
    assert legal(state) == {HIT, STAND, DOUBLE, SURRENDER}
    state = play(state, STAND)
    assert returned(state) == {(0, "hand 0"): 0}


def test_C_bj_peek_late_dealer_blackjack_takes_the_doubled_stake() -> None:
    # 6S 5H = 11 doubles, draws 9C: 20, stake 200. Dealer KD + AC turned at the end.
    state = play(start(RULES_C, "6S KD 5H AC 9C"), DOUBLE)
    payout = line(state, 0, "hand 0").payout
    assert (payout.stake, payout.returned) == (200, 0)


def test_C_bj_peek_late_dealer_blackjack_takes_split_stakes() -> None:
    # Split 8S 8H: hand 0 8S TC = 18, hand 1 8H 9C = 17. Dealer KD + AC.
    state = play(start(RULES_C, "8S KD 8H AC TC 9C"), SPLIT, STAND, STAND)
    assert [ln.payout.stake for ln in state.settlement] == [100, 100]
    assert returned(state) == {(0, "hand 0"): 0, (0, "hand 1"): 0}


def test_C_bj_peek_lab_original_stake_only() -> None:
    # The assumed parameter switched: a late dealer blackjack takes only the original 100 of
    # the doubled 200, so 100 comes back.
    lab = BlackjackRules.from_profile(
        load_profile_text(
            'id = "lab"\nextends = "blackjack-c"\ntitle = "t"\n'
            '[parameters]\ndealer_blackjack_takes = { value = "original-stake" }\n'
        )
    )
    state = play(start(lab, "6S KD 5H AC 9C"), DOUBLE)
    payout = line(state, 0, "hand 0").payout
    assert (payout.stake, payout.returned) == (200, 100)


def test_C_bj_peek_contrast_A_takes_only_the_single_stake() -> None:
    # Same shoe under A: the peek ends the round before the double.
    state = start(RULES_A, "6S KD 5H AC 9C")
    payout = line(state, 0, "hand 0").payout
    assert (payout.stake, payout.returned) == (100, 0)


# --- C.bj.no-withdraw ------------------------------------------------------------------


def test_C_bj_no_withdraw_no_such_action() -> None:
    for action in Action:
        for word in ("withdraw", "retire", "retir", "cancel", "remove", "unbet"):
            assert word not in action.name.lower()
            assert word not in action.value.lower()


def test_C_bj_no_withdraw_stakes_never_decrease_over_a_round() -> None:
    # C, ace up: decline insurance, split 8 8; hand 0 gets 3C (11), doubles, 9D: 20;
    # hand 1 gets 2C (10), hits 5S: 15, stands. Dealer AD 6C: soft 17 stands.
    state = start(RULES_C, "8S AD 8H 6C 3C 9D 2C 5S")
    history = [state]
    for action in (NO_INSURANCE, SPLIT, DOUBLE, HIT, STAND):
        assert not any("withdraw" in a.value for a in state.legal)
        state = play(state, action)
        history.append(state)
    assert [committed(s) for s in history] == [100, 100, 200, 300, 300, 300]
    for before, after in itertools.pairwise(history):
        for old, new in zip(before.seats[0].hands, after.seats[0].hands, strict=False):
            assert new.stake >= old.stake
    # Hand 0: 200 staked, 20 > 17: 400. Hand 1: 15 < 17: lost.
    assert returned(state) == {(0, "hand 0"): 400, (0, "hand 1"): 0}


def test_C_bj_no_withdraw_insurance_and_surrender_keep_the_stakes_on_the_table() -> None:
    state = start(RULES_C, "TS AD 6H 7C")
    state = play(state, INSURANCE)
    assert committed(state) == 150
    state = play(state, SURRENDER)
    assert state.seats[0].hands[0].stake == 100  # the refund is settled, not a withdrawal
    assert committed(state) == 150
    assert returned(state) == {(0, "hand 0"): 50, (0, "insurance"): 0}


# --- illegal decisions and errors ------------------------------------------------------


def test_illegal_decision_raises_lists_legal_and_changes_nothing() -> None:
    state = start(RULES_A, "TS 6D 6H TC")
    twin = start(RULES_A, "TS 6D 6H TC")
    with pytest.raises(IllegalDecisionError) as info:
        decide(state, Decision(seat=0, hand=0, action=SPLIT))
    assert info.value.reason == "ILLEGAL_DECISION"
    assert set(info.value.metadata["legal"].split(",")) == {"hit", "stand", "double"}
    assert state == twin


def test_illegal_decision_offer_action_during_play() -> None:
    state = start(RULES_C, "TS 6D 6H TC")
    with pytest.raises(IllegalDecisionError) as info:
        decide(state, Decision(seat=0, hand=0, action=INSURANCE))
    assert set(info.value.metadata["legal"].split(",")) == {"hit", "stand", "double", "surrender"}


def test_illegal_decision_play_action_during_offers() -> None:
    state = start(RULES_A, "9S AD 7H 6C")
    twin = start(RULES_A, "9S AD 7H 6C")
    with pytest.raises(IllegalDecisionError) as info:
        decide(state, Decision(seat=0, hand=0, action=HIT))
    assert set(info.value.metadata["legal"].split(",")) == {"insurance", "decline-insurance"}
    assert state == twin


@pytest.mark.parametrize(
    ("seat_index", "hand_index"),
    [pytest.param(1, 0, id="wrong-seat"), pytest.param(0, 1, id="wrong-hand")],
)
def test_illegal_decision_wrong_seat_or_hand(seat_index: int, hand_index: int) -> None:
    state = start(RULES_A, "TS 9H 6D 5C 8C TH", seat(), seat())
    twin = start(RULES_A, "TS 9H 6D 5C 8C TH", seat(), seat())
    assert state.turn == Turn(seat=0, hand=0)
    with pytest.raises(IllegalDecisionError) as info:
        decide(state, Decision(seat=seat_index, hand=hand_index, action=STAND))
    assert info.value.reason == "ILLEGAL_DECISION"
    assert set(info.value.metadata["legal"].split(",")) == {"hit", "stand", "double"}
    assert state == twin


def test_illegal_decision_after_completion() -> None:
    state = play(start(RULES_A, "TS 9D 9H 8C"), STAND)
    assert state.complete
    assert state.legal == ()
    with pytest.raises(IllegalDecisionError) as info:
        decide(state, Decision(seat=0, hand=0, action=HIT))
    assert info.value.reason == "ILLEGAL_DECISION"
    assert info.value.metadata["legal"] == ""


def test_settle_before_completion_raises() -> None:
    state = start(RULES_A, "TS 9D 9H 8C")
    with pytest.raises(RoundNotCompleteError) as info:
        settle(state)
    assert info.value.reason == "ROUND_NOT_COMPLETE"
    done = play(state, STAND)
    assert settle(done) == done.settlement
    assert returned(done) == {(0, "hand 0"): 200}


def test_deal_needs_a_seat() -> None:
    with pytest.raises(InvalidRoundError) as info:
        deal(RULES_A, parse_cards("TS 9D 9H 8C"), [])
    assert info.value.reason == "INVALID_ROUND"


def test_deal_stake_over_balance() -> None:
    with pytest.raises(InsufficientBalanceError) as info:
        start(RULES_A, "TS 9D 9H 8C", seat(stake=101, balance=100))
    assert info.value.reason == "INSUFFICIENT_BALANCE"


def test_deal_stake_over_max_bet() -> None:
    # max_bet is 1 000 000 in both shipped profiles.
    with pytest.raises(BetOutOfLimitsError) as info:
        start(RULES_C, "TS 9D 9H 8C", seat(stake=1_000_001, balance=2_000_000))
    assert info.value.reason == "BET_OUT_OF_LIMITS"
    start(RULES_C, "TS 9D 9H 8C", seat(stake=1_000_000, balance=2_000_000))  # at the limit: fine


def test_deal_zero_stake() -> None:
    with pytest.raises((InvalidRoundError, BetOutOfLimitsError)) as info:
        start(RULES_A, "TS 9D 9H 8C", seat(stake=0))
    assert info.value.reason in {"INVALID_ROUND", "BET_OUT_OF_LIMITS"}


def test_deal_seven_copies_in_a_six_deck_shoe() -> None:
    with pytest.raises(ShoeNotInProfileError) as info:
        start(RULES_A, "AS AS AS AS AS AS AS 9C")
    assert info.value.reason == "SHOE_NOT_IN_PROFILE"
    start(RULES_A, "AS AS AS AS AS AS 9C")  # six copies fit six decks


@pytest.mark.parametrize(
    ("shoe", "seats"),
    [
        pytest.param("TS 9D 9H", 1, id="one-seat-3-cards"),
        pytest.param("TS 9D 9H 8C 7C", 2, id="two-seats-5-cards"),
    ],
)
def test_deal_shoe_shorter_than_the_deal(shoe: str, seats: int) -> None:
    with pytest.raises(ShoeExhaustedError) as info:
        start(RULES_A, shoe, *[seat() for _ in range(seats)])
    assert info.value.reason == "SHOE_EXHAUSTED"


def test_shoe_exhausted_on_a_hit_changes_nothing() -> None:
    state = start(RULES_A, "TS 9D 2H 8C")
    twin = start(RULES_A, "TS 9D 2H 8C")
    with pytest.raises(ShoeExhaustedError) as info:
        play(state, HIT)
    assert info.value.reason == "SHOE_EXHAUSTED"
    # Four cards dealt; the hit is the fifth card of a four-card shoe.
    assert "needs card 5, but the shoe holds 4" in info.value.message
    assert (info.value.metadata["needed"], info.value.metadata["shoe_size"]) == ("5", "4")
    assert state == twin


@pytest.mark.parametrize(
    ("rules", "shoe", "action", "asked_by"),
    [
        # Dealer 6D + TC = 16 must draw, and the shoe is empty.
        pytest.param(RULES_C, "TS 6D 9H TC", STAND, "C.bj.dealer-draw", id="dealer-draw"),
        pytest.param(RULES_A, "TS 6D 9H TC", STAND, "A.dealer-draw", id="dealer-draw-A"),
        pytest.param(RULES_C, "8S 6D 8H TC", SPLIT, "BJ.deal-order", id="split-card"),
        pytest.param(RULES_A, "5S 6D 5H TC", DOUBLE, "A.double", id="double"),
        pytest.param(RULES_A, "TS 6D 2H TC", HIT, "BJ.deal-order", id="hit"),
    ],
)
def test_shoe_exhausted_is_the_dealing_orders_and_names_the_rule_that_asked(
    rules: BlackjackRules, shoe: str, action: Action, asked_by: str
) -> None:
    # BJ.deal-order refuses: the contract deals from the forced shoe only; an engine that goes
    # on past its end is wrong about the shoe, not about the dealer's rule or the double's.
    # The rule that wanted the card is what a recorded round without it breaks.
    with pytest.raises(ShoeExhaustedError) as info:
        play(start(rules, shoe), action)
    assert info.value.clause == "BJ.deal-order"
    assert info.value.asked_by == asked_by
    assert info.value.metadata["needed"] == "5"


@pytest.mark.parametrize(
    ("clauses", "cited"),
    [
        pytest.param(None, "C.bj.double", id="shipped"),
        pytest.param('["C.bj.double", "C.bj.split"]', "C.bj.double", id="lab-two-clauses"),
    ],
)
def test_shoe_exhausted_on_a_double_names_the_double_rule(clauses: str | None, cited: str) -> None:
    # 6S 5H = 11 against 6D (hole TC) doubles: the double's one card would be the fifth of a
    # four-card shoe. The shoe's rule refuses (BJ.deal-order); the card is the double rule's,
    # the first clause the profile's double_after_split lists, however many it lists after it.
    rules = RULES_C
    if clauses is not None:
        text = (
            'id = "lab"\nextends = "blackjack-c"\ntitle = "t"\n[parameters]\n'
            f"double_after_split = {{ value = true, clauses = {clauses} }}\n"
        )
        rules = BlackjackRules.from_profile(load_profile_text(text))
    state = start(rules, "6S 6D 5H TC")
    with pytest.raises(ShoeExhaustedError) as info:
        play(state, DOUBLE)
    assert (info.value.clause, info.value.asked_by) == ("BJ.deal-order", cited)
    assert "seat 0 hand 0's double needs card 5, but the shoe holds 4" in info.value.message


# --- lab values of the profile parameters ----------------------------------------------
# The shipped profiles use one value of each switch; the values below appear only in lab
# profiles (oracle/parameters.py lists the choices), so each is pinned here by the exact
# decisions it opens on a hand-chosen shoe.


def lab(base: str, **values: str) -> BlackjackRules:
    """A lab profile extending a shipped one; each keyword is a TOML value literal."""
    lines = "".join(f"{name} = {{ value = {value} }}\n" for name, value in values.items())
    text = f'id = "lab"\nextends = "{base}"\n[parameters]\n{lines}'
    return BlackjackRules.from_profile(load_profile_text(text))


# Two cards against a 6 up (hole 9C), stake 100 of 1000: C offers hit, stand, double and
# surrender on any first two cards; split only on a pair as the split_pairs value reads it.
SPLIT_TABLE = [
    # (pair, same-rank, same-rank-or-pictures, same-value)
    ("KS KH", True, True, True),
    ("5S 5H", True, True, True),
    ("AS AH", True, True, True),
    ("KS QH", False, True, True),  # two pictures (A.split), both worth ten
    ("JS KH", False, True, True),
    ("TS KH", False, False, True),  # a ten and a picture: A refuses, equal values split
    ("TS JH", False, False, True),
    ("TS 5H", False, False, False),  # the 10-5: 15, no pair under any reading
    ("5S TH", False, False, False),
    ("9S 8H", False, False, False),
    ("4S 6H", False, False, False),
]


@pytest.mark.parametrize(
    ("choice", "column"),
    [("same-rank", 1), ("same-rank-or-pictures", 2), ("same-value", 3)],
)
@pytest.mark.parametrize("row", SPLIT_TABLE, ids=lambda row: row[0].replace(" ", "-"))
def test_C_bj_split_every_split_pairs_value(
    choice: str, column: int, row: tuple[str, bool, bool, bool]
) -> None:
    rules = lab("blackjack-c", split_pairs=f'"{choice}"')
    first, second = row[0].split()
    state = start(rules, f"{first} 6D {second} 9C")
    splits = row[column]
    assert state.legal == (
        (HIT, STAND, DOUBLE, SPLIT, SURRENDER) if splits else (HIT, STAND, DOUBLE, SURRENDER)
    )
    if not splits:
        with pytest.raises(IllegalDecisionError) as info:
            play(state, SPLIT)
        # The withholding rule is the split rule, cited as the base profile cites it.
        assert info.value.clause == "C.bj.split"
        assert info.value.metadata["legal"] == "hit,stand,double,surrender"


def test_C_bj_split_same_value_ten_and_king_play_as_two_hands() -> None:
    # Lab same-value: TS KH split. Hand 0 TS + 7C = 17 stands; hand 1 KH + 8C = 18 stands.
    # Dealer 6D 9C = 15 draws TD: 25, bust; both stood hands win 1:1.
    rules = lab("blackjack-c", split_pairs='"same-value"')
    state = play(start(rules, "TS 6D KH 9C 7C 8C TD"), SPLIT)
    assert [h.cards for h in state.seats[0].hands] == [parse_cards("TS 7C"), parse_cards("KH")]
    assert [h.stake for h in state.seats[0].hands] == [100, 100]
    state = play(state, STAND, STAND)
    assert state.seats[0].hands[1].cards == parse_cards("KH 8C")
    assert state.dealer.cards == parse_cards("6D 9C TD")
    assert returned(state) == {(0, "hand 0"): 200, (0, "hand 1"): 200}


def test_C_bj_split_lab_split_21_is_blackjack() -> None:
    # Lab split_21_is_blackjack = true: an ace and a ten on a split hand count as a blackjack.
    # AS AH split against 6D (hole 9C, 15). Hand 0 takes KH: ace and ten, a blackjack, no
    # decisions; hand 1 takes 5C: soft 16, an ordinary hand still to play. Hand 1 stands; the
    # dealer draws TD: 25, bust. The blackjack is paid 3:2 (100 + 150 = 250), hand 1 wins
    # 1:1 (200).
    rules = lab("blackjack-c", split_21_is_blackjack="true")
    state = play(start(rules, "AS 6D AH 9C KH 5C TD"), SPLIT)
    hands = state.seats[0].hands
    assert [h.status for h in hands] == [HandStatus.BLACKJACK, HandStatus.PLAYING]
    assert hands[0].why == ("C.bj.split",)
    assert hands[1].cards == parse_cards("AH 5C")
    assert state.turn == Turn(seat=0, hand=1)
    state = play(state, STAND)
    assert returned(state) == {(0, "hand 0"): 250, (0, "hand 1"): 200}


def test_C_bj_double_lab_no_double_after_split() -> None:
    # Lab double_after_split = false. 5S 5H = 10 against 6D (hole TC): the first two cards may
    # double or split. After the split hand 0 is 5S 6C = 11 and hand 1 is 5H 4C = 9: neither
    # may double (C.bj.double's "also on a hand formed by a split", switched off), nor
    # surrender (C: not on a split hand), nor split again (two hands at most).
    rules = lab("blackjack-c", double_after_split="false")
    state = start(rules, "5S 6D 5H TC 6C 4C 9S KS")
    assert state.legal == (HIT, STAND, DOUBLE, SPLIT, SURRENDER)
    state = play(state, SPLIT)
    assert state.seats[0].hands[0].cards == parse_cards("5S 6C")
    assert state.legal == (HIT, STAND)
    with pytest.raises(IllegalDecisionError) as info:
        play(state, DOUBLE)
    assert info.value.clause == "C.bj.double"
    assert info.value.metadata["legal"] == "hit,stand"
    state = play(state, STAND)
    assert state.seats[0].hands[1].cards == parse_cards("5H 4C")
    assert state.legal == (HIT, STAND)
    state = play(state, STAND)
    # Dealer 6D TC = 16 draws 9S: 25, bust. 11 and 9 stood: both win 1:1 on 100.
    assert state.dealer.cards == parse_cards("6D TC 9S")
    assert returned(state) == {(0, "hand 0"): 200, (0, "hand 1"): 200}


def test_C_bj_double_lab_no_double_after_split_still_doubles_a_first_hand() -> None:
    # The switch is about split hands only: 6S 5H = 11 doubles, draws 9C: 20 on 200.
    # Dealer 6D TC = 16 draws 7D: 23, bust: 400.
    rules = lab("blackjack-c", double_after_split="false")
    state = start(rules, "6S 6D 5H TC 9C 7D")
    assert state.legal == (HIT, STAND, DOUBLE, SURRENDER)
    state = play(state, DOUBLE)
    assert returned(state) == {(0, "hand 0"): 400}


# A with no peek at all: natural_paid_at_once stays true, but a blackjack against an ace or a
# ten can still be tied by the hole card, so it cannot be paid before the hole card is turned.
NO_PEEK_A = lab("blackjack-a", peek='"none"')


@pytest.mark.parametrize(
    ("shoe", "visible", "expected"),
    [
        # BJ.nat-pays: a dealer blackjack found at the end pushes the player's blackjack.
        pytest.param("AS TD KH AC", "TD AC", 100, id="ten-up-dealer-blackjack-pushes"),
        pytest.param("AS TD KH 9C", "TD 9C", 250, id="ten-up-paid-after-the-hole-card"),
        # A.nat-immediate: against 2 to 9 nothing can tie it, paid at once, hole never shown.
        pytest.param("AS 7D KH AC", "7D", 250, id="seven-up-paid-at-once"),
    ],
)
def test_A_nat_immediate_lab_without_peek_waits_under_an_ace_or_a_ten(
    shoe: str, visible: str, expected: int
) -> None:
    state = start(NO_PEEK_A, shoe)
    assert state.complete
    assert state.dealer.visible == parse_cards(visible)
    assert returned(state) == {(0, "hand 0"): expected}


@pytest.mark.parametrize(("hole", "expected"), [("KC", 100), ("9C", 250)])
def test_A_nat_immediate_lab_without_peek_ace_up_declined_even_money(
    hole: str, expected: int
) -> None:
    # Even money is still offered first (A.even-money); declined, the blackjack waits for the
    # hole card: AD KC is a dealer blackjack (push, 100), AD 9C is not (3:2, 250).
    state = start(NO_PEEK_A, f"AS AD KH {hole}")
    assert state.legal == (EVEN_MONEY, NO_EVEN_MONEY)
    state = play(state, NO_EVEN_MONEY)
    assert state.dealer.visible == parse_cards(f"AD {hole}")
    assert returned(state) == {(0, "hand 0"): expected}


def test_A_nat_immediate_lab_without_peek_pays_nothing_while_another_seat_plays() -> None:
    # seat0 AS KH blackjack, seat1 9H 8C = 17; dealer TD up, hole AC, no peek.
    # While seat 1 plays nothing is paid; at the end TD AC is a blackjack: seat 0 pushes, the
    # 17 loses (BJ.compare: a dealer blackjack beats every hand that is not a blackjack).
    state = start(NO_PEEK_A, "AS 9H TD KH 8C AC", seat(), seat())
    assert state.turn == Turn(seat=1, hand=0)
    assert [step.action for step in state.steps] == ["deal", "blackjack"]
    state = play(state, STAND)
    assert "natural paid" not in [step.action for step in state.steps]
    assert returned(state) == {(0, "hand 0"): 100, (1, "hand 0"): 0}


def test_A_nat_immediate_lab_peek_under_an_ace_only() -> None:
    # peek = "ace": under a ten nobody looks, so the blackjack waits and pushes TD AC.
    rules = lab("blackjack-a", peek='"ace"')
    assert returned(start(rules, "AS TD KH AC")) == {(0, "hand 0"): 100}
    # Under an ace the dealer looks (AD 9C, no blackjack) once the offers are answered; the
    # blackjack can no longer be tied and is paid at once, before seat 1 plays.
    state = start(rules, "AS 9H AD KH 8C 9C", seat(), seat())
    assert state.legal == (EVEN_MONEY, NO_EVEN_MONEY)
    state = play(state, NO_EVEN_MONEY)
    assert state.legal == (INSURANCE, NO_INSURANCE)
    state = play(state, NO_INSURANCE)
    assert state.turn == Turn(seat=1, hand=0)
    assert [step.action for step in state.steps][-2:] == ["peek", "natural paid"]
    # Seat 1 stands on 17; the dealer's soft 20 (AD 9C) beats it.
    state = play(state, STAND)
    assert returned(state) == {(0, "hand 0"): 250, (1, "hand 0"): 0}


# --- the clauses a settlement line and a step cite -------------------------------------
# A line cites the clause that decided its amount first, then the context (SettlementLine):
# a blackjack paid 3:2 is BJ.nat-pays, a blackjack by BJ.natural, and the source clause
# that says how it meets this up card: A.nat-immediate against 2-9, the profile's peek
# clauses against a ten (A.peek, A.nat-vs-ten as profile A lists them), the even-money
# clause against an ace; C's blackjack always waits for the hole card (C.bj.peek).


@pytest.mark.parametrize(
    ("rules", "shoe", "actions", "clauses"),
    [
        pytest.param(
            RULES_A,
            "AS 7D KH 9C",
            (),
            ("BJ.nat-pays", "BJ.natural", "A.nat-immediate"),
            id="A1-blackjack-vs-7",
        ),
        pytest.param(
            RULES_A,
            "AS TD KH 9C",
            (),
            ("BJ.nat-pays", "BJ.natural", "A.peek", "A.nat-vs-ten"),
            id="A3-blackjack-vs-ten",
        ),
        pytest.param(
            RULES_A,
            "AS TD KH AC",
            (),
            # A push: nothing is paid at 3:2, so BJ.natural (what makes it a blackjack) is no
            # part of the amount; the pushing rule is BJ.nat-pays ("unless the dealer also...").
            ("BJ.nat-pays", "A.peek", "A.nat-vs-ten"),
            id="A3-blackjack-pushed-by-dealer-blackjack",
        ),
        pytest.param(
            RULES_A,
            "AS AD KH 9C",
            (EVEN_MONEY,),
            ("A.even-money",),
            id="A2-even-money-taken",
        ),
        pytest.param(
            RULES_A,
            "AS AD KH 9C",
            (NO_EVEN_MONEY,),
            ("BJ.nat-pays", "BJ.natural", "A.even-money"),
            id="A2-even-money-declined",
        ),
        pytest.param(
            RULES_C,
            "AS 7D KH 9C",
            (),
            ("BJ.nat-pays", "BJ.natural", "C.bj.peek"),
            id="C-blackjack-vs-7",
        ),
        pytest.param(
            RULES_A,
            "9S AD 7H KC",
            (INSURANCE,),
            # The hand never played: the peek ended the round (A.peek), the dealer's blackjack
            # beat it (BJ.compare, BJ.natural).
            ("A.peek", "A.nat-vs-ten", "BJ.compare", "BJ.natural"),
            id="A4-main-hand-lost-to-the-peek",
        ),
        pytest.param(
            RULES_C,
            "6S KD 5H AC 9C",
            (DOUBLE,),
            # C.bj.peek: a dealer blackjack found after play takes the doubled stake too.
            ("C.bj.peek", "BJ.compare", "BJ.natural"),
            id="C-late-dealer-blackjack-takes-the-double",
        ),
        pytest.param(
            RULES_C,
            "TS KD 7H AC",
            (STAND,),
            ("BJ.compare", "BJ.natural", "C.bj.peek"),
            id="C-late-dealer-blackjack-single-stake",
        ),
        pytest.param(RULES_A, "TS 9D 9H 8C", (STAND,), ("BJ.compare",), id="19-beats-17"),
        pytest.param(RULES_A, "TS 6D 6H TC 9C", (HIT,), ("BJ.bust",), id="bust"),
        pytest.param(
            RULES_C,
            "TS 9D 6H 8C",
            (SURRENDER,),
            ("C.bj.surrender", "BJ.half-stakes"),
            id="C-surrender",
        ),
    ],
)
def test_settlement_line_clauses(
    rules: BlackjackRules, shoe: str, actions: tuple[Action, ...], clauses: tuple[str, ...]
) -> None:
    state = play(start(rules, shoe), *actions)
    assert line(state, 0, "hand 0").clauses == clauses


def test_settlement_line_clauses_insurance_and_rounding() -> None:
    # A4: the insurance line is decided by A.insurance (2:1), its stake by BJ.half-stakes.
    state = play(start(RULES_A, "9S AD 7H KC"), INSURANCE)
    assert line(state, 0, "insurance").clauses == ("A.insurance", "BJ.half-stakes")
    # 15 at 3:2 is 37.5 exact, 37 paid: the rounding rule joins the blackjack's clauses.
    state = start(RULES_A, "AS 7D KH 9C", seat(stake=15))
    assert line(state, 0, "hand 0").clauses == (
        "BJ.nat-pays",
        "BJ.natural",
        "A.nat-immediate",
        "MONEY.rounding",
    )


def test_split_21_line_cites_the_split_rule_before_the_comparison() -> None:
    # A: split AS AH, both hands reach 21 in two cards; dealer 9D 7C 5S = 21: plain 21s push
    # by BJ.compare, because A.split says a split 21 is no blackjack.
    state = play(start(RULES_A, "AS 9D AH 7C KH QH 5S"), SPLIT)
    assert line(state, 0, "hand 0").clauses == ("A.split", "BJ.compare")
    assert line(state, 0, "hand 1").clauses == ("A.split", "BJ.compare")


@pytest.mark.parametrize(
    ("rules", "shoe", "steps"),
    [
        pytest.param(
            RULES_A,
            "AS 7D KH 9C",
            [
                ("deal", ("BJ.deal", "BJ.deal-order")),
                ("blackjack", ("BJ.natural", "BJ.auto-stand")),
                ("natural paid", ("BJ.nat-pays", "A.nat-immediate")),
                ("settle", ("BJ.compare",)),
            ],
            id="A1-paid-at-once",
        ),
        pytest.param(
            RULES_A,
            "AS TD KH 9C",
            [
                ("deal", ("BJ.deal", "BJ.deal-order")),
                ("blackjack", ("BJ.natural", "BJ.auto-stand")),
                ("peek", ("A.peek", "A.nat-vs-ten")),
                # Paid after the peek under a ten: A.nat-vs-ten is why it could wait no longer.
                ("natural paid", ("BJ.nat-pays", "A.nat-immediate", "A.nat-vs-ten")),
                ("hole card", ("BJ.dealer-needed", "A.peek", "A.nat-vs-ten")),
                ("settle", ("BJ.compare",)),
            ],
            id="A3-peek-then-paid",
        ),
        pytest.param(
            RULES_A,
            "AS TD KH AC",
            [
                ("deal", ("BJ.deal", "BJ.deal-order")),
                ("blackjack", ("BJ.natural", "BJ.auto-stand")),
                ("peek", ("A.peek", "A.nat-vs-ten")),
                ("settle", ("BJ.compare",)),
            ],
            id="A3-peek-finds-a-blackjack",
        ),
        pytest.param(
            RULES_C,
            "AS 7D KH 9C",
            [
                ("deal", ("BJ.deal", "BJ.deal-order")),
                ("blackjack", ("BJ.natural", "BJ.auto-stand")),
                ("hole card", ("BJ.dealer-needed",)),
                ("settle", ("BJ.compare",)),
            ],
            id="C-no-payment-before-the-hole-card",
        ),
    ],
)
def test_natural_and_peek_step_clauses(
    rules: BlackjackRules, shoe: str, steps: list[tuple[str, tuple[str, ...]]]
) -> None:
    state = start(rules, shoe)
    assert [(step.action, step.clauses) for step in state.steps] == steps


def test_the_split_step_names_both_cards_of_the_pair() -> None:
    # C: 8S 8H split against 6D: the step says which two cards were split, each by its suit.
    state = play(start(RULES_C, "8S 6D 8H TC 3C 2C"), SPLIT)
    (step,) = [step for step in state.steps if step.action == "split"]
    assert step.detail == "seat 0 hand 0 splits 8S 8H"


def test_the_hole_card_step_shows_the_dealer_two_card_total() -> None:
    # C: 7D up, 9C hole: the dealer turns a 16 (the player's blackjack waits for it).
    state = start(RULES_C, "AS 7D KH 9C")
    (step,) = [step for step in state.steps if step.action == "hole card"]
    assert step.detail == "dealer turns 9C: 16"


def test_every_step_words_what_it_did() -> None:
    # C, two seats: 8S 8H (a pair) and TC 9C = 19 against 6D, hole 5C (11). Seat 0 splits; its
    # hands take 3S (11) and 2S (10) and stand; seat 1 stands; the dealer draws TS: 21 (its step
    # names the card and the total only).
    state = start(RULES_C, "8S TC 6D 8H 9C 5C 3S 2S TS", seat(), seat())
    state = play(state, SPLIT, STAND, STAND, STAND)
    assert [step.detail for step in state.steps] == [
        "seat 0: 8S 8H; seat 1: TC 9C; dealer up 6D, hole card face down",
        "seat 0 hand 0 splits 8S 8H",
        "seat 0 hand 0 receives 3S",
        "seat 0 hand 0",
        "seat 0 hand 1 receives 2S",
        "seat 0 hand 1",
        "seat 1 hand 0",
        "dealer turns 5C: 11",
        "TS: 21",
        "3 line(s), 0 returned",
    ]
    # A second deal of as many seats words its cards alike.
    again = start(RULES_C, "9S TD 6D 7H 8C 5C", seat(), seat())
    assert (
        again.steps[0].detail == "seat 0: 9S 7H; seat 1: TD 8C; dealer up 6D, hole card face down"
    )


def test_a_hand_total_is_read_off_the_state_as_its_frozen_seats_give_it() -> None:
    # C: seat 0 AS 6H = soft 17, seat 1 TC 5C = 15, against 9D.
    state = start(RULES_C, "AS TC 9D 6H 5C 8S", seat(), seat())
    assert (state.total(0, 0), state.total(1, 0)) == (17, 15)
    assert state.total(1, 0) == state.seats[1].hands[0].total


def test_a_hit_step_cites_what_the_card_made_of_the_hand() -> None:
    # C: seat 7S 4H = 11 against 9D. A hit of 2C makes 13 and plays on (BJ.values); a second
    # of 8S makes 21, which stands by itself (BJ.auto-stand); elsewhere a hit of TS on 13 busts.
    state = play(start(RULES_C, "7S 9D 4H 5C 2C 8S 4D"), HIT, HIT)
    hits = [step.clauses for step in state.steps if step.action == "hit"]
    assert hits == [("BJ.values",), ("BJ.values", "BJ.auto-stand")]
    bust = play(start(RULES_C, "7S 9D 4H 5C 2C TS"), HIT, HIT)
    assert [step.clauses for step in bust.steps if step.action == "hit"][-1] == (
        "BJ.values",
        "BJ.bust",
    )


def test_a_re_split_cites_the_hand_count_first() -> None:
    # A lab table of C that re-splits to four hands: 8S 8H split against 6D, and the first hand
    # takes 8D, a pair again. Splitting it is open, and a second split most likely goes wrong
    # on the count of hands (VAR.bj.resplit), so that clause leads; the first split leads with
    # the pair rule (C.bj.split).
    lab = BlackjackRules.from_profile(
        load_profile_text(
            'id = "lab-resplit"\nextends = "blackjack-c"\ntitle = "t"\n'
            '[parameters]\nmax_hands = { value = 4, clauses = ["VAR.bj.resplit"] }\n'
        )
    )
    state = start(lab, "8S 6D 8H TC 8D 3C 2C 9S")
    assert state.citations()["legal_decisions[split]"][0] == "C.bj.split"
    state = play(state, SPLIT)
    assert state.seats[0].hands[0].cards == parse_cards("8S 8D")
    assert SPLIT in state.legal
    assert state.citations()["legal_decisions[split]"][:2] == ("VAR.bj.resplit", "C.bj.split")


def test_two_lab_profiles_of_one_id_cite_each_its_own_clauses() -> None:
    # Rules hash by profile id and each rules' clause table is cached: two lab files that share
    # an id but cite the hand count differently must not share a table (the second would cite
    # the first one's clause, and a report would name a rule the lab never wrote).
    def lab(clause: str) -> BlackjackRules:
        return BlackjackRules.from_profile(
            load_profile_text(
                'id = "lab-resplit"\nextends = "blackjack-c"\ntitle = "t"\n[parameters]\n'
                f'max_hands = {{ value = 4, clauses = ["{clause}"] }}\n'
            )
        )

    for clause in ("VAR.bj.resplit", "A.split", "VAR.bj.resplit"):
        state = play(start(lab(clause), "8S 6D 8H TC 8D 3C 2C 9S"), SPLIT)
        assert state.citations()["legal_decisions[split]"][:2] == (clause, "C.bj.split")


# --- the frozen views of a round ---------------------------------------------------------


def test_a_seat_counts_what_it_committed_and_what_is_left_free() -> None:
    # A: stake 100 of 1000 against AD, insured for 50: 150 committed, 850 free.
    state = play(start(RULES_A, "9S AD 7H 6C"), INSURANCE)
    assert (state.seats[0].committed, state.seats[0].free_funds) == (150, 850)


def test_a_hand_as_dealt_is_a_hand_with_the_defaults() -> None:
    # A: TS 6H against 9D, as dealt: playing, not doubled, not split, no even money, not paid.
    state = start(RULES_A, "TS 9D 6H 8C")
    assert state.seats[0].hands[0] == Hand(cards=parse_cards("TS 6H"), stake=100)


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        pytest.param("AS KD", True, id="ace-ten"),
        pytest.param("QH AC", True, id="ten-ace"),
        pytest.param("7S 7D 7H", False, id="three-card-21"),
        pytest.param("AS 9D", False, id="two-card-20"),
        pytest.param("AS", False, id="one-card"),
    ],
)
def test_BJ_natural_two_cards_of_21(cards: str, expected: bool) -> None:
    assert is_two_card_21(parse_cards(cards)) is expected


def test_the_dealer_holds_a_blackjack_by_up_and_hole_card_only() -> None:
    up, hole, nine, ace = parse_cards("AS KD 9D AC")
    assert Dealer(up=up, hole=hole).blackjack
    # 9D + AC = 20, and an ace drawn to 21 makes no blackjack (BJ.natural).
    assert not Dealer(up=nine, hole=ace, draws=(ace,)).blackjack


# --- values are immutable and built by keyword ------------------------------------------


def test_blackjack_values_are_immutable() -> None:
    state = play(start(RULES_C, "8S 6D 8H TC 3C 2C"), SPLIT)
    values: list[object] = [
        seat(),
        state,
        state.seats[0],
        state.seats[0].hands[0],
        state.dealer,
        RULES_C,
        Decision(seat=0, hand=0, action=HIT),
    ]
    for value in values:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, dataclasses.fields(value)[0].name, None)  # type: ignore[arg-type]


def test_the_dealer_is_built_by_keyword_only() -> None:
    up, hole = parse_cards("6D TC")
    assert Dealer(up=up, hole=hole).cards == (up, hole)
    with pytest.raises(TypeError):
        Dealer(up, hole)  # type: ignore[call-arg]


def test_blackjack_values_are_built_by_keyword_only() -> None:
    # Generated __init__ or written out (``oracle.immutable``), each takes its fields by name.
    state = play(start(RULES_C, "8S 6D 8H TC 3C 2C"), SPLIT)
    values: list[object] = [
        seat(),
        state.seats[0],
        state.seats[0].hands[0],
        Turn(seat=0, hand=1),
        options(state)[Action.HIT],
        Decision(seat=0, hand=0, action=HIT),
    ]
    for value in values:
        positional = [getattr(value, f.name) for f in dataclasses.fields(value)]  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            type(value)(*positional)
        assert (
            type(value)(**{f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
            == value
        )  # type: ignore[arg-type]


def test_rounds_settled_alike_share_their_lines_and_others_do_not() -> None:
    # A: TC 9C = 19 stands against 7D, hole 8C (15), draws TD: 25, bust. 100 staked wins
    # 1:1 (BJ.compare): 200 back. The same round again settles with the very line made for
    # the first (lines are immutable, and cached); a stake of 50 gets its own, 100 back.
    first = play(start(RULES_A, "TC 7D 9C 8C TD"), STAND)
    again = play(start(RULES_A, "TC 7D 9C 8C TD"), STAND)
    other = play(start(RULES_A, "TC 7D 9C 8C TD", seat(stake=50)), STAND)
    assert first.settlement[0].payout.returned == 200
    assert again.settlement[0] is first.settlement[0]
    assert other.settlement[0] is not first.settlement[0]
    assert other.settlement[0].payout.returned == 100
    assert other.settlement[0].payout.returned_exact == Fraction(100)


def test_a_play_refused_while_insurance_is_open_cites_what_opened_it_first() -> None:
    # A: 9S 7H = 16 staking 101 against AD: insurance is offered, and its half stake 50.5 is
    # rounded (BJ.half-stakes, passed narrowly, cited first). No play is open while the offer
    # is: a hit is refused by the offer's first clause, BJ.half-stakes.
    state = start(RULES_A, "9S AD 7H 8C", seat(stake=101))
    assert Action.INSURANCE in state.legal
    why = options(state)[HIT].why
    assert len(why) > 1
    assert why[0] == "BJ.half-stakes"
    with pytest.raises(IllegalDecisionError) as info:
        state.decide(Decision(seat=0, hand=0, action=HIT))
    assert info.value.clause == "BJ.half-stakes"
