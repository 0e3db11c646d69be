"""The README's pictures of both reports: ``make screenshots`` (after ``make demo``).

Reads the pages ``make demo`` wrote to ``reports/`` and writes PNGs to ``docs/``: the top of
the mutant's certificate, one of its failures, the top of the audit page and its return plot.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.browser.chromium import Chromium

REPORTS = Path("reports")
DOCS = Path("docs")

#: (page, picture, selector of what to show: empty for the top of the page, max height).
SHOTS = (
    ("mutant.html", "certificate.png", "", 1500),
    ("mutant.html", "certificate-failure.png", ".failure", 1000),
    ("audit.html", "audit.png", "", 1700),
    ("audit.html", "audit-returns.png", "svg.plot", 1200),
)


def main() -> int:
    """Write every picture; 1 with a hint when ``make demo`` has not written the pages."""
    missing = sorted({page for page, *_ in SHOTS if not (REPORTS / page).exists()})
    if missing:
        sys.stderr.write(f"no {', '.join(missing)} in {REPORTS}/: run `make demo` first\n")
        return 1
    with Chromium(width=1200, height=900) as browser:
        for page, picture, selector, height in SHOTS:
            browser.open(REPORTS / page)
            browser.screenshot(DOCS / picture, selector=selector, max_height=height)
            sys.stdout.write(f"{DOCS / picture}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
