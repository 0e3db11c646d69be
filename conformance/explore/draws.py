"""What a drawn round is made of, described once and drawn two ways: fast, or by Hypothesis.

Explore draws its rounds in bulk, thousands a minute, and hands Hypothesis only the one that
diverged, to shrink. Hypothesis' own drawing (spans, constraint pools and strategy checks at
every choice) cost most of a drawn round, so the explorer's strategies are built from the
few combinators here instead (``integers``, ``booleans``, ``sampled_from``, ``one_of``,
``lists``, ``unique_lists``, ``tuples``, ``builds``, ``just``, ``composite``, ``map`` and
``flatmap``).
Each describes a draw as a sequence of choices, integers and booleans, made through a
``Draw``, and is drawn:

- by ``Sampler``: each choice from a seeded ``random.Random`` (uniform over its range, a
  list's length too), or replayed from recorded choices, and recorded: the bulk draw;
- as ``Spec.strategy``: a Hypothesis strategy that makes the same choices in the same order
  (``st.integers``, ``st.booleans``; each part drawn is a span of its own, which the shrinker
  deletes or lowers whole): what the tests draw, and what Hypothesis replays a recorded
  draw's choices with, and shrinks.

The same choices give the same value both ways: a sampled draw's choices replayed by
Hypothesis give the vector the bulk search played (``tests/conformance/test_explore_draws.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

from hypothesis import strategies as st

_T = TypeVar("_T")
_U = TypeVar("_U")
_P = ParamSpec("_P")

#: A choice of a draw, as Hypothesis records it.
Choice = int | bool


class Draw:
    """What a spec draws its choices through: an integer in a range, a boolean, a part."""

    __slots__ = ()

    def integer(self, low: int, high: int) -> int:
        """An integer from ``low`` to ``high``, both included; shrinks towards ``low``... 0."""
        raise NotImplementedError

    def boolean(self) -> bool:
        """True or False; shrinks towards False."""
        raise NotImplementedError

    def __call__(self, spec: Spec[_T]) -> _T:
        """A value of ``spec``, drawn as a part of this draw."""
        raise NotImplementedError


class Spec(Generic[_T]):
    """A description of a draw: ``run`` makes its choices through a ``Draw``."""

    __slots__ = ("_strategy",)

    def __init__(self) -> None:
        self._strategy: st.SearchStrategy[_T] | None = None

    def run(self, draw: Draw) -> _T:
        """Make this spec's choices through ``draw``; the value they give."""
        raise NotImplementedError

    def _build(self) -> st.SearchStrategy[_T]:
        return _by_hypothesis(self)

    @property
    def strategy(self) -> st.SearchStrategy[_T]:
        """The Hypothesis strategy that makes this spec's choices (built once)."""
        if self._strategy is None:
            self._strategy = self._build()
        return self._strategy

    def map(self, pack: Callable[[_T], _U]) -> Spec[_U]:
        """The values of this spec, each passed through ``pack``: the same choices."""
        return _Mapped(self, pack)

    def flatmap(self, expand: Callable[[_T], Spec[_U]]) -> Spec[_U]:
        """A value of the spec ``expand`` makes of a value of this one."""
        return _FlatMapped(self, expand)


@st.composite
def _by_hypothesis(draw: st.DrawFn, spec: Spec[_T]) -> _T:
    return spec.run(_HypothesisDraw(draw))


class _HypothesisDraw(Draw):
    """Choices made by Hypothesis: one node per choice, a span per part."""

    __slots__ = ("_draw",)

    def __init__(self, draw: st.DrawFn) -> None:
        self._draw = draw

    def integer(self, low: int, high: int) -> int:
        return self._draw(st.integers(min_value=low, max_value=high))

    def boolean(self) -> bool:
        return self._draw(st.booleans())

    def __call__(self, spec: Spec[_T]) -> _T:
        return self._draw(spec.strategy)


class Sampler(Draw):
    """Choices from a seeded generator, each uniform over its range, and recorded.

    ``prefix``: choices replayed first (a recorded draw, or a first choice fixed); one that
    does not fit where it comes (another type, out of range) is drawn instead. Past the
    prefix, choices come from ``rng``, or without one are the simplest (what shrinks to).
    """

    __slots__ = ("_prefix", "_rng", "choices")

    def __init__(self, rng: random.Random | None, prefix: Sequence[Choice] = ()) -> None:
        self._rng = rng
        self._prefix = prefix
        #: Every choice made so far, in order: what replays this draw.
        self.choices: list[Choice] = []

    def _given(self) -> Choice | None:
        index = len(self.choices)
        return self._prefix[index] if index < len(self._prefix) else None

    def integer(self, low: int, high: int) -> int:
        """The prefix's next choice if it fits, else one drawn uniformly (or ``low``... 0)."""
        given = self._given()
        if type(given) is int and low <= given <= high:
            value = given
        elif self._rng is not None:
            # ``randrange(size)``'s own draw, without its argument checks: a round makes
            # dozens of these. The same bits, the same value.
            size = high - low + 1
            width = size.bit_length()
            pick = self._rng.getrandbits(width)
            while pick >= size:
                pick = self._rng.getrandbits(width)
            value = low + pick
        else:
            value = min(max(0, low), high)
        self.choices.append(value)
        return value

    def boolean(self) -> bool:
        """The prefix's next choice if it is a boolean, else a fair coin (or False)."""
        given = self._given()
        coin = self._rng is not None and type(given) is not bool and self._rng.random() < 0.5
        value = given if type(given) is bool else coin
        self.choices.append(value)
        return value

    def __call__(self, spec: Spec[_T]) -> _T:
        """``spec``'s choices, made in line with this draw's."""
        return spec.run(self)


def sample(
    spec: Spec[_T], rng: random.Random | None, prefix: Sequence[Choice] = ()
) -> tuple[_T, tuple[Choice, ...]]:
    """A value of ``spec`` drawn by a ``Sampler``, and the choices that draw it again."""
    sampler = Sampler(rng, prefix)
    value = spec.run(sampler)
    return value, tuple(sampler.choices)


class _Integers(Spec[int]):
    __slots__ = ("high", "low")

    def __init__(self, low: int, high: int) -> None:
        super().__init__()
        if low > high:
            raise ValueError(f"integers({low}, {high}): the lower bound is above the upper")
        self.low, self.high = low, high

    def run(self, draw: Draw) -> int:
        return draw.integer(self.low, self.high)

    def _build(self) -> st.SearchStrategy[int]:
        return st.integers(min_value=self.low, max_value=self.high)


class _Booleans(Spec[bool]):
    __slots__ = ()

    def run(self, draw: Draw) -> bool:
        return draw.boolean()

    def _build(self) -> st.SearchStrategy[bool]:
        return st.booleans()


class _Just(Spec[_T]):
    __slots__ = ("value",)

    def __init__(self, value: _T) -> None:
        super().__init__()
        self.value = value

    def run(self, draw: Draw) -> _T:  # noqa: ARG002 - no choice to make
        return self.value

    def _build(self) -> st.SearchStrategy[_T]:
        return st.just(self.value)


class _Sampled(Spec[_T]):
    __slots__ = ("options",)

    def __init__(self, options: Sequence[_T]) -> None:
        super().__init__()
        if not options:
            raise ValueError("sampled_from: no options")
        self.options = tuple(options)

    def run(self, draw: Draw) -> _T:
        return self.options[draw.integer(0, len(self.options) - 1)]

    def _build(self) -> st.SearchStrategy[_T]:
        return st.integers(min_value=0, max_value=len(self.options) - 1).map(
            self.options.__getitem__
        )


class _OneOf(Spec[_T]):
    __slots__ = ("branches",)

    def __init__(self, branches: Sequence[Spec[_T]]) -> None:
        super().__init__()
        # Nested choices flattened, as Hypothesis does: each branch as likely as another.
        flat: list[Spec[_T]] = []
        for branch in branches:
            flat.extend(branch.branches if isinstance(branch, _OneOf) else (branch,))
        self.branches: tuple[Spec[_T], ...] = tuple(flat)

    def run(self, draw: Draw) -> _T:
        return draw(self.branches[draw.integer(0, len(self.branches) - 1)])


class _Lists(Spec[list[_T]]):
    __slots__ = ("element", "high", "low")

    def __init__(self, element: Spec[_T], low: int, high: int) -> None:
        super().__init__()
        self.element, self.low, self.high = element, low, high

    def run(self, draw: Draw) -> list[_T]:
        # The length first (it shrinks, and the shrinker deletes the parts it drops).
        count = draw.integer(self.low, self.high) if self.low < self.high else self.low
        return [draw(self.element) for _ in range(count)]


class _UniqueLists(Spec[list[_T]]):
    __slots__ = ("high", "low", "options")

    def __init__(self, options: Sequence[_T], low: int, high: int) -> None:
        super().__init__()
        self.options, self.low, self.high = tuple(options), low, min(high, len(options))

    def run(self, draw: Draw) -> list[_T]:
        count = draw.integer(self.low, self.high) if self.low < self.high else self.low
        left = list(self.options)
        return [left.pop(draw.integer(0, len(left) - 1)) for _ in range(count)]


class _Tuples(Spec[tuple[Any, ...]]):
    __slots__ = ("parts",)

    def __init__(self, parts: Sequence[Spec[Any]]) -> None:
        super().__init__()
        self.parts = tuple(parts)

    def run(self, draw: Draw) -> tuple[Any, ...]:
        return tuple(draw(p) for p in self.parts)


class _Mapped(Spec[_U]):
    __slots__ = ("inner", "pack")

    def __init__(self, inner: Spec[_T], pack: Callable[[_T], _U]) -> None:
        super().__init__()
        self.inner: Spec[Any] = inner
        self.pack: Callable[[Any], _U] = pack

    def run(self, draw: Draw) -> _U:
        return self.pack(self.inner.run(draw))

    def _build(self) -> st.SearchStrategy[_U]:
        return self.inner.strategy.map(self.pack)


class _FlatMapped(Spec[_U]):
    __slots__ = ("expand", "inner")

    def __init__(self, inner: Spec[_T], expand: Callable[[_T], Spec[_U]]) -> None:
        super().__init__()
        self.inner: Spec[Any] = inner
        self.expand: Callable[[Any], Spec[_U]] = expand

    def run(self, draw: Draw) -> _U:
        return draw(self.expand(draw(self.inner)))


class _Composite(Spec[_T]):
    __slots__ = ("args", "function", "kwargs")

    def __init__(
        self, function: Callable[..., _T], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> None:
        super().__init__()
        self.function, self.args, self.kwargs = function, args, kwargs

    def run(self, draw: Draw) -> _T:
        return self.function(draw, *self.args, **self.kwargs)


def integers(min_value: int, max_value: int) -> Spec[int]:
    """An integer from ``min_value`` to ``max_value``, both included."""
    return _Integers(min_value, max_value)


def booleans() -> Spec[bool]:
    """True or False."""
    return _Booleans()


def just(value: _T) -> Spec[_T]:
    """``value``, no choice made."""
    return _Just(value)


def sampled_from(options: Sequence[_T]) -> Spec[_T]:
    """One of ``options``; shrinks towards the first."""
    return _Sampled(options)


def one_of(*branches: Spec[_T]) -> Spec[_T]:
    """A value of one of ``branches``, each as likely; shrinks towards the first."""
    return _OneOf(branches)


def lists(element: Spec[_T], *, min_size: int = 0, max_size: int) -> Spec[list[_T]]:
    """A list of ``min_size`` to ``max_size`` values of ``element``."""
    return _Lists(element, min_size, max_size)


def unique_lists(options: Sequence[_T], *, min_size: int, max_size: int) -> Spec[list[_T]]:
    """``min_size`` to ``max_size`` distinct ``options``, in the order drawn."""
    return _UniqueLists(options, min_size, max_size)


def tuples(*parts: Spec[Any]) -> Spec[tuple[Any, ...]]:
    """A value of each of ``parts``, in order."""
    return _Tuples(parts)


def builds(target: Callable[..., _T], *parts: Spec[Any]) -> Spec[_T]:
    """``target`` called with a value of each of ``parts``."""
    return _Tuples(parts).map(lambda values: target(*values))


def composite(function: Callable[Concatenate[Draw, _P], _T]) -> Callable[_P, Spec[_T]]:
    """A spec made by a function that draws through its first argument (``st.composite``)."""

    def make(*args: _P.args, **kwargs: _P.kwargs) -> Spec[_T]:
        return _Composite(function, args, kwargs)

    make.__doc__ = function.__doc__
    make.__name__ = function.__name__
    make.__qualname__ = function.__qualname__
    return make
