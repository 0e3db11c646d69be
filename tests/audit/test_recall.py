"""``croupier audit recall LOG --table T --last N``: the last rounds of a table, as recorded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from croupier.clients.audit import AuditWriter, read_log
from croupier.oracle.money import money_text
from tests.audit.support import AuditLogs, PlayedRound, invoke, read_lines, units


@pytest.fixture(scope="module")
def by_round(audit_logs: AuditLogs) -> dict[str, dict[str, Any]]:
    """Every record of the JSON log by round id, read with nothing but ``json``."""
    return {
        record["roundId"]: record
        for record in (json.loads(line) for line in read_lines(audit_logs.jsonl))
    }


def _last(rounds: tuple[PlayedRound, ...], table_id: str, count: int) -> list[str]:
    return [r.round_id for r in rounds if r.table_id == table_id][-count:]


def _recall(log: Path, table_id: str, last: int) -> str:
    result = invoke("audit", "recall", log, "--table", table_id, "--last", last)
    assert result.exit_code == 0, result.output
    return result.output


def _blocks(output: str, round_ids: list[str]) -> list[str]:
    """The output cut at each round's first line; the rounds come in the order given."""
    starts = [output.index(f"round {rid}  ") for rid in round_ids]
    assert starts == sorted(starts)
    assert output.count("\nround ") + output.startswith("round ") == len(round_ids)
    return [output[a:b] for a, b in zip(starts, [*starts[1:], len(output)], strict=True)]


def _payouts(block: str, record: dict[str, Any]) -> None:
    for line in record["settlement"]["lines"]:
        assert (
            f"paid seat {line.get('seat', 0)} {line['bet']}: "
            f"stake {money_text(units(line['stake']), 'EUR')} "
            f"returned {money_text(units(line.get('returned')), 'EUR')}"
        ) in block


def test_roulette_table(audit_logs: AuditLogs, by_round: dict[str, dict[str, Any]]) -> None:
    table = "rou-g-0003-table"
    wanted = _last(audit_logs.rounds, table, 5)
    assert wanted == [f"rou-g-0003-r{k}" for k in range(15, 20)]
    output = _recall(audit_logs.binary, table, 5)
    for block, rid in zip(_blocks(output, wanted), wanted, strict=True):
        record = by_round[rid]
        board = " ".join(record["finalState"]["roulette"]["history"])
        assert f"round {rid}  profile roulette-c  table {table}\n" in block
        assert f"pocket: {record['pocket']}   board: {board}\n" in block
        _payouts(block, record)


def test_blackjack_table(audit_logs: AuditLogs, by_round: dict[str, dict[str, Any]]) -> None:
    table = "blackjack-a-table-07"
    wanted = _last(audit_logs.rounds, table, 4)
    output = _recall(audit_logs.binary, table, 4)
    decided = 0
    for block, rid in zip(_blocks(output, wanted), wanted, strict=True):
        record = by_round[rid]
        state = record["finalState"]["blackjack"]
        assert f"dealer: {' '.join(state['dealer']['cards'])}" in block
        for s, seat in enumerate(state["seats"]):
            for h, hand in enumerate(seat["hands"]):
                assert (
                    f"seat {s} hand {h}: {' '.join(hand['cards'])}  "
                    f"stake {money_text(units(hand['stake']), 'EUR')}" in block
                )
        if record.get("decisions"):
            decided += 1
            kinds = [
                f"seat {d.get('seat', 0)} hand {d.get('hand', 0)} "
                + d["kind"].removeprefix("DECISION_KIND_").lower().replace("_", "-")
                for d in record["decisions"]
            ]
            assert f"decisions: {', '.join(kinds)}\n" in block
        _payouts(block, record)
    assert decided


def test_baccarat_table_from_the_json_log(
    audit_logs: AuditLogs, by_round: dict[str, dict[str, Any]]
) -> None:
    table = "baccarat-d-table-03"
    wanted = _last(audit_logs.rounds, table, 3)
    output = _recall(audit_logs.jsonl, table, 3)
    for block, rid in zip(_blocks(output, wanted), wanted, strict=True):
        record = by_round[rid]
        coup = record["finalState"]["baccarat"]
        assert f"player: {' '.join(coup['playerCards'])} = {coup.get('playerTotal', 0)}" in block
        assert f"banker: {' '.join(coup['bankerCards'])} = {coup.get('bankerTotal', 0)}" in block
        _payouts(block, record)
    # The same rounds, read from the binary log, print the same.
    assert _recall(audit_logs.binary, table, 3) == output


def test_more_than_the_table_holds(audit_logs: AuditLogs) -> None:
    table = "rua-g-0010-table"
    output = _recall(audit_logs.binary, table, 50)
    _blocks(output, _last(audit_logs.rounds, table, 50))
    assert output.count("\nround ") + 1 == 20


def test_an_unknown_table(audit_logs: AuditLogs) -> None:
    result = invoke("audit", "recall", audit_logs.binary, "--table", "no-such-table", "--last", 3)
    assert result.exit_code != 0
    assert "no round of table 'no-such-table'" in result.output


def test_recall_prints_the_record_verbatim(audit_logs: AuditLogs, tmp_path: Path) -> None:
    """No console markup, no wrapping: what the log holds is what is printed."""
    entries = read_log(audit_logs.binary)
    record = next(e.record for e in entries if e.record is not None and e.record.decisions)
    record.table_id = "t[b]1[/b]"
    record.decisions.extend([record.decisions[0]] * 12)  # a decisions line of 300 characters
    log = tmp_path / "one.jsonl"
    writer = AuditWriter.open(log)
    writer.append(record)
    writer.close()
    result = invoke("audit", "recall", log, "--table", record.table_id)
    assert result.exit_code == 0, result.output
    assert f"table {record.table_id}\n" in result.output
    decisions = next(line for line in result.output.splitlines() if "decisions: " in line)
    assert decisions.count(", seat ") == len(record.decisions) - 1
