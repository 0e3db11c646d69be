"""The report's lists, each spooled to a temporary file so that memory stays constant."""

from __future__ import annotations

import json
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from typing import IO, Any

from croupier.conformance.audit.problem import CHAIN_KINDS, Problem
from croupier.conformance.audit.replay import Finding, RecordResult
from croupier.conformance.inputs import amount_of, value_text
from croupier.oracle.money import money_text


class Spool:
    """Items spooled to a temporary file, so memory stays constant; the first few as text."""

    def __init__(self, keep: int) -> None:
        self.handle: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - closed in drain
        self.count = 0
        self.keep = keep
        self.first: list[str] = []

    def add(self, item: dict[str, Any], line: str) -> None:
        """Spool an item of the report, and keep its console line while few are kept."""
        self.handle.write(json.dumps(item, sort_keys=True) + "\n")
        self.count += 1
        if len(self.first) < self.keep:
            self.first.append(line)

    def drain(self) -> Iterator[str]:
        """The items as JSON lines, in the order added; the spool is closed after."""
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


class Spools:
    """Every list of the report, each in its spool, in the report's order."""

    def __init__(self, keep: int) -> None:
        self.chain = Spool(keep)
        self.log = Spool(keep)
        self.discrepancies = Spool(keep)
        self.malformed = Spool(keep)
        self.unreplayable = Spool(keep)
        self.kinds: defaultdict[str, int] = defaultdict(int)

    def lists(self) -> tuple[tuple[str, Spool], ...]:
        """Each list by its name in the report."""
        return (
            ("chain_problems", self.chain),
            ("log_problems", self.log),
            ("discrepancies", self.discrepancies),
            ("malformed", self.malformed),
            ("unreplayable", self.unreplayable),
        )

    def problem(self, problem: Problem) -> None:
        """A chain or log problem."""
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
        """A discrepancy of a record, with its amounts in their currency."""
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
        """An entry that is neither a record nor a checkpoint."""
        self.kinds["malformed"] += 1
        self.malformed.add(
            item,
            f"record {item['record']} (byte {item['offset']}): {brief(item['reason'], 3 * BRIEF)}",
        )

    def unreplayable_record(self, result: RecordResult) -> None:
        """A record the oracle cannot replay: its money is counted as unverified."""
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
        """Drop every spool unread."""
        for _, spool in self.lists():
            spool.handle.close()
