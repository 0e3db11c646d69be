"""``croupier serve``: the reference oracle as a gRPC server."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import click

from croupier.conformance.cli.common import (
    MAX_COUNT,
    MAX_SECONDS,
    Finite,
    InputFile,
    fail,
    resolver,
)
from croupier.oracle.service.server import OracleServer, ServerConfig, TlsFiles


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=50051,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port; 0 picks a free one.",
)
@click.option(
    "--tls-cert",
    type=InputFile(),
    help="Server certificate (PEM).",
)
@click.option(
    "--tls-key",
    type=InputFile(),
    help="Server private key (PEM).",
)
@click.option(
    "--tls-client-ca",
    type=InputFile(),
    help="CA that signs client certificates: turns on mutual TLS.",
)
@click.option(
    "--max-open-rounds",
    default=10_000,
    show_default=True,
    type=click.IntRange(1, MAX_COUNT),
    help="Open rounds held at once; more get RESOURCE_EXHAUSTED.",
)
@click.option(
    "--round-ttl",
    default=900.0,
    show_default=True,
    type=Finite(1, MAX_SECONDS),
    help="Seconds before an untouched round expires.",
)
@click.option(
    "--grace",
    default=5.0,
    show_default=True,
    type=Finite(0, MAX_SECONDS),
    help="Seconds in-flight calls get on shutdown.",
)
@click.option(
    "--profile",
    "profiles",
    multiple=True,
    metavar="FILE",
    help="A lab's profile file to serve too (repeatable).",
)
def serve(
    host: str,
    port: int,
    tls_cert: Path | None,
    tls_key: Path | None,
    tls_client_ca: Path | None,
    max_open_rounds: int,
    round_ttl: float,
    grace: float,
    profiles: tuple[str, ...],
) -> None:
    """Serve EngineService and OracleService over gRPC, with health and reflection.

    Prints "CROUPIER_ENGINE host:port" when ready; stops gracefully on SIGTERM or SIGINT.
    Exit codes: 0 stopped, 2 usage error (a TLS file that holds something else: a key given
    as the certificate...), 3 cannot listen (the address is in use: no two servers share a
    port).
    """
    if (tls_cert is None) != (tls_key is None):
        fail("--tls-cert and --tls-key go together")
    if tls_client_ca is not None and tls_cert is None:
        fail("--tls-client-ca needs --tls-cert and --tls-key")
    tls = None
    if tls_cert is not None and tls_key is not None:
        tls = TlsFiles(cert=tls_cert, key=tls_key, client_ca=tls_client_ca)
    # The one registry refuses a bad file, or a lab profile taking a shipped profile's id.
    resolver(profiles, "--profile")
    config = ServerConfig(
        host=host,
        port=port,
        tls=tls,
        max_open_rounds=max_open_rounds,
        round_ttl_seconds=round_ttl,
        grace_seconds=grace,
        profiles=profiles,
    )
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")

    def ready(address: str) -> None:
        print(f"CROUPIER_ENGINE {address}", flush=True)  # noqa: T201 - the launch protocol's line

    async def run() -> None:
        # grpc.aio binds its server to the running event loop: build it inside.
        try:
            server = OracleServer(config)
        except ValueError as exc:  # a TLS file that is not what its option says
            fail(str(exc))
        except (OSError, RuntimeError) as exc:
            fail(str(exc), code=3)
        await server.serve_until_signalled(ready)

    asyncio.run(run())
