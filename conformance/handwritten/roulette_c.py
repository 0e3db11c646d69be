"""Hand-written vectors of profile roulette-c."""

from __future__ import annotations

from conformance.cases import Case

CASES: tuple[Case, ...] = ()
