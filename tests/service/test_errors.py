"""Every contract error over a real channel: canonical code, one ErrorInfo, its metadata.

Expectations are worked by hand from RULES.md and the profiles (blackjack-a: six decks, no
surrender, peek under an ace or a ten; limits 1 to 1 000 000). After each refusal the server
still answers, and a refused request changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2

from croupier.oracle import blackjack
from croupier.oracle.cards import parse_cards
from croupier.oracle.profile import shipped_profile
from croupier.oracle.rounds import BlackjackWager, RoundRequest, SeatRequest, apply_decision
from croupier.oracle.rounds import start_round as start_in_process
from croupier.oracle.service import convert
from croupier.v1 import (
    engine_service_pb2,
    engine_service_pb2_grpc,
    oracle_service_pb2,
    oracle_service_pb2_grpc,
    round_pb2,
)
from tests.service.support import (
    TIMEOUT,
    amount,
    blackjack_seat,
    card_deal,
    decide,
    expect_error,
    new_id,
    roulette_deal,
    wire_bytes,
)

Code = grpc.StatusCode
Refuse = Callable[..., error_details_pb2.ErrorInfo]

HIT = round_pb2.DECISION_KIND_HIT
STAND = round_pb2.DECISION_KIND_STAND
DOUBLE = round_pb2.DECISION_KIND_DOUBLE
SPLIT = round_pb2.DECISION_KIND_SPLIT


@pytest.fixture
def refuse(engine: engine_service_pb2_grpc.EngineServiceStub) -> Refuse:
    """expect_error, then check that the server still answers."""

    def check(
        method: Callable[..., Any], request: Any, code: Code, reason: str, **metadata: str
    ) -> error_details_pb2.ErrorInfo:
        info = expect_error(method, request, code, reason, **metadata)
        described = engine.Describe(engine_service_pb2.DescribeRequest(), timeout=TIMEOUT)
        assert len(described.profile_ids) == 7
        return info

    return check


def settle(engine: engine_service_pb2_grpc.EngineServiceStub, round_id: str) -> Any:
    return engine.Settle(engine_service_pb2.SettleRequest(round_id=round_id), timeout=TIMEOUT)


def one_seat(balance: int = 1000, stake: int = 100) -> list[round_pb2.Seat]:
    return [blackjack_seat(balance, stake)]


# --- profiles and cards ---------------------------------------------------------------------


def test_unknown_profile(
    engine: engine_service_pb2_grpc.EngineServiceStub,
    oracle_stub: oracle_service_pb2_grpc.OracleServiceStub,
    refuse: Refuse,
) -> None:
    deal = card_deal("blackjack-z", parse_cards("TH 9C TD 7S"), one_seat())
    refuse(engine.Deal, deal, Code.NOT_FOUND, "UNKNOWN_PROFILE", profile="blackjack-z")
    refuse(
        oracle_stub.GetProfile,
        oracle_service_pb2.GetProfileRequest(profile_id="roulette-b"),
        Code.NOT_FOUND,
        "UNKNOWN_PROFILE",
        profile="roulette-b",
    )
    record = round_pb2.RoundRecord(round_id="x", profile_id="", currency_code="EUR")
    refuse(
        oracle_stub.VerifyRound,
        oracle_service_pb2.VerifyRoundRequest(record=record),
        Code.NOT_FOUND,
        "UNKNOWN_PROFILE",
        profile="",
    )
    # The refused Deal opened nothing: its id is still free.
    deal.profile_id = "blackjack-a"
    assert engine.Deal(deal, timeout=TIMEOUT).state.round_id == deal.round_id


def test_get_profile_answers_for_a_known_profile(
    oracle_stub: oracle_service_pb2_grpc.OracleServiceStub,
) -> None:
    got = oracle_stub.GetProfile(
        oracle_service_pb2.GetProfileRequest(profile_id="blackjack-c"), timeout=TIMEOUT
    ).profile
    params = {p.name: p for p in got.parameters}
    assert got.source == "C"
    assert params["surrender"].value == "true"
    assert params["surrender"].status == oracle_service_pb2.PARAMETER_STATUS_DOCUMENTED
    assert list(params["surrender"].clauses) == ["C.bj.surrender"]
    assert params["decks"].status == oracle_service_pb2.PARAMETER_STATUS_ASSUMED


@pytest.mark.parametrize(
    ("cards", "bad", "index"),
    [
        (["AS", "KD", "9C", "1H", "5S"], "1H", "3"),
        (["th", "KD", "9C", "2H"], "th", "0"),
        (["AS", "KD", "10H", "2H"], "10H", "2"),
        (["AS", "KD", "9C", "2H", ""], "", "4"),
    ],
)
def test_invalid_card_names_the_card_and_its_index(
    engine: engine_service_pb2_grpc.EngineServiceStub,
    refuse: Refuse,
    cards: list[str],
    bad: str,
    index: str,
) -> None:
    deal = card_deal("blackjack-a", cards, one_seat())
    refuse(engine.Deal, deal, Code.INVALID_ARGUMENT, "INVALID_CARD", card=bad, index=index)


def test_shoe_not_in_profile(
    engine: engine_service_pb2_grpc.EngineServiceStub, refuse: Refuse
) -> None:
    # blackjack-a and baccarat-c shuffle six decks: six aces of spades at most.
    cards = ["AS"] * 7 + ["2C", "3C"]
    for profile_id in ("blackjack-a", "baccarat-c"):
        seats = one_seat() if profile_id == "blackjack-a" else [baccarat_seat()]
        refuse(
            engine.Deal,
            card_deal(profile_id, cards, seats),
            Code.INVALID_ARGUMENT,
            "SHOE_NOT_IN_PROFILE",
            card="AS",
            count="7",
            decks="6",
        )


def baccarat_seat(
    kind: round_pb2.BaccaratBetKind.ValueType = round_pb2.BACCARAT_BET_KIND_PLAYER,
) -> round_pb2.Seat:
    return round_pb2.Seat(
        balance=amount(100),
        bets=[round_pb2.Bet(stake=amount(10), baccarat=round_pb2.BaccaratBet(kind=kind))],
    )


def test_shoe_exhausted_at_the_deal(
    engine: engine_service_pb2_grpc.EngineServiceStub, refuse: Refuse
) -> None:
    # BJ.deal-order: two cards to each seat and two to the dealer before anyone plays.
    refuse(
        engine.Deal,
        card_deal("blackjack-a", parse_cards("TH 9C TD"), one_seat()),
        Code.FAILED_PRECONDITION,
        "SHOE_EXHAUSTED",
        needed="4",
        shoe_size="3",
        clause="BJ.deal",
    )
    refuse(
        engine.Deal,
        card_deal("blackjack-c", parse_cards("TH 9C TD 7S 2C"), one_seat() * 2),
        Code.FAILED_PRECONDITION,
        "SHOE_EXHAUSTED",
        needed="6",
        shoe_size="5",
        clause="BJ.deal",
    )
    # Baccarat deals four cards before any third card.
    refuse(
        engine.Deal,
        card_deal("baccarat-d", parse_cards("9C 8D 2H"), [baccarat_seat()]),
        Code.FAILED_PRECONDITION,
        "SHOE_EXHAUSTED",
        needed="4",
        shoe_size="3",
        clause="BAC.deal",
    )


def test_shoe_exhausted_on_a_hit_leaves_the_round_as_it_was(
    engine: engine_service_pb2_grpc.EngineServiceStub, refuse: Refuse
) -> None:
    # Seat 5H 6H = 11 against 9C up, 8D in the hole (17, no peek under a 9); four cards only.
    cards = parse_cards("5H 9C 6H 8D")
    deal = card_deal("blackjack-a", cards, one_seat(1000, 100))
    dealt = engine.Deal(deal, timeout=TIMEOUT).state
    refuse(
        engine.Decide,
        decide(deal.round_id, 0, 0, HIT),
        Code.FAILED_PRECONDITION,
        "SHOE_EXHAUSTED",
        needed="5",
        shoe_size="4",
        clause="BJ.deal-order",
    )
    # Doubling needs the same card: refused the same way, the stake not doubled.
    refuse(
        engine.Decide,
        decide(deal.round_id, 0, 0, DOUBLE),
        Code.FAILED_PRECONDITION,
        "SHOE_EXHAUSTED",
    )
    # Standing needs no card: the dealer stands on 17 and the 11 loses.
    stood = engine.Decide(decide(deal.round_id, 0, 0, STAND), timeout=TIMEOUT).state
    assert stood.phase == round_pb2.ROUND_PHASE_COMPLETE
    assert stood.cards_dealt == dealt.cards_dealt == 4
    assert list(stood.blackjack.dealer.cards) == ["9C", "8D"]
    hand = stood.blackjack.seats[0].hands[0]
    assert (list(hand.cards), hand.stake.minor_units, hand.doubled) == (["5H", "6H"], 100, False)
    settled = settle(engine, deal.round_id).settlement
    assert [(x.stake.minor_units, x.returned.minor_units) for x in settled.lines] == [(100, 0)]


# --- decisions ------------------------------------------------------------------------------


def test_illegal_decision_lists_the_legal_ones_and_changes_nothing(
    engine: engine_service_pb2_grpc.EngineServiceStub, refuse: Refuse
) -> None:
    # Seat TH TD = 20 against a 9 up (7S in the hole). Balance = stake: BJ.funds refuses the
    # double and the split; blackjack-a offers no surrender. Legal: hit, stand.
    cards = parse_cards("TH 9C TD 7S 2C 3C")
    round_id = new_id("illegal")
    deal = card_deal("blackjack-a", cards, one_seat(100, 100), round_id=round_id)
    state = engine.Deal(deal, timeout=TIMEOUT).state
    assert list(state.legal_decisions) == [HIT, STAND]
    for kind, action in ((SPLIT, "split"), (DOUBLE, "double")):
        refuse(
            engine.Decide,
            decide(round_id, 0, 0, kind),
            Code.FAILED_PRECONDITION,
            "ILLEGAL_DECISION",
            legal="hit,stand",
            action=action,
        )
    # Out of turn: there is no seat 1, and seat 0 has no hand 1.
    for seat, hand in ((1, 0), (0, 1), (-1, 0)):
        refuse(
            engine.Decide,
            decide(round_id, seat, hand, STAND),
            Code.FAILED_PRECONDITION,
            "ILLEGAL_DECISION",
            legal="hit,stand",
        )
    # Not a decision at all: the legal ones are named all the same.
    for kind in (round_pb2.DECISION_KIND_UNSPECIFIED, round_pb2.DecisionKind.ValueType(42)):
        refuse(
            engine.Decide,
            decide(round_id, 0, 0, kind),
            Code.FAILED_PRECONDITION,
            "ILLEGAL_DECISION",
            legal="hit,stand",
        )
    # Nothing changed: the next legal decision works and matches the in-process oracle.
    request = RoundRequest(
        round_id=round_id,
        profile_id="blackjack-a",
        table_id=deal.table_id,
        currency="EUR",
        seats=(SeatRequest(balance=100, wagers=(BlackjackWager(amount=100),)),),
        shoe=cards,
    )
    expected = start_in_process(shipped_profile("blackjack-a"), request)
    assert wire_bytes(state) == wire_bytes(convert.round_state(expected))
    stood = engine.Decide(decide(round_id, 0, 0, STAND), timeout=TIMEOUT).state
    expected = apply_decision(
        expected, blackjack.Decision(seat=0, hand=0, action=blackjack.Action.STAND)
    )
    assert wire_bytes(stood) == wire_bytes(convert.round_state(expected))
    # The dealer's 9 7 = 16 draws the 2C: 18; the 20 wins 1:1.
    assert list(stood.blackjack.dealer.cards) == ["9C", "7S", "2C"]
    # The round is over: no decision is legal, and the legal list says so.
    refuse(
        engine.Decide,
        decide(round_id, 0, 0, HIT),
        Code.FAILED_PRECONDITION,
        "ILLEGAL_DECISION",
        legal="",
    )
    settled = settle(engine, round_id)
    assert wire_bytes(settled.settlement) == wire_bytes(
        convert.settlement(expected.settlement, "EUR")
    )
    assert settled.settlement.lines[0].returned.minor_units == 200


def test_a_round_without_decisions_takes_none(
    engine: engine_service_pb2_grpc.EngineServiceStub, refuse: Refuse
) -> None:
    deal = card_deal("baccarat-b", parse_cards("7C 7D KH QS"), [baccarat_seat()])
    engine.Deal(deal, timeout=TIMEOUT)
    refuse(
        engine.Decide,
        decide(deal.round_id, 0, 0, STAND),
        Code.FAILED_PRECONDITION,
        "ILLEGAL_DECISION",
        legal="",
    )
    # Player 7C KH = 7, banker 7D QS = 7, both stand: a tie; the player bet pushes (BAC.tie-push).
    line = settle(engine, deal.round_id).settlement.lines[0]
    assert (line.bet, line.returned.minor_units, line.clauses[0]) == ("player", 10, "BAC.tie-push")


# --- money and bets -------------------------------------------------------------------------


def test_insufficient_balance(
    engine: engine_service_pb2_grpc.EngineServiceStub, refuse: Refuse
) -> None:
    refuse(
        engine.Deal,
        card_deal("blackjack-c", parse_cards("TH 9C TD 7S"), one_seat(99, 100)),
        Code.FAILED_PRECONDITION,
        "INSUFFICIENT_BALANCE",
        seat="0",
        stake="100",
        balance="99",
    )
    bets = [
        round_pb2.Bet(
            stake=amount(60), roulette=round_pb2.RouletteBet(kind=round_pb2.ROULETTE_BET_KIND_RED)
        ),
        round_pb2.Bet(
            stake=amount(50),
            roulette=round_pb2.RouletteBet(kind=round_pb2.ROULETTE_BET_KIND_DOZEN, group=2),
        ),
    ]
    seats = [
        round_pb2.Seat(balance=amount(500), bets=bets[:1]),
        round_pb2.Seat(balance=amount(100), bets=bets),
    ]
    refuse(
        engine.Deal,
        roulette_deal("roulette-c", "17", seats, table_id=new_id("wheel")),
        Code.FAILED_PRECONDITION,
        "INSUFFICIENT_BALANCE",
        seat="1",
        stake="110",
        balance="100",
    )


def test_bet_out_of_limits(
    engine: engine_service_pb2_grpc.EngineServiceStub, refuse: Refuse
) -> None:
    # B.limits as the profiles assume them: 1 to 1 000 000 minor units a stake.
    refuse(
        engine.Deal,
        card_deal("blackjack-a", parse_cards("TH 9C TD 7S"), one_seat(5_000_000, 1_000_001)),
        Code.INVALID_ARGUMENT,
        "BET_OUT_OF_LIMITS",
        seat="0",
        amount="1000001",
        min_bet="1",
        max_bet="1000000",
    )
    seat = round_pb2.Seat(
        balance=amount(3_000_000),
        bets=[
            round_pb2.Bet(
                stake=amount(2_000_000),
                baccarat=round_pb2.BaccaratBet(kind=round_pb2.BACCARAT_BET_KIND_TIE),
            )
        ],
    )
    refuse(
        engine.Deal,
        card_deal("baccarat-b", parse_cards("7C 7D KH QS"), [seat]),
        Code.INVALID_ARGUMENT,
        "BET_OUT_OF_LIMITS",
        bet="tie",
        amount="2000000",
    )


def roulette_seat(bet: round_pb2.RouletteBet, stake: int = 10) -> round_pb2.Seat:
    return round_pb2.Seat(
        balance=amount(100), bets=[round_pb2.Bet(stake=amount(stake), roulette=bet)]
    )


def test_invalid_bet_layout(
    engine: engine_service_pb2_grpc.EngineServiceStub, refuse: Refuse
) -> None:
    # C.rou.geometry: 1 and 5 do not touch on the layout.
    split = round_pb2.RouletteBet(kind=round_pb2.ROULETTE_BET_KIND_SPLIT, pockets=["1", "5"])
    refuse(
        engine.Deal,
        roulette_deal("roulette-c", "5", [roulette_seat(split)], table_id=new_id("wheel")),
        Code.INVALID_ARGUMENT,
        "INVALID_BET_LAYOUT",
        seat="0",
        kind="split",
        numbers="1-5",
        wheel="european",
    )
    # 00 exists only on the American wheel.
    straight = round_pb2.RouletteBet(kind=round_pb2.ROULETTE_BET_KIND_STRAIGHT, pockets=["00"])
    refuse(
        engine.Deal,
        roulette_deal("roulette-c", "5", [roulette_seat(straight)], table_id=new_id("wheel")),
        Code.INVALID_ARGUMENT,
        "INVALID_BET_LAYOUT",
    )
    # A kind not set, or one the contract does not know.
    for kind in (round_pb2.ROULETTE_BET_KIND_UNSPECIFIED, round_pb2.RouletteBetKind.ValueType(99)):
        bet = round_pb2.RouletteBet(kind=kind, pockets=["17"])
        refuse(
            engine.Deal,
            roulette_deal("roulette-american", "17", [roulette_seat(bet)]),
            Code.INVALID_ARGUMENT,
            "INVALID_BET_LAYOUT",
        )
    # A baccarat bet in a blackjack round.
    refuse(
        engine.Deal,
        card_deal("blackjack-a", parse_cards("TH 9C TD 7S"), [baccarat_seat()]),
        Code.INVALID_ARGUMENT,
        "INVALID_BET_LAYOUT",
        seat="0",
        profile="blackjack-a",
    )
    # A bet that backs nothing.
    nothing = round_pb2.Seat(balance=amount(100), bets=[round_pb2.Bet(stake=amount(10))])
    refuse(
        engine.Deal,
        card_deal("baccarat-c", parse_cards("7C 7D KH QS"), [nothing]),
        Code.INVALID_ARGUMENT,
        "INVALID_BET_LAYOUT",
    )


def test_invalid_round(engine: engine_service_pb2_grpc.EngineServiceStub, refuse: Refuse) -> None:
    cards = parse_cards("TH 9C TD 7S")
    refuse(
        engine.Deal,
        card_deal("blackjack-a", cards, [blackjack_seat(100, 10, "eur")], currency="eur"),
        Code.INVALID_ARGUMENT,
        "INVALID_ROUND",
        field="currency_code",
        value="eur",
    )
    mixed = round_pb2.Seat(
        balance=amount(100, "EUR"),
        bets=[round_pb2.Bet(stake=amount(10, "USD"), blackjack=round_pb2.BlackjackBet())],
    )
    refuse(
        engine.Deal,
        card_deal("blackjack-a", cards, [mixed]),
        Code.INVALID_ARGUMENT,
        "INVALID_ROUND",
        field="seats[0].bets[0].stake",
        currency="USD",
    )
    refuse(
        engine.Deal,
        card_deal("blackjack-a", cards, []),
        Code.INVALID_ARGUMENT,
        "INVALID_ROUND",
        field="seats",
    )
    refuse(
        engine.Deal,
        card_deal("blackjack-a", cards, one_seat(), round_id=""),
        Code.INVALID_ARGUMENT,
        "INVALID_ROUND",
        field="round_id",
    )
    refuse(
        engine.Deal,
        card_deal("blackjack-a", cards, [blackjack_seat(-5, 10)]),
        Code.INVALID_ARGUMENT,
        "INVALID_ROUND",
        field="seats[0].balance",
    )
    # A card game without a shoe, a roulette round without a spin.
    no_shoe = card_deal("blackjack-c", cards, one_seat())
    no_shoe.ClearField("shoe")
    refuse(engine.Deal, no_shoe, Code.INVALID_ARGUMENT, "INVALID_ROUND", field="shoe")
    red = round_pb2.RouletteBet(kind=round_pb2.ROULETTE_BET_KIND_RED)
    no_spin = roulette_deal("roulette-c", "3", [roulette_seat(red)])
    no_spin.ClearField("spin")
    refuse(engine.Deal, no_spin, Code.INVALID_ARGUMENT, "INVALID_ROUND", field="spin")
    # A pocket the European wheel does not have.
    refuse(
        engine.Deal,
        roulette_deal("roulette-c", "00", [roulette_seat(red)]),
        Code.INVALID_ARGUMENT,
        "INVALID_ROUND",
    )


# --- round ids ------------------------------------------------------------------------------


def test_round_not_found(engine: engine_service_pb2_grpc.EngineServiceStub, refuse: Refuse) -> None:
    missing = new_id("missing")
    refuse(
        engine.Decide,
        decide(missing, 0, 0, STAND),
        Code.NOT_FOUND,
        "ROUND_NOT_FOUND",
        round_id=missing,
    )
    refuse(
        engine.Settle,
        engine_service_pb2.SettleRequest(round_id=missing),
        Code.NOT_FOUND,
        "ROUND_NOT_FOUND",
        round_id=missing,
    )
    # An unknown round is not found whatever the decision says.
    refuse(
        engine.Decide,
        decide(missing, 0, 0, round_pb2.DECISION_KIND_UNSPECIFIED),
        Code.NOT_FOUND,
        "ROUND_NOT_FOUND",
        round_id=missing,
    )


def test_round_ids_are_never_reused(
    engine: engine_service_pb2_grpc.EngineServiceStub, refuse: Refuse
) -> None:
    deal = card_deal("baccarat-c", parse_cards("7C 7D KH QS"), [baccarat_seat()])
    first = engine.Deal(deal, timeout=TIMEOUT).state
    refuse(engine.Deal, deal, Code.ALREADY_EXISTS, "ROUND_EXISTS", round_id=deal.round_id)
    settle(engine, deal.round_id)
    refuse(engine.Deal, deal, Code.ALREADY_EXISTS, "ROUND_EXISTS", round_id=deal.round_id)
    # A settled round is closed: no second settlement, no decision.
    refuse(
        engine.Settle,
        engine_service_pb2.SettleRequest(round_id=deal.round_id),
        Code.NOT_FOUND,
        "ROUND_NOT_FOUND",
    )
    refuse(engine.Decide, decide(deal.round_id, 0, 0, HIT), Code.NOT_FOUND, "ROUND_NOT_FOUND")
    assert first.phase == round_pb2.ROUND_PHASE_COMPLETE


def test_round_not_complete(
    engine: engine_service_pb2_grpc.EngineServiceStub, refuse: Refuse
) -> None:
    deal = card_deal("blackjack-a", parse_cards("TH 9C TD 7S 2C"), one_seat(100, 100))
    engine.Deal(deal, timeout=TIMEOUT)
    refuse(
        engine.Settle,
        engine_service_pb2.SettleRequest(round_id=deal.round_id),
        Code.FAILED_PRECONDITION,
        "ROUND_NOT_COMPLETE",
        round_id=deal.round_id,
        legal="hit,stand",
    )
    # The refused Settle left the round open: it still plays and settles.
    engine.Decide(decide(deal.round_id, 0, 0, STAND), timeout=TIMEOUT)
    assert settle(engine, deal.round_id).settlement.lines[0].returned.minor_units == 200
