"""Targeted rounds of any profile, generated from its parameters (issue 24, item 2).

The shipped profiles get their targeted rounds from hand-written cases; a lab profile gets
them from here. Every parameter of ``oracle.parameters.SPECS`` has a generator (``GENERATORS``;
a parameter without one is a test failure): given the profile and the profile with that one
parameter set to another value it may take (``alternatives``), it proposes the deciding
rounds (``Probe``) for the value the profile chose. Each probe is played through the oracle
under the profile and frozen as a vector; the builder keeps the first one whose expectations
change when the vector is replayed under the other value, so every value the parameter may
take is told apart from the profile's own by a vector (the coverage rule of DESIGN.md
"Vectors"), or is reported: with the reason no round can tell them apart under this profile
(``Told.reason``), or as untold.

Only what an engine must answer counts as a difference: cards, states, legal decisions,
refusals and amounts, not the clauses the oracle cites.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from croupier.conformance.targeted import _baccarat, _blackjack, _roulette, _table
from croupier.conformance.targeted.probe import Probe, fitted, play_probe
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import replay
from croupier.oracle.clauses import BY_ID, Game
from croupier.oracle.money import Odds, exact_text
from croupier.oracle.parameters import CLASHES, SPECS, Kind, ParamSpec, RawValue
from croupier.oracle.profile import Parameter, Profile, Status

#: A parameter's generator: the probes that tell the profile's value from the other
#: profile's (the same but for this one parameter), or why no round can under this profile.
Generator = Callable[[Profile, Profile], Sequence[Probe] | str]

#: The generator of every parameter, per game: a new parameter comes with its own.
GENERATORS: dict[Game, dict[str, Generator]] = {
    Game.BLACKJACK: {**_blackjack.GENERATORS, **_table.generators(Game.BLACKJACK)},
    Game.BACCARAT: {**_baccarat.GENERATORS, **_table.generators(Game.BACCARAT)},
    Game.ROULETTE: {**_roulette.GENERATORS, **_table.generators(Game.ROULETTE)},
}


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


def expectations(vector: vector_pb2.Vector) -> bytes:
    """What an engine must answer for a vector, without the clauses the oracle cites."""
    bare = vector_pb2.Vector()
    bare.CopyFrom(vector)
    bare.ClearField("citations")
    bare.ClearField("clauses")
    for vround in bare.rounds:
        vround.ClearField("deal_citations")
        vround.ClearField("settle_citations")
        for step in (*vround.steps, *vround.after_settle):
            step.ClearField("citations")
        for line in vround.expected_settle.settlement.lines:
            line.ClearField("clauses")
            line.ClearField("returned_exact")
    return bare.SerializeToString(deterministic=True)


def differs(vector: vector_pb2.Vector, other: Profile) -> bool:
    """Whether the vector's expectations change when it is replayed under ``other``."""
    return expectations(replay(vector, other)) != expectations(vector)


def shown(raw: RawValue) -> str:
    """A value as a profile file writes it, a set of words by its words."""
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, tuple):
        return "+".join(raw)
    return str(raw)


@dataclass(frozen=True, slots=True, kw_only=True)
class Told:
    """How one other value of a parameter is told apart from the profile's own."""

    name: str
    value: str
    other: str
    #: The vector whose expectations differ under the other value; "" when none does.
    vector: str = ""
    #: Why no round can tell the two apart under this profile, when none does.
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Targeted:
    """A profile's targeted vectors, and how each other value of each parameter is told apart."""

    vectors: tuple[vector_pb2.Vector, ...]
    told: tuple[Told, ...]

    @property
    def untold(self) -> tuple[Told, ...]:
        """The other values no vector tells apart, for no known reason."""
        return tuple(t for t in self.told if not t.vector and not t.reason)


#: Vectors kept per other value of a variant the profile chose (RULES.md "Variants a lab may
#: choose"): the rule a lab certifies for is asked more than once, by different rounds.
CHOSEN_VARIANT_VECTORS = 3


def _chose_variant(profile: Profile, spec: ParamSpec) -> bool:
    """Whether the profile sets the parameter off its default, to a variant's rule."""
    cited = profile.citations()(spec.name)
    return profile[spec.name] != spec.convert(spec.default) and any(
        BY_ID[cid].variant for cid in cited
    )


def build_targeted(profile: Profile) -> Targeted:
    """The targeted vectors of ``profile``: for every parameter, each other value told apart.

    Vector ids are ``<profile>-t<NNN>``: first the vector that tells each value apart, in
    parameter order (``SPECS``), then the further ones of the variants the profile chose (up
    to ``CHOSEN_VARIANT_VECTORS`` for each other value), so that the first ones keep their
    ids. Each lists, beside the clauses its rounds cite, those of the parameter it was made
    for. A vector made for one value of a parameter is tried first for its other values.
    """
    vectors: list[vector_pb2.Vector] = []
    further: list[tuple[Probe, str, str]] = []
    told: list[Told] = []
    for name, spec in SPECS[profile.game].items():
        generate = GENERATORS[profile.game][name]
        wanted = CHOSEN_VARIANT_VECTORS if _chose_variant(profile, spec) else 1
        own: list[vector_pb2.Vector] = []
        used: set[Probe] = set()
        listed = profile.parameter(name)
        mine = shown(listed.raw if listed is not None else spec.default)
        for raw in alternatives(profile, spec):
            other = variant(profile, name, raw)
            if other is None:
                continue  # a value this profile cannot take with its other values
            entry = Told(name=name, value=mine, other=shown(raw))
            hits = [v for v in own if differs(v, other)][:wanted]
            made: Sequence[Probe] | str = [] if len(hits) >= wanted else generate(profile, other)
            if isinstance(made, str):
                told.append(dataclasses.replace(entry, reason=made))
                continue
            label = f"{profile.id}/targeted/{name}/{mine}-not-{shown(raw)}"
            for found in (fitted(profile, p) for p in made):
                if len(hits) >= wanted:
                    break
                if found in used:
                    continue
                first = not hits
                # A further vector's id waits for the first ones' (the loop below).
                vid = f"{profile.id}-t{len(vectors) + 1:03d}" if first else f"-x{len(further)}"
                candidate = _targeted_vector(profile, found, vid, label, name)
                if differs(candidate, other):
                    used.add(found)
                    hits.append(candidate)
                    own.append(candidate)
                    if first:
                        vectors.append(candidate)
                    else:
                        further.append((found, label, name))
            told.append(dataclasses.replace(entry, vector=hits[0].id if hits else ""))
    final: dict[str, str] = {}
    for waiting, (found, label, name) in enumerate(further):
        vid = f"{profile.id}-t{len(vectors) + 1:03d}"
        final[f"-x{waiting}"] = vid
        vectors.append(_targeted_vector(profile, found, vid, label, name))
    told = [dataclasses.replace(t, vector=final.get(t.vector, t.vector)) for t in told]
    return Targeted(vectors=tuple(vectors), told=tuple(told))


def _targeted_vector(
    profile: Profile, found: Probe, vid: str, label: str, name: str
) -> vector_pb2.Vector:
    """The probe played as a vector that exercises the parameter's rule, whatever its lines cite."""
    vector = play_probe(profile, found, vid, label)
    vector.clauses[:] = sorted({*vector.clauses, *profile.citations()(name)})
    return vector
