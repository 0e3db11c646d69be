"""Audit logs of ``RoundRecord``s: JSON Lines or length-delimited binary, hash-chained.

Canonical bytes of a record: its protobuf binary encoding with deterministic
serialization (fields in field-number order, map entries sorted), the record's
own ``previous_record_sha256`` included as written. Each record after the first
carries the SHA-256 of the previous record's canonical bytes, so removing,
reordering or altering a record breaks the chain.
"""

from __future__ import annotations

import codecs
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from croupier.v1 import round_pb2
from google.protobuf import json_format
from google.protobuf.message import DecodeError

FORMATS = ("jsonl", "binary")


def canonical_bytes(record: round_pb2.RoundRecord) -> bytes:
    """The bytes a hash link covers (see the module docstring)."""
    return record.SerializeToString(deterministic=True)


def link(record: round_pb2.RoundRecord) -> bytes:
    """The SHA-256 the next record must carry."""
    return hashlib.sha256(canonical_bytes(record)).digest()


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


class AuditWriter:
    """Appends records to a log, filling each one's link to the previous record."""

    def __init__(self, handle: BinaryIO, fmt: str, previous: bytes = b"") -> None:
        if fmt not in FORMATS:
            raise ValueError(f"audit format must be one of {', '.join(FORMATS)}, got {fmt!r}")
        self._handle = handle
        self.format = fmt
        self._previous = previous
        self.count = 0

    @classmethod
    def open(cls, path: Path, fmt: str = "jsonl") -> AuditWriter:
        """A writer that creates or truncates ``path``."""
        return cls(path.open("wb"), fmt)

    def append(self, record: round_pb2.RoundRecord) -> round_pb2.RoundRecord:
        """Chain the record to the previous one, write it, and return it as written."""
        record.previous_record_sha256 = self._previous
        if self.format == "jsonl":
            line = json.dumps(json_format.MessageToDict(record), separators=(",", ":"))
            self._handle.write(line.encode("utf-8") + b"\n")
        else:
            data = record.SerializeToString(deterministic=True)
            self._handle.write(_varint(len(data)) + data)
        self._handle.flush()
        self._previous = link(record)
        self.count += 1
        return record

    def close(self) -> None:
        """Close the log file."""
        self._handle.close()


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """One entry read from a log: a record, or why it is malformed, with its position."""

    number: int
    offset: int
    record: round_pb2.RoundRecord | None
    error: str = ""


#: Bytes that never occur in text: control characters other than tab, line feed, carriage return.
_NOT_TEXT = frozenset(range(0x20)) - {0x09, 0x0A, 0x0D} | {0x7F}
#: Longest record a binary log may hold; a longer length prefix is garbage, not a record.
MAX_RECORD_BYTES = 64 << 20


def detect_format(path: Path) -> str:
    """``jsonl`` if the log starts as text (UTF-8, no control characters), else ``binary``.

    A binary log's length prefix is never valid UTF-8 for a record of 128 bytes or more, and
    its protobuf tags and short lengths are control bytes; a text file that is not JSON is read
    as lines, each one malformed, not as binary.
    """
    with path.open("rb") as handle:
        head = handle.read(64)
    if _NOT_TEXT.intersection(head):
        return "binary"
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return "binary"
    return "jsonl"


def read_log(path: Path, fmt: str | None = None) -> Iterator[Entry]:
    """Stream a log's entries in order, in constant memory; malformed ones carry an error."""
    fmt = fmt or detect_format(path)
    if fmt == "jsonl":
        yield from _read_jsonl(path)
    else:
        yield from _read_binary(path)


def _read_jsonl(path: Path) -> Iterator[Entry]:
    offset = 0
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            start = offset
            offset += len(raw)
            if not raw.strip():
                continue
            # A last line without its newline was cut short while being written.
            truncated = not raw.endswith(b"\n")
            record = round_pb2.RoundRecord()
            try:
                json_format.Parse(raw.decode("utf-8"), record)
            except (json_format.ParseError, UnicodeDecodeError) as exc:
                reason = "truncated last line" if truncated else "not a RoundRecord"
                yield Entry(
                    number=number, offset=start, record=None, error=f"{reason}: {exc}"[:300]
                )
                continue
            yield Entry(number=number, offset=start, record=record)


def _read_binary(path: Path) -> Iterator[Entry]:
    with path.open("rb") as handle:
        number = 0
        while True:
            start = handle.tell()
            length, shift = 0, 0
            first = handle.read(1)
            if not first:
                return
            number += 1
            byte = first[0]
            while True:
                length |= (byte & 0x7F) << shift
                if not byte & 0x80:
                    break
                shift += 7
                more = handle.read(1)
                if not more or shift > 63:
                    error = "truncated length prefix" if not more else "overlong length prefix"
                    yield Entry(number=number, offset=start, record=None, error=error)
                    return
                byte = more[0]
            if length > MAX_RECORD_BYTES:
                yield Entry(
                    number=number,
                    offset=start,
                    record=None,
                    error=f"implausible length prefix: {length} bytes (at most {MAX_RECORD_BYTES})",
                )
                return
            data = handle.read(length)
            if len(data) < length:
                yield Entry(
                    number=number,
                    offset=start,
                    record=None,
                    error=f"truncated record: {len(data)} of {length} bytes",
                )
                return
            record = round_pb2.RoundRecord()
            try:
                record.ParseFromString(data)
            except DecodeError as exc:
                yield Entry(
                    number=number, offset=start, record=None, error=f"not a RoundRecord: {exc}"
                )
                continue
            yield Entry(number=number, offset=start, record=record)
