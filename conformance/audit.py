"""Audit replay: verify a production log of RoundRecords against the published rules.

The log is read as a stream. The main process runs every check that needs the log's order
(``_LogChecks``: the hash chain, sequence numbers and times, round ids, signed checkpoints
and each roulette table's board) and cuts the records into coarse shards that workers
check one record at a time (``verify_shard``: the record against itself, then the
replay through the oracle): a process pool by default, or a Dask cluster. Every executor
runs the same code, and shard results are merged in log order, so the report is the same
whatever the executor, the number of workers and the shard size.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import os
import sqlite3
import tempfile
from collections import OrderedDict, defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from croupier import oracle
from croupier.clients.audit import (
    Entry,
    canonical_bytes,
    checkpoint_error,
    detect_format,
    entry_at,
    key_id,
    link,
    read_log,
)
from croupier.clients.words import plural
from croupier.conformance.fairness import (
    BAND,
    P_THRESHOLD,
    Assessment,
    BetMoney,
    Tally,
    assess,
    tally_record,
)
from croupier.conformance.inputs import amount_of, value_text
from croupier.conformance.scheduler import dask_client
from croupier.oracle import roulette
from croupier.oracle.clauses import Game
from croupier.oracle.errors import InvalidBetLayoutError, OracleError
from croupier.oracle.money import money_text
from croupier.oracle.profile import Profile, Profiles
from croupier.oracle.roulette import RouletteRules, TableHistory
from croupier.oracle.rounds import roulette_rules
from croupier.oracle.service import convert, records
from croupier.oracle.verify import Discrepancy
from croupier.v1 import round_pb2

SHARD_SIZE = 2000
#: How many recent records' links are remembered to tell a reordered record from a missing one.
LINK_WINDOW = 64

#: The findings of the hash chain; every other problem of the log's order is a log problem.
CHAIN_KINDS = ("broken", "missing", "reordered")
#: The findings that leave a signed log short of sealed.
SEAL_KINDS = (
    "checkpoint-mismatch",
    "checkpoint-invalid",
    "checkpoint-duplicate",
    "restart-mismatch",
    "unsealed",
    "truncated",
)
#: What a record's discrepancies with itself are called, by the clause they cite.
_OWN_KINDS = {"TABLE.currency": "mixed-currency", "CONTRACT.settlement": "totals"}


# --- one shard, in a worker -------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One discrepancy of one record: ``kind`` is rules, totals or mixed-currency."""

    record: int
    round_id: str
    kind: str
    clause: str
    path: str
    expected: str
    actual: str
    message: str
    table_id: str = ""
    #: The round's currency: an amount compared (a ``minor_units`` path) is in it.
    currency: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordResult:
    """What checking one record found.

    ``money`` holds (currency, staked, paid) per currency its settlement lines use;
    ``expected_paid`` is what the rules pay, in the round's currency, or None when the
    record could not be replayed to its end (its money is then unverified).
    """

    record: int
    round_id: str
    profile_id: str
    currency: str
    money: tuple[tuple[str, int, int], ...]
    expected_paid: int | None
    findings: tuple[Finding, ...] = ()
    unreplayable: str = ""
    #: Money per bet kind and currency, and what was dealt (``conformance.fairness``).
    bets: tuple[BetMoney, ...] = ()
    dealt: tuple[str, ...] = ()
    table_id: str = ""


@functools.cache
def _profiles(lab_files: tuple[str, ...]) -> Profiles:
    """The registry of a run, built once per process (workers each build their own)."""
    return Profiles.load(lab_files)


def _profile(profile_id: str, lab_files: Sequence[str]) -> Profile:
    return _profiles(tuple(lab_files)).get(profile_id)


def _money(record: round_pb2.RoundRecord) -> tuple[tuple[str, int, int], ...]:
    """Staked and paid per currency, each amount in its own currency (the round's if unset)."""
    money: dict[str, list[int]] = {}
    for line in record.settlement.lines:
        stake = money.setdefault(line.stake.currency_code or record.currency_code, [0, 0])
        stake[0] += line.stake.minor_units
        paid = money.setdefault(line.returned.currency_code or record.currency_code, [0, 0])
        paid[1] += line.returned.minor_units
    return tuple((currency, staked, paid) for currency, (staked, paid) in sorted(money.items()))


def verify_one(
    number: int, data: bytes, board: TableHistory | None, lab_files: Sequence[str]
) -> RecordResult:
    """Check one serialized record; ``board`` is its table before it (roulette).

    The table's results, and the bets imprisoned at it (VAR.rou.en-prison).
    """
    record = round_pb2.RoundRecord()
    record.ParseFromString(data)

    def finding(d: Discrepancy, kind: str) -> Finding:
        return Finding(
            record=number,
            round_id=record.round_id,
            table_id=record.table_id,
            kind=kind,
            clause=d.clause,
            path=d.path,
            expected=d.expected,
            actual=d.actual,
            message=d.message,
            currency=record.currency_code,
        )

    own = tuple(finding(d, _OWN_KINDS[d.clause]) for d in records.record_discrepancies(record))
    bets, dealt = tally_record(record)
    result = functools.partial(
        RecordResult,
        record=number,
        round_id=record.round_id,
        table_id=record.table_id,
        profile_id=record.profile_id,
        currency=record.currency_code,
        money=_money(record),
        bets=bets,
        dealt=dealt,
    )
    try:
        profile = _profile(record.profile_id, lab_files)
        verdict = records.verify(profile, record, board)
    except OracleError as exc:
        return result(expected_paid=None, findings=own, unreplayable=f"{exc.reason}: {exc}")
    expected_paid = (
        sum(line.payout.returned for line in verdict.expected) if verdict.expected else None
    )
    replayed = tuple(finding(d, "rules") for d in verdict.discrepancies)
    return result(expected_paid=expected_paid, findings=own + replayed)


@dataclass(slots=True, kw_only=True)
class ShardResult:
    """What a shard found: its sums, and the records with something to report, in log order.

    The sums add up whatever the order (``Totals.merge``, ``Tally.merge``): a worker sends
    them once a shard, not a result a record.
    """

    checked: int
    totals: Totals
    tally: Tally
    notable: list[RecordResult]


def verify_shard(
    items: Sequence[tuple[int, bytes, TableHistory | None]], lab_files: Sequence[str] = ()
) -> ShardResult:
    """Check a shard of records (picklable, for process pools and Dask)."""
    totals, tally, notable = Totals(), Tally(), []
    for number, data, board in items:
        result = verify_one(number, data, board, lab_files)
        totals.add(result)
        tally.add(result.profile_id, result.bets, result.dealt)
        if result.findings or result.unreplayable:
            notable.append(result)
    return ShardResult(checked=len(items), totals=totals, tally=tally, notable=notable)


# --- the log's order, in the main process ---------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Problem:
    """A problem of the log as a whole, found at one entry: a chain or a log problem."""

    record: int
    round_id: str
    kind: str
    message: str


@dataclass(frozen=True, slots=True, kw_only=True)
class _Held:
    """A record whose link matches no record read so far, held back for one record."""

    problem: Problem
    carried: bytes
    before: bytes | None
    own: bytes


class _Chain:
    """Checks each record's link to the one before, in a bounded window.

    A record whose link matches no record read so far is held back for one record: if the
    next record is the one it links to, the two were swapped, and both are reported as
    reordered (the record after them, which links to the first of them, is in its place).
    """

    def __init__(self) -> None:
        self.previous: bytes | None = None
        self.recent: OrderedDict[bytes, int] = OrderedDict()
        self.started = False
        self.held: _Held | None = None

    def _classify(
        self, number: int, record: round_pb2.RoundRecord, carried: bytes, expected: bytes | None
    ) -> tuple[Problem | None, bool]:
        """The record's problem, if any, and whether its link matches no record read so far."""
        problem = functools.partial(Problem, record=number, round_id=record.round_id)
        if not self.started:
            if not carried:
                return None, False
            return problem(
                kind="missing",
                message="the first record links to a previous one: the log does not start at its beginning",
            ), False
        if not carried:
            return problem(kind="broken", message="the record carries no link"), False
        if carried == expected:
            return None, False
        earlier = self.recent.get(carried)
        if earlier is not None:
            return problem(
                kind="reordered",
                message=f"the record follows record {earlier} in the chain, not the record before it",
            ), False
        return problem(
            kind="broken",
            message=(
                "the link matches no record read so far: a record before it is missing, "
                "out of order, or the record before it was altered"
            ),
        ), True

    def check(self, number: int, record: round_pb2.RoundRecord, own: bytes) -> list[Problem]:
        """The problems known once this record is read (a held record's may come with it)."""
        carried = bytes(record.previous_record_sha256)
        problems: list[Problem] = []
        held, self.held = self.held, None
        if held is not None and own == held.carried:
            # The held record links to this one: the two are swapped.
            problems.append(
                Problem(
                    record=held.problem.record,
                    round_id=held.problem.round_id,
                    kind="reordered",
                    message=f"swapped with record {number}: the record follows record {number} in the chain",
                )
            )
            if carried == held.before:
                problems.append(
                    Problem(
                        record=number,
                        round_id=record.round_id,
                        kind="reordered",
                        message=(
                            f"swapped with record {held.problem.record}: the record comes before "
                            f"record {held.problem.record} in the chain"
                        ),
                    )
                )
            else:
                problem, _ = self._classify(number, record, carried, held.before)
                if problem is not None:
                    problems.append(problem)
            # The chain runs on from the held record, which follows this one.
            tail = held.own
        else:
            if held is not None:
                problems.append(held.problem)
            problem, unknown = self._classify(number, record, carried, self.previous)
            if problem is not None and unknown:
                self.held = _Held(problem=problem, carried=carried, before=self.previous, own=own)
            elif problem is not None:
                problems.append(problem)
            tail = own
        self.started = True
        self.previous = tail
        self.recent[own] = number
        while len(self.recent) > LINK_WINDOW:
            self.recent.popitem(last=False)
        return problems

    def finish(self) -> list[Problem]:
        """The problem of a record still held at the end of the log."""
        held, self.held = self.held, None
        return [held.problem] if held is not None else []


def _when(stamp: tuple[int, int]) -> str:
    """A time as ISO 8601 UTC; one no calendar date can show, as its seconds and nanos."""
    seconds, nanos = stamp
    try:
        moment = datetime.fromtimestamp(seconds, UTC).replace(microsecond=nanos // 1000)
    except (OverflowError, OSError, ValueError):
        return f"{seconds} s {nanos} ns after 1970-01-01T00:00:00Z (out of range)"
    return moment.isoformat().replace("+00:00", "Z")


@dataclass(frozen=True, slots=True, kw_only=True)
class _Gap:
    """Sequence numbers missing before a record, held back for one record."""

    problem: Problem
    first: int
    last: int


class _Order:
    """Sequence numbers (from 1, one more each record) and times (never earlier)."""

    def __init__(self) -> None:
        self.high = 0
        self.previous = 0
        self.numbered = False
        self.held: _Gap | None = None
        self.time: tuple[tuple[int, int], int] | None = None
        #: Records without a sequence number, and without a time (written by older writers).
        self.unnumbered = 0
        self.untimed = 0

    def check(self, number: int, record: round_pb2.RoundRecord, *, segment: bool) -> list[Problem]:
        """The order problems known once this record is read (a held gap's may come first)."""
        problem = functools.partial(Problem, record=number, round_id=record.round_id)
        found: list[Problem] = []
        sequence = record.sequence
        held, self.held = self.held, None
        if held is not None and not (held.first == held.last == sequence):
            found.append(held.problem)
        if held is not None and held.first == held.last == sequence:
            # The one number missing comes right after: two records swapped, one problem.
            found.append(
                problem(
                    kind="sequence-reversal",
                    message=f"sequence {sequence} comes after sequence {self.high}",
                )
            )
            self.previous = sequence
        elif not sequence:
            self.unnumbered += 1
            if self.numbered:
                found.append(
                    problem(
                        kind="unnumbered",
                        message="the record has no sequence number, and records before it have",
                    )
                )
        else:
            if not self.numbered and segment:
                # A log that continues an earlier one starts where that one stopped.
                self.high = sequence - 1
            if sequence > self.high + 1:
                missing = sequence - self.high - 1
                self.held = _Gap(
                    problem=problem(
                        kind="sequence-gap",
                        message=(
                            f"sequence {sequence} follows sequence {self.high}: "
                            f"{plural(missing, 'record')} missing before it"
                        ),
                    ),
                    first=self.high + 1,
                    last=sequence - 1,
                )
            elif sequence == self.previous:
                found.append(problem(kind="sequence-repeat", message=f"sequence {sequence} again"))
            elif sequence <= self.high:
                found.append(
                    problem(
                        kind="sequence-reversal",
                        message=f"sequence {sequence} comes after sequence {self.high}",
                    )
                )
            self.previous = sequence
            self.high = max(self.high, sequence)
            self.numbered = True
        found.extend(self._time(number, record))
        return found

    def _time(self, number: int, record: round_pb2.RoundRecord) -> list[Problem]:
        if not record.HasField("recorded_at"):
            self.untimed += 1
            if self.time is None:
                return []
            return [
                Problem(
                    record=number,
                    round_id=record.round_id,
                    kind="untimed",
                    message="the record has no time, and records before it have",
                )
            ]
        stamp = (record.recorded_at.seconds, record.recorded_at.nanos)
        before, self.time = self.time, (stamp, number)
        if before is None or stamp >= before[0]:
            return []
        return [
            Problem(
                record=number,
                round_id=record.round_id,
                kind="time-backwards",
                message=(
                    f"recorded at {_when(stamp)}, before record {before[1]} ({_when(before[0])})"
                ),
            )
        ]

    def finish(self) -> list[Problem]:
        """A gap still held at the end of the log."""
        held, self.held = self.held, None
        return [held.problem] if held is not None else []


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


class _RoundIds:
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


#: Restarts the report lists one by one; past that, only their count.
MAX_RESTARTS_LISTED = 1000


class _Seals:
    """Signed checkpoints: each must seal the records before it; with keys, each must verify.

    A closing checkpoint followed by more entries is a restart of the log's writer; each
    checkpoint counts the restarts before it (``restarts``), so a closing checkpoint removed
    from the middle of the log, or copied into it, is reported.
    """

    def __init__(self, keys: Mapping[bytes, Ed25519PublicKey]) -> None:
        self.keys = keys
        self.last: tuple[int, bytes] = (0, b"")
        self.checkpoints = 0
        self.valid = 0
        self.unsealed = 0
        self.first_unsealed = 0
        self.last_entry = 0
        self.closed = False
        #: The closing checkpoint just read (entry number, checkpoint), until an entry follows.
        self.closing: tuple[int, round_pb2.AuditCheckpoint] | None = None
        #: Restarts seen; the count a checkpoint of an older writer (0) started again from.
        self.restart_count = 0
        self.restart_base = 0
        self.restarts: list[dict[str, Any]] = []
        #: The signatures of the checkpoints since the last record: a copy is a duplicate.
        self.since_record: set[bytes] = set()

    def entry(self, number: int) -> None:
        """Any entry: a log ends closed only if its last entry is a closing checkpoint."""
        self.last_entry = number
        self.closed = False

    def _restart(self, number: int) -> None:
        """An entry after a closing checkpoint: the writer restarted on the log."""
        closing, self.closing = self.closing, None
        if closing is None:
            return
        self.restart_count += 1
        if len(self.restarts) < MAX_RESTARTS_LISTED:
            at, checkpoint = closing
            self.restarts.append(
                {
                    "record": number,
                    "closing_checkpoint": at,
                    "after_sequence": checkpoint.sequence,
                    "closed_at": _when((checkpoint.signed_at.seconds, checkpoint.signed_at.nanos)),
                }
            )

    def record(self, number: int, record: round_pb2.RoundRecord, own: bytes) -> None:
        """A record: the head the next checkpoint must seal."""
        self._restart(number)
        self.since_record.clear()
        self.last = (record.sequence, own)
        if not self.unsealed:
            self.first_unsealed = number
        self.unsealed += 1

    def checkpoint(self, number: int, checkpoint: round_pb2.AuditCheckpoint) -> list[Problem]:
        """A checkpoint's problems: it seals other records, is unsigned, copied, or miscounts.

        Miscounts: its ``restarts`` differs from the restarts the log shows before it.
        """
        self.checkpoints += 1
        self.closed = checkpoint.closing
        problem = functools.partial(Problem, record=number, round_id="")
        signature = bytes(checkpoint.signature)
        if signature in self.since_record:
            return [
                problem(
                    kind="checkpoint-duplicate",
                    message="the same checkpoint as one just before it, again: a copy",
                )
            ]
        self.since_record.add(signature)
        self._restart(number)
        sequence, head = self.last
        if checkpoint.sequence != sequence or bytes(checkpoint.chain_head_sha256) != head:
            return [
                problem(
                    kind="checkpoint-mismatch",
                    message=(
                        f"the checkpoint seals sequence {checkpoint.sequence} "
                        f"(head {bytes(checkpoint.chain_head_sha256).hex()[:16] or 'none'}), but "
                        f"the record before it is sequence {sequence} (head "
                        f"{head.hex()[:16] or 'none'}): records before it were changed, added, "
                        "removed or re-chained after it was signed"
                    ),
                )
            ]
        if self.keys:
            error = checkpoint_error(checkpoint, self.keys)
            if error:
                return [problem(kind="checkpoint-invalid", message=error)]
            self.valid += 1
            self.unsealed = 0
        if checkpoint.closing:
            self.closing = (number, checkpoint)
        shown = self.restart_count - self.restart_base
        if not checkpoint.restarts:
            self.restart_base = self.restart_count  # an older writer's, or the first run's
        elif checkpoint.restarts != shown:
            return [
                problem(
                    kind="restart-mismatch",
                    message=(
                        f"the checkpoint counts {plural(checkpoint.restarts, 'restart')} of the log's "
                        f"writer before it, and the log shows {shown}: a closing checkpoint "
                        "was removed from the log, or copied into it"
                    ),
                )
            ]
        return []

    def finish(self) -> list[Problem]:
        """With keys: records no valid checkpoint seals, and a log that does not end closed."""
        if not self.keys:
            return []
        found = []
        if self.unsealed:
            found.append(
                Problem(
                    record=self.first_unsealed,
                    round_id="",
                    kind="unsealed",
                    message=(
                        f"{plural(self.unsealed, 'record')} from record {self.first_unsealed} "
                        f"on {'comes' if self.unsealed == 1 else 'come'} after the last valid "
                        "checkpoint: nothing proves "
                        f"{'it is' if self.unsealed == 1 else 'they are'} as written"
                    ),
                )
            )
        if not self.closed:
            found.append(
                Problem(
                    record=self.last_entry,
                    round_id="",
                    kind="truncated",
                    message=(
                        "the log does not end with a closing checkpoint: it was cut off, or "
                        "its writer stopped without closing it"
                    ),
                )
            )
        return found


# --- the stream, in the main process --------------------------------------------------------


@dataclass(slots=True)
class Totals:
    """Money and counts, per currency and per profile; unreplayable money is kept, unverified."""

    rounds: int = 0
    by_currency: dict[str, dict[str, int]] = field(default_factory=dict)
    by_profile: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    unverified: int = 0

    def _money(self, currency: str) -> dict[str, int]:
        return self.by_currency.setdefault(
            currency,
            {
                "staked": 0,
                "paid": 0,
                "expected_paid": 0,
                "difference": 0,
                "unverified_staked": 0,
                "unverified_paid": 0,
            },
        )

    def add(self, result: RecordResult) -> None:
        """Count one round: the rules' payout where known, else its money as unverified."""
        self.rounds += 1
        self.by_profile[result.profile_id] += 1
        verified = result.expected_paid is not None
        for currency, staked, paid in result.money:
            money = self._money(currency)
            money["staked"] += staked
            money["paid"] += paid
            if verified:
                money["difference"] += paid
            else:
                money["unverified_staked"] += staked
                money["unverified_paid"] += paid
        if result.expected_paid is None:
            self.unverified += 1
        else:
            money = self._money(result.currency)
            money["expected_paid"] += result.expected_paid
            money["difference"] -= result.expected_paid

    def merge(self, other: Totals) -> None:
        """Add another part of the log's totals (a shard's)."""
        self.rounds += other.rounds
        self.unverified += other.unverified
        for profile_id, count in other.by_profile.items():
            self.by_profile[profile_id] += count
        for currency, values in other.by_currency.items():
            money = self._money(currency)
            for key, value in values.items():
                money[key] += value


class _Spool:
    """Items spooled to a temporary file, so memory stays constant; the first few as text."""

    def __init__(self, keep: int) -> None:
        self.handle: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - closed in drain
        self.count = 0
        self.keep = keep
        self.first: list[str] = []

    def add(self, item: dict[str, Any], line: str) -> None:
        self.handle.write(json.dumps(item, sort_keys=True) + "\n")
        self.count += 1
        if len(self.first) < self.keep:
            self.first.append(line)

    def drain(self) -> Iterator[str]:
        self.handle.seek(0)
        for line in self.handle:
            yield line.rstrip("\n")
        self.handle.close()


#: How much of one value from the log a console line shows; the report holds it whole.
BRIEF = 120


def brief(text: str, limit: int = BRIEF) -> str:
    """``text`` cut to ``limit`` characters, saying how many more there are."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def _where(number: int, round_id: str) -> str:
    return f"record {number} ({brief(round_id)})" if round_id else f"record {number}"


class _Spools:
    """Every list of the report, each in its spool, in the report's order."""

    def __init__(self, keep: int) -> None:
        self.chain = _Spool(keep)
        self.log = _Spool(keep)
        self.discrepancies = _Spool(keep)
        self.malformed = _Spool(keep)
        self.unreplayable = _Spool(keep)
        self.kinds: defaultdict[str, int] = defaultdict(int)

    def lists(self) -> tuple[tuple[str, _Spool], ...]:
        return (
            ("chain_problems", self.chain),
            ("log_problems", self.log),
            ("discrepancies", self.discrepancies),
            ("malformed", self.malformed),
            ("unreplayable", self.unreplayable),
        )

    def problem(self, problem: Problem) -> None:
        spool = self.chain if problem.kind in CHAIN_KINDS else self.log
        self.kinds[problem.kind] += 1
        spool.add(
            {
                "record": problem.record,
                "round_id": problem.round_id,
                "kind": problem.kind,
                "message": problem.message,
            },
            f"{_where(problem.record, problem.round_id)}: {problem.kind}: "
            f"{brief(problem.message, 4 * BRIEF)}",
        )

    def finding(self, finding: Finding) -> None:
        self.kinds[finding.kind] += 1
        item: dict[str, Any] = {
            "record": finding.record,
            "round_id": finding.round_id,
            "table_id": finding.table_id,
            "kind": finding.kind,
            "clause": finding.clause,
            "path": finding.path,
            "expected": finding.expected,
            "actual": finding.actual,
            "message": finding.message,
        }
        expected = amount_of(finding.path, finding.expected, finding.currency)
        actual = amount_of(finding.path, finding.actual, finding.currency)
        if expected or actual:
            # An amount: the values stay in minor units, and read in their currency too.
            item.update(currency=finding.currency, expected_amount=expected, actual_amount=actual)
        self.discrepancies.add(
            item,
            f"{_where(finding.record, finding.round_id)}: {finding.clause} "
            f"{brief(finding.path)}: expected "
            f"{brief(value_text(finding.path, finding.expected, finding.currency))}, "
            f"got {brief(value_text(finding.path, finding.actual, finding.currency))}",
        )

    def unreadable(self, item: dict[str, Any]) -> None:
        self.kinds["malformed"] += 1
        self.malformed.add(
            item,
            f"record {item['record']} (byte {item['offset']}): {brief(item['reason'], 3 * BRIEF)}",
        )

    def unreplayable_record(self, result: RecordResult) -> None:
        self.kinds["unreplayable"] += 1
        paid = ", ".join(money_text(paid, currency) for currency, _, paid in result.money)
        paid = paid or "nothing"
        self.unreplayable.add(
            {
                "record": result.record,
                "round_id": result.round_id,
                "table_id": result.table_id,
                "reason": result.unreplayable,
            },
            f"{_where(result.record, result.round_id)}: {brief(result.unreplayable, 3 * BRIEF)} "
            f"(paid {brief(paid)}: counted as unverified)",
        )

    def close(self) -> None:
        for _, spool in self.lists():
            spool.handle.close()


def _pockets(texts: Iterable[str]) -> list[int]:
    """Pocket numbers from their text; anything else is left to the replay to report."""
    found = []
    for text in texts:
        with contextlib.suppress(InvalidBetLayoutError):
            found.append(roulette.parse_pocket(text, roulette.Wheel.AMERICAN))
    return found


#: Spins a table remembers behind its latest: how late a round may be settled and still be
#: checked against the boards of the rounds dealt after it.
SPIN_WINDOW = 4096


@dataclass(slots=True)
class _Table:
    """One roulette table's rounds by place in deal order, and what boards showed there."""

    #: Place -> (pocket, record, the table after the spin): each round's own spin.
    spins: dict[int, tuple[int, int, TableHistory]] = field(default_factory=dict)
    #: Place -> (pocket, record): what the first board to show that place showed.
    shown: dict[int, tuple[int, int]] = field(default_factory=dict)
    high: int = 0


class _Spins:
    """Roulette boards checked in deal order (``RoundRecord.table_round``), not log order.

    The board a round sees is its table's board when it is dealt, and a log is written as
    rounds are settled. A record whose round before it in deal order is in the log is
    replayed on the table as that round left it (a difference is a finding of the replay,
    C.rou.history); otherwise it is replayed on its own board, and that board's results are
    checked against every spin and board of the table known so far, as later spins are
    against it (``board`` problems).
    """

    def __init__(self, max_tables: int = 100_000) -> None:
        self.tables: OrderedDict[tuple[str, str], _Table] = OrderedDict()
        self.max_tables = max_tables

    def check(
        self, number: int, record: round_pb2.RoundRecord, rules: RouletteRules
    ) -> tuple[TableHistory | None, list[Problem]]:
        """The table to replay the record on (None: its own board), and the problems found."""
        key = (record.profile_id, record.table_id)
        table = self.tables.pop(key, None) or _Table()
        self.tables[key] = table
        while len(self.tables) > self.max_tables:
            self.tables.popitem(last=False)
        own = _pockets([record.pocket])
        if not own:
            return None, []  # the replay reports the pocket
        spin, place, length = own[0], record.table_round, rules.history_length
        problem = functools.partial(Problem, record=number, round_id=record.round_id, kind="board")
        name = record.table_id
        found: list[Problem] = []
        if place in table.spins:
            found.append(
                problem(
                    message=f"table {name}: round {place} of the table again (record "
                    f"{table.spins[place][1]} was dealt as that round)"
                )
            )
        board: TableHistory | None
        if place - 1 in table.spins:
            board = table.spins[place - 1][2]
            before = board
        elif place == 1:
            board = before = TableHistory.new(name)
        else:
            board = None
            shown = _pockets(record.final_state.roulette.history)
            found.extend(self._shown(table, number, record, shown, length))
            before = TableHistory(table_id=name, results=tuple(shown[:-1][-length:]))
        claimed = table.shown.get(place)
        if claimed is not None and claimed[0] != spin:
            found.append(
                problem(
                    message=f"table {name}: round {place} of the table spun "
                    f"{roulette.pocket_text(spin)}; the board of record {claimed[1]} shows "
                    f"{roulette.pocket_text(claimed[0])}"
                )
            )
        table.spins[place] = (spin, number, _after_spin(rules, before, spin, record))
        table.high = max(table.high, place)
        if len(table.spins) + len(table.shown) > 2 * (length + SPIN_WINDOW):
            floor = table.high - length - SPIN_WINDOW
            table.spins = {q: v for q, v in table.spins.items() if q > floor}
            table.shown = {q: v for q, v in table.shown.items() if q > floor}
        return board, found

    @staticmethod
    def _shown(
        table: _Table, number: int, record: round_pb2.RoundRecord, shown: list[int], length: int
    ) -> list[Problem]:
        """A record's own board against its place and the table's rounds known so far."""
        place, name = record.table_round, record.table_id
        problem = functools.partial(Problem, record=number, round_id=record.round_id, kind="board")
        found = []
        if len(shown) != min(length, place):
            found.append(
                problem(
                    message=f"table {name}: the board shows {plural(len(shown), 'result')}; after "
                    f"round {place} of the table it shows {min(length, place)}"
                )
            )
        first = place - len(shown) + 1
        for offset, pocket in enumerate(shown[:-1]):
            at = first + offset
            spun = table.spins.get(at)
            known = (spun[0], spun[1]) if spun is not None else table.shown.get(at)
            if known is not None and known[0] != pocket:
                found.append(
                    problem(
                        message=f"table {name}: the board shows {roulette.pocket_text(pocket)} "
                        f"for round {at} of the table; record {known[1]} shows "
                        f"{roulette.pocket_text(known[0])}"
                    )
                )
                break
            table.shown.setdefault(at, (pocket, number))
        return found


class _Reread:
    """The record at an offset of the log, read again: a round id met twice needs it."""

    def __init__(self, path: Path, fmt: str) -> None:
        self.path = path
        self.fmt = fmt
        self.handle: IO[bytes] | None = None

    def __call__(self, offset: int) -> round_pb2.RoundRecord | None:
        if self.handle is None:
            self.handle = self.path.open("rb")
        return entry_at(self.handle, self.fmt, offset).record

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()


class _LogChecks:
    """Everything checked in the log's order, by the main process, for every executor."""

    def __init__(
        self,
        keys: Mapping[bytes, Ed25519PublicKey],
        spools: _Spools,
        earlier: Callable[[int], round_pb2.RoundRecord | None],
    ) -> None:
        self.chain = _Chain()
        self.order = _Order()
        self.round_ids = _RoundIds(earlier)
        self.seals = _Seals(keys)
        self.spools = spools
        #: Entries read; records among them; what a Croupier log holds (a record with a round
        #: id, a checkpoint), for bytes of another kind may decode as an empty record.
        self.entries = 0
        self.records = 0
        self.recognised = 0
        self.segment: bool | None = None

    def report(self, problems: Iterable[Problem]) -> None:
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


def _shards(
    entries: Iterable[Entry],
    *,
    shard_size: int,
    checks: _LogChecks,
    table_rules: Callable[[str], RouletteRules | None],
) -> Iterator[tuple[list[tuple[int, bytes, TableHistory | None]], list[dict[str, Any]]]]:
    """Shards of records to replay, each with the entries before its end that could not be read.

    The unreadable entries travel with their shard, so that the report lists malformed
    records in log order whatever the number of workers and the shard size.
    """
    boards = roulette.Boards(max_tables=100_000)
    spins = _Spins()
    shard: list[tuple[int, bytes, TableHistory | None]] = []
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
                earlier = _pockets(record.final_state.roulette.history[:-1])[-length:]
                before = TableHistory(table_id=record.table_id, results=tuple(earlier))
            after = before or TableHistory.new(record.table_id)
            for pocket in _pockets([record.pocket]):
                after = _after_spin(rules, after, pocket, record)
            boards.put(record.profile_id, after)
        shard.append((number, data, board))
        if len(shard) + len(unreadable) >= shard_size:
            yield shard, unreadable
            shard, unreadable = [], []
    checks.finish()
    if shard or unreadable:
        yield shard, unreadable


def _record_number(item: RecordResult | dict[str, Any]) -> int:
    return int(item["record"]) if isinstance(item, dict) else item.record


def _after_spin(
    rules: RouletteRules, before: TableHistory, pocket: int, record: round_pb2.RoundRecord
) -> TableHistory:
    """The table after a record's spin: its board, and its prison where the profile has one.

    The prison follows from the record's seats and pocket alone (``roulette.next_prison``), so
    the log's order carries it like the board; seats that cannot be read leave it as it was
    (the replay reports the record).
    """
    after = before.after(pocket, rules.history_length)
    if not rules.en_prison:
        return after
    try:
        seats = [
            roulette.RouletteSeat(
                balance=seat.balance,
                bets=tuple(w for w in seat.wagers if isinstance(w, roulette.RouletteBet)),
            )
            for seat in convert.seats_from(record.seats, record.currency_code)
        ]
    except OracleError:
        return after
    return after.imprisoning(roulette.next_prison(rules, before.prison, pocket, seats))


def _table_rules(lab_files: Sequence[str]) -> Callable[[str], RouletteRules | None]:
    cache: dict[str, RouletteRules | None] = {}

    def rules(profile_id: str) -> RouletteRules | None:
        if profile_id not in cache:
            try:
                profile = _profile(profile_id, lab_files)
            except OracleError:
                cache[profile_id] = None
            else:
                cache[profile_id] = (
                    roulette_rules(profile) if profile.game is Game.ROULETTE else None
                )
        return cache[profile_id]

    return rules


class _Executor:
    """Runs shards on a process pool, on Dask, or in this process."""

    def __init__(self, workers: int, dask_address: str | None) -> None:
        self.pool: ProcessPoolExecutor | None = None
        self.dask: Any = None
        self.stack = contextlib.ExitStack()
        if dask_address is not None:
            # SchedulerError (a RuntimeError) when Dask is missing or the cluster unreachable.
            self.dask = self.stack.enter_context(dask_client(dask_address))
        elif workers > 1:
            self.pool = ProcessPoolExecutor(max_workers=workers)
        self.in_flight = max(2, 2 * workers)

    def submit(
        self, shard: list[tuple[int, bytes, TableHistory | None]], lab_files: Sequence[str]
    ) -> Future[ShardResult] | Any:
        if self.dask is not None:
            return self.dask.submit(verify_shard, shard, tuple(lab_files), pure=False)
        if self.pool is not None:
            return self.pool.submit(verify_shard, shard, tuple(lab_files))
        done: Future[ShardResult] = Future()
        done.set_result(verify_shard(shard, lab_files))
        return done

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
        self.stack.close()


#: What a log proves about re-chaining and truncation, by what the audit could check.
UNSIGNED = (
    "unsigned: the log holds no signed checkpoint. Its hash chain shows a record changed, "
    "removed or reordered without re-chaining, but anyone can re-chain edited records or cut "
    "records off the end of the log: re-chaining and truncation cannot be detected without a key."
)
NOT_CHECKED = (
    "not checked: the log holds {checkpoints}, but no public key was "
    "given (--public-key): re-chaining and truncation cannot be detected without a key."
)
CHECKED = "checked: {checkpoints}, {valid} valid under {keys}."
SEALED = (
    "sealed: every record is sealed by a checkpoint signed with {keys}, and the log "
    "ends with its closing checkpoint: no record was changed, added, removed, re-chained or "
    "cut off the end since it was signed."
)
RESTARTS = (
    "restarts: the log's writer restarted {count} on it, each after a closing checkpoint: {where}."
)
LEGACY = (
    "legacy: {count} no sequence number or no time (an older writer): their "
    "order and completeness rest on the hash chain alone."
)


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditSummary:
    """What the console shows; the full detail is in the report."""

    verdict: str
    records: int
    totals: Totals
    kinds: dict[str, int]
    counts: dict[str, int]
    statements: tuple[str, ...]
    first: dict[str, tuple[str, ...]]
    report: dict[str, Any]
    #: Returns and fairness: statistics that flag, never findings (the verdict is the rules').
    statistics: Assessment | None = None

    @property
    def clean(self) -> bool:
        """Records were verified, and nothing was found."""
        return self.verdict == "clean"

    @property
    def discrepancies(self) -> int:
        """Discrepancies of every kind: rules, totals, mixed currency."""
        return self.counts["discrepancies"]

    @property
    def malformed(self) -> int:
        """Entries that are neither a record nor a checkpoint."""
        return self.counts["malformed"]

    @property
    def chain_problems(self) -> int:
        """Broken, missing or reordered links of the hash chain."""
        return self.counts["chain"]


def _statements(checks: _LogChecks, key_ids: Sequence[str]) -> tuple[str, ...]:
    seals, order = checks.seals, checks.order
    keys = f"{'key' if len(key_ids) == 1 else 'keys'} {', '.join(key_ids)}"
    if key_ids:
        # Sealed means every record is as written: no entry unreadable, no link or order off.
        spools = checks.spools
        problems = any(kind in spools.kinds for kind in SEAL_KINDS) or bool(
            spools.chain.count or spools.log.count or spools.malformed.count
        )
        signing = (
            CHECKED.format(
                checkpoints=plural(seals.checkpoints, "checkpoint"), valid=seals.valid, keys=keys
            )
            if problems
            else SEALED.format(keys=keys)
        )
    elif seals.checkpoints:
        signing = NOT_CHECKED.format(checkpoints=plural(seals.checkpoints, "signed checkpoint"))
    else:
        signing = UNSIGNED
    legacy = max(order.unnumbered, order.untimed)
    restarts: tuple[str, ...] = ()
    if seals.restart_count:
        where = ", ".join(
            f"after sequence {r['after_sequence']} (record {r['record']})"
            for r in seals.restarts[:5]
        ) + (", ..." if seals.restart_count > 5 else "")
        restarts = (RESTARTS.format(count=plural(seals.restart_count, "time"), where=where),)
    carry = "carries" if legacy == 1 else "carry"
    legacies = (LEGACY.format(count=f"{plural(legacy, 'record')} {carry}"),) if legacy else ()
    return (signing, *restarts, *legacies)


def audit_log(
    path: Path,
    *,
    workers: int | None = None,
    dask_address: str | None = None,
    shard_size: int = SHARD_SIZE,
    lab_files: Sequence[str] = (),
    log_format: str | None = None,
    public_keys: Sequence[Ed25519PublicKey] = (),
    report_path: Path | None = None,
    progress: Callable[[int], None] | None = None,
    keep_first: int = 20,
    band: float = BAND,
    p_threshold: float = P_THRESHOLD,
    options: Mapping[str, Any] | None = None,
) -> AuditSummary:
    """Verify a whole log; write the JSON report if asked; return the summary.

    The report names the log (file name, size, SHA-256), Croupier's version and the
    ``options`` the audit ran with: what a regulator files says which log was checked, by
    which tool, how.

    ``public_keys`` check the signed checkpoints; without them the log's signatures are not
    checked, and the summary says what that leaves unproven. A return whose z-score is
    beyond ``band``, or a fairness test whose p-value is under ``p_threshold``, is flagged.
    """
    fmt = log_format or detect_format(path)
    workers = workers or os.cpu_count() or 1
    keys = {key_id(key): key for key in public_keys}
    spools = _Spools(keep_first)
    again = _Reread(path, fmt)
    checks = _LogChecks(keys, spools, again)
    totals = Totals()
    tally = Tally()
    executor = _Executor(workers, dask_address)
    pending: deque[Any] = deque()

    def collect(future: Any, unreadable: list[dict[str, Any]]) -> None:
        done: ShardResult = future.result()
        totals.merge(done.totals)
        tally.merge(done.tally)
        # Both lists are in log order; merged, the report lists everything in log order.
        merged: list[RecordResult | dict[str, Any]] = [*done.notable, *unreadable]
        merged.sort(key=_record_number)
        for result in merged:
            if isinstance(result, dict):
                spools.unreadable(result)
                continue
            for finding in result.findings:
                spools.finding(finding)
            if result.unreplayable:
                spools.unreplayable_record(result)
        if progress is not None:
            progress(done.checked + len(unreadable))

    try:
        shards = _shards(
            read_log(path, fmt),
            shard_size=shard_size,
            checks=checks,
            table_rules=_table_rules(lab_files),
        )
        for shard, unreadable in shards:
            pending.append((executor.submit(shard, lab_files), unreadable))
            while len(pending) >= executor.in_flight:
                collect(*pending.popleft())
        while pending:
            collect(*pending.popleft())
    except BaseException:
        spools.close()
        raise
    finally:
        executor.close()
        again.close()

    summary = _summarize(path.name, fmt, checks, totals, sorted(k.hex()[:16] for k in keys))
    summary.report.update(
        log_path=str(path),
        log_size=path.stat().st_size,
        log_sha256=file_digest(path),
        croupier_version=oracle.__version__,
        options=dict(options or {}),
    )
    statistics = assess(
        tally,
        lambda profile_id: _profile(profile_id, lab_files),
        band=band,
        p_threshold=p_threshold,
    )
    summary.report.update(statistics.as_json())
    summary = dataclasses.replace(summary, statistics=statistics)
    if report_path is not None:
        _write_report(report_path, summary.report, spools)
    else:
        spools.close()
    return summary


def _summarize(
    name: str, fmt: str, checks: _LogChecks, totals: Totals, key_ids: list[str]
) -> AuditSummary:
    """The verdict, the statements and the report's head, once every shard is in."""
    spools = checks.spools
    counts = {
        "discrepancies": spools.discrepancies.count,
        "malformed": spools.malformed.count,
        "unreplayable": spools.unreplayable.count,
        "chain": spools.chain.count,
        "log": spools.log.count,
    }
    if not checks.entries:
        verdict = "empty"
    elif not checks.recognised:
        verdict = "not an audit log"
    elif any(counts.values()):
        verdict = "not clean"
    elif checks.records == counts["malformed"]:
        verdict = "empty"  # checkpoints, and not one round
    else:
        verdict = "clean"
    statements = _statements(checks, key_ids)
    money = {currency: dict(values) for currency, values in sorted(totals.by_currency.items())}
    report: dict[str, Any] = {
        "log": name,
        "format": fmt,
        "verdict": verdict,
        "clean": verdict == "clean",
        "records": checks.records,
        "checkpoints": checks.seals.checkpoints,
        "rounds": totals.rounds,
        "totals": money,
        "profiles": dict(sorted(totals.by_profile.items())),
        "counts": counts,
        "findings": dict(sorted(spools.kinds.items())),
        "signing": {
            "public_keys": key_ids,
            "checkpoints": checks.seals.checkpoints,
            "valid_checkpoints": checks.seals.valid if key_ids else None,
            "statement": statements[0],
        },
        "statements": list(statements),
        "restarts": {"count": checks.seals.restart_count, "listed": checks.seals.restarts},
    }
    return AuditSummary(
        verdict=verdict,
        records=checks.records,
        totals=totals,
        kinds=dict(sorted(spools.kinds.items())),
        counts=counts,
        statements=statements,
        first={key: tuple(spool.first) for key, spool in spools.lists()},
        report=report,
    )


def _write_report(path: Path, head: dict[str, Any], spools: _Spools) -> None:
    """One JSON document, streamed so that memory stays constant however many findings."""
    with path.open("w", encoding="utf-8") as out:
        body = json.dumps(head, sort_keys=True, indent=1)
        out.write(body[: body.rindex("}")].rstrip())
        for key, spool in spools.lists():
            out.write(f',\n "{key}": [\n')
            for index, line in enumerate(spool.drain()):
                out.write(("  " if index == 0 else ",\n  ") + line)
            out.write("\n ]")
        out.write("\n}\n")


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex, read in constant memory."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# --- recall ---------------------------------------------------------------------------------


def recall(
    path: Path,
    table_id: str,
    last: int,
    log_format: str | None = None,
    *,
    round_id: str = "",
) -> list[round_pb2.RoundRecord]:
    """The last ``last`` rounds of a table (or of that id), oldest first, in constant memory.

    ``round_id`` keeps only the records of that round (of ``table_id`` too, when given).
    """
    kept: deque[round_pb2.RoundRecord] = deque(maxlen=last)
    for entry in read_log(path, log_format):
        record = entry.record
        if record is None or (table_id and record.table_id != table_id):
            continue
        if round_id and record.round_id != round_id:
            continue
        kept.append(record)
    return list(kept)
