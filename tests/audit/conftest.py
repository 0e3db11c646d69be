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
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import pytest
from croupier.conformance.v1 import vector_pb2
from croupier.v1 import round_pb2

from clients.adapter import serve
from clients.audit import AuditWriter, read_log
from clients.client import CroupierClient
from clients.demo_engine import DemoEngine
from conformance.vectors import campaign
from oracle.profile import resolve_profile
from tests.audit.support import AuditLogs, DamagedLog, PlayedRound, invoke, write_binary
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
def audit_logs(tmp_path_factory: pytest.TempPathFactory) -> AuditLogs:
    """The demo engine's audit log of 10,080 rounds, as JSON lines and as binary."""
    started = time.perf_counter()
    directory = tmp_path_factory.mktemp("audit")
    # spawn: the test process may already run gRPC threads, which do not survive a fork.
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        serialized = dict(zip(PROFILE_IDS, pool.map(_campaign, PROFILE_IDS), strict=True))
    by_profile = {pid: _rounds(pid, data) for pid, data in serialized.items()}
    generated = time.perf_counter() - started

    jsonl = directory / "log.jsonl"
    served = serve(DemoEngine(), port=0, audit_log=jsonl)
    played: list[PlayedRound] = []
    try:
        with CroupierClient.connect(f"127.0.0.1:{served.port}") as client:
            for k in range(ROUNDS_PER_PROFILE):
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
    finally:
        served.stop()
    assert served.adapter.audit is not None
    assert served.adapter.audit.count == len(played)
    seconds_played = time.perf_counter() - started - generated

    binary = directory / "log.bin"
    writer = AuditWriter.open(binary, "binary")
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
        seconds=time.perf_counter() - started,
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
    line = next(line for line in record.settlement.lines if line.returned.minor_units > 0)
    line.returned.minor_units += 1


def _pay_one_less(record: round_pb2.RoundRecord) -> None:
    line = next(line for line in record.settlement.lines if line.returned.minor_units > 0)
    line.returned.minor_units -= 1


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
    cards, decisions); later come a final-state-only change, a record the oracle cannot
    replay, an unreadable entry, a deletion, a swap, a rewritten board and a cut tail.
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
        (find(3000, "blackjack-c"), _unknown_profile),
        (find(5000, "baccarat-d"), _other_suit),
        (
            find(8000, "roulette-c", lambda r: len(r.final_state.roulette.history) > 3),
            _rewrite_board,
        ),
    ]
    for index, change in changes:
        records[index] = _changed(records[index], change)
    altered = tuple(_record(records[index]).round_id for index, _ in changes)
    deleted = find(6000, "baccarat-b")
    swapped = 7000
    moved = (_record(records[swapped]).round_id, _record(records[swapped + 1]).round_id)
    records[swapped], records[swapped + 1] = records[swapped + 1], records[swapped]
    removed = _record(records.pop(deleted)).round_id
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
    )
