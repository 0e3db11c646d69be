"""Hand-written vectors of profile baccarat-d."""

from __future__ import annotations

from conformance.cases import Case

CASES: tuple[Case, ...] = ()
