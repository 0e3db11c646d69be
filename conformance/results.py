"""What a run finds: each vector's outcome and result, and the report of the whole run."""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from croupier.conformance.inputs import currency_of, inputs_lines, value_text
from croupier.conformance.v1 import vector_pb2
from croupier.v1 import engine_service_pb2


class VectorOutcome(enum.Enum):
    """How one vector ended."""

    PASS = "PASS"  # noqa: S105 - an outcome, not a password
    FAIL = "FAIL"
    ERROR = "ERROR"
    CRASH = "CRASH"
    TIMEOUT = "TIMEOUT"
    NOT_APPLICABLE = "NOT_APPLICABLE"
    EXPECTED_FAIL = "EXPECTED_FAIL"
    UNEXPECTED_PASS = "UNEXPECTED_PASS"  # noqa: S105


#: Outcomes that make a run fail.
BAD = frozenset(
    {
        VectorOutcome.FAIL,
        VectorOutcome.ERROR,
        VectorOutcome.CRASH,
        VectorOutcome.TIMEOUT,
        VectorOutcome.UNEXPECTED_PASS,
    }
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    """The verdict on one vector, with everything needed to understand a failure.

    ``clause`` is what the oracle recorded as deciding the diverging value, or the contract
    label of a protocol failure (CONTRACT.timeout...).
    """

    vector_id: str
    name: str
    profile_id: str
    level: str
    outcome: VectorOutcome
    step: str = ""
    clause: str = ""
    path: str = ""
    expected: str = ""
    actual: str = ""
    message: str = ""
    reproduce: str = ""
    #: When the vector started, in seconds after the run began, and how long it took.
    started: float = 0.0
    seconds: float = 0.0
    known_failure: str = ""
    #: The clause IDs the vector exercises (its ``clauses`` field), for coverage reports.
    clauses: tuple[str, ...] = ()
    #: The suite version the vector dates from (its ``since``; empty outside the shipped corpus).
    since: str = ""
    #: The vector is one of a corpus's hand-written cases (a document's own examples).
    hand_written: bool = False
    #: A failure's round as sent (``conformance.inputs.round_inputs``): seats, stakes, cards
    #: and decisions, so that its expected and actual values can be checked by eye.
    inputs: Mapping[str, object] | None = None

    def details(self) -> list[tuple[str, str]]:
        """A failure's labelled fields, in the order reports show them; empty ones left out."""
        labelled = (
            ("step", self.step),
            ("clause", self.clause),
            ("path", self.path),
            ("expected", value_text(self.path, self.expected, currency_of(self.inputs))),
            ("actual", value_text(self.path, self.actual, currency_of(self.inputs))),
            ("message", self.message),
            ("since", self.since),
            ("round", "\n".join(inputs_lines(self.inputs)) if self.inputs else ""),
            ("reproduce", self.reproduce),
        )
        return [(label, value) for label, value in labelled if value]


#: A seat's, hand's or line's index in a field path: mismatches differing only there are one.
_INDEX = re.compile(r"\[\d+\]")


def unindexed(path: str) -> str:
    """A field path with its indexes left out: ``seats[0].bets[1]`` is ``seats[].bets[]``."""
    return _INDEX.sub("[]", path)


def signature(result: Result) -> tuple[str, str, str]:
    """What makes a mismatch distinct: its clause, outcome and path (indexes aside)."""
    return (result.clause, result.outcome.value, unindexed(result.path))


@dataclass(frozen=True, slots=True, kw_only=True)
class KnownFailure:
    """One line of a known-failures file: a glob over vector ids or names, and why.

    Or a clause entry, ``clause:ID`` or ``clause:ID@PATH`` (``pattern`` is that text): it
    waives a mismatch on that clause, at that field path when one is given, in any vector.
    """

    pattern: str
    reason: str
    line: int
    #: A clause entry's clause id; "" for a vector pattern.
    clause: str = ""
    #: A clause entry's field path, indexes aside (``seats[].bets[]``); "" for any path.
    path: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunReport:
    """Everything a run found."""

    describe: engine_service_pb2.DescribeResponse
    results: tuple[Result, ...]
    #: Known-failure patterns that matched no vector: stale entries, which fail the run.
    unmatched_patterns: tuple[KnownFailure, ...]
    certify: bool
    started: float
    seconds: float
    restarts: int
    #: How many vectors the shipped corpus holds for the profiles the engine claims, or None
    #: when the run's vectors are not the shipped corpus (a lab's own files).
    corpus: int | None = None
    #: Every one of those vectors has a result: the run is not filtered, cut short or stopped
    #: early. Only such a run may be conformant.
    whole: bool = False

    def count(self, outcome: VectorOutcome) -> int:
        """How many vectors ended with this outcome."""
        return sum(r.outcome is outcome for r in self.results)

    @property
    def applicable(self) -> int:
        """How many vectors applied to the engine (it claims their profile)."""
        return sum(r.outcome is not VectorOutcome.NOT_APPLICABLE for r in self.results)

    @property
    def waived(self) -> int:
        """How many failures a known-failures file waived (EXPECTED_FAIL)."""
        return self.count(VectorOutcome.EXPECTED_FAIL)

    @property
    def passed(self) -> bool:
        """The run's exit status: some vector applied and nothing went wrong.

        Certify: every applicable REQUIRED vector passed. Otherwise: no bad outcome and no
        stale known-failure pattern (waived failures are not bad).
        """
        if not self.applicable:
            return False
        if self.certify:
            required = [
                r
                for r in self.results
                if r.outcome is not VectorOutcome.NOT_APPLICABLE and r.level == "LEVEL_REQUIRED"
            ]
            return all(r.outcome is VectorOutcome.PASS for r in required)
        return not self.unmatched_patterns and not any(r.outcome in BAD for r in self.results)

    @property
    def conformant(self) -> bool:
        """Passed a whole corpus run and waived nothing: only such a run may say "conformant"."""
        return self.whole and self.passed and not self.waived


def claimed_count(corpus: Sequence[vector_pb2.Vector], claimed: Iterable[str]) -> int:
    """How many vectors of ``corpus`` are of a profile in ``claimed``."""
    profiles = set(claimed)
    return sum(v.profile_id in profiles for v in corpus)


def covers(
    corpus: Sequence[vector_pb2.Vector], claimed: Iterable[str], results: Iterable[Result]
) -> bool:
    """Whether ``results`` hold every vector of ``corpus`` of a profile in ``claimed``."""
    profiles = set(claimed)
    done = {r.vector_id for r in results}
    return all(v.id in done for v in corpus if v.profile_id in profiles)


def failure_order(result: Result) -> tuple[int, str]:
    """How every report lists failures: hand-written vectors first, then by id.

    A document's own example (``bja-h001``) reads before a generated round of the same bug.
    """
    return (0 if result.hand_written else 1, result.vector_id)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClauseFailures:
    """The failures blamed on one clause (or contract label), in ``failure_order``."""

    clause: str
    vector_ids: tuple[str, ...]


def by_clause(failures: Iterable[tuple[str, bool, str]]) -> list[ClauseFailures]:
    """(clause, hand-written, vector id) of each failure, grouped by clause.

    Each clause's vectors in ``failure_order``; the clauses in the order of their first
    failure, so that the first clause listed holds the first failure of all. A failure that
    blames no clause is grouped under the empty one.
    """
    grouped: dict[str, list[tuple[int, str]]] = {}
    for clause, hand_written, vector_id in failures:
        grouped.setdefault(clause, []).append((0 if hand_written else 1, vector_id))
    ordered = sorted(grouped.items(), key=lambda item: (min(item[1]), item[0]))
    return [
        ClauseFailures(clause=clause, vector_ids=tuple(vid for _, vid in sorted(keys)))
        for clause, keys in ordered
    ]


class ConfigError(Exception):
    """Bad usage or configuration: exit code 2."""
