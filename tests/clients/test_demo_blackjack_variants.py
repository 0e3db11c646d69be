"""The demo engine plays every value of the blackjack variants (RULES.md "Variants").

The example profiles' vectors (tests/clients/test_lab_mutants.py) reach the values those
profiles choose; these hand-computed rounds, played on the engine itself under a table of
each other value, reach the rest. Shoes in contract order; amounts returned stake included.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from croupier.clients.adapter import (
    BetInput,
    BlackjackView,
    DealInput,
    DecisionInput,
    EngineError,
    SeatInput,
)
from croupier.clients.demo_engine import HOUSE_RULES, BlackjackRules, DemoEngine
from croupier.clients.demo_engine.blackjack import BlackjackRound

BASE = HOUSE_RULES["blackjack-a"]
assert isinstance(BASE, BlackjackRules)


def table(**changes: object) -> DemoEngine:
    """The demo engine with document A's table changed, served as profile ``lab``."""
    return DemoEngine({"lab": replace(BASE, **changes)})  # type: ignore[arg-type]


def deal(engine: DemoEngine, shoe: str, balance: int = 1000) -> BlackjackRound:
    game = engine.deal(
        DealInput(
            round_id="r1",
            profile_id="lab",
            table_id="t1",
            currency="EUR",
            seats=(SeatInput(balance=balance, bets=(BetInput(game="blackjack", stake=100),)),),
            shoe=tuple(shoe.split()),
        )
    )
    assert isinstance(game, BlackjackRound)
    return game


def act(engine: DemoEngine, game: BlackjackRound, *kinds: str) -> BlackjackRound:
    for text in kinds:
        kind, _, amount = text.partition("=")
        assert game.turn is not None
        seat, hand = game.turn
        decision = DecisionInput(
            seat=seat, hand=hand, kind=kind, amount=int(amount) if amount else None
        )
        after = engine.decide(game, decision)
        assert isinstance(after, BlackjackRound)
        game = after
    return game


def returns(engine: DemoEngine, game: BlackjackRound) -> list[int]:
    assert engine.view(game).phase == "complete"
    return [line.returned for line in engine.settle(game)]


@pytest.mark.parametrize(
    ("shoe", "hits", "open_under"),
    [
        # any-two, nine-to-eleven, ten-eleven, any-cards: as the oracle's table of the same
        # rounds (tests/oracle/test_blackjack_variants.py).
        pytest.param("5S 7H 3D TC", 0, (True, False, False, True), id="two-card-8"),
        pytest.param("5S 7H 4D TC", 0, (True, True, False, True), id="two-card-9"),
        pytest.param("6S 7H 4D TC", 0, (True, True, True, True), id="two-card-10"),
        pytest.param("AS 7H 8D TC", 0, (True, False, False, True), id="soft-19"),
        pytest.param("2S 7H 3D TC 4C", 1, (False, False, False, True), id="three-card-9"),
    ],
)
def test_double_on(shoe: str, hits: int, open_under: tuple[bool, ...]) -> None:
    for value, expected in zip(
        ("any-two", "nine-to-eleven", "ten-eleven", "any-cards"), open_under, strict=True
    ):
        engine = table(double_on=value)
        game = act(engine, deal(engine, shoe), *["hit"] * hits)
        assert ("double" in engine.view(game).legal) is expected, value


def test_eight_hands_and_no_ninth() -> None:
    # Eights split seven times: eight hands; an eighth split is not offered.
    engine = table(max_hands=8)
    game = act(engine, deal(engine, "8S 6H 8D TC 8C 8H 8S 8D 8C 8H 8S"), *["split"] * 7)
    assert len(game.boxes[0].hands) == 8
    assert "split" not in engine.view(game).legal


def test_a_resplit_hand_goes_after_the_hands_made_before() -> None:
    # 8S 8D against 6H: split; hand 0 takes 8C: split; 8C goes after 8D (made first).
    engine = table(max_hands=3)
    game = act(engine, deal(engine, "8S 6H 8D TC 8C TD"), "split", "split")
    assert [h.cards for h in game.boxes[0].hands] == [["8S", "TD"], ["8D"], ["8C"]]


def test_double_for_less_and_its_refusals() -> None:
    # 5S 6D = 11 against 7H, hole TC: double for 40, TS: 21; 140 staked, 280 back.
    engine = table(double_for_less=True)
    assert returns(engine, act(engine, deal(engine, "5S 7H 6D TC TS"), "double=40")) == [280]
    for amount in ("double=0", "double=101"):
        with pytest.raises(EngineError) as info:
            act(engine, deal(engine, "5S 7H 6D TC TS"), amount)
        assert info.value.reason == "ILLEGAL_DECISION"
    with pytest.raises(EngineError):
        act(table(), deal(table(), "5S 7H 6D TC TS"), "double=40")


def test_insure_for_less() -> None:
    # 9S 8D against AH, hole KC: insure for 20; the blackjack: hand 0, insurance 60.
    engine = table(insure_for_less=True)
    assert returns(engine, act(engine, deal(engine, "9S AH 8D KC"), "insurance=20")) == [0, 60]


@pytest.mark.parametrize(
    ("early", "legal", "back"), [(False, [], [0]), (True, ["surrender", "decline-surrender"], [50])]
)
def test_surrender_timing(early: bool, legal: list[str], back: list[int]) -> None:
    # TS 6D against KH, hole AC. Late: the look ends the round (0). Early: asked first (50).
    engine = table(surrender=True, early_surrender=early)
    game = deal(engine, "TS KH 6D AC")
    assert engine.view(game).legal == legal
    if legal:
        game = act(engine, game, "surrender")
    assert returns(engine, game) == back


@pytest.mark.parametrize(("showdown", "hidden"), [(False, False), (True, True)])
def test_hole_card(showdown: bool, hidden: bool) -> None:
    # TS 6D against 7H, hole TC; hit 9C: bust. At a showdown table the hole stays down.
    engine = table(hole_card_at_showdown=showdown)
    game = act(engine, deal(engine, "TS 7H 6D TC 9C"), "hit")
    view = engine.view(game).table
    assert isinstance(view, BlackjackView)
    assert view.hole_card_hidden is hidden
    assert returns(engine, game) == [0]


@pytest.mark.parametrize(("resplit", "open_"), [(False, False), (True, True)])
def test_resplit_aces(resplit: bool, open_: bool) -> None:
    engine = table(max_hands=4, resplit_aces=resplit)
    game = act(engine, deal(engine, "AS 6H AD TC AC"), "split")
    assert ("split" in engine.view(game).legal) is open_
