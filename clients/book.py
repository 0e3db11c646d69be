"""The open rounds of an engine, by id: one book for the reference server and the adapter kit.

A round id is taken once for good (``ROUND_EXISTS`` afterwards, even once the round is
settled or expired), the book holds at most ``max_open_rounds`` (``TOO_MANY_OPEN_ROUNDS``),
and a round untouched for ``ttl_seconds`` expires (``ROUND_NOT_FOUND`` afterwards). What a
round is, the book does not know: the oracle keeps its rounds here, a vendor engine its own
round objects.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from croupier.clients.status import StatusError

T = TypeVar("T")


class RoundBook(Generic[T]):
    """Open rounds by id, bounded in count and in age; not thread-safe (callers serialize)."""

    def __init__(
        self,
        *,
        max_open_rounds: int = 10_000,
        ttl_seconds: float = 900.0,
        remember_used: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
        on_expire: Callable[[str, T], None] | None = None,
    ) -> None:
        self._max_open = max_open_rounds
        #: Told of each round that expires (a journal that must forget it too).
        self._on_expire = on_expire
        self._ttl = ttl_seconds
        self._clock = clock
        self._open: OrderedDict[str, tuple[float, T]] = OrderedDict()
        #: When the least recently touched open round was touched, or at most that (infinity
        #: when none is open): until it is past the time-to-live, nothing expires, and
        #: ``expire``, which every call of the book makes, looks at no round.
        self._oldest = math.inf
        self._used: OrderedDict[str, None] = OrderedDict()
        self._remember_used = remember_used

    @property
    def max_open_rounds(self) -> int:
        """The most rounds the book holds at once."""
        return self._max_open

    @property
    def open_rounds(self) -> int:
        """How many rounds are open now."""
        self.expire()
        return len(self._open)

    def expire(self) -> int:
        """Drop the rounds untouched for longer than the time-to-live; return how many."""
        deadline = self._clock() - self._ttl
        if self._oldest > deadline:
            return 0
        dropped = 0
        while self._open:
            round_id, (touched, value) = next(iter(self._open.items()))
            if touched > deadline:
                self._oldest = touched
                break
            del self._open[round_id]
            dropped += 1
            if self._on_expire is not None:
                self._on_expire(round_id, value)
        else:
            self._oldest = math.inf
        return dropped

    def check_new(self, round_id: str) -> None:
        """Refuse an id used before (``ROUND_EXISTS``) or a round too many (``TOO_MANY_OPEN_ROUNDS``)."""
        self.expire()
        if round_id in self._open or round_id in self._used:
            raise StatusError(
                "ROUND_EXISTS",
                f"round {round_id!r} exists already; round ids are never reused",
                round_id=round_id,
            )
        if len(self._open) >= self._max_open:
            raise StatusError(
                "TOO_MANY_OPEN_ROUNDS",
                f"{len(self._open)} rounds are open, the most this engine holds; "
                "settle some or wait for abandoned ones to expire",
                limit=self._max_open,
            )

    def open(self, round_id: str, value: T) -> None:
        """Keep a new round, once ``check_new`` has let its id through; the id is taken for good."""
        self.check_new(round_id)
        self.remember(round_id)
        self.update(round_id, value)

    def remember(self, round_id: str) -> None:
        """Take an id for good without opening a round (a settled round a journal recalls)."""
        self._used[round_id] = None
        while len(self._used) > self._remember_used:
            self._used.popitem(last=False)

    def ids(self) -> list[str]:
        """The ids of the open rounds, least recently touched first."""
        self.expire()
        return list(self._open)

    def get(self, round_id: str) -> T:
        """The open round with this id (``ROUND_NOT_FOUND`` if none)."""
        self.expire()
        entry = self._open.get(round_id)
        if entry is None:
            raise StatusError(
                "ROUND_NOT_FOUND",
                f"no open round {round_id!r}: never dealt, settled already, or expired",
                round_id=round_id,
            )
        return entry[1]

    def update(self, round_id: str, value: T) -> None:
        """Keep the round's new state and count it as touched now."""
        touched = self._clock()
        self._open[round_id] = (touched, value)
        self._open.move_to_end(round_id)
        # A round touched, or one closed, leaves the least recently touched as late or later.
        self._oldest = min(self._oldest, touched)

    def close(self, round_id: str) -> T:
        """Take a round out of the book (settled); its id stays used."""
        value = self.get(round_id)
        del self._open[round_id]
        return value
