"""``conformance.explore.draws``: a sampled draw is the draw Hypothesis replays and shrinks.

Explore samples its rounds in bulk (``Sampler``) and hands Hypothesis the recorded choices of
a round that diverged: replayed through ``Spec.strategy``, they must give the same vector, or
the shrinker would start from another round than the one the engine failed.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes

from croupier.conformance.explore import draws, rounds, search
from croupier.conformance.explore.coverage import aim_order, cells
from croupier.conformance.v1 import vector_pb2
from croupier.oracle.profile import Profile, shipped_profiles

PROFILES = shipped_profiles()
_KEY = b"replay"


class _Replayed(Exception):  # noqa: N818 - a signal, not an error
    """The replayed example was drawn."""


def _replayed(spec: draws.Spec[vector_pb2.Vector], choices: tuple[draws.Choice, ...]) -> object:
    """What Hypothesis draws from ``spec`` replaying ``choices``, as the explorer's shrink does."""
    database = InMemoryExampleDatabase()
    database.save(_KEY + b".secondary", choices_to_bytes(choices))
    drawn: list[object] = []

    @settings(
        database=database,
        phases=(Phase.reuse,),
        max_examples=1,
        suppress_health_check=list(HealthCheck),
        deadline=None,
    )
    @given(st.data())
    def replay(data: st.DataObject) -> None:
        drawn.append(data.draw(spec.strategy))
        raise _Replayed

    replay._hypothesis_internal_database_key = _KEY  # type: ignore[attr-defined]
    with contextlib.suppress(_Replayed):
        replay()
    # Hypothesis replays a failing example once more to report it: the same vector again.
    assert drawn
    assert all(d == drawn[0] for d in drawn)
    return drawn[0]


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.id)
def test_a_sampled_vector_is_what_hypothesis_replays_from_its_choices(profile: Profile) -> None:
    # A plain draw and aimed ones, one of each group of aims, and a fault across profiles.
    groups = aim_order(cells(profile, PROFILES), random.Random(0).shuffle)  # noqa: S311
    aims = [None, *(g[0] for g in groups if g), "fault:round id of another profile#0"]
    for number, aim in enumerate(aims):
        spec = rounds.explored_vector(profile, f"v{number}", PROFILES, aim)
        vector, choices = search._draw_once(spec, number, None)
        assert _replayed(spec, choices) == vector, (profile.id, aim)
        # And the explorer's own replay (a stored finding) draws it again.
        assert search._draw_once(spec, 0, choices) == (vector, choices)


def test_the_sampler_draws_each_value_of_a_range_alike() -> None:
    sampler = draws.Sampler(random.Random(7))  # noqa: S311
    spec = draws.integers(3, 6)
    counts = Counter(sampler(spec) for _ in range(4000))
    assert sorted(counts) == [3, 4, 5, 6]
    # 1,000 expected each: a bias to the bounds or to small values would show.
    assert all(900 < n < 1100 for n in counts.values()), counts
    assert sampler.choices == [v for v in sampler.choices if 3 <= v <= 6]


def test_a_prefix_is_replayed_where_it_fits_and_drawn_where_it_does_not() -> None:
    spec = draws.tuples(draws.booleans(), draws.integers(0, 9), draws.sampled_from("abc"))
    # True fits the boolean, 12 is out of 0-9, the index 2 fits: 'c'.
    value, choices = draws.sample(spec, None, (True, 12, 2))
    assert value == (True, 0, "c")
    assert choices == (True, 0, 2)
    # Without a generator, past the prefix: the simplest choices (what shrinking aims at).
    assert draws.sample(spec, None, ()) == ((False, 0, "a"), (False, 0, 0))


def test_nested_choices_are_flattened_each_branch_alike() -> None:
    spec = draws.one_of(draws.just("a"), draws.one_of(draws.just("b"), draws.just("c")))
    sampler = draws.Sampler(random.Random(1))  # noqa: S311
    counts = Counter(sampler(spec) for _ in range(3000))
    assert all(900 < counts[k] < 1100 for k in "abc"), counts


def test_unique_lists_hold_distinct_options() -> None:
    spec = draws.unique_lists("abcd", min_size=1, max_size=4)
    sampler = draws.Sampler(random.Random(2))  # noqa: S311
    for _ in range(200):
        drawn = sampler(spec)
        assert 1 <= len(drawn) <= 4
        assert len(set(drawn)) == len(drawn)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, 5, 8, 9, 15, 16, 17, 64, 65, 260, 300, 416])
def test_a_shoe_is_shuffled_as_random_shuffles_it(size: int) -> None:
    """The explorer's shuffle keeps ``Random.shuffle``'s order: the same seed, the same shoe."""
    for seed in (0, 1, 7, 2**31, 2**32 - 1):
        expected = list(range(size))
        random.Random(seed).shuffle(expected)  # noqa: S311 - the order to match
        shuffled = list(range(size))
        rounds.shuffle(shuffled, seed)
        assert shuffled == expected, (size, seed)


def test_a_sampled_integer_is_what_randrange_draws() -> None:
    """The sampler's integers are ``randrange``'s for the same generator: the same seed, the
    same rounds."""
    ranges = [(0, 0), (0, 1), (3, 9), (-5, 5), (0, 2**32 - 1), (1, 64), (0, 64), (7, 1000)]
    sampler = draws.Sampler(random.Random(11))  # noqa: S311 - a test's draw
    expected = random.Random(11)  # noqa: S311 - a test's draw
    for low, high in ranges * 50:
        assert sampler.integer(low, high) == low + expected.randrange(high - low + 1)
