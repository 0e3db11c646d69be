"""Properties of the blackjack state machine over full shoes, random seats and random play.

Every test deals a round from a full shoe of the profile's decks (a stacked top, so that
pairs, blackjacks and dealer aces come often), then plays it out with decisions drawn
from ``state.legal``. The profiles are the two shipped ones and two lab variants that
turn the other switches: re-splits to four hands, soft-17 hits, no peek, no auto-stand,
no funds rule, odd payouts and roundings, fewer decks.
"""

from __future__ import annotations

import copy
import pickle
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
    options,
    settle,
)
from croupier.oracle.cards import DECK, Card
from croupier.oracle.clauses import BY_ID
from croupier.oracle.errors import IllegalDecisionError
from croupier.oracle.money import Rounding
from croupier.oracle.profile import Profile, load_profile_text, shipped_profile
from tests.strategies import blackjack_orders, blackjack_seats, blackjack_shoes

# Re-splits to four hands (aces too), soft-17 hits, surrender after split, a late dealer blackjack
# taking only the original stake, no peek, no auto-stand on 21, no funds rule.
LAB_WIDE = """
id = "lab-wide"
extends = "blackjack-c"
[parameters]
max_hands = { value = 4 }
resplit_aces = { value = true, clauses = ["VAR.bj.resplit"], status = "assumed" }
dealer_hits_soft_17 = { value = true }
surrender_after_split = { value = true }
dealer_blackjack_takes = { value = "original-stake" }
peek = { value = "none" }
auto_stand_21 = { value = false }
extra_stakes_need_funds = { value = false }
"""

# Two decks, three hands, odd payouts and roundings, same-value pairs, split aces that
# stand, split 21 as a blackjack, nothing offered to a blackjack against an ace, naturals
# paid at once, a dealer who draws even when no hand waits.
LAB_ODD = """
id = "lab-odd"
extends = "blackjack-c"
[parameters]
decks = { value = 2 }
max_hands = { value = 3 }
blackjack_pays = { value = "6:5" }
insurance_pays = { value = "5:2" }
blackjack_vs_ace = { value = "nothing" }
no_double_split_after_insurance = { value = false }
peek = { value = "ace-or-ten" }
natural_paid_at_once = { value = true }
double_after_split = { value = false }
split_pairs = { value = "same-value" }
hit_split_aces = { value = false }
split_21_is_blackjack = { value = true }
surrender_after_split = { value = true }
half_stake_rounding = { value = "up" }
rounding = { value = "half-even" }
dealer_draws_when_not_needed = { value = true }
"""


def _profiles() -> dict[str, Profile]:
    return {
        "blackjack-a": shipped_profile("blackjack-a"),
        "blackjack-c": shipped_profile("blackjack-c"),
        "lab-wide": load_profile_text(LAB_WIDE, "lab-wide.toml"),
        "lab-odd": load_profile_text(LAB_ODD, "lab-odd.toml"),
    }


RULES: dict[str, BlackjackRules] = {
    pid: BlackjackRules.from_profile(profile) for pid, profile in _profiles().items()
}
PROFILE_IDS = tuple(RULES)
FUNDS_PROFILE_IDS = tuple(pid for pid, rules in RULES.items() if rules.extra_stakes_need_funds)

Check = Callable[[BlackjackState, Decision, BlackjackState], None]


def decision_bound(rules: BlackjackRules, seats: int) -> int:
    """Most decisions a round can take.

    Per seat: one offer, ``max_hands - 1`` splits, and per hand at most 20 hits (each adds at
    least one to the hard total, which starts at 2 and must stay at most 21 to hit again)
    and one decision that ends it (stand, double, surrender).
    """
    return seats * (1 + (rules.max_hands - 1) + rules.max_hands * 21)


def names(actions: tuple[Action, ...]) -> str:
    return ",".join(action.value for action in actions)


# Built once per profile: Hypothesis validates a strategy object the first time it draws.
_ROUNDS = {
    pid: st.tuples(blackjack_shoes(rules.decks), blackjack_seats()) for pid, rules in RULES.items()
}


def rounds(
    rules: BlackjackRules,
) -> st.SearchStrategy[tuple[tuple[Card, ...], tuple[BlackjackSeat, ...]]]:
    """A full shoe of the profile's decks and one to four seats."""
    return _ROUNDS[rules.profile_id]


_ORDERS = blackjack_orders()


def choose(data: st.DataObject, state: BlackjackState, order: tuple[Action, ...]) -> Action:
    """One of ``state.legal``: the first legal action of the round's order, or a uniform pick."""
    if data.draw(st.booleans(), label="follow the order"):
        return next(action for action in order if action in state.legal)
    return data.draw(st.sampled_from(state.legal), label="action")


def play(
    state: BlackjackState,
    data: st.DataObject,
    *,
    limit: int,
    check: Check | None = None,
) -> tuple[BlackjackState, list[Decision]]:
    """Play to the end with decisions drawn from ``state.legal``; at most ``limit`` of them."""
    decisions: list[Decision] = []
    order = data.draw(_ORDERS, label="order")
    while not state.complete:
        assert len(decisions) < limit, f"still not complete after {limit} decisions"
        assert state.turn is not None, "a round that is not complete waits for a turn"
        assert state.legal, f"no legal decision for {state.turn}, yet the round is not complete"
        # The recorded decisions are exactly the ones the rules leave open, in Action order.
        opened = {action for action, option in options(state).items() if option.open}
        assert set(state.legal) == opened
        assert list(state.legal) == sorted(state.legal, key=list(Action).index)
        action = choose(data, state, order)
        decision = Decision(seat=state.turn.seat, hand=state.turn.hand, action=action)
        after = decide(state, decision)
        if check is not None:
            check(state, decision, after)
        state = after
        decisions.append(decision)
    assert state.turn is None
    assert state.legal == ()
    return state, decisions


# --- 1. determinism: tests/oracle/test_determinism.py replays rounds in fresh interpreters.


# --- 2. dealing order ------------------------------------------------------------------


def _held(state: BlackjackState) -> Counter[Card]:
    held: Counter[Card] = Counter(state.dealer.cards)
    for seat in state.seats:
        for hand in seat.hands:
            held.update(hand.cards)
    return held


def _split_at(made: list[int], hand: int) -> int:
    """Where splitting ``hand`` puts its new hand: after those it made before (VAR.bj.resplit).

    ``made`` counts, per hand of a seat, the hands splitting it has made; it is updated.
    """
    at = hand + 1 + made[hand]
    made[hand] += 1
    made.insert(at, 0)
    return at


@pytest.mark.parametrize("pid", PROFILE_IDS)
@given(data=st.data())
def test_cards_follow_the_shoe_in_contract_order(pid: str, data: st.DataObject) -> None:
    rules = RULES[pid]
    shoe, seats = data.draw(rounds(rules), label="round")
    n = len(seats)
    state = deal(rules, shoe, seats)

    # BJ.deal-order: seat firsts, up card, seat seconds, hole card.
    for i, seat in enumerate(state.seats):
        assert len(seat.hands) == 1
        assert seat.hands[0].cards[:2] == (shoe[i], shoe[n + 1 + i])
    assert state.dealer.up == shoe[n]
    assert state.dealer.hole == shoe[2 * n + 1]
    # Each seat's first cards of its hands, kept by the test as splits happen.
    firsts = [[shoe[i]] for i in range(n)]
    # And how many hands splitting each hand has made: a split's new hand is numbered after
    # those (VAR.bj.resplit).
    made = [[0] for _ in range(n)]

    def check_state(s: BlackjackState) -> None:
        assert s.shoe == shoe
        assert s.dealt == shoe[: s.position]
        assert _held(s) == Counter(s.dealt), "the cards held are not the cards dealt"
        assert (s.dealer.up, s.dealer.hole) == (shoe[n], shoe[2 * n + 1])
        if s.dealer.draws:
            assert s.dealer.draws == s.dealt[-len(s.dealer.draws) :], "dealer draws come last"
        if s.phase is Phase.PLAY and s.turn is not None:
            turn = s.turn
            # No card goes to a hand before its turn: later hands of the seat wait with the
            # one card a split gave them, later seats hold their two dealt cards.
            for later in s.seats[turn.seat].hands[turn.hand + 1 :]:
                assert later.status is HandStatus.WAITING
                assert len(later.cards) == 1
            for i in range(turn.seat + 1, n):
                (hand,) = s.seats[i].hands
                assert hand.cards == (shoe[i], shoe[n + 1 + i])

    def check(before: BlackjackState, decision: Decision, after: BlackjackState) -> None:
        check_state(after)
        assert after.position >= before.position
        hand = before.seats[decision.seat].hands[decision.hand]
        new = after.seats[decision.seat].hands
        nxt = shoe[before.position] if before.position < len(shoe) else None
        match decision.action:
            case Action.HIT | Action.DOUBLE:
                assert new[decision.hand].cards == (*hand.cards, nxt)
            case Action.SPLIT:
                c0, c1 = hand.cards
                assert new[decision.hand].cards[:2] == (c0, nxt)
                at = _split_at(made[decision.seat], decision.hand)
                assert new[at].cards[0] == c1
                firsts[decision.seat].insert(at, c1)
            case _:
                assert new[decision.hand].cards == hand.cards

    check_state(state)
    final, _ = play(state, data, limit=decision_bound(rules, n), check=check)
    for i, seat in enumerate(final.seats):
        assert [hand.cards[0] for hand in seat.hands] == firsts[i]
        if len(seat.hands) == 1:
            assert seat.hands[0].cards[:2] == (shoe[i], shoe[n + 1 + i])
        else:
            # The split hands start from the seat's first and second cards.
            assert seat.hands[0].cards[0] == shoe[i]
            assert shoe[n + 1 + i] in [hand.cards[0] for hand in seat.hands[1:]]
    assert _held(final) == Counter(final.dealt)


# --- 3. payouts within the odds ---------------------------------------------------------


@pytest.mark.parametrize("pid", PROFILE_IDS)
@given(data=st.data())
def test_no_line_returns_more_than_its_odds(pid: str, data: st.DataObject) -> None:
    rules = RULES[pid]
    shoe, seats = data.draw(rounds(rules), label="round")
    final, _ = play(deal(rules, shoe, seats), data, limit=decision_bound(rules, len(seats)))
    one = Fraction(1)
    bj, ins = rules.blackjack_pays.ratio, rules.insurance_pays.ratio
    staked = 0
    for line in final.settlement:
        payout = line.payout
        seat = final.seats[line.seat]
        staked += payout.stake
        if line.bet == "insurance":
            assert payout.stake == seat.insurance
            odds, rounding = ins, rules.rounding
        else:
            hand = seat.hands[int(line.bet.removeprefix("hand "))]
            assert payout.stake == hand.stake
            natural = hand.status is HandStatus.BLACKJACK and not hand.even_money
            odds = bj if natural else one
            surrendered = hand.status is HandStatus.SURRENDERED
            rounding = rules.half_stake_rounding if surrendered else rules.rounding
        cap = payout.stake * (1 + odds)
        assert 0 <= payout.returned_exact <= cap, line
        assert rounding.apply(payout.returned_exact) == payout.returned, line
        # Rounding is monotone: the rounded figure stays within the rounded cap, which is the
        # cap itself when the profile rounds down (a half-even or upward rounding may add
        # part of a minor unit: 5:2 on 197 is 689.5 exact, 690 half-even).
        assert 0 <= payout.returned <= rounding.apply(cap), line
        if rounding is Rounding.DOWN:
            assert payout.returned <= cap, line
    cap = staked * (1 + max(one, bj, ins))
    assert sum(line.payout.returned_exact for line in final.settlement) <= cap
    total = sum(line.payout.returned for line in final.settlement)
    if rules.rounding is Rounding.DOWN and rules.half_stake_rounding is Rounding.DOWN:
        assert total <= cap
    else:
        assert total < cap + len(final.settlement)


# --- 4. termination ---------------------------------------------------------------------


@pytest.mark.parametrize("pid", PROFILE_IDS)
@given(data=st.data())
def test_every_round_ends_within_the_bound(pid: str, data: st.DataObject) -> None:
    rules = RULES[pid]
    shoe, seats = data.draw(rounds(rules), label="round")
    state = deal(rules, shoe, seats)
    # ``play`` asserts at every step that an incomplete state has a turn and a legal decision.
    final, decisions = play(state, data, limit=decision_bound(rules, len(seats)))
    counts = Counter(decision.action for decision in decisions)
    hands = sum(len(seat.hands) for seat in final.seats)
    offers = (
        Action.INSURANCE,
        Action.DECLINE_INSURANCE,
        Action.EVEN_MONEY,
        Action.DECLINE_EVEN_MONEY,
    )
    assert sum(counts[a] for a in offers) <= len(seats)
    assert counts[Action.SPLIT] == hands - len(seats)
    assert counts[Action.STAND] + counts[Action.DOUBLE] + counts[Action.SURRENDER] <= hands
    # After the deal, every card went to a hit, a double, the second card of a split hand or the
    # dealer's draws.
    drawn = final.position - (2 * len(seats) + 2)
    by_players = counts[Action.HIT] + counts[Action.DOUBLE] + 2 * counts[Action.SPLIT]
    assert by_players + len(final.dealer.draws) == drawn


def test_a_round_of_low_cards_takes_many_decisions_within_the_bound() -> None:
    # Why the bound counts hits: four seats on a shoe sorted aces, twos, threes ..., who
    # split and then hit whenever they can, take 79 decisions (no auto-stand on 21).
    rules = RULES["lab-wide"]
    shoe = tuple(sorted(DECK * rules.decks, key=lambda card: card.rank.pip))
    state = deal(rules, shoe, [BlackjackSeat(balance=10, stake=1)] * 4)
    order = (Action.SPLIT, Action.HIT, Action.DECLINE_INSURANCE, Action.STAND)
    decisions = 0
    while not state.complete:
        assert state.turn is not None
        action = next(a for a in order if a in state.legal)
        state = decide(state, Decision(seat=state.turn.seat, hand=state.turn.hand, action=action))
        decisions += 1
    assert [len(seat.hands) for seat in state.seats] == [4, 2, 2, 2]
    assert 60 < decisions == 79 <= decision_bound(rules, 4)


# --- 5. illegal decisions ---------------------------------------------------------------


@pytest.mark.parametrize("pid", PROFILE_IDS)
@given(data=st.data())
def test_an_illegal_decision_changes_nothing(pid: str, data: st.DataObject) -> None:
    rules = RULES[pid]
    shoe, seats = data.draw(rounds(rules), label="round")
    state = deal(rules, shoe, seats)
    limit = decision_bound(rules, len(seats))

    def attempt(s: BlackjackState, decision: Decision) -> None:
        # A deep copy, sharing only the shoe and the rules (immutable, and checked apart).
        snapshot = copy.deepcopy(s, {id(s.shoe): s.shoe, id(s.rules): s.rules})
        before_hash = hash(s)
        with pytest.raises(IllegalDecisionError) as caught:
            decide(s, decision)
        assert caught.value.reason == "ILLEGAL_DECISION"
        assert caught.value.metadata["legal"] == names(s.legal)
        assert caught.value.metadata["action"] == decision.action.value
        assert s == snapshot
        assert s.shoe == shoe
        assert s.rules == rules
        assert hash(s) == before_hash == hash(snapshot)
        assert s.legal == snapshot.legal

    steps = 0
    order = data.draw(_ORDERS, label="order")
    while not state.complete:
        assert steps < limit
        turn = state.turn
        assert turn is not None
        legal = state.legal
        if data.draw(st.booleans(), label="try illegal"):
            illegal = [a for a in Action if a not in legal]
            action = data.draw(st.sampled_from(illegal), label="illegal action")
            attempt(state, Decision(seat=turn.seat, hand=turn.hand, action=action))
        if data.draw(st.booleans(), label="try wrong hand"):
            # Any other seat and hand, out of range ones included.
            elsewhere = [
                (seat, hand)
                for seat in range(-1, len(seats) + 1)
                for hand in range(-1, rules.max_hands + 1)
                if (seat, hand) != (turn.seat, turn.hand)
            ]
            where = data.draw(st.sampled_from(elsewhere), label="wrong seat and hand")
            action = data.draw(st.sampled_from(tuple(Action)), label="any action")
            attempt(state, Decision(seat=where[0], hand=where[1], action=action))
        action = choose(data, state, order)
        state = decide(state, Decision(seat=turn.seat, hand=turn.hand, action=action))
        steps += 1

    action = data.draw(st.sampled_from(tuple(Action)), label="action after the end")
    attempt(state, Decision(seat=0, hand=0, action=action))


def _copies(state: BlackjackState) -> list[BlackjackState]:
    """The state deep-copied, and the state pickled and loaded again."""
    return [copy.deepcopy(state), pickle.loads(pickle.dumps(state))]  # noqa: S301 - bytes it made


@pytest.mark.parametrize("pid", PROFILE_IDS)
@given(data=st.data())
def test_a_copied_or_pickled_round_plays_on_as_the_round_does(
    pid: str, data: st.DataObject
) -> None:
    """Whichever build runs. Before: the compiled build's working state could be neither deep
    copied nor pickled (its class is made only through its __init__, which copy did not call)."""
    rules = RULES[pid]
    shoe, seats = data.draw(rounds(rules), label="round")
    state = deal(rules, shoe, seats)
    ended, decisions = play(state, data, limit=decision_bound(rules, len(seats)))
    for made in range(len(decisions) + 1):
        for copied in _copies(state):
            assert copied == state
            assert (copied.legal, copied.turn, copied.complete) == (
                state.legal,
                state.turn,
                state.complete,
            )
            # The same decisions from the copy end the round as they ended it.
            on = copied
            for decision in decisions[made:]:
                on = decide(on, decision)
            assert on == ended
            assert on.settlement == ended.settlement
        if made < len(decisions):
            state = decide(state, decisions[made])
    assert state == ended


# --- 6. funds ---------------------------------------------------------------------------


@pytest.mark.parametrize("pid", FUNDS_PROFILE_IDS)
@given(data=st.data())
def test_no_seat_commits_more_than_its_balance(pid: str, data: st.DataObject) -> None:
    rules = RULES[pid]
    shoe, seats = data.draw(rounds(rules), label="round")

    def check_state(s: BlackjackState) -> None:
        for seat, state_seat in zip(seats, s.seats, strict=True):
            assert state_seat.balance == seat.balance
            assert state_seat.stake == seat.stake
            committed = sum(hand.stake for hand in state_seat.hands) + state_seat.insurance
            assert committed <= seat.balance, (seat, state_seat)
            for hand in state_seat.hands:
                assert hand.stake == seat.stake * (2 if hand.doubled else 1)

    def check(_before: BlackjackState, _decision: Decision, after: BlackjackState) -> None:
        check_state(after)

    state = deal(rules, shoe, seats)
    check_state(state)
    play(state, data, limit=decision_bound(rules, len(seats)), check=check)


# --- 7. settlement lines ----------------------------------------------------------------


@pytest.mark.parametrize("pid", PROFILE_IDS)
@given(data=st.data())
def test_one_line_per_hand_and_insurance_with_known_clauses(pid: str, data: st.DataObject) -> None:
    rules = RULES[pid]
    shoe, seats = data.draw(rounds(rules), label="round")
    final, _ = play(deal(rules, shoe, seats), data, limit=decision_bound(rules, len(seats)))
    expected = []
    for i, seat in enumerate(final.seats):
        expected += [(i, f"hand {k}") for k in range(len(seat.hands))]
        if seat.insurance:
            expected.append((i, "insurance"))
    assert [(line.seat, line.bet) for line in final.settlement] == expected
    assert settle(final) == final.settlement
    for line in final.settlement:
        assert line.clauses, line
        unknown = [cid for cid in line.clauses if cid not in BY_ID]
        assert not unknown, (line, unknown)
    for step in final.steps:
        assert step.clauses, step
        assert all(cid in BY_ID for cid in step.clauses), step
