"""The reference oracle as a gRPC server: EngineService and OracleService, thin adapters.

Each method converts the request (``oracle.service.convert``), calls the core, converts
back. Every ``OracleError`` becomes a canonical status code with one
``google.rpc.ErrorInfo`` whose ``reason`` is the error's stable reason
(AIP-193). The server also serves health checking and reflection, bounds the
rounds it holds and the size of messages, and shuts down gracefully.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import grpc
from grpc_health.v1 import health, health_pb2
from grpc_reflection.v1alpha import reflection

from croupier import oracle
from croupier.clients import listen
from croupier.clients.status import StatusError, error_status
from croupier.oracle.decision import Decision
from croupier.oracle.errors import (
    BatchTooLargeError,
    OracleError,
)
from croupier.oracle.profile import Profiles
from croupier.oracle.roulette import Boards
from croupier.oracle.rounds import Round
from croupier.oracle.service import convert, records
from croupier.oracle.service.table import OpenRounds
from croupier.v1 import (
    engine_service_pb2,
    engine_service_pb2_grpc,
    oracle_service_pb2,
    oracle_service_pb2_grpc,
    round_pb2,
)

log = logging.getLogger("croupier.server")

#: Largest message the server receives or sends (a full 8-deck shoe is a few kilobytes).
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
#: Most records one VerifyRounds call takes.
MAX_BATCH = 1000

_Req = TypeVar("_Req")
_Resp = TypeVar("_Resp")


async def _abort(context: grpc.aio.ServicerContext[Any, Any], status: grpc.Status) -> None:
    await context.abort(status.code, status.details, status.trailing_metadata)


def _guard(
    method: Callable[[Any, _Req, grpc.aio.ServicerContext[Any, Any]], Awaitable[_Resp]],
) -> Callable[[Any, _Req, grpc.aio.ServicerContext[Any, Any]], Awaitable[_Resp]]:
    """Turn oracle errors into AIP-193 statuses; anything else is a bug, logged as INTERNAL.

    A request that did not decode (``listen.MalformedRequest``) is MALFORMED_REQUEST; a call
    that comes once the server is shutting down (``Gate``) is SHUTTING_DOWN.
    """

    async def wrapper(
        self: Any, request: _Req, context: grpc.aio.ServicerContext[Any, Any]
    ) -> _Resp:
        if isinstance(request, listen.MalformedRequest):
            await _abort(context, request.status())
        gate: Gate = self.gate
        if not gate.open:
            await _abort(context, listen.shutting_down())
        gate.enter()
        try:
            return await method(self, request, context)
        except OracleError as exc:
            await _abort(context, error_status(exc.reason, exc.message, exc.metadata))
        except StatusError as exc:
            await _abort(context, exc.status())
        except grpc.aio.AbortError:
            raise
        except Exception:
            log.exception("unexpected error in %s", method.__name__)
            status = error_status("INTERNAL", "internal error", {})
            await context.abort(status.code, status.details, status.trailing_metadata)
        finally:
            gate.leave()
        raise AssertionError("unreachable")  # pragma: no cover

    wrapper.__name__ = method.__name__
    return wrapper


class Gate:
    """The calls in flight, and whether new ones still come in: graceful shutdown's doorman.

    gRPC's own graceful stop cancels the calls that have reached the server but that it has
    not yet handed to a method; a server that closes this gate first, waits for the calls in
    flight, then stops, loses none of them (``OracleServer.stop``).
    """

    def __init__(self) -> None:
        self.open = True
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    def enter(self) -> None:
        """A call starts."""
        self.in_flight += 1
        self._idle.clear()

    def leave(self) -> None:
        """A call ends."""
        self.in_flight -= 1
        if self.in_flight == 0:
            self._idle.set()

    async def drained(self, timeout: float) -> bool:
        """Wait until no call is in flight, at most ``timeout`` seconds; True if none is."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)
        return self.in_flight == 0


class EngineServicer(engine_service_pb2_grpc.EngineServiceServicer):
    """The oracle's EngineService: every profile it knows, dealt exactly as the contract says."""

    def __init__(
        self,
        rounds: OpenRounds,
        claimed: tuple[str, ...] | None = None,
        gate: Gate | None = None,
    ) -> None:
        self.gate = gate or Gate()
        self._rounds = rounds
        self._claimed = claimed if claimed is not None else tuple(p.id for p in rounds.profiles)
        #: The state each open round last answered, beside the round it shows: a settled
        #: round is the one last answered, so Settle answers that state, not converted again.
        #: Bounded like the book; an entry evicted or stale (another round) is just converted.
        self._shown: dict[str, tuple[Round, round_pb2.RoundState]] = {}
        self._most_shown = rounds.book.max_open_rounds

    @_guard
    async def Describe(
        self,
        request: engine_service_pb2.DescribeRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> engine_service_pb2.DescribeResponse:
        """Name, version and every profile the oracle knows."""
        return engine_service_pb2.DescribeResponse(
            name="croupier-oracle", version=oracle.__version__, profile_ids=list(self._claimed)
        )

    @_guard
    async def Deal(
        self, request: engine_service_pb2.DealRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> engine_service_pb2.DealResponse:
        """Start a round from its forced outcome."""
        current = self._rounds.deal(convert.round_request_from(request))
        answer = convert.answer(engine_service_pb2.DealResponse, current)
        self._shown_as(request.round_id, current, answer.state)
        return answer

    @_guard
    async def Decide(
        self, request: engine_service_pb2.DecideRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> engine_service_pb2.DecideResponse:
        """Apply one decision to the hand whose turn it is."""
        current = self._rounds.decide(request.round_id, self._decision(request))
        answer = convert.answer(engine_service_pb2.DecideResponse, current)
        self._shown_as(request.round_id, current, answer.state)
        return answer

    def _shown_as(self, round_id: str, current: Round, state: round_pb2.RoundState) -> None:
        """Keep the state a round was answered with (built inside its answer) for its Settle."""
        shown = self._shown
        shown[round_id] = (current, state)
        if len(shown) > self._most_shown:
            del shown[next(iter(shown))]  # the earliest dealt: abandoned, most likely

    def _decision(self, request: engine_service_pb2.DecideRequest) -> Decision:
        """The request's decision; ROUND_NOT_FOUND first, then a kind that is none (legal named)."""
        return convert.decision_for(request.decision, self._rounds.get(request.round_id))

    @_guard
    async def Settle(
        self, request: engine_service_pb2.SettleRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> engine_service_pb2.SettleResponse:
        """Settle and close a complete round."""
        current = self._rounds.settle(request.round_id)
        shown = self._shown.pop(request.round_id, None)
        # The very round last answered (rounds are immutable): its state, as answered then.
        state = shown[1] if shown is not None and shown[0] is current else None
        answer = (
            engine_service_pb2.SettleResponse(state=state)
            if state is not None
            else convert.answer(engine_service_pb2.SettleResponse, current)
        )
        # The lines go straight into the answer: a Settlement built apart would be copied in.
        convert.put_settlement(answer.settlement, current.settlement, current.request.currency)
        return answer


class OracleServicer(oracle_service_pb2_grpc.OracleServiceServicer):
    """The oracle's own service: profiles and record verification."""

    def __init__(self, profiles: Profiles, gate: Gate | None = None) -> None:
        self.gate = gate or Gate()
        self._profiles = profiles

    @_guard
    async def ListProfiles(
        self,
        request: oracle_service_pb2.ListProfilesRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> oracle_service_pb2.ListProfilesResponse:
        """Every profile, in canonical order."""
        return oracle_service_pb2.ListProfilesResponse(
            profiles=[convert.profile(p) for p in self._profiles]
        )

    @_guard
    async def GetProfile(
        self,
        request: oracle_service_pb2.GetProfileRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> oracle_service_pb2.GetProfileResponse:
        """One profile with its parameters."""
        return oracle_service_pb2.GetProfileResponse(
            profile=convert.profile(self._profiles.get(request.profile_id))
        )

    @_guard
    async def VerifyRound(
        self,
        request: oracle_service_pb2.VerifyRoundRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> oracle_service_pb2.VerifyRoundResponse:
        """Replay one record and report its discrepancies."""
        record = request.record
        profile = self._profiles.get(record.profile_id)
        # Replay is CPU work: off the event loop, so health checks and other calls go on.
        result = await asyncio.to_thread(records.verify, profile, record)
        return oracle_service_pb2.VerifyRoundResponse(
            verdict=convert.verdict(result, record.currency_code)
        )

    @_guard
    async def VerifyRounds(
        self,
        request: oracle_service_pb2.VerifyRoundsRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> oracle_service_pb2.VerifyRoundsResponse:
        """Replay a bounded batch of records in order, carrying each table's board."""
        if len(request.records) > MAX_BATCH:
            raise BatchTooLargeError(
                f"a batch holds at most {MAX_BATCH} records, got {len(request.records)}",
                limit=MAX_BATCH,
                size=len(request.records),
            )
        # Replay is CPU work: off the event loop, so health checks and other calls go on.
        verdicts = await asyncio.to_thread(self._verify_batch, request.records)
        return oracle_service_pb2.VerifyRoundsResponse(verdicts=verdicts)

    def _verify_batch(
        self, batch: Sequence[round_pb2.RoundRecord]
    ) -> list[oracle_service_pb2.Verdict]:
        boards = Boards(max_tables=MAX_BATCH)
        verdicts = []
        for record in batch:
            try:
                profile = self._profiles.get(record.profile_id)
                result = records.verify(profile, record, boards.get(profile.id, record.table_id))
            except OracleError as exc:
                # One malformed record must not cost the batch its other verdicts.
                verdicts.append(convert.malformed_verdict(record.round_id, exc))
                continue
            if result.history is not None:
                boards.put(profile.id, result.history)
            verdicts.append(convert.verdict(result, record.currency_code))
        return verdicts


@dataclass(frozen=True, slots=True, kw_only=True)
class TlsFiles:
    """PEM files for TLS, and a client CA for mutual TLS."""

    cert: Path
    key: Path
    client_ca: Path | None = None

    def credentials(self) -> grpc.ServerCredentials:
        """Server credentials; with a client CA, clients must present a certificate it signed.

        ``ValueError`` names a file that does not hold what its option says (gRPC itself
        would only fail to bind).
        """
        return listen.server_credentials(self.cert, self.key, self.client_ca)


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerConfig:
    """How to serve: address, TLS, bounds."""

    host: str = "127.0.0.1"
    port: int = 50051
    tls: TlsFiles | None = None
    max_open_rounds: int = 10_000
    round_ttl_seconds: float = 900.0
    grace_seconds: float = 5.0
    profiles: tuple[str, ...] = ()


SERVICE_NAMES = (
    engine_service_pb2.DESCRIPTOR.services_by_name["EngineService"].full_name,
    oracle_service_pb2.DESCRIPTOR.services_by_name["OracleService"].full_name,
)


class OracleServer:
    """A running oracle server and its health service."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        profiles = Profiles.load(config.profiles)
        self.rounds = OpenRounds(
            profiles,
            max_open_rounds=config.max_open_rounds,
            ttl_seconds=config.round_ttl_seconds,
        )
        options = [
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
            *listen.SERVER_OPTIONS,
        ]
        self.server = grpc.aio.server(options=options)
        # Registered by hand, not by the generated add_*_to_server: a request that does not
        # decode must reach the method, which answers INVALID_ARGUMENT with an ErrorInfo.
        services = engine_service_pb2.DESCRIPTOR.services_by_name
        self.gate = Gate()
        engine = EngineServicer(self.rounds, gate=self.gate)
        listen.add_service(self.server, services["EngineService"], engine)
        listen.add_service(
            self.server,
            oracle_service_pb2.DESCRIPTOR.services_by_name["OracleService"],
            OracleServicer(profiles, gate=self.gate),
        )
        # grpc-stubs does not know the asyncio health servicer.
        self.health = health.aio.HealthServicer()  # type: ignore[attr-defined]
        # Health and reflection behind the same guard as the services: bytes that do not
        # decode are MALFORMED_REQUEST, never UNKNOWN or INTERNAL.
        listen.add_health_and_reflection(
            self.server,
            self.health,
            # reflection.aio is the package's public asyncio servicer (in its __all__, behind
            # a Python version test that mypy does not evaluate).
            reflection.aio.ReflectionServicer(  # type: ignore[attr-defined]
                (*SERVICE_NAMES, *listen.AUXILIARY)
            ),
        )
        address = f"{config.host}:{config.port}"
        credentials = config.tls.credentials() if config.tls is not None else None
        try:
            if credentials is not None:
                self.port = self.server.add_secure_port(address, credentials)
            else:
                self.port = self.server.add_insecure_port(address)
        except RuntimeError:
            self.port = 0
        if self.port == 0:
            why = listen.why_not_bound(config.host, config.port)
            raise OSError(f"cannot listen on {address}: {why}")

    @property
    def address(self) -> str:
        """``host:port`` as bound (the real port when 0 was asked)."""
        return f"{self.config.host}:{self.port}"

    async def start(self) -> None:
        """Start serving; health says SERVING for the server and each service."""
        await self.server.start()
        for name in ("", *SERVICE_NAMES):
            await self.health.set(name, health_pb2.HealthCheckResponse.SERVING)

    async def stop(self) -> None:
        """Graceful shutdown: health NOT_SERVING, calls in flight finish within the grace.

        The calls already on their way are let in for a moment (gRPC would cancel those it has
        not handed to a method yet); then new calls are refused (SHUTTING_DOWN, UNAVAILABLE),
        the calls in flight finish, new ones are refused a moment more, and the server stops. What is still running when the grace
        ends is cancelled.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.grace_seconds
        await self.health.enter_graceful_shutdown()
        await asyncio.sleep(min(listen.ARRIVING_SECONDS, self.config.grace_seconds))
        self.gate.open = False
        await self.gate.drained(max(deadline - loop.time(), 0.0))
        # Calls still arriving get the refusal a moment longer: gRPC's own stop would cancel
        # them (CANCELLED) instead of saying why (UNAVAILABLE, SHUTTING_DOWN).
        await asyncio.sleep(min(listen.ARRIVING_SECONDS, max(deadline - loop.time(), 0.0)))
        await self.server.stop(max(deadline - loop.time(), 0.0))

    async def serve_until_signalled(self, ready: Callable[[str], None] | None = None) -> None:
        """Start, report the address, and stop gracefully on SIGTERM or SIGINT.

        The signal handlers are in place before the server starts: a signal that follows the
        ready line at once is a graceful stop, not a kill.
        """
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        await self.start()
        if ready is not None:
            ready(self.address)
        waiter = asyncio.ensure_future(self.server.wait_for_termination())
        stopper = asyncio.ensure_future(stop.wait())
        await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            await self.stop()
        for task in (waiter, stopper):
            task.cancel()
