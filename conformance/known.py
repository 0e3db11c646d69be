"""Known failures: a text file of ``pattern  # reason`` lines that a run expects to fail.

Certify matches a pattern against each vector's id and name. Explore, whose rounds are
drawn and have no ids a lab could list, takes the same file: a mismatch is waived when a
pattern matches the drawn vector, or when the shipped vectors a pattern matches were written
for the clause it diverges on, in its profile (``ExploreWaivers``).
"""

from __future__ import annotations

import dataclasses
import fnmatch
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from croupier.conformance.v1 import vector_pb2

from conformance.results import BAD, ConfigError, KnownFailure, Result, VectorOutcome


def read_known_failures(path: Path) -> tuple[KnownFailure, ...]:
    """Parse ``pattern  # reason`` lines; blank lines and whole-line comments are skipped."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read known failures {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"known failures {path}: not UTF-8 text") from None
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pattern, _, reason = line.partition("#")
        pattern = pattern.strip()
        if not reason.strip():
            raise ConfigError(
                f"{path}:{number}: a known failure needs a reason after '#': {line!r}"
            )
        if not pattern or any(ch.isspace() for ch in pattern):
            raise ConfigError(
                f"{path}:{number}: expected one pattern then '# reason', got {line!r}"
            )
        out.append(KnownFailure(pattern=pattern, reason=reason.strip(), line=number))
    return tuple(out)


def matching(vector: vector_pb2.Vector, known: Sequence[KnownFailure]) -> KnownFailure | None:
    """The first known failure whose pattern matches the vector's id or name."""
    for entry in known:
        if fnmatch.fnmatchcase(vector.id, entry.pattern) or fnmatch.fnmatchcase(
            vector.name, entry.pattern
        ):
            return entry
    return None


def apply_known(result: Result, vector: vector_pb2.Vector, known: Sequence[KnownFailure]) -> Result:
    """A listed vector that fails is EXPECTED_FAIL; one that passes, UNEXPECTED_PASS."""
    entry = matching(vector, known)
    if entry is None:
        return result
    if result.outcome is VectorOutcome.PASS:
        return dataclasses.replace(
            result,
            outcome=VectorOutcome.UNEXPECTED_PASS,
            message=f"listed as a known failure ({entry.reason}) but passed",
            known_failure=entry.reason,
        )
    if result.outcome in BAD:
        return dataclasses.replace(
            result, outcome=VectorOutcome.EXPECTED_FAIL, known_failure=entry.reason
        )
    return dataclasses.replace(result, known_failure=entry.reason)


def unmatched(
    known: Sequence[KnownFailure], scope: Sequence[vector_pb2.Vector]
) -> tuple[KnownFailure, ...]:
    """The patterns that match no vector of the scope: stale entries fail the run."""
    return tuple(entry for entry in known if not any(matching(v, (entry,)) for v in scope))


@dataclass(frozen=True, slots=True)
class ExploreWaivers:
    """What a known-failures file waives in explore: listed vectors, and the clauses they test."""

    known: tuple[KnownFailure, ...] = ()
    #: (profile, clause) to the first entry matching a corpus vector of that profile and clause.
    clauses: Mapping[tuple[str, str], KnownFailure] = field(default_factory=dict)

    @classmethod
    def of(
        cls, known: Sequence[KnownFailure], corpus: Sequence[vector_pb2.Vector]
    ) -> ExploreWaivers:
        """The waivers of ``known``, the clauses from the corpus vectors each entry matches."""
        clauses: dict[tuple[str, str], KnownFailure] = {}
        for vector in corpus:
            entry = matching(vector, known)
            if entry is not None:
                for clause in vector.clauses:
                    clauses.setdefault((vector.profile_id, clause), entry)
        return cls(tuple(known), clauses)

    def __call__(self, vector: vector_pb2.Vector, result: Result) -> KnownFailure | None:
        """The entry that waives ``vector``'s mismatch ``result``, if one does."""
        return matching(vector, self.known) or self.clauses.get((vector.profile_id, result.clause))
