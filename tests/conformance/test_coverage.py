"""The coverage rule of DESIGN.md "Vectors": every profile parameter is pinned by some vector.

For every parameter a shipped profile lists, and every alternative legal value of it, the
profile with that one parameter flipped must give a different expected result for at least
one vector of the profile's shipped corpus (hand-written vectors first, then the campaign;
the search stops at the first difference). A parameter no vector notices is a rule the
corpus does not test: an engine could get it wrong and still pass.

Alternatives: a bool takes the other value; a choice every other legal choice; an int
``value - 1`` if legal, else ``value + 1`` (``history_length`` both 12 and 14); odds one more
on the numerator, same base; a fraction ``value + 1/100``; a rounding rule every other mode.
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from functools import cache

import pytest
from croupier.conformance.v1 import vector_pb2

from conformance.vectors import CORPUS_DIR, read_vectors, replay
from oracle.money import Odds, Rounding
from oracle.parameters import SPECS, Kind
from oracle.profile import SHIPPED_IDS, Parameter, Profile, load_profile_text, shipped_profile

Raw = bool | int | str


def _decimal(value: Fraction) -> str:
    """An exact decimal text of a fraction with a finite decimal form (``0.06``, ``4``)."""
    if value.denominator == 1:
        return str(value.numerator)
    return format(Decimal(value.numerator) / Decimal(value.denominator), "f")


def _toml(value: Raw) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(value)  # a TOML basic string for the plain words and odds used here


def _shown(value: Raw) -> str:
    """A test id's form of a value: TOML's ``true``, ``13``, ``half-even``."""
    return value if isinstance(value, str) else _toml(value)


def _legal(profile: Profile, param: Parameter, raw: Raw) -> bool:
    spec = SPECS[profile.game][param.name]
    try:
        spec.convert(raw)
    except ValueError:
        return False
    return True


def alternatives(profile: Profile, param: Parameter) -> list[Raw]:
    """The other legal values the coverage rule tries for one listed parameter."""
    spec = SPECS[profile.game][param.name]
    value = param.value
    match spec.kind:
        case Kind.BOOL:
            return [not value]
        case Kind.CHOICE:
            return [c for c in spec.choices if c != value]
        case Kind.INT:
            assert isinstance(value, int)
            if param.name == "history_length":
                return [v for v in (value - 1, value + 1) if _legal(profile, param, v)]
            return [value - 1 if _legal(profile, param, value - 1) else value + 1]
        case Kind.ODDS:
            assert isinstance(value, Odds)
            return [f"{_decimal(value.win + 1)}:{value.per}"]
        case Kind.FRACTION:
            assert isinstance(value, Fraction)
            return [_decimal(value + Fraction(1, 100))]
        case Kind.ROUNDING:
            return [r.value for r in Rounding if r is not value]


def flipped_profile(profile_id: str, name: str, raw: Raw) -> Profile:
    """The shipped profile with one parameter changed, as a lab would write it."""
    return load_profile_text(
        f'id = "flip"\nextends = "{profile_id}"\n[parameters]\n{name} = {{ value = {_toml(raw)} }}\n'
    )


@cache
def corpus_vectors(profile_id: str, part: str) -> tuple[vector_pb2.Vector, ...]:
    """One part (``hand`` or ``campaign``) of a profile's shipped corpus."""
    path = CORPUS_DIR / f"{profile_id}.{part}.jsonl"
    return tuple(loaded.vector for loaded in read_vectors(path))


def _bytes(vector: vector_pb2.Vector) -> bytes:
    return vector.SerializeToString(deterministic=True)


def first_changed(profile: Profile, profile_id: str) -> str | None:
    """The id of the first vector whose expected result changes under ``profile``."""
    for part in ("hand", "campaign"):
        for vector in corpus_vectors(profile_id, part):
            if _bytes(replay(vector, profile)) != _bytes(vector):
                return vector.id
    return None


#: One test per (profile, listed parameter, alternative value).
FLIPS = [
    pytest.param(profile_id, param.name, raw, id=f"{profile_id}:{param.name}={_shown(raw)}")
    for profile_id in SHIPPED_IDS
    for param in shipped_profile(profile_id).parameters
    for raw in alternatives(shipped_profile(profile_id), param)
]


@pytest.mark.parametrize(("profile_id", "name", "raw"), FLIPS)
def test_flipping_a_parameter_changes_some_vector(profile_id: str, name: str, raw: Raw) -> None:
    shipped = shipped_profile(profile_id)
    flipped = flipped_profile(profile_id, name, raw)
    assert flipped[name] != shipped[name], "the alternative is the shipped value"
    changed = [p.name for p in flipped.parameters if p.value != shipped[p.name]]
    assert changed == [name], "the flip must change this one parameter alone"
    assert first_changed(flipped, profile_id) is not None, (
        f"no {profile_id} vector notices {name} = {raw!r} instead of {shipped[name]!r}: "
        "add a hand-written case whose outcome depends on it"
    )


@pytest.mark.parametrize("profile_id", SHIPPED_IDS)
def test_an_unchanged_copy_of_the_profile_changes_nothing(profile_id: str) -> None:
    """The flips' control: extending a profile without changing it reproduces every vector.

    So a difference found above comes from the flipped value, not from the copy's id.
    """
    same = load_profile_text(f'id = "flip"\nextends = "{profile_id}"\n')
    for vector in corpus_vectors(profile_id, "hand"):
        assert _bytes(replay(vector, same)) == _bytes(vector), vector.id


def test_every_listed_parameter_has_an_alternative() -> None:
    for profile in (shipped_profile(pid) for pid in SHIPPED_IDS):
        for param in profile.parameters:
            alts = alternatives(profile, param)
            assert alts, f"{profile.id}: {param.name} has no alternative to try"
            for raw in alts:
                assert _legal(profile, param, raw), f"{profile.id}: {param.name} = {raw!r}"


def _listed(profile: Profile, name: str) -> Parameter:
    param = profile.parameter(name)
    assert param is not None, f"{profile.id} does not list {name}"
    return param


def test_alternatives_follow_the_rule() -> None:
    """Spot checks of the alternatives themselves, worked out by hand."""
    a = shipped_profile("blackjack-a")
    assert alternatives(a, _listed(a, "decks")) == [5]
    assert alternatives(a, _listed(a, "max_hands")) == [3]  # 1 is below the minimum of 2
    assert alternatives(a, _listed(a, "min_bet")) == [2]  # 0 is below the minimum of 1
    assert alternatives(a, _listed(a, "max_bet")) == [999999]
    assert alternatives(a, _listed(a, "surrender")) == [True]
    assert alternatives(a, _listed(a, "blackjack_pays")) == ["4:2"]
    assert alternatives(a, _listed(a, "split_pairs")) == ["same-rank", "same-value"]
    assert alternatives(a, _listed(a, "rounding")) == ["up", "half-up", "half-even"]
    b = shipped_profile("baccarat-b")
    assert alternatives(b, _listed(b, "banker_commission")) == ["0.06"]
    assert alternatives(b, _listed(b, "tableau")) == ["standard"]
    r = shipped_profile("roulette-c")
    assert alternatives(r, _listed(r, "history_length")) == [12, 14]
    assert alternatives(r, _listed(r, "wheel")) == ["american"]
    assert alternatives(r, _listed(r, "straight_pays")) == ["36:1"]
