"""make soak: rounds in flight against ``croupier serve`` for minutes, then SIGTERM under load.

``python -m bench.soak [--minutes N] [--concurrency 256]``. Each worker plays complete rounds of
every shipped profile (Deal, Decide..., Settle; the campaign generator's rounds, each under a
fresh id) and checks every call and settlement. Prints rounds/s, call latency, the health
check's p99 under load, the server's RSS after warm-up and at the end, and what became of the
calls in flight when the server was told to stop; exits 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TypeVar

import grpc
import grpc.aio
from grpc_health.v1 import health_pb2, health_pb2_grpc

from croupier.clients.status import MalformedStatusError, error_info
from croupier.conformance.vectors import campaign
from croupier.oracle.profile import shipped_profiles
from croupier.v1 import common_pb2, engine_service_pb2, engine_service_pb2_grpc, round_pb2

ROOT = Path(__file__).resolve().parents[1]

#: The goals (issue 14): a health check answered within this under load...
HEALTH_P99_GOAL_MS = 50.0
#: ...and the server's memory "flat": its RSS at the end at most this much above its RSS after
#: warm-up, or ``RSS_GROWTH_SHARE`` of it if that is more. The server remembers the last 100,000
#: round ids it dealt (``clients.book``, ids are never reused): that bounded book fills over the
#: first minutes and is worth about 15 MiB, which a real leak at a thousand rounds a second
#: passes within minutes.
RSS_GROWTH_MIB = 20.0
RSS_GROWTH_SHARE = 0.10
#: How many times the server's RSS is read after the warm-up (the last is the end figure).
RSS_SAMPLES = 10
#: How often the health check is sampled, on its own channel, from its own process.
HEALTH_EVERY_SECONDS = 0.1
#: A deadline for every call: a hung server shows as errors, never as a hung soak.
CALL_TIMEOUT_SECONDS = 30.0
#: Workers per client channel (each channel is its own connection).
WORKERS_PER_CHANNEL = 64


@dataclass(frozen=True, slots=True)
class Play:
    """One complete round of a campaign: its deal, its decisions, the settlement it must get."""

    deal: engine_service_pb2.DealRequest
    decisions: tuple[round_pb2.Decision, ...]
    settlement: common_pb2.Settlement


def campaign_plays(rounds_per_profile: int) -> list[Play]:
    """Rounds of every shipped profile, interleaved so that each worker meets every game."""
    by_profile = [
        [
            Play(vr.deal, tuple(s.decision for s in vr.steps), vr.expected_settle.settlement)
            for vector in campaign(profile, "soak", rounds_per_profile, "soak")
            for vr in vector.rounds
            # A campaign's rounds all settle; a round meant to be refused is no load.
            if not vr.expected_error and vr.HasField("expected_settle")
        ]
        for profile in shipped_profiles()
    ]
    return [play for group in zip(*by_profile, strict=False) for play in group]


@dataclass
class Tally:
    """What the workers saw, call by call; one event loop writes it, so no lock."""

    latencies: array[float] = field(default_factory=lambda: array("d"))
    rounds: int = 0
    calls: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    first_errors: list[str] = field(default_factory=list)
    in_flight: int = 0
    #: When the server was sent SIGTERM (loop time); None while the soak runs.
    signalled_at: float | None = None
    in_flight_at_signal: int = 0
    #: Calls sent before the signal: finished once it was sent, or not finished OK (lost).
    finished_after_signal: int = 0
    lost: int = 0
    #: Calls sent after the signal: refused (UNAVAILABLE, SHUTTING_DOWN) or the server gone.
    refused: int = 0
    cancelled: int = 0
    unreachable: int = 0
    #: Calls sent after the signal that the server still took (it lets calls on their way in).
    served_after_signal: int = 0

    def restart(self) -> None:
        """Count from now on (the warm-up is over); errors are kept."""
        self.latencies = array("d")
        self.rounds = 0
        self.calls = 0

    def error(self, what: str) -> None:
        """A call that failed, or answered what the vector does not expect."""
        self.errors[what.split(":", maxsplit=1)[0]] += 1
        self._note(what)

    def _note(self, what: str) -> None:
        if len(self.first_errors) < 5:
            self.first_errors.append(what)

    def succeeded(self, seconds: float, *, before_signal: bool) -> None:
        """A call answered OK after ``seconds``."""
        if not before_signal:
            self.served_after_signal += 1
        elif self.signalled_at is not None:
            self.finished_after_signal += 1
        else:
            self.calls += 1
            self.latencies.append(seconds)

    def failed(self, name: str, error: grpc.aio.AioRpcError, *, before_signal: bool) -> None:
        """A call that failed: an error, a call lost at shutdown, or one refused after it."""
        code, reason = error.code(), _reason(error)
        if before_signal and self.signalled_at is not None:
            self.lost += 1
            self._note(f"{name}: in flight at SIGTERM, {code.name} {reason}")
        elif before_signal:
            self.error(f"{name}: {code.name} {reason}: {error.details()}")
        elif code is grpc.StatusCode.UNAVAILABLE and reason == "SHUTTING_DOWN":
            self.refused += 1
        elif code is grpc.StatusCode.CANCELLED and not reason:
            # gRPC's own stop drops the calls that reached the server but no method yet.
            self.cancelled += 1
        elif code is grpc.StatusCode.UNAVAILABLE and not reason:
            self.unreachable += 1  # the server has stopped listening
        else:
            self.error(f"{name}: after SIGTERM, {code.name} {reason}: {error.details()}")


def _reason(error: grpc.aio.AioRpcError) -> str:
    try:
        info = error_info(error)
    except MalformedStatusError:
        return "(undecodable details)"
    return info.reason if info is not None else ""


class Stopped(Exception):  # noqa: N818 - not an error: the worker's signal to stop
    """A call failed after the server was told to stop: the worker is done."""


class Abandoned(Exception):  # noqa: N818 - the error itself is in the tally already
    """A call failed before the signal (counted): the round is left to expire."""


_Req = TypeVar("_Req")
_Resp = TypeVar("_Resp")


class Worker:
    """One round in flight at a time: Deal, each Decide, Settle, checked, then the next round."""

    def __init__(self, index: int, stub: engine_service_pb2_grpc.EngineServiceAsyncStub) -> None:
        self.index = index
        self.stub = stub

    async def run(self, plays: Sequence[Play], tally: Tally) -> None:
        """Play rounds until a call fails after the signal."""
        played = 0
        while True:
            # Workers start at different places in the list: all games are in play at once.
            play = plays[(self.index * 7 + played) % len(plays)]
            round_id = f"soak-{self.index}-{played}"
            played += 1
            try:
                await self._play(play, round_id, tally)
            except Stopped:
                return
            except Abandoned:
                continue

    async def _play(self, play: Play, round_id: str, tally: Tally) -> None:
        deal = engine_service_pb2.DealRequest()
        deal.CopyFrom(play.deal)
        deal.round_id = round_id
        # A worker has its own tables, so its roulette boards are its own and their number bounded.
        deal.table_id = f"soak-{self.index}-{play.deal.profile_id}"
        await self._call(tally, "Deal", self.stub.Deal, deal)
        for decision in play.decisions:
            request = engine_service_pb2.DecideRequest(round_id=round_id, decision=decision)
            await self._call(tally, "Decide", self.stub.Decide, request)
        settle = engine_service_pb2.SettleRequest(round_id=round_id)
        reply = await self._call(tally, "Settle", self.stub.Settle, settle)
        if reply.settlement != play.settlement:
            tally.error(f"Settle: the settlement of {round_id} is not the vector's")
        else:
            tally.rounds += 1

    async def _call(
        self,
        tally: Tally,
        name: str,
        method: grpc.aio.UnaryUnaryMultiCallable[_Req, _Resp],
        request: _Req,
    ) -> _Resp:
        """The reply; ``Abandoned`` for a failure (counted), ``Stopped`` once signalled."""
        loop = asyncio.get_running_loop()
        before_signal = tally.signalled_at is None
        started = loop.time()
        tally.in_flight += 1
        try:
            reply = await method(request, timeout=CALL_TIMEOUT_SECONDS)
        except grpc.aio.AioRpcError as exc:
            tally.failed(name, exc, before_signal=before_signal)
            if tally.signalled_at is not None:
                raise Stopped from None
            raise Abandoned from None
        finally:
            tally.in_flight -= 1
        tally.succeeded(loop.time() - started, before_signal=before_signal)
        return reply


def _probe(address: str, every: float, stop: Connection, out: Connection) -> None:
    """The health check, sampled every ``every`` seconds until told to stop; latencies to ``out``.

    Its own process and channel: a check waits for the server, not for the load's event loop.
    """
    samples: list[float] = []
    failed = 0
    with grpc.insecure_channel(address) as channel:
        check = health_pb2_grpc.HealthStub(channel).Check
        while not stop.poll(every):
            started = time.perf_counter()
            try:
                reply = check(health_pb2.HealthCheckRequest(), timeout=5)
            except grpc.RpcError:
                failed += 1
                continue
            samples.append(time.perf_counter() - started)
            if reply.status != health_pb2.HealthCheckResponse.SERVING:
                failed += 1
    out.send((samples, failed))


class Prober:
    """The health-check sampler in its own process (``_probe``)."""

    def __init__(self, address: str) -> None:
        context = multiprocessing.get_context("spawn")
        self._stop_recv, self._stop = context.Pipe(duplex=False)
        self._recv, send = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_probe, args=(address, HEALTH_EVERY_SECONDS, self._stop_recv, send), daemon=True
        )
        self._process.start()

    def finish(self) -> tuple[list[float], int]:
        """Stop sampling; the latencies of the checks that said SERVING, and how many did not."""
        self._stop.send(None)
        samples, failed = self._recv.recv()
        self._process.join(10)
        return samples, failed

    def close(self) -> None:
        """End the sampler if it is still running (the soak failed before ``finish``)."""
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(10)


def rss_mib(pid: int) -> float | None:
    """A process's resident set size in MiB (Linux ``/proc``, else ``ps``); None if unknown."""
    status = Path(f"/proc/{pid}/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return None
    done = subprocess.run(
        ["ps", "-o", "rss=", "-p", str(pid)],  # noqa: S607 - ps from PATH, as a shell would
        capture_output=True,
        text=True,
        check=False,
    )
    return int(done.stdout) / 1024 if done.stdout.strip().isdigit() else None


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (``share`` 0.99 for p99); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class Figures:
    """What a soak measured."""

    concurrency: int
    seconds: float
    tally: Tally
    health_ms: list[float]
    health_failed: int
    rss_start: float | None
    rss_end: float | None
    rss_path: list[float | None]
    exit_code: int | None
    stop_seconds: float

    def goals(self) -> list[tuple[str, bool, str]]:
        """Each goal: its name, met or not, and the figure that says so."""
        tally = self.tally
        errors = sum(tally.errors.values())
        health_p99 = percentile(self.health_ms, 0.99)
        if self.rss_start is None or self.rss_end is None:
            flat, growth = False, "unmeasured"
        else:
            bound = max(RSS_GROWTH_MIB, RSS_GROWTH_SHARE * self.rss_start)
            flat = self.rss_end - self.rss_start <= bound
            growth = f"{self.rss_end - self.rss_start:+.1f} MiB (bound +{bound:.1f} MiB)"
        return [
            ("0 errors", errors == 0, f"{errors}"),
            ("0 lost", tally.lost == 0, f"{tally.lost} of {tally.in_flight_at_signal}"),
            ("RSS flat", flat, growth),
            (
                f"health p99 < {HEALTH_P99_GOAL_MS:.0f} ms",
                health_p99 < HEALTH_P99_GOAL_MS
                and self.health_failed == 0
                and bool(self.health_ms),
                f"{health_p99:.1f} ms, {self.health_failed} not SERVING",
            ),
            ("server exit 0", self.exit_code == 0, f"{self.exit_code}"),
        ]

    def report(self) -> str:
        """The figures, then each goal as pass or short."""
        tally = self.tally
        ms = [s * 1000 for s in tally.latencies]

        def mib(value: float | None) -> str:
            return "n/a" if value is None else f"{value:.1f} MiB"

        rate, health = tally.rounds / self.seconds, self.health_ms
        rounds = (
            f"{tally.rounds:,} in {self.seconds:.1f} s: {rate:,.0f} rounds/s "
            f"({tally.calls:,} calls, {tally.calls / self.seconds:,.0f} calls/s), "
            f"{self.concurrency} in flight"
        )
        latency = (
            f"p50 {percentile(ms, 0.5):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
            f"max {max(ms, default=0):.1f} ms"
        )
        checks = (
            f"p50 {percentile(health, 0.5):.1f} ms, p99 {percentile(health, 0.99):.1f} ms, "
            f"max {max(health, default=0):.1f} ms ({len(health):,} checks, "
            f"one every {HEALTH_EVERY_SECONDS * 1000:.0f} ms)"
        )
        shutdown = (
            f"SIGTERM with {tally.in_flight_at_signal} calls in flight: "
            f"{tally.finished_after_signal} finished, {tally.lost} lost; after it, "
            f"{tally.served_after_signal} served, {tally.refused} refused (SHUTTING_DOWN), "
            f"{tally.cancelled} cancelled by gRPC's stop, {tally.unreachable} found the "
            f"server gone; exit {self.exit_code} in {self.stop_seconds:.2f} s"
        )
        path = " ".join("?" if value is None else f"{value:.0f}" for value in self.rss_path)
        memory = (
            f"{mib(self.rss_start)} after warm-up, {mib(self.rss_end)} at the end "
            f"(MiB along the way: {path})"
        )
        lines = [
            f"rounds        {rounds}",
            f"call latency  {latency}",
            f"health check  {checks}",
            f"server RSS    {memory}",
            f"shutdown      {shutdown}",
        ]
        if tally.first_errors:
            lines.append(f"failures      {dict(tally.errors)} errors; first: {tally.first_errors}")
        lines += [
            f"  {'pass ' if met else 'SHORT'}  {name:<22} {figure}"
            for name, met, figure in self.goals()
        ]
        return "\n".join(lines)

    @property
    def met(self) -> bool:
        """Every goal met."""
        return all(met for _, met, _ in self.goals())


async def _load(
    address: str,
    server: subprocess.Popen[str],
    *,
    seconds: float,
    warmup: float,
    concurrency: int,
    plays: Sequence[Play],
) -> Figures:
    loop = asyncio.get_running_loop()
    tally = Tally()
    # Separate subchannel pools: each channel its own connection, not one shared by all.
    options = [("grpc.use_local_subchannel_pool", 1)]
    channels = [
        grpc.aio.insecure_channel(address, options=options)
        for _ in range(-(-concurrency // WORKERS_PER_CHANNEL))
    ]
    prober = Prober(address)
    try:
        stubs = [engine_service_pb2_grpc.EngineServiceStub(channel) for channel in channels]
        workers = [
            asyncio.create_task(Worker(i, stubs[i % len(stubs)]).run(plays, tally))
            for i in range(concurrency)
        ]
        await asyncio.sleep(warmup)
        tally.restart()
        rss_start = rss_mib(server.pid)
        started = loop.time()
        # The RSS along the way too: a bounded cache levels off, a leak keeps climbing.
        rss_path = []
        for _ in range(RSS_SAMPLES):
            await asyncio.sleep((seconds - warmup) / RSS_SAMPLES)
            rss_path.append(rss_mib(server.pid))
        rss_end = rss_path[-1]
        health, health_failed = await asyncio.to_thread(prober.finish)
        measured = loop.time() - started
        # The signal and the count of calls in flight, with no await between them.
        server.send_signal(signal.SIGTERM)
        tally.signalled_at = loop.time()
        tally.in_flight_at_signal = tally.in_flight
        exit_code = await asyncio.to_thread(server.wait)
        stop_seconds = loop.time() - tally.signalled_at
        done, pending = await asyncio.wait(workers, timeout=CALL_TIMEOUT_SECONDS)
        for task in pending:
            task.cancel()
        for task in done:
            task.result()  # a worker's own bug surfaces here
    finally:
        prober.close()
        for channel in channels:
            await channel.close(None)
    return Figures(
        concurrency=concurrency,
        seconds=measured,
        tally=tally,
        health_ms=[s * 1000 for s in health],
        health_failed=health_failed,
        rss_start=rss_start,
        rss_end=rss_end,
        rss_path=rss_path,
        exit_code=exit_code,
        stop_seconds=stop_seconds,
    )


def soak(
    seconds: float,
    *,
    concurrency: int = 256,
    warmup: float | None = None,
    grace: float = 5.0,
    rounds_per_profile: int = 200,
) -> Figures:
    """Serve the oracle in its own process, load it for ``seconds``, then stop it under load.

    The warm-up (a tenth of the time, at most a minute, by default) is load that is not
    measured: the server's RSS is read when it ends.
    """
    warmup = min(seconds / 10, 60.0) if warmup is None else warmup
    if not 0 <= warmup < seconds:
        raise ValueError(f"the warm-up ({warmup} s) must be shorter than the soak ({seconds} s)")
    plays = campaign_plays(rounds_per_profile)
    command = [sys.executable, "-m", "croupier.conformance.cli", "serve", "--port", "0", "--grace"]
    # Every worker holds one open round at a time: the bound is never what refuses a deal.
    command += [str(grace), "--max-open-rounds", str(max(10_000, 2 * concurrency))]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        ready = server.stdout.readline().split()
        if not ready or ready[0] != "CROUPIER_ENGINE":
            raise RuntimeError(f"croupier serve did not start (exit {server.wait()})")
        return asyncio.run(
            _load(
                ready[-1],
                server,
                seconds=seconds,
                warmup=warmup,
                concurrency=concurrency,
                plays=plays,
            )
        )
    finally:
        if server.poll() is None:
            server.kill()
        server.wait()


def main() -> None:
    """Soak the server as the command line says; exit 1 when a goal is missed."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--minutes", type=float, default=10.0, help="how long to load (default 10)")
    parser.add_argument(
        "--concurrency", type=int, default=256, help="rounds in flight (default 256)"
    )
    parser.add_argument(
        "--grace", type=float, default=5.0, help="the server's --grace (default 5 s)"
    )
    args = parser.parse_args()
    print(
        f"soak: croupier serve, {args.concurrency} rounds in flight for {args.minutes:g} min, "
        f"then SIGTERM under load (python {sys.version.split()[0]}, {os.cpu_count()} cpus)",
        flush=True,
    )
    figures = soak(args.minutes * 60, concurrency=args.concurrency, grace=args.grace)
    print(figures.report())
    sys.exit(0 if figures.met else 1)


if __name__ == "__main__":
    main()
