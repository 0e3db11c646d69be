"""The audit report as one HTML page, made from the JSON report of ``croupier audit verify``.

Everything the log holds (ids, values, messages) is hostile input: it goes through ``esc``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from fractions import Fraction
from typing import Any, Final

from conformance.html.page import esc, page
from conformance.html.shape import ANY, BOOL, FRACTION, INT, NUMBER, TEXT, MapOf, Optional, check
from conformance.html.svg import Cell, Whisker, bars_expected, dot_whisker
from conformance.report import plural
from oracle.money import money_text
from oracle.returns import percent

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
    "discrepancies": Optional([_FINDING]),
    "chain_problems": Optional([{**_FINDING, "kind": ANY, "message": ANY}]),
    "log_problems": Optional([_FINDING]),
    "malformed": Optional([_FINDING]),
    "unreplayable": Optional([_FINDING]),
}
#: Findings listed on the page; the JSON report lists them all.
LIMIT: Final = 1000
#: Chain problems named in the chain section.
BREAKS_SHOWN: Final = 10


def _amount(minor_units: int, currency: str) -> str:
    """``money_text``, its number and code kept on one line in a narrow column."""
    return money_text(minor_units, currency).replace(" ", "\u00a0", 1)


def _cells(values: Sequence[object], *, numeric: Sequence[bool] = ()) -> str:
    """A row of escaped cells; the numeric ones right-aligned."""
    flags = list(numeric) + [False] * (len(values) - len(numeric))
    return "".join(
        f'<td class="num">{esc(v)}</td>' if flag else f"<td>{esc(v)}</td>"
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
    rows = (
        ("log", report["log"]),
        ("format", report.get("format", "")),
        ("page made", made.strftime("%Y-%m-%d %H:%M UTC")),
        ("entries", f"{report['records']} ({report.get('checkpoints', 0)} checkpoints)"),
        ("rounds", report["rounds"]),
        ("public keys", ", ".join(keys)),
        ("return band", f"flagged beyond |z| > {report['band']:g}"),
        ("fairness threshold", f"flagged under p < {report['p_threshold']:g}"),
    )
    body = "".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in rows)
    return f'<table class="meta">{body}</table>'


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
    rows = []
    for name, item in found[:limit]:
        kind = item.get("kind", name)
        where = item.get("path") or (f"byte {item['offset']}" if "offset" in item else "")
        cells = _cells(
            [
                item["record"],
                item.get("round_id", ""),
                item.get("table_id", ""),
                kind,
                item.get("clause", ""),
                where,
                item.get("expected", ""),
                item.get("actual", ""),
                item.get("message") or item.get("reason", ""),
            ],
            numeric=[True],
        )
        rows.append(f'<tr class="fail">{cells}</tr>')
    head = ("record", "round", "table", "finding", "clause", "path", "expected", "actual", "why")
    table = _table("findings", head, rows, "no findings")
    counted = sum(report["counts"][key] for key in COUNTS)
    if counted > min(len(found), limit):
        listed = min(len(found), limit)
        table += (
            f'<p class="warn">{listed} of {counted} findings listed here: the JSON report '
            "(--report) lists them all.</p>"
        )
    return table


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
        rows.append(f"<tr>{cells}{_flag(flagged=row['flagged'])}</tr>")
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
    html = _table("returns", head, rows, "no bets")
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
