"""The mapping helpers and the replay kit's own parts, by hand-computed cases.

Places in the shoe are the contract's (BJ.deal-order): with n seats, each seat's first card at
0..n-1, the up card at n, each seat's second card at n+1..2n, the hole card at 2n+1, then the
draws as they happen; a split hand's second card when it starts to play (VAR.bj.resplit).
"""

from __future__ import annotations

import pytest

from croupier.clients.adapter import (
    BetInput,
    BlackjackView,
    DealInput,
    DecisionInput,
    EngineError,
    HandView,
    Line,
    RouletteView,
    SeatInput,
    SeatView,
)
from croupier.clients.mappings import (
    DealOrder,
    NameMap,
    Shoe,
    UnknownNameError,
    hand_label,
    line_label,
)
from croupier.clients.replay import (
    Boards,
    Decisions,
    OutOfDecisionsError,
    Played,
    ReplayEngine,
    ReplayError,
    phase_of,
    round_view,
)

CARDS = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]


def deal(seats: int = 1, cards: list[str] = CARDS, table: str = "t1") -> DealInput:
    box = SeatInput(balance=1000, bets=(BetInput(game="blackjack", stake=100),))
    return DealInput(
        round_id="r",
        profile_id="blackjack-c",
        table_id=table,
        currency="EUR",
        seats=(box,) * seats,
        shoe=tuple(cards),
    )


def decide(kind: str, hand: int = 0, seat: int = 0) -> DecisionInput:
    return DecisionInput(seat=seat, hand=hand, kind=kind)


def draws(shoe: Shoe, count: int) -> list[str]:
    return [shoe.draw() for _ in range(count)]


def test_the_contract_order_is_the_shoe_as_it_is() -> None:
    shoe = DealOrder().shoe(deal(2), [decide("hit"), decide("stand"), decide("hit", seat=1)])
    assert shoe.in_order() == tuple(CARDS)
    assert draws(shoe, 8) == CARDS[:8]
    assert shoe.cards_dealt == 8


def test_pairs_first_then_the_dealer() -> None:
    # Two seats: seat 0 takes places 0 and 3, seat 1 places 1 and 4, then the up card (2) and
    # the hole card (5); the draws after go on from place 6.
    shoe = DealOrder(first_deal=("pairs", "up", "hole")).shoe(deal(2), ())
    assert draws(shoe, 7) == ["AC", "4C", "2C", "5C", "3C", "6C", "7C"]
    assert shoe.cards_dealt == 7


def test_the_hole_card_after_the_players() -> None:
    # One seat, two hits: the contract deals 0 1 2 3(hole), then the hits 4 5. The engine
    # deals its first three, the hits, and the dealer's second card only then.
    order = DealOrder(first_deal=("firsts", "up", "seconds"), hole="after-players")
    shoe = order.shoe(deal(), [decide("hit"), decide("hit"), decide("stand")])
    assert shoe.in_order()[:7] == ("AC", "2C", "3C", "5C", "6C", "4C", "7C")
    draws(shoe, 3)
    assert shoe.cards_dealt == 4  # the contract dealt the hole card with the others
    draws(shoe, 2)
    assert shoe.cards_dealt == 6
    assert shoe.draw() == "4C"  # the dealer's second card
    assert shoe.cards_dealt == 6


def test_both_split_cards_at_the_split() -> None:
    # Split hand 0 (4: its second card), hit it (5), stand; hand 1 starts: its second card (6),
    # a hit (7). The engine takes 4 and 6 at the split.
    decisions = [decide("split"), decide("hit"), decide("stand"), decide("hit", hand=1)]
    shoe = DealOrder(split="at-split").shoe(deal(), decisions)
    assert shoe.in_order()[:8] == ("AC", "2C", "3C", "4C", "5C", "7C", "6C", "8C")
    assert DealOrder().shoe(deal(), decisions).in_order() == tuple(CARDS)


def test_a_split_hand_waits_with_one_card_until_its_turn() -> None:
    # After split and a hit on hand 0, the engine has drawn hand 1's second card (place 6)
    # early: the contract shows hand 1 with its first card, waiting, and 6 cards dealt.
    shoe = DealOrder(split="at-split").shoe(deal(), [decide("split"), decide("hit")])
    assert draws(shoe, 7) == ["AC", "2C", "3C", "4C", "5C", "7C", "6C"]

    def played(turn: tuple[int, int] | None, payouts: list[Line] | None = None) -> Played:
        hands = [
            HandView(cards=["AC", "5C", "6C"], stake=100, status="playing", from_split=True),
            HandView(cards=["3C", "7C"], stake=100, status="playing", from_split=True),
        ]
        table = BlackjackView(
            seats=[SeatView(hands=hands)], dealer_cards=["2C"], hole_card_hidden=True
        )
        return Played(table=table, legal=["hit", "stand"], turn=turn, payouts=payouts)

    waiting = shoe.contract(played((0, 0)))
    assert isinstance(waiting.table, BlackjackView)
    second = waiting.table.seats[0].hands[1]
    assert (list(second.cards), second.status) == (["3C"], "waiting")
    assert waiting.cards_dealt == 6
    # Once the turn is on hand 1, the contract has dealt its card too.
    started = shoe.contract(played((0, 1)))
    assert isinstance(started.table, BlackjackView)
    assert list(started.table.seats[0].hands[1].cards) == ["3C", "7C"]
    assert started.cards_dealt == 7


def test_a_resplit_hand_goes_after_the_hands_its_earlier_splits_made() -> None:
    # Split hand 0 twice: its second cards at 4 and 5; the hand made first (hand 1) starts
    # first (6), then the hand made second (hand 2, 7).
    decisions = [decide("split"), decide("split"), decide("stand"), decide("stand", hand=1)]
    shoe = DealOrder(split="at-split").shoe(deal(), decisions)
    # At the splits the engine takes 4 then 6 (the first split's hands), 5 then 7.
    assert shoe.in_order()[4:8] == ("5C", "7C", "6C", "8C")
    assert shoe.waiting == ((0, 2, 7),)


def test_a_short_shoe_is_shoe_exhausted() -> None:
    with pytest.raises(EngineError) as short:
        DealOrder().shoe(deal(2, CARDS[:5]), ())  # two seats' first deal takes six cards
    assert (short.value.reason, short.value.metadata) == ("SHOE_EXHAUSTED", {"needed": "6"})
    with pytest.raises(EngineError) as shorter:
        DealOrder().shoe(deal(2, CARDS[:3]), ())  # still the first deal's six, not one past three
    assert shorter.value.metadata == {"needed": "6"}
    shoe = Shoe(CARDS[:2])
    assert draws(shoe, 2) == ["AC", "2C"]
    with pytest.raises(EngineError) as empty:
        shoe.draw()
    assert (empty.value.reason, empty.value.metadata) == ("SHOE_EXHAUSTED", {"needed": "3"})
    # A baccarat shoe of three cards cannot make the first deal of four.
    with pytest.raises(EngineError) as first:
        draws(Shoe(CARDS[:3], order=[0, 2, 1, 3], floor=4), 4)
    assert first.value.metadata == {"needed": "4"}
    assert draws(Shoe(CARDS[:4], order=[0, 2, 1, 3], floor=4), 4) == ["AC", "3C", "2C", "4C"]
    # An engine given its whole deck says how many it used.
    whole = Shoe(CARDS)
    whole.took(5)
    assert (whole.cards_dealt, whole.in_order()) == (5, tuple(CARDS))


def test_a_deal_order_that_cannot_be_is_refused_naming_every_problem() -> None:
    with pytest.raises(ValueError, match="hole step exactly when") as wrong:
        DealOrder(first_deal=("firsts", "up", "seconds"))
    assert "split" not in str(wrong.value)
    with pytest.raises(ValueError, match=r"split is 'early'.*firsts and seconds, or with pairs"):
        DealOrder(first_deal=("pairs", "firsts", "up", "hole"), split="early")


def test_a_name_map_goes_both_ways_and_refuses_what_it_does_not_hold() -> None:
    kinds = NameMap({"red": "rouge", "black": "noir"}, same=["straight"], what="bet kind")
    assert (kinds.engine("red"), kinds.contract("noir"), kinds.engine("straight")) == (
        "rouge",
        "black",
        "straight",
    )
    with pytest.raises(UnknownNameError, match="bet kind 'dozen' has no engine name"):
        kinds.engine("dozen")
    with pytest.raises(UnknownNameError, match="bet kind 'red' has no contract name"):
        kinds.contract("red")
    with pytest.raises(ValueError, match="'red' and 'black' are both 'rouge'"):
        NameMap({"red": "rouge", "black": "rouge"})


def test_settlement_labels_are_the_contracts() -> None:
    def bet(kind: str, pockets: tuple[str, ...] = (), group: int = 0) -> BetInput:
        return BetInput(game="roulette", stake=1, kind=kind, pockets=pockets, group=group)

    assert line_label(bet("split", ("2", "0"))) == "split 0-2"
    assert line_label(bet("street", ("2", "00", "0"))) == "street 0-00-2"
    assert line_label(bet("corner", ("5", "1", "4", "2"))) == "corner 1-2-4-5"
    assert line_label(bet("dozen", group=2)) == "dozen 2"
    assert line_label(bet("red")) == "red"
    assert line_label(BetInput(game="baccarat", stake=1, kind="banker")) == "banker"
    assert hand_label(1) == "hand 1"


def test_a_board_per_profile_and_table_of_its_length() -> None:
    boards = Boards({"roulette-c": 2, "roulette-american": 3})
    spin = DealInput(
        round_id="r", profile_id="roulette-c", table_id="t", currency="EUR", seats=(), pocket="1"
    )
    assert boards.record(spin, "1") == ("1",)
    assert boards.record(spin, "2") == ("1", "2")
    assert boards.record(spin, "3") == ("2", "3")
    other = DealInput(
        round_id="s", profile_id="roulette-american", table_id="t", currency="EUR", seats=()
    )
    assert boards.record(other, "00") == ("00",)
    assert boards.board(spin) == ("2", "3")


def test_the_decisions_are_handed_out_in_order_until_none_is_left() -> None:
    script = Decisions([decide("hit"), decide("stand")])
    assert [script.next("first").kind, script.left, script.next().kind, script.left] == [
        "hit",
        1,
        "stand",
        0,
    ]
    with pytest.raises(OutOfDecisionsError):
        script.next("what the engine showed")
    assert script.asked == "what the engine showed"

    # A play function that lets it out fails the call, saying what to do.
    def play(request: DealInput, decisions: tuple[DecisionInput, ...]) -> Played:
        Decisions(decisions).next()
        raise AssertionError("unreachable")

    engine = ReplayEngine(name="e", version="1", profile_ids=("blackjack-c",), play=play)
    with pytest.raises(ReplayError, match="catch it"):
        engine.deal(deal())


def roulette_engine(pockets: list[str], *, board: Boards | None) -> ReplayEngine:
    """A replay engine of a wheel that lands where it is told and keeps no board."""

    def play(request: DealInput, decisions: tuple[DecisionInput, ...]) -> Played:
        if request.pocket == "37":
            raise EngineError("INVALID_ROUND", "no such pocket", field="spin.pocket")
        pockets.append(request.pocket or "")
        line = Line(seat=0, bet="red", stake=10, returned=20 if request.pocket == "1" else 0)
        return Played(table=RouletteView(pocket=request.pocket or "", history=()), payouts=[line])

    return ReplayEngine(
        name="wheel", version="1", profile_ids=("roulette-c",), play=play, boards=board
    )


def spin(pocket: str, table: str = "t") -> DealInput:
    return DealInput(
        round_id="r",
        profile_id="roulette-c",
        table_id=table,
        currency="EUR",
        seats=(SeatInput(balance=100, bets=(BetInput(game="roulette", stake=10, kind="red"),)),),
        pocket=pocket,
    )


def test_a_spin_goes_on_the_kits_board_once_dealt() -> None:
    pockets: list[str] = []
    engine = roulette_engine(pockets, board=Boards(13))
    assert engine.view(engine.deal(spin("1"))).phase == "complete"
    with pytest.raises(EngineError):
        engine.deal(spin("37"))  # refused by the engine: the board does not move
    second = engine.view(engine.deal(spin("0")))
    assert isinstance(second.table, RouletteView)
    assert list(second.table.history) == ["1", "0"]
    elsewhere = engine.view(engine.deal(spin("5", table="u")))
    assert isinstance(elsewhere.table, RouletteView)
    assert list(elsewhere.table.history) == ["5"]
    assert pockets == ["1", "0", "5"]  # the engine played each round once
    assert [line.returned for line in engine.settle(engine.deal(spin("1")))] == [20]
    # Without a board the engine's own (empty here) is what the client sees.
    bare = roulette_engine([], board=None)
    table = bare.view(bare.deal(spin("1"))).table
    assert isinstance(table, RouletteView)
    assert list(table.history) == []


def blackjack_view() -> BlackjackView:
    hand = HandView(cards=["TC", "6C"], stake=100, status="playing")
    return BlackjackView(seats=[SeatView(hands=[hand])], dealer_cards=["9C"], hole_card_hidden=True)


def test_the_vendors_legal_callback_and_the_phase() -> None:
    seen: list[int] = []

    def play(request: DealInput, decisions: tuple[DecisionInput, ...]) -> Played:
        return Played(table=blackjack_view(), turn=(0, 0), cards_dealt=4 + len(decisions))

    def legal(
        request: DealInput, decisions: tuple[DecisionInput, ...], played: Played
    ) -> list[str]:
        seen.append(len(decisions))
        return ["stand", "hit"]  # the vendor's own list, in any order

    engine = ReplayEngine(
        name="e", version="1", profile_ids=("blackjack-c",), play=play, legal=legal
    )
    view = engine.view(engine.deal(deal()))
    assert (view.phase, list(view.legal), view.turn) == ("play", ["hit", "stand"], (0, 0))
    view = engine.view(engine.decide(engine.deal(deal()), decide("hit")))
    assert (view.cards_dealt, seen) == (5, [0, 0, 1])
    with pytest.raises(EngineError) as refused:
        engine.decide(engine.deal(deal()), decide("double"))
    assert refused.value.metadata == {"legal": "hit,stand", "action": "double"}
    with pytest.raises(ReplayError, match="gave no payouts"):
        engine.settle(engine.deal(deal()))


def test_the_phase_is_the_engines_or_follows_its_offers() -> None:
    table = blackjack_view()
    assert phase_of(Played(table=table, legal=["insurance", "decline-insurance"])) == "offers"
    assert phase_of(Played(table=table, legal=["surrender", "decline-surrender"])) == "offers"
    assert phase_of(Played(table=table, legal=["hit", "stand", "surrender"])) == "play"
    assert phase_of(Played(table=table, payouts=[])) == "complete"
    assert phase_of(Played(table=table, legal=["hit"], phase="offers")) == "offers"
    over = round_view(Played(table=table, legal=["hit"], turn=(0, 0), payouts=[]))
    assert (over.legal, over.turn) == ((), None)
    with pytest.raises(ValueError, match=r"'h'.*not a decision of the contract"):
        round_view(Played(table=table, legal=["h"]))
