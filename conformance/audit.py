"""Audit replay: verify a production log of RoundRecords against the published rules.

The log is read as a stream. The main process checks the hash chain and each
roulette table's board (both need the log's order), and cuts the records into
coarse shards that workers replay through the oracle: a process pool by
default, or a Dask cluster. Shard results are merged in log order, so the
report is the same whatever the number of workers.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import tempfile
from collections import OrderedDict, defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from croupier.v1 import round_pb2

from clients.audit import Entry, detect_format, link, read_log
from oracle import roulette
from oracle.clauses import Game
from oracle.errors import InvalidBetLayoutError, OracleError
from oracle.profile import Profile, Profiles
from oracle.roulette import TableHistory
from oracle.rounds import roulette_rules
from oracle.service import records

SHARD_SIZE = 2000
#: How many recent records' links are remembered to tell a reordered record from a missing one.
LINK_WINDOW = 64


# --- one shard, in a worker -------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One discrepancy of one record."""

    record: int
    round_id: str
    clause: str
    path: str
    expected: str
    actual: str
    message: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordResult:
    """What replaying one record found."""

    record: int
    round_id: str
    profile_id: str
    currency: str
    staked: int
    paid: int
    expected_paid: int | None
    findings: tuple[Finding, ...] = ()
    malformed: str = ""


@functools.cache
def _profiles(lab_files: tuple[str, ...]) -> Profiles:
    """The registry of a run, built once per process (workers each build their own)."""
    return Profiles.load(lab_files)


def _profile(profile_id: str, lab_files: Sequence[str]) -> Profile:
    return _profiles(tuple(lab_files)).get(profile_id)


def verify_one(
    number: int, data: bytes, board: tuple[int, ...] | None, lab_files: Sequence[str]
) -> RecordResult:
    """Replay one serialized record; ``board`` is its table's results before it (roulette)."""
    record = round_pb2.RoundRecord()
    record.ParseFromString(data)
    lines = record.settlement.lines
    result = functools.partial(
        RecordResult,
        record=number,
        round_id=record.round_id,
        profile_id=record.profile_id,
        currency=record.currency_code,
        staked=sum(line.stake.minor_units for line in lines),
        paid=sum(line.returned.minor_units for line in lines),
    )
    try:
        profile = _profile(record.profile_id, lab_files)
        history = (
            TableHistory(table_id=record.table_id, results=board) if board is not None else None
        )
        verdict = records.verify(profile, record, history)
    except OracleError as exc:
        return result(expected_paid=None, malformed=f"{exc.reason}: {exc}")
    findings = tuple(
        Finding(
            record=number,
            round_id=record.round_id,
            clause=d.clause,
            path=d.path,
            expected=d.expected,
            actual=d.actual,
            message=d.message,
        )
        for d in verdict.discrepancies
    )
    expected_paid = (
        sum(line.payout.returned for line in verdict.expected) if verdict.expected else None
    )
    return result(expected_paid=expected_paid, findings=findings)


def verify_shard(
    items: Sequence[tuple[int, bytes, tuple[int, ...] | None]], lab_files: Sequence[str] = ()
) -> list[RecordResult]:
    """Replay a shard of records (picklable, for process pools and Dask)."""
    return [verify_one(number, data, board, lab_files) for number, data, board in items]


# --- the stream, in the main process --------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ChainProblem:
    """A broken, missing or reordered link of the hash chain."""

    record: int
    round_id: str
    kind: str
    message: str


@dataclass(slots=True)
class Totals:
    """Money and counts, per currency and per profile."""

    rounds: int = 0
    by_currency: dict[str, dict[str, int]] = field(default_factory=dict)
    by_profile: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    unreplayable: int = 0

    def add(self, result: RecordResult) -> None:
        """Count one replayed record."""
        self.rounds += 1
        self.by_profile[result.profile_id] += 1
        money = self.by_currency.setdefault(
            result.currency, {"staked": 0, "paid": 0, "expected_paid": 0, "difference": 0}
        )
        money["staked"] += result.staked
        money["paid"] += result.paid
        if result.expected_paid is None:
            self.unreplayable += 1
        else:
            money["expected_paid"] += result.expected_paid
            money["difference"] += result.paid - result.expected_paid


@dataclass(frozen=True, slots=True, kw_only=True)
class _Held:
    """A record whose link matches no record read so far, held back for one record."""

    problem: ChainProblem
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
    ) -> tuple[ChainProblem | None, bool]:
        """The record's problem, if any, and whether its link matches no record read so far."""
        if not self.started:
            if not carried:
                return None, False
            return ChainProblem(
                record=number,
                round_id=record.round_id,
                kind="missing",
                message="the first record links to a previous one: the log does not start at its beginning",
            ), False
        if not carried:
            return ChainProblem(
                record=number,
                round_id=record.round_id,
                kind="broken",
                message="the record carries no link",
            ), False
        if carried == expected:
            return None, False
        earlier = self.recent.get(carried)
        if earlier is not None:
            return ChainProblem(
                record=number,
                round_id=record.round_id,
                kind="reordered",
                message=f"the record follows record {earlier} in the chain, not the record before it",
            ), False
        return ChainProblem(
            record=number,
            round_id=record.round_id,
            kind="broken",
            message=(
                "the link matches no record read so far: a record before it is missing, "
                "out of order, or the record before it was altered"
            ),
        ), True

    def check(self, number: int, record: round_pb2.RoundRecord) -> list[ChainProblem]:
        """The problems known once this record is read (a held record's may come with it)."""
        carried = bytes(record.previous_record_sha256)
        own = link(record)
        problems: list[ChainProblem] = []
        held, self.held = self.held, None
        if held is not None and own == held.carried:
            # The held record links to this one: the two are swapped.
            problems.append(
                ChainProblem(
                    record=held.problem.record,
                    round_id=held.problem.round_id,
                    kind="reordered",
                    message=f"swapped with record {number}: the record follows record {number} in the chain",
                )
            )
            if carried == held.before:
                problems.append(
                    ChainProblem(
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

    def finish(self) -> list[ChainProblem]:
        """The problem of a record still held at the end of the log."""
        held, self.held = self.held, None
        return [held.problem] if held is not None else []


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditSummary:
    """What the console shows; the full detail is in the report."""

    records: int
    totals: Totals
    discrepancies: int
    malformed: int
    chain_problems: int
    first: tuple[str, ...]
    report: dict[str, Any]

    @property
    def clean(self) -> bool:
        """No discrepancy, no malformed record, no broken link."""
        return not (self.discrepancies or self.malformed or self.chain_problems)


class _Spool:
    """Findings spooled to a temporary file, so memory stays constant."""

    def __init__(self) -> None:
        self.handle: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - closed in drain
        self.count = 0

    def add(self, item: dict[str, Any]) -> None:
        self.handle.write(json.dumps(item, sort_keys=True) + "\n")
        self.count += 1

    def drain(self) -> Iterator[str]:
        self.handle.seek(0)
        for line in self.handle:
            yield line.rstrip("\n")
        self.handle.close()


def _pockets(texts: Iterable[str]) -> list[int]:
    """Pocket numbers from their text; anything else is left to the replay to report."""
    found = []
    for text in texts:
        with contextlib.suppress(InvalidBetLayoutError):
            found.append(roulette.parse_pocket(text, roulette.Wheel.AMERICAN))
    return found


def _shards(
    entries: Iterable[Entry],
    *,
    shard_size: int,
    chain: _Chain,
    chain_spool: _Spool,
    board_length: Callable[[str], int | None],
    counter: list[int],
) -> Iterator[tuple[list[tuple[int, bytes, tuple[int, ...] | None]], list[dict[str, Any]]]]:
    """Shards of records to replay, each with the entries before its end that could not be read.

    The unreadable entries travel with their shard, so that the report lists malformed
    records in log order whatever the number of workers and the shard size.
    """
    boards = roulette.Boards(max_tables=100_000)
    segment: bool | None = None
    shard: list[tuple[int, bytes, tuple[int, ...] | None]] = []
    unreadable: list[dict[str, Any]] = []
    number = 0
    for entry in entries:
        number += 1
        counter[0] = number
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
        for problem in chain.check(number, record):
            _spool_chain(chain_spool, problem)
        if number == 1 or segment is None:
            # A log whose first record links to an earlier one is a segment: the boards of
            # tables already under way are unknown, not empty.
            segment = bool(record.previous_record_sha256)
        board: tuple[int, ...] | None = None
        length = board_length(record.profile_id) if record.pocket else None
        if length is not None:
            before = boards.get(record.profile_id, record.table_id)
            board = before.results if before is not None else ()
            if segment and before is None:
                # Trust the record's own board for what came before (its last spin is checked).
                board = None
                earlier = _pockets(record.final_state.roulette.history[:-1])[-length:]
                before = TableHistory(table_id=record.table_id, results=tuple(earlier))
            after = before or TableHistory.new(record.table_id)
            for pocket in _pockets([record.pocket]):
                after = after.after(pocket, length)
            boards.put(record.profile_id, after)
        shard.append((number, record.SerializeToString(deterministic=True), board))
        if len(shard) + len(unreadable) >= shard_size:
            yield shard, unreadable
            shard, unreadable = [], []
    for problem in chain.finish():
        _spool_chain(chain_spool, problem)
    if shard or unreadable:
        yield shard, unreadable


def _spool_chain(spool: _Spool, problem: ChainProblem) -> None:
    spool.add(
        {
            "record": problem.record,
            "round_id": problem.round_id,
            "kind": problem.kind,
            "message": problem.message,
        }
    )


def _record_number(item: RecordResult | dict[str, Any]) -> int:
    return int(item["record"]) if isinstance(item, dict) else item.record


def _board_length(lab_files: Sequence[str]) -> Callable[[str], int | None]:
    cache: dict[str, int | None] = {}

    def length(profile_id: str) -> int | None:
        if profile_id not in cache:
            try:
                profile = _profile(profile_id, lab_files)
            except OracleError:
                cache[profile_id] = None
            else:
                cache[profile_id] = (
                    roulette_rules(profile).history_length
                    if profile.game is Game.ROULETTE
                    else None
                )
        return cache[profile_id]

    return length


class _Executor:
    """Runs shards on a process pool, on Dask, or in this process."""

    def __init__(self, workers: int, dask_address: str | None) -> None:
        self.pool: ProcessPoolExecutor | None = None
        self.dask: Any = None
        if dask_address is not None:
            try:
                from distributed import Client  # noqa: PLC0415 - the optional extra
            except ImportError:
                raise RuntimeError(
                    "--dask needs the optional extra: pip install 'croupier[dask]'"
                ) from None
            client: Any = Client  # distributed's Client is untyped
            self.dask = client(dask_address)
        elif workers > 1:
            self.pool = ProcessPoolExecutor(max_workers=workers)
        self.in_flight = max(2, 2 * workers)

    def submit(
        self, shard: list[tuple[int, bytes, tuple[int, ...] | None]], lab_files: Sequence[str]
    ) -> Future[list[RecordResult]] | Any:
        if self.dask is not None:
            return self.dask.submit(verify_shard, shard, tuple(lab_files), pure=False)
        if self.pool is not None:
            return self.pool.submit(verify_shard, shard, tuple(lab_files))
        done: Future[list[RecordResult]] = Future()
        done.set_result(verify_shard(shard, lab_files))
        return done

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
        if self.dask is not None:
            self.dask.close()


def audit_log(
    path: Path,
    *,
    workers: int | None = None,
    dask_address: str | None = None,
    shard_size: int = SHARD_SIZE,
    lab_files: Sequence[str] = (),
    log_format: str | None = None,
    report_path: Path | None = None,
    progress: Callable[[int], None] | None = None,
    keep_first: int = 20,
) -> AuditSummary:
    """Verify a whole log; write the JSON report if asked; return the summary."""
    fmt = log_format or detect_format(path)
    workers = workers or os.cpu_count() or 1
    chain = _Chain()
    chain_spool, malformed_spool, findings_spool = _Spool(), _Spool(), _Spool()
    totals = Totals()
    first: list[str] = []
    executor = _Executor(workers, dask_address)
    pending: deque[Any] = deque()
    records = 0
    entries_read = [0]

    def collect(future: Any, unreadable: list[dict[str, Any]]) -> None:
        nonlocal records
        results: list[RecordResult] = future.result()
        # Both lists are in log order; merged, the report lists everything in log order.
        merged: list[RecordResult | dict[str, Any]] = [*results, *unreadable]
        merged.sort(key=_record_number)
        for result in merged:
            if isinstance(result, dict):
                malformed_spool.add(result)
                continue
            records += 1
            if result.malformed:
                malformed_spool.add(
                    {
                        "record": result.record,
                        "round_id": result.round_id,
                        "reason": result.malformed,
                    }
                )
                continue
            totals.add(result)
            for finding in result.findings:
                findings_spool.add(
                    {
                        "record": finding.record,
                        "round_id": finding.round_id,
                        "clause": finding.clause,
                        "path": finding.path,
                        "expected": finding.expected,
                        "actual": finding.actual,
                        "message": finding.message,
                    }
                )
                if len(first) < keep_first:
                    first.append(
                        f"record {finding.record} ({finding.round_id}): {finding.clause} {finding.path}: "
                        f"expected {finding.expected}, got {finding.actual}"
                    )
        if progress is not None:
            progress(len(results) + len(unreadable))

    try:
        entries = read_log(path, fmt)
        shards = _shards(
            entries,
            shard_size=shard_size,
            chain=chain,
            chain_spool=chain_spool,
            board_length=_board_length(lab_files),
            counter=entries_read,
        )
        for shard, unreadable in shards:
            pending.append((executor.submit(shard, lab_files), unreadable))
            while len(pending) >= executor.in_flight:
                collect(*pending.popleft())
        while pending:
            collect(*pending.popleft())
    finally:
        executor.close()

    money = {currency: dict(values) for currency, values in sorted(totals.by_currency.items())}
    report: dict[str, Any] = {
        "log": path.name,
        "format": fmt,
        "records": entries_read[0],
        "rounds": totals.rounds,
        "clean": not (findings_spool.count or malformed_spool.count or chain_spool.count),
        "totals": money,
        "profiles": dict(sorted(totals.by_profile.items())),
        "unreplayable": totals.unreplayable,
        "counts": {
            "discrepancies": findings_spool.count,
            "malformed": malformed_spool.count,
            "chain": chain_spool.count,
        },
    }
    summary = AuditSummary(
        records=entries_read[0],
        totals=totals,
        discrepancies=findings_spool.count,
        malformed=malformed_spool.count,
        chain_problems=chain_spool.count,
        first=tuple(first),
        report=report,
    )
    if report_path is not None:
        _write_report(report_path, report, findings_spool, malformed_spool, chain_spool)
    else:
        for spool in (findings_spool, malformed_spool, chain_spool):
            spool.handle.close()
    return summary


def _write_report(
    path: Path, head: dict[str, Any], findings: _Spool, malformed: _Spool, chain: _Spool
) -> None:
    """One JSON document, streamed so that memory stays constant however many findings."""
    with path.open("w", encoding="utf-8") as out:
        body = json.dumps(head, sort_keys=True, indent=1)
        out.write(body[: body.rindex("}")].rstrip() + ",\n")
        for key, spool, last in (
            ("chain", chain, False),
            ("discrepancies", findings, False),
            ("malformed", malformed, True),
        ):
            out.write(f' "{key}_problems": [\n' if key == "chain" else f' "{key}": [\n')
            for index, line in enumerate(spool.drain()):
                out.write(("  " if index == 0 else ",\n  ") + line)
            out.write("\n ]" + ("\n" if last else ",\n"))
        out.write("}\n")


# --- recall ---------------------------------------------------------------------------------


def recall(
    path: Path, table_id: str, last: int, log_format: str | None = None
) -> list[round_pb2.RoundRecord]:
    """The last ``last`` rounds of a table, oldest first, read in constant memory."""
    kept: deque[round_pb2.RoundRecord] = deque(maxlen=last)
    for entry in read_log(path, log_format):
        if entry.record is not None and entry.record.table_id == table_id:
            kept.append(entry.record)
    return list(kept)
