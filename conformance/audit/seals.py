"""Signed checkpoints: what they seal, their signatures, and the restarts of the log's writer."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from croupier.clients.audit import checkpoint_error
from croupier.clients.words import plural
from croupier.conformance.audit.problem import Problem, when
from croupier.v1 import round_pb2

#: Restarts the report lists one by one; past that, only their count.
MAX_RESTARTS_LISTED = 1000


class Seals:
    """Signed checkpoints: each must seal the records before it; with keys, each must verify.

    A closing checkpoint followed by more entries is a restart of the log's writer; each
    checkpoint counts the restarts before it (``restarts``), so a closing checkpoint removed
    from the middle of the log, or copied into it, is reported.
    """

    def __init__(self, keys: Mapping[bytes, Ed25519PublicKey]) -> None:
        self.keys = keys
        self.last: tuple[int, bytes] = (0, b"")
        self.checkpoints = 0
        self.valid = 0
        self.unsealed = 0
        self.first_unsealed = 0
        self.last_entry = 0
        self.closed = False
        #: The closing checkpoint just read (entry number, checkpoint), until an entry follows.
        self.closing: tuple[int, round_pb2.AuditCheckpoint] | None = None
        #: Restarts seen; the count a checkpoint of an older writer (0) started again from.
        self.restart_count = 0
        self.restart_base = 0
        self.restarts: list[dict[str, Any]] = []
        #: The signatures of the checkpoints since the last record: a copy is a duplicate.
        self.since_record: set[bytes] = set()

    def entry(self, number: int) -> None:
        """Any entry: a log ends closed only if its last entry is a closing checkpoint."""
        self.last_entry = number
        self.closed = False

    def _restart(self, number: int) -> None:
        """An entry after a closing checkpoint: the writer restarted on the log."""
        closing, self.closing = self.closing, None
        if closing is None:
            return
        self.restart_count += 1
        if len(self.restarts) < MAX_RESTARTS_LISTED:
            at, checkpoint = closing
            self.restarts.append(
                {
                    "record": number,
                    "closing_checkpoint": at,
                    "after_sequence": checkpoint.sequence,
                    "closed_at": when((checkpoint.signed_at.seconds, checkpoint.signed_at.nanos)),
                }
            )

    def record(self, number: int, record: round_pb2.RoundRecord, own: bytes) -> None:
        """A record: the head the next checkpoint must seal."""
        self._restart(number)
        self.since_record.clear()
        self.last = (record.sequence, own)
        if not self.unsealed:
            self.first_unsealed = number
        self.unsealed += 1

    def checkpoint(self, number: int, checkpoint: round_pb2.AuditCheckpoint) -> list[Problem]:
        """A checkpoint's problems: it seals other records, is unsigned, copied, or miscounts.

        Miscounts: its ``restarts`` differs from the restarts the log shows before it.
        """
        self.checkpoints += 1
        self.closed = checkpoint.closing
        problem = functools.partial(Problem, record=number, round_id="")
        signature = bytes(checkpoint.signature)
        if signature in self.since_record:
            return [
                problem(
                    kind="checkpoint-duplicate",
                    message="the same checkpoint as one just before it, again: a copy",
                )
            ]
        self.since_record.add(signature)
        self._restart(number)
        sequence, head = self.last
        if checkpoint.sequence != sequence or bytes(checkpoint.chain_head_sha256) != head:
            return [
                problem(
                    kind="checkpoint-mismatch",
                    message=(
                        f"the checkpoint seals sequence {checkpoint.sequence} "
                        f"(head {bytes(checkpoint.chain_head_sha256).hex()[:16] or 'none'}), but "
                        f"the record before it is sequence {sequence} (head "
                        f"{head.hex()[:16] or 'none'}): records before it were changed, added, "
                        "removed or re-chained after it was signed"
                    ),
                )
            ]
        if self.keys:
            error = checkpoint_error(checkpoint, self.keys)
            if error:
                return [problem(kind="checkpoint-invalid", message=error)]
            self.valid += 1
            self.unsealed = 0
        if checkpoint.closing:
            self.closing = (number, checkpoint)
        shown = self.restart_count - self.restart_base
        if not checkpoint.restarts:
            self.restart_base = self.restart_count  # an older writer's, or the first run's
        elif checkpoint.restarts != shown:
            return [
                problem(
                    kind="restart-mismatch",
                    message=(
                        f"the checkpoint counts {plural(checkpoint.restarts, 'restart')} of the log's "
                        f"writer before it, and the log shows {shown}: a closing checkpoint "
                        "was removed from the log, or copied into it"
                    ),
                )
            ]
        return []

    def finish(self) -> list[Problem]:
        """With keys: records no valid checkpoint seals, and a log that does not end closed."""
        if not self.keys:
            return []
        found = []
        if self.unsealed:
            found.append(
                Problem(
                    record=self.first_unsealed,
                    round_id="",
                    kind="unsealed",
                    message=(
                        f"{plural(self.unsealed, 'record')} from record {self.first_unsealed} "
                        f"on {'comes' if self.unsealed == 1 else 'come'} after the last valid "
                        "checkpoint: nothing proves "
                        f"{'it is' if self.unsealed == 1 else 'they are'} as written"
                    ),
                )
            )
        if not self.closed:
            found.append(
                Problem(
                    record=self.last_entry,
                    round_id="",
                    kind="truncated",
                    message=(
                        "the log does not end with a closing checkpoint: it was cut off, or "
                        "its writer stopped without closing it"
                    ),
                )
            )
        return found
