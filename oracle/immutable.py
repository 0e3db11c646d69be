"""What the rules core's values are built from: enums hashed by identity, and ``evolve``.

The rules' public values are frozen, slotted dataclasses (``evolve`` copies one with some
fields changed), and their cards, statuses and decisions are enums looked up in dicts at every
step: these two keep that cheap. A blackjack round is played on a mutable working state and
wraps it in a frozen state only between decisions (``oracle.blackjack``).

The values a round makes at every step (``Round``, ``RoundRequest``, ``Decision``,
``BlackjackState``, ``BlackjackSeat``, blackjack's ``Option``), and ``Card``, write their
``__init__`` out (``init=False``): mypyc compiles a written one, where the dataclass's
generated ``__init__`` runs as Python even in the compiled build (about 0.55 µs against
0.03 µs for four fields, measured). Compiled, such a class's ``__new__`` runs that
``__init__`` too, so ``evolve`` (and pickling, ``oracle.build``) builds it through its
``__init__``, from the fields it takes: it works the others out (``Card.place``).
"""

from __future__ import annotations

import enum
from typing import Any, TypeVar

_T = TypeVar("_T")


class Choice(enum.Enum):
    """An enum whose members hash by identity.

    Members are singletons and compare by identity, so this hash is exact; it is computed in
    C, where ``Enum.__hash__`` hashes the member's name in Python on every dict lookup.
    """

    __hash__ = object.__hash__


_FIELDS: dict[type, tuple[tuple[str, ...], frozenset[str], Any]] = {}


def evolve(record: _T, /, **changes: Any) -> _T:
    """A copy of a frozen, slotted dataclass with some fields changed.

    ``dataclasses.replace`` for the rules' hot path: the same result for classes whose fields
    are all set by ``__init__`` and that have no ``__post_init__``, without its per-call
    introspection of the fields. A name that is not a field raises ``TypeError``.
    """
    cls = type(record)
    known = _FIELDS.get(cls)
    if known is None:
        # The dataclass's fields and its own __new__, not __slots__ and object.__new__: a class
        # compiled by mypyc (make compiled) has no __slots__ and refuses object.__new__.
        fields = cls.__dataclass_fields__  # type: ignore[attr-defined]
        written = not cls.__dataclass_params__.init  # type: ignore[attr-defined]
        # A written __init__ works out the fields it does not take (``Card.place``) again.
        names = tuple(name for name, field in fields.items() if field.init or not written)
        known = _FIELDS[cls] = (names, frozenset(names), None if written else cls.__new__)
    names, fields, make = known
    if not fields.issuperset(changes):
        unknown = ", ".join(sorted(set(changes) - fields))
        raise TypeError(f"{cls.__name__} has no field {unknown}")
    if make is None:
        # A written __init__ takes every field by name (the module docstring).
        values = {
            name: changes[name] if name in changes else getattr(record, name) for name in names
        }
        return cls(**values)
    new = make(cls)
    for name in names:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(record, name))
    return new
