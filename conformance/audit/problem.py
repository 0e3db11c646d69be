"""What the checks in the log's order find: a problem of the log at one entry, and its kinds."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class Problem:
    """A problem of the log as a whole, found at one entry: a chain or a log problem."""

    record: int
    round_id: str
    kind: str
    message: str


#: The findings of the hash chain; every other problem of the log's order is a log problem.
CHAIN_KINDS = ("broken", "missing", "reordered")
#: The findings that leave a signed log short of sealed.
SEAL_KINDS = (
    "checkpoint-mismatch",
    "checkpoint-invalid",
    "checkpoint-duplicate",
    "restart-mismatch",
    "unsealed",
    "truncated",
)


def when(stamp: tuple[int, int]) -> str:
    """A time as ISO 8601 UTC; one no calendar date can show, as its seconds and nanos."""
    seconds, nanos = stamp
    try:
        moment = datetime.fromtimestamp(seconds, UTC).replace(microsecond=nanos // 1000)
    except (OverflowError, OSError, ValueError):
        return f"{seconds} s {nanos} ns after 1970-01-01T00:00:00Z (out of range)"
    return moment.isoformat().replace("+00:00", "Z")
