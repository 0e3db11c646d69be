"""The shape a saved JSON report must have before a page is made from it.

A report file may have been edited by anyone: ``check`` names the first value of the wrong
kind, by its path (``returns[3].staked: expected an integer, got "x"``), so the page is
either made whole or refused with a reason, never half-drawn or crashed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction


class ShapeError(ValueError):
    """A report value of the wrong kind; the message names its path."""


@dataclass(frozen=True, slots=True)
class Optional:
    """A value that may be null (and, inside an object, absent)."""

    shape: object


@dataclass(frozen=True, slots=True)
class MapOf:
    """An object whose keys are free (currencies, profile ids) and whose values share a shape."""

    shape: object


#: An integer (JSON booleans are not integers here).
INT = "an integer"
#: A number, integer or not.
NUMBER = "a number"
#: A string.
TEXT = "a string"
#: A boolean.
BOOL = "a boolean"
#: A string that reads as an exact fraction ("36/37").
FRACTION = "a fraction"
#: Any JSON value: the page only prints it, escaped.
ANY = "any value"


def _kind(value: object) -> str:
    return "null" if value is None else type(value).__name__


def _fits(shape: str, value: object) -> bool:
    if shape == ANY:
        return True
    if shape == INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if shape == NUMBER:
        # JSON as Python reads it may hold NaN and Infinity: no plot can place them.
        return (
            isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        )
    if shape == BOOL:
        return isinstance(value, bool)
    if shape == TEXT:
        return isinstance(value, str)
    if shape == FRACTION:
        if not isinstance(value, str):
            return False
        try:
            Fraction(value)
        except (ValueError, ZeroDivisionError):
            return False
        return True
    raise AssertionError(shape)


def check(value: object, shape: object, path: str = "") -> None:
    """Raise ``ShapeError`` at the first value of ``value`` that ``shape`` does not allow."""
    where = path or "the report"
    if isinstance(shape, Optional):
        if value is not None:
            check(value, shape.shape, path)
        return
    if isinstance(shape, str):
        if not _fits(shape, value):
            raise ShapeError(f"{where}: expected {shape}, got {_kind(value)} {value!r:.60}")
        return
    if isinstance(shape, list):
        if not isinstance(value, list):
            raise ShapeError(f"{where}: expected a list, got {_kind(value)}")
        for index, item in enumerate(value):
            check(item, shape[0], f"{path}[{index}]")
        return
    if not isinstance(value, dict):
        raise ShapeError(f"{where}: expected an object, got {_kind(value)}")
    if isinstance(shape, MapOf):
        for key, item in value.items():
            check(item, shape.shape, f"{path}.{key}" if path else key)
        return
    assert isinstance(shape, Mapping)  # noqa: S101 - the shapes are ours
    for key, inner in shape.items():
        inside = f"{path}.{key}" if path else key
        if key not in value:
            if isinstance(inner, Optional):
                continue
            raise ShapeError(f"{inside}: missing")
        check(value[key], inner, inside)
