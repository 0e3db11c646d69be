"""Small engines for the runner's tests: the oracle's EngineService, bent on purpose.

Run as a script (the runner's ``--launch`` protocol)::

    python tests/conformance/engines.py [--set PROFILE.PARAM=TOML] [--claim ID]...
        [--crash-on TEXT] [--hang-on TEXT] [--block-on TEXT] [--hang-seconds S]
        [--garbage-on TEXT] [--bad-details-on TEXT] [--mismatched-details-on TEXT]
        [--chatter BYTES] [--stop-listening-after N] [--pid-file PATH]
        [--exit-before-ready CODE] [--port PORT]

It prints ``CROUPIER_ENGINE host:port`` when ready, like ``croupier serve``.

- ``--set blackjack-c.blackjack_pays='"1:1"'`` serves a lab variant of a shipped profile
  under the shipped id, so the runner sends it the shipped vectors: a rule-breaking engine.
- ``--claim ID`` limits the profiles Describe claims (repeatable; default all shipped).
- ``--crash-on TEXT``: the process exits (``os._exit(1)``) on a Deal whose round id holds TEXT.
- ``--hang-on TEXT``: such a Deal answers only after ``--hang-seconds``; other calls go on.
- ``--block-on TEXT``: such a Deal blocks the whole engine for ``--hang-seconds`` (a hung
  process: nothing answers, Describe included).
- ``--garbage-on TEXT``: such a Deal answers bytes that are not a DealResponse.
- ``--bad-details-on TEXT``: such a Deal is refused with status details that do not decode.
- ``--mismatched-details-on TEXT``: such a Deal is refused INVALID_ARGUMENT with details that
  say NOT_FOUND.
- ``--chatter BYTES``: print a line of BYTES characters before the ready line, and another
  after every Deal (an engine that logs to stdout, and would block on a full pipe).
- ``--stop-listening-after N``: after N Deals, stop serving but stay alive.
- ``--pid-file PATH``: write the process id there, so a test can see it is gone.
- ``--exit-before-ready CODE``: exit with CODE before printing the ready line.
- ``--port PORT``: listen on this port (default 0: any free one), so a restart reuses it.

The script imports only the installed packages (not ``tests``), so it runs from any directory.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
from google.rpc import status_pb2

from croupier.oracle.profile import Profile, Profiles, load_profile_text, shipped_profiles
from croupier.oracle.service.server import EngineServicer
from croupier.oracle.service.table import OpenRounds
from croupier.v1 import engine_service_pb2

#: This file, for ``--launch`` commands.
SCRIPT = Path(__file__).resolve()

#: A DealResponse field 1 (state, a message) whose length runs past the end: not decodable.
GARBAGE = b"\x0a\xff\xff\xff\x0f\x01\x02"

_SERVICE = "croupier.v1.EngineService"
_DETAILS_KEY = "grpc-status-details-bin"


def command(*args: str) -> str:
    """The ``--launch`` command line of this engine with these arguments."""
    import shlex  # noqa: PLC0415 - only the tests need it

    return shlex.join([sys.executable, str(SCRIPT), *args])


def variant(profile_id: str, overrides: dict[str, str]) -> Profile:
    """A lab variant of a shipped profile that keeps the shipped id.

    ``overrides`` maps parameter names to TOML values (``'"1:1"'``, ``"true"``, ``"12"``).
    """
    lines = [f'id = "{profile_id}"', f'extends = "{profile_id}"', "", "[parameters]"]
    lines += [f"{name} = {{ value = {value} }}" for name, value in overrides.items()]
    return load_profile_text("\n".join(lines) + "\n", origin=f"<variant of {profile_id}>")


def _parse_sets(sets: list[str]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for item in sets:
        key, _, value = item.partition("=")
        profile_id, _, name = key.partition(".")
        if not value or not name:
            raise SystemExit(f"--set wants PROFILE.PARAM=TOML, got {item!r}")
        out.setdefault(profile_id, {})[name] = value
    return out


def _serialize(response: Any) -> bytes:
    if isinstance(response, bytes):
        return response
    data: bytes = response.SerializeToString()
    return data


def _handlers(
    servicer: EngineServicer, args: argparse.Namespace, stop_serving: asyncio.Event
) -> dict[str, grpc.RpcMethodHandler]:  # type: ignore[type-arg] # grpc's handler is untyped
    def hit(request: Any, text: str | None) -> bool:
        return bool(text) and text in getattr(request, "round_id", "")

    deals = [0]

    async def deal(request: engine_service_pb2.DealRequest, context: Any) -> Any:
        deals[0] += 1
        if args.stop_listening_after and deals[0] > args.stop_listening_after:
            stop_serving.set()
        if args.chatter:
            print("x" * args.chatter, flush=True)  # noqa: T201 - a chatty engine on purpose
        if hit(request, args.bad_details_on):
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                "details that do not decode",
                ((_DETAILS_KEY, b"\xff\xfe not a google.rpc.Status"),),
            )
        if hit(request, args.mismatched_details_on):
            status = status_pb2.Status(code=grpc.StatusCode.NOT_FOUND.value[0], message="no")
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                "details that say another code",
                ((_DETAILS_KEY, status.SerializeToString()),),
            )
        if hit(request, args.crash_on):
            os._exit(1)
        if hit(request, args.hang_on):
            await asyncio.sleep(args.hang_seconds)
        if hit(request, args.block_on):
            time.sleep(args.hang_seconds)  # blocking the whole loop is the point
        if hit(request, args.garbage_on):
            return GARBAGE
        return await servicer.Deal(request, context)

    methods: dict[str, tuple[Callable[..., Any], type[Any]]] = {
        "Describe": (servicer.Describe, engine_service_pb2.DescribeRequest),
        "Deal": (deal, engine_service_pb2.DealRequest),
        "Decide": (servicer.Decide, engine_service_pb2.DecideRequest),
        "Settle": (servicer.Settle, engine_service_pb2.SettleRequest),
    }
    return {
        name: grpc.unary_unary_rpc_method_handler(
            behaviour, request_deserializer=request.FromString, response_serializer=_serialize
        )
        for name, (behaviour, request) in methods.items()
    }


async def serve(args: argparse.Namespace) -> None:
    """Serve until killed; print the ready line once listening."""
    profiles = list(shipped_profiles())
    for profile_id, overrides in _parse_sets(args.set).items():
        profiles = [variant(profile_id, overrides) if p.id == profile_id else p for p in profiles]
    known = Profiles(by_id={p.id: p for p in profiles})
    claimed = tuple(p.id for p in profiles if not args.claim or p.id in args.claim)
    servicer = EngineServicer(OpenRounds(known), claimed)
    server = grpc.aio.server()
    stop_serving = asyncio.Event()
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(_SERVICE, _handlers(servicer, args, stop_serving)),)
    )
    port = server.add_insecure_port(f"127.0.0.1:{args.port}")
    await server.start()
    if args.pid_file:
        Path(args.pid_file).write_text(str(os.getpid()), encoding="utf-8")
    if args.chatter:
        print("y" * args.chatter, flush=True)  # noqa: T201 - before the ready line, no newline early
    print(f"CROUPIER_ENGINE 127.0.0.1:{port}", flush=True)  # noqa: T201 - the launch protocol
    await stop_serving.wait()
    # Nothing listens any more, yet the process lives on: not a crash a restart would cure.
    await server.stop(None)
    await asyncio.Event().wait()


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and serve."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", default=[], metavar="PROFILE.PARAM=TOML")
    parser.add_argument("--claim", action="append", default=[], metavar="ID")
    parser.add_argument("--crash-on", metavar="TEXT")
    parser.add_argument("--hang-on", metavar="TEXT")
    parser.add_argument("--block-on", metavar="TEXT")
    parser.add_argument("--hang-seconds", type=float, default=30.0)
    parser.add_argument("--garbage-on", metavar="TEXT")
    parser.add_argument("--bad-details-on", metavar="TEXT")
    parser.add_argument("--mismatched-details-on", metavar="TEXT")
    parser.add_argument("--chatter", type=int, default=0, metavar="BYTES")
    parser.add_argument("--stop-listening-after", type=int, default=0, metavar="N")
    parser.add_argument("--pid-file", metavar="PATH")
    parser.add_argument("--exit-before-ready", type=int, metavar="CODE")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    if args.exit_before_ready is not None:
        print("starting, then giving up", flush=True)  # noqa: T201 - not the ready line
        sys.exit(args.exit_before_ready)
    asyncio.run(serve(args))


if __name__ == "__main__":
    main()
