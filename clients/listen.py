"""What every Croupier server does to listen: one port per server, TLS files checked first.

Shared by the oracle's server and the adapter kit.
"""

from __future__ import annotations

import re
import socket
from pathlib import Path

import grpc

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
    ca_pem = client_ca.read_bytes() if client_ca is not None else None
    if ca_pem is not None and client_ca is not None:
        _expect_pem(ca_pem, b"CERTIFICATE", "--tls-client-ca", client_ca)
    return grpc.ssl_server_credentials(
        [(key_pem, cert_pem)], root_certificates=ca_pem, require_client_auth=ca_pem is not None
    )
