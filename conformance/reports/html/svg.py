"""Inline SVG plots in plain Python: no script, no fonts fetched, a viewBox so they scale and print.

Every plot is an ``<svg role="img" class="plot">`` with a ``<title>``; every text in it is
escaped. Colours are attributes, and what a colour says is also drawn as a shape or written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from croupier.conformance.reports.html.page import esc

GREEN: Final = "#1a7f37"
RED: Final = "#cf222e"
INK: Final = "#1f2328"
GRID: Final = "#d0d7de"
BAR: Final = "#8c959f"

#: The plots' width in viewBox units; their height follows from their rows.
WIDTH: Final = 720
LABELS: Final = 200


def _n(value: float) -> str:
    """A coordinate: two decimals are finer than any printer."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def clip(label: str, most: int = 30) -> str:
    """A label short enough for its margin; the table beside the plot has it whole."""
    return label if len(label) <= most else label[: most - 1] + "\u2026"


def svg(title: str, body: str, *, height: float, width: float = WIDTH) -> str:
    """A whole plot: ``body`` is trusted SVG built with this module's helpers."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="plot" role="img" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" width="100%" '
        # Inline, not in the page's STYLE: a plot keeps its layout wherever it is pasted.
        f'style="display: block; max-width: {_n(width)}px; margin: 6px 0 16px; '
        f'break-inside: avoid" font-family="sans-serif" font-size="12">'
        f"<title>{esc(title)}</title>{body}</svg>"
    )


def text(x: float, y: float, content: str, *, anchor: str = "start", fill: str = INK) -> str:
    """Escaped text; ``anchor`` is start, middle or end."""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" text-anchor="{anchor}" fill="{fill}">{esc(content)}</text>'
    )


def line(x1: float, y1: float, x2: float, y2: float, *, stroke: str = INK, cls: str = "") -> str:
    """A straight line, one unit wide; ``cls`` names what it shows."""
    klass = f' class="{cls}"' if cls else ""
    return (
        f'<line{klass} x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
        f'stroke="{stroke}" stroke-width="1.5"/>'
    )


@dataclass(frozen=True, slots=True)
class Scale:
    """A linear map from data ``low..high`` onto ``start..end`` (an empty domain is widened)."""

    low: float
    high: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        """The position of ``value``."""
        span = self.high - self.low or 1.0
        return self.start + (value - self.low) / span * (self.end - self.start)


@dataclass(frozen=True, slots=True, kw_only=True)
class Whisker:
    """One row of a dot-and-whisker plot: a dot, and the interval it is judged against."""

    label: str
    value: float
    centre: float
    low: float
    high: float
    flagged: bool


ROW: Final = 22


#: A generous width of one character of the plots' 12-unit sans-serif text, in viewBox units:
#: a label's margin is laid out from it, so no label runs past the plot's edge.
CHAR: Final = 7.2
#: The widest label margin: longer labels are cut (the table beside the plot has them whole).
MOST_LABEL: Final = 60


def text_width(content: str) -> float:
    """How wide ``content`` may run at the plots' font size (an upper bound, not a measure)."""
    return len(content) * CHAR


def dot_whisker(title: str, rows: Sequence[Whisker], *, unit: str = "%") -> str:
    """One row each: a whisker ``low..high`` with a tick at ``centre``, and a dot at ``value``.

    A flagged dot is red and filled; the others are green rings (shape as well as colour).
    The label margin is as wide as the longest label, so every label is whole and inside.
    """
    labels = [clip(row.label, MOST_LABEL) for row in rows]
    margin = max([LABELS, *(text_width(label) + 10 for label in labels)])
    width = margin + WIDTH - LABELS
    values = [v for row in rows for v in (row.value, row.low, row.high, row.centre)]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    pad = (high - low) * 0.05 or 1.0
    # The right margin holds half the widest tick label, centred on the last tick.
    scale = Scale(low - pad, high + pad, margin + 10, width - 40)
    top, height = 10, 10 + ROW * len(rows) + 40
    parts = [line(scale.start, top, scale.start, top + ROW * len(rows), stroke=GRID)]
    for index, (row, label) in enumerate(zip(rows, labels, strict=True)):
        y = top + ROW * index + ROW / 2
        parts.append(text(margin, y + 4, label, anchor="end"))
        parts.append(line(scale(row.low), y, scale(row.high), y, stroke=BAR, cls="band"))
        parts.extend(
            line(scale(end), y - 5, scale(end), y + 5, stroke=BAR) for end in (row.low, row.high)
        )
        parts.append(line(scale(row.centre), y - 8, scale(row.centre), y + 8, cls="theory"))
        colour = RED if row.flagged else GREEN
        fill = colour if row.flagged else "none"
        parts.append(
            f'<circle class="actual" cx="{_n(scale(row.value))}" cy="{_n(y)}" r="4.5" '
            f'fill="{fill}" stroke="{colour}" stroke-width="2"/>'
        )
    axis = top + ROW * len(rows) + 14
    parts.extend(
        text(scale(tick), axis, f"{tick:.2f}{unit}", anchor="middle")
        for tick in (low, (low + high) / 2, high)
    )
    return svg(title, "".join(parts), height=height, width=width)


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of a frequency plot: its label, the count observed, and the count expected."""

    label: str
    observed: int
    expected: float


def bars_expected(title: str, cells: Sequence[Cell]) -> str:
    """A bar per cell for what was observed, and a red tick where a fair game expects it."""
    plot_top, plot_bottom, left = 10, 190, 50
    peak = max((max(c.observed, c.expected) for c in cells), default=1.0) or 1.0
    scale = Scale(0, peak * 1.05, plot_bottom, plot_top)
    step = (WIDTH - left - 10) / max(len(cells), 1)
    width = max(step * 0.7, 1.0)
    parts = [line(left, plot_bottom, WIDTH - 10, plot_bottom, stroke=GRID)]
    parts.extend(
        text(left - 6, scale(tick) + 4, f"{tick:.0f}", anchor="end")
        for tick in (0.0, peak / 2, peak)
    )
    # Labels only when they fit; with 38 pockets, every other one would collide.
    label_every = max(1, round(24 / step))
    for index, cell in enumerate(cells):
        x = left + step * index + (step - width) / 2
        y = scale(cell.observed)
        parts.append(
            f'<rect class="observed" x="{_n(x)}" y="{_n(y)}" width="{_n(width)}" '
            f'height="{_n(plot_bottom - y)}" fill="{BAR}"><title>'
            f"{esc(f'{cell.label}: {cell.observed} observed, {cell.expected:.1f} expected')}"
            "</title></rect>"
        )
        expected = scale(cell.expected)
        parts.append(line(x - 2, expected, x + width + 2, expected, stroke=RED, cls="expected"))
        if index % label_every == 0:
            parts.append(
                text(x + width / 2, plot_bottom + 14, clip(cell.label, 12), anchor="middle")
            )
    parts.append(text(left, plot_bottom + 34, "bars: observed; red ticks: expected of a fair game"))
    return svg(title, "".join(parts), height=plot_bottom + 44)
