"""The one page skeleton every HTML report shares: inline style, no script, no network."""

from __future__ import annotations

from html import escape

#: Printable, offline, and readable without colour: a verdict says its word, not only a hue.
STYLE = """
:root { --pass: #1a7f37; --fail: #cf222e; --na: #6e7781; --warn: #9a6700; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328;
       margin: 0 auto; padding: 24px; max-width: 1200px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: #f6f8fa; padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
.verdict { display: inline-block; font-size: 18px; font-weight: 700; padding: 6px 14px;
           border-radius: 6px; color: #fff; margin: 8px 0; }
.verdict.pass { background: var(--pass); }
.verdict.fail { background: var(--fail); }
.verdict.incomplete { background: var(--warn); }
.pass { color: var(--pass); }
.fail { color: var(--fail); }
.na { color: var(--na); }
.warn { color: var(--warn); }
/* After the colour classes: a verdict's word stays white on its own colour. */
.verdict.pass, .verdict.fail { color: #fff; }
.meta td:first-child { font-weight: 600; white-space: nowrap; }
.diff { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
.diff pre.expected { border-left: 4px solid var(--pass); }
.diff pre.actual { border-left: 4px solid var(--fail); }
.clause-text { border-left: 3px solid var(--line); padding-left: 10px; color: #424a53; }
h4 { font-size: 14px; margin: 14px 0 6px; }
h5 { font-size: 13px; margin: 8px 0 4px; }
.side { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: flex-start; }
.side > * { min-width: 0; }
td.cell { white-space: nowrap; }
td.cell a { text-decoration: none; color: inherit; }
.stopped { color: var(--na); font-style: italic; }
details { margin: 6px 0; }
details > summary { cursor: pointer; font-weight: 600; }
.clause-text p { margin: 0 0 6px; }
.clause-text table { font-size: 12.5px; margin: 4px 0 6px; }
.inputs p { margin: 4px 0; }
.money, .nowrap, td.id { white-space: nowrap; }
#summary td:first-child, #summary th:first-child { white-space: nowrap; }
footer { margin-top: 32px; color: var(--na); font-size: 12px; }
@media print { body { padding: 0; max-width: none; } a { color: inherit; text-decoration: none; }
               h2 { break-after: avoid; } tr, pre, .failure { break-inside: avoid; } }
"""


def esc(value: object) -> str:
    """``value`` as HTML text, quotes escaped too (safe inside attributes)."""
    return escape(str(value), quote=True)


def anchor(*parts: str) -> str:
    """A stable HTML id from ``parts``: what a link to a vector, clause or finding uses."""
    text = "-".join(parts)
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text)


def page(*, title: str, body: str, footer: str = "") -> str:
    """A whole document: ``body`` is trusted HTML built with ``esc``; nothing is fetched."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        # No network: forbid every fetch a page could make, should markup ever slip through.
        '<meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n"
        f"<title>{esc(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"{body}\n"
        f"<footer>{footer}</footer>\n</body>\n</html>\n"
    )
