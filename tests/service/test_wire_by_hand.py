"""A few rounds whose every RoundState and Settlement is written out by hand as protobuf JSON.

The broad service tests compare the server with the in-process oracle through the same
conversion code the server uses (``oracle.service.convert``), so a conversion bug shows on
both sides and cancels out. Here the expected messages are literals worked out from RULES.md
and the contract's comments (round.proto, common.proto), parsed with ``json_format.Parse``:
cards, statuses, amounts, turns, legal decisions, clauses and the board, field by field.
"""

from __future__ import annotations

from typing import Any, TypeVar

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message

from croupier.oracle.cards import DECK, Card, Rank, Suit
from croupier.oracle.rounds import BlackjackWager, RoundRequest, SeatRequest
from croupier.oracle.service import convert
from croupier.v1 import common_pb2, engine_service_pb2, engine_service_pb2_grpc, round_pb2
from tests.service.support import (
    TIMEOUT,
    amount,
    blackjack_seat,
    card_deal,
    decide,
    expect_error,
    new_id,
    roulette_deal,
)

_M = TypeVar("_M", bound=Message)


def parsed(text: str, message: _M, round_id: str) -> _M:
    """The hand-written JSON as a message; ``RID`` stands for the round's id."""
    return json_format.Parse(text.replace("RID", round_id), message)


def same(got: Message, want: Message) -> None:
    """Equal messages; compared as dicts so that a failure shows the differing fields."""
    as_dict: dict[str, Any] = json_format.MessageToDict(got)
    assert as_dict == json_format.MessageToDict(want)
    assert got == want


def settle(
    engine: engine_service_pb2_grpc.EngineServiceStub, round_id: str
) -> engine_service_pb2.SettleResponse:
    return engine.Settle(engine_service_pb2.SettleRequest(round_id=round_id), timeout=TIMEOUT)


# --- blackjack A: insurance, then a double ------------------------------------------------------

# Seat 6S 5H = 11 against AD (hole 7C), stake 100 of 1000. A.insurance: the offer comes first;
# the turn is seat 0 hand 0 (both zero, so the Turn message is present but empty). During the
# offers the hand shows PLAYING and the hole card stays hidden (round.proto RoundPhase).
BJ_DEALT = """
{
  "roundId": "RID", "profileId": "blackjack-a", "phase": "ROUND_PHASE_OFFERS", "cardsDealt": 4,
  "turn": {},
  "legalDecisions": ["DECISION_KIND_INSURANCE", "DECISION_KIND_DECLINE_INSURANCE"],
  "blackjack": {
    "seats": [{
      "hands": [{"cards": ["6S", "5H"], "stake": {"currencyCode": "EUR", "minorUnits": "100"},
                 "status": "HAND_STATUS_PLAYING"}],
      "insurance": {"currencyCode": "EUR"}
    }],
    "dealer": {"cards": ["AD"], "holeCardHidden": true}
  }
}
"""

# Insured for half the stake (BJ.half-stakes): 50. The dealer looks (A.peek): AD 7C is no
# blackjack, play goes on, the hole card still hidden. 150 committed of 1000: hit, stand and
# double (BJ.funds: 100 more is there); 6-5 is no pair; A offers no surrender.
BJ_INSURED = """
{
  "roundId": "RID", "profileId": "blackjack-a", "phase": "ROUND_PHASE_PLAY", "cardsDealt": 4,
  "turn": {},
  "legalDecisions": ["DECISION_KIND_HIT", "DECISION_KIND_STAND", "DECISION_KIND_DOUBLE"],
  "blackjack": {
    "seats": [{
      "hands": [{"cards": ["6S", "5H"], "stake": {"currencyCode": "EUR", "minorUnits": "100"},
                 "status": "HAND_STATUS_PLAYING"}],
      "insurance": {"currencyCode": "EUR", "minorUnits": "50"}
    }],
    "dealer": {"cards": ["AD"], "holeCardHidden": true}
  }
}
"""

# A.double: stake 200, exactly one card, 9C: 20, the hand stands. The dealer turns 7C: soft 18
# stands (A.dealer-draw). No turn, no decisions; five cards dealt.
BJ_DONE = """
{
  "roundId": "RID", "profileId": "blackjack-a", "phase": "ROUND_PHASE_COMPLETE", "cardsDealt": 5,
  "blackjack": {
    "seats": [{
      "hands": [{"cards": ["6S", "5H", "9C"],
                 "stake": {"currencyCode": "EUR", "minorUnits": "200"},
                 "status": "HAND_STATUS_STOOD", "doubled": true}],
      "insurance": {"currencyCode": "EUR", "minorUnits": "50"}
    }],
    "dealer": {"cards": ["AD", "7C"]}
  }
}
"""

# 20 beats 18: 200 + 200 (BJ.compare). No dealer blackjack: the insurance is lost
# (A.insurance, its stake by BJ.half-stakes). Hands first, then insurance (common.proto).
BJ_SETTLED = """
{
  "lines": [
    {"bet": "hand 0", "stake": {"currencyCode": "EUR", "minorUnits": "200"},
     "returned": {"currencyCode": "EUR", "minorUnits": "400"}, "returnedExact": "400",
     "clauses": ["BJ.compare"]},
    {"bet": "insurance", "stake": {"currencyCode": "EUR", "minorUnits": "50"},
     "returned": {"currencyCode": "EUR"}, "returnedExact": "0",
     "clauses": ["A.insurance", "BJ.half-stakes"]}
  ],
  "totalStaked": {"currencyCode": "EUR", "minorUnits": "250"},
  "totalReturned": {"currencyCode": "EUR", "minorUnits": "400"}
}
"""


def test_blackjack_insurance_then_double_by_hand(
    engine: engine_service_pb2_grpc.EngineServiceStub,
) -> None:
    rid = new_id("by-hand")
    deal = card_deal(
        "blackjack-a", ["6S", "AD", "5H", "7C", "9C"], [blackjack_seat(1000, 100)], round_id=rid
    )
    same(engine.Deal(deal, timeout=TIMEOUT).state, parsed(BJ_DEALT, round_pb2.RoundState(), rid))
    insured = engine.Decide(decide(rid, 0, 0, round_pb2.DECISION_KIND_INSURANCE), timeout=TIMEOUT)
    same(insured.state, parsed(BJ_INSURED, round_pb2.RoundState(), rid))
    doubled = engine.Decide(decide(rid, 0, 0, round_pb2.DECISION_KIND_DOUBLE), timeout=TIMEOUT)
    same(doubled.state, parsed(BJ_DONE, round_pb2.RoundState(), rid))
    settled = settle(engine, rid)
    same(settled.settlement, parsed(BJ_SETTLED, common_pb2.Settlement(), rid))
    same(settled.state, parsed(BJ_DONE, round_pb2.RoundState(), rid))


# --- baccarat: third cards, and the banker's commission ---------------------------------------

# BAC.deal: P 2S, B KH, P 3D, B AC. Player 5 draws 4C: 9 (BAC.player-draw); banker 0 + 1 = 1
# draws TD: 1 (always on 0-2). 5H stays in the shoe. Player wins 9 to 1.
BAC_DRAWN = """
{
  "roundId": "RID", "profileId": "baccarat-c", "phase": "ROUND_PHASE_COMPLETE", "cardsDealt": 6,
  "baccarat": {"playerCards": ["2S", "3D", "4C"], "bankerCards": ["KH", "AC", "TD"],
               "playerTotal": 9, "bankerTotal": 1, "outcome": "BACCARAT_OUTCOME_PLAYER"}
}
"""
BAC_DRAWN_SETTLED = """
{
  "lines": [
    {"bet": "player", "stake": {"currencyCode": "EUR", "minorUnits": "100"},
     "returned": {"currencyCode": "EUR", "minorUnits": "200"}, "returnedExact": "200",
     "clauses": ["BAC.pay-player", "BAC.outcome"]},
    {"bet": "banker", "stake": {"currencyCode": "EUR", "minorUnits": "15"},
     "returned": {"currencyCode": "EUR"}, "returnedExact": "0", "clauses": ["BAC.outcome"]},
    {"bet": "tie", "stake": {"currencyCode": "EUR", "minorUnits": "10"},
     "returned": {"currencyCode": "EUR"}, "returnedExact": "0", "clauses": ["BAC.outcome"]}
  ],
  "totalStaked": {"currencyCode": "EUR", "minorUnits": "125"},
  "totalReturned": {"currencyCode": "EUR", "minorUnits": "200"}
}
"""

# Player 6C TH = 6 and banker 7D TS = 7 both stand. The banker bet of 15 wins 1:1 less 5%
# on the win (BAC.pay-banker): 15 + 14.25 = 29.25 = 117/4 exact, 29 paid (MONEY.rounding).
BAC_COMMISSION = """
{
  "roundId": "RID", "profileId": "baccarat-d", "phase": "ROUND_PHASE_COMPLETE", "cardsDealt": 4,
  "baccarat": {"playerCards": ["6C", "TH"], "bankerCards": ["7D", "TS"],
               "playerTotal": 6, "bankerTotal": 7, "outcome": "BACCARAT_OUTCOME_BANKER"}
}
"""
BAC_COMMISSION_SETTLED = """
{
  "lines": [
    {"bet": "banker", "stake": {"currencyCode": "EUR", "minorUnits": "15"},
     "returned": {"currencyCode": "EUR", "minorUnits": "29"}, "returnedExact": "117/4",
     "clauses": ["BAC.pay-banker", "BAC.outcome", "MONEY.rounding"]}
  ],
  "totalStaked": {"currencyCode": "EUR", "minorUnits": "15"},
  "totalReturned": {"currencyCode": "EUR", "minorUnits": "29"}
}
"""


def _baccarat_bet(kind: round_pb2.BaccaratBetKind.ValueType, stake: int) -> round_pb2.Bet:
    return round_pb2.Bet(stake=amount(stake), baccarat=round_pb2.BaccaratBet(kind=kind))


def test_baccarat_coups_by_hand(engine: engine_service_pb2_grpc.EngineServiceStub) -> None:
    rid = new_id("by-hand")
    seat = round_pb2.Seat(
        balance=amount(1000),
        bets=[
            _baccarat_bet(round_pb2.BACCARAT_BET_KIND_PLAYER, 100),
            _baccarat_bet(round_pb2.BACCARAT_BET_KIND_BANKER, 15),
            _baccarat_bet(round_pb2.BACCARAT_BET_KIND_TIE, 10),
        ],
    )
    shoe = ["2S", "KH", "3D", "AC", "4C", "TD", "5H"]
    dealt = engine.Deal(card_deal("baccarat-c", shoe, [seat], round_id=rid), timeout=TIMEOUT)
    same(dealt.state, parsed(BAC_DRAWN, round_pb2.RoundState(), rid))
    same(settle(engine, rid).settlement, parsed(BAC_DRAWN_SETTLED, common_pb2.Settlement(), rid))

    rid = new_id("by-hand")
    seat = round_pb2.Seat(
        balance=amount(15), bets=[_baccarat_bet(round_pb2.BACCARAT_BET_KIND_BANKER, 15)]
    )
    shoe = ["6C", "7D", "TH", "TS"]
    dealt = engine.Deal(card_deal("baccarat-d", shoe, [seat], round_id=rid), timeout=TIMEOUT)
    same(dealt.state, parsed(BAC_COMMISSION, round_pb2.RoundState(), rid))
    settled = settle(engine, rid)
    same(settled.settlement, parsed(BAC_COMMISSION_SETTLED, common_pb2.Settlement(), rid))


# --- roulette, American: 00, then a refused spin, then 17 on the same table --------------------

# US.rou.wheel: 00 is a pocket. The straight on 00 pays 35:1 (360 on 10), the split 0-00
# 17:1 (180); red and the first dozen lose to the zeros (US.rou.zero-loses). Labels name the
# pockets in layout order, 0 before 00 (common.proto). The board of a new table: 00.
SPIN_00 = """
{
  "roundId": "RID", "profileId": "roulette-american", "phase": "ROUND_PHASE_COMPLETE",
  "roulette": {"pocket": "00", "history": ["00"]}
}
"""
SPIN_00_SETTLED = """
{
  "lines": [
    {"bet": "straight 00", "stake": {"currencyCode": "EUR", "minorUnits": "10"},
     "returned": {"currencyCode": "EUR", "minorUnits": "360"}, "returnedExact": "360",
     "clauses": ["US.rou.geometry"]},
    {"bet": "split 0-00", "stake": {"currencyCode": "EUR", "minorUnits": "10"},
     "returned": {"currencyCode": "EUR", "minorUnits": "180"}, "returnedExact": "180",
     "clauses": ["US.rou.geometry"]},
    {"bet": "red", "stake": {"currencyCode": "EUR", "minorUnits": "10"},
     "returned": {"currencyCode": "EUR"}, "returnedExact": "0",
     "clauses": ["US.rou.zero-loses", "US.rou.wheel"]},
    {"bet": "dozen 1", "stake": {"currencyCode": "EUR", "minorUnits": "10"},
     "returned": {"currencyCode": "EUR"}, "returnedExact": "0",
     "clauses": ["US.rou.zero-loses", "US.rou.wheel"]}
  ],
  "totalStaked": {"currencyCode": "EUR", "minorUnits": "40"},
  "totalReturned": {"currencyCode": "EUR", "minorUnits": "540"}
}
"""
# C.rou.history: the refused spin never reached the board, which reads 00 then 17.
SPIN_17 = """
{
  "roundId": "RID", "profileId": "roulette-american", "phase": "ROUND_PHASE_COMPLETE",
  "roulette": {"pocket": "17", "history": ["00", "17"]}
}
"""
SPIN_17_SETTLED = """
{
  "lines": [
    {"bet": "straight 17", "stake": {"currencyCode": "EUR", "minorUnits": "1"},
     "returned": {"currencyCode": "EUR", "minorUnits": "36"}, "returnedExact": "36",
     "clauses": ["US.rou.geometry"]}
  ],
  "totalStaked": {"currencyCode": "EUR", "minorUnits": "1"},
  "totalReturned": {"currencyCode": "EUR", "minorUnits": "36"}
}
"""


def _roulette_bet(
    kind: round_pb2.RouletteBetKind.ValueType, stake: int, *pockets: str, group: int = 0
) -> round_pb2.Bet:
    bet = round_pb2.RouletteBet(kind=kind, pockets=list(pockets), group=group)
    return round_pb2.Bet(stake=amount(stake), roulette=bet)


def test_roulette_spins_and_board_by_hand(
    engine: engine_service_pb2_grpc.EngineServiceStub,
) -> None:
    table = new_id("by-hand-wheel")
    rid = new_id("by-hand")
    seat = round_pb2.Seat(
        balance=amount(100),
        bets=[
            _roulette_bet(round_pb2.ROULETTE_BET_KIND_STRAIGHT, 10, "00"),
            _roulette_bet(round_pb2.ROULETTE_BET_KIND_SPLIT, 10, "00", "0"),
            _roulette_bet(round_pb2.ROULETTE_BET_KIND_RED, 10),
            _roulette_bet(round_pb2.ROULETTE_BET_KIND_DOZEN, 10, group=1),
        ],
    )
    deal = roulette_deal("roulette-american", "00", [seat], round_id=rid, table_id=table)
    same(engine.Deal(deal, timeout=TIMEOUT).state, parsed(SPIN_00, round_pb2.RoundState(), rid))
    same(settle(engine, rid).settlement, parsed(SPIN_00_SETTLED, common_pb2.Settlement(), rid))

    # Stakes of 10 on a balance of 5: refused, and the table's board must not move.
    broke = round_pb2.Seat(
        balance=amount(5), bets=[_roulette_bet(round_pb2.ROULETTE_BET_KIND_RED, 10)]
    )
    expect_error(
        engine.Deal,
        roulette_deal("roulette-american", "5", [broke], table_id=table),
        grpc.StatusCode.FAILED_PRECONDITION,
        "INSUFFICIENT_BALANCE",
        seat="0",
    )

    rid = new_id("by-hand")
    seat = round_pb2.Seat(
        balance=amount(10), bets=[_roulette_bet(round_pb2.ROULETTE_BET_KIND_STRAIGHT, 1, "17")]
    )
    deal = roulette_deal("roulette-american", "17", [seat], round_id=rid, table_id=table)
    same(engine.Deal(deal, timeout=TIMEOUT).state, parsed(SPIN_17, round_pb2.RoundState(), rid))
    same(settle(engine, rid).settlement, parsed(SPIN_17_SETTLED, common_pb2.Settlement(), rid))


def test_a_card_built_anew_is_written_as_its_text() -> None:
    # The conversion looks the deck's own cards up by identity; any other equal card is
    # written out the same (round.proto: rank A23456789TJQK, then suit CDHS).
    fresh = (Card(rank=Rank.TEN, suit=Suit.HEARTS), Card(rank=Rank.ACE, suit=Suit.SPADES))
    request = RoundRequest(
        round_id="r1",
        profile_id="blackjack-a",
        table_id="t1",
        currency="EUR",
        seats=(SeatRequest(balance=1000, wagers=(BlackjackWager(amount=100),)),),
        shoe=fresh + DECK[:2],
    )
    assert list(convert.deal_request(request).shoe.cards) == ["TH", "AS", "AC", "2C"]
