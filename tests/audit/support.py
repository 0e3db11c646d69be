"""Helpers for the audit tests: the logs fixture's types, tampering, and running the CLI."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from google.protobuf import json_format, timestamp_pb2
from google.protobuf.message import Message

from croupier.conformance.cli import main
from croupier.v1 import round_pb2


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
    #: The round id a later round reuses (record 41's, whose round is at 4500 or later).
    reused: str
    #: The round whose record was copied right after itself.
    duplicated: str


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


def instant(text: str) -> tuple[int, int]:
    """A JSON log's ``recordedAt`` as (seconds, nanos): its text has 0, 3, 6 or 9 fraction
    digits, so two times do not sort as strings ("45Z" sorts after "45.001Z")."""
    stamp = timestamp_pb2.Timestamp()
    stamp.FromJsonString(text)
    return stamp.seconds, stamp.nanos


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


def verify(
    log: Path, report: Path, *options: object, codes: frozenset[int] = frozenset({0, 1})
) -> tuple[Result, dict[str, Any]]:
    """``croupier audit verify LOG --report REPORT OPTIONS``: the result and the parsed report."""
    result = invoke("audit", "verify", log, "--report", report, *options)
    assert result.exit_code in codes, (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result, json.loads(report.read_text(encoding="utf-8"))


def only(items: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The one item of a report's list; fails with the list when there is not exactly one."""
    assert len(items) == 1, items
    return items[0]


# --- re-chaining, as someone editing a log would ----------------------------------------------


def sha256_link(record: round_pb2.RoundRecord) -> bytes:
    """The link the next record carries: SHA-256 of the deterministic encoding (round.proto)."""
    return hashlib.sha256(record.SerializeToString(deterministic=True)).digest()


Entry = round_pb2.RoundRecord | round_pb2.AuditCheckpointEntry


def parse_entry(data: bytes) -> Entry:
    """A binary log entry: a checkpoint (field 15 set) or a record."""
    checkpoint = round_pb2.AuditCheckpointEntry()
    checkpoint.ParseFromString(data)
    if checkpoint.HasField("checkpoint"):
        return checkpoint
    record = round_pb2.RoundRecord()
    record.ParseFromString(data)
    return record


def rechain(entries: Sequence[Entry], *, renumber: bool = False, heads: bool = False) -> None:
    """Recompute every link, and if asked the sequence numbers and the checkpoints' heads.

    ``heads`` is what a forger without the key can do to checkpoints: their signatures stay.
    """
    previous, sequence = b"", 0
    for entry in entries:
        if isinstance(entry, round_pb2.RoundRecord):
            entry.previous_record_sha256 = previous
            if renumber:
                entry.sequence = sequence + 1
            sequence = entry.sequence
            previous = sha256_link(entry)
        elif heads:
            entry.checkpoint.sequence = sequence
            entry.checkpoint.chain_head_sha256 = previous


def write_json(path: Path, entries: Iterable[Message]) -> Path:
    """Entries as JSON lines, in the writer's layout."""
    return write_lines(path, [dump_line(json_format.MessageToDict(e)) for e in entries])


@dataclass(frozen=True, slots=True, kw_only=True)
class SignedLog:
    """The demo engine's signed binary log, written in two runs of the engine."""

    path: Path
    private_key: Path
    public_key: Path
    #: Every entry as written, serialized: records and checkpoints.
    entries: tuple[bytes, ...]
    rounds: tuple[PlayedRound, ...]
    #: Records written by the first run.
    first_run: int
    checkpoint_every: int


#: Rounds per profile of the clean log: 36 roulette vectors of 20 spins; 7 x 720 = 5,040 in all.
ROUNDS_PER_PROFILE = 720

#: An inflated payout, hidden in a record the oracle cannot replay.
INFLATED = 99_999_999

#: Records of the clean log the unsigned cases start from (50 rounds per profile).
CASE_RECORDS = 350

#: Every case of damage the ``cases`` fixture builds.
CASES = (
    "duplicate",
    "duplicate-unchained",
    "round-id-reused",
    "totals",
    "mixed-currency",
    "unreplayable",
    "sequence-gap",
    "time-backwards",
    "sequence-repeat",
    "legacy",
    "signed",
    "signed-without-key",
    "truncated",
    "truncated-without-key",
    "truncated-unsealed",
    "truncated-unsealed-without-key",
    "rechained",
    "rechained-without-key",
    "forged",
    "forged-without-key",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    """A log with one kind of damage, how to verify it, and the findings it must give."""

    path: Path
    options: tuple[object, ...]
    findings: dict[str, int]
