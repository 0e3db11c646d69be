"""The audit report as one HTML page, made from the JSON report of ``croupier audit verify``.

Everything the log holds (ids, values, messages) is hostile input: it goes through ``esc``.

Stable hooks for browser tests: ``#verdict``; ``#log`` (file name, size, SHA-256, Croupier's
version, the options of the audit); ``#findings`` (one ``tr.finding`` a finding, followed by
its ``tr.recall`` holding ``code.recall``, the ``croupier audit recall`` command that shows its
round); ``#clauses`` (the text of each clause the findings cite, once, ``.clause-text``);
``#totals``, ``#returns`` (under each bet's row, ``td.reading`` says in one sentence why it is
flagged or not) and ``svg.plot``. Money reads in its currency everywhere (``span.money``), the
minor units in its tooltip.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any, Final

from croupier.clients.words import plural
from croupier.conformance.reports.html.clause_text import clause_html
from croupier.conformance.reports.html.page import anchor, esc, page
from croupier.conformance.reports.html.shape import (
    ANY,
    BOOL,
    FRACTION,
    INT,
    NUMBER,
    TEXT,
    MapOf,
    Optional,
    check,
)
from croupier.conformance.reports.html.svg import Cell, Whisker, bars_expected, dot_whisker
from croupier.oracle.money import money_text
from croupier.oracle.returns import percent

#: The report's lists of findings, and what each is called.
LISTS: Final = (
    ("discrepancies", "discrepancy"),
    ("chain_problems", "chain"),
    ("log_problems", "log"),
    ("malformed", "malformed"),
    ("unreplayable", "unreplayable"),
)
#: The report's counts of findings, by list.
COUNTS: Final = ("discrepancies", "malformed", "unreplayable", "chain", "log")
#: What the page reads of a report, and of what kind: a saved report may have been edited.
_FINDING: Final = {"record": INT, "offset": Optional(INT)}
REPORT_SHAPE: Final = {
    "verdict": TEXT,
    "log": ANY,
    "log_size": Optional(INT),
    "log_sha256": Optional(TEXT),
    "croupier_version": Optional(TEXT),
    "options": Optional(MapOf(ANY)),
    "format": Optional(ANY),
    "records": ANY,
    "rounds": ANY,
    "checkpoints": Optional(ANY),
    "band": NUMBER,
    "p_threshold": NUMBER,
    "flagged": Optional(ANY),
    "counts": dict.fromkeys(COUNTS, INT),
    "totals": MapOf(
        {
            "staked": INT,
            "paid": INT,
            "expected_paid": INT,
            "difference": INT,
            "unverified_staked": INT,
            "unverified_paid": INT,
        }
    ),
    "profiles": MapOf(ANY),
    "returns": Optional(
        [
            {
                "profile": TEXT,
                "bet": ANY,
                "currency": TEXT,
                "rounds": Optional(ANY),
                "staked": INT,
                "returned": INT,
                "actual": Optional(FRACTION),
                "theoretical": Optional(FRACTION),
                "standard_error": Optional(NUMBER),
                "z": Optional(NUMBER),
                "note": Optional(ANY),
                "flagged": BOOL,
            }
        ]
    ),
    "fairness": Optional(
        [
            {
                "profile": ANY,
                "test": ANY,
                "observations": ANY,
                "chi_square": Optional(NUMBER),
                "df": ANY,
                "p": Optional(NUMBER),
                "note": Optional(ANY),
                "worst": Optional(ANY),
                "flagged": BOOL,
                "frequencies": Optional([{"cell": TEXT, "observed": NUMBER, "expected": NUMBER}]),
            }
        ]
    ),
    "signing": Optional(
        {
            "public_keys": Optional([TEXT]),
            "checkpoints": Optional(ANY),
            "valid_checkpoints": Optional(ANY),
        }
    ),
    "statements": Optional([TEXT]),
    "discrepancies": Optional(
        [{**_FINDING, "expected_amount": Optional(TEXT), "actual_amount": Optional(TEXT)}]
    ),
    "chain_problems": Optional([{**_FINDING, "kind": ANY, "message": ANY}]),
    "log_problems": Optional([_FINDING]),
    "malformed": Optional([_FINDING]),
    "unreplayable": Optional([_FINDING]),
}
#: Findings listed on the page; the JSON report lists them all.
LIMIT: Final = 1000
#: Chain problems named in the chain section.
BREAKS_SHOWN: Final = 10


@dataclass(frozen=True, slots=True)
class Html:
    """A cell's content that is already HTML (built with ``esc``), not text to escape."""

    markup: str


def _amount(minor_units: int, currency: str) -> Html:
    """An amount in its currency, on one line; its minor units in the tooltip."""
    return Html(
        f'<span class="money" title="{esc(minor_units)} minor units">'
        f"{esc(money_text(minor_units, currency))}</span>"
    )


def _cells(values: Sequence[object], *, numeric: Sequence[bool] = ()) -> str:
    """A row of cells, escaped unless ``Html``; the numeric ones right-aligned."""
    flags = list(numeric) + [False] * (len(values) - len(numeric))
    return "".join(
        ('<td class="num">' if flag else "<td>")
        + (v.markup if isinstance(v, Html) else esc(v))
        + "</td>"
        for v, flag in zip(values, flags, strict=True)
    )


def _table(table_id: str, head: Sequence[str], rows: Sequence[str], empty: str) -> str:
    """A table of pre-built ``<tr>`` rows, or one row saying ``empty``."""
    header = "".join(f"<th>{esc(h)}</th>" for h in head)
    body = "".join(rows) or f'<tr><td colspan="{len(head)}" class="na">{esc(empty)}</td></tr>'
    return f'<table id="{table_id}"><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>'


def _flag(*, flagged: bool) -> str:
    """The word, not only a colour: the page prints in black and white."""
    return '<td class="fail">FLAGGED</td>' if flagged else '<td class="pass">no</td>'


def _summary_line(report: Mapping[str, Any]) -> str:
    """The terminal's last line, word for word."""
    return counts_line(report["counts"])


def counts_line(counts: Mapping[str, int]) -> str:
    """An audit's counts of each kind of problem, in words: the verdict line's and the page's."""
    return (
        f"{plural(counts['discrepancies'], 'discrepancy', 'discrepancies')}, "
        f"{plural(counts['malformed'], 'malformed record')}, "
        f"{plural(counts['unreplayable'], 'unreplayable record')}, "
        f"{plural(counts['chain'], 'chain problem')}, {plural(counts['log'], 'log problem')}"
    )


def _meta(report: Mapping[str, Any], made: datetime) -> str:
    keys = (report.get("signing") or {}).get("public_keys") or ["none given"]
    options = report.get("options") or {}
    size = report.get("log_size")
    rows = (
        ("log file", report["log"]),
        ("size", f"{size:,} bytes" if isinstance(size, int) else ""),
        ("SHA-256", report.get("log_sha256", "")),
        ("format", report.get("format", "")),
        (
            "checked by",
            f"Croupier {report['croupier_version']}" if "croupier_version" in report else "",
        ),
        ("options", _options(options)),
        ("page made", made.strftime("%Y-%m-%d %H:%M UTC")),
        ("entries", f"{report['records']} ({report.get('checkpoints', 0)} checkpoints)"),
        ("rounds", report["rounds"]),
        ("public keys", ", ".join(keys)),
        ("return band", f"flagged beyond |z| > {report['band']:g}"),
        ("fairness threshold", f"flagged under p < {report['p_threshold']:g}"),
    )
    body = "".join(
        f'<tr><td>{esc(k)}</td><td class="{"mono" if k == "SHA-256" else ""}">{esc(v)}</td></tr>'
        for k, v in rows
        if str(v)
    )
    return f'<table class="meta" id="log">{body}</table>'


def _options(options: Mapping[str, Any]) -> str:
    """The options that decide what the audit checked, as ``croupier audit verify`` takes them."""
    names = {
        "format": "--format",
        "band": "--band",
        "fairness_p": "--fairness-p",
        "public_keys": "--public-key",
        "profile_files": "--profile-file",
    }
    words: list[str] = []
    for key, flag in names.items():
        value = options.get(key)
        items = value if isinstance(value, list) else [value]
        words.extend(f"{flag} {item}" for item in items if item not in (None, ""))
    return " ".join(words)


def _totals(report: Mapping[str, Any]) -> str:
    rows = [
        "<tr>"
        + _cells(
            [
                currency,
                *(
                    _amount(money[key], currency)
                    for key in (
                        "staked",
                        "paid",
                        "expected_paid",
                        "difference",
                        "unverified_staked",
                        "unverified_paid",
                    )
                ),
            ],
            numeric=[False] + [True] * 6,
        )
        + "</tr>"
        for currency, money in report["totals"].items()
    ]
    head = (
        "currency",
        "staked",
        "paid",
        "rules say",
        "difference",
        "unverified staked",
        "unverified paid",
    )
    return _table("totals", head, rows, "no money")


def _profiles(report: Mapping[str, Any]) -> str:
    """Rounds per profile, and its stakes and returns per currency, summed over its bets."""
    money: dict[tuple[str, str], list[int]] = {}
    for row in report.get("returns") or []:
        sums = money.setdefault((row["profile"], row["currency"]), [0, 0])
        sums[0] += row["staked"]
        sums[1] += row["returned"]
    rows = []
    for profile_id, rounds in report["profiles"].items():
        currencies = [(c, s) for (p, c), s in money.items() if p == profile_id] or [("", [])]
        for currency, sums in currencies:
            figures = [_amount(n, currency) for n in sums] if sums else ["-", "-"]
            cells = _cells([profile_id, rounds, currency, *figures], numeric=[False, True])
            rows.append(f"<tr>{cells}</tr>")
    return _table(
        "profiles", ("profile", "rounds", "currency", "staked", "returned"), rows, "no rounds"
    )


def _findings(report: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for key, name in LISTS:
        for item in report.get(key) or []:
            yield name, item


def _findings_table(report: Mapping[str, Any], limit: int) -> str:
    found = sorted(_findings(report), key=lambda pair: pair[1]["record"])
    recall = str((report.get("options") or {}).get("recall", ""))
    rows = []
    head = ("record", "round", "table", "finding", "clause", "path", "expected", "actual", "why")
    for name, item in found[:limit]:
        kind = item.get("kind", name)
        where = item.get("path") or (f"byte {item['offset']}" if "offset" in item else "")
        clause = str(item.get("clause", ""))
        cells = _cells(
            [
                item["record"],
                Html(f'<code class="nowrap">{esc(item.get("round_id", ""))}</code>'),
                Html(f'<code class="nowrap">{esc(item.get("table_id", ""))}</code>'),
                Html(f'<span class="fail">{esc(kind)}</span>'),
                Html(f'<a href="#{anchor("clause", clause)}">{esc(clause)}</a>') if clause else "",
                where,
                _value(item, "expected"),
                _value(item, "actual"),
                item.get("message") or item.get("reason", ""),
            ],
            numeric=[True],
        )
        rows.append(f'<tr class="finding">{cells}</tr>')
        round_id = str(item.get("round_id", ""))
        if recall and round_id:
            command = f"{recall} --round {shlex.quote(round_id)}"
            rows.append(
                f'<tr class="recall"><td></td><td colspan="{len(head) - 1}">shows the round: '
                f'<code class="recall">{esc(command)}</code></td></tr>'
            )
    table = _table("findings", head, rows, "no findings")
    counted = sum(report["counts"][key] for key in COUNTS)
    if counted > min(len(found), limit):
        listed = min(len(found), limit)
        table += (
            f'<p class="warn">{listed} of {counted} findings listed here: the JSON report '
            "(--report) lists them all.</p>"
        )
    return table + _clauses(found[:limit])


def _value(item: Mapping[str, Any], which: str) -> object:
    """A finding's expected or actual value: an amount in its currency, else as it is."""
    amount = item.get(f"{which}_amount")
    value = item.get(which, "")
    if amount:
        return Html(f'<span class="money" title="{esc(value)} minor units">{esc(amount)}</span>')
    return value


def _clauses(found: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    """Each clause the findings cite, its text once: the findings link to it."""
    cited = sorted({str(item["clause"]) for _, item in found if item.get("clause")})
    if not cited:
        return ""
    parts = [
        f'<h3 id="{anchor("clause", cid)}"><code>{esc(cid)}</code></h3>{clause_html(cid)}'
        for cid in cited
    ]
    return f'<div id="clauses"><h3>The clauses the findings cite</h3>{"".join(parts)}</div>'


def _chain(report: Mapping[str, Any]) -> str:
    counts = report["counts"]
    broken = counts["chain"] > 0
    status = (
        f'<span class="fail">broken</span>: {counts["chain"]} chain problems'
        if broken
        else '<span class="pass">intact</span>'
    )
    parts = [f"<p>Hash chain: {status}; log order: {counts['log']} problems.</p>"]
    breaks = (report.get("chain_problems") or [])[:BREAKS_SHOWN]
    if breaks:
        items = "".join(
            f"<li>record {esc(b['record'])} ({esc(b.get('round_id', ''))}): "
            f"{esc(b['kind'])}: {esc(b['message'])}</li>"
            for b in breaks
        )
        parts.append(f"<p>Where it broke:</p><ul>{items}</ul>")
    signing = report.get("signing") or {}
    valid = signing.get("valid_checkpoints")
    checked = f", {valid} valid" if valid is not None else ", signatures not checked (no key)"
    parts.append(
        f"<p>Signatures: {esc(signing.get('checkpoints', 0))} checkpoints{esc(checked)}.</p>"
    )
    for statement in report.get("statements") or []:
        style = "pass" if statement.startswith("sealed") else "warn"
        parts.append(f'<p class="{style}">{esc(statement)}</p>')
    return f'<div id="chain">{"".join(parts)}</div>'


def _fraction(text: str | None) -> Fraction | None:
    return Fraction(text) if text is not None else None


_STANDARD_ERROR = (
    "<p>Each return is what the bet paid back per unit staked over the log's rounds. Its "
    "standard error is how far chance alone moves that figure over so many rounds and such "
    "stakes: wide on few rounds or on long odds, narrow on many. z counts the standard errors "
    "between the actual return and the theoretical one; a return is flagged only beyond "
    "&plusmn;{band} of them, so a return far over 100% on few rounds is chance, not a "
    "flag.</p>"
)


def return_reading(row: Mapping[str, Any], band: float) -> str:
    """One sentence: why a return is flagged or not (its z against the band)."""
    actual, theory = _fraction(row["actual"]), _fraction(row["theoretical"])
    se, z = row["standard_error"], row["z"]
    if actual is None:
        return "Nothing was staked on it: no return to judge."
    if theory is None:
        return f"{percent(actual, 2)}, with no theoretical return to compare it with: not judged."
    if se is None or z is None:
        # Blackjack: the theory is basic strategy's, and the log's players are not the chart.
        return (
            f"{percent(actual, 2)} beside {percent(theory, 2)}, not judged: no standard error "
            "applies (the note under the table says why)."
        )
    side = "above" if z > 0 else "below"
    gap = (
        f"{percent(actual, 2)} against {percent(theory, 2)} is {abs(z):.2f} standard errors "
        f"({se * 100:.2f} points on {row.get('rounds', '?')} rounds) {side} it"
    )
    if row["flagged"]:
        return f"{gap}, beyond the band of {band:g}: flagged, a statistic to look into."
    return f"{gap}, within the band of {band:g}: chance moves a return that far, not flagged."


def _returns(report: Mapping[str, Any]) -> str:
    rows: list[str] = []
    notes: dict[str, str] = {}
    whiskers: list[Whisker] = []
    band = float(report["band"])
    for row in report.get("returns") or []:
        actual, theory = _fraction(row["actual"]), _fraction(row["theoretical"])
        se, z = row["standard_error"], row["z"]
        if row.get("note"):
            notes.setdefault(row["profile"], row["note"])
        currency = row["currency"]
        cells = _cells(
            [
                row["profile"],
                row["bet"],
                row.get("rounds", "-"),
                _amount(row["staked"], currency),
                _amount(row["returned"], currency),
                percent(actual, 2) if actual is not None else "-",
                f"{percent(theory, 4)} ({theory})" if theory is not None else "-",
                f"{se * 100:.3f}%" if se is not None else "-",
                f"{z:+.2f}" if z is not None else "-",
            ],
            numeric=[False, False] + [True] * 7,
        )
        reading = esc(return_reading(row, band))
        rows.append(f"<tr>{cells}{_flag(flagged=row['flagged'])}</tr>")
        # Under its row, the width of the table: a sentence reads badly in a narrow column.
        rows.append(
            f'<tr class="reading"><td></td><td class="reading" colspan="9">{reading}</td></tr>'
        )
        if actual is not None and theory is not None and se is not None:
            centre, reach = float(theory) * 100, band * se * 100
            whiskers.append(
                Whisker(
                    label=f"{row['profile']} {row['bet']} ({currency})",
                    value=float(actual) * 100,
                    centre=centre,
                    low=centre - reach,
                    high=centre + reach,
                    flagged=row["flagged"],
                )
            )
    head = (
        "profile",
        "bet",
        "rounds",
        "staked",
        "returned",
        "actual",
        "theoretical (exact)",
        "standard error",
        "z",
        "flagged",
    )
    html = _STANDARD_ERROR.format(band=f"{band:g}") + _table("returns", head, rows, "no bets")
    html += "".join(
        f'<p class="na">{esc(profile_id)}: {esc(note)}</p>' for profile_id, note in notes.items()
    )
    if whiskers:
        title = (
            f"Actual return (dot) against the theoretical one (tick) and its band of "
            f"+-{band:g} standard errors (whisker)"
        )
        html += f"<h3>{esc(title)}</h3>" + dot_whisker(title, whiskers)
    return html


def _fairness(report: Mapping[str, Any]) -> str:
    rows, plots = [], []
    for row in report.get("fairness") or []:
        statistic, p = row["chi_square"], row["p"]
        cells = _cells(
            [
                row["profile"],
                row["test"],
                row["observations"],
                f"{statistic:.2f}" if statistic is not None else "-",
                row["df"],
                f"{p:.3g}" if p is not None else "-",
            ],
            numeric=[False, False, True, True, True, True],
        )
        detail = _cells([row.get("note", ""), row.get("worst", "")])
        rows.append(f"<tr>{cells}{_flag(flagged=row['flagged'])}{detail}</tr>")
        frequencies = row.get("frequencies") or []
        if frequencies:
            title = f"{row['profile']}: {row['test']} observed against expected"
            cells_seen = [Cell(f["cell"], f["observed"], f["expected"]) for f in frequencies]
            plots.append(f"<h3>{esc(title)}</h3>" + bars_expected(title, cells_seen))
    head = ("profile", "dealt", "n", "chi-square", "df", "p-value", "flagged", "verdict", "worst")
    return _table("fairness", head, rows, "no fairness test") + "".join(plots)


def audit_page(report: Mapping[str, Any], *, made: datetime, limit: int = LIMIT) -> str:
    """The whole page of a JSON report (``croupier audit verify --report``).

    ``ShapeError`` names the first value of the wrong kind in a report that was edited.
    """
    check(report, REPORT_SHAPE)
    verdict = str(report["verdict"])
    style = "pass" if verdict == "clean" else "fail"
    flagged = report.get("flagged") or 0
    statistics = (
        f'<p class="warn">{esc(flagged)} flagged: statistics to look into, not findings '
        "(the verdict is the rules').</p>"
        if flagged
        else ""
    )
    body = (
        f"<h1>Audit of {esc(report['log'])}</h1>"
        f'<div id="verdict" class="verdict {style}">{esc(verdict.upper())}</div>'
        f"<p>{esc(_summary_line(report))}</p>{statistics}"
        f"{_meta(report, made)}"
        f"<h2>Totals</h2>{_totals(report)}<h3>Per profile</h3>{_profiles(report)}"
        f"<h2>Hash chain and signatures</h2>{_chain(report)}"
        f"<h2>Findings</h2>{_findings_table(report, limit)}"
        f"<h2>Returns</h2>{_returns(report)}"
        f"<h2>Fairness</h2>{_fairness(report)}"
    )
    return page(
        title=f"Audit of {report['log']}: {verdict}",
        body=body,
        footer="croupier audit verify: docs/AUDIT.md says what each finding means.",
    )
