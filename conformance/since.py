"""Which suite version each shipped vector dates from (``Vector.since``, vector.proto).

A vector's *expectations* are what an engine must do to pass it: its id, level, profile and
rounds (requests sent, answers and refusals awaited). Its name, description, seed, clauses,
citations and ``since``, and the ``returned_exact`` and ``clauses`` of settlement lines (which
no runner compares), are not. Each released version's expectations are kept as one digest a
vector in ``conformance/releases/VERSION.txt``; a vector dates from the oldest version from
which, through every later release, its digest is unchanged, or from Croupier's current
version when the last release did not hold it as it is now (new or changed since).

Releasing: ``croupier vectors freeze`` writes the current version's file, then
``oracle.__version__`` is bumped (docs/CHANGES.md says when, and lists the changes).
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from google.protobuf.message import Message

from croupier import oracle
from croupier.conformance.v1 import vector_pb2

#: One file per released version: ``VERSION.txt``, lines ``vector-id digest``.
RELEASES_DIR = Path(__file__).parent / "releases"

#: Fields that say why or what a value is, never what an engine must answer.
_NOT_EXPECTED = frozenset(
    {"clauses", "returned_exact", "citations", "deal_citations", "settle_citations"}
)
_VERSION = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)")


class VersionError(ValueError):
    """A text that is not a version X.Y.Z (semantic versioning, no pre-release)."""


def parse_version(text: str) -> tuple[int, int, int]:
    """``"0.2.0"`` as ``(0, 2, 0)``; ``VersionError`` naming the text otherwise."""
    found = _VERSION.fullmatch(text)
    if found is None:
        raise VersionError(f"{text!r} is not a version X.Y.Z (such as 0.2.0)")
    major, minor, patch = (int(part) for part in found.groups())
    return major, minor, patch


def expectations(vector: vector_pb2.Vector) -> str:
    """A digest of what the vector expects of an engine (see the module's docstring)."""
    bare = vector_pb2.Vector()
    bare.CopyFrom(vector)
    for name in ("name", "description", "seed", "since"):
        bare.ClearField(name)
    _strip(bare)
    return hashlib.sha256(bare.SerializeToString(deterministic=True)).hexdigest()[:16]


def _strip(message: Message) -> None:
    for field, value in message.ListFields():
        if field.name in _NOT_EXPECTED:
            message.ClearField(field.name)
        elif field.message_type is None or field.message_type.GetOptions().map_entry:
            continue  # the only maps are citations, cleared above
        elif field.is_repeated:
            for item in value:
                _strip(item)
        else:
            _strip(value)


@dataclass(frozen=True, slots=True, kw_only=True)
class Release:
    """One released version: each of its vectors' expectations digest, by id."""

    version: str
    digests: Mapping[str, str]


def read_releases(directory: Path = RELEASES_DIR) -> tuple[Release, ...]:
    """Every release kept in ``directory``, oldest first."""
    found = []
    for path in directory.glob("*.txt"):
        parse_version(path.stem)
        digests = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                vector_id, digest = line.split()
                digests[vector_id] = digest
        found.append(Release(version=path.stem, digests=digests))
    return tuple(sorted(found, key=lambda r: parse_version(r.version)))


@functools.cache
def _shipped_releases() -> tuple[Release, ...]:
    return read_releases()


def since(
    vector: vector_pb2.Vector,
    *,
    releases: Iterable[Release] | None = None,
    current: str = oracle.__version__,
) -> str:
    """The version the vector dates from: added, or its expectations last changed."""
    digest = expectations(vector)
    found = current
    for release in reversed(tuple(_shipped_releases() if releases is None else releases)):
        if release.digests.get(vector.id) != digest:
            break
        found = release.version
    return found


def stamp(vector: vector_pb2.Vector) -> vector_pb2.Vector:
    """The vector, its ``since`` set (the corpus builder stamps every shipped vector)."""
    vector.since = since(vector)
    return vector


def freeze(
    vectors: Iterable[vector_pb2.Vector],
    version: str = oracle.__version__,
    directory: Path = RELEASES_DIR,
) -> Path:
    """Keep ``version``'s expectations: write ``directory/VERSION.txt``; its path."""
    parse_version(version)
    lines = sorted(f"{v.id} {expectations(v)}" for v in vectors)
    path = directory / f"{version}.txt"
    header = (
        f"# Croupier {version}: each shipped vector's expectations digest (conformance/since.py)\n"
    )
    path.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def newer(version: str, baseline: str) -> bool:
    """Whether a vector dating from ``version`` came after ``baseline`` (an empty one never)."""
    return bool(version) and parse_version(version) > parse_version(baseline)
