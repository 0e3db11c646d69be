"""Fixtures: the demo engine served in process by the adapter kit, and deals to send it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.clients import adapter
from croupier.clients.client import CroupierClient
from croupier.clients.demo_engine import DemoEngine
from croupier.v1 import common_pb2, engine_service_pb2, round_pb2


def amount(units: int) -> common_pb2.Amount:
    """EUR minor units."""
    return common_pb2.Amount(currency_code="EUR", minor_units=units)


def blackjack_deal(
    round_id: str,
    cards: str,
    *,
    profile: str = "blackjack-a",
    balance: int = 1000,
    stake: int = 100,
) -> engine_service_pb2.DealRequest:
    """One seat's blackjack round from a forced shoe in contract order."""
    return engine_service_pb2.DealRequest(
        round_id=round_id,
        profile_id=profile,
        table_id="t1",
        currency_code="EUR",
        seats=[
            round_pb2.Seat(
                balance=amount(balance),
                bets=[round_pb2.Bet(stake=amount(stake), blackjack=round_pb2.BlackjackBet())],
            )
        ],
        shoe=engine_service_pb2.Shoe(cards=cards.split()),
    )


def baccarat_deal(round_id: str) -> engine_service_pb2.DealRequest:
    """A banker natural 9 against a player 5: the banker bet of 100 returns 195."""
    return engine_service_pb2.DealRequest(
        round_id=round_id,
        profile_id="baccarat-c",
        table_id="t2",
        currency_code="EUR",
        seats=[
            round_pb2.Seat(
                balance=amount(1000),
                bets=[
                    round_pb2.Bet(
                        stake=amount(100),
                        baccarat=round_pb2.BaccaratBet(kind=round_pb2.BACCARAT_BET_KIND_BANKER),
                    )
                ],
            )
        ],
        shoe=engine_service_pb2.Shoe(cards=["2C", "9C", "3D", "KD", "5S", "5D"]),
    )


def roulette_deal(round_id: str, pocket: str) -> engine_service_pb2.DealRequest:
    """Red for 10 on a European wheel."""
    return engine_service_pb2.DealRequest(
        round_id=round_id,
        profile_id="roulette-c",
        table_id="t3",
        currency_code="EUR",
        seats=[
            round_pb2.Seat(
                balance=amount(100),
                bets=[
                    round_pb2.Bet(
                        stake=amount(10),
                        roulette=round_pb2.RouletteBet(kind=round_pb2.ROULETTE_BET_KIND_RED),
                    )
                ],
            )
        ],
        spin=engine_service_pb2.Spin(pocket=pocket),
    )


@pytest.fixture
def audit_path(tmp_path: Path) -> Path:
    """Where the served engine writes its audit log."""
    return tmp_path / "audit.jsonl"


@pytest.fixture
def served(audit_path: Path) -> Iterator[adapter.Served]:
    """The demo engine on 127.0.0.1, any free port, writing an audit log."""
    running = adapter.serve(DemoEngine(), port=0, audit_log=audit_path)
    try:
        yield running
    finally:
        running.stop(grace=0)


@pytest.fixture
def client(served: adapter.Served) -> Iterator[CroupierClient]:
    """A typed client of the served demo engine."""
    with CroupierClient.connect(f"127.0.0.1:{served.port}", timeout=10) as connected:
        yield connected
