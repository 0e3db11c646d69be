"""The certificate's ``#explore-coverage`` section: what ``certify --explore`` reached.

One row per explored profile: rounds drawn, cells reached of all, the round by which every
cell was reached, and the cells never reached (``conformance.explore.coverage`` names them).
Made from the report's ``explore_coverage`` lines; a report without them has no section.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from croupier.conformance.reports.html.page import esc

Record = Mapping[str, object]


def coverage_section(lines: Iterable[Record]) -> str:
    """The section's HTML, or nothing when the run explored nothing."""
    rows = []
    for line in lines:
        data = line.get("explore_coverage")
        if not isinstance(data, Mapping):
            continue
        unreached = data.get("unreached")
        missing = [str(c) for c in unreached] if isinstance(unreached, list) else []
        covered = data.get("covered_at")
        rows.append(
            "<tr>"
            f"<td>{esc(data.get('profile', ''))}</td>"
            f'<td class="num">{esc(data.get("rounds", ""))}</td>'
            f'<td class="num">{esc(data.get("reached", ""))} / {esc(data.get("cells", ""))}</td>'
            f'<td class="num">{esc(covered if covered is not None else "not all")}</td>'
            f'<td class="{"fail" if missing else "pass"}">'
            f"{esc(', '.join(missing) or 'none')}</td>"
            "</tr>"
        )
    if not rows:
        return ""
    return "\n".join([_HEAD, *rows, "</table>", "</section>"])


_HEAD = (
    '<section id="explore-coverage">\n<h2>Explored coverage</h2>\n'
    "<p>Rounds drawn by <code>croupier explore</code> after the corpus, per profile: the cells"
    " of its rules they reached (clauses cited, decisions, hand shapes, tableau cells, bet"
    " kinds and near misses, stakes at the limits, refusals) of all its cells, and the round"
    " by which every cell was reached.</p>\n"
    "<table><tr><th>Profile</th><th>Rounds</th><th>Cells reached</th>"
    "<th>All reached by round</th><th>Never reached</th></tr>"
)
