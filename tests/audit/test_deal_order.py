"""Roulette boards are checked in deal order: a log is written in settle order.

The issue's case: three roulette rounds dealt at one table and settled in reverse gave the
demo engine's own log three C.rou.history findings (the board moves at Deal, the record is
written at Settle, and verify replayed boards in log order). The engine is right (a table's
history spans its rounds in the order they are dealt); each record now carries its place
in that order (``table_round``), and verify checks boards by it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from croupier.clients import adapter
from croupier.clients.client import CroupierClient
from croupier.clients.demo_engine import DemoEngine
from tests.audit.support import dump_line, read_lines, verify, write_lines
from tests.clients.conftest import roulette_deal

#: Pockets dealt in this order at one table; C.rou.wheel: 1, 3 and 5 are red, 2 and 4 black.
POCKETS = ("1", "2", "3", "4", "5")


def _play(log: Path, settle_order: list[int]) -> None:
    served = adapter.serve(DemoEngine(), port=0, audit_log=log)
    try:
        with CroupierClient.connect(f"127.0.0.1:{served.port}", timeout=30) as client:
            for index, pocket in enumerate(POCKETS):
                client.deal(roulette_deal(f"r{index + 1}", pocket))
            for index in settle_order:
                client.settle(f"r{index + 1}")
    finally:
        served.stop(grace=0)


@pytest.mark.parametrize("settle_order", [[4, 3, 2, 1, 0], [1, 0, 4, 2, 3], [0, 1, 2, 3, 4]])
def test_rounds_settled_in_any_order_verify_clean(settle_order: list[int], tmp_path: Path) -> None:
    log = tmp_path / "rounds.jsonl"
    _play(log, settle_order)
    lines = [json.loads(line) for line in read_lines(log)]
    assert [line["roundId"] for line in lines] == [f"r{i + 1}" for i in settle_order]
    # Each record's board is the table's in deal order, up to its own spin.
    for line in lines:
        place = int(line["tableRound"])
        assert line["finalState"]["roulette"]["history"] == list(POCKETS[:place])
    result, report = verify(log, tmp_path / "report.json", "--workers", 1)
    assert result.exit_code == 0, result.output
    assert report["findings"] == {}


def _rewritten(line: bytes, history: list[str]) -> bytes:
    value = json.loads(line)
    value["finalState"]["roulette"]["history"] = history
    return dump_line(value)


def test_a_board_that_contradicts_a_round_dealt_before_it_is_found(tmp_path: Path) -> None:
    """Settled last to first: the first record (round 5) shows 1 2 9 4 5, round 3 spun 3.

    Round 4's board, the next record, already contradicts it; round 3's own spin does too.
    """
    log = tmp_path / "rounds.jsonl"
    _play(log, [4, 3, 2, 1, 0])
    lines = read_lines(log)
    # Only the first record's board is rewritten (the link after it breaks: a chain finding).
    tampered = write_lines(
        tmp_path / "tampered.jsonl", [_rewritten(lines[0], ["1", "2", "9", "4", "5"]), *lines[1:]]
    )
    result, report = verify(tampered, tmp_path / "report.json", "--workers", 1)
    assert result.exit_code == 1, result.output
    boards = [p for p in report["log_problems"] if p["kind"] == "board"]
    assert boards == [
        {
            "record": 2,
            "round_id": "r4",
            "kind": "board",
            "message": "table t3: the board shows 3 for round 3 of the table; record 1 shows 9",
        },
        {
            "record": 3,
            "round_id": "r3",
            "kind": "board",
            "message": "table t3: round 3 of the table spun 3; the board of record 1 shows 9",
        },
    ]


def test_a_board_too_short_for_its_place_is_found(tmp_path: Path) -> None:
    log = tmp_path / "rounds.jsonl"
    _play(log, [4, 3, 2, 1, 0])
    lines = read_lines(log)
    tampered = write_lines(
        tmp_path / "tampered.jsonl", [_rewritten(lines[0], ["4", "5"]), *lines[1:]]
    )
    result, report = verify(tampered, tmp_path / "report.json", "--workers", 1)
    assert result.exit_code == 1, result.output
    (board,) = [p for p in report["log_problems"] if p["kind"] == "board"]
    assert board["record"] == 1
    assert board["message"] == (
        "table t3: the board shows 2 results; after round 5 of the table it shows 5"
    )
