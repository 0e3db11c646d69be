"""Helpers for the audit tests: the logs fixture's types, tampering, and running the CLI."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from conformance.cli import main


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayedRound:
    """One round as the fixture played it, with the totals its Settle answer gave."""

    round_id: str
    profile_id: str
    table_id: str
    decisions: int
    staked: int
    returned: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditLogs:
    """The fixture's logs: the same records as JSON lines and as binary, in playing order."""

    jsonl: Path
    binary: Path
    rounds: tuple[PlayedRound, ...]
    seconds: float


@dataclass(frozen=True, slots=True, kw_only=True)
class DamagedLog:
    """The binary log damaged in many ways, and its reference report (``--workers 1``)."""

    path: Path
    #: The entries as written, before the tail was cut.
    records: tuple[bytes, ...]
    report: bytes
    #: The rounds whose records were altered, in the order of the fixture's changes.
    altered: tuple[str, ...]
    #: The round whose record was removed.
    deleted: str
    #: The two rounds whose records were swapped, in their original order.
    swapped: tuple[str, str]


# --- JSON lines, as the AuditWriter writes them -----------------------------------------------


def read_lines(path: Path) -> list[bytes]:
    """A JSON log's lines, newline included."""
    with path.open("rb") as handle:
        return handle.readlines()


def dump_line(record: dict[str, Any]) -> bytes:
    """A record's JSON line, in the writer's layout (compact, keys in the order given)."""
    return json.dumps(record, separators=(",", ":")).encode("utf-8") + b"\n"


def write_lines(path: Path, lines: Iterable[bytes]) -> Path:
    """Write raw lines (no relinking: a tampered log keeps the links it had)."""
    with path.open("wb") as handle:
        handle.writelines(lines)
    return path


def units(amount: dict[str, Any] | None) -> int:
    """Minor units of an Amount in its JSON form (int64 is a string; zero is left out)."""
    return int((amount or {}).get("minorUnits", "0"))


# --- binary, length-delimited ---------------------------------------------------------------


def varint(value: int) -> bytes:
    """A protobuf varint, as a length prefix."""
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if not value:
            out.append(byte)
            return bytes(out)
        out.append(byte | 0x80)


def write_binary(path: Path, records: Iterable[bytes]) -> Path:
    """Write serialized records length-delimited, as they are (no relinking)."""
    with path.open("wb") as handle:
        for data in records:
            handle.write(varint(len(data)) + data)
    return path


# --- the CLI ----------------------------------------------------------------------------------


def invoke(*args: object) -> Result:
    """Run ``croupier ARGS`` in process; wide columns so that no line wraps."""
    return CliRunner().invoke(main, [str(a) for a in args], env={"COLUMNS": "400"})


def verify(log: Path, report: Path, *options: object) -> tuple[Result, dict[str, Any]]:
    """``croupier audit verify LOG --report REPORT OPTIONS``: the result and the parsed report."""
    result = invoke("audit", "verify", log, "--report", report, *options)
    assert result.exit_code in {0, 1}, (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result, json.loads(report.read_text(encoding="utf-8"))


def only(items: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The one item of a report's list; fails with the list when there is not exactly one."""
    assert len(items) == 1, items
    return items[0]
