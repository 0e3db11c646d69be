"""Known failures: a text file of ``pattern  # reason`` lines that a run expects to fail.

Certify, explore and the pytest plugin read the same file the same way. A line is either

- a vector pattern, a glob over vector ids and names: the listed vectors' failures are waived
  (EXPECTED_FAIL); in certify a listed vector that passes, or a pattern that matches no vector
  of the corpus, fails the run. Explore, whose rounds are drawn and have no ids a lab could
  list, plays the listed vectors of the profiles it explores on the engine first, and waives a
  drawn round that diverges as one of them did: on the same clause, with the same outcome, at
  the same field path, indexes aside (``ExploreWaivers``);
- or a clause entry, ``clause:ID`` or ``clause:ID@PATH``: a mismatch on that clause (at that
  field path, indexes aside, or a field under it) is waived in any vector, listed or drawn.
  It names no vector, so it is never stale and never makes a pass unexpected.
"""

from __future__ import annotations

import dataclasses
import fnmatch
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from croupier.conformance.results import (
    BAD,
    ConfigError,
    KnownFailure,
    Result,
    VectorOutcome,
    signature,
    unindexed,
)
from croupier.conformance.v1 import vector_pb2
from croupier.oracle.clauses import citable

#: What starts a clause entry.
CLAUSE_ENTRY = "clause:"


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
        entry = KnownFailure(pattern=pattern, reason=reason.strip(), line=number)
        if pattern.startswith(CLAUSE_ENTRY):
            entry = _clause_entry(entry, f"{path}:{number}")
        out.append(entry)
    return tuple(out)


def _clause_entry(entry: KnownFailure, where: str) -> KnownFailure:
    """``clause:ID`` or ``clause:ID@PATH``, the clause checked against RULES.md's."""
    clause, at, path = entry.pattern.removeprefix(CLAUSE_ENTRY).partition("@")
    if not citable(clause):
        raise ConfigError(
            f"{where}: {clause!r} is not a RULES.md clause or a contract label "
            f"(a failure names its clause): {entry.pattern!r}"
        )
    if at and not path:
        raise ConfigError(
            f"{where}: a field path after '@', as a failure shows it: {entry.pattern!r}"
        )
    return dataclasses.replace(entry, clause=clause, path=unindexed(path))


def matching(vector: vector_pb2.Vector, known: Sequence[KnownFailure]) -> KnownFailure | None:
    """The first vector pattern that matches the vector's id or name."""
    for entry in known:
        if not entry.clause and (
            fnmatch.fnmatchcase(vector.id, entry.pattern)
            or fnmatch.fnmatchcase(vector.name, entry.pattern)
        ):
            return entry
    return None


def waiving(result: Result, known: Sequence[KnownFailure]) -> KnownFailure | None:
    """The first clause entry that waives the mismatch ``result``: its clause, at its path."""
    if result.outcome not in BAD:
        return None
    path = unindexed(result.path)
    for entry in known:
        if entry.clause and entry.clause == result.clause and _under(path, entry.path):
            return entry
    return None


def _under(path: str, entry: str) -> bool:
    """Whether ``path`` is the entry's field path or a field under it (any, without one)."""
    return not entry or path == entry or path.startswith((f"{entry}.", f"{entry}["))


def apply_known(result: Result, vector: vector_pb2.Vector, known: Sequence[KnownFailure]) -> Result:
    """A listed vector that fails is EXPECTED_FAIL; one that passes, UNEXPECTED_PASS.

    A failure a clause entry waives is EXPECTED_FAIL too, whatever the vector.
    """
    entry = matching(vector, known)
    if entry is None:
        entry = waiving(result, known)
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
    """The vector patterns that match no vector of the scope: stale entries fail the run."""
    return tuple(
        entry
        for entry in known
        if not entry.clause and not any(matching(v, (entry,)) for v in scope)
    )


#: A mismatch's profile and signature (clause, outcome, path with its indexes left out).
_Failure = tuple[str, tuple[str, str, str]]


@dataclass(frozen=True, slots=True)
class ExploreWaivers:
    """What a known-failures file waives in explore.

    A drawn vector a pattern matches; a mismatch a clause entry waives; and one that diverges
    as a listed corpus vector diverged on this engine (``learn`` plays those first).
    """

    known: tuple[KnownFailure, ...] = ()
    #: The corpus vectors the patterns list, of the profiles explored: ``learn`` plays them.
    listed: tuple[vector_pb2.Vector, ...] = ()
    #: Each listed vector's failure on the engine (its profile and signature), to its entry.
    failures: Mapping[_Failure, KnownFailure] = field(default_factory=dict)
    #: The listed vectors that passed on the engine: they waive nothing.
    passed: tuple[vector_pb2.Vector, ...] = ()

    @classmethod
    def of(
        cls, known: Sequence[KnownFailure], corpus: Sequence[vector_pb2.Vector]
    ) -> ExploreWaivers:
        """The waivers of ``known``, listing the vectors of ``corpus`` its patterns match."""
        return cls(tuple(known), tuple(v for v in corpus if matching(v, known) is not None))

    async def learn(
        self, judge: Callable[[vector_pb2.Vector], Awaitable[Result]], profiles: Collection[str]
    ) -> ExploreWaivers:
        """Play the listed vectors of ``profiles`` with ``judge``: how each fails is waived."""
        failures: dict[_Failure, KnownFailure] = {}
        passed = []
        for vector in self.listed:
            if vector.profile_id not in profiles:
                continue
            result = await judge(vector)
            entry = matching(vector, self.known)
            if entry is None:
                continue
            if result.outcome in BAD:
                failures.setdefault((vector.profile_id, signature(result)), entry)
            elif result.outcome is VectorOutcome.PASS:
                passed.append(vector)
        return dataclasses.replace(self, failures=failures, passed=tuple(passed))

    def __call__(self, vector: vector_pb2.Vector, result: Result) -> KnownFailure | None:
        """The entry that waives ``vector``'s mismatch ``result``, if one does."""
        return (
            matching(vector, self.known)
            or waiving(result, self.known)
            or self.failures.get((vector.profile_id, signature(result)))
        )
