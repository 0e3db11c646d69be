"""Each game records the clause that decided each value: the cases a lab reported miscited.

Every expectation is read off RULES.md: which rule decides the value at that path. The
rounds are dealt in contract order (BJ.deal-order: seat, up card, seat, hole card; BAC.deal:
player, banker, player, banker).
"""

from __future__ import annotations

from croupier.oracle import baccarat, blackjack
from croupier.oracle.blackjack import Action, BlackjackRules, BlackjackSeat, Decision
from croupier.oracle.cards import parse_cards
from croupier.oracle.profile import load_profile_text, shipped_profile
from croupier.oracle.provenance import ABSENT, Difference, cite


def rules(profile_id: str) -> BlackjackRules:
    return BlackjackRules.from_profile(shipped_profile(profile_id))


def deal(profile_id: str, shoe: str, stake: int, balance: int = 1000) -> blackjack.BlackjackState:
    seats = [BlackjackSeat(balance=balance, stake=stake)]
    return blackjack.deal(rules(profile_id), parse_cards(shoe), seats)


def decide(state: blackjack.BlackjackState, action: Action) -> blackjack.BlackjackState:
    turn = state.turn
    assert turn is not None
    return blackjack.decide(state, Decision(seat=turn.seat, hand=turn.hand, action=action))


def cited(state: blackjack.BlackjackState, path: str, actual: str = "x") -> str:
    found = cite(state.citations(), Difference(path=path, expected="", actual=actual))
    assert found, path
    return found[0]


def test_no_insurance_on_a_one_unit_stake_is_half_stakes() -> None:
    # 9S 7D = 16 against AH, stake 1: half of 1 rounds to 0, no offer (BJ.half-stakes).
    state = deal("blackjack-a", "9S AH 7D 8C 5C", stake=1)
    assert state.phase is blackjack.Phase.PLAY
    assert cited(state, "phase", "offers") == "BJ.half-stakes"
    assert cited(state, "turn", "(set)") == "BJ.half-stakes"
    # Once play has begun, an offer is out of place: offers come first (A.insurance).
    assert cited(state, "legal_decisions[insurance]", "offered") == "A.insurance"
    # With a stake of 100 the offer is made, by A.insurance.
    offered = deal("blackjack-a", "9S AH 7D 8C 5C", stake=100)
    assert cited(offered, "legal_decisions[insurance]", ABSENT) == "A.insurance"


def test_no_even_money_on_a_one_unit_blackjack_is_half_stakes() -> None:
    state = deal("blackjack-a", "AS AH KD 7C 5C", stake=1)
    assert cited(state, "legal_decisions[even-money]", "offered") == "BJ.half-stakes"


def test_no_insurance_without_the_funds_is_funds() -> None:
    # Stake 100 on a balance of 120: insurance of 50 needs 50 uncommitted, 20 are left.
    state = deal("blackjack-c", "9S AH 7D 8C 5C", stake=100, balance=120)
    assert cited(state, "phase", "offers") == "BJ.funds"


def test_a_split_hand_on_21_stands_by_auto_stand_and_is_no_blackjack_by_the_split_rule() -> None:
    # AS AD split under A (A.split); hand 0 takes KC: 21 with two cards.
    state = decide(deal("blackjack-a", "AS 9H AD 8C KC 5C 2C 3C", stake=100), Action.SPLIT)
    hand = "blackjack.seats[0].hands[0]"
    assert state.seats[0].hands[0].status is blackjack.HandStatus.STOOD
    assert cited(state, f"{hand}.status", "playing") == "BJ.auto-stand"
    assert cited(state, f"{hand}.status", "blackjack") == "A.split"
    # The next hand got its second card because the first one stood on 21.
    assert cited(state, "blackjack.seats[0].hands[1].cards[1]", ABSENT) == "BJ.auto-stand"
    # A card too many on the first hand: it stood.
    assert cited(state, f"{hand}.cards[2]", "5C") == "BJ.auto-stand"


def test_a_doubled_hand_that_is_not_bust_is_so_by_the_card_values() -> None:
    # AS AD double against 9H, takes KS: 12 (both aces count 1), stands.
    state = decide(deal("blackjack-a", "AS 9H AD 7C KS TC 5C", stake=100), Action.DOUBLE)
    assert cited(state, "blackjack.seats[0].hands[0].status", "bust") == "BJ.values"
    assert cited(state, "blackjack.seats[0].hands[0].status", "playing") == "A.double"


def test_the_dealer_stops_by_the_drawing_rule_or_because_no_hand_waits() -> None:
    # C: 6D up, AS hole: soft 17, the dealer stands (C.bj.dealer-draw).
    stood = decide(deal("blackjack-c", "TS 6D 9H AS 2C", stake=100), Action.STAND)
    assert cited(stood, "blackjack.dealer.cards[2]", "2C") == "C.bj.dealer-draw"
    # A: the only hand busts; the dealer turns the hole card and draws nothing.
    bust = decide(deal("blackjack-a", "TS 6D 5H 9C KC 2C", stake=100), Action.HIT)
    assert bust.seats[0].hands[0].status is blackjack.HandStatus.BUST
    assert cited(bust, "blackjack.dealer.cards[2]", "2C") == "BJ.dealer-needed"
    assert cited(bust, "blackjack.dealer.cards[1]", ABSENT) == "BJ.dealer-needed"


def test_each_dealer_draw_is_cited_by_the_drawing_rule() -> None:
    # C: seat TS 9H = 19 stands. Dealer 6D 2C = 8 draws 3D (11) and 7S (18), then stands:
    # each card drawn, and the stop, by C.bj.dealer-draw (drawn because a hand waits).
    state = decide(deal("blackjack-c", "TS 6D 9H 2C 3D 7S 5C", stake=100), Action.STAND)
    assert state.dealer.cards == parse_cards("6D 2C 3D 7S")
    drew = ("C.bj.dealer-draw", "BJ.dealer-needed")
    found = state.citations()
    assert found[f"blackjack.dealer.cards[2]={ABSENT}"] == drew
    assert found[f"blackjack.dealer.cards[3]={ABSENT}"] == drew
    assert found["blackjack.dealer.cards[4]"] == ("C.bj.dealer-draw",)
    assert f"blackjack.dealer.cards[4]={ABSENT}" not in found
    assert cited(state, "blackjack.dealer.cards[2]", ABSENT) == "C.bj.dealer-draw"


def test_a_blackjack_paid_at_once_keeps_the_hole_card_hidden_by_nat_immediate() -> None:
    state = deal("blackjack-a", "AS 7H KD 9C 5C", stake=100)
    assert state.complete
    assert cited(state, "blackjack.dealer.cards[1]", "9C") == "A.nat-immediate"
    assert cited(state, "blackjack.dealer.hole_card_hidden", "false") == "A.nat-immediate"


def test_the_peek_rule_decides_whether_a_ten_up_ends_the_round() -> None:
    # TH up, AC hole: a dealer blackjack. A peeks and ends the round; C does not look.
    a = deal("blackjack-a", "9S TH 7D AC 5C", stake=100)
    assert a.complete
    assert cited(a, "phase", "play") == "A.peek"
    c = deal("blackjack-c", "9S TH 7D AC 5C", stake=100)
    assert c.phase is blackjack.Phase.PLAY
    assert cited(c, "phase", "complete") == "C.bj.peek"


def coup(profile_id: str, shoe: str) -> baccarat.BaccaratRound:
    return baccarat.play_round(
        baccarat.BaccaratRules.from_profile(shipped_profile(profile_id)),
        parse_cards(shoe),
        [
            baccarat.BaccaratSeat(
                balance=1000, bets=(baccarat.BaccaratBet(kind=baccarat.BetKind.PLAYER, amount=100),)
            )
        ],
    )


def bac_cited(played: baccarat.BaccaratRound, path: str, actual: str) -> str:
    found = cite(played.citations(), Difference(path=path, expected="", actual=actual))
    assert found, path
    return found[0]


def test_baccarat_cards_dealt_out_of_order_and_a_fourth_card_are_the_deal_rule() -> None:
    # P 2S, B KH, P 3D, B AC; player 5 draws 4C: 9; banker 1 draws TD: 1.
    played = coup("baccarat-c", "2S KH 3D AC 4C TD 5H")
    assert bac_cited(played, "baccarat.player_cards[1]", "KH") == "BAC.deal"
    assert bac_cited(played, "baccarat.banker_cards[3]", "5H") == "BAC.deal"
    # The banker's third card was due by the tableau (banker 0-2 always draws).
    assert bac_cited(played, "baccarat.banker_cards[2]", ABSENT) == "BAC.banker-tableau"


def test_baccarat_third_cards_not_taken_cite_the_rule_that_stood() -> None:
    # Player 7S 9D = 6 stands; banker 4H 6C = 0 draws 3C (the player stood: BAC.banker-stood).
    stood = coup("baccarat-b", "7S 4H 9D 6C 3C 2D")
    assert bac_cited(stood, "baccarat.player_cards[2]", "3C") == "BAC.player-draw"
    assert bac_cited(stood, "baccarat.banker_cards[2]", ABSENT) == "BAC.banker-stood"
    # A natural 9 for the banker: neither hand draws (BAC.natural).
    natural = coup("baccarat-b", "2S 9H 3D KC 5C 2D")
    assert bac_cited(natural, "baccarat.player_cards[2]", "5C") == "BAC.natural"
    # Document B's tableau is B.tableau first: player 5 draws an ace (6), banker 4 draws on it.
    drew = coup("baccarat-b", "AC 2D 4H 2S AS 6D")
    assert bac_cited(drew, "baccarat.banker_cards[2]", ABSENT) == "B.tableau"


def test_hands_a_dealer_blackjack_at_the_peek_leaves_unplayed_are_the_peeks() -> None:
    # A: 9S 7D = 16 against TH, hole AC: the peek finds a blackjack and the round ends before
    # the hand is played (A.peek). Its status, and a card it never took, are the peek's.
    state = deal("blackjack-a", "9S TH 7D AC 5C", stake=100)
    assert state.complete
    hand = "blackjack.seats[0].hands[0]"
    assert cited(state, f"{hand}.status", "stood") == "A.peek"
    assert cited(state, f"{hand}.cards[2]", "5C") == "A.peek"
    # C peeks under an ace only: C.bj.peek.
    state = deal("blackjack-c", "9S AH 7D KC 5C", stake=1)
    assert state.complete
    assert cited(state, f"{hand}.status", "stood") == "C.bj.peek"


def test_a_blackjack_at_the_peek_keeps_its_own_reason() -> None:
    # Both blackjacks: the seat's hand is a blackjack by BJ.natural, not by the peek.
    state = deal("blackjack-a", "AS TH KD AC 5C", stake=100)
    assert state.complete
    assert cited(state, "blackjack.seats[0].hands[0].status", "playing") == "BJ.natural"


# --- a decision the rules open: every condition it passed, the narrowest first ------------


def all_cited(state: blackjack.BlackjackState, path: str, actual: str = ABSENT) -> tuple[str, ...]:
    return cite(state.citations(), Difference(path=path, expected="offered", actual=actual))


def test_a_double_the_funds_just_cover_is_the_funds_rules_then_the_doubles() -> None:
    # A: 5S 6D = 11 against 7H. Balance 200, stake 100: 100 free covers the extra 100, not
    # twice over: an engine withholding the double most likely got the funds wrong (BJ.funds).
    shoe = "5S 7H 6D TC 9C"
    narrow = all_cited(deal("blackjack-a", shoe, stake=100, balance=200), "legal_decisions[double]")
    assert narrow == ("BJ.funds", "A.split", "A.double")
    # 299: still short of twice; 300: funds to spare, the double's own rule first, funds after.
    assert (
        all_cited(deal("blackjack-a", shoe, stake=100, balance=299), "legal_decisions[double]")[0]
        == "BJ.funds"
    )
    wide = all_cited(deal("blackjack-a", shoe, stake=100, balance=300), "legal_decisions[double]")
    assert wide == ("A.double", "BJ.funds", "A.split")


def test_a_split_the_funds_just_cover_is_the_funds_rules_and_a_resplit_the_resplit_rules() -> None:
    shoe = "8S 7H 8D TC 9C 2C 3C 4C"
    narrow = all_cited(deal("blackjack-c", shoe, stake=100, balance=250), "legal_decisions[split]")
    assert narrow[0] == "BJ.funds"
    assert (
        all_cited(deal("blackjack-c", shoe, stake=100, balance=300), "legal_decisions[split]")[0]
        == "C.bj.split"
    )
    # A lab table of four hands: 8S 8D split, hand 0 takes 8C, a pair again. The re-split is
    # open by the resplit rule: an engine that allows one split only withholds it.
    lab = blackjack.BlackjackRules.from_profile(
        load_profile_text(
            'id = "lab"\nextends = "blackjack-c"\ntitle = "t"\n[parameters]\n'
            'max_hands = { value = 4, clauses = ["VAR.bj.resplit"] }\n'
        )
    )
    state = blackjack.deal(
        lab, parse_cards("8S 7H 8D TC 8C 2C 3C 4C 5C"), [BlackjackSeat(balance=1000, stake=100)]
    )
    state = decide(state, Action.SPLIT)
    assert all_cited(state, "legal_decisions[split]")[0] == "VAR.bj.resplit"


def test_insurance_on_an_odd_stake_is_the_half_stakes_and_on_just_enough_funds_the_funds() -> None:
    # 9S 7D against AH: insurance offered. A stake of 15 insures for 7 (7.5 rounded down): an
    # engine that withholds it most likely trips on the rounding (BJ.half-stakes).
    shoe = "9S AH 7D 8C 5C"
    assert (
        all_cited(deal("blackjack-a", shoe, stake=15), "legal_decisions[insurance]")[0]
        == "BJ.half-stakes"
    )
    assert cited(deal("blackjack-a", shoe, stake=15), "phase", "play") == "BJ.half-stakes"
    # Stake 100, balance 160: 60 free covers the 50, not twice: the funds rule first.
    tight = all_cited(
        deal("blackjack-c", shoe, stake=100, balance=160), "legal_decisions[insurance]"
    )
    assert tight[0] == "BJ.funds"
    roomy = all_cited(deal("blackjack-c", shoe, stake=100), "legal_decisions[insurance]")
    assert roomy == ("C.bj.insurance", "BJ.half-stakes", "BJ.funds")
    # Even money on an odd stake: the half-stake rule first too.
    even = deal("blackjack-a", "AS AH KD 7C 5C", stake=15)
    assert all_cited(even, "legal_decisions[even-money]")[0] == "BJ.half-stakes"
    assert (
        all_cited(deal("blackjack-a", "AS AH KD 7C 5C", stake=16), "legal_decisions[even-money]")[0]
        == "A.even-money"
    )


def test_without_the_funds_rule_an_open_decision_cites_no_funds() -> None:
    # A lab table where extra stakes need no funds: nothing about funds was checked.
    lab = blackjack.BlackjackRules.from_profile(
        load_profile_text(
            'id = "lab"\nextends = "blackjack-c"\ntitle = "t"\n[parameters]\n'
            "extra_stakes_need_funds = { value = false }\n"
        )
    )
    seats = [BlackjackSeat(balance=100, stake=100)]
    double = blackjack.deal(lab, parse_cards("5S 7H 6D TC 9C"), seats)
    assert all_cited(double, "legal_decisions[double]") == ("C.bj.double",)
    split = blackjack.deal(lab, parse_cards("8S 7H 8D TC 9C 2C"), seats)
    assert all_cited(split, "legal_decisions[split]") == ("C.bj.split",)
    insured = blackjack.deal(lab, parse_cards("9S AH 7D 8C 5C"), seats)
    assert all_cited(insured, "legal_decisions[insurance]") == ("C.bj.insurance", "BJ.half-stakes")


def test_the_dealers_first_draw_is_the_need_when_one_hand_alone_waits() -> None:
    # A, two seats: seat 0 TS 6D hits KC, bust; seat 1 9C 9D stands. Dealer 5H 7C = 12 draws.
    # One hand alone waits for the total: an engine that skips the dealer most likely miscounts
    # the hands that wait (BJ.dealer-needed), not the drawing rule on 12.
    def play_out(shoe: str, seats: int, *, first_hits: bool = True) -> blackjack.BlackjackState:
        state = blackjack.deal(
            rules("blackjack-a"),
            parse_cards(shoe),
            [BlackjackSeat(balance=1000, stake=100) for _ in range(seats)],
        )
        while state.turn is not None:
            state = decide(
                state,
                Action.HIT if state.turn.seat == 0 and seats == 2 and first_hits else Action.STAND,
            )
        return state

    first_draw = "blackjack.dealer.cards[2]"
    lone = play_out("TS 9C 5H 6D 9D 7C KC 5S", seats=2)
    assert all_cited(lone, first_draw) == ("BJ.dealer-needed", "A.dealer-draw")
    # A second draw, once the dealer draws at all, is the drawing rule's: 12, 2S 14, 4S 18.
    twice = play_out("TS 9C 5H 6D 9D 7C KC 2S 4S", seats=2)
    assert len(twice.dealer.cards) == 4
    assert all_cited(twice, first_draw)[0] == "BJ.dealer-needed"
    assert all_cited(twice, "blackjack.dealer.cards[3]") == ("A.dealer-draw", "BJ.dealer-needed")
    # Two hands wait: the need is no near thing, the drawing rule comes first.
    both = play_out("TS 9C 5H 6D 9D 7C 5S", seats=2, first_hits=False)
    assert [h.status for s in both.seats for h in s.hands] == [blackjack.HandStatus.STOOD] * 2
    assert all_cited(both, first_draw) == ("A.dealer-draw", "BJ.dealer-needed")
    # One seat alone, standing: nothing else to miscount, the drawing rule first.
    single = play_out("9C 5H 9D 7C 5S", seats=1)
    assert all_cited(single, first_draw) == ("A.dealer-draw", "BJ.dealer-needed")


def test_two_hands_waiting_and_one_bust_is_no_near_thing() -> None:
    # A, three seats: 9C 9D = 18 and 9S 8D = 17 stand; TS 6D = 16 hits KC, bust. Dealer
    # 5H 7C = 12 draws 5S. Two hands wait for the total: the drawing rule comes first, the
    # need after it (the bust hand is not the one that waits).
    state = blackjack.deal(
        rules("blackjack-a"),
        parse_cards("9C 9S TS 5H 9D 8D 6D 7C KC 5S"),
        [BlackjackSeat(balance=1000, stake=100) for _ in range(3)],
    )
    while state.turn is not None:
        state = decide(state, Action.HIT if state.turn.seat == 2 else Action.STAND)
    statuses = [h.status for s in state.seats for h in s.hands]
    assert statuses == [blackjack.HandStatus.STOOD] * 2 + [blackjack.HandStatus.BUST]
    assert len(state.dealer.cards) == 3
    assert all_cited(state, "blackjack.dealer.cards[2]") == ("A.dealer-draw", "BJ.dealer-needed")
