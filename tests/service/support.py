"""Helpers for the service tests: a server on a background event loop, request builders, errors.

The oracle's server is a ``grpc.aio`` server; the tests drive it with plain synchronous stubs.
The server runs on one asyncio loop in a daemon thread and is built inside that loop (grpc.aio
binds a server to the loop it is created on).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from croupier.oracle.cards import Card
from croupier.oracle.service.server import OracleServer, ServerConfig
from croupier.v1 import common_pb2, engine_service_pb2, round_pb2
from tests.strategies import SERVICE_PROFILE_IDS

#: The ErrorInfo domain the contract names.
DOMAIN = "croupier.dev"
#: A deadline for every call, so that a hung server fails a test instead of hanging it.
TIMEOUT = 10.0
#: The seven shipped profiles (DESIGN.md "Rule profiles").
PROFILE_IDS = SERVICE_PROFILE_IDS

_T = TypeVar("_T")
_ids = itertools.count()


def new_id(prefix: str = "r") -> str:
    """A round or table id never used before in this test session."""
    return f"{prefix}-{next(_ids)}"


# --- a server on a background loop --------------------------------------------------------


class LoopThread:
    """An asyncio event loop running forever in a daemon thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self.loop.run_forever, name="oracle-server-loop", daemon=True
        )
        self._thread.start()

    def run(self, coro: Coroutine[Any, Any, _T], timeout: float = 30.0) -> _T:
        """Run a coroutine on the loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        """Stop the loop and join its thread."""
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)
        self.loop.close()


@dataclass
class RunningServer:
    """An oracle server started on a loop thread."""

    server: OracleServer
    loop: LoopThread

    @property
    def address(self) -> str:
        """``127.0.0.1:port`` as bound."""
        return self.server.address

    def stop(self) -> None:
        """Graceful shutdown (health NOT_SERVING, then the grace period)."""
        self.loop.run(self.server.stop())


#: The ``serve`` fixture: ``with serve(config) as running: ...``.
ServeFactory = Callable[[ServerConfig], contextlib.AbstractContextManager[RunningServer]]


def start_server(loop: LoopThread, config: ServerConfig) -> RunningServer:
    """Build and start an oracle server inside the loop."""

    async def build() -> OracleServer:
        server = OracleServer(config)
        await server.start()
        return server

    return RunningServer(server=loop.run(build()), loop=loop)


# --- errors ---------------------------------------------------------------------------------


def error_info(exc: grpc.RpcError) -> error_details_pb2.ErrorInfo:
    """The one ErrorInfo an error carries (AIP-193); fails the test if there is not exactly one.

    The RpcError of a unary call is also a ``grpc.Call``, which ``from_call`` reads.
    """
    status = rpc_status.from_call(cast("grpc.Call", exc))
    assert status is not None, f"no google.rpc.Status attached to {exc.code()}: {exc.details()}"
    assert status.code == exc.code().value[0]
    assert len(status.details) == 1, f"expected one detail, got {len(status.details)}"
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info), f"the detail is a {status.details[0].type_url}"
    assert info.domain == DOMAIN
    assert info.reason, "an ErrorInfo without a reason"
    return info


def expect_error(
    method: Callable[..., Any],
    request: Any,
    code: grpc.StatusCode,
    reason: str,
    **metadata: str,
) -> error_details_pb2.ErrorInfo:
    """Call ``method``, expect ``code`` with an ErrorInfo of ``reason`` holding ``metadata``."""
    with pytest.raises(grpc.RpcError) as caught:
        method(request, timeout=TIMEOUT)
    exc = caught.value
    info = error_info(exc)
    assert (exc.code(), info.reason) == (code, reason), exc.details()
    for key, value in metadata.items():
        assert info.metadata.get(key) == value, (key, dict(info.metadata))
    return info


# --- request builders -----------------------------------------------------------------------


def amount(minor_units: int, currency: str = "EUR") -> common_pb2.Amount:
    """An Amount message."""
    return common_pb2.Amount(currency_code=currency, minor_units=minor_units)


def blackjack_seat(balance: int, stake: int, currency: str = "EUR") -> round_pb2.Seat:
    """A blackjack seat: its balance and its one box stake."""
    return round_pb2.Seat(
        balance=amount(balance, currency),
        bets=[round_pb2.Bet(stake=amount(stake, currency), blackjack=round_pb2.BlackjackBet())],
    )


def card_deal(
    profile_id: str,
    cards: Iterable[Card | str],
    seats: Sequence[round_pb2.Seat],
    *,
    round_id: str | None = None,
    table_id: str = "table-1",
    currency: str = "EUR",
) -> engine_service_pb2.DealRequest:
    """A Deal of a card game with a forced shoe."""
    return engine_service_pb2.DealRequest(
        round_id=round_id if round_id is not None else new_id(),
        profile_id=profile_id,
        table_id=table_id,
        currency_code=currency,
        seats=list(seats),
        shoe=engine_service_pb2.Shoe(cards=[str(c) for c in cards]),
    )


def roulette_deal(
    profile_id: str,
    pocket: str,
    seats: Sequence[round_pb2.Seat],
    *,
    round_id: str | None = None,
    table_id: str = "table-1",
    currency: str = "EUR",
) -> engine_service_pb2.DealRequest:
    """A Deal of a roulette spin."""
    return engine_service_pb2.DealRequest(
        round_id=round_id if round_id is not None else new_id(),
        profile_id=profile_id,
        table_id=table_id,
        currency_code=currency,
        seats=list(seats),
        spin=engine_service_pb2.Spin(pocket=pocket),
    )


def decide(round_id: str, seat: int, hand: int, kind: int) -> engine_service_pb2.DecideRequest:
    """A Decide request."""
    return engine_service_pb2.DecideRequest(
        round_id=round_id,
        decision=round_pb2.Decision(
            seat=seat, hand=hand, kind=round_pb2.DecisionKind.ValueType(kind)
        ),
    )


def wire_bytes(message: Any) -> bytes:
    """Deterministic bytes, for byte-for-byte comparison of messages."""
    data: bytes = message.SerializeToString(deterministic=True)
    return data
