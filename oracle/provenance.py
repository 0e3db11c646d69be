"""Why each value of a round is what it is, and the first value two accounts disagree on.

The rules record, for every value they decide (a card drawn or not, a decision offered or
withheld, a status, an amount paid), the clauses that decided it, deciding clause first. A
record of them is a ``Citations`` mapping keyed by the value's path in the round state or
the settlement, in the contract's field names: ``phase``, ``turn``,
``legal_decisions[double]``, ``blackjack.seats[0].hands[1].cards[2]``,
``baccarat.banker_cards[3]``, ``lines[0]``. Two more key forms:

- ``PATH=VALUE``: why the path does not hold that value, where that differs from why it
  holds its own (``blackjack.dealer.cards[1]=(none)``: why the hole card is turned;
  ``lines[0].returned.minor_units=49``: why a payout is not rounded the other way).
- ``*.FIELD``: every field of that name (``*.currency_code``: TABLE.currency).

A *view* is the other side: every value of a message by path, as text, with ``ABSENT`` where
a list ends (``cards[2] = (none)`` after two cards), so that a card too many or too few shows
at its own path. ``first_difference`` compares two views cause first, and ``cite`` finds the
clauses of a difference: its value-specific key, then its own path and each path that contains
it in turn, each by its own key or a ``*.`` key (``*.insurance`` answers
``...insurance.minor_units``). Nothing here knows a rule: the game modules record, this module
looks up.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: The text of a value that is not there: a list's end, an unset message.
ABSENT = "(none)"

#: Clauses by path, deciding clause first.
Citations = Mapping[str, tuple[str, ...]]

# Cause first: hands in play order (seat by seat, a split's hands in turn), each hand's cards
# before its status (its cards decide it) and its status before the next hand's cards (a hand
# that ends wrongly moves the next card to the next hand); then the rest in field order, the
# statuses deciding the turn, the phase and the decisions offered; the count of cards dealt
# last, so that a card too many is reported where it went.
_HAND = re.compile(
    r"(?:^|\.)blackjack\.seats\[(\d+)\]\.hands(?:\[(\d+)\](\.cards(?:\[\d+\])?|\.status)?)?$"
)
_LAST = re.compile(r"(^|\.)cards_dealt$")
_PARENT = re.compile(r"(\[[^\]]*\]|\.[^.\[]+)$")


@dataclass(frozen=True, slots=True, kw_only=True)
class Difference:
    """The first value where two views of a round disagree."""

    path: str
    expected: str
    actual: str


@functools.lru_cache(maxsize=8192)
def _rank(path: str) -> tuple[int, int, int, int]:
    # Cached: the same few thousand paths come back in every round compared.
    hand = _HAND.search(path)
    if hand:
        seat, index, field = hand.groups()
        return (0, int(seat), int(index or 0), 1 if field == ".status" else 0)
    if _LAST.search(path):
        return (2, 0, 0, 0)
    return (1, 0, 0, 0)


def first_difference(expected: Mapping[str, str], actual: Mapping[str, str]) -> Difference | None:
    """The first path, cause first, where ``actual`` does not hold ``expected``'s value.

    Paths keep the order the expected view lists them in within each rank; a path only the
    actual view has comes after every expected one.
    """
    ranked = sorted(enumerate(expected), key=lambda item: (_rank(item[1]), item[0]))
    for _, path in ranked:
        want = expected[path]
        got = actual.get(path, ABSENT)
        if want != got:
            return Difference(path=path, expected=want, actual=got)
    for path, got in actual.items():
        if path not in expected and got != ABSENT:
            return Difference(path=path, expected=ABSENT, actual=got)
    return None


@functools.lru_cache(maxsize=65536)
def parent(path: str) -> str:
    """The path that contains this one: ``a.b[2]`` -> ``a.b`` -> ``a`` -> ``""``."""
    # Cached: compact asks for the containers of the same few thousand paths in every round.
    shorter = _PARENT.sub("", path)
    return "" if shorter == path else shorter


def cite(citations: Citations, difference: Difference) -> tuple[str, ...]:
    """The clauses behind the expected value of a difference; empty if none is recorded.

    The value-specific key, then the path and each container in turn: its own key, else a
    ``*.FIELD`` key naming its last field.
    """
    return _cite(citations, _fields(citations), difference)


def _fields(citations: Citations) -> list[tuple[str, tuple[str, ...]]]:
    """The ``*.FIELD`` keys of a record, as (``.FIELD``, clauses)."""
    return [(key[1:], why) for key, why in citations.items() if key.startswith("*.")]


def _cite(
    citations: Citations, fields: Sequence[tuple[str, tuple[str, ...]]], difference: Difference
) -> tuple[str, ...]:
    """``cite``, with the record's ``*.FIELD`` keys already gathered (``_fields``)."""
    path = difference.path
    found = citations.get(f"{path}={difference.actual}") or citations.get(path)
    if found:
        return found
    while path:
        found = citations.get(path)
        if found:
            return found
        for suffix, why in fields:
            if path.endswith(suffix):
                return why
        path = parent(path)
    return ()


def prefixed(citations: Citations, prefix: str) -> dict[str, tuple[str, ...]]:
    """The citations of a state or a settlement, as paths of the message holding it."""
    return {
        key if key.startswith("*.") else f"{prefix}.{key}": why for key, why in citations.items()
    }


def merged(*parts: Citations) -> dict[str, tuple[str, ...]]:
    """Several citation records as one; a later part wins on a shared path."""
    out: dict[str, tuple[str, ...]] = {}
    for part in parts:
        out.update(part)
    return out


def joined(*groups: Sequence[str]) -> tuple[str, ...]:
    """Clauses of several groups, in order, each once."""
    return tuple(dict.fromkeys(c for group in groups for c in group))


def compact(citations: Citations) -> dict[str, tuple[str, ...]]:
    """The same citations in fewer keys: ``cite`` answers every difference as before.

    Siblings of one list (``legal_decisions[hit]``...) lend their most common clauses to the
    list's own path when it has none; then every key whose path's containers, or its own path
    for a ``PATH=VALUE`` key, already give the same clauses is dropped.
    """
    return dict(_compact(tuple(citations.items())))


@functools.lru_cache(maxsize=4096)
def _compact(
    items: tuple[tuple[str, tuple[str, ...]], ...],
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``compact`` of a record's items, in order; cached: rounds played alike cite alike."""
    out = dict(items)
    siblings: dict[str, list[str]] = {}
    for key in out:
        if "=" not in key and key.endswith("]"):
            siblings.setdefault(parent(key), []).append(key)
    for container, keys in siblings.items():
        if container and container not in out and len(keys) > 1:
            out[container] = Counter(out[k] for k in keys).most_common(1)[0][0]
    # The ``*.`` keys are never dropped below: gathered once, not at every probe.
    fields = _fields(out)
    for key in sorted(out, key=lambda k: -k.count(".") - k.count("[")):
        if key.startswith("*."):
            continue
        path, has_value, value = key.partition("=")
        why = out.pop(key)
        # What cite would answer for a difference at this key, were it not there.
        probe = Difference(path=path, expected="", actual=value if has_value else "\0")
        if _cite(out, fields, probe) != why:
            out[key] = why
    return tuple(out.items())
