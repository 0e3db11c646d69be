"""Each clause's text, read from RULES.md, for reports that quote the rule a failure broke.

A clause is quoted whole: its bullet's text, and the table that goes with it (the banker's
tableau of B.tableau and BAC.banker-tableau, C.rou.wheel's bets) with the note under that
table. A table belongs to the clauses whose text points at it ("table above", "the tableau
... below"), the nearest one that way; a table no clause points at belongs to the bullet
right above it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from croupier.conformance.packaged import document
from croupier.conformance.reports.html.page import esc
from croupier.oracle.clauses import BY_ID, CONTRACT

#: ``**ID**`` where ID is a clause ID: "BJ.nat-pays", "C.bj.split", "MONEY.rounding".
_MARK = re.compile(r"\*\*([A-Z]+(?:\.[a-z0-9-]+)+)\*\*")
#: A clause's text that points at a table rather than holding it: "(table above)", "per the
#: tableau of each profile below".
POINTER = re.compile(r"\b(?:table|tableau)\b[^.]*?\b(above|below)\b")


@dataclass(frozen=True, slots=True, kw_only=True)
class Table:
    """A table of RULES.md: its header, its rows, and the paragraphs right under it."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ClauseText:
    """A clause's words, and the tables that are part of it."""

    text: str
    tables: tuple[Table, ...] = ()


def rules_markdown() -> str | None:
    """RULES.md's text, from the checkout or the installed package; None if neither has it."""
    return document("RULES.md")


def _plain(text: str) -> str:
    """Markdown's emphasis marks dropped: the page shows the text as is."""
    return text.replace("**", "").strip()


@dataclass(slots=True)
class _Block:
    """A top-level piece of RULES.md: a bullet, a table or a paragraph, in file order."""

    kind: str  # "bullet", "table", "paragraph" or "heading"
    lines: list[str]


def _blocks(markdown: str) -> list[_Block]:
    blocks: list[_Block] = []
    current: _Block | None = None
    for line in markdown.splitlines():
        if not line.strip():
            current = None
            continue
        if line.startswith("- "):
            current = _Block("bullet", [line[2:].strip()])
            blocks.append(current)
        elif line.startswith("|"):
            if current is None or current.kind != "table":
                current = _Block("table", [])
                blocks.append(current)
            current.lines.append(line.strip())
        elif line.startswith("#") or set(line.strip()) == {"-"}:
            blocks.append(_Block("heading", [line.strip()]))
            current = None
        elif current is not None and current.kind in ("bullet", "paragraph"):
            current.lines.append(line.strip())
        else:
            current = _Block("paragraph", [line.strip()])
            blocks.append(current)
    return blocks


def _cells(row: str) -> tuple[str, ...]:
    return tuple(_plain(cell) for cell in row.strip().strip("|").split("|"))


def _table(block: _Block, notes: list[str]) -> Table:
    header, *rest = block.lines
    rows = [r for r in rest if not set(r.replace("|", "").strip()) <= {"-", " ", ":"}]
    return Table(header=_cells(header), rows=tuple(_cells(r) for r in rows), notes=tuple(notes))


def parse_clauses(markdown: str) -> dict[str, ClauseText]:
    """Each clause's text from RULES.md's bullets ``- **ID** text``, with its tables.

    A bullet may hold several clauses (``**B.decks** ... **B.tableau** ...``): each runs to
    the next clause mark. Bold that is not a clause ID stays part of the text.
    """
    blocks = _blocks(markdown)
    texts: dict[str, str] = {}
    #: Each clause's bullet, by its index among the blocks.
    where: dict[str, int] = {}
    last_of: dict[int, str] = {}
    for index, block in enumerate(blocks):
        if block.kind != "bullet":
            continue
        item = " ".join(block.lines)
        marks = [m for m in _MARK.finditer(item) if m.group(1) in BY_ID or m.group(1) in CONTRACT]
        if not marks:
            continue  # bold that names no clause: a bullet of prose
        for mark, following in zip(marks, [*marks[1:], None], strict=True):
            end = following.start() if following else len(item)
            cid = mark.group(1)
            if cid not in texts:
                texts[cid] = _plain(item[mark.end() : end])
                where[cid] = index
            last_of[index] = cid
    tables: dict[int, Table] = {}
    for index, block in enumerate(blocks):
        if block.kind == "table":
            notes: list[str] = []
            for after in blocks[index + 1 :]:
                if after.kind != "paragraph":
                    break
                notes.append(_plain(" ".join(after.lines)))
            tables[index] = _table(block, notes)
    owned: dict[str, list[int]] = {cid: [] for cid in texts}
    pointed: set[int] = set()
    for cid, text in texts.items():
        pointer = POINTER.search(text)
        if pointer is None:
            continue
        here = where[cid]
        ahead = sorted(tables) if pointer.group(1) == "below" else sorted(tables, reverse=True)
        found = next(
            (t for t in ahead if (t > here if pointer.group(1) == "below" else t < here)), None
        )
        if found is not None:
            owned[cid].append(found)
            pointed.add(found)
    for index in tables:
        if index in pointed or index == 0:
            continue
        before = blocks[index - 1]
        if before.kind == "bullet" and index - 1 in last_of:
            owned[last_of[index - 1]].append(index)
    return {
        cid: ClauseText(text=text, tables=tuple(tables[i] for i in owned[cid]))
        for cid, text in texts.items()
    }


def parse_rules(markdown: str) -> dict[str, str]:
    """Each clause's words alone (``parse_clauses`` without the tables)."""
    return {cid: clause.text for cid, clause in parse_clauses(markdown).items()}


@functools.cache
def clauses() -> dict[str, ClauseText]:
    """Every clause ID and contract label with its text: RULES.md's, else its short title."""
    markdown = rules_markdown()
    parsed = parse_clauses(markdown) if markdown is not None else {}
    found = {cid: parsed.get(cid) or ClauseText(text=entry.title) for cid, entry in BY_ID.items()}
    # Contract labels: RULES.md's text for those it defines (its contract additions).
    found.update(
        (label, parsed.get(label) or ClauseText(text=title)) for label, title in CONTRACT.items()
    )
    return found


def clause_texts() -> dict[str, str]:
    """Every clause ID and contract label with its words."""
    return {cid: clause.text for cid, clause in clauses().items()}


def clause(clause_id: str) -> ClauseText | None:
    """One clause or contract label, words and tables; None for an ID neither knows."""
    return clauses().get(clause_id)


def clause_text(clause_id: str) -> str:
    """The words of one clause or contract label; empty for an ID neither knows."""
    found = clause(clause_id)
    return found.text if found is not None else ""


def clause_html(clause_id: str) -> str:
    """A clause's words and tables as a ``div.clause-text``; empty for an unknown ID.

    Tables come whole, with the notes under them, so no quote reads "(table above)" alone.
    """
    found = clause(clause_id)
    if found is None or not (found.text or found.tables):
        return ""
    text = found.text
    if found.tables:
        # The quote holds its table right under the words: "table above" would point away.
        text = POINTER.sub(lambda m: m.group(0)[: m.start(1) - m.start(0)] + "below", text)
    parts = [f"<p>{esc(text)}</p>"] if text else []
    for table in found.tables:
        head = "".join(f"<th>{esc(cell)}</th>" for cell in table.header)
        rows = "".join(
            "<tr>" + "".join(f"<td>{esc(cell)}</td>" for cell in row) + "</tr>"
            for row in table.rows
        )
        parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        parts.extend(f"<p>{esc(note)}</p>" for note in table.notes)
    return f'<div class="clause-text" data-clause="{esc(clause_id)}">{"".join(parts)}</div>'
