"""Hand-written vectors of profile baccarat-b."""

from __future__ import annotations

from conformance.cases import Case

CASES: tuple[Case, ...] = ()
