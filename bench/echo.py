"""The runner's ceiling: a bare ``grpc.aio`` echo server and client, each in its own process.

``python -m bench.echo serve`` prints ``ECHO host:port`` and answers every unary call with
its own request bytes (no protobuf, no handler work). ``python -m bench.echo client ADDRESS
PAYLOADS --concurrency N`` sends every payload of the file (length-prefixed, in order) as one
call, N calls in flight on one channel like the runner's N vectors, and prints the calls and
the seconds they took.
"""

from __future__ import annotations

import argparse
import asyncio
import struct
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import grpc

METHOD = "/croupier.bench.Echo/Call"
_LENGTH = struct.Struct(">I")


def write_payloads(path: Path, payloads: Sequence[bytes]) -> None:
    """Payloads one after another, each after its 4-byte big-endian length."""
    with path.open("wb") as out:
        for payload in payloads:
            out.write(_LENGTH.pack(len(payload)) + payload)


def read_payloads(path: Path) -> list[bytes]:
    """What ``write_payloads`` wrote."""
    data = path.read_bytes()
    payloads, offset = [], 0
    while offset < len(data):
        (size,) = _LENGTH.unpack_from(data, offset)
        offset += _LENGTH.size
        payloads.append(data[offset : offset + size])
        offset += size
    return payloads


async def _echo(request: bytes, _context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
    return request


async def serve() -> None:
    """Answer echoes on a free loopback port until killed."""
    server = grpc.aio.server()
    handler = grpc.method_handlers_generic_handler(
        "croupier.bench.Echo", {"Call": grpc.unary_unary_rpc_method_handler(_echo)}
    )
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(f"ECHO 127.0.0.1:{port}", flush=True)
    await server.wait_for_termination()


async def client(address: str, payloads: list[bytes], concurrency: int) -> float:
    """Seconds for every payload's call, ``concurrency`` callers sharing one channel."""
    async with grpc.aio.insecure_channel(address) as channel:
        # No serializers: bytes go out and come back as they are.
        call = channel.unary_unary(METHOD, request_serializer=None, response_deserializer=None)
        await call(b"", timeout=10)  # connected before the clock starts
        queue: Iterator[bytes] = iter(payloads)

        async def caller() -> None:
            for payload in queue:
                answer = await call(payload, timeout=10)
                assert answer == payload

        started = time.perf_counter()
        await asyncio.gather(*(caller() for _ in range(concurrency)))
        return time.perf_counter() - started


def main() -> None:
    """``serve``, or ``client ADDRESS PAYLOADS --concurrency N``."""
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("serve")
    calling = commands.add_parser("client")
    calling.add_argument("address")
    calling.add_argument("payloads", type=Path)
    calling.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    if args.command == "serve":
        asyncio.run(serve())
        return
    payloads = read_payloads(args.payloads)
    seconds = asyncio.run(client(args.address, payloads, args.concurrency))
    print(len(payloads), seconds)


if __name__ == "__main__":
    main()
