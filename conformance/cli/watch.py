"""Watching a run: a progress bar on a terminal, progress lines in a CI log, and signals.

SIGINT and SIGTERM cancel the run (whose clean-up stops a launched engine) and surface as
``Interrupted``, so the command can write what finished and exit 130 or 143.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Callable, Coroutine
from types import TracebackType
from typing import Any, Self, TypeVar

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from croupier.clients.words import plural
from croupier.conformance.cli.common import console, errors
from croupier.conformance.results import Result
from croupier.v1 import engine_service_pb2

_T = TypeVar("_T")


class Interrupted(Exception):  # noqa: N818 - named for what happened, like KeyboardInterrupt
    """The run was stopped by a signal: exit ``128 + signum``."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.name = signal.Signals(signum).name
        super().__init__(self.name)


async def interruptible(
    work: Coroutine[Any, Any, _T], *, beat: Callable[[], None] | None = None, every: float = 10.0
) -> _T:
    """Await ``work``; SIGINT or SIGTERM cancels it and raises ``Interrupted``.

    ``beat`` is called every ``every`` seconds meanwhile. A second signal while the work
    cleans up is ignored: the engine it is stopping must not be left half stopped.
    """
    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(work)
    received: list[int] = []

    def on_signal(signum: int) -> None:
        if not received:
            received.append(signum)
            task.cancel()

    signals = (signal.SIGINT, signal.SIGTERM)
    for signum in signals:
        with contextlib.suppress(NotImplementedError):  # no signal handlers on this platform
            loop.add_signal_handler(signum, on_signal, signum)
    ticker = asyncio.ensure_future(_every(beat, every)) if beat is not None else None
    try:
        return await task
    except asyncio.CancelledError:
        if received:
            raise Interrupted(received[0]) from None
        raise
    finally:
        if ticker is not None:
            ticker.cancel()
        for signum in signals:
            loop.remove_signal_handler(signum)


async def _every(beat: Callable[[], None], seconds: float) -> None:
    while True:
        await asyncio.sleep(seconds)
        beat()


class Watch:
    """Progress of a run: a bar on stderr when stdout is a terminal.

    Otherwise a line on stdout every ``every`` seconds: a CI log shows the run is alive, and
    where it is.
    """

    def __init__(self, *, total: int, every: float) -> None:
        self.total = total
        self.every = every
        self.tally: dict[str, int] = {}
        self.done = 0
        self.began = time.monotonic()
        self.live = console.is_terminal
        self._bar: Progress | None = None
        self._task: Any = None
        if self.live:
            self._bar = Progress(
                TextColumn("[bold]certify"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[status]}"),
                TimeElapsedColumn(),
                console=errors,
                transient=False,
            )
            self._task = self._bar.add_task("vectors", total=total, status="")

    def __enter__(self) -> Self:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop the bar (before a final message)."""
        if self._bar is not None:
            self._bar.stop()

    def start(self, info: engine_service_pb2.DescribeResponse) -> None:
        """The engine has described itself: say who is being certified."""
        if not self.live:
            name = " ".join(part for part in (info.name, info.version) if part) or "(no name)"
            console.print(
                f"certify: engine {name}, profiles {', '.join(info.profile_ids) or '(none)'}: "
                f"{plural(self.total, 'vector')}",
                highlight=False,
                soft_wrap=True,
            )

    def advance(self, result: Result) -> None:
        """One more vector finished."""
        self.done += 1
        outcome = result.outcome.value.lower()
        self.tally[outcome] = self.tally.get(outcome, 0) + 1
        if self._bar is not None:
            self._bar.update(self._task, advance=1, status=self._status())

    def beat(self) -> None:
        """The periodic progress line (none on a terminal: the bar shows it)."""
        if not self.live:
            console.print(
                f"certify: {self.done}/{self.total} vectors ({self._status() or 'none yet'}) "
                f"after {time.monotonic() - self.began:.0f} s",
                highlight=False,
                soft_wrap=True,
            )

    def _status(self) -> str:
        return " ".join(f"{k}={v}" for k, v in sorted(self.tally.items()))
