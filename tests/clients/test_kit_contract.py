"""The adapter kit refuses what the contract forbids before the vendor's code sees it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from croupier.clients import adapter
from croupier.clients.adapter import DealInput
from croupier.clients.client import CroupierClient, CroupierError
from croupier.clients.demo_engine import DemoEngine
from croupier.clients.demo_engine.engine import Game
from croupier.v1 import engine_service_pb2
from tests.clients.conftest import baccarat_deal, roulette_deal


class _Counting(DemoEngine):
    """The demo engine, counting the Deals it is handed."""

    def __init__(self) -> None:
        super().__init__()
        self.deals = 0

    def deal(self, request: DealInput) -> Game:
        self.deals += 1
        return super().deal(request)


@pytest.fixture
def kit() -> Iterator[tuple[CroupierClient, _Counting]]:
    engine = _Counting()
    served = adapter.serve(engine)
    with CroupierClient.connect(f"127.0.0.1:{served.port}") as client:
        yield client, engine
    served.stop(grace=0)


def _set(field: str, value: str) -> Callable[[engine_service_pb2.DealRequest], None]:
    def change(deal: engine_service_pb2.DealRequest) -> None:
        setattr(deal, field, value)

    return change


def _seventeen_seats(deal: engine_service_pb2.DealRequest) -> None:
    deal.seats.extend([deal.seats[0]] * 16)


def _negative_balance(deal: engine_service_pb2.DealRequest) -> None:
    deal.seats[0].balance.minor_units = -5


def _junk_card(deal: engine_service_pb2.DealRequest) -> None:
    deal.shoe.cards[2] = "1S"


# Each fault is one the contract names (engine_service.proto; the h09x vectors of every
# profile), with the reason the reference server gives it.
FAULTS = {
    "round id with a space": (_set("round_id", "bad id"), "INVALID_ROUND", "field"),
    "round id of 129 characters": (_set("round_id", "r" * 129), "INVALID_ROUND", "field"),
    "table id of 9000 characters": (_set("table_id", "t" * 9000), "INVALID_ROUND", "field"),
    "currency not ISO 4217": (_set("currency_code", "XYZ"), "INVALID_ROUND", "field"),
    "seventeen seats": (_seventeen_seats, "INVALID_ROUND", "field"),
    "a negative balance": (_negative_balance, "INVALID_ROUND", "field"),
    "a card that is not one": (_junk_card, "INVALID_CARD", "card"),
}


@pytest.mark.parametrize("fault", FAULTS, ids=FAULTS)
def test_a_contract_fault_never_reaches_the_engine(
    kit: tuple[CroupierClient, _Counting], fault: str
) -> None:
    client, engine = kit
    change, reason, key = FAULTS[fault]
    deal = baccarat_deal("contract-1")
    change(deal)
    if fault == "currency not ISO 4217":
        for seat in deal.seats:
            seat.balance.currency_code = "XYZ"
            for bet in seat.bets:
                bet.stake.currency_code = "XYZ"
    with pytest.raises(CroupierError) as caught:
        client.deal(deal)
    assert caught.value.reason == reason
    assert key in caught.value.metadata
    assert engine.deals == 0


def test_a_pocket_no_wheel_has_never_reaches_the_engine(
    kit: tuple[CroupierClient, _Counting],
) -> None:
    client, engine = kit
    with pytest.raises(CroupierError) as caught:
        client.deal(roulette_deal("contract-2", "37x"))
    assert caught.value.reason == "INVALID_ROUND"
    assert caught.value.metadata["field"] == "spin.pocket"
    assert engine.deals == 0
    # A pocket of some wheel goes on to the engine, whose wheel decides (C.rou.wheel).
    client.deal(roulette_deal("contract-3", "17"))
    assert engine.deals == 1
