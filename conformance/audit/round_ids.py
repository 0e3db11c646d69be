"""Round ids met twice: the same round again (a duplicate), or an id reused for another round."""

from __future__ import annotations

import functools
import hashlib
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from croupier.clients.audit import link
from croupier.conformance.audit.problem import Problem
from croupier.v1 import round_pb2


def _content(record: round_pb2.RoundRecord) -> bytes:
    """A digest of the round itself: the record without its link, number and time."""
    copy = round_pb2.RoundRecord()
    copy.CopyFrom(record)
    copy.ClearField("previous_record_sha256")
    copy.ClearField("sequence")
    copy.ClearField("recorded_at")
    return hashlib.sha256(copy.SerializeToString(deterministic=True)).digest()


@dataclass(frozen=True, slots=True, kw_only=True)
class _Seen:
    """A round id met before: the problem, and whether the record is the same round again."""

    problem: Problem
    duplicate: bool
    identical: bool


class RoundIds:
    """Every round id of the log, in a temporary on-disk table: memory stays constant.

    Each id is written with its record's number and offset in the log, in batches; a filter
    of fixed size in memory answers most ids never met without asking the table. Only an id
    met again costs digests: the earlier record is read again at its offset, and the two
    rounds compared by content (``_content``) and as written (their links).
    """

    #: Ids written to the table at once.
    BATCH = 1000
    #: Bits of the filter (4 MB): a log of millions of ids rarely asks the table in vain.
    BITS = 1 << 25

    def __init__(self, earlier: Callable[[int], round_pb2.RoundRecord | None]) -> None:
        # An empty name: SQLite's private temporary database, on disk, deleted on close.
        self.db = sqlite3.connect("")
        self.db.execute("PRAGMA journal_mode = OFF")
        self.db.execute("PRAGMA synchronous = OFF")
        self.db.execute(
            "CREATE TABLE rounds (round_id TEXT PRIMARY KEY, record INTEGER NOT NULL, "
            "offset INTEGER NOT NULL) WITHOUT ROWID"
        )
        self.earlier = earlier
        self.pending: dict[str, tuple[int, int]] = {}
        self.filter = bytearray(self.BITS // 8)

    def _met(self, round_id: str) -> tuple[int, int] | None:
        """The record and offset of an id met before, if it was; else it is noted as met."""
        mask = self.BITS - 1
        key = hash(round_id)
        first, second = key & mask, (key >> 25) & mask
        seen = self.filter[first >> 3] & (1 << (first & 7)) and self.filter[second >> 3] & (
            1 << (second & 7)
        )
        if seen:
            found = self.pending.get(round_id)
            if found is not None:
                return found
            row = self.db.execute(
                "SELECT record, offset FROM rounds WHERE round_id = ?", (round_id,)
            ).fetchone()
            if row is not None:
                return int(row[0]), int(row[1])
        self.filter[first >> 3] |= 1 << (first & 7)
        self.filter[second >> 3] |= 1 << (second & 7)
        return None

    def _flush(self) -> None:
        self.db.executemany(
            "INSERT INTO rounds VALUES (?, ?, ?)",
            ((round_id, number, at) for round_id, (number, at) in self.pending.items()),
        )
        self.pending.clear()

    def check(
        self, number: int, offset: int, record: round_pb2.RoundRecord, own: bytes
    ) -> _Seen | None:
        """None for a round id not met before; else the duplicate or the reused id."""
        round_id = record.round_id
        if not round_id:
            return None  # the replay reports the record as unreplayable
        met = self._met(round_id)
        if met is None:
            self.pending[round_id] = (number, offset)
            if len(self.pending) >= self.BATCH:
                self._flush()
            return None
        earlier, at = met
        before = self.earlier(at)
        problem = functools.partial(Problem, record=number, round_id=round_id)
        if before is not None and _content(before) == _content(record):
            return _Seen(
                problem=problem(
                    kind="duplicate",
                    message=f"the same round as record {earlier}, again: counted once",
                ),
                duplicate=True,
                identical=link(before) == own,
            )
        return _Seen(
            problem=problem(
                kind="round-id-reused",
                message=f"round id already used by record {earlier}, for another round",
            ),
            duplicate=False,
            identical=False,
        )

    def close(self) -> None:
        """Drop the table."""
        self.db.close()
