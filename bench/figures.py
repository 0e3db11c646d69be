"""One printed line per figure: name, value, anchor, ratio, goal, pass or short.

A figure is measured next to its anchor in the same run (Gymnasium's blackjack, a bare gRPC
echo, the local process pool...) and judged by its goal. Nothing here asserts: the bench
prints, and a goal missed reads "short".
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

#: Column widths of the figure lines (the header uses the same).
_WIDTHS = (42, 18, 30, 8, 17)


@dataclass(frozen=True, slots=True, kw_only=True)
class Goal:
    """A goal on a figure's ratio to its anchor, or on the value itself when it has none.

    ``at_least`` or ``below`` is the bound; ``on`` says which number it bounds.
    """

    at_least: float | None = None
    below: float | None = None
    on: str = "ratio"
    text: str = ""

    def met(self, number: float) -> bool:
        """Whether ``number`` meets the goal."""
        if self.at_least is not None and number < self.at_least:
            return False
        return self.below is None or number < self.below


@dataclass(frozen=True, slots=True, kw_only=True)
class Figure:
    """A measured value, the anchor it is read against, the ratio of the two, and its goal."""

    name: str
    value: float
    unit: str
    anchor: str = ""
    anchor_value: float | None = None
    #: The value over the anchor's (``ratio()``), or the median of repetitions' ratios.
    ratio: float | None = None
    goal: Goal | None = None
    note: str = ""
    #: Whether a goal that no number bounds was met (every cell reached); None: the numbers judge.
    met: bool | None = None

    @property
    def verdict(self) -> str:
        """``pass`` or ``short`` against the goal; ``-`` when the figure has none."""
        if self.goal is None:
            return "-"
        if self.met is not None:
            return "pass" if self.met else "short"
        number = self.ratio if self.goal.on == "ratio" else self.value
        if number is None:
            return "short"
        return "pass" if self.goal.met(number) else "short"

    def line(self) -> str:
        """The printed line."""
        anchor = f"{self.anchor} {amount(self.anchor_value, self.unit)}" if self.anchor else "-"
        cells = (
            self.name,
            amount(self.value, self.unit),
            anchor,
            "-" if self.ratio is None else f"{self.ratio:.2f}x",
            self.goal.text if self.goal else "-",
        )
        text = "".join(f"{cell:<{width}} " for cell, width in zip(cells, _WIDTHS, strict=True))
        text += self.verdict
        return f"{text}   ({self.note})" if self.note else text


def against(
    name: str, value: float, anchor: tuple[str, float], goal: Goal, note: str = ""
) -> Figure:
    """A rate read against one anchor rate (its label, its value) measured in the same run."""
    label, anchor_value = anchor
    return Figure(
        name=name,
        value=value,
        unit="/s",
        anchor=label,
        anchor_value=anchor_value,
        ratio=ratio(value, anchor_value),
        goal=goal,
        note=note,
    )


def repeated(
    name: str, values: Sequence[float], anchor: tuple[str, Sequence[float]], goal: Goal
) -> Figure:
    """Rates of interleaved repetitions: median value, median anchor, median of the ratios."""
    label, anchors = anchor
    return Figure(
        name=name,
        value=statistics.median(values),
        unit="/s",
        anchor=label,
        anchor_value=statistics.median(anchors),
        ratio=median_ratio(values, anchors),
        goal=goal,
        note=f"medians of {len(values)} interleaved runs",
    )


def header() -> str:
    """The column titles."""
    titles = ("figure", "value", "anchor", "ratio", "goal")
    return "".join(f"{t:<{w}} " for t, w in zip(titles, _WIDTHS, strict=True)) + "verdict"


def amount(value: float | None, unit: str) -> str:
    """A value with its unit: rates, counts and integers grouped by thousands, small ones kept."""
    if value is None:
        return "-"
    if isinstance(value, int) or abs(value) >= 100 or unit in {"/s", "/min"}:
        return f"{value:,.0f} {unit}".rstrip()
    return f"{value:.2f} {unit}".rstrip()


def ratio(value: float, anchor: float) -> float | None:
    """``value / anchor``; None when the anchor is not a positive number."""
    return value / anchor if anchor > 0 else None


def median_ratio(values: Sequence[float], anchors: Sequence[float]) -> float:
    """The median of the repetitions' ratios (each value over the anchor measured beside it)."""
    if len(values) != len(anchors) or not values:
        raise ValueError("one anchor per value, and at least one of each")
    return statistics.median(v / a for v, a in zip(values, anchors, strict=True))
