"""oracle.service.flat: a message read as paths to values, in the form vector.proto documents."""

from __future__ import annotations

from croupier.oracle.service.flat import comparable, view
from croupier.v1 import common_pb2, engine_service_pb2, round_pb2


def test_a_blackjack_state_as_paths() -> None:
    state = round_pb2.RoundState(
        round_id="r1",
        profile_id="blackjack-c",
        phase=round_pb2.ROUND_PHASE_PLAY,
        cards_dealt=4,
        turn=round_pb2.Turn(seat=0, hand=0),
        legal_decisions=[round_pb2.DECISION_KIND_STAND, round_pb2.DECISION_KIND_HIT],
        blackjack=round_pb2.BlackjackTable(
            seats=[
                round_pb2.BlackjackSeat(
                    hands=[
                        round_pb2.BlackjackHand(
                            cards=["TH", "6C"],
                            stake=common_pb2.Amount(currency_code="EUR", minor_units=100),
                            status=round_pb2.HAND_STATUS_PLAYING,
                        )
                    ]
                )
            ],
            dealer=round_pb2.BlackjackDealer(cards=["9D"], hole_card_hidden=True),
        ),
    )
    hand = "blackjack.seats[0].hands[0]"
    assert view(state) == {
        "round_id": "r1",
        "profile_id": "blackjack-c",
        "phase": "play",
        "cards_dealt": "4",
        "turn": "(set)",
        "turn.seat": "0",
        "turn.hand": "0",
        # A set of decisions, whatever the order they are listed in.
        "legal_decisions[hit]": "offered",
        "legal_decisions[stand]": "offered",
        "legal_decisions[double]": "(none)",
        "legal_decisions[split]": "(none)",
        "legal_decisions[surrender]": "(none)",
        "legal_decisions[insurance]": "(none)",
        "legal_decisions[decline-insurance]": "(none)",
        "legal_decisions[even-money]": "(none)",
        "legal_decisions[decline-even-money]": "(none)",
        "legal_decisions[decline-surrender]": "(none)",
        "blackjack": "(set)",
        "blackjack.seats[0]": "(set)",
        f"{hand}": "(set)",
        f"{hand}.cards[0]": "TH",
        f"{hand}.cards[1]": "6C",
        f"{hand}.cards[2]": "(none)",
        f"{hand}.stake": "(set)",
        f"{hand}.stake.currency_code": "EUR",
        f"{hand}.stake.minor_units": "100",
        f"{hand}.status": "playing",
        f"{hand}.doubled": "false",
        f"{hand}.from_split": "false",
        f"{hand}.even_money": "false",
        "blackjack.seats[0].hands[1]": "(none)",
        "blackjack.seats[0].insurance": "(none)",
        "blackjack.seats[1]": "(none)",
        "blackjack.dealer": "(set)",
        "blackjack.dealer.cards[0]": "9D",
        "blackjack.dealer.cards[1]": "(none)",
        "blackjack.dealer.hole_card_hidden": "true",
        "baccarat": "(none)",
        "roulette": "(none)",
    }


def test_a_settlement_leaves_out_what_an_engine_may_omit() -> None:
    settlement = common_pb2.Settlement(
        lines=[
            common_pb2.SettlementLine(
                seat=0,
                bet="banker",
                stake=common_pb2.Amount(currency_code="EUR", minor_units=25),
                returned=common_pb2.Amount(currency_code="EUR", minor_units=48),
                returned_exact="195/4",
                clauses=["BAC.pay-banker"],
            )
        ]
    )
    got = view(settlement, "settlement")
    assert "settlement.lines[0].returned_exact" not in got
    assert not any(".clauses" in path for path in got)
    assert got["settlement.lines[0].bet"] == "banker"
    assert got["settlement.lines[0].returned.minor_units"] == "48"
    assert got["settlement.lines[1]"] == "(none)"
    assert got["settlement.total_staked"] == "(none)"


def _line(**fields: object) -> common_pb2.SettlementLine:
    return common_pb2.SettlementLine(
        seat=0,
        bet="hand 0",
        stake=common_pb2.Amount(currency_code="EUR", minor_units=200),
        returned=common_pb2.Amount(currency_code="EUR", minor_units=400),
        **fields,  # type: ignore[arg-type]
    )


def test_comparable_drops_what_the_view_ignores_and_nothing_else() -> None:
    filled = common_pb2.Settlement(lines=[_line(returned_exact="400", clauses=["BJ.compare"])])
    bare = common_pb2.Settlement(lines=[_line()])
    assert filled != bare
    assert comparable(filled) == comparable(bare)
    assert view(comparable(filled)) == view(filled)
    # The original is left as it was.
    assert filled.lines[0].clauses == ["BJ.compare"]
    # A field the view reads still tells them apart, clauses or none.
    wrong = common_pb2.Settlement(lines=[_line()])
    wrong.lines[0].returned.minor_units = 399
    assert comparable(filled) != comparable(wrong)
    assert view(filled) != view(wrong)


def test_comparable_reads_legal_decisions_as_the_set_the_view_reads() -> None:
    hit, stand, double = (
        round_pb2.DECISION_KIND_HIT,
        round_pb2.DECISION_KIND_STAND,
        round_pb2.DECISION_KIND_DOUBLE,
    )
    listed = round_pb2.RoundState(round_id="r1", legal_decisions=[hit, stand])
    # Another order, a member twice, and numbers the view never lists (0 and unknown).
    shuffled = round_pb2.RoundState(round_id="r1", legal_decisions=[stand, 0, hit, stand, 99])
    assert listed != shuffled
    assert view(listed) == view(shuffled)
    assert comparable(listed) == comparable(shuffled)
    more = round_pb2.RoundState(round_id="r1", legal_decisions=[hit, stand, double])
    assert comparable(listed) != comparable(more)
    assert view(listed) != view(more)


def test_comparable_walks_a_response_down_to_its_settlement_lines() -> None:
    state = round_pb2.RoundState(round_id="r1", legal_decisions=[round_pb2.DECISION_KIND_HIT])
    filled = engine_service_pb2.SettleResponse(
        settlement=common_pb2.Settlement(lines=[_line(clauses=["BJ.compare"]), _line()]),
        state=state,
    )
    bare = engine_service_pb2.SettleResponse()
    bare.CopyFrom(filled)
    bare.settlement.lines[0].ClearField("clauses")
    bare.settlement.lines[1].returned_exact = "400"
    assert comparable(filled) == comparable(bare)
    bare.state.round_id = "r2"
    assert comparable(filled) != comparable(bare)
