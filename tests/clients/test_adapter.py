"""The adapter kit around the demo engine: refusals with their ErrorInfo, untouched rounds, audit."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from croupier.clients import adapter
from croupier.clients.audit import link, read_log
from croupier.clients.client import CroupierClient, CroupierError
from croupier.v1 import round_pb2
from tests.clients.conftest import baccarat_deal, blackjack_deal, roulette_deal

HIT = round_pb2.DECISION_KIND_HIT
STAND = round_pb2.DECISION_KIND_STAND
DOUBLE = round_pb2.DECISION_KIND_DOUBLE
SPLIT = round_pb2.DECISION_KIND_SPLIT

#: Player 9S 7D = 16 against a 9 up (no offers, no peek); hole 8C; then 5C for a hit.
SIXTEEN = "9S 9H 7D 8C 5C 2C"


def refusal(call: object, *args: object, **kwargs: object) -> CroupierError:
    """The CroupierError a client call raises."""
    assert callable(call)
    with pytest.raises(CroupierError) as caught:
        call(*args, **kwargs)
    return caught.value


def test_an_unknown_round_is_round_not_found(client: CroupierClient) -> None:
    error = refusal(client.decide, "nowhere", HIT)
    assert (error.code, error.reason) == (grpc.StatusCode.NOT_FOUND, "ROUND_NOT_FOUND")
    assert error.metadata["round_id"] == "nowhere"
    assert refusal(client.settle, "nowhere").reason == "ROUND_NOT_FOUND"


def test_a_round_id_is_used_once(client: CroupierClient) -> None:
    client.deal(blackjack_deal("r1", SIXTEEN))
    error = refusal(client.deal, blackjack_deal("r1", SIXTEEN))
    assert (error.code, error.reason) == (grpc.StatusCode.ALREADY_EXISTS, "ROUND_EXISTS")
    assert error.metadata["round_id"] == "r1"
    client.decide("r1", STAND)
    client.settle("r1")
    # Settled and closed, the id stays used.
    assert refusal(client.deal, blackjack_deal("r1", SIXTEEN)).reason == "ROUND_EXISTS"
    assert refusal(client.settle, "r1").reason == "ROUND_NOT_FOUND"


def test_an_illegal_decision_names_the_legal_ones(client: CroupierClient) -> None:
    state = client.deal(blackjack_deal("r2", SIXTEEN))
    assert list(state.legal_decisions) == [HIT, STAND, DOUBLE]
    error = refusal(client.decide, "r2", SPLIT)
    assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ILLEGAL_DECISION")
    assert error.metadata["legal"] == "hit,stand,double"
    assert error.metadata["action"] == "split"
    # A decision for a hand whose turn it is not: refused the same way.
    wrong_hand = refusal(client.decide, "r2", HIT, seat=0, hand=1)
    assert wrong_hand.reason == "ILLEGAL_DECISION"
    assert wrong_hand.metadata["legal"] == "hit,stand,double"


def test_settling_a_round_that_waits_is_round_not_complete(client: CroupierClient) -> None:
    client.deal(blackjack_deal("r3", SIXTEEN))
    error = refusal(client.settle, "r3")
    assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ROUND_NOT_COMPLETE")
    assert error.metadata["legal"] == "hit,stand,double"
    client.decide("r3", STAND)
    assert client.settle("r3").settlement.total_returned.minor_units == 0  # 16 < 17


def test_a_failed_decide_leaves_the_round_unchanged(client: CroupierClient) -> None:
    # Player 6S 5D = 11 against 9H, hole 8C: the shoe holds no card for a double. The demo
    # engine doubles the stake, then finds the shoe empty: the kit drops its half-done copy.
    dealt = client.deal(blackjack_deal("r4", "6S 9H 5D 8C"))
    error = refusal(client.decide, "r4", DOUBLE)
    assert error.reason == "SHOE_EXHAUSTED"
    # An illegal decision changes nothing either.
    assert refusal(client.decide, "r4", SPLIT).reason == "ILLEGAL_DECISION"
    stood = client.decide("r4", STAND)
    hand = stood.blackjack.seats[0].hands[0]
    assert list(hand.cards) == list(dealt.blackjack.seats[0].hands[0].cards) == ["6S", "5D"]
    assert (hand.stake.minor_units, hand.doubled) == (100, False)
    settled = client.settle("r4")
    line = settled.settlement.lines[0]
    assert (line.stake.minor_units, line.returned.minor_units) == (100, 0)  # 11 < 17


def test_the_audit_log_is_hash_chained_one_record_per_settled_round(
    served: adapter.Served, client: CroupierClient, audit_path: Path
) -> None:
    settled = []
    client.deal(blackjack_deal("a1", "AS 7H KD 9C"))  # example A1: 250, paid at once
    settled.append(client.settle("a1"))
    client.deal(blackjack_deal("a2", SIXTEEN))
    client.decide("a2", HIT)  # 16 + 5 = 21: stands; dealer 17
    settled.append(client.settle("a2"))
    client.deal(baccarat_deal("a3"))
    settled.append(client.settle("a3"))
    client.deal(roulette_deal("a4", "3"))
    settled.append(client.settle("a4"))
    client.deal(blackjack_deal("open", SIXTEEN))  # never settled: never logged
    served.stop(grace=0)

    entries = list(read_log(audit_path))
    assert [entry.error for entry in entries] == [""] * 4
    records = [entry.record for entry in entries]
    assert all(record is not None for record in records)
    previous = b""
    for record, response in zip(records, settled, strict=True):
        assert record is not None
        assert record.previous_record_sha256 == previous
        assert record.round_id == response.state.round_id
        assert record.settlement == response.settlement
        assert record.final_state == response.state
        previous = link(record)
    first, second, coup, spin = (r for r in records if r is not None)
    assert [line.returned.minor_units for line in first.settlement.lines] == [250]
    assert list(first.cards_dealt) == ["AS", "7H", "KD", "9C"]
    assert [d.kind for d in second.decisions] == [HIT]
    assert list(second.cards_dealt) == SIXTEEN.split()[:5]
    assert [line.returned.minor_units for line in coup.settlement.lines] == [195]
    assert (spin.pocket, [line.returned.minor_units for line in spin.settlement.lines]) == (
        "3",
        [20],
    )
