"""The other values a parameter may take, and the profile with one of them set (``variant``)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from croupier.oracle.money import Odds, exact_text
from croupier.oracle.parameters import CLASHES, SPECS, Kind, ParamSpec, RawValue
from croupier.oracle.profile import Parameter, Profile, Status


def alternatives(profile: Profile, spec: ParamSpec) -> tuple[RawValue, ...]:
    """The other values of a parameter the profile's value is told apart from, as TOML holds them.

    Finite kinds: every other value (a set of bet kinds: each kind added or taken away).
    Numbers: the neighbours, one below and one above where legal (odds on the numerator, a
    commission by 1/100).
    """
    value = profile[spec.name]
    found: list[RawValue] = []
    match spec.kind:
        case Kind.BOOL:
            found = [not value]
        case Kind.CHOICE | Kind.ROUNDING:
            found = [c for c in spec.choices if c != getattr(value, "value", value)]
        case Kind.INT:
            assert isinstance(value, int)  # noqa: S101 - an INT parameter by its spec
            found = [value - 1, value + 1]
        case Kind.ODDS | Kind.ODDS_OR_NONE:
            if value is None:
                found = ["1:2", "1:1"]
            else:
                assert isinstance(value, Odds)  # noqa: S101 - an odds parameter by its spec
                found = [_odds(value.win + d, value.per) for d in (-1, 1) if value.win + d >= 0]
                if spec.kind is Kind.ODDS_OR_NONE:
                    found.append("none")
        case Kind.FRACTION:
            assert isinstance(value, Fraction)  # noqa: S101 - a fraction parameter by its spec
            step = Fraction(1, 100)
            found = [exact_text(value + d) for d in (-step, step) if 0 <= value + d < 1]
        case Kind.WORDS:
            assert isinstance(value, tuple)  # noqa: S101 - a words parameter by its spec
            found = list(_word_sets(profile, value, spec.choices))
    return tuple(raw for raw in found if _legal(spec, raw))


def _word_sets(
    profile: Profile, value: tuple[str, ...], choices: tuple[str, ...]
) -> list[tuple[str, ...]]:
    """Each kind added or taken away, from the kinds of the wheel's layout (VAR.rou.bets-offered).

    The default offers every kind, the other wheel's zero bet too; a lab's set may name only
    the kinds of its wheel, so the kinds are toggled from the layout's.
    """
    off = "top-line" if profile.choice("wheel") == "european" else "first-four"
    base = tuple(w for w in value if w != off)
    toggled = [tuple(w for w in choices if (w in base) != (w == word)) for word in choices]
    return [words for words in (base, *toggled) if words and words != value]


def _odds(win: Fraction, per: int) -> str:
    return f"{exact_text(win)}:{per}"


def _legal(spec: ParamSpec, raw: RawValue) -> bool:
    try:
        spec.convert(raw)
    except ValueError:
        return False
    return True


def variant(profile: Profile, name: str, raw: RawValue) -> Profile | None:
    """The profile with one parameter set to ``raw``; None if the values then clash.

    The parameter keeps the clauses it has, so the two profiles cite alike.
    """
    spec = SPECS[profile.game][name]
    listed = profile.parameter(name)
    changed = Parameter(
        name=name,
        raw=raw,
        value=spec.convert(raw),
        clauses=listed.clauses if listed is not None else spec.clauses,
        status=Status.ASSUMED,
    )
    order = list(SPECS[profile.game])
    kept = [p for p in profile.parameters if p.name != name]
    parameters = tuple(sorted([*kept, changed], key=lambda p: order.index(p.name)))
    other = dataclasses.replace(profile, parameters=parameters)
    if any(clash.check(other.__getitem__) for clash in CLASHES[profile.game]):
        return None
    return other


def shown(raw: RawValue) -> str:
    """A value as a profile file writes it, a set of words by its words."""
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, tuple):
        return "+".join(raw)
    return str(raw)
