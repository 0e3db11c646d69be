"""Each clause's text, read from RULES.md, for reports that quote the rule a failure broke."""

from __future__ import annotations

import functools
import re

from conformance.packaged import document
from oracle.clauses import BY_ID, CONTRACT

#: ``**ID**`` where ID is a clause ID: "BJ.nat-pays", "C.bj.split", "MONEY.rounding".
_MARK = re.compile(r"\*\*([A-Z]+(?:\.[a-z0-9-]+)+)\*\*")


def rules_markdown() -> str | None:
    """RULES.md's text, from the checkout or the installed package; None if neither has it."""
    return document("RULES.md")


def parse_rules(markdown: str) -> dict[str, str]:
    """Each clause's text from RULES.md's bullets ``- **ID** text``, continued lines joined.

    A bullet may hold several clauses (``**B.decks** ... **B.tableau** ...``): each runs to
    the next clause mark. Bold that is not a clause ID stays part of the text.
    """
    texts: dict[str, str] = {}
    for item in _bullets(markdown):
        marks = [m for m in _MARK.finditer(item) if m.group(1) in BY_ID or m.group(1) in CONTRACT]
        if not marks:
            continue  # bold that names no clause: a bullet of prose
        for mark, following in zip(marks, [*marks[1:], None], strict=True):
            end = following.start() if following else len(item)
            # Plain text: the page shows it as is, so markdown's emphasis marks go.
            text = item[mark.end() : end].replace("**", "").strip()
            texts.setdefault(mark.group(1), text)
    return texts


def _bullets(markdown: str) -> list[str]:
    """The top-level list items, each on one line: indented lines continue the item above."""
    items: list[str] = []
    current: list[str] | None = None
    for line in markdown.splitlines():
        if line.startswith("- "):
            current = [line[2:].strip()]
            items.append("")
        elif current is not None and line.startswith("  ") and line.strip():
            current.append(line.strip())
        else:
            current = None
            continue
        items[-1] = " ".join(current)
    return items


@functools.cache
def clause_texts() -> dict[str, str]:
    """Every clause ID and contract label with its text: RULES.md's, else its short title."""
    markdown = rules_markdown()
    parsed = parse_rules(markdown) if markdown is not None else {}
    texts = {cid: parsed.get(cid) or entry.title for cid, entry in BY_ID.items()}
    # Contract labels: RULES.md's text for those it defines (its contract additions).
    texts.update((cid, parsed.get(cid) or title) for cid, title in CONTRACT.items())
    return texts


def clause_text(clause_id: str) -> str:
    """The text of one clause or contract label; empty for an ID neither knows."""
    return clause_texts().get(clause_id, "")
