"""OracleService.VerifyRounds over gRPC agrees with ``croupier audit verify``.

Both replay records through ``oracle.verify.verify_record`` and, for a record whose
settlement and decisions are right, compare the recorded final state; the CLI also checks
the hash chain, which is not a verdict on one record.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from croupier.clients.client import CroupierClient
from croupier.oracle.service.server import ServerConfig
from croupier.v1 import oracle_service_pb2, round_pb2
from tests.audit.support import DamagedLog
from tests.service.support import LoopThread, start_server

RECORDS = 1000
BATCH = 500


@pytest.fixture(scope="module")
def oracle_address() -> Iterator[str]:
    """A real OracleServer on a background event loop."""
    loop = LoopThread()
    running = start_server(loop, ServerConfig(host="127.0.0.1", port=0))
    try:
        yield running.address
    finally:
        running.stop()
        loop.close()


@dataclass(frozen=True, slots=True, kw_only=True)
class Compared:
    """The first records of the damaged log, the service's verdicts, the CLI's findings."""

    records: list[round_pb2.RoundRecord]
    verdicts: list[oracle_service_pb2.Verdict]
    cli: dict[int, list[tuple[str, ...]]]

    def agree(self, number: int) -> None:
        record, verdict, want = (
            self.records[number - 1],
            self.verdicts[number - 1],
            self.cli[number],
        )
        got = [(d.clause, d.path, d.expected, d.actual, d.message) for d in verdict.discrepancies]
        assert (verdict.round_id, verdict.conformant, got) == (record.round_id, not want, want), (
            f"record {number}"
        )
        if verdict.conformant:
            assert verdict.expected_settlement.total_returned == record.settlement.total_returned

    def carried_over(self) -> set[int]:
        """Roulette rounds after the first of their table in a batch, the table having begun in
        an earlier batch: these need the board the service carries within the batch, while
        the first such round is checked without its board by both.
        """
        by_table: defaultdict[str, list[int]] = defaultdict(list)
        for number, record in enumerate(self.records, start=1):
            if record.pocket:
                by_table[record.table_id].append(number)
        out = set()
        for numbers in by_table.values():
            for i, number in enumerate(numbers):
                batches = {(m - 1) // BATCH for m in numbers[:i]}
                if (number - 1) // BATCH in batches and min(batches) < (number - 1) // BATCH:
                    out.add(number)
        return out


@pytest.fixture(scope="module")
def compared(damaged: DamagedLog, oracle_address: str) -> Compared:
    """VerifyRounds on the first 1,000 records, in batches of 500, and the CLI's report."""
    records = []
    for data in damaged.records[:RECORDS]:
        record = round_pb2.RoundRecord()
        record.ParseFromString(data)
        records.append(record)
    report = json.loads(damaged.report)
    assert not any(m["record"] <= RECORDS for m in report["malformed"])
    cli: defaultdict[int, list[tuple[str, ...]]] = defaultdict(list)
    for d in report["discrepancies"]:
        if d["record"] <= RECORDS:
            cli[d["record"]].append(
                (d["clause"], d["path"], d["expected"], d["actual"], d["message"])
            )
    with CroupierClient.connect(oracle_address, timeout=60) as client:
        verdicts = list(client.verify_rounds(records, batch=BATCH))
    assert len(verdicts) == RECORDS
    return Compared(records=records, verdicts=verdicts, cli=cli)


def test_verify_rounds_gives_the_cli_verdicts(compared: Compared) -> None:
    skipped = compared.carried_over()
    # One table of each roulette profile spans the two batches.
    assert len({compared.records[n - 1].table_id for n in skipped}) == 2
    for number in range(1, RECORDS + 1):
        if number not in skipped:
            compared.agree(number)
    # The first records hold four altered payouts, cards and decisions: not a vacuous check.
    assert sum(not v.conformant for v in compared.verdicts) >= 4


def test_verify_rounds_carries_boards_that_started_in_an_earlier_batch(compared: Compared) -> None:
    for number in sorted(compared.carried_over()):
        compared.agree(number)
