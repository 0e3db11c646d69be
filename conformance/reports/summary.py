"""A run's verdict in words: the summary line, the baseline and failing-clause lines.

The console prints them, and both report files carry them (``jsonl``, ``junit``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from croupier import oracle
from croupier.clients.words import plural
from croupier.conformance.results import BAD, RunReport, VectorOutcome, by_clause
from croupier.conformance.since import newer, parse_version

#: The suite's version, written in every report's first line: Croupier's one version.
SUITE_VERSION = oracle.__version__


def summary_line(report: RunReport) -> str:
    """One line: the verdict and the count of every outcome that occurred.

    Only a whole run (every vector of the shipped corpus for every profile the engine claims)
    may say "conformant"; a passing part of it says what it ran ("passed 3 of the 5 vectors
    selected"), and no more.
    """
    counts = ", ".join(
        f"{report.count(outcome)} {outcome.value.lower().replace('_', ' ')}"
        for outcome in VectorOutcome
        if report.count(outcome)
    )
    total = len(report.results)
    waived = f"{plural(report.waived, 'known failure')} waived" if report.waived else ""
    if not report.passed:
        none = " (no vector applies to the engine)" if not report.applicable else ""
        verdict = f"NOT conformant{none}: {plural(total, 'vector')}"
    elif report.whole:
        verdict = (
            f"passed with {waived}, not conformant: {plural(total, 'vector')}"
            if waived
            else f"conformant: {plural(total, 'vector')}"
        )
    else:
        verdict = (
            f"passed {report.count(VectorOutcome.PASS)} of the {plural(total, 'vector')} selected"
        )
        verdict += f", {waived}" if waived else ""
    mode = "certify" if report.certify else "run"
    extra = f", {plural(report.restarts, 'engine restart')}" if report.restarts else ""
    unmatched = (
        f", {plural(len(report.unmatched_patterns), 'known-failure pattern')} matched nothing"
        if report.unmatched_patterns
        else ""
    )
    return (
        f"{mode}: {verdict} ({counts}){unmatched}{extra} in {report.seconds:.1f} s{_scope(report)}"
    )


def _scope(report: RunReport) -> str:
    """What a run that is not whole left out, and that it has no verdict when it passed."""
    if report.whole:
        return ""
    if report.corpus is None:
        scope = "; vector files other than the shipped corpus"
    else:
        scope = f"; the corpus holds {plural(report.corpus, 'vector')} for the engine's profiles"
    return f"{scope}: a partial run, no verdict" if report.passed else scope


def baseline_split(report: RunReport, baseline: str) -> dict[str, list[str]]:
    """The failed vectors' ids by where they stand to the ``baseline`` version a vendor names.

    ``newer``: added or changed after it (their ``since`` is later); ``older``: vectors it
    already held as they are; ``outside``: vectors of no suite version (own files, explored).
    """
    split: dict[str, list[str]] = {"newer": [], "older": [], "outside": []}
    for result in sorted(report.results, key=lambda r: r.vector_id):
        if result.outcome in BAD:
            kind = (
                "outside"
                if not result.since
                else "newer"
                if newer(result.since, baseline)
                else "older"
            )
            split[kind].append(result.vector_id)
    return split


def baseline_line(report: RunReport, baseline: str) -> str:
    """One line: how many failures come from vectors newer than ``baseline``, by version."""
    split = baseline_split(report, baseline)
    total = sum(len(ids) for ids in split.values())
    if not total:
        return f"baseline {baseline}: no failure"
    since = {r.vector_id: r.since for r in report.results}
    versions = Counter(since[vid] for vid in split["newer"])
    by_version = ", ".join(
        f"{version}: {count}"
        for version, count in sorted(versions.items(), key=lambda item: parse_version(item[0]))
    )
    parts = [
        f"{len(split['newer'])} from vectors added or changed after {baseline}"
        + (f" ({by_version}; docs/CHANGES.md lists the changes)" if by_version else ""),
        f"{len(split['older'])} from vectors {baseline} already had",
    ]
    if split["outside"]:
        parts.append(f"{len(split['outside'])} from vectors outside the suite's corpus")
    return f"baseline {baseline}: {plural(total, 'failure')}: {', '.join(parts)}"


def failing_clauses(report: RunReport) -> list[dict[str, object]]:
    """Each clause that failures blame, with their count and ids, first failure first."""
    groups = by_clause(
        (r.clause, r.hand_written, r.vector_id) for r in report.results if r.outcome in BAD
    )
    return [
        {"clause": g.clause, "failures": len(g.vector_ids), "vectors": list(g.vector_ids)}
        for g in groups
    ]


def failing_clauses_line(report: RunReport) -> str:
    """One line naming each failing clause, its count and its first failure; empty if none."""
    parts = [
        f"{entry['clause'] or '(no clause)'} {plural(int(str(entry['failures'])), 'failure')} "
        f"(first {_first(entry)})"
        for entry in failing_clauses(report)
    ]
    return f"failing clauses: {'; '.join(parts)}" if parts else ""


def _first(entry: Mapping[str, object]) -> str:
    vectors = entry["vectors"]
    return str(vectors[0]) if isinstance(vectors, list) and vectors else ""
