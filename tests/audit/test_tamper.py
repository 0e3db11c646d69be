"""The clean log tampered once in each way: every tamper is pinpointed exactly.

JSON logs are tampered as text, the way someone would edit the file; binary logs by
rewriting records. Nothing is relinked: a tampered log keeps the links it had.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from croupier.oracle.money import money_text
from croupier.v1 import round_pb2
from tests.audit.support import (
    ROUNDS_PER_PROFILE,
    AuditLogs,
    PlayedRound,
    dump_line,
    only,
    read_lines,
    units,
    varint,
    verify,
    write_binary,
    write_lines,
)

FIELDS = ("record", "round_id", "clause", "path", "expected", "actual")


@pytest.fixture(scope="module")
def json_lines(audit_logs: AuditLogs) -> list[bytes]:
    """The JSON log's lines."""
    return read_lines(audit_logs.jsonl)


def _find(
    lines: list[bytes], start: int, wanted: Callable[[dict[str, Any]], bool]
) -> tuple[int, dict[str, Any]]:
    for index in range(start, len(lines)):
        record = json.loads(lines[index])
        if wanted(record):
            return index, record
    raise AssertionError("no record fits")


def _parsed(data: bytes) -> round_pb2.RoundRecord:
    record = round_pb2.RoundRecord()
    record.ParseFromString(data)
    return record


def _totals(
    rounds: list[PlayedRound] | tuple[PlayedRound, ...], paid_extra: int = 0
) -> dict[str, dict[str, int]]:
    staked = sum(r.staked for r in rounds)
    paid = sum(r.returned for r in rounds)
    return {
        "EUR": {
            "staked": staked,
            "paid": paid + paid_extra,
            "expected_paid": paid,
            "difference": paid_extra,
            "unverified_staked": 0,
            "unverified_paid": 0,
        }
    }


def _no_replay_problem(report: dict[str, Any]) -> None:
    assert report["discrepancies"] == []
    assert report["malformed"] == []
    assert report["unreplayable"] == []


def test_a_payout_one_minor_unit_over(
    audit_logs: AuditLogs, json_lines: list[bytes], tmp_path: Path
) -> None:
    def player_won(record: dict[str, Any]) -> bool:
        return record["profileId"] == "baccarat-b" and any(
            line["bet"] == "player" and units(line.get("returned")) > 0
            for line in record["settlement"]["lines"]
        )

    index, record = _find(json_lines, 2100, player_won)
    lines = record["settlement"]["lines"]
    at = next(i for i, line in enumerate(lines) if line["bet"] == "player")
    paid = units(lines[at]["returned"])
    lines[at]["returned"]["minorUnits"] = str(paid + 1)
    tampered = list(json_lines)
    tampered[index] = dump_line(record)
    log = write_lines(tmp_path / "payout.jsonl", tampered)

    result, report = verify(log, tmp_path / "report.json")

    number, round_id = index + 1, record["roundId"]
    path = f"settlement.lines[{at}].returned.minor_units"
    total = units(record["settlement"]["totalReturned"])
    assert result.exit_code == 1, result.output
    # The line is wrong by the rules, and no longer adds up to the total the edit left alone.
    totals, rules = report["discrepancies"]
    assert {k: rules[k] for k in FIELDS} == {
        "record": number,
        "round_id": round_id,
        "clause": "BAC.pay-player",
        "path": path,
        "expected": str(paid),
        "actual": str(paid + 1),
    }
    assert {k: totals[k] for k in FIELDS} == {
        "record": number,
        "round_id": round_id,
        "clause": "CONTRACT.settlement",
        "path": "settlement.total_returned.minor_units",
        "expected": str(total + 1),
        "actual": str(total),
    }
    assert (rules["kind"], totals["kind"]) == ("rules", "totals")
    assert report["findings"] == {"rules": 1, "totals": 1, "broken": 1}
    # The record's bytes changed, so the next record's link to it breaks.
    broken = only(report["chain_problems"])
    following = audit_logs.rounds[index + 1].round_id
    assert (broken["record"], broken["round_id"], broken["kind"]) == (
        number + 1,
        following,
        "broken",
    )
    assert report["malformed"] == []
    assert report["totals"] == _totals(audit_logs.rounds, paid_extra=1)
    assert (
        f"record {number} ({round_id}): BAC.pay-player {path}: "
        f"expected {money_text(paid, 'EUR')} ({paid} minor units), "
        f"got {money_text(paid + 1, 'EUR')} ({paid + 1} minor units)" in result.output
    )
    assert (
        "audit: NOT clean: 2 discrepancies, 0 malformed records, 0 unreplayable records, "
        "1 chain problem, 0 log problems"
    ) in result.output


def test_a_card_changed_for_one_of_the_same_value(
    audit_logs: AuditLogs, json_lines: list[bytes], tmp_path: Path
) -> None:
    """The settlement stands; the recorded final state no longer matches the cards."""

    def natural(record: dict[str, Any]) -> bool:
        table = record["finalState"].get("baccarat", {})
        return (
            record["profileId"] == "baccarat-c"
            and len(table["playerCards"]) == len(table["bankerCards"]) == 2
            and max(table.get("playerTotal", 0), table.get("bankerTotal", 0)) >= 8
        )

    index, record = _find(json_lines, 3000, natural)
    old = record["cardsDealt"][0]
    new = old[0] + ("S" if old[1] != "S" else "H")
    record["cardsDealt"][0] = new
    tampered = list(json_lines)
    tampered[index] = dump_line(record)
    log = write_lines(tmp_path / "card.jsonl", tampered)

    result, report = verify(log, tmp_path / "report.json")

    number = index + 1
    shown = record["finalState"]["baccarat"]["playerCards"]
    assert shown[0] == old
    assert result.exit_code == 1, result.output
    finding = only(report["discrepancies"])
    assert {k: finding[k] for k in FIELDS} == {
        "record": number,
        "round_id": record["roundId"],
        # The state does not show the card dealt there: the dealing's clause.
        "clause": "BAC.deal",
        "path": "final_state.baccarat.player_cards[0]",
        "expected": new,
        "actual": old,
    }
    broken = only(report["chain_problems"])
    following = audit_logs.rounds[index + 1].round_id
    assert (broken["record"], broken["round_id"], broken["kind"]) == (
        number + 1,
        following,
        "broken",
    )
    assert report["totals"] == _totals(audit_logs.rounds)


def test_a_card_changed_for_another_value(
    audit_logs: AuditLogs, binary_records: list[bytes], tmp_path: Path
) -> None:
    index = next(
        i
        for i in range(3000, len(binary_records))
        if _parsed(binary_records[i]).profile_id == "blackjack-c"
    )
    record = _parsed(binary_records[index])
    card = record.cards_dealt[0]
    record.cards_dealt[0] = ("2" if card[0] != "2" else "9") + card[1]
    tampered = list(binary_records)
    tampered[index] = record.SerializeToString(deterministic=True)
    log = write_binary(tmp_path / "card.bin", tampered)

    result, report = verify(log, tmp_path / "report.json")

    number = index + 1
    assert result.exit_code == 1, result.output
    assert report["discrepancies"], "a card of another value changes the round"
    for finding in report["discrepancies"]:
        assert (finding["record"], finding["round_id"]) == (number, record.round_id)
        assert finding["path"].startswith(
            ("settlement.", "final_state.", "decisions[", "cards_dealt")
        )
        assert finding["clause"]
        assert finding["expected"] != finding["actual"]
    broken = only(report["chain_problems"])
    following = audit_logs.rounds[index + 1].round_id
    assert (broken["record"], broken["round_id"], broken["kind"]) == (
        number + 1,
        following,
        "broken",
    )
    assert report["malformed"] == []


def test_a_record_deleted(
    audit_logs: AuditLogs, binary_records: list[bytes], tmp_path: Path
) -> None:
    index = 3502
    gone = audit_logs.rounds[index]
    assert gone.profile_id == "baccarat-b"
    log = write_binary(
        tmp_path / "deleted.bin", binary_records[:index] + binary_records[index + 1 :]
    )

    result, report = verify(log, tmp_path / "report.json")

    assert result.exit_code == 1, result.output
    # Exactly one problem, at the record after the gap; every record still replays clean.
    broken = only(report["chain_problems"])
    after = audit_logs.rounds[index + 1].round_id
    assert (broken["record"], broken["round_id"], broken["kind"]) == (index + 1, after, "broken")
    assert "missing" in broken["message"]
    # The sequence numbers say how many are missing, and where.
    gap = only(report["log_problems"])
    assert (gap["record"], gap["round_id"], gap["kind"]) == (index + 1, after, "sequence-gap")
    assert (
        gap["message"]
        == f"sequence {index + 2} follows sequence {index}: 1 record missing before it"
    )
    _no_replay_problem(report)
    assert report["records"] == report["rounds"] == len(audit_logs.rounds) - 1
    assert report["profiles"]["baccarat-b"] == ROUNDS_PER_PROFILE - 1
    rest = audit_logs.rounds[:index] + audit_logs.rounds[index + 1 :]
    assert report["totals"] == _totals(rest)


def test_two_adjacent_records_swapped(
    audit_logs: AuditLogs, binary_records: list[bytes], tmp_path: Path
) -> None:
    index = 4000
    first, second = audit_logs.rounds[index], audit_logs.rounds[index + 1]
    assert first.table_id != second.table_id
    tampered = list(binary_records)
    tampered[index], tampered[index + 1] = tampered[index + 1], tampered[index]
    log = write_binary(tmp_path / "swapped.bin", tampered)

    result, report = verify(log, tmp_path / "report.json")

    assert result.exit_code == 1, result.output
    assert [(p["record"], p["round_id"], p["kind"]) for p in report["chain_problems"]] == [
        (index + 1, second.round_id, "reordered"),
        (index + 2, first.round_id, "reordered"),
    ]
    assert f"swapped with record {index + 2}" in report["chain_problems"][0]["message"]
    assert f"swapped with record {index + 1}" in report["chain_problems"][1]["message"]
    # The second of them comes back in number and in time: one problem of each.
    assert [(p["record"], p["round_id"], p["kind"]) for p in report["log_problems"]] == [
        (index + 2, first.round_id, "sequence-reversal"),
        (index + 2, first.round_id, "time-backwards"),
    ]
    assert report["log_problems"][0]["message"] == (
        f"sequence {index + 1} comes after sequence {index + 2}"
    )
    _no_replay_problem(report)
    assert report["rounds"] == len(audit_logs.rounds)
    assert report["totals"] == _totals(audit_logs.rounds)


def test_a_truncated_last_line(
    audit_logs: AuditLogs, json_lines: list[bytes], tmp_path: Path
) -> None:
    tampered = list(json_lines)
    tampered[-1] = tampered[-1][: len(tampered[-1]) // 2]
    log = write_lines(tmp_path / "cut.jsonl", tampered)

    result, report = verify(log, tmp_path / "report.json")

    count = len(json_lines)
    assert result.exit_code == 1, result.output
    bad = only(report["malformed"])
    assert (bad["record"], bad["line"], bad["offset"]) == (
        count,
        count,
        sum(len(line) for line in json_lines[:-1]),
    )
    assert bad["reason"].startswith("truncated last line: ")
    # Every other record is verified, and clean.
    assert report["records"] == count
    assert report["rounds"] == count - 1
    assert (report["chain_problems"], report["discrepancies"]) == ([], [])
    assert report["totals"] == _totals(audit_logs.rounds[:-1])
    assert (
        "audit: NOT clean: 0 discrepancies, 1 malformed record, 0 unreplayable records, "
        "0 chain problems, 0 log problems"
    ) in result.output


def test_a_truncated_last_binary_record(
    audit_logs: AuditLogs, binary_records: list[bytes], tmp_path: Path
) -> None:
    log = write_binary(tmp_path / "cut.bin", binary_records)
    size = log.stat().st_size
    with log.open("r+b") as handle:
        handle.truncate(size - 100)

    result, report = verify(log, tmp_path / "report.json")

    count, last = len(binary_records), len(binary_records[-1])
    assert result.exit_code == 1, result.output
    bad = only(report["malformed"])
    assert (bad["record"], bad["offset"]) == (count, size - last - len(varint(last)))
    assert bad["reason"] == f"truncated record: {last - 100} of {last} bytes"
    assert report["rounds"] == count - 1
    assert (report["chain_problems"], report["discrepancies"]) == ([], [])
    assert report["totals"] == _totals(audit_logs.rounds[:-1])


def test_values_from_the_log_are_printed_as_they_are(
    binary_records: list[bytes], tmp_path: Path
) -> None:
    """The log's text is never read as console markup, which could garble it or crash the CLI."""
    record = _parsed(binary_records[2])
    assert record.profile_id == "baccarat-b"
    shown = record.final_state.baccarat.player_cards
    real = list(shown)
    shown[0] = "[/]"
    log = write_binary(tmp_path / "markup.bin", [record.SerializeToString()])

    result, report = verify(log, tmp_path / "report.json", "--workers", 1)

    assert result.exit_code == 1, (result.output, result.exception)
    finding = only(report["discrepancies"])
    assert (finding["expected"], finding["actual"]) == (real[0], "[/]")
    assert (
        f"record 1 ({record.round_id}): {finding['clause']} final_state.baccarat.player_cards[0]: "
        f"expected {finding['expected']}, got {finding['actual']}"
    ) in result.output


def test_a_log_segment_reports_only_its_missing_beginning(
    audit_logs: AuditLogs, binary_records: list[bytes], tmp_path: Path
) -> None:
    # Cut the log inside a roulette table's run of spins, as log rotation would: the boards of
    # tables under way are unknown, not empty, so nothing but the missing beginning is wrong.
    seen: dict[str, int] = {}
    start = 0
    for index, played in enumerate(audit_logs.rounds):
        if played.profile_id.startswith("roulette"):
            seen[played.table_id] = seen.get(played.table_id, 0) + 1
            if seen[played.table_id] == 5:
                start = index
                break
    assert start > 0
    log = write_binary(tmp_path / "segment.bin", binary_records[start:])

    result, report = verify(log, tmp_path / "report.json")

    assert result.exit_code == 1, result.output
    missing = only(report["chain_problems"])
    assert (missing["record"], missing["kind"]) == (1, "missing")
    # Its sequence numbers start where the log was cut: no gap is made up.
    assert report["log_problems"] == []
    _no_replay_problem(report)
    assert report["rounds"] == len(audit_logs.rounds) - start
