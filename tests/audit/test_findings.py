"""What a hostile tester tried on logs the adapter kit wrote: each is its own named finding.

Each case (``cases`` in conftest) damages the clean log once, the way a forger would: the
records after the damage are re-chained (but in ``duplicate-unchained``), so that only the
new checks can see it. The expectations come from the issue and RULES.md; the money from
the Settle answers the fixture received, not from the verifier.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from google.protobuf import json_format

from croupier.conformance.audit.replay import verify_one
from croupier.oracle.money import money_text
from croupier.v1 import round_pb2
from tests.audit.support import (
    CASE_RECORDS,
    CASES,
    INFLATED,
    AuditLogs,
    Case,
    PlayedRound,
    instant,
    only,
    read_lines,
    units,
    verify,
)


def _run(case: Case, tmp_path: Path) -> tuple[Result, dict[str, Any]]:
    return verify(case.path, tmp_path / "report.json", *case.options)


def _records(case: Case) -> list[dict[str, Any]]:
    return [json.loads(line) for line in read_lines(case.path)]


def _money(rounds: list[PlayedRound]) -> dict[str, int]:
    staked = sum(r.staked for r in rounds)
    paid = sum(r.returned for r in rounds)
    return {
        "staked": staked,
        "paid": paid,
        "expected_paid": paid,
        "difference": 0,
        "unverified_staked": 0,
        "unverified_paid": 0,
    }


@pytest.mark.parametrize("name", CASES)
def test_each_case_is_its_own_named_finding(
    cases: dict[str, Case], tmp_path: Path, name: str
) -> None:
    case = cases[name]
    result, report = _run(case, tmp_path)
    assert report["findings"] == case.findings
    if not case.findings:
        assert result.exit_code == 0, result.output
        assert report["verdict"] == "clean"
        return
    assert result.exit_code == 1, result.output
    assert report["verdict"] == "not clean"
    named = ", ".join(f"{kind} {count}" for kind, count in sorted(case.findings.items()))
    assert f"findings: {named}\n" in result.output
    assert "audit: NOT clean: " in result.output


def test_a_record_duplicated_and_rechained(
    cases: dict[str, Case], audit_logs: AuditLogs, tmp_path: Path
) -> None:
    result, report = _run(cases["duplicate"], tmp_path)
    records = _records(cases["duplicate"])
    copy = next(
        i for i in range(1, len(records)) if records[i]["roundId"] == records[i - 1]["roundId"]
    )
    found = only(report["log_problems"])
    assert (found["record"], found["round_id"], found["kind"]) == (
        copy + 1,
        records[copy]["roundId"],
        "duplicate",
    )
    assert found["message"] == f"the same round as record {copy}, again: counted once"
    assert f"record {copy + 1} ({records[copy]['roundId']}): duplicate: " in result.output
    # Counted once: the totals are those of the rounds played.
    assert report["records"] == CASE_RECORDS + 1
    assert report["rounds"] == CASE_RECORDS
    assert report["totals"] == {"EUR": _money(list(audit_logs.rounds[:CASE_RECORDS]))}


def test_a_copied_record_is_a_duplicate_not_a_reordering(
    cases: dict[str, Case], tmp_path: Path
) -> None:
    _, report = _run(cases["duplicate-unchained"], tmp_path)
    assert report["chain_problems"] == []
    assert only(report["log_problems"])["kind"] == "duplicate"
    assert report["rounds"] == CASE_RECORDS


def test_a_round_id_used_twice(
    cases: dict[str, Case], audit_logs: AuditLogs, tmp_path: Path
) -> None:
    _, report = _run(cases["round-id-reused"], tmp_path)
    records = _records(cases["round-id-reused"])
    numbers = [
        i + 1
        for i, r in enumerate(records)
        if r["roundId"] == only(report["log_problems"])["round_id"]
    ]
    assert len(numbers) == 2
    found = only(report["log_problems"])
    assert (found["record"], found["kind"]) == (numbers[1], "round-id-reused")
    assert found["message"] == f"round id already used by record {numbers[0]}, for another round"
    # Two rounds, both counted.
    assert report["rounds"] == CASE_RECORDS
    assert report["totals"] == {"EUR": _money(list(audit_logs.rounds[:CASE_RECORDS]))}


def test_an_edited_total(cases: dict[str, Case], audit_logs: AuditLogs, tmp_path: Path) -> None:
    result, report = _run(cases["totals"], tmp_path)
    found = only(report["discrepancies"])
    played = audit_logs.rounds[found["record"] - 1]
    assert found == {
        "record": found["record"],
        "round_id": played.round_id,
        "table_id": played.table_id,
        "kind": "totals",
        "clause": "CONTRACT.settlement",
        "path": "settlement.total_returned.minor_units",
        "expected": str(played.returned),
        "actual": str(played.returned + 1000),
        "message": found["message"],
        # An amount: in minor units as the log holds it, and in its currency.
        "currency": "EUR",
        "expected_amount": money_text(played.returned, "EUR"),
        "actual_amount": money_text(played.returned + 1000, "EUR"),
    }
    assert (
        f"record {found['record']} ({played.round_id}): CONTRACT.settlement "
        f"settlement.total_returned.minor_units: "
        f"expected {money_text(played.returned, 'EUR')} ({played.returned} minor units), "
        f"got {money_text(played.returned + 1000, 'EUR')} ({played.returned + 1000} minor units)"
    ) in result.output
    # How to see that round as recorded: the recall command of the log audited.
    assert "audit recall " in result.output
    assert " --round ROUND" in result.output
    # The money is the lines' money: the edited total is not believed.
    assert report["totals"] == {"EUR": _money(list(audit_logs.rounds[:CASE_RECORDS]))}


def test_a_line_in_another_currency(
    cases: dict[str, Case], audit_logs: AuditLogs, tmp_path: Path
) -> None:
    _, report = _run(cases["mixed-currency"], tmp_path)
    stake, returned = report["discrepancies"]
    number = stake["record"]
    record = _records(cases["mixed-currency"])[number - 1]
    at, line = next(
        (i, line)
        for i, line in enumerate(record["settlement"]["lines"])
        if line["returned"]["currencyCode"] == "GBP"
    )
    for found, amount in ((stake, "stake"), (returned, "returned")):
        assert (found["record"], found["kind"], found["clause"]) == (
            number,
            "mixed-currency",
            "TABLE.currency",
        )
        assert found["path"] == f"settlement.lines[{at}].{amount}.currency_code"
        assert (found["expected"], found["actual"]) == ("EUR", "GBP")
    # The line's money is GBP, not EUR: the EUR rounds lack it, and no rule pays GBP.
    gbp_staked, gbp_paid = units(line["stake"]), units(line["returned"])
    eur = _money(list(audit_logs.rounds[:CASE_RECORDS]))
    assert report["totals"] == {
        "EUR": {
            **eur,
            "staked": eur["staked"] - gbp_staked,
            "paid": eur["paid"] - gbp_paid,
            "difference": -gbp_paid,
        },
        "GBP": {
            "staked": gbp_staked,
            "paid": gbp_paid,
            "expected_paid": 0,
            "difference": gbp_paid,
            "unverified_staked": 0,
            "unverified_paid": 0,
        },
    }


def test_an_unreplayable_record_keeps_its_money_in_the_totals(
    cases: dict[str, Case], audit_logs: AuditLogs, tmp_path: Path
) -> None:
    result, report = _run(cases["unreplayable"], tmp_path)
    found = only(report["unreplayable"])
    number = found["record"]
    played = audit_logs.rounds[number - 1]
    record = _records(cases["unreplayable"])[number - 1]
    assert record["seats"][0]["balance"]["minorUnits"] == "1"
    assert found["round_id"] == played.round_id
    assert found["reason"].startswith("INSUFFICIENT_BALANCE: ")
    assert report["malformed"] == []
    paid = sum(units(line.get("returned")) for line in record["settlement"]["lines"])
    assert paid >= INFLATED
    assert f"record {number} ({played.round_id}): INSUFFICIENT_BALANCE" in result.output
    assert f"(paid {money_text(paid, 'EUR')}: counted as unverified)" in result.output
    # In the totals, as paid and unverified; the rules' total lacks only this round.
    eur = _money(list(audit_logs.rounds[:CASE_RECORDS]))
    assert report["totals"] == {
        "EUR": {
            **eur,
            "paid": eur["paid"] - played.returned + paid,
            "expected_paid": eur["expected_paid"] - played.returned,
            "unverified_staked": played.staked,
            "unverified_paid": paid,
        }
    }
    assert report["rounds"] == CASE_RECORDS


def test_a_record_removed_and_the_rest_rechained(
    cases: dict[str, Case], audit_logs: AuditLogs, tmp_path: Path
) -> None:
    _, report = _run(cases["sequence-gap"], tmp_path)
    assert report["chain_problems"] == []
    found = only(report["log_problems"])
    number = found["record"]
    # The record after the gap carries the number of the one after it in the played log.
    assert found["round_id"] == audit_logs.rounds[number].round_id
    assert found["message"] == (
        f"sequence {number + 1} follows sequence {number - 1}: 1 record missing before it"
    )
    assert report["rounds"] == CASE_RECORDS - 1


def test_a_time_that_goes_backwards(cases: dict[str, Case], tmp_path: Path) -> None:
    _, report = _run(cases["time-backwards"], tmp_path)
    found = only(report["log_problems"])
    records = _records(cases["time-backwards"])
    number = found["record"]
    assert found["kind"] == "time-backwards"
    assert instant(records[number - 1]["recordedAt"]) < instant(records[number - 2]["recordedAt"])
    assert f"before record {number - 1} (" in found["message"]


def test_a_round_slipped_in_under_its_neighbours_number(
    cases: dict[str, Case], audit_logs: AuditLogs, tmp_path: Path
) -> None:
    _, report = _run(cases["sequence-repeat"], tmp_path)
    found = only(report["log_problems"])
    number = found["record"]
    assert found["message"] == f"sequence {number - 1} again"
    assert found["round_id"] == _records(cases["sequence-repeat"])[number - 1]["roundId"]
    assert found["round_id"] not in {r.round_id for r in audit_logs.rounds[:CASE_RECORDS]}
    assert report["rounds"] == CASE_RECORDS + 1


def test_a_log_of_an_older_writer_says_what_rests_on_the_chain_alone(
    cases: dict[str, Case], tmp_path: Path
) -> None:
    result, report = _run(cases["legacy"], tmp_path)
    assert result.exit_code == 0, result.output
    assert report["statements"] == [
        report["signing"]["statement"],
        (
            f"legacy: {CASE_RECORDS} records carry no sequence number or no time (an older "
            "writer): their order and completeness rest on the hash chain alone."
        ),
    ]
    assert report["statements"][1] in " ".join(result.output.split())


def test_a_stake_in_another_currency_is_named_and_its_money_kept(audit_logs: AuditLogs) -> None:
    """TABLE.currency holds for every amount of the round, not only the settlement's."""
    at = next(i for i, r in enumerate(audit_logs.rounds) if r.profile_id.startswith("baccarat"))
    record = json_format.Parse(read_lines(audit_logs.jsonl)[at], round_pb2.RoundRecord())
    record.seats[0].balance.currency_code = "EUR"  # the round's own code: no finding
    record.seats[0].bets[0].stake.currency_code = "GBP"
    result = verify_one(at + 1, record.SerializeToString(), None, ())
    (found,) = result.findings
    assert (found.kind, found.clause, found.path) == (
        "mixed-currency",
        "TABLE.currency",
        "seats[0].bets[0].stake.currency_code",
    )
    assert (found.expected, found.actual) == ("EUR", "GBP")
    # The oracle cannot deal it; its money stays, unverified, in its settlement's currency.
    assert result.expected_paid is None
    assert "GBP" in result.unreplayable
    played = audit_logs.rounds[at]
    assert result.money == (("EUR", played.staked, played.returned),)
