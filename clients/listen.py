"""What every Croupier server does to listen and decode.

One port per server, TLS files checked first, a request that does not decode answered by the
method itself (MALFORMED_REQUEST).

Shared by the oracle's server and the adapter kit.
"""

from __future__ import annotations

import inspect
import re
import signal
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import grpc.aio
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message import DecodeError, Message
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2
from grpc_reflection.v1alpha import reflection_pb2

from croupier.clients.status import error_status

#: gRPC shares a port with another server by default (SO_REUSEPORT): a second server on a busy
#: port would take half of its connections, and the rounds dealt on them.
SERVER_OPTIONS: tuple[tuple[str, int], ...] = (("grpc.so_reuseport", 0),)


def _pem_labels(data: bytes) -> list[bytes]:
    return re.findall(rb"-----BEGIN ([A-Z0-9 ]+)-----", data)


def _expect_pem(
    data: bytes, label: bytes, option: str, path: Path, swapped_with: str | None = None
) -> None:
    """``data`` holds a PEM block whose label ends with ``label``, or a ``ValueError`` says why."""
    labels = _pem_labels(data)
    if any(found.endswith(label) for found in labels):
        return
    if not labels:
        raise ValueError(f"{option} {path} is not a PEM file")
    held = labels[0].decode().lower()
    hint = f": are {option} and {swapped_with} swapped?" if swapped_with else ""
    raise ValueError(f"{option} {path} holds a {held}, not a {label.decode().lower()}{hint}")


def _expect_pair(cert_pem: bytes, key_pem: bytes, cert: Path, key: Path) -> None:
    """``ValueError`` unless the key is the certificate's: gRPC would only fail to bind."""
    try:
        certificate = x509.load_pem_x509_certificate(cert_pem)
    except ValueError as exc:
        raise ValueError(f"--tls-cert {cert} is not a readable certificate: {exc}") from None
    try:
        private = serialization.load_pem_private_key(key_pem, password=None)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"--tls-key {key} is not a readable private key: {exc}") from None
    raw = (serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    if certificate.public_key().public_bytes(*raw) != private.public_key().public_bytes(*raw):
        raise ValueError(
            f"--tls-key {key} is not the private key of the certificate in --tls-cert {cert}: "
            "give the key the certificate was issued for"
        )


def why_not_bound(host: str, port: int) -> str:
    """Why a server cannot listen on ``host:port``, as the system says it ("Address in use")."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        return f"cannot resolve {host!r}: {exc.strerror or exc}"
    for family, kind, proto, _name, address in infos:
        try:
            with socket.socket(family, kind, proto) as probe:
                probe.bind(address)
        except OSError as exc:
            return (exc.strerror or str(exc)).lower()
    return "the address cannot be bound"


def server_credentials(
    cert: Path, key: Path, client_ca: Path | None = None
) -> grpc.ServerCredentials:
    """TLS server credentials; with ``client_ca``, clients must present a certificate it signed.

    ``ValueError`` names a file that does not hold what its option says (``--tls-cert`` given a
    key...): gRPC itself would only fail to bind.
    """
    cert_pem, key_pem = cert.read_bytes(), key.read_bytes()
    _expect_pem(cert_pem, b"CERTIFICATE", "--tls-cert", cert, swapped_with="--tls-key")
    _expect_pem(key_pem, b"PRIVATE KEY", "--tls-key", key, swapped_with="--tls-cert")
    _expect_pair(cert_pem, key_pem, cert, key)
    ca_pem = client_ca.read_bytes() if client_ca is not None else None
    if ca_pem is not None and client_ca is not None:
        _expect_pem(ca_pem, b"CERTIFICATE", "--tls-client-ca", client_ca)
    return grpc.ssl_server_credentials(
        [(key_pem, cert_pem)], root_certificates=ca_pem, require_client_auth=ca_pem is not None
    )


@dataclass(frozen=True, slots=True)
class MalformedRequest:
    """What a method receives in place of a request whose bytes do not decode."""

    method: str
    error: str

    def status(self) -> grpc.Status:
        """INVALID_ARGUMENT with reason MALFORMED_REQUEST: the bytes are not the message."""
        return error_status(
            "MALFORMED_REQUEST",
            f"{self.method}: the request does not decode as its message: {self.error}",
            {"method": self.method},
        )


def _lenient(message: type[Message], method: str) -> Callable[[bytes], object]:
    def decode(data: bytes) -> object:
        try:
            return message.FromString(data)
        except DecodeError as exc:  # corrupt wire format, a string that is not UTF-8...
            return MalformedRequest(method=method, error=str(exc) or "not a valid message")

    return decode


_HANDLERS = {
    (False, False): grpc.unary_unary_rpc_method_handler,
    (False, True): grpc.unary_stream_rpc_method_handler,
    (True, False): grpc.stream_unary_rpc_method_handler,
    (True, True): grpc.stream_stream_rpc_method_handler,
}


def add_service(
    server: grpc.Server | grpc.aio.Server,
    service: ServiceDescriptor,
    servicer: object,
    *,
    guard: bool = False,
    full_name: str | None = None,
) -> None:
    """Serve ``servicer``'s methods of ``service``; undecodable bytes reach them as ``MalformedRequest``.

    ``full_name`` serves them under another service name, with the same messages.

    gRPC's generated registration decodes before the servicer runs and answers a request it
    cannot decode with UNKNOWN or INTERNAL and no ErrorInfo; here the method itself answers.
    With ``guard`` (a servicer that is not ours: health, reflection), the guard answers
    INVALID_ARGUMENT, MALFORMED_REQUEST for it, in every kind of call, streams included, and
    the servicer never sees the bytes.
    """
    aio = isinstance(server, grpc.aio.Server)
    handlers = {}
    for method in service.methods:
        request = message_factory.GetMessageClass(method.input_type)
        response = message_factory.GetMessageClass(method.output_type)
        kind = (method.client_streaming, method.server_streaming)
        behaviour = getattr(servicer, method.name)
        if guard:
            behaviour = (_guarded_aio if aio else _guarded)(behaviour, streaming=kind[0])
        handlers[method.name] = _HANDLERS[kind](
            behaviour,
            request_deserializer=_lenient(request, method.full_name),
            response_serializer=response.SerializeToString,
        )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(full_name or service.full_name, handlers),)
    )


#: grpcio-reflection serves ``grpc.reflection.v1alpha`` only; ``v1`` has the same messages
#: (field for field, so the same bytes), under another package.
REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"

#: The services every server serves beside its own: health checking and reflection (both).
AUXILIARY = (
    health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
    reflection_pb2.DESCRIPTOR.services_by_name["ServerReflection"].full_name,
    REFLECTION_V1,
)

#: Reflection answers from the default descriptor pool: ``google/rpc/error_details.proto`` is
#: in it (this import), so a client can resolve an error's ``google.rpc.ErrorInfo`` there.
ERROR_DETAILS_FILE = error_details_pb2.DESCRIPTOR.name


def _reflection_v1_file() -> None:
    """Put ``grpc/reflection/v1/reflection.proto`` in the default pool, for reflection on it.

    It is v1alpha's file with the package renamed: the same messages, the same service.
    """
    pool = descriptor_pool.Default()
    name = "grpc/reflection/v1/reflection.proto"
    try:
        pool.FindFileByName(name)
    except KeyError:
        pass
    else:
        return  # a grpcio-reflection that ships v1 put it there already
    proto = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(proto)
    proto.name = name
    proto.package = "grpc.reflection.v1"
    proto.ClearField("options")
    old, new = ".grpc.reflection.v1alpha.", ".grpc.reflection.v1."
    for message in proto.message_type:
        for field in message.field:
            if field.HasField("type_name"):
                field.type_name = field.type_name.replace(old, new)
    for method in proto.service[0].method:
        method.input_type = method.input_type.replace(old, new)
        method.output_type = method.output_type.replace(old, new)
    pool.AddSerializedFile(proto.SerializeToString())


def add_health_and_reflection(
    server: grpc.Server | grpc.aio.Server, health: object, reflection: object
) -> None:
    """Serve health checking and reflection behind the guard (``add_service(guard=True)``).

    Reflection is served as ``grpc.reflection.v1`` and as ``v1alpha``, by the same servicer.
    """
    add_service(server, health_pb2.DESCRIPTOR.services_by_name["Health"], health, guard=True)
    service = reflection_pb2.DESCRIPTOR.services_by_name["ServerReflection"]
    add_service(server, service, reflection, guard=True)
    _reflection_v1_file()
    add_service(server, service, reflection, guard=True, full_name=REFLECTION_V1)


def _guarded(behaviour: Callable[..., Any], *, streaming: bool) -> Callable[..., Any]:
    """A threaded server's method that answers a ``MalformedRequest`` before ``behaviour``."""

    def checked(requests: Iterator[object], context: grpc.ServicerContext) -> Iterator[object]:
        for request in requests:
            if isinstance(request, MalformedRequest):
                context.abort_with_status(request.status())
            yield request

    def guarded(request: Any, context: grpc.ServicerContext) -> Any:
        if streaming:
            return behaviour(checked(request, context), context)
        if isinstance(request, MalformedRequest):
            context.abort_with_status(request.status())
        return behaviour(request, context)

    return guarded


def _guarded_aio(behaviour: Callable[..., Any], *, streaming: bool) -> Callable[..., Any]:
    """An asyncio server's method that answers a ``MalformedRequest`` before ``behaviour``."""

    async def abort(context: grpc.aio.ServicerContext[Any, Any], request: object) -> None:
        if isinstance(request, MalformedRequest):
            status = request.status()
            await context.abort(status.code, status.details, status.trailing_metadata)

    async def checked(
        requests: AsyncIterator[object], context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[object]:
        async for request in requests:
            await abort(context, request)
            yield request

    async def arguments(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        if streaming:
            return checked(request, context)
        await abort(context, request)
        return request

    if inspect.isasyncgenfunction(behaviour):

        async def streamed(
            request: Any, context: grpc.aio.ServicerContext[Any, Any]
        ) -> AsyncIterator[Any]:
            async for item in behaviour(await arguments(request, context), context):
                yield item

        return streamed

    async def answered(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        return await behaviour(await arguments(request, context), context)

    return answered


#: How long a stopping server still lets in the calls already on their way to it: gRPC's own
#: graceful stop cancels those it has not handed to a method yet.
ARRIVING_SECONDS = 0.25


def shutting_down() -> grpc.Status:
    """UNAVAILABLE, reason SHUTTING_DOWN: the server is stopping; try another."""
    return error_status("SHUTTING_DOWN", "the server is shutting down", {})


class StopSignals:
    """The stop signals (SIGTERM, SIGINT) a threaded server's main thread waits for.

    The handler only appends the signal's number: Python runs a handler between two steps of
    the main thread, which may hold a lock just then (a ``threading.Event``'s, inside its
    wait), and a handler that took such a lock would wait on itself for ever.
    """

    def __init__(self, poll: float) -> None:
        self.received: list[int] = []
        self._poll = poll

    def handle(self, signum: int, frame: object) -> None:
        """The signal handler: note ``signum``, take no lock, call nothing that may."""
        del frame
        self.received.append(signum)

    def install(self) -> None:
        """Handle SIGTERM and SIGINT (from the main thread)."""
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, self.handle)

    def wait(self) -> int:
        """Sleep until a stop signal came; its number.

        A signal may be delivered to any of grpc's threads, and Python runs its handler only
        when the main thread next runs: an untimed wait would never wake, so the wait wakes
        every ``poll`` seconds.
        """
        while not self.received:
            time.sleep(self._poll)
        return self.received[0]


class ThreadGate:
    """The calls in flight of a threaded server, and whether new ones still come in.

    The threaded twin of the oracle server's ``Gate``: close it, wait until ``drained``, then
    stop the server, and no call that reached the server is lost.
    """

    def __init__(self) -> None:
        self.open = True
        self.in_flight = 0
        self._changed = threading.Condition()

    def enter(self) -> bool:
        """A call starts; False (and nothing counted) once the gate is closed."""
        with self._changed:
            if not self.open:
                return False
            self.in_flight += 1
            return True

    def leave(self) -> None:
        """A call ends."""
        with self._changed:
            self.in_flight -= 1
            self._changed.notify_all()

    def close(self) -> None:
        """Let no new call in."""
        with self._changed:
            self.open = False

    def drained(self, timeout: float) -> bool:
        """Wait until no call is in flight, at most ``timeout`` seconds; True if none is."""
        with self._changed:
            return self._changed.wait_for(lambda: self.in_flight == 0, timeout)
