"""A typed Python client for Croupier's EngineService and OracleService.

Every call has a deadline. A refused call raises ``CroupierError`` carrying the
stable ``reason`` of its ``google.rpc.ErrorInfo`` and its metadata, so callers
branch on reasons, never on message text.

    with CroupierClient.connect("127.0.0.1:50051") as client:
        print(client.describe().profile_ids)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import grpc

from croupier.clients.status import MalformedStatusError, error_info
from croupier.v1 import (
    engine_service_pb2,
    engine_service_pb2_grpc,
    oracle_service_pb2,
    oracle_service_pb2_grpc,
    round_pb2,
)


class CroupierError(Exception):
    """A call the server refused: its status code, its stable reason and the reason's metadata."""

    def __init__(
        self, code: grpc.StatusCode, reason: str, message: str, metadata: Mapping[str, str]
    ) -> None:
        super().__init__(f"{reason or code.name}: {message}")
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata = dict(metadata)


class DeadlineExceededError(CroupierError):
    """The server did not answer within the call's deadline."""


class UnavailableError(CroupierError):
    """The server cannot be reached."""


def _translate(error: grpc.RpcError) -> CroupierError:
    code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
    details = error.details() if hasattr(error, "details") else str(error)
    try:
        info = error_info(error)
    except MalformedStatusError as exc:
        info, details = None, f"{details} (status details malformed: {exc})"
    reason = str(info.reason) if info is not None else ""
    metadata = dict(info.metadata) if info is not None else {}
    kind = {
        grpc.StatusCode.DEADLINE_EXCEEDED: DeadlineExceededError,
        grpc.StatusCode.UNAVAILABLE: UnavailableError,
    }.get(code, CroupierError)
    return kind(code, reason, details or "", metadata)


@dataclass(frozen=True, slots=True, kw_only=True)
class Tls:
    """TLS for the channel: the server's CA, and a client certificate and key for mutual TLS."""

    ca: Path | None = None
    cert: Path | None = None
    key: Path | None = None

    def credentials(self) -> grpc.ChannelCredentials:
        """Channel credentials read from the PEM files."""
        return grpc.ssl_channel_credentials(
            root_certificates=self.ca.read_bytes() if self.ca else None,
            private_key=self.key.read_bytes() if self.key else None,
            certificate_chain=self.cert.read_bytes() if self.cert else None,
        )


class CroupierClient:
    """Both services over one channel; use as a context manager to close it."""

    def __init__(self, channel: grpc.Channel, *, timeout: float = 10.0) -> None:
        self._channel = channel
        self.timeout = timeout
        self.engine = engine_service_pb2_grpc.EngineServiceStub(channel)
        self.oracle = oracle_service_pb2_grpc.OracleServiceStub(channel)

    @classmethod
    def connect(
        cls, address: str, *, tls: Tls | None = None, timeout: float = 10.0
    ) -> CroupierClient:
        """Open a channel to ``host:port``, in plain text or with TLS."""
        if tls is not None:
            channel = grpc.secure_channel(address, tls.credentials())
        else:
            channel = grpc.insecure_channel(address)
        return cls(channel, timeout=timeout)

    def close(self) -> None:
        """Close the channel."""
        self._channel.close()

    def __enter__(self) -> CroupierClient:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def _call(self, method: Any, request: Any, timeout: float | None) -> Any:
        try:
            return method(request, timeout=self.timeout if timeout is None else timeout)
        except grpc.RpcError as error:
            raise _translate(error) from None

    # --- EngineService ---

    def describe(self, *, timeout: float | None = None) -> engine_service_pb2.DescribeResponse:
        """The engine's name, version and claimed profiles."""
        return self._call(self.engine.Describe, engine_service_pb2.DescribeRequest(), timeout)  # type: ignore[no-any-return]

    def deal(
        self, request: engine_service_pb2.DealRequest, *, timeout: float | None = None
    ) -> round_pb2.RoundState:
        """Start a round; returns its state."""
        response: engine_service_pb2.DealResponse = self._call(self.engine.Deal, request, timeout)
        return response.state

    def decide(
        self,
        round_id: str,
        kind: round_pb2.DecisionKind.ValueType,
        *,
        seat: int = 0,
        hand: int = 0,
        timeout: float | None = None,
    ) -> round_pb2.RoundState:
        """Send one decision for the hand whose turn it is; returns the new state."""
        request = engine_service_pb2.DecideRequest(
            round_id=round_id, decision=round_pb2.Decision(seat=seat, hand=hand, kind=kind)
        )
        response: engine_service_pb2.DecideResponse = self._call(
            self.engine.Decide, request, timeout
        )
        return response.state

    def settle(
        self, round_id: str, *, timeout: float | None = None
    ) -> engine_service_pb2.SettleResponse:
        """Settle and close a complete round."""
        request = engine_service_pb2.SettleRequest(round_id=round_id)
        return self._call(self.engine.Settle, request, timeout)  # type: ignore[no-any-return]

    # --- OracleService ---

    def list_profiles(self, *, timeout: float | None = None) -> list[oracle_service_pb2.Profile]:
        """Every profile the oracle knows."""
        response: oracle_service_pb2.ListProfilesResponse = self._call(
            self.oracle.ListProfiles, oracle_service_pb2.ListProfilesRequest(), timeout
        )
        return list(response.profiles)

    def get_profile(
        self, profile_id: str, *, timeout: float | None = None
    ) -> oracle_service_pb2.Profile:
        """One profile with its parameters."""
        response: oracle_service_pb2.GetProfileResponse = self._call(
            self.oracle.GetProfile,
            oracle_service_pb2.GetProfileRequest(profile_id=profile_id),
            timeout,
        )
        return response.profile

    def verify_round(
        self, record: round_pb2.RoundRecord, *, timeout: float | None = None
    ) -> oracle_service_pb2.Verdict:
        """The oracle's verdict on one round record."""
        response: oracle_service_pb2.VerifyRoundResponse = self._call(
            self.oracle.VerifyRound, oracle_service_pb2.VerifyRoundRequest(record=record), timeout
        )
        return response.verdict

    def verify_rounds(
        self,
        records: Sequence[round_pb2.RoundRecord],
        *,
        batch: int = 1000,
        timeout: float | None = None,
    ) -> Iterator[oracle_service_pb2.Verdict]:
        """Verdicts on many records, sent in batches the server accepts, in order."""
        for start in range(0, len(records), batch):
            chunk = records[start : start + batch]
            response: oracle_service_pb2.VerifyRoundsResponse = self._call(
                self.oracle.VerifyRounds,
                oracle_service_pb2.VerifyRoundsRequest(records=chunk),
                timeout,
            )
            yield from response.verdicts


@contextmanager
def connect(
    address: str, *, tls: Tls | None = None, timeout: float = 10.0
) -> Iterator[CroupierClient]:
    """A client that closes its channel when the ``with`` block ends."""
    client = CroupierClient.connect(address, tls=tls, timeout=timeout)
    try:
        yield client
    finally:
        client.close()
