"""Hand-computed tests of the blackjack variants a lab may choose (RULES.md "Variants").

Every expected figure is worked out by hand from RULES.md, as in ``test_blackjack.py``:
shoes in contract order (first card to each seat, up card, second card to each seat, hole
card, then every draw as it happens), amounts returned stake included.
"""

# Test names carry RULES.md clause IDs as written (VAR.bj.resplit -> test_VAR_bj_resplit_...).
# ruff: noqa: N802

from __future__ import annotations

import pytest

from croupier.oracle.blackjack import (
    Action,
    BlackjackRules,
    BlackjackSeat,
    BlackjackState,
    Decision,
    HandStatus,
    Phase,
    deal,
    decide,
)
from croupier.oracle.cards import format_cards, parse_cards
from croupier.oracle.errors import IllegalDecisionError, ProfileError
from croupier.oracle.profile import load_profile_text

HIT, STAND, DOUBLE, SPLIT = Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT
SURRENDER, NO_SURRENDER = Action.SURRENDER, Action.DECLINE_SURRENDER
INSURANCE, NO_INSURANCE = Action.INSURANCE, Action.DECLINE_INSURANCE


def lab(base: str, **values: object) -> BlackjackRules:
    """A lab profile extending ``base`` with these values, each citing the variant's clause."""
    return BlackjackRules.from_profile(load_profile_text(_text(base, values)))


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, int) else f'"{value}"'


_CLAUSE = {
    "double_on": "VAR.bj.double-on",
    "max_hands": "VAR.bj.resplit",
    "resplit_aces": "VAR.bj.resplit",
    "hole_card": "VAR.bj.hole-card",
    "surrender_timing": "VAR.bj.surrender",
    "double_for_less": "VAR.bj.double-for-less",
    "insurance_stake": "VAR.bj.insurance-stake",
}


def _text(base: str, values: dict[str, object]) -> str:
    lines = [
        f'{name} = {{ value = {_toml(value)}, clauses = ["{_CLAUSE.get(name, "BJ.deal")}"], '
        'status = "documented" }'
        for name, value in values.items()
    ]
    return f'id = "lab"\nextends = "{base}"\n[parameters]\n' + "\n".join(lines) + "\n"


def start(
    rules: BlackjackRules, shoe: str, stake: int = 100, balance: int = 1000
) -> BlackjackState:
    return deal(rules, parse_cards(shoe), [BlackjackSeat(balance=balance, stake=stake)])


def play(state: BlackjackState, *actions: Action) -> BlackjackState:
    for action in actions:
        turn = state.turn
        assert turn is not None, f"the round is complete; cannot {action.value}"
        state = decide(state, Decision(seat=turn.seat, hand=turn.hand, action=action))
    return state


def returned(state: BlackjackState) -> list[int]:
    assert state.complete
    return [line.payout.returned for line in state.settlement]


def refusal(
    state: BlackjackState, action: Action, amount: int | None = None
) -> IllegalDecisionError:
    turn = state.turn
    assert turn is not None
    with pytest.raises(IllegalDecisionError) as info:
        decide(state, Decision(seat=turn.seat, hand=turn.hand, action=action, amount=amount))
    return info.value


def take(state: BlackjackState, action: Action, amount: int | None) -> BlackjackState:
    """One decision carrying an amount (or none: the full one)."""
    turn = state.turn
    assert turn is not None
    return decide(state, Decision(seat=turn.seat, hand=turn.hand, action=action, amount=amount))


# --- VAR.bj.double-on ----------------------------------------------------------------------

# Against 7H, hole TC (17). Which first cards may double under each value.
DOUBLE_ON = [
    # cards dealt, hits before the double, then: any-two, nine-to-eleven, ten-eleven, any-cards
    pytest.param("5S 7H 3D TC", 0, (True, False, False, True), id="two-card-8"),
    pytest.param("5S 7H 4D TC", 0, (True, True, False, True), id="two-card-9"),
    pytest.param("6S 7H 4D TC", 0, (True, True, True, True), id="two-card-10"),
    pytest.param("6S 7H 5D TC", 0, (True, True, True, True), id="two-card-11"),
    pytest.param("AS 7H 8D TC", 0, (True, False, False, True), id="soft-19"),
    pytest.param("2S 7H 3D TC 4C", 1, (False, False, False, True), id="three-card-9"),
]
VALUES = ("any-two", "nine-to-eleven", "ten-eleven", "any-cards")


@pytest.mark.parametrize(("shoe", "hits", "open_under"), DOUBLE_ON)
def test_VAR_bj_double_on_which_hands_may_double(
    shoe: str, hits: int, open_under: tuple[bool, ...]
) -> None:
    for value, expected in zip(VALUES, open_under, strict=True):
        state = play(start(lab("blackjack-a", double_on=value), shoe), *[HIT] * hits)
        assert (DOUBLE in state.legal) is expected, value


@pytest.mark.parametrize("value", ["nine-to-eleven", "ten-eleven"])
def test_VAR_bj_double_on_a_refused_total_cites_the_variant(value: str) -> None:
    # 5S 3D = 8: no double under either restriction, and the refusal says which rule.
    error = refusal(start(lab("blackjack-a", double_on=value), "5S 7H 3D TC"), DOUBLE)
    assert error.clause == "VAR.bj.double-on"


def test_VAR_bj_double_on_any_cards_after_a_hit_takes_one_card_and_stands() -> None:
    # 2S 3D = 5, hit 4C: 9; double: stake 200, TS: 19, the hand stands; 19 beats the dealer's
    # 17 (7H TC): 400 back.
    state = play(start(lab("blackjack-a", double_on="any-cards"), "2S 7H 3D TC 4C TS"), HIT)
    # The double the variant opens after a hit cites it, then the funds it passed (BJ.funds,
    # documented for A's split).
    assert state.citations()["legal_decisions[double]"] == (
        "VAR.bj.double-on",
        "BJ.funds",
        "A.split",
    )
    state = play(state, DOUBLE)
    hand = state.seats[0].hands[0]
    assert format_cards(hand.cards) == "2S 3D 4C TS"
    assert (hand.stake, hand.doubled, hand.status) == (200, True, HandStatus.STOOD)
    assert returned(state) == [400]


@pytest.mark.parametrize(
    ("value", "shoe", "hits", "cited"),
    [
        # Two cards under any-two or any-cards: the documents' double rule opens it alone.
        pytest.param("any-two", "6S 7H 4D TC", 0, ("A.double",), id="any-two"),
        pytest.param("any-cards", "6S 7H 4D TC", 0, ("A.double",), id="any-cards-two-cards"),
        # After a hit only the any-cards variant opens it.
        pytest.param("any-cards", "2S 7H 3D TC 4C", 1, ("VAR.bj.double-on",), id="any-cards-hit"),
        # A total of 10 under a restriction: the restriction it passed, then the double rule.
        pytest.param(
            "nine-to-eleven", "6S 7H 4D TC", 0, ("VAR.bj.double-on", "A.double"), id="9-11"
        ),
        pytest.param("ten-eleven", "6S 7H 4D TC", 0, ("VAR.bj.double-on", "A.double"), id="10-11"),
    ],
)
def test_VAR_bj_double_on_an_open_double_cites_the_rules_that_opened_it(
    value: str, shoe: str, hits: int, cited: tuple[str, ...]
) -> None:
    state = play(start(lab("blackjack-a", double_on=value), shoe), *[HIT] * hits)
    assert DOUBLE in state.legal
    # Then the funds it passed with room to spare (BJ.funds, documented for A's split).
    assert state.citations()["legal_decisions[double]"] == (*cited, "BJ.funds", "A.split")


def test_VAR_bj_double_on_any_cards_still_needs_funds() -> None:
    # Balance 250, stake 100: 2S 3D, hit 4C; doubling needs 100 more of the 150 free: open.
    # Balance 150: 50 free, no double (BJ.funds).
    rules = lab("blackjack-a", double_on="any-cards")
    rich = play(start(rules, "2S 7H 3D TC 4C", balance=250), HIT)
    poor = play(start(rules, "2S 7H 3D TC 4C", balance=150), HIT)
    assert DOUBLE in rich.legal
    assert DOUBLE not in poor.legal


def test_VAR_bj_double_on_nine_to_eleven_after_a_split_follows_double_after_split() -> None:
    # 5S 5D against 7H, hole TC: split; hand 0 takes 4C: 9, which may double under
    # nine-to-eleven with double after split (A); without it, no double.
    shoe = "5S 7H 5D TC 4C"
    das = play(start(lab("blackjack-a", double_on="nine-to-eleven"), shoe), SPLIT)
    assert DOUBLE in das.legal
    rules = lab("blackjack-a", double_on="nine-to-eleven", double_after_split=False)
    assert DOUBLE not in play(start(rules, shoe), SPLIT).legal


# --- VAR.bj.resplit ------------------------------------------------------------------------


def test_VAR_bj_resplit_hands_made_by_a_split_are_numbered_in_the_order_made() -> None:
    # 8S 8D against 6H, hole TC. Split: hand 0 8S, hand 1 8D. Hand 0 takes 8C: split again;
    # the new hand (8C) comes after 8D, made first. Hand 0 takes TD: 18, stand; hand 1 8D
    # takes TH: 18; hand 2 8C takes TS: 18. The dealer's 16 draws 6S: 22: 200 each.
    rules = lab("blackjack-a", max_hands=3)
    state = play(start(rules, "8S 6H 8D TC 8C TD TH TS 6S"), SPLIT, SPLIT)
    hands = state.seats[0].hands
    assert [format_cards(h.cards) for h in hands] == ["8S TD", "8D", "8C"]
    assert [h.status for h in hands] == [HandStatus.PLAYING, *[HandStatus.WAITING] * 2]
    state = play(state, STAND, STAND, STAND)
    assert [format_cards(h.cards) for h in state.seats[0].hands] == ["8S TD", "8D TH", "8C TS"]
    assert returned(state) == [200, 200, 200]


def test_VAR_bj_resplit_a_later_hand_splits_right_after_itself() -> None:
    # 8S 8D against 6H, hole TC, max 4 hands. Split; hand 0 takes 8C: split again (hands 8S,
    # 8D, 8C). Hand 0 takes TD, stands. Hand 1 (8D) takes 8H: split; its new hand 8H comes
    # right after it, before 8C. Hand 1 takes TH, stands; hand 2 (8H) takes TS; hand 3 (8C)
    # takes TC. The dealer's 16 draws 6S: 22; four hands of 18, 200 each.
    rules = lab("blackjack-a", max_hands=4)
    state = play(start(rules, "8S 6H 8D TC 8C TD 8H TH TS TC 6S"), SPLIT, SPLIT, STAND, SPLIT)
    assert [format_cards(h.cards) for h in state.seats[0].hands] == ["8S TD", "8D TH", "8H", "8C"]
    state = play(state, STAND, STAND, STAND)
    assert [format_cards(h.cards) for h in state.seats[0].hands] == [
        "8S TD",
        "8D TH",
        "8H TS",
        "8C TC",
    ]
    assert returned(state) == [200] * 4


def test_VAR_bj_resplit_a_later_hand_split_twice_keeps_its_hands_together() -> None:
    # 8S 8D against 6H, hole TC, max 5 hands. Split; hand 0 takes 8C: split again (8S, 8D,
    # 8C); hand 0 takes TD, stands. Hand 1 (8D) takes 8H: split, 8H right after it; hand 1
    # takes 8S: split again, and this hand, made second by hand 1, comes after 8H and still
    # before 8C, which hand 0 made. Hand 1 takes TH. Then 8H takes TS, 8S takes TC, 8C takes
    # TD; the dealer's 16 draws 6S: 22; five hands of 18, 200 each.
    rules = lab("blackjack-a", max_hands=5)
    shoe = "8S 6H 8D TC 8C TD 8H 8S TH TS TC TD 6S"
    state = play(start(rules, shoe), SPLIT, SPLIT, STAND, SPLIT, SPLIT)
    hands = [format_cards(h.cards) for h in state.seats[0].hands]
    assert hands == ["8S TD", "8D TH", "8H", "8S", "8C"]
    state = play(state, STAND, STAND, STAND, STAND)
    hands = [format_cards(h.cards) for h in state.seats[0].hands]
    assert hands == ["8S TD", "8D TH", "8H TS", "8S TC", "8C TD"]
    assert returned(state) == [200] * 5


def test_VAR_bj_resplit_eight_hands_at_most() -> None:
    # Eights split seven times make eight hands; an eighth split would make a ninth: refused
    # by the most hands a seat may hold.
    eights = " ".join(["8C", "8H", "8S", "8D", "8C", "8H", "8S"])
    state = start(lab("blackjack-a", max_hands=8), f"8S 6H 8D TC {eights}")
    state = play(state, *[SPLIT] * 7)
    assert len(state.seats[0].hands) == 8
    assert format_cards(state.seats[0].hands[0].cards) == "8S 8S"
    error = refusal(state, SPLIT)
    assert error.clause == "VAR.bj.resplit"
    assert "split" not in error.metadata["legal"].split(",")


@pytest.mark.parametrize(("resplit_aces", "open_"), [(False, False), (True, True)])
def test_VAR_bj_resplit_aces(resplit_aces: bool, open_: bool) -> None:
    # AS AD against 6H: split; hand 0 takes AC, a pair of aces again.
    rules = lab("blackjack-a", max_hands=4, resplit_aces=resplit_aces)
    state = play(start(rules, "AS 6H AD TC AC"), SPLIT)
    assert format_cards(state.seats[0].hands[0].cards) == "AS AC"
    assert (SPLIT in state.legal) is open_
    if not open_:
        assert refusal(state, SPLIT).clause == "VAR.bj.resplit"


def test_VAR_bj_resplit_aces_that_take_no_hits_wait_to_split_or_stand() -> None:
    # Split aces take no more cards (hit_split_aces false), but may re-split: AS AD against
    # 6H; split; hand 0 takes AC: it may stand or split, nothing else. Split: hand 0 takes
    # TD: 21 and stands by itself; hand 1 (AD) takes 9H: 20, stands (no hits); hand 2 (AC)
    # takes 5S: 16, stands. Dealer 6H TC = 16 draws 7S: 23, bust: 200, 200, 200.
    rules = lab("blackjack-a", max_hands=3, resplit_aces=True, hit_split_aces=False)
    state = play(start(rules, "AS 6H AD TC AC TD 9H 5S 7S"), SPLIT)
    assert set(state.legal) == {STAND, SPLIT}
    state = play(state, SPLIT)
    assert state.complete
    assert [format_cards(h.cards) for h in state.seats[0].hands] == ["AS TD", "AD 9H", "AC 5S"]
    assert returned(state) == [200, 200, 200]


def test_VAR_bj_resplit_aces_without_hits_and_no_hand_left_stand_at_once() -> None:
    # The same aces with two hands at most (no re-split): hand 0 AS AC stands at once.
    rules = lab("blackjack-a", hit_split_aces=False)
    state = play(start(rules, "AS 6H AD TC AC 9H 7S"), SPLIT)
    assert state.complete
    assert [h.status for h in state.seats[0].hands] == [HandStatus.STOOD] * 2


def test_VAR_bj_resplit_aces_needs_a_third_hand() -> None:
    with pytest.raises(ProfileError) as info:
        lab("blackjack-a", resplit_aces=True)
    assert info.value.metadata["key"] == "parameters.resplit_aces"
    assert "max_hands" in str(info.value)


# --- VAR.bj.hole-card ----------------------------------------------------------------------


@pytest.mark.parametrize(("value", "hidden"), [("always", False), ("showdown", True)])
def test_VAR_bj_hole_card_after_every_hand_busts(value: str, hidden: bool) -> None:
    # TS 6D = 16 against 7H, hole TC; hit 9C: 25, bust. No hand is compared: at a showdown
    # table the hole card stays face down. Either way the dealer draws nothing: 0 back.
    state = play(start(lab("blackjack-a", hole_card=value), "TS 7H 6D TC 9C 5H"), HIT)
    assert state.dealer.hole_revealed is not hidden
    assert state.dealer.draws == ()
    assert state.position == 5
    assert returned(state) == [0]


def test_VAR_bj_hole_card_showdown_with_a_hand_to_compare_turns_and_draws() -> None:
    # TS 8D = 18 stands against 6H, hole TC: 16 draws 5H: 21; 18 loses: 0.
    state = play(start(lab("blackjack-a", hole_card="showdown"), "TS 6H 8D TC 5H"), STAND)
    assert state.dealer.hole_revealed
    assert format_cards(state.dealer.draws) == "5H"
    assert returned(state) == [0]


def test_VAR_bj_hole_card_showdown_after_a_surrender() -> None:
    # Document C surrenders: TS 6D against 9H, hole 8C; surrender: 50 back, hole face down.
    state = play(start(lab("blackjack-c", hole_card="showdown"), "TS 9H 6D 8C"), SURRENDER)
    assert not state.dealer.hole_revealed
    assert returned(state) == [50]


@pytest.mark.parametrize(
    ("shoe", "shown", "back"),
    [
        # C under a ten: no peek, the blackjack is compared with the hole card: 9C, 250.
        pytest.param("AS KH TD 9C", True, 250, id="under-a-ten-compared"),
        # Under a ten the hole card ties it: AC, a dealer blackjack: push, 100.
        pytest.param("AS KH TD AC", True, 100, id="under-a-ten-tied"),
        # Under a 7 nothing can tie it: paid 3:2 without a showdown: 250, hole face down.
        pytest.param("AS 7H TD 9C", False, 250, id="under-a-seven"),
    ],
)
def test_VAR_bj_hole_card_showdown_with_a_blackjack(shoe: str, shown: bool, back: int) -> None:
    state = start(lab("blackjack-c", hole_card="showdown"), shoe)
    assert state.complete
    assert state.dealer.hole_revealed is shown
    assert returned(state) == [back]


def test_VAR_bj_hole_card_showdown_cannot_go_with_a_dealer_who_always_draws() -> None:
    with pytest.raises(ProfileError) as info:
        lab("blackjack-a", hole_card="showdown", dealer_draws_when_not_needed=True)
    assert info.value.metadata["key"] == "parameters.hole_card"


# --- VAR.bj.surrender ----------------------------------------------------------------------

EARLY = {"surrender": True, "surrender_timing": "early"}


def test_VAR_bj_surrender_none_is_never_offered() -> None:
    # Document A: no surrender (A.surrender), before or after the look.
    state = start(lab("blackjack-a"), "TS KH 6D 9C")
    assert SURRENDER not in state.legal
    assert NO_SURRENDER not in state.legal


def test_VAR_bj_surrender_late_against_a_peeked_blackjack_is_too_late() -> None:
    # Document A with late surrender: TS 6D against KH, hole AC. The look finds a blackjack
    # before anyone acts: the round ends, the 16 loses its stake: 0.
    state = start(lab("blackjack-a", surrender=True), "TS KH 6D AC")
    assert state.complete
    assert returned(state) == [0]


def test_VAR_bj_surrender_early_keeps_half_against_a_dealer_blackjack() -> None:
    # The same round with early surrender: asked before the look, during the offers; the
    # hand surrenders, then the look finds the blackjack: 50 back all the same.
    state = start(lab("blackjack-a", **EARLY), "TS KH 6D AC")
    assert (state.phase, state.legal) == (Phase.OFFERS, (SURRENDER, NO_SURRENDER))
    # Asked of the seat's one hand, hand 0, before the look.
    assert state.turn is not None
    assert (state.turn.seat, state.turn.hand) == (0, 0)
    state = play(state, SURRENDER)
    assert state.complete
    assert state.seats[0].hands[0].status is HandStatus.SURRENDERED
    assert returned(state) == [50]
    assert "VAR.bj.surrender" in state.settlement[0].clauses


def test_VAR_bj_surrender_early_declined_is_not_offered_again_in_play() -> None:
    # TS 6D against KH, hole 7C: decline; the look finds no blackjack; in play the hand may
    # hit or stand but not surrender (asked once, before the look). Stand: 16 against 17: 0.
    state = play(start(lab("blackjack-a", **EARLY), "TS KH 6D 7C"), NO_SURRENDER)
    assert state.phase is Phase.PLAY
    assert SURRENDER not in state.legal
    assert refusal(state, SURRENDER).clause == "VAR.bj.surrender"
    assert returned(play(state, STAND)) == [0]


def test_VAR_bj_surrender_early_comes_before_insurance_seat_by_seat() -> None:
    # Two seats against an ace: seat 0 TS 6D, seat 1 9S 7D; up AH, hole KC (blackjack).
    # Seat 0 is asked to surrender (yes: no insurance offer follows), seat 1 is asked (no),
    # then offered insurance of 50 (yes). The look: blackjack. Seat 0: 50; seat 1: hand 0,
    # insurance 50 at 2:1: 150.
    rules = lab("blackjack-a", **EARLY)
    seats = [BlackjackSeat(balance=1000, stake=100)] * 2
    state = deal(rules, parse_cards("TS 9S AH 6D 7D KC"), seats)
    assert state.turn is not None
    assert (state.turn.seat, state.legal) == (0, (SURRENDER, NO_SURRENDER))
    state = play(state, SURRENDER)
    assert state.turn is not None
    assert (state.turn.seat, state.legal) == (1, (SURRENDER, NO_SURRENDER))
    state = play(state, NO_SURRENDER)
    assert state.turn is not None
    assert (state.turn.seat, state.legal) == (1, (INSURANCE, NO_INSURANCE))
    state = play(state, INSURANCE)
    assert state.complete
    assert returned(state) == [50, 0, 150]


def test_VAR_bj_surrender_early_under_an_up_card_without_a_look_is_offered_in_play() -> None:
    # Under a 9 nobody looks: surrender is a play decision as late surrender is: 50.
    state = start(lab("blackjack-a", **EARLY), "TS 9H 6D 8C")
    assert state.phase is Phase.PLAY
    assert SURRENDER in state.legal
    assert NO_SURRENDER not in state.legal
    assert returned(play(state, SURRENDER)) == [50]


def test_VAR_bj_surrender_decline_is_no_decision_of_a_late_profile() -> None:
    state = start(lab("blackjack-c"), "TS 9H 6D 8C")
    assert refusal(state, NO_SURRENDER).clause == "VAR.bj.surrender"
    assert "legal_decisions[decline-surrender]" not in state.citations()


def test_VAR_bj_surrender_early_needs_surrender() -> None:
    with pytest.raises(ProfileError) as info:
        lab("blackjack-a", surrender_timing="early")
    assert info.value.metadata["key"] == "parameters.surrender_timing"


# --- VAR.bj.double-for-less -----------------------------------------------------------------

DFL = {"double_for_less": True}


@pytest.mark.parametrize(
    ("amount", "stake", "back"), [(40, 140, 280), (1, 101, 202), (None, 200, 400)]
)
def test_VAR_bj_double_for_less_stakes_the_amount_chosen(
    amount: int | None, stake: int, back: int
) -> None:
    # 5S 6D = 11 against 7H, hole TC (17). Double for the amount (none: the full 100), TS:
    # 21 beats 17: the hand's stake, 100 plus the amount, comes back twice.
    state = take(start(lab("blackjack-a", **DFL), "5S 7H 6D TC TS"), DOUBLE, amount)
    hand = state.seats[0].hands[0]
    assert (hand.stake, hand.doubled, len(hand.cards)) == (stake, True, 3)
    assert returned(state) == [back]


@pytest.mark.parametrize(
    ("amount", "clause"),
    [
        (0, "VAR.bj.double-for-less"),
        (101, "VAR.bj.double-for-less"),
        (-5, "VAR.bj.double-for-less"),
    ],
)
def test_VAR_bj_double_for_less_refuses_an_amount_out_of_range(amount: int, clause: str) -> None:
    state = start(lab("blackjack-a", **DFL), "5S 7H 6D TC TS")
    error = refusal(state, DOUBLE, amount)
    assert error.clause == clause
    assert error.metadata["amount"] == str(amount)


def test_VAR_bj_double_for_less_needs_only_the_amount_free() -> None:
    # Balance 130, stake 100: 30 free. Without the variant no double (BJ.funds); with it the
    # double is open, for 30 at most: 31 is refused by the funds rule, 30 is taken.
    assert DOUBLE not in start(lab("blackjack-a"), "5S 7H 6D TC TS", balance=130).legal
    state = start(lab("blackjack-a", **DFL), "5S 7H 6D TC TS", balance=130)
    assert DOUBLE in state.legal
    assert refusal(state, DOUBLE, 31).clause == "BJ.funds"
    assert refusal(state, DOUBLE).clause == "BJ.funds"  # the full 100 is not free
    assert returned(take(state, DOUBLE, 30)) == [260]


def test_VAR_bj_double_for_less_is_open_with_one_unit_free() -> None:
    # Balance 101, stake 100: 1 free, the least extra stake the variant takes; double for 1,
    # TS: 21 beats 17: 101 comes back twice, 202. Balance 100: nothing free, no double.
    rules = lab("blackjack-a", **DFL)
    state = start(rules, "5S 7H 6D TC TS", balance=101)
    assert DOUBLE in state.legal
    assert returned(take(state, DOUBLE, 1)) == [202]
    assert DOUBLE not in start(rules, "5S 7H 6D TC TS", balance=100).legal


def test_VAR_bj_double_for_less_an_amount_without_the_variant_is_refused() -> None:
    state = start(lab("blackjack-a"), "5S 7H 6D TC TS")
    assert refusal(state, DOUBLE, 100).clause == "VAR.bj.double-for-less"
    assert refusal(state, HIT, 10).clause == "CONTRACT.request"


def test_VAR_bj_double_for_less_late_dealer_blackjack_takes_the_original_only() -> None:
    # Document C lab, a late blackjack taking the original stake only: 5S 6D against KH (no
    # peek under a ten), double for 40, TS: 21; the hole card AC makes a blackjack: the
    # original 100 is lost, the 40 comes back.
    rules = lab("blackjack-c", dealer_blackjack_takes="original-stake", **DFL)
    state = take(start(rules, "5S KH 6D AC TS"), DOUBLE, 40)
    assert returned(state) == [40]


def test_VAR_bj_double_for_less_stake_cites_the_variant() -> None:
    state = take(start(lab("blackjack-a", **DFL), "5S 7H 6D TC TS"), DOUBLE, 40)
    assert state.citations()["blackjack.seats[0].hands[0].stake"][0] == "VAR.bj.double-for-less"


# --- VAR.bj.insurance-stake ------------------------------------------------------------------

UP_TO_HALF = {"insurance_stake": "up-to-half"}


@pytest.mark.parametrize(
    ("hole", "amount", "back"),
    [
        # Dealer blackjack: the 9S 8D loses 100; insurance 20 pays 2:1: 60.
        pytest.param("KC", 20, [0, 60], id="blackjack-20"),
        pytest.param("KC", 1, [0, 3], id="blackjack-1"),
        # No amount: the full half, 50: 150 (example A4).
        pytest.param("KC", None, [0, 150], id="blackjack-full"),
        # No blackjack: insurance 20 lost; 17 stands against AH 7C, soft 18: 0.
        pytest.param("7C", 20, [0, 0], id="no-blackjack"),
    ],
)
def test_VAR_bj_insurance_stake_up_to_half(hole: str, amount: int | None, back: list[int]) -> None:
    state = take(start(lab("blackjack-a", **UP_TO_HALF), f"9S AH 8D {hole}"), INSURANCE, amount)
    if not state.complete:
        state = play(state, STAND)
    assert state.seats[0].insurance == (50 if amount is None else amount)
    assert returned(state) == back


@pytest.mark.parametrize("amount", [0, 51])
def test_VAR_bj_insurance_stake_refuses_more_than_half_or_nothing(amount: int) -> None:
    state = start(lab("blackjack-a", **UP_TO_HALF), "9S AH 8D KC")
    assert refusal(state, INSURANCE, amount).clause == "VAR.bj.insurance-stake"


def test_VAR_bj_insurance_stake_half_takes_no_amount() -> None:
    state = start(lab("blackjack-a"), "9S AH 8D KC")
    assert refusal(state, INSURANCE, 20).clause == "VAR.bj.insurance-stake"


def test_VAR_bj_insurance_stake_up_to_half_is_offered_with_a_unit_free() -> None:
    # Balance 110, stake 100: 10 free, short of the half (50): insurance offered up to half,
    # for 10 at most. A 1-unit stake still gets no offer: its half rounds to 0 (BJ.half-stakes).
    state = start(lab("blackjack-a", **UP_TO_HALF), "9S AH 8D KC", balance=110)
    assert INSURANCE in state.legal
    assert refusal(state, INSURANCE, 11).clause == "BJ.funds"
    assert returned(take(state, INSURANCE, 10)) == [0, 30]
    assert start(lab("blackjack-a"), "9S AH 8D KC", balance=110).phase is Phase.COMPLETE
    one = start(lab("blackjack-a", **UP_TO_HALF), "9S AH 8D KC", stake=1)
    assert INSURANCE not in one.legal


def test_VAR_bj_insurance_stake_up_to_half_needs_insurance() -> None:
    with pytest.raises(ProfileError) as info:
        lab("blackjack-a", insurance=False, insurance_stake="up-to-half")
    assert info.value.metadata["key"] == "parameters.insurance_stake"


# --- what each variant's decisions cite ----------------------------------------------------


def test_VAR_bj_double_on_an_open_restricted_double_cites_the_variant_then_the_double() -> None:
    # 5S 4D = 9 under nine-to-eleven: open, by the variant and document A's double.
    nine = start(lab("blackjack-a", double_on="nine-to-eleven"), "5S 7H 4D TC")
    funds = ("BJ.funds", "A.split")  # passed with room to spare: after the rule that opens it
    assert nine.citations()["legal_decisions[double]"] == ("VAR.bj.double-on", "A.double", *funds)
    # Any two cards, or any cards on two: document A's double alone.
    for value in ("any-two", "any-cards"):
        two = start(lab("blackjack-a", double_on=value), "5S 7H 3D TC")
        assert two.citations()["legal_decisions[double]"] == ("A.double", *funds), value


def test_VAR_bj_insurance_stake_up_to_half_cites_the_variant_for_the_stake() -> None:
    state = take(start(lab("blackjack-a", **UP_TO_HALF), "9S AH 8D 7C"), INSURANCE, 20)
    assert state.citations()["*.insurance"][0] == "VAR.bj.insurance-stake"
    half = take(start(lab("blackjack-a"), "9S AH 8D 7C"), INSURANCE, None)
    assert "VAR.bj.insurance-stake" not in half.citations()["*.insurance"]


def test_VAR_bj_surrender_early_is_not_asked_of_a_blackjack() -> None:
    # Seat 0 AS KD, a blackjack, seat 1 TS 6D, against TH, hole 7C: only seat 1 is asked.
    # It declines; no dealer blackjack; seat 0's blackjack is paid at once (250); seat 1
    # stands, 16 against 17: 0.
    rules = lab("blackjack-a", **EARLY)
    seats = [BlackjackSeat(balance=1000, stake=100)] * 2
    state = deal(rules, parse_cards("AS TS TH KD 6D 7C"), seats)
    assert state.turn is not None
    assert (state.turn.seat, state.legal) == (1, (SURRENDER, NO_SURRENDER))
    state = play(state, NO_SURRENDER, STAND)
    assert returned(state) == [250, 0]


# --- the bounds of each variant, unit by unit ----------------------------------------------


def test_VAR_bj_double_for_less_the_full_amount_given_is_the_full_double() -> None:
    # double=100 on a stake of 100 is the whole double: 5S 6D, TS: 21 against 17: 400.
    state = take(start(lab("blackjack-a", **DFL), "5S 7H 6D TC TS"), DOUBLE, 100)
    assert returned(state) == [400]


@pytest.mark.parametrize(("balance", "open_"), [(100, False), (101, True)])
def test_VAR_bj_double_for_less_needs_one_unit_free(balance: int, open_: bool) -> None:
    state = start(lab("blackjack-a", **DFL), "5S 7H 6D TC TS", balance=balance)
    assert (DOUBLE in state.legal) is open_


@pytest.mark.parametrize(("balance", "offered"), [(100, False), (101, True)])
def test_VAR_bj_insurance_stake_up_to_half_needs_one_unit_free(balance: int, offered: bool) -> None:
    # 9S 8D against AH, hole 7C: with nothing free no offer; with 1 free, insurance up to 1.
    state = start(lab("blackjack-a", **UP_TO_HALF), "9S AH 8D 7C", balance=balance)
    assert (INSURANCE in state.legal) is offered


def test_VAR_bj_insurance_stake_the_full_half_given() -> None:
    # insurance=50, the whole half: against a blackjack 150 (example A4).
    state = take(start(lab("blackjack-a", **UP_TO_HALF), "9S AH 8D KC"), INSURANCE, 50)
    assert returned(state) == [0, 150]


def test_VAR_bj_double_on_a_two_card_12_doubles_only_where_any_hand_may() -> None:
    for value, expected in zip(VALUES, (True, False, False, True), strict=True):
        state = start(lab("blackjack-a", double_on=value), "TS 7H 2D TC")
        assert (DOUBLE in state.legal) is expected, value


def test_VAR_bj_hole_card_showdown_after_the_look_a_paid_blackjack_is_not_compared() -> None:
    # Document A looks under a ten: AS KH against KH, hole 9C: no blackjack; the player's is
    # paid at once (250), nothing is left to compare: the hole card stays face down, by
    # the blackjack paid at once (A.nat-immediate), not by the showdown rule.
    state = start(lab("blackjack-a", hole_card="showdown"), "AS KH TD 9C")
    assert state.complete
    assert not state.dealer.hole_revealed
    assert returned(state) == [250]
    state = start(lab("blackjack-a", hole_card="showdown"), "AS 7H TD 9C")
    assert state.citations()["blackjack.dealer.hole_card_hidden"] == ("A.nat-immediate",)


def test_VAR_bj_hole_card_showdown_even_money_without_a_look_is_not_compared() -> None:
    # No look at all (peek none). Seat 0 AS KD, seat 1 TS 6D against AH, hole 9C. Seat 0
    # takes even money (200, paid), seat 1 declines insurance, hits 9S: 25, bust (0). The
    # dealer may hold a blackjack, but no hand is compared with it: the hole stays down.
    rules = lab("blackjack-a", hole_card="showdown", peek="none")
    seats = [BlackjackSeat(balance=1000, stake=100)] * 2
    state = deal(rules, parse_cards("AS TS AH KD 6D 9C 9S"), seats)
    state = play(state, Action.EVEN_MONEY, NO_INSURANCE, HIT)
    assert state.complete
    assert not state.dealer.hole_revealed
    assert returned(state) == [200, 0]


def test_VAR_bj_hole_card_showdown_a_blackjack_waiting_after_the_look_is_not_compared() -> None:
    # Document A with naturals paid at the end: AS KH against TD, hole 9C. The look finds no
    # blackjack, so the player's wins 3:2 whatever the hole card: no showdown, hole face down.
    rules = lab("blackjack-a", hole_card="showdown", natural_paid_at_once=False)
    state = start(rules, "AS TD KH 9C")
    assert state.complete
    assert not state.dealer.hole_revealed
    assert returned(state) == [250]


def test_VAR_bj_surrender_early_what_each_state_cites() -> None:
    # Asked before the look: surrender and its decline are open by the variant, the play
    # decisions wait for it.
    asked = start(lab("blackjack-a", **EARLY), "TS KH 6D 7C")
    cited = asked.citations()
    assert cited["legal_decisions[surrender]"] == ("VAR.bj.surrender",)
    assert cited["legal_decisions[decline-surrender]"] == ("VAR.bj.surrender",)
    assert cited["legal_decisions[hit]"] == ("VAR.bj.surrender",)
    assert cited["phase"] == ("VAR.bj.surrender",)
    # In play, and once complete, decline-surrender is withheld by the variant too.
    playing = play(asked, NO_SURRENDER)
    assert playing.citations()["legal_decisions[decline-surrender]"] == ("VAR.bj.surrender",)
    done = play(playing, STAND)
    assert "legal_decisions[decline-surrender]" in done.citations()
    # The surrender taken early is logged with the variant first.
    surrendered = play(start(lab("blackjack-a", **EARLY), "TS KH 6D AC"), SURRENDER)
    step = next(s for s in surrendered.steps if s.action == "surrender")
    assert step.clauses[0] == "VAR.bj.surrender"


def test_a_late_dealer_blackjack_taking_the_original_only_gives_a_split_hand_its_stake() -> None:
    # Document C lab, a late blackjack taking the original stake only: 8S 8D against KH (no
    # peek under a ten) split for 100 more; hand 0 takes 3C (11), hand 1 2C (10); both stand.
    # The hole card AC makes a blackjack: hand 0 loses the original 100, hand 1's stake is
    # not the original one and comes back whole: 0 and 100.
    rules = lab("blackjack-c", dealer_blackjack_takes="original-stake")
    state = play(start(rules, "8S KH 8D AC 3C 2C"), SPLIT, STAND, STAND)
    assert returned(state) == [0, 100]


def test_a_dealer_who_always_draws_draws_by_its_rule_when_no_hand_waits() -> None:
    # Document A lab, the dealer drawing even when not needed: two seats, TS 6H (16) and
    # TC 5C (15), against 7D, hole 9C (16). Each hits and busts (TD: 26, KD: 25): no hand waits
    # for the dealer, who draws 2S (18) all the same. Nothing was needed narrowly (one hand
    # alone waiting among others): the first draw cites the drawing rule first.
    rules = lab("blackjack-a", dealer_draws_when_not_needed=True)
    seats = [BlackjackSeat(balance=1000, stake=100), BlackjackSeat(balance=1000, stake=100)]
    state = deal(rules, parse_cards("TS TC 7D 6H 5C 9C TD KD 2S"), seats)
    state = play(state, HIT, HIT)
    assert [format_cards(state.dealer.draws)] == ["2S"]
    assert returned(state) == [0, 0]
    stops = rules.cite("dealer_hits_soft_17")
    assert stops[0] != "BJ.dealer-needed"
    assert state.dealer.why_drew[0] == stops[0]


def test_decline_surrender_without_early_surrender_is_refused_by_its_first_clause() -> None:
    # A lab whose late surrender timing cites two clauses, VAR.bj.surrender first: declining a
    # surrender that is never asked (it is asked only early) is refused by that first clause.
    text = (
        'id = "lab"\nextends = "blackjack-a"\n[parameters]\nsurrender = { value = true, '
        'clauses = ["VAR.bj.surrender"], status = "documented" }\nsurrender_timing = '
        '{ value = "late", clauses = ["VAR.bj.surrender", "BJ.deal"], status = "documented" }\n'
    )
    rules = BlackjackRules.from_profile(load_profile_text(text))
    assert rules.cite("surrender_timing") == ("VAR.bj.surrender", "BJ.deal")
    state = start(rules, "TS 7H 6D 9C")
    assert refusal(state, NO_SURRENDER).clause == "VAR.bj.surrender"
