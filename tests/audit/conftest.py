"""Fixtures: a hash-chained audit log of 10,080 rounds, played by the demo engine through the kit.

The rounds are the requests of generated campaigns for the seven shipped profiles
(``conformance.vectors.campaign``), 1,440 per profile. They are played one after the other
against ``clients.adapter.serve(DemoEngine(), audit_log=...)`` with the typed client (Deal,
the vector's decisions, Settle), interleaved across profiles the way a casino's tables share
one log: round k of every profile, then round k + 1. Card-game rounds are spread over a few
tables per profile (a campaign gives each card round a table of its own), so that recall has
several rounds of a blackjack table to show; roulette keeps the campaign's tables of 20
consecutive spins, whose boards the audit checks.

The binary log holds the same records, converted through ``clients.audit``.

A second, signed log is played the same way from the first 100 rounds of each profile, in
two runs of the engine on the same file: the second run continues the first's log.
"""

from __future__ import annotations

import copy
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from google.protobuf import json_format

from croupier.clients.adapter import Served, serve
from croupier.clients.audit import AuditWriter, read_log
from croupier.clients.client import CroupierClient
from croupier.clients.demo_engine import DemoEngine
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import campaign
from croupier.oracle.profile import resolve_profile
from croupier.v1 import round_pb2
from tests.audit.support import (
    CASE_RECORDS,
    INFLATED,
    AuditLogs,
    Case,
    DamagedLog,
    Entry,
    PlayedRound,
    SignedLog,
    invoke,
    parse_entry,
    read_lines,
    rechain,
    write_binary,
    write_json,
)
from tests.service.support import PROFILE_IDS

#: Rounds per profile: 72 roulette vectors of 20 spins; 7 x 1,440 = 10,080 rounds in all.
ROUNDS_PER_PROFILE = 1440
#: Tables per card-game profile.
CARD_TABLES = 12
SEED = "audit-tests"


def _campaign(profile_id: str) -> list[bytes]:
    """One profile's campaign, serialized (runs in a worker process)."""
    profile = resolve_profile(profile_id)
    vectors = campaign(profile, SEED, ROUNDS_PER_PROFILE, profile_id)
    return [vector.SerializeToString() for vector in vectors]


def _rounds(profile_id: str, serialized: list[bytes]) -> list[vector_pb2.VectorRound]:
    rounds: list[vector_pb2.VectorRound] = []
    for data in serialized:
        vector = vector_pb2.Vector()
        vector.ParseFromString(data)
        rounds.extend(vector.rounds)
    if not profile_id.startswith("roulette"):
        for k, vround in enumerate(rounds):
            vround.deal.table_id = f"{profile_id}-table-{k % CARD_TABLES:02d}"
    return rounds


@pytest.fixture(scope="session")
def campaign_rounds() -> tuple[dict[str, list[vector_pb2.VectorRound]], float]:
    """Every profile's campaign rounds, and the seconds they took to generate."""
    started = time.perf_counter()
    # spawn: the test process may already run gRPC threads, which do not survive a fork.
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        serialized = dict(zip(PROFILE_IDS, pool.map(_campaign, PROFILE_IDS), strict=True))
    by_profile = {pid: _rounds(pid, data) for pid, data in serialized.items()}
    return by_profile, time.perf_counter() - started


def play(
    served: Served, by_profile: dict[str, list[vector_pb2.VectorRound]], rounds: range
) -> list[PlayedRound]:
    """Play rounds ``rounds`` of every profile on a served engine, interleaved by profile."""
    played: list[PlayedRound] = []
    with CroupierClient.connect(f"127.0.0.1:{served.port}") as client:
        for k in rounds:
            for profile_id in PROFILE_IDS:
                vround = by_profile[profile_id][k]
                deal = vround.deal
                client.deal(deal)
                for step in vround.steps:
                    d = step.decision
                    client.decide(deal.round_id, d.kind, seat=d.seat, hand=d.hand)
                settled = client.settle(deal.round_id)
                played.append(
                    PlayedRound(
                        round_id=deal.round_id,
                        profile_id=profile_id,
                        table_id=deal.table_id,
                        decisions=len(vround.steps),
                        staked=settled.settlement.total_staked.minor_units,
                        returned=settled.settlement.total_returned.minor_units,
                    )
                )
    return played


@pytest.fixture(scope="session")
def audit_logs(
    campaign_rounds: tuple[dict[str, list[vector_pb2.VectorRound]], float],
    tmp_path_factory: pytest.TempPathFactory,
) -> AuditLogs:
    """The demo engine's audit log of 10,080 rounds, as JSON lines and as binary."""
    started = time.perf_counter()
    by_profile, generated = campaign_rounds
    directory = tmp_path_factory.mktemp("audit")

    jsonl = directory / "log.jsonl"
    served = serve(DemoEngine(), port=0, audit_log=jsonl)
    try:
        played = play(served, by_profile, range(ROUNDS_PER_PROFILE))
    finally:
        served.stop()
    assert served.adapter.audit is not None
    assert served.adapter.audit.count == len(played)
    seconds_played = time.perf_counter() - started

    binary = directory / "log.bin"
    # A copy for the tests, not an engine's log: no flush to disk after every record.
    writer = AuditWriter.open(binary, "binary", durable=False)
    try:
        for entry in read_log(jsonl, "jsonl"):
            assert entry.record is not None, entry.error
            carried = bytes(entry.record.previous_record_sha256)
            written = writer.append(entry.record)
            # The JSON form round-trips exactly: relinking gives the links the engine wrote.
            assert bytes(written.previous_record_sha256) == carried
    finally:
        writer.close()
    logs = AuditLogs(
        jsonl=jsonl,
        binary=binary,
        rounds=tuple(played),
        seconds=time.perf_counter() - started + generated,
    )
    print(  # noqa: T201 - the fixture's cost, shown with -s
        f"\naudit log fixture: {len(played)} rounds in {logs.seconds:.1f} s "
        f"(campaigns {generated:.1f} s, played {seconds_played:.1f} s), "
        f"{jsonl.stat().st_size / 1e6:.1f} MB JSON, {binary.stat().st_size / 1e6:.1f} MB binary"
    )
    return logs


@pytest.fixture(scope="session")
def binary_records(audit_logs: AuditLogs) -> list[bytes]:
    """The binary log's records, serialized, in order (to build tampered binary logs)."""
    out = []
    for entry in read_log(audit_logs.binary, "binary"):
        assert entry.record is not None
        out.append(entry.record.SerializeToString(deterministic=True))
    return out


def _record(data: bytes) -> round_pb2.RoundRecord:
    record = round_pb2.RoundRecord()
    record.ParseFromString(data)
    return record


def _first(
    records: list[bytes], start: int, wanted: Callable[[round_pb2.RoundRecord], bool]
) -> int:
    return next(i for i in range(start, len(records)) if wanted(_record(records[i])))


def _changed(data: bytes, change: Callable[[round_pb2.RoundRecord], object]) -> bytes:
    record = _record(data)
    change(record)
    return record.SerializeToString(deterministic=True)


def _any(record: round_pb2.RoundRecord) -> bool:
    del record
    return True


def _won(record: round_pb2.RoundRecord) -> bool:
    return any(line.returned.minor_units > 0 for line in record.settlement.lines)


def _pay_one_more(record: round_pb2.RoundRecord) -> None:
    """One more paid on a line, the total kept consistent: only the rules can see it."""
    line = next(line for line in record.settlement.lines if line.returned.minor_units > 0)
    line.returned.minor_units += 1
    record.settlement.total_returned.minor_units += 1


def _pay_one_less(record: round_pb2.RoundRecord) -> None:
    line = next(line for line in record.settlement.lines if line.returned.minor_units > 0)
    line.returned.minor_units -= 1
    record.settlement.total_returned.minor_units -= 1


def _total_over(record: round_pb2.RoundRecord) -> None:
    """The total returned edited, the lines left alone."""
    record.settlement.total_returned.minor_units += 1000


def _line_in_gbp(record: round_pb2.RoundRecord) -> None:
    """One settlement line of a EUR round in GBP."""
    line = next(line for line in record.settlement.lines if line.returned.minor_units > 0)
    line.stake.currency_code = line.returned.currency_code = "GBP"


def _reuse_id(round_id: str) -> Callable[[round_pb2.RoundRecord], None]:
    def change(record: round_pb2.RoundRecord) -> None:
        record.round_id = record.final_state.round_id = round_id

    return change


def _stake_150(record: round_pb2.RoundRecord) -> bool:
    return record.seats[0].bets[0].stake.minor_units == 150


def _unreplayable_inflated(record: round_pb2.RoundRecord) -> None:
    """A balance of 1 under a stake of 150 (no round can be dealt), and a payout of 99,999,999."""
    record.seats[0].balance.minor_units = 1
    record.settlement.lines[0].returned.minor_units = INFLATED
    record.settlement.total_returned.minor_units = sum(
        line.returned.minor_units for line in record.settlement.lines
    )


def _other_rank(record: round_pb2.RoundRecord) -> None:
    card = record.cards_dealt[0]
    record.cards_dealt[0] = ("2" if card[0] != "2" else "9") + card[1]


def _other_suit(record: round_pb2.RoundRecord) -> None:
    card = record.cards_dealt[0]
    record.cards_dealt[0] = card[0] + ("S" if card[1] != "S" else "H")


def _drop_last_decision(record: round_pb2.RoundRecord) -> None:
    del record.decisions[-1]


def _unknown_profile(record: round_pb2.RoundRecord) -> None:
    record.profile_id = record.final_state.profile_id = "blackjack-z"


def _rewrite_board(record: round_pb2.RoundRecord) -> None:
    history = record.final_state.roulette.history
    history[0] = "1" if history[0] != "1" else "2"


@pytest.fixture(scope="session")
def damaged(binary_records: list[bytes], tmp_path_factory: pytest.TempPathFactory) -> DamagedLog:
    """The binary log damaged in every way at once, and its report (``--workers 1``).

    The first 2,000 records hold only damage that the oracle service sees too (payouts,
    cards, decisions); later come an edited total, a line in another currency, a
    final-state-only change, records the oracle cannot replay (an unknown profile; a
    balance under its stake with an inflated payout), an unreadable entry, a duplicated
    record, a reused round id, a deletion, a swap, a rewritten board and a cut tail.
    """
    records = list(binary_records)

    def find(
        start: int, profile_id: str, also: Callable[[round_pb2.RoundRecord], bool] = _any
    ) -> int:
        return _first(records, start, lambda r: r.profile_id == profile_id and also(r))

    changes: list[tuple[int, Callable[[round_pb2.RoundRecord], object]]] = [
        (find(150, "blackjack-a", _won), _pay_one_more),
        (find(700, "roulette-american", _won), _pay_one_less),
        (find(900, "baccarat-d", _won), _pay_one_more),
        (find(1200, "blackjack-c"), _other_rank),
        (find(1600, "blackjack-a", lambda r: len(r.decisions) > 1), _drop_last_decision),
        (find(2500, "baccarat-b"), _total_over),
        (find(2600, "baccarat-c", _won), _line_in_gbp),
        (find(3000, "blackjack-c"), _unknown_profile),
        (find(3200, "baccarat-b", _stake_150), _unreplayable_inflated),
        (find(5000, "baccarat-d"), _other_suit),
        (
            find(8000, "roulette-c", lambda r: len(r.final_state.roulette.history) > 3),
            _rewrite_board,
        ),
    ]
    for index, change in changes:
        records[index] = _changed(records[index], change)
    altered = tuple(_record(records[index]).round_id for index, _ in changes)
    # A later baccarat round takes an earlier round's id: the record after it no longer links.
    reused = find(4500, "baccarat-c")
    records[reused] = _changed(records[reused], _reuse_id(_record(records[40]).round_id))
    deleted = find(6000, "baccarat-b")
    swapped = 7000
    moved = (_record(records[swapped]).round_id, _record(records[swapped + 1]).round_id)
    records[swapped], records[swapped + 1] = records[swapped + 1], records[swapped]
    removed = _record(records.pop(deleted)).round_id
    # A record copied byte for byte, right after itself.
    records.insert(4201, records[4200])
    # An entry with a sound length prefix whose bytes are no RoundRecord: a varint never ends.
    records.insert(3500, b"\x08" + b"\xff" * 12)
    path = write_binary(tmp_path_factory.mktemp("damaged") / "damaged.bin", records)
    with path.open("r+b") as handle:
        handle.truncate(path.stat().st_size - 100)
    report = path.with_name("reference.json")
    result = invoke("audit", "verify", path, "--report", report, "--workers", 1)
    assert result.exit_code == 1, result.output
    return DamagedLog(
        path=path,
        records=tuple(records),
        report=report.read_bytes(),
        altered=altered,
        deleted=removed,
        swapped=moved,
        reused=_record(records[40]).round_id,
        duplicated=_record(records[4202]).round_id,
    )


# --- a signed log, written in two runs of the engine ------------------------------------------

#: Rounds per profile in each run of the engine that writes the signed log: a roulette
#: table's 20 spins, since the demo engine keeps its boards in memory only (a table that
#: spanned a restart would start a new board, and the audit would rightly say so).
SIGNED_ROUNDS = 20
#: Records between two checkpoints of the signed log.
SIGNED_EVERY = 20


def entry_bytes(entry: Entry) -> bytes:
    """An entry serialized as a binary log holds it."""
    return entry.SerializeToString(deterministic=True)


@pytest.fixture(scope="session")
def signed_log(
    campaign_rounds: tuple[dict[str, list[vector_pb2.VectorRound]], float],
    tmp_path_factory: pytest.TempPathFactory,
) -> SignedLog:
    """The demo engine's signed binary log: two runs on one file, the second continuing it."""
    by_profile, _ = campaign_rounds
    directory = tmp_path_factory.mktemp("signed")
    private, public = directory / "operator.key", directory / "operator.pub"
    result = invoke("audit", "keygen", directory / "operator")
    assert result.exit_code == 0, result.output
    path = directory / "signed.bin"
    played: list[PlayedRound] = []
    notices = []
    for rounds in (range(SIGNED_ROUNDS), range(SIGNED_ROUNDS, 2 * SIGNED_ROUNDS)):
        served = serve(
            DemoEngine(),
            port=0,
            audit_log=path,
            audit_format="binary",
            audit_key=private,
            audit_checkpoint_every=SIGNED_EVERY,
        )
        assert served.adapter.audit is not None
        notices.append(served.adapter.audit.notice)
        try:
            played += play(served, by_profile, rounds)
        finally:
            served.stop()
    first_run = SIGNED_ROUNDS * len(PROFILE_IDS)
    assert notices == ["", f"continuing {path} after record {first_run} (restart 1 of this log)"]
    entries = []
    for entry in read_log(path):
        assert not entry.error, entry.error
        if entry.checkpoint is not None:
            entries.append(entry_bytes(round_pb2.AuditCheckpointEntry(checkpoint=entry.checkpoint)))
        else:
            assert entry.record is not None
            entries.append(entry_bytes(entry.record))
    return SignedLog(
        path=path,
        private_key=private,
        public_key=public,
        entries=tuple(entries),
        rounds=tuple(played),
        first_run=first_run,
        checkpoint_every=SIGNED_EVERY,
    )


# --- one log for each kind of damage --------------------------------------------------------


def _first_at(rounds: tuple[PlayedRound, ...], start: int, game: str) -> int:
    return next(i for i in range(start, len(rounds)) if rounds[i].profile_id.startswith(game))


class _JsonCases:
    """Cases built from the clean JSON log's first records, each written to its own file."""

    def __init__(self, audit_logs: AuditLogs, directory: Path) -> None:
        self.lines = read_lines(audit_logs.jsonl)
        self.directory = directory
        self.cases: dict[str, Case] = {}

    def record(self, index: int) -> round_pb2.RoundRecord:
        """Record ``index`` (from 0) of the clean log."""
        return json_format.Parse(self.lines[index], round_pb2.RoundRecord())

    def fresh(self) -> list[round_pb2.RoundRecord]:
        """The clean log's first ``CASE_RECORDS`` records."""
        return [self.record(index) for index in range(CASE_RECORDS)]

    def add(
        self, name: str, records: list[round_pb2.RoundRecord], findings: dict[str, int]
    ) -> None:
        """Write the case's log; it must give ``findings`` when verified."""
        path = write_json(self.directory / f"{name}.jsonl", records)
        self.cases[name] = Case(path=path, options=("--workers", 1), findings=findings)


def _unsigned_cases(audit_logs: AuditLogs, directory: Path) -> dict[str, Case]:
    """The clean log's first records, each case damaged once and re-chained (but one)."""
    rounds = audit_logs.rounds
    built = _JsonCases(audit_logs, directory)
    fresh, case = built.fresh, built.add

    records = fresh()
    at = _first_at(rounds, 100, "baccarat")
    records.insert(at + 1, copy.deepcopy(records[at]))
    rechain(records, renumber=True)
    case("duplicate", records, {"duplicate": 1})

    records = fresh()
    at = _first_at(rounds, 120, "blackjack")
    records.insert(at + 1, copy.deepcopy(records[at]))
    case("duplicate-unchained", records, {"duplicate": 1})

    records = fresh()
    at, earlier = _first_at(rounds, 150, "baccarat"), _first_at(rounds, 20, "blackjack")
    records[at].round_id = records[at].final_state.round_id = records[earlier].round_id
    rechain(records)
    case("round-id-reused", records, {"round-id-reused": 1})

    records = fresh()
    records[_first_at(rounds, 200, "baccarat")].settlement.total_returned.minor_units += 1000
    rechain(records)
    case("totals", records, {"totals": 1})

    records = fresh()
    at = next(
        i
        for i in range(220, CASE_RECORDS)
        if rounds[i].profile_id.startswith("baccarat") and rounds[i].returned
    )
    _line_in_gbp(records[at])
    rechain(records)
    case("mixed-currency", records, {"mixed-currency": 2})

    records = fresh()
    at = next(
        i
        for i in range(250, CASE_RECORDS)
        if rounds[i].profile_id.startswith("baccarat") and _stake_150(records[i])
    )
    _unreplayable_inflated(records[at])
    rechain(records)
    case("unreplayable", records, {"unreplayable": 1})

    records = fresh()
    del records[_first_at(rounds, 280, "baccarat")]
    rechain(records)
    case("sequence-gap", records, {"sequence-gap": 1})

    records = fresh()
    at = _first_at(rounds, 300, "blackjack")
    records[at].recorded_at.seconds = records[at - 1].recorded_at.seconds - 3600
    rechain(records)
    case("time-backwards", records, {"time-backwards": 1})
    _order_cases(built, rounds)
    return built.cases


def _order_cases(built: _JsonCases, rounds: tuple[PlayedRound, ...]) -> None:
    """A round slipped in under its neighbour's number; a log without numbers or times."""
    fresh, case = built.fresh, built.add
    # A round from later in the log slipped in under its neighbour's number and time.
    records = fresh()
    at = _first_at(rounds, 320, "baccarat")
    later = _first_at(rounds, CASE_RECORDS, "baccarat")
    slipped = built.record(later)
    slipped.sequence = records[at].sequence
    slipped.recorded_at.CopyFrom(records[at].recorded_at)
    records.insert(at + 1, slipped)
    rechain(records)
    case("sequence-repeat", records, {"sequence-repeat": 1})

    # As an older writer wrote it: neither sequence numbers nor times.
    records = fresh()
    for record in records:
        record.ClearField("sequence")
        record.ClearField("recorded_at")
    rechain(records)
    case("legacy", records, {})


def _signed_cases(signed: SignedLog, directory: Path) -> dict[str, Case]:
    """The signed log as written, cut short, and edited then re-chained (and forged)."""
    key = ("--public-key", signed.public_key)
    workers = ("--workers", 1)
    cases = {
        "signed": Case(path=signed.path, options=(*key, *workers), findings={}),
        "signed-without-key": Case(path=signed.path, options=workers, findings={}),
    }

    def fresh() -> list[Entry]:
        return [parse_entry(data) for data in signed.entries]

    def case(
        name: str, entries: list[Entry], findings: dict[str, int], without: dict[str, int]
    ) -> None:
        path = write_binary(directory / f"{name}.bin", [entry_bytes(e) for e in entries])
        cases[name] = Case(path=path, options=(*key, *workers), findings=findings)
        cases[f"{name}-without-key"] = Case(path=path, options=workers, findings=without)

    def position(wanted: Callable[[Entry], bool]) -> int:
        return next(i for i, e in enumerate(fresh()) if wanted(e))

    sealed = 12 * SIGNED_EVERY  # the last records before a checkpoint, then cut

    def is_checkpoint_of(sequence: int) -> Callable[[Entry], bool]:
        return lambda e: (
            isinstance(e, round_pb2.AuditCheckpointEntry)
            and (e.checkpoint.sequence == sequence and not e.checkpoint.closing)
        )

    def is_record(sequence: int) -> Callable[[Entry], bool]:
        return lambda e: isinstance(e, round_pb2.RoundRecord) and e.sequence == sequence

    cut = position(is_checkpoint_of(sealed)) + 1
    case("truncated", fresh()[:cut], {"truncated": 1}, {})
    cut = position(is_record(sealed + 10)) + 1
    case("truncated-unsealed", fresh()[:cut], {"unsealed": 1, "truncated": 1}, {})

    # A blackjack record moved to another table: no rule sees it; only a checkpoint can.
    edited = next(
        i
        for i, e in enumerate(fresh())
        if isinstance(e, round_pb2.RoundRecord)
        and e.sequence >= 100
        and e.profile_id.startswith("blackjack")
    )
    later = sum(isinstance(e, round_pb2.AuditCheckpointEntry) for e in fresh()[edited:])
    entries = fresh()
    entry = entries[edited]
    assert isinstance(entry, round_pb2.RoundRecord)
    entry.table_id += "-moved"
    rechain(entries)
    case(
        "rechained",
        entries,
        {"checkpoint-mismatch": later, "unsealed": 1},
        {"checkpoint-mismatch": later},
    )
    rechain(entries, heads=True)
    case("forged", entries, {"checkpoint-invalid": later, "unsealed": 1}, {})
    return cases


@pytest.fixture(scope="session")
def cases(
    audit_logs: AuditLogs, signed_log: SignedLog, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Case]:
    """Every case of damage by name: its log, its verify options, the findings it must give."""
    directory = tmp_path_factory.mktemp("cases")
    return {**_unsigned_cases(audit_logs, directory), **_signed_cases(signed_log, directory)}
