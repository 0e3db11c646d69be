"""One shard of records, in a worker: each record against itself, then replayed by the oracle.

Only what a shard found travels back: its sums (``Totals``, ``Tally``) and the records with
something to report.
"""

from __future__ import annotations

import functools
from array import array
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from croupier.conformance.audit.fairness import Tally, blackjack_strategy
from croupier.oracle.errors import OracleError
from croupier.oracle.profile import Profile, Profiles
from croupier.oracle.roulette import TableHistory
from croupier.oracle.service import records
from croupier.oracle.verify import Discrepancy
from croupier.v1 import round_pb2

#: What a record's discrepancies with itself are called, by the clause they cite.
_OWN_KINDS = {"TABLE.currency": "mixed-currency", "CONTRACT.settlement": "totals"}


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
    table_id: str = ""


@functools.cache
def _profiles(lab_files: tuple[str, ...]) -> Profiles:
    """The registry of a run, built once per process (workers each build their own)."""
    return Profiles.load(lab_files)


def load_profile(profile_id: str, lab_files: Sequence[str]) -> Profile:
    """A profile of the run by id (``OracleError`` for an unknown one)."""
    return _profiles(tuple(lab_files)).get(profile_id)


def _findings(
    number: int, record: round_pb2.RoundRecord, kinds: Iterable[tuple[Discrepancy, str]]
) -> tuple[Finding, ...]:
    """Each discrepancy of a record as a finding of its kind."""
    return tuple(
        Finding(
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
        for d, kind in kinds
    )


def _own(found: Iterable[Discrepancy]) -> Iterator[tuple[Discrepancy, str]]:
    """A record's discrepancies with itself, each with its kind (``_OWN_KINDS``)."""
    return ((d, _OWN_KINDS[d.clause]) for d in found)


class _Checked(NamedTuple):
    """What checking one record found, before it is kept (``RecordResult``) or only counted.

    A named tuple: one is made per record, and most are only counted.
    """

    expected_paid: int | None
    findings: tuple[Finding, ...]
    unreplayable: str
    #: Staked and paid per currency (``Tally.add``).
    money: dict[str, list[int]]

    @property
    def notable(self) -> bool:
        """Whether the record has something to report."""
        return bool(self.findings or self.unreplayable)

    def result(self, number: int, record: round_pb2.RoundRecord) -> RecordResult:
        """The record's result, as the report reads it."""
        return RecordResult(
            record=number,
            round_id=record.round_id,
            table_id=record.table_id,
            profile_id=record.profile_id,
            currency=record.currency_code,
            money=tuple(
                (code, staked, paid) for code, (staked, paid) in sorted(self.money.items())
            ),
            expected_paid=self.expected_paid,
            findings=self.findings,
            unreplayable=self.unreplayable,
        )


def _check(
    number: int,
    record: round_pb2.RoundRecord,
    board: TableHistory | None,
    lab_files: Sequence[str],
    *,
    totals: Totals,
    tally: Tally,
) -> _Checked:
    """Check one record, and add its money to ``totals`` and ``tally``."""
    unreplayable = ""
    try:
        profile = load_profile(record.profile_id, lab_files)
        verdict, against_itself = records.audit_record(profile, record, board)
    except OracleError as exc:
        expected_paid = None
        findings = _findings(number, record, _own(records.record_discrepancies(record)))
        unreplayable = f"{exc.reason}: {exc}"
    else:
        expected = verdict.expected
        expected_paid = sum(line.payout.returned for line in expected) if expected else None
        found = verdict.discrepancies
        findings = (
            _findings(number, record, (*_own(against_itself), *((d, "rules") for d in found)))
            if found or against_itself
            else ()
        )
    money = tally.add(record)
    totals.add(record.profile_id, record.currency_code, money, expected_paid)
    return _Checked(
        expected_paid=expected_paid, findings=findings, unreplayable=unreplayable, money=money
    )


def verify_one(
    number: int, data: bytes, board: TableHistory | None, lab_files: Sequence[str]
) -> RecordResult:
    """Check one serialized record; ``board`` is its table before it (roulette).

    The table's results, and the bets imprisoned at it (VAR.rou.en-prison).
    """
    record = round_pb2.RoundRecord()
    record.ParseFromString(data)
    return _check(number, record, board, lab_files, totals=Totals(), tally=Tally()).result(
        number, record
    )


def basic_strategy(profile_id: str, lab_files: Sequence[str] = ()) -> Fraction | None:
    """A profile's return under basic strategy (``fairness.blackjack_strategy``), elsewhere.

    Analysing rules the oracle ships no figure for costs seconds of one core a blackjack
    profile: computed beside the shards (``Executor.aside``), not by the main process after
    them. None for an unknown profile.
    """
    try:
        profile = load_profile(profile_id, lab_files)
    except OracleError:
        return None
    return blackjack_strategy(profile)


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


class Shard:
    """Records to replay, each with its number in the log and its table's board (roulette).

    The records' bytes are one buffer and their numbers and ends arrays of ints, so that a
    shard crosses to a worker process as a few objects, not three for each record: pickling
    thousands of small objects each way cost more than the shard's whole bytes.
    """

    __slots__ = ("boards", "data", "ends", "numbers")

    def __init__(self) -> None:
        self.data = bytearray()
        self.numbers = array("q")
        self.ends = array("q")
        #: Each roulette record's board, by its index in the shard.
        self.boards: dict[int, TableHistory] = {}

    def add(self, number: int, data: bytes, board: TableHistory | None) -> None:
        """Add a record: its number, serialized bytes and board."""
        if board is not None:
            self.boards[len(self.numbers)] = board
        self.numbers.append(number)
        self.data += data
        self.ends.append(len(self.data))

    def __len__(self) -> int:
        return len(self.numbers)

    def __iter__(self) -> Iterator[tuple[int, bytes, TableHistory | None]]:
        data, start, boards = bytes(self.data), 0, self.boards
        for index, (number, end) in enumerate(zip(self.numbers, self.ends, strict=True)):
            yield number, data[start:end], boards.get(index)
            start = end


def verify_shard(shard: Shard, lab_files: Sequence[str] = ()) -> ShardResult:
    """Check a shard of records (picklable, for process pools and Dask)."""
    totals, tally, notable = Totals(), Tally(), []
    for number, data, board in shard:
        record = round_pb2.RoundRecord()
        record.ParseFromString(data)
        checked = _check(number, record, board, lab_files, totals=totals, tally=tally)
        if checked.notable:
            notable.append(checked.result(number, record))
    return ShardResult(checked=len(shard), totals=totals, tally=tally, notable=notable)


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

    def add(
        self,
        profile_id: str,
        currency: str,
        money: Mapping[str, list[int]],
        expected_paid: int | None,
    ) -> None:
        """Count one round in ``currency``: ``money`` its staked and paid per currency.

        The rules' payout where known, else its money as unverified.
        """
        self.rounds += 1
        self.by_profile[profile_id] += 1
        verified = expected_paid is not None
        for code in sorted(money) if len(money) > 1 else money:
            staked, paid = money[code]
            values = self._money(code)
            values["staked"] += staked
            values["paid"] += paid
            if verified:
                values["difference"] += paid
            else:
                values["unverified_staked"] += staked
                values["unverified_paid"] += paid
        if expected_paid is None:
            self.unverified += 1
        else:
            values = self._money(currency)
            values["expected_paid"] += expected_paid
            values["difference"] -= expected_paid

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
