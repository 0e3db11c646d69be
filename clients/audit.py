"""Audit logs of ``RoundRecord``s: JSON Lines or length-delimited binary, hash-chained, signed.

Canonical bytes of a record: its protobuf binary encoding with deterministic
serialization (fields in field-number order, map entries sorted), the record's
own ``previous_record_sha256`` included as written. Each record after the first
carries the SHA-256 of the previous record's canonical bytes, so removing,
reordering or altering a record breaks the chain. Each record also carries its
sequence number in the log, the time it was written and the engine that wrote it.

Anyone who edits a record can recompute the chain after it. A writer given an
Ed25519 key therefore also writes signed checkpoints (``AuditCheckpointEntry``)
between the records: every N records and when it closes the log, each sealing
the sequence number and chain head reached (``round.proto`` defines the bytes
signed). Only the key's holder can write a valid one.

A writer never loses a log: opening an existing log continues its chain and its
sequence; a log it cannot continue is refused, never truncated or overwritten. A writer
with a key continues only a log that ends with a closing checkpoint its own key signed,
sealing the log's last record: continuing anything else would seal records nobody can vouch
for (a tail edited after a crash, a log cut short, a round appended). Each checkpoint it
writes counts the restarts of the log before it, so that no restart can be hidden.
"""

from __future__ import annotations

import codecs
import errno
import fcntl
import functools
import hashlib
import json
import os
import stat
import struct
from array import array
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, NamedTuple

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import DecodeError, Message

from croupier.v1 import round_pb2

FORMATS = ("jsonl", "binary")
#: Records between two signed checkpoints, by default.
CHECKPOINT_EVERY = 1000
#: What a checkpoint's signed bytes start with (round.proto, AuditCheckpoint).
_SIGNED_PREFIX = b"croupier.v1.AuditCheckpoint\x00"


class AuditLogError(Exception):
    """A log that cannot be written to, or a key that cannot be used; the message says why."""


def canonical_bytes(record: round_pb2.RoundRecord) -> bytes:
    """The bytes a hash link covers (see the module docstring)."""
    return record.SerializeToString(deterministic=True)


def link(record: round_pb2.RoundRecord) -> bytes:
    """The SHA-256 the next record must carry."""
    return hashlib.sha256(canonical_bytes(record)).digest()


# --- keys and checkpoints ---------------------------------------------------------------------


def signed_bytes(checkpoint: round_pb2.AuditCheckpoint) -> bytes:
    """The bytes a checkpoint's signature covers, as ``round.proto`` defines them."""
    head = bytes(checkpoint.chain_head_sha256) or bytes(32)
    return (
        _SIGNED_PREFIX
        + struct.pack(">Q", checkpoint.sequence)
        + head
        + (b"\x01" if checkpoint.closing else b"\x00")
        + struct.pack(">qI", checkpoint.signed_at.seconds, checkpoint.signed_at.nanos)
        + (struct.pack(">I", checkpoint.restarts) if checkpoint.restarts else b"")
    )


def key_id(public_key: Ed25519PublicKey) -> bytes:
    """The SHA-256 of a public key's raw bytes: the name a checkpoint gives its key."""
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).digest()


def checkpoint_error(
    checkpoint: round_pb2.AuditCheckpoint, keys: Mapping[bytes, Ed25519PublicKey]
) -> str:
    """Why a checkpoint's signature is not valid under ``keys`` (by key id); empty if it is."""
    key = keys.get(bytes(checkpoint.public_key_sha256))
    if key is None:
        named = bytes(checkpoint.public_key_sha256).hex()[:16] or "no key"
        return f"signed by key {named}, which is none of the public keys given"
    try:
        key.verify(bytes(checkpoint.signature), signed_bytes(checkpoint))
    except InvalidSignature:
        return "the signature does not verify: the checkpoint was not written by the key's holder"
    return ""


def _read_key_file(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise AuditLogError(f"cannot read the {what} {path}: {exc.strerror}") from None


def load_private_key(path: Path) -> Ed25519PrivateKey:
    """An Ed25519 private key from an unencrypted PEM file (``croupier audit keygen``)."""
    try:
        key = serialization.load_pem_private_key(_read_key_file(path, "audit key"), password=None)
    except (ValueError, TypeError) as exc:
        raise AuditLogError(f"{path} is not an unencrypted PEM private key: {exc}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise AuditLogError(f"{path} holds a {type(key).__name__}, not an Ed25519 private key")
    return key


def load_public_key(path: Path) -> Ed25519PublicKey:
    """An Ed25519 public key from a PEM file (``croupier audit keygen``)."""
    try:
        key = serialization.load_pem_public_key(_read_key_file(path, "public key"))
    except (ValueError, TypeError) as exc:
        raise AuditLogError(f"{path} is not a PEM public key: {exc}") from None
    if not isinstance(key, Ed25519PublicKey):
        raise AuditLogError(f"{path} holds a {type(key).__name__}, not an Ed25519 public key")
    return key


def generate_key_pair(private_path: Path, public_path: Path) -> bytes:
    """Write a new Ed25519 key pair as PEM files (the private one readable by its owner only).

    Returns the key id. An existing file is never overwritten.
    """
    for path in (private_path, public_path):
        if path.exists():
            raise AuditLogError(f"{path} already exists: a key file is never overwritten")
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    for path, data, mode in ((private_path, private, 0o600), (public_path, public, 0o644)):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        except OSError as exc:
            raise AuditLogError(f"cannot write {path}: {exc.strerror}") from None
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    return key_id(key.public_key())


# --- entries ------------------------------------------------------------------------------------


def encode_entry(message: Message, fmt: str) -> bytes:
    """One entry of a log in its format: a JSON line, or a length-prefixed message."""
    if fmt == "jsonl":
        line = json.dumps(json_format.MessageToDict(message), separators=(",", ":"))
        return line.encode("utf-8") + b"\n"
    data = message.SerializeToString(deterministic=True)
    return _varint(len(data)) + data


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


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """One entry read from a log, with its position: a record, a checkpoint, or why neither."""

    number: int
    offset: int
    record: round_pb2.RoundRecord | None
    checkpoint: round_pb2.AuditCheckpoint | None = None
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


def _json_object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object whose keys are all different: a repeated key would make two readings."""
    value: dict[str, object] = {}
    for key, item in pairs:
        if key in value:
            raise ValueError(f"the key {key!r} appears twice")
        value[key] = item
    return value


@functools.cache
def _json_names(descriptor: Descriptor) -> dict[str, FieldDescriptor]:
    """A message's fields by every name protobuf's JSON parser takes: the field's and its JSON one."""
    names = {field.name: field for field in descriptor.fields}
    names.update({field.json_name: field for field in descriptor.fields})
    return names


def _two_spellings(value: object, descriptor: Descriptor, path: str = "") -> str:
    """Why a JSON object names one field twice (``roundId`` and ``round_id``); empty if not.

    protobuf's JSON parser takes a field under either name, and the last one read wins: a
    decoy under the other name would leave the record (and its hash) as it was while a
    reader of the JSON (``jq``) takes the decoy. A repeated key is refused as a line that says
    two things; so is a field under two names, at any depth.
    """
    if not isinstance(value, dict) or descriptor.full_name.startswith("google.protobuf."):
        return ""
    seen: dict[str, str] = {}
    for key, item in value.items():
        field = _json_names(descriptor).get(key)
        if field is None:
            continue  # the parser refuses an unknown field
        if field.name in seen:
            return (
                f"the field {path}{field.name} appears twice, as {seen[field.name]!r} and {key!r}"
            )
        seen[field.name] = key
        kind = field.message_type
        if kind is None:
            continue
        elements: list[tuple[str, object]] = [(field.name, item)]
        if kind.GetOptions().map_entry:
            kind = kind.fields_by_name["value"].message_type
            pairs = item.items() if isinstance(item, dict) else ()
            elements = [(f"{field.name}[{k}]", v) for k, v in pairs]
        elif field.is_repeated:
            listed = item if isinstance(item, list) else []
            elements = [(f"{field.name}[{i}]", v) for i, v in enumerate(listed)]
        for where, element in elements:
            why = "" if kind is None else _two_spellings(element, kind, f"{path}{where}.")
            if why:
                return why
    return ""


def _json_entry(number: int, offset: int, raw: bytes) -> Entry:
    """A JSON line as an entry; ``raw`` without a newline is a line cut short while written."""

    def bad(why: object) -> Entry:
        reason = "not a RoundRecord" if raw.endswith(b"\n") else "truncated last line"
        return Entry(number=number, offset=offset, record=None, error=f"{reason}: {why}"[:300])

    try:
        value = json.loads(raw.decode("utf-8"), object_pairs_hook=_json_object)
    except ValueError as exc:  # not JSON, not UTF-8, or a repeated key
        return bad(exc)
    if not isinstance(value, dict):
        return bad("a log line holds one JSON object")
    kind = round_pb2.AuditCheckpointEntry if "checkpoint" in value else round_pb2.RoundRecord
    twice = _two_spellings(value, kind.DESCRIPTOR)
    if twice:
        return bad(twice)
    try:
        if "checkpoint" in value:
            entry = round_pb2.AuditCheckpointEntry()
            json_format.ParseDict(value, entry)
            return Entry(number=number, offset=offset, record=None, checkpoint=entry.checkpoint)
        record = round_pb2.RoundRecord()
        json_format.ParseDict(value, record)
    except json_format.ParseError as exc:
        return bad(exc)
    return Entry(number=number, offset=offset, record=record)


def _binary_entry(number: int, offset: int, data: bytes) -> Entry:
    record = round_pb2.RoundRecord()
    try:
        record.ParseFromString(data)
        # A record with a round id is a record (the cheap test first: nearly every entry).
        if not record.round_id and not record.ListFields():
            # No field of a record: a checkpoint entry (field 15), or an empty record.
            entry = round_pb2.AuditCheckpointEntry()
            entry.ParseFromString(data)
            if entry.HasField("checkpoint"):
                return Entry(number=number, offset=offset, record=None, checkpoint=entry.checkpoint)
    except DecodeError as exc:
        return Entry(number=number, offset=offset, record=None, error=f"not a RoundRecord: {exc}")
    return Entry(number=number, offset=offset, record=record)


def entry_at(handle: IO[bytes], fmt: str, offset: int) -> Entry:
    """The entry of a log that starts at ``offset`` (an ``Entry.offset``), read again.

    ``handle`` is the log opened for reading in binary; the entry's number is 0.
    """
    handle.seek(offset)
    if fmt == "jsonl":
        return _json_entry(0, offset, handle.readline())
    frame = next(_frames(handle), _Frame(number=0, offset=offset, error="no entry at offset"))
    if frame.error:
        return Entry(number=0, offset=offset, record=None, error=frame.error)
    return _binary_entry(0, offset, frame.data)


def _read_jsonl(path: Path) -> Iterator[Entry]:
    offset = 0
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            start = offset
            offset += len(raw)
            if raw.strip():
                yield _json_entry(number, start, raw)


class _Frame(NamedTuple):
    """One length-delimited entry of a binary log: its bytes, or why they cannot be read.

    A named tuple, not a frozen dataclass: one is made per entry of every log read, and a
    tuple is made in a fraction of the time.
    """

    number: int
    offset: int
    data: bytes = b""
    error: str = ""


#: Bytes read from a binary log at once: many records a read, not a read per byte.
_CHUNK = 1 << 16
#: The longest length prefix read before it is called overlong: ten bytes and the next one.
_PREFIX = 11


def _frames(handle: IO[bytes]) -> Iterator[_Frame]:
    """The entries of a binary log as bytes; a frame with an error ends the log.

    The log is read in chunks from the handle's position; ``buffer[at:]`` is what is read
    and not yet taken, and ``base`` the log's offset of ``buffer[0]``.
    """
    number = 0
    base = handle.tell()
    buffer, at = b"", 0
    while True:
        if len(buffer) - at < _PREFIX:
            base += at
            buffer, at = buffer[at:] + handle.read(_CHUNK), 0
            if not buffer:
                return
        start = base + at
        number += 1
        length, shift = 0, 0
        byte = buffer[at]
        at += 1
        while True:
            length |= (byte & 0x7F) << shift
            if not byte & 0x80:
                break
            shift += 7
            if at >= len(buffer) or shift > 63:
                error = "truncated length prefix" if at >= len(buffer) else "overlong length prefix"
                yield _Frame(number=number, offset=start, error=error)
                return
            byte = buffer[at]
            at += 1
        if not length:
            # The writer never writes an empty entry (a record has a sequence number): zero
            # bytes are no entry, and 200 MB of them are not 200 million empty records.
            error = "an empty entry (length 0): the rest of the log is not read"
            yield _Frame(number=number, offset=start, error=error)
            return
        if length > MAX_RECORD_BYTES:
            error = f"implausible length prefix: {length} bytes (at most {MAX_RECORD_BYTES})"
            yield _Frame(number=number, offset=start, error=error)
            return
        if len(buffer) - at < length:
            base += at
            buffer, at = buffer[at:] + handle.read(length - (len(buffer) - at) + _CHUNK), 0
        data = buffer[at : at + length]
        at += len(data)
        if len(data) < length:
            error = f"truncated record: {len(data)} of {length} bytes"
            yield _Frame(number=number, offset=start, error=error)
            return
        yield _Frame(number=number, offset=start, data=data)


def _read_binary(path: Path) -> Iterator[Entry]:
    with path.open("rb") as handle:
        for frame in _frames(handle):
            if frame.error:
                yield Entry(
                    number=frame.number, offset=frame.offset, record=None, error=frame.error
                )
            else:
                yield _binary_entry(frame.number, frame.offset, frame.data)


# --- the end of a log, for a writer that continues it -----------------------------------------


def _backwards_jsonl(path: Path) -> Iterator[Entry]:
    """A JSON log's entries from the last one back, reading only as much as needed.

    Entry numbers count back from the end (-1 is the last line), as the lines before are
    never read.
    """
    with path.open("rb") as handle:
        position = handle.seek(0, os.SEEK_END)
        pending = b""
        number = 0
        while position > 0:
            step = min(1 << 16, position)
            position -= step
            handle.seek(position)
            pending = handle.read(step) + pending
            # A line is whole once the newline before it is in hand (or the file starts).
            cut = pending.rfind(b"\n", 0, len(pending) - 1)
            while cut >= 0:
                line, pending = pending[cut + 1 :], pending[: cut + 1]
                if line.strip():
                    number -= 1
                    yield _json_entry(number, position + cut + 1, line)
                cut = pending.rfind(b"\n", 0, len(pending) - 1)
        if pending.strip():
            yield _json_entry(number - 1, 0, pending)


def _backwards_binary(path: Path) -> Iterator[Entry]:
    """A binary log's entries from the last one back: one pass over the length prefixes first."""
    with path.open("rb") as handle:
        offsets, lengths = array("q"), array("q")
        for frame in _frames(handle):
            if frame.error:
                yield Entry(
                    number=frame.number, offset=frame.offset, record=None, error=frame.error
                )
                return
            offsets.append(frame.offset)
            lengths.append(len(frame.data))
        for index in range(len(offsets) - 1, -1, -1):
            length = lengths[index]
            handle.seek(offsets[index] + len(_varint(length)))
            yield _binary_entry(index + 1, offsets[index], handle.read(length))


@dataclass(frozen=True, slots=True, kw_only=True)
class _Tail:
    """Where an existing log ends: its last record (if any) and the checkpoint after it."""

    record: round_pb2.RoundRecord | None
    #: The log's last entry, if it is a checkpoint (the last of those after the last record).
    checkpoint: round_pb2.AuditCheckpoint | None

    @property
    def closed(self) -> bool:
        """The log ends with a closing checkpoint."""
        return self.checkpoint is not None and self.checkpoint.closing


def _tail(path: Path, fmt: str) -> _Tail:
    """The last record of a log a writer is to continue; raises if the end is damaged."""
    found = detect_format(path)
    if found != fmt:
        raise AuditLogError(
            f"{path} is a {found} audit log, and this writer writes {fmt}: continue it in its "
            f"own format (--audit-format {found}), or start a new log (--audit-new-log)"
        )
    entries = _backwards_jsonl(path) if fmt == "jsonl" else _backwards_binary(path)
    last: round_pb2.AuditCheckpoint | None = None
    seen_checkpoint = False
    for examined, entry in enumerate(entries):
        if entry.error:
            first = next(read_log(path, fmt))
            if first.error:
                raise AuditLogError(
                    f"{path} is not a Croupier audit log (its first entry is neither a record "
                    f"nor a checkpoint: {first.error}); choose another file, or start a new log "
                    "(--audit-new-log keeps it under another name)"
                )
            where = "its last entry" if not examined else "the entry before its last checkpoints"
            raise AuditLogError(
                f"{path} cannot be continued: {where} (byte {entry.offset}) is damaged "
                f"({entry.error}); keep the file for the audit and start a new log "
                "(--audit-new-log keeps it under another name)"
            )
        if entry.checkpoint is not None:
            if not seen_checkpoint:
                last, seen_checkpoint = entry.checkpoint, True
            continue
        assert entry.record is not None  # noqa: S101 - an entry without error is one of the two
        if not entry.record.sequence:
            raise AuditLogError(
                f"{path} cannot be continued: its last record carries no sequence number (an "
                "older writer wrote it); start a new log (--audit-new-log keeps it under "
                "another name)"
            )
        return _Tail(record=entry.record, checkpoint=last)
    if not seen_checkpoint:
        raise AuditLogError(
            f"{path} is not a Croupier audit log (it holds no record and no checkpoint); "
            "choose another file, or start a new log (--audit-new-log keeps it under another name)"
        )
    return _Tail(record=None, checkpoint=last)


def _sealed_restarts(path: Path, tail: _Tail, key: Ed25519PrivateKey) -> int:
    """The restarts a signing writer continues from; raises unless the log ends sealed by it.

    A writer cannot know that records no checkpoint seals were not edited, nor that records
    were not cut off after a checkpoint that is not the closing one: it continues only a log
    whose last entry is a closing checkpoint its own key signed over the log's last record.
    """
    public = key.public_key()
    checkpoint, record = tail.checkpoint, tail.record
    sequence = record.sequence if record is not None else 0
    head = link(record) if record is not None else b""
    why = ""
    if checkpoint is None:
        why = (
            f"its last record (sequence {sequence}) comes after its last checkpoint: its "
            "writer crashed, or the log was cut short, edited or added to since; nothing "
            "proves the records after that checkpoint are as written, and continuing would "
            "seal them"
        )
    elif not checkpoint.closing:
        why = (
            f"it ends with a checkpoint (sequence {checkpoint.sequence}) that is not a "
            "closing one: its writer crashed, or the records after it were cut off"
        )
    elif bytes(checkpoint.public_key_sha256) != key_id(public):
        named = bytes(checkpoint.public_key_sha256).hex()[:16] or "no key"
        why = f"its closing checkpoint was signed by another key ({named}), not this writer's"
    elif checkpoint_error(checkpoint, {key_id(public): public}):
        why = "its closing checkpoint's signature does not verify under this writer's key"
    elif checkpoint.sequence != sequence or bytes(checkpoint.chain_head_sha256) != head:
        why = (
            f"its closing checkpoint seals sequence {checkpoint.sequence}, not its last record "
            f"as it now reads (sequence {sequence}): the log was changed after it was sealed"
        )
    if why:
        raise AuditLogError(
            f"{path} cannot be continued with a signing key: {why}. Keep the file for the "
            "audit and start a new log (--audit-new-log keeps it under another name)"
        )
    assert checkpoint is not None  # noqa: S101 - a closing checkpoint, checked above
    return checkpoint.restarts + 1


def _keep_aside(path: Path, now: datetime) -> Path:
    """Rename ``path`` to a free ``PATH.<UTC time>[.N]`` name; never replaces a file."""
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    for attempt in range(1000):
        kept = path.with_name(f"{path.name}.{stamp}" + (f".{attempt}" if attempt else ""))
        try:
            os.link(path, kept)  # fails if the name is taken, where a rename would replace
        except FileExistsError:
            continue
        path.unlink()
        return kept
    raise AuditLogError(f"cannot find a free name to keep {path} under")


def _utc_now() -> datetime:
    return datetime.now(UTC)


# --- the writer ---------------------------------------------------------------------------------


class AuditWriter:
    """Appends records to a log: fills each one's link, sequence number and time; signs.

    Each entry is written whole in one write, then flushed to disk (``durable``): a crash
    leaves a record whole or absent. A record and the checkpoint that follows it are one
    write. A write that fails is undone before the error is raised, so a record is in the log
    if and only if ``append`` returned; if it cannot be undone, the writer refuses every later
    write rather than let a retry log the round twice.
    """

    def __init__(
        self,
        fd: int,
        path: Path,
        fmt: str,
        *,
        last: round_pb2.RoundRecord | None = None,
        key: Ed25519PrivateKey | None = None,
        checkpoint_every: int = CHECKPOINT_EVERY,
        durable: bool = True,
        clock: Callable[[], datetime] = _utc_now,
        restarts: int = 0,
    ) -> None:
        self._fd: int | None = fd
        self.path = path
        self.format = fmt
        self._previous = link(last) if last is not None else b""
        #: The sequence number of the last record in the log.
        self.sequence = last.sequence if last is not None else 0
        #: How many records this writer appended.
        self.count = 0
        #: The round id of the log's last record ("" for an empty log): a kit that recovers
        #: checks it against its journal (``EngineAdapter.restore``).
        self.last_round_id = last.round_id if last is not None else ""
        #: What opening the log did, for the operator: continued it, or kept an old file aside.
        self.notice = ""
        #: How many times a writer continued this log before this one (its checkpoints say so).
        self.restarts = restarts
        self._key = key
        self._key_id = key_id(key.public_key()) if key is not None else b""
        self._every = checkpoint_every
        self._durable = durable
        self._clock = clock
        self._broken = ""

    @classmethod
    def open(
        cls,
        path: Path,
        fmt: str = "jsonl",
        *,
        key: Ed25519PrivateKey | None = None,
        checkpoint_every: int = CHECKPOINT_EVERY,
        new_log: bool = False,
        durable: bool = True,
        clock: Callable[[], datetime] = _utc_now,
    ) -> AuditWriter:
        """A writer that continues ``path``, or creates it.

        An existing log is continued: its chain and sequence go on from its last record. One
        that cannot be continued (a damaged end, another format, no sequence numbers, or, for
        a writer with a key, an end its key did not seal with a closing checkpoint) raises
        ``AuditLogError``, unless ``new_log``: then the file is kept under a new name
        (``PATH.<UTC time>``) and a new log started. Nothing is ever truncated or overwritten.
        ``durable=False`` skips the flush to disk: for throwaway logs only (tests, benchmarks).
        """
        if fmt not in FORMATS:
            raise ValueError(f"audit format must be one of {', '.join(FORMATS)}, got {fmt!r}")
        if checkpoint_every < 1:
            raise ValueError(f"checkpoint_every must be at least 1, got {checkpoint_every}")
        fd = _open_locked(path)
        try:
            notice = ""
            restarts = 0
            last: round_pb2.RoundRecord | None = None
            if os.fstat(fd).st_size and new_log:
                kept = _keep_aside(path, clock())
                os.close(fd)
                fd = -1
                fd = _open_locked(path)
                notice = f"kept the existing {path} as {kept.name}; started a new log"
            elif os.fstat(fd).st_size:
                tail = _tail(path, fmt)
                if key is not None:
                    restarts = _sealed_restarts(path, tail, key)
                last = tail.record
                notice = f"continuing {path} after record {last.sequence if last else 0}" + (
                    f" (restart {restarts} of this log)" if restarts else ""
                )
        except BaseException:
            if fd >= 0:
                os.close(fd)
            raise
        writer = cls(
            fd,
            path,
            fmt,
            last=last,
            key=key,
            checkpoint_every=checkpoint_every,
            durable=durable,
            clock=clock,
            restarts=restarts,
        )
        writer.notice = notice
        return writer

    def append(self, record: round_pb2.RoundRecord) -> round_pb2.RoundRecord:
        """Chain, number and time the record (a time already set is kept), write it; return it.

        When the record is due a checkpoint, the two are written as one: both are in the log,
        or neither is (the error is raised).
        """
        record.previous_record_sha256 = self._previous
        record.sequence = self.sequence + 1
        if not record.HasField("recorded_at"):
            record.recorded_at.FromDatetime(self._clock())
        own = link(record)
        data = encode_entry(record, self.format)
        if self._key is not None and record.sequence % self._every == 0:
            data += self._checkpoint_entry(record.sequence, own, closing=False)
        self._write(data)
        self.sequence += 1
        self._previous = own
        self.count += 1
        self.last_round_id = record.round_id
        return record

    def _checkpoint_entry(self, sequence: int, head: bytes, *, closing: bool) -> bytes:
        if self._key is None:
            raise AuditLogError("a checkpoint needs a signing key: this writer has none")
        checkpoint = round_pb2.AuditCheckpoint(
            sequence=sequence,
            chain_head_sha256=head,
            closing=closing,
            public_key_sha256=self._key_id,
            restarts=self.restarts,
        )
        checkpoint.signed_at.FromDatetime(self._clock())
        checkpoint.signature = self._key.sign(signed_bytes(checkpoint))
        return encode_entry(round_pb2.AuditCheckpointEntry(checkpoint=checkpoint), self.format)

    def checkpoint(self, *, closing: bool = False) -> None:
        """Write a checkpoint that seals every record so far, signed with the writer's key."""
        self._write(self._checkpoint_entry(self.sequence, self._previous, closing=closing))

    def close(self) -> None:
        """Seal the log with a closing checkpoint (when signing), and close it."""
        if self._fd is None:
            return
        try:
            if self._key is not None and not self._broken:
                self.checkpoint(closing=True)
        finally:
            os.close(self._fd)  # releases the lock
            self._fd = None

    def _write(self, data: bytes) -> None:
        if self._fd is None:
            raise AuditLogError(f"the audit log {self.path} is closed")
        if self._broken:
            raise AuditLogError(self._broken)
        mine = os.fstat(self._fd)
        try:
            here = os.stat(self.path)
        except OSError:
            here = None
        if here is None or (here.st_dev, here.st_ino) != (mine.st_dev, mine.st_ino):
            # Records written on would go to a file nobody finds under the log's name.
            raise AuditLogError(
                f"the audit log {self.path} was renamed or deleted while the engine ran: no "
                "record is written to it any more; restart the engine on its log"
            )
        size = mine.st_size
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view) :]
            if self._durable:
                os.fsync(self._fd)
        except OSError as failed:
            # Leave no part of the entry behind: the next one must follow a whole entry, and
            # a record whose write failed must not be in the log when its round is retried.
            try:
                os.ftruncate(self._fd, size)
                if self._durable:
                    os.fsync(self._fd)
            except OSError as exc:
                self._broken = (
                    f"the audit log {self.path} could not be restored after a failed write "
                    f"({failed.strerror}; then {exc.strerror}): it takes no more records"
                )
            raise


def _open_locked(path: Path) -> int:
    """The log opened for appending, locked against a second writer; a regular file only.

    Opened without blocking: a FIFO would otherwise wait, silent, for a reader.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o644)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO nobody reads
            raise AuditLogError(_NOT_A_FILE.format(path=path)) from None
        raise AuditLogError(f"cannot open the audit log {path}: {exc.strerror}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise AuditLogError(_NOT_A_FILE.format(path=path))
    os.set_blocking(fd, True)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise AuditLogError(f"{path} is in use by another writer") from None
    return fd


_NOT_A_FILE = (
    "cannot use {path} as an audit log: it is not a regular file (a FIFO, a device or a "
    "socket); give the path of a file"
)
