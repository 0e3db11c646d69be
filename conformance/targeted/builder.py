"""The targeted vectors of a profile: for every parameter, each other value told apart.

``build_targeted`` runs each parameter's generator (``GENERATORS``) against each other value
the parameter may take and keeps the probes whose expectations change; ``Targeted`` holds the
vectors and ``Told`` how each other value was told apart, or why none could be.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from croupier.conformance.targeted import _baccarat, _blackjack, _roulette, _table
from croupier.conformance.targeted.alternatives import alternatives, shown, variant
from croupier.conformance.targeted.expectations import differs
from croupier.conformance.targeted.probe import Probe, fitted, play_probe
from croupier.conformance.v1 import vector_pb2
from croupier.oracle.clauses import BY_ID, Game
from croupier.oracle.parameters import SPECS, ParamSpec
from croupier.oracle.profile import Profile

#: A parameter's generator: the probes that tell the profile's value from the other
#: profile's (the same but for this one parameter), or why no round can under this profile.
Generator = Callable[[Profile, Profile], Sequence[Probe] | str]

#: The generator of every parameter, per game: a new parameter comes with its own.
GENERATORS: dict[Game, dict[str, Generator]] = {
    Game.BLACKJACK: {**_blackjack.GENERATORS, **_table.generators(Game.BLACKJACK)},
    Game.BACCARAT: {**_baccarat.GENERATORS, **_table.generators(Game.BACCARAT)},
    Game.ROULETTE: {**_roulette.GENERATORS, **_table.generators(Game.ROULETTE)},
}


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
