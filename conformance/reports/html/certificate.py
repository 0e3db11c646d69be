"""The certification report: one self-contained HTML page built from a run's JSON Lines report.

``croupier certify --html`` and ``croupier report html`` both call ``write_certificate``, so
the page is the same bytes whenever it is made from the same report. Everything the report
holds is escaped: an engine names itself, and its answers are quoted.

Stable hooks for browser tests:

- ``#verdict``: the verdict, ``CONFORMANT``, ``NOT CONFORMANT``, ``PARTIAL RUN`` (a filtered
  run that passed: not the whole corpus) or ``INCOMPLETE``;
- ``#reached``: how the engine was reached (``--target`` or ``--launch``), under the title;
- ``#summary``: under the verdict, one row per failing clause (``tr.failing-clause``): the
  clause with its text (``.clause-text``, the one place a failing clause's text appears),
  its count of failures linking to ``#failures-CLAUSE``, and its first failure linking to
  ``#v-VECTOR``; hand-written vectors come before generated ones;
- ``#engine``: the engine's identity (its Describe) as a table;
- ``#run``: suite version, corpus digest, how the engine was reached (``--target`` or
  ``--launch``), the baseline, date and mode as a table; with ``certify --profile-file``,
  each lab profile's file, id and digest, and the parameters that differ from the profile
  it extends (``base -> value``);
- ``#baseline``: with ``--baseline``, which failures come from vectors newer than it;
- ``#matrix``: clauses (rows) by profiles (columns); each cell links to ``#cell-CLAUSE-PROFILE``,
  a ``section.cell`` listing its vectors;
- ``section.clause-failures``: a failing clause's failures, id ``failures-CLAUSE``: the first
  shown, the others folded in a ``<details>`` (a one-bug engine prints in a few pages);
- ``.failure``: one block per failed vector, id ``v-VECTOR``, holding ``.inputs`` (the round's
  seats, stakes, cards as dealt and decisions), ``pre.expected`` and ``pre.actual`` side by
  side, and ``pre.reproduce``.

The matrix and the vector lists come after the failures; the lists are folded.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from pathlib import Path

from croupier.conformance.inputs import amount_of, currency_of
from croupier.conformance.reports.html.clause_text import clause_html
from croupier.conformance.reports.html.coverage import coverage_section
from croupier.conformance.reports.html.page import anchor, esc, page
from croupier.conformance.results import ClauseFailures, by_clause
from croupier.oracle.clauses import BY_ID, CONTRACT
from croupier.oracle.money import money_text

#: The matrix row of vectors that name no clause (reports written before lines carried them).
NO_CLAUSE = "(none)"
_ORDER = {cid: i for i, cid in enumerate([*BY_ID, *CONTRACT])}
#: A cell's counts, in the order the cell shows them.
_KINDS = ("pass", "fail", "na", "stopped")
_KIND_WORDS = {"pass": "pass", "fail": "fail", "na": "n/a", "stopped": "stopped"}

Record = Mapping[str, object]


class ReportFileError(ValueError):
    """A file that is not a JSON Lines run report."""


@dataclass(frozen=True, slots=True)
class RunRecords:
    """A JSON Lines report split into its header, its vector lines and its trailer."""

    header: Record
    results: tuple[Record, ...]
    #: None when the run never wrote its last line (killed outright).
    trailer: Record | None
    #: ``certify --explore``: each explored profile's coverage (``explore_coverage`` lines).
    coverage: tuple[Record, ...] = ()


@dataclass(slots=True)
class _Cell:
    entries: list[tuple[Record, str]] = field(default_factory=list)

    def count(self, kind: str) -> int:
        return sum(k == kind for _, k in self.entries)


def parse_records(lines: Iterable[str]) -> RunRecords:
    """The report's lines, told apart by their keys, so a partial report still reads."""
    header: Record = {}
    results: list[Record] = []
    trailer: Record | None = None
    coverage: list[Record] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReportFileError(f"line {number}: not JSON ({exc.msg})") from None
        if not isinstance(data, dict):
            raise ReportFileError(f"line {number}: not a JSON object")
        if "suite_version" in data:
            header = data
        elif "complete" in data:
            trailer = data
        elif "id" in data and "outcome" in data:
            results.append(data)
        elif "explore_coverage" in data:
            coverage.append(data)
        else:
            raise ReportFileError(f"line {number}: neither header, vector nor trailer")
    if not header and not results:
        raise ReportFileError("no run report: no header and no vector line")
    return RunRecords(
        header=header, results=tuple(results), trailer=trailer, coverage=tuple(coverage)
    )


def read_records(path: Path) -> RunRecords:
    """A JSON Lines report file; ``ReportFileError`` if it is not one."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ReportFileError(f"{path}: not UTF-8 text") from None
    try:
        return parse_records(text.splitlines())
    except ReportFileError as exc:
        raise ReportFileError(f"{path}: {exc}") from None


def write_certificate(jsonl: Path, out: Path) -> None:
    """Render the report at ``jsonl`` to ``out``: the one path both commands take."""
    # Bytes, not text mode: the page must not change with the platform's line endings.
    out.write_bytes(render(read_records(jsonl)).encode("utf-8"))


def render(run: RunRecords) -> str:
    """The whole page."""
    engine = _mapping(run.header.get("engine"))
    name = f"{_text(engine.get('name'))} {_text(engine.get('version'))}".strip()
    word, style = _verdict(run.trailer)
    results = sorted(run.results, key=lambda r: _text(r.get("id")))
    failures = [r for r in results if _kind(r) == "fail"]
    groups = by_clause(
        (_text(r.get("clause")), r.get("hand_written") is True, _text(r.get("id")))
        for r in failures
    )
    by_id = {_text(r.get("id")): r for r in failures}
    summary = _text(run.trailer.get("summary")) if run.trailer else "the report has no last line"
    reached = _text(run.header.get("engine_command"))
    version = _text(run.header.get("suite_version"))
    body = [
        f"<h1>Croupier certification report: {esc(name or 'unnamed engine')}</h1>",
        f'<p id="reached" class="mono">{esc(reached)}</p>' if reached else "",
        f'<div id="verdict" class="verdict {style}">{esc(word)}</div>',
        f"<p>{esc(summary)}</p>",
        _baseline(run.trailer),
        _summary(groups, by_id),
        '<div class="side">',
        f"<div><h2>Engine</h2>{_engine_table(engine)}</div>",
        f"<div><h2>Run</h2>{_run_table(run, len(results))}</div>",
        "</div>",
        _outcomes(results),
        _unmatched(run.trailer),
        f"<h2>Failures ({len(failures)})</h2>",
        "\n".join(_clause_failures(g.clause, [by_id[v] for v in g.vector_ids]) for g in groups)
        or "<p>None.</p>",
        "<h2>Clauses by profile</h2>",
        _LEGEND,
        _matrix(_cells(results), {g.clause for g in groups}),
        _cell_lists(_cells(results), {g.clause for g in groups}),
        coverage_section(run.coverage),
    ]
    return page(
        title=f"Croupier certification: {name or 'unnamed engine'}: {word}",
        body="\n".join(part for part in body if part),
        footer=f"Croupier {esc(version)} (croupier --version; the suite's version); "
        "made from the run's JSON Lines report (croupier report html).",
    )


def _summary(groups: Sequence[ClauseFailures], by_id: Mapping[str, Record]) -> str:
    """Under the verdict: each failing clause, its text, its count and its first failure."""
    if not groups:
        return ""
    rows = []
    for group in groups:
        cid = group.clause
        first = by_id[group.vector_ids[0]]
        vid = _text(first.get("id"))
        written = "hand-written" if first.get("hand_written") is True else "generated"
        count = len(group.vector_ids)
        rows.append(
            f'<tr class="failing-clause" id="{anchor("summary", cid)}">'
            f'<th scope="row"><code>{esc(cid or NO_CLAUSE)}</code></th>'
            f"<td>{clause_html(cid) if cid else ''}</td>"
            f'<td class="num nowrap"><a href="#{anchor("failures", cid)}">'
            f"{esc(_count(count, 'failure'))}</a></td>"
            f'<td><a href="#{anchor("v", vid)}"><code>{esc(vid)}</code></a> '
            f'<span class="na">({written})</span><br>{esc(_first_line(first))}</td></tr>'
        )
    return (
        f'<h2>Failing clauses ({len(groups)})</h2><table id="summary">'
        "<thead><tr><th>clause</th><th>its text (RULES.md)</th><th>failures</th>"
        f"<th>first failure</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _first_line(result: Record) -> str:
    """A failure in a few words: its path, expected and actual values."""
    path = _text(result.get("path"))
    currency = currency_of(_mapping(result.get("inputs")))
    expected, actual = _text(result.get("expected")), _text(result.get("actual"))
    if not (expected or actual):
        return _text(result.get("message"))[:200]
    expected = amount_of(path, expected, currency) or expected[:60]
    actual = amount_of(path, actual, currency) or actual[:60]
    return f"{path}: expected {expected}, actual {actual}"


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _clause_failures(cid: str, failures: Sequence[Record]) -> str:
    """One failing clause's failures: the first in full, the others folded."""
    first, *rest = failures
    text_link = f' (<a href="#{anchor("summary", cid)}">its text</a>)' if cid else ""
    folded = (
        f"<details><summary>{esc(_count(len(rest), 'more failure'))} of "
        f"<code>{esc(cid or NO_CLAUSE)}</code></summary>"
        + "\n".join(_failure(r) for r in rest)
        + "</details>"
        if rest
        else ""
    )
    return (
        f'<section class="clause-failures" id="{anchor("failures", cid)}">'
        f"<h3><code>{esc(cid or NO_CLAUSE)}</code>: {esc(_count(len(failures), 'failure'))}"
        f"{text_link}</h3>\n{_failure(first)}\n{folded}</section>"
    )


_LEGEND = (
    '<p class="legend">Each cell counts the vectors of one profile that exercise one clause '
    '(a vector counts under every clause it lists): <span class="pass">pass</span>, '
    '<span class="fail">fail</span> (failed, errored, crashed, timed out, passed unexpectedly, '
    'or failed with a waiver) and <span class="na">n/a</span> (the engine does not claim the '
    "profile). A failing vector counts as a failure under the clause the oracle blamed; under "
    "the other clauses it lists it counts as <em>stopped</em>, neither pass nor fail, since "
    "it did not get to show them. A failure blamed on no clause counts as a failure under "
    f"every clause the vector lists. Vectors naming no clause at all are counted under {NO_CLAUSE}"
    ". Click a cell for its vectors.</p>"
)


def _verdict(trailer: Record | None) -> tuple[str, str]:
    if trailer is None or trailer.get("complete") is not True:
        return "INCOMPLETE", "incomplete"
    if trailer.get("conformant") is True:
        return "CONFORMANT", "pass"
    if trailer.get("passed") is True and trailer.get("whole_corpus") is False:
        # Passed, but not the whole corpus for every profile claimed: no verdict either way.
        return "PARTIAL RUN", "incomplete"
    return "NOT CONFORMANT", "fail"


def _kind(result: Record) -> str:
    match result.get("outcome"):
        case "PASS":
            return "pass"
        case "NOT_APPLICABLE":
            return "na"
        case _:
            return "fail"


def _cells(results: Iterable[Record]) -> dict[tuple[str, str], _Cell]:
    """Each (clause, profile) cell's vectors, each with how it counts there (see the legend)."""
    cells: dict[tuple[str, str], _Cell] = defaultdict(_Cell)
    for result in results:
        profile = _text(result.get("profile"))
        listed = [_text(c) for c in _list(result.get("clauses"))]
        blamed = _text(result.get("clause"))
        kind = _kind(result)
        clauses = dict.fromkeys([*listed, blamed] if blamed else listed) or {NO_CLAUSE: None}
        for cid in clauses:
            counted = "stopped" if kind == "fail" and blamed and cid != blamed else kind
            cells[cid, profile].entries.append((result, counted))
    return cells


def _row_key(cid: str) -> tuple[int, str]:
    return (_ORDER.get(cid, len(_ORDER) + (cid == NO_CLAUSE)), cid)


def _matrix(cells: Mapping[tuple[str, str], _Cell], failing: Set[str]) -> str:
    clauses = sorted({c for c, _ in cells}, key=_row_key)
    profiles = sorted({p for _, p in cells})
    head = "".join(f'<th scope="col">{esc(p)}</th>' for p in profiles)
    rows = []
    for cid in clauses:
        title = BY_ID[cid].title if cid in BY_ID else CONTRACT.get(cid, "")
        tds = "".join(_matrix_cell(cid, p, cells.get((cid, p))) for p in profiles)
        # A failing clause's text is in the summary; the others' in the folded lists.
        target = anchor("summary", cid) if cid in failing else anchor("clause", cid)
        rows.append(
            f'<tr><th scope="row"><a href="#{target}">{esc(cid)}</a>'
            f'<br><span class="na">{esc(title)}</span></th>{tds}</tr>'
        )
    return (
        f'<table id="matrix"><thead><tr><th>clause</th>{head}</tr></thead>\n'
        f"<tbody>\n{chr(10).join(rows)}\n</tbody></table>"
    )


def _matrix_cell(cid: str, profile: str, cell: _Cell | None) -> str:
    if cell is None:
        return '<td class="cell"></td>'
    parts = [
        f'<span class="{kind}">{cell.count(kind)} {_KIND_WORDS[kind]}</span>'
        for kind in _KINDS
        if cell.count(kind)
    ]
    return f'<td class="cell"><a href="#{anchor("cell", cid, profile)}">{" ".join(parts)}</a></td>'


def _cell_lists(cells: Mapping[tuple[str, str], _Cell], failing: Set[str]) -> str:
    """Each cell's vectors, by clause, folded: a matrix cell's link opens its list."""
    sections = []
    for cid in sorted({c for c, _ in cells}, key=_row_key):
        text = (
            f'<p class="na">Its text is in the <a href="#{anchor("summary", cid)}">summary</a>.</p>'
            if cid in failing
            else clause_html(cid)
        )
        lists = []
        for (row, profile), cell in sorted(cells.items()):
            if row != cid:
                continue
            items = "".join(
                f"<li>{_vector_ref(r)}: {esc(_KIND_WORDS[k])}</li>" for r, k in cell.entries
            )
            lists.append(
                f'<section class="cell" id="{anchor("cell", cid, profile)}">'
                f"<h4>{esc(cid)} in {esc(profile)}</h4><ul>{items}</ul></section>"
            )
        sections.append(
            f'<details class="clause" id="{anchor("clause", cid)}"><summary><code>{esc(cid)}'
            f"</code></summary>{text}{''.join(lists)}</details>"
        )
    return (
        "<h2>Vectors by clause and profile</h2>"
        '<p class="na">Folded: open a clause, or follow a cell of the matrix.</p>'
        + "\n".join(sections)
    )


def _vector_ref(result: Record) -> str:
    vid = _text(result.get("id"))
    label = f"<code>{esc(vid)}</code> {esc(_text(result.get('name')))}"
    outcome = esc(_text(result.get("outcome")))
    if _kind(result) == "fail":
        return f'<a href="#{anchor("v", vid)}">{label}</a> ({outcome})'
    return f"{label} ({outcome})"


def _failure(result: Record) -> str:
    vid = _text(result.get("id"))
    blamed = _text(result.get("clause"))
    rows = [
        ("outcome", result.get("outcome")),
        ("profile", result.get("profile")),
        ("level", result.get("level")),
        ("vector", "hand-written" if result.get("hand_written") is True else "generated"),
        ("step", result.get("step")),
        ("path", result.get("path")),
        ("clause", blamed),
        ("message", result.get("message")),
        ("waived", result.get("known_failure")),
        ("since", result.get("since")),
    ]
    reproduce = _text(result.get("reproduce"))
    return (
        f'<div class="failure" id="{anchor("v", vid)}">'
        f"<h4><code>{esc(vid)}</code> {esc(_text(result.get('name')))}</h4>\n"
        f'<div class="side">{_meta_table(rows)}{_inputs(_mapping(result.get("inputs")))}</div>\n'
        '<div class="diff">'
        f"<div><h5>expected</h5>{_compared('expected', result)}</div>"
        f"<div><h5>actual</h5>{_compared('actual', result)}</div>"
        "</div>\n"
        + (f'<h5>reproduce</h5><pre class="reproduce">{esc(reproduce)}</pre>' if reproduce else "")
        + "</div>"
    )


def _compared(which: str, result: Record) -> str:
    """An expected or actual value; an amount in its currency, its minor units in the tooltip."""
    value = _text(result.get(which))
    amount = amount_of(
        _text(result.get("path")), value, currency_of(_mapping(result.get("inputs")))
    )
    if amount:
        return f'<pre class="{which}" title="{esc(value)} minor units">{esc(amount)}</pre>'
    return f'<pre class="{which}">{esc(value)}</pre>'


def _money(minor_units: object, currency: str) -> str:
    """An amount with its currency; its minor units in the tooltip."""
    units = minor_units if isinstance(minor_units, int) else 0
    return (
        f'<span class="money" title="{units} minor units">{esc(money_text(units, currency))}</span>'
    )


def _inputs(inputs: Record) -> str:
    """The failing round as sent: seats and stakes, cards as dealt, decisions, the table due."""
    if not inputs:
        return ""
    currency = _text(inputs.get("currency"))
    seats = []
    for number, seat in enumerate(map(_mapping, _list(inputs.get("seats")))):
        bets = ", ".join(
            f"{esc(_text(bet.get('bet')))} {_money(bet.get('stake'), currency)}"
            for bet in map(_mapping, _list(seat.get("bets")))
        )
        seats.append(
            f"<tr><td>seat {number}</td><td>{_money(seat.get('balance'), currency)}</td>"
            f"<td>{bets or 'none'}</td></tr>"
        )
    decisions = ", ".join(_text(d) for d in _list(inputs.get("decisions"))) or "none"
    table = "<br>".join(esc(_text(line)) for line in _list(inputs.get("table_state")))
    return (
        f'<div class="inputs"><h5>round {esc(_text(inputs.get("round")))} at table '
        f"<code>{esc(_text(inputs.get('table')))}</code></h5>"
        f'<table class="seats"><thead><tr><th>seat</th><th>balance</th><th>bets</th></tr>'
        f"</thead><tbody>{''.join(seats)}</tbody></table>"
        f"<p><strong>dealt</strong> "
        f'<code class="dealt">{esc(_text(inputs.get("dealt")))}</code></p>'
        f'<p><strong>decisions</strong> <span class="decisions">{esc(decisions)}</span></p>'
        + (f"<p><strong>as the rules deal it</strong><br><code>{table}</code></p>" if table else "")
        + "</div>"
    )


def _engine_table(engine: Record) -> str:
    labels = {"name": "name", "version": "version", "profileIds": "profile ids"}
    keys = [*(k for k in labels if k in engine), *sorted(k for k in engine if k not in labels)]
    return _meta_table([(labels.get(k, k), engine[k]) for k in keys], table_id="engine")


def _run_table(run: RunRecords, vectors: int) -> str:
    header = run.header
    mode = header.get("certify")
    rows = [
        ("Croupier version", header.get("suite_version")),
        ("corpus digest", header.get("corpus_hash")),
        ("engine reached by", header.get("engine_command")),
        ("baseline", header.get("baseline")),
        ("date", header.get("time")),
        ("mode", "certify" if mode is True else "run" if mode is False else ""),
        ("host", header.get("host")),
        ("vectors", vectors),
        ("complete", "yes" if run.trailer and run.trailer.get("complete") is True else "no"),
    ]
    for entry in _list(header.get("lab_profiles")):
        lab = _mapping(entry)
        extends = _text(lab.get("extends")) or "the defaults"
        changed = "; ".join(
            f"{_text(d.get('name'))}: {_text(d.get('base'))} -> {_text(d.get('value'))}"
            for d in map(_mapping, _list(lab.get("differs")))
        )
        rows += [
            ("lab profile", f"{_text(lab.get('id'))} ({_text(lab.get('file'))})"),
            ("profile digest", lab.get("digest")),
            (f"differs from {extends}", changed or "nothing"),
        ]
    return _meta_table(rows, table_id="run")


def _outcomes(results: Iterable[Record]) -> str:
    counts = Counter(_text(r.get("outcome")) for r in results)
    rows = "".join(
        f'<tr><td>{esc(o)}</td><td class="num">{n}</td></tr>' for o, n in sorted(counts.items())
    )
    return (
        f'<table id="outcomes"><tr><th>outcome</th><th class="num">vectors</th></tr>{rows}</table>'
    )


def _baseline(trailer: Record | None) -> str:
    """With ``--baseline``: how many failures come from vectors newer than it, and which."""
    baseline = _mapping(trailer.get("baseline")) if trailer else {}
    if not baseline:
        return ""
    ids = [_text(vid) for vid in _list(baseline.get("newer"))]
    links = ", ".join(f'<a href="#{anchor("v", vid)}">{esc(vid)}</a>' for vid in ids)
    newer = (
        f"<br>Added or changed after {esc(_text(baseline.get('version')))}: {links}" if ids else ""
    )
    return f'<p id="baseline">{esc(_text(baseline.get("summary")))}{newer}</p>'


def _unmatched(trailer: Record | None) -> str:
    entries = [
        _mapping(e) for e in _list(trailer.get("unmatched_known_failures") if trailer else None)
    ]
    if not entries:
        return ""
    items = "".join(
        f"<li><code>{esc(_text(e.get('pattern')))}</code> (line {esc(_text(e.get('line')))})</li>"
        for e in entries
    )
    return f'<h3 class="fail">Known-failure patterns that matched no vector</h3><ul>{items}</ul>'


def _meta_table(rows: Iterable[tuple[str, object]], *, table_id: str = "") -> str:
    """A two-column table of the rows that have a value."""
    cells = "".join(
        f"<tr><td>{esc(label)}</td><td>{esc(_text(value))}</td></tr>"
        for label, value in rows
        if _text(value)
    )
    ident = f' id="{table_id}"' if table_id else ""
    return f'<table class="meta"{ident}>{cells}</table>'


def _text(value: object) -> str:
    """A report value as text: lists joined, objects as JSON, nothing as empty."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    return str(value)


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _mapping(value: object) -> Record:
    return value if isinstance(value, dict) else {}
