"""The log's order: sequence numbers (from 1, one more each record) and times (never earlier)."""

from __future__ import annotations

from dataclasses import dataclass

from croupier.clients.words import plural
from croupier.conformance.audit.problem import Problem, when
from croupier.v1 import round_pb2


@dataclass(frozen=True, slots=True, kw_only=True)
class _Gap:
    """Sequence numbers missing before a record, held back for one record."""

    problem: Problem
    first: int
    last: int


class Order:
    """Sequence numbers (from 1, one more each record) and times (never earlier)."""

    def __init__(self) -> None:
        self.high = 0
        self.previous = 0
        self.numbered = False
        self.held: _Gap | None = None
        self.time: tuple[tuple[int, int], int] | None = None
        #: Records without a sequence number, and without a time (written by older writers).
        self.unnumbered = 0
        self.untimed = 0

    def check(self, number: int, record: round_pb2.RoundRecord, *, segment: bool) -> list[Problem]:
        """The order problems known once this record is read (a held gap's may come first)."""
        round_id = record.round_id

        def problem(*, kind: str, message: str) -> Problem:
            return Problem(record=number, round_id=round_id, kind=kind, message=message)

        found: list[Problem] = []
        sequence = record.sequence
        held, self.held = self.held, None
        if held is not None and not (held.first == held.last == sequence):
            found.append(held.problem)
        if held is not None and held.first == held.last == sequence:
            # The one number missing comes right after: two records swapped, one problem.
            found.append(
                problem(
                    kind="sequence-reversal",
                    message=f"sequence {sequence} comes after sequence {self.high}",
                )
            )
            self.previous = sequence
        elif not sequence:
            self.unnumbered += 1
            if self.numbered:
                found.append(
                    problem(
                        kind="unnumbered",
                        message="the record has no sequence number, and records before it have",
                    )
                )
        else:
            if not self.numbered and segment:
                # A log that continues an earlier one starts where that one stopped.
                self.high = sequence - 1
            if sequence > self.high + 1:
                missing = sequence - self.high - 1
                self.held = _Gap(
                    problem=problem(
                        kind="sequence-gap",
                        message=(
                            f"sequence {sequence} follows sequence {self.high}: "
                            f"{plural(missing, 'record')} missing before it"
                        ),
                    ),
                    first=self.high + 1,
                    last=sequence - 1,
                )
            elif sequence == self.previous:
                found.append(problem(kind="sequence-repeat", message=f"sequence {sequence} again"))
            elif sequence <= self.high:
                found.append(
                    problem(
                        kind="sequence-reversal",
                        message=f"sequence {sequence} comes after sequence {self.high}",
                    )
                )
            self.previous = sequence
            self.high = max(self.high, sequence)
            self.numbered = True
        late = self._time(number, record)
        return found + late if late else found

    def _time(self, number: int, record: round_pb2.RoundRecord) -> list[Problem]:
        if not record.HasField("recorded_at"):
            self.untimed += 1
            if self.time is None:
                return []
            return [
                Problem(
                    record=number,
                    round_id=record.round_id,
                    kind="untimed",
                    message="the record has no time, and records before it have",
                )
            ]
        at = record.recorded_at  # a Timestamp's wrapper is made at every access: once
        stamp = (at.seconds, at.nanos)
        before, self.time = self.time, (stamp, number)
        if before is None or stamp >= before[0]:
            return []
        return [
            Problem(
                record=number,
                round_id=record.round_id,
                kind="time-backwards",
                message=(
                    f"recorded at {when(stamp)}, before record {before[1]} ({when(before[0])})"
                ),
            )
        ]

    def finish(self) -> list[Problem]:
        """A gap still held at the end of the log."""
        held, self.held = self.held, None
        return [held.problem] if held is not None else []
