"""The hash chain: each record's link to the one before, in a bounded window."""

from __future__ import annotations

import functools
from collections import OrderedDict
from dataclasses import dataclass

from croupier.conformance.audit.problem import Problem
from croupier.v1 import round_pb2

#: How many recent records' links are remembered to tell a reordered record from a missing one.
LINK_WINDOW = 64


@dataclass(frozen=True, slots=True, kw_only=True)
class _Held:
    """A record whose link matches no record read so far, held back for one record."""

    problem: Problem
    carried: bytes
    before: bytes | None
    own: bytes


class Chain:
    """Checks each record's link to the one before, in a bounded window.

    A record whose link matches no record read so far is held back for one record: if the
    next record is the one it links to, the two were swapped, and both are reported as
    reordered (the record after them, which links to the first of them, is in its place).
    """

    def __init__(self) -> None:
        self.previous: bytes | None = None
        self.recent: OrderedDict[bytes, int] = OrderedDict()
        self.started = False
        self.held: _Held | None = None

    def _classify(
        self, number: int, record: round_pb2.RoundRecord, carried: bytes, expected: bytes | None
    ) -> tuple[Problem | None, bool]:
        """The record's problem, if any, and whether its link matches no record read so far."""
        if self.started and carried and carried == expected:
            return None, False  # the link in its place: the common case, with no problem made
        problem = functools.partial(Problem, record=number, round_id=record.round_id)
        if not self.started:
            if not carried:
                return None, False
            return problem(
                kind="missing",
                message="the first record links to a previous one: the log does not start at its beginning",
            ), False
        if not carried:
            return problem(kind="broken", message="the record carries no link"), False
        if carried == expected:
            return None, False
        earlier = self.recent.get(carried)
        if earlier is not None:
            return problem(
                kind="reordered",
                message=f"the record follows record {earlier} in the chain, not the record before it",
            ), False
        return problem(
            kind="broken",
            message=(
                "the link matches no record read so far: a record before it is missing, "
                "out of order, or the record before it was altered"
            ),
        ), True

    def check(self, number: int, record: round_pb2.RoundRecord, own: bytes) -> list[Problem]:
        """The problems known once this record is read (a held record's may come with it)."""
        carried = bytes(record.previous_record_sha256)
        problems: list[Problem] = []
        held, self.held = self.held, None
        if held is not None and own == held.carried:
            # The held record links to this one: the two are swapped.
            problems.append(
                Problem(
                    record=held.problem.record,
                    round_id=held.problem.round_id,
                    kind="reordered",
                    message=f"swapped with record {number}: the record follows record {number} in the chain",
                )
            )
            if carried == held.before:
                problems.append(
                    Problem(
                        record=number,
                        round_id=record.round_id,
                        kind="reordered",
                        message=(
                            f"swapped with record {held.problem.record}: the record comes before "
                            f"record {held.problem.record} in the chain"
                        ),
                    )
                )
            else:
                problem, _ = self._classify(number, record, carried, held.before)
                if problem is not None:
                    problems.append(problem)
            # The chain runs on from the held record, which follows this one.
            tail = held.own
        else:
            if held is not None:
                problems.append(held.problem)
            problem, unknown = self._classify(number, record, carried, self.previous)
            if problem is not None and unknown:
                self.held = _Held(problem=problem, carried=carried, before=self.previous, own=own)
            elif problem is not None:
                problems.append(problem)
            tail = own
        self.started = True
        self.previous = tail
        self.recent[own] = number
        while len(self.recent) > LINK_WINDOW:
            self.recent.popitem(last=False)
        return problems

    def finish(self) -> list[Problem]:
        """The problem of a record still held at the end of the log."""
        held, self.held = self.held, None
        return [held.problem] if held is not None else []
