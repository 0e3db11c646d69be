"""AIP-193 errors for Croupier's services: a canonical code plus one ``google.rpc.ErrorInfo``.

Shared by the oracle's server, the adapter kit and the client, so that every
Croupier server builds its errors, and every client reads them, the same way.
"""

from __future__ import annotations

from collections.abc import Mapping

import grpc
from google.protobuf import any_pb2
from google.protobuf.message import DecodeError
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

#: The ErrorInfo domain of every Croupier error.
ERROR_DOMAIN = "croupier.dev"

#: The canonical code of every stable reason (DESIGN.md "Errors").
CODES: Mapping[str, grpc.StatusCode] = {
    "UNKNOWN_PROFILE": grpc.StatusCode.NOT_FOUND,
    "INVALID_PROFILE": grpc.StatusCode.INVALID_ARGUMENT,
    "INVALID_CARD": grpc.StatusCode.INVALID_ARGUMENT,
    "SHOE_NOT_IN_PROFILE": grpc.StatusCode.INVALID_ARGUMENT,
    "SHOE_EXHAUSTED": grpc.StatusCode.FAILED_PRECONDITION,
    "ILLEGAL_DECISION": grpc.StatusCode.FAILED_PRECONDITION,
    "INSUFFICIENT_BALANCE": grpc.StatusCode.FAILED_PRECONDITION,
    "BET_OUT_OF_LIMITS": grpc.StatusCode.INVALID_ARGUMENT,
    "INVALID_BET_LAYOUT": grpc.StatusCode.INVALID_ARGUMENT,
    "BET_NOT_OFFERED": grpc.StatusCode.INVALID_ARGUMENT,
    "TOO_MANY_SEATS": grpc.StatusCode.INVALID_ARGUMENT,
    "INVALID_ROUND": grpc.StatusCode.INVALID_ARGUMENT,
    "ROUND_NOT_FOUND": grpc.StatusCode.NOT_FOUND,
    "ROUND_EXISTS": grpc.StatusCode.ALREADY_EXISTS,
    "ROUND_NOT_COMPLETE": grpc.StatusCode.FAILED_PRECONDITION,
    "TOO_MANY_OPEN_ROUNDS": grpc.StatusCode.RESOURCE_EXHAUSTED,
    "BATCH_TOO_LARGE": grpc.StatusCode.RESOURCE_EXHAUSTED,
    "MALFORMED_REQUEST": grpc.StatusCode.INVALID_ARGUMENT,
    "SHUTTING_DOWN": grpc.StatusCode.UNAVAILABLE,
    "INTERNAL": grpc.StatusCode.INTERNAL,
}


class StatusError(Exception):
    """A refusal with a stable reason (``ROUND_NOT_FOUND``...) and metadata saying what was wrong.

    Raised by what a server shares (the round book) and by a vendor's engine
    (``clients.adapter.EngineError``); a server turns it into ``status()``.
    """

    def __init__(self, reason: str, message: str, **metadata: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.metadata = {k: str(v) for k, v in metadata.items()}

    def status(self) -> grpc.Status:
        """The AIP-193 status of this refusal."""
        return error_status(self.reason, self.message, self.metadata)


#: The ErrorInfo metadata keys each reason must carry (engine_service.proto, EngineService).
REQUIRED_METADATA: Mapping[str, tuple[str, ...]] = {
    "UNKNOWN_PROFILE": ("profile",),
    "INVALID_CARD": ("card",),
    "SHOE_NOT_IN_PROFILE": ("card",),
    "SHOE_EXHAUSTED": ("needed",),
    "ILLEGAL_DECISION": ("legal",),
    "ROUND_NOT_COMPLETE": ("legal",),
    "INSUFFICIENT_BALANCE": ("seat",),
    "BET_OUT_OF_LIMITS": ("seat",),
    "ROUND_NOT_FOUND": ("round_id",),
    "ROUND_EXISTS": ("round_id",),
    "TOO_MANY_OPEN_ROUNDS": ("limit",),
    "BET_NOT_OFFERED": ("seat", "kind"),
    "TOO_MANY_SEATS": ("limit",),
}

#: The required keys whose value the contract fixes (engine_service.proto): every one but
#: TOO_MANY_OPEN_ROUNDS' "limit", the engine's own bound. Certification compares their values.
FIXED_METADATA: Mapping[str, tuple[str, ...]] = {
    reason: keys for reason, keys in REQUIRED_METADATA.items() if reason != "TOO_MANY_OPEN_ROUNDS"
}


#: The longest message an error carries, and the longest metadata value: an error echoes what
#: was wrong (a round id, a card), and a client drops a reply whose trailers pass its limit
#: (8 KiB for all of them by default), so a 9 kB round id must come back cut short.
MAX_MESSAGE_CHARS = 1024
MAX_METADATA_CHARS = 256


def cut(text: str, limit: int) -> str:
    """``text`` whole if it fits in ``limit`` characters, else its start, an ellipsis and its length."""
    if len(text) <= limit:
        return text
    tail = f"... ({len(text)} characters)"
    return text[: max(limit - len(tail), 0)] + tail


def status_code(reason: str) -> grpc.StatusCode:
    """The canonical code for a reason; an unknown reason is a bad argument."""
    return CODES.get(reason, grpc.StatusCode.INVALID_ARGUMENT)


def error_status(
    reason: str,
    message: str,
    metadata: Mapping[str, str],
    code: grpc.StatusCode | None = None,
) -> grpc.Status:
    """A gRPC status carrying one ErrorInfo with this reason and metadata.

    ``code`` is the reason's canonical code unless given (a test engine may send another). The
    message and each metadata value are cut short past ``MAX_MESSAGE_CHARS`` and
    ``MAX_METADATA_CHARS``.
    """
    code = code or status_code(reason)
    message = cut(message, MAX_MESSAGE_CHARS)
    echoed = {key: cut(value, MAX_METADATA_CHARS) for key, value in metadata.items()}
    info = error_details_pb2.ErrorInfo(reason=reason, domain=ERROR_DOMAIN, metadata=echoed)
    detail = any_pb2.Any()
    detail.Pack(info)
    proto = status_pb2.Status(code=getattr(code_pb2, code.name), message=message, details=[detail])
    return rpc_status.to_status(proto)


class MalformedStatusError(ValueError):
    """A failed call's status details do not decode, or disagree with its code or message."""


def error_info(error: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    """The ErrorInfo a failed call carries, if any; ``MalformedStatusError`` on bad details."""
    try:
        status = rpc_status.from_call(error)  # type: ignore[arg-type] # a failed call is a grpc.Call
    except (ValueError, DecodeError) as exc:
        # grpc_status raises DecodeError for bytes that are no Status, ValueError for a Status
        # that contradicts the call: one error for both, whatever the engine sent.
        raise MalformedStatusError(str(exc)) from None
    if status is None:
        return None
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Is(info.DESCRIPTOR):
            detail.Unpack(info)
            return info
    return None
