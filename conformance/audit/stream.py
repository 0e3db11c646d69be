"""The log as a stream, in the main process: every check of the log's order, and the shards."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from croupier.clients.audit import Entry, canonical_bytes, entry_at
from croupier.conformance.audit.boards import Spins, after_spin, pockets
from croupier.conformance.audit.chain import Chain
from croupier.conformance.audit.order import Order
from croupier.conformance.audit.problem import Problem
from croupier.conformance.audit.replay import Shard
from croupier.conformance.audit.round_ids import RoundIds
from croupier.conformance.audit.seals import Seals
from croupier.conformance.audit.spools import Spools
from croupier.oracle import roulette
from croupier.oracle.roulette import RouletteRules, TableHistory
from croupier.v1 import round_pb2


class Reread:
    """The record at an offset of the log, read again: a round id met twice needs it."""

    def __init__(self, path: Path, fmt: str) -> None:
        self.path = path
        self.fmt = fmt
        self.handle: IO[bytes] | None = None

    def __call__(self, offset: int) -> round_pb2.RoundRecord | None:
        """The record at ``offset``, None if the entry there is not one."""
        if self.handle is None:
            self.handle = self.path.open("rb")
        return entry_at(self.handle, self.fmt, offset).record

    def close(self) -> None:
        """Close the log if it was opened."""
        if self.handle is not None:
            self.handle.close()


class LogChecks:
    """Everything checked in the log's order, by the main process, for every executor."""

    def __init__(
        self,
        keys: Mapping[bytes, Ed25519PublicKey],
        spools: Spools,
        earlier: Callable[[int], round_pb2.RoundRecord | None],
    ) -> None:
        self.chain = Chain()
        self.order = Order()
        self.round_ids = RoundIds(earlier)
        self.seals = Seals(keys)
        self.spools = spools
        #: Entries read; records among them; what a Croupier log holds (a record with a round
        #: id, a checkpoint), for bytes of another kind may decode as an empty record.
        self.entries = 0
        self.records = 0
        self.recognised = 0
        self.segment: bool | None = None

    def report(self, problems: Iterable[Problem]) -> None:
        """Spool problems found."""
        for problem in problems:
            self.spools.problem(problem)

    def record(self, number: int, offset: int, record: round_pb2.RoundRecord) -> bytes | None:
        """Check a record's place in the log; its canonical bytes, None for the same round again.

        The bytes are those its link covers (``clients.audit.canonical_bytes``): serialized
        once, for the link and for the worker that replays the record.
        """
        data = canonical_bytes(record)
        own = hashlib.sha256(data).digest()
        if self.segment is None:
            # A log whose first record links to an earlier one is a segment of a longer log.
            self.segment = bool(record.previous_record_sha256)
        seen = self.round_ids.check(number, offset, record, own)
        if seen is not None:
            self.spools.problem(seen.problem)
        if seen is None or not seen.identical:
            # A byte-for-byte copy of a record is a duplicate, and nothing else: the chain
            # and the order run on as if it were not there.
            self.report(self.chain.check(number, record, own))
            self.report(self.order.check(number, record, segment=bool(self.segment)))
        self.seals.record(number, record, own)
        return data if seen is None or not seen.duplicate else None

    def checkpoint(self, number: int, checkpoint: round_pb2.AuditCheckpoint) -> None:
        """Check a checkpoint against the records before it."""
        self.report(self.seals.checkpoint(number, checkpoint))

    def finish(self) -> None:
        """The problems only the end of the log shows."""
        self.report(self.chain.finish())
        self.report(self.order.finish())
        self.report(self.seals.finish())
        self.round_ids.close()


def shards(
    entries: Iterable[Entry],
    *,
    shard_size: int,
    checks: LogChecks,
    table_rules: Callable[[str], RouletteRules | None],
) -> Iterator[tuple[Shard, list[dict[str, Any]]]]:
    """Shards of records to replay, each with the entries before its end that could not be read.

    The unreadable entries travel with their shard, so that the report lists malformed
    records in log order whatever the number of workers and the shard size.
    """
    boards = roulette.Boards(max_tables=100_000)
    spins = Spins()
    shard = Shard()
    unreadable: list[dict[str, Any]] = []
    number = 0
    for entry in entries:
        number += 1
        checks.entries = number
        checks.seals.entry(number)
        if entry.checkpoint is not None:
            checks.recognised += 1
            checks.checkpoint(number, entry.checkpoint)
            continue
        checks.records += 1
        if entry.record is None:
            unreadable.append(
                {
                    "record": number,
                    "line": entry.number,
                    "offset": entry.offset,
                    "reason": entry.error,
                }
            )
            continue
        record = entry.record
        checks.recognised += bool(record.round_id)
        data = checks.record(number, entry.offset, record)
        if data is None:
            continue
        board: TableHistory | None = None
        rules = table_rules(record.profile_id) if record.pocket else None
        if rules is not None and record.table_round:
            board, problems = spins.check(number, record, rules)
            checks.report(problems)
        elif rules is not None:
            length = rules.history_length
            before = boards.get(record.profile_id, record.table_id)
            board = before if before is not None else TableHistory.new(record.table_id)
            if checks.segment and before is None:
                # Trust the record's own board for what came before (its last spin is checked).
                board = None
                earlier = pockets(record.final_state.roulette.history[:-1])[-length:]
                before = TableHistory(table_id=record.table_id, results=tuple(earlier))
            after = before or TableHistory.new(record.table_id)
            for pocket in pockets([record.pocket]):
                after = after_spin(rules, after, pocket, record)
            boards.put(record.profile_id, after)
        shard.add(number, data, board)
        if len(shard) + len(unreadable) >= shard_size:
            yield shard, unreadable
            shard, unreadable = Shard(), []
    checks.finish()
    if shard or unreadable:
        yield shard, unreadable
