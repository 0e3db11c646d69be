"""A mutant of the zoo: its bug, where it shows, the clause that must kill it, how to build it.

A bug that is a house-rule setting gone wrong is the demo engine under ``variant(profile,
**changes)`` (``with_settings``, ``payouts_with``); any other bug is a class of ``bugs``,
``kits`` or ``recovery``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from croupier.clients.adapter import EngineAdapter
from croupier.clients.demo_engine import HOUSE_RULES, DemoEngine, RouletteRules, variant


@dataclass(frozen=True, slots=True, kw_only=True)
class Mutant:
    """One mutant: its bug, where it shows, the clause that must kill it, and how to build it."""

    #: Kebab-case, unique: ``python -m croupier.clients.mutants NAME``.
    name: str
    #: The RULES.md clause the runner cites for the first vector that kills the mutant.
    clause: str
    #: The profile whose vectors catch the bug.
    profile: str
    #: The bug, in one line.
    description: str
    #: A fresh engine with the bug.
    factory: Callable[[], DemoEngine]
    #: The adapter kit that serves it: the kit itself, or one with a protocol bug.
    kit: type[EngineAdapter] = EngineAdapter
    #: A recovery bug (``RECOVERY_MUTANTS``): served with a state directory, it claims
    #: recovery, and the recovery vectors catch it.
    recovery: bool = False


def with_settings(profile: str, **changes: object) -> Callable[[], DemoEngine]:
    """A demo engine with one settings table changed."""

    def build() -> DemoEngine:
        return DemoEngine(variant(profile, **changes))

    return build


def payouts_with(profile: str, **odds: int) -> dict[str, Fraction]:
    """A roulette table's payouts with some bet kinds' net odds changed."""
    rules = HOUSE_RULES[profile]
    assert isinstance(rules, RouletteRules)  # noqa: S101 - a roulette profile by construction
    return {**rules.payouts, **{kind: Fraction(net) for kind, net in odds.items()}}
