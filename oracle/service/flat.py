"""A message read as paths to values: the view that answers are compared in.

``view(message)`` lists every field of a message by path, in field order, as text
(``croupier.conformance.v1.Vector`` documents the form): the expected and the actual answer
of a call, or a recorded and a replayed final state, are compared as two such views by
``oracle.provenance.first_difference``, and the difference is cited from the oracle's
citations for the same paths. ``comparable`` tells cheaply, before any view, that two
messages have the same one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message

from croupier.oracle.provenance import ABSENT

#: Fields an engine may leave empty: the oracle fills them for people, not for comparison.
IGNORED = frozenset({"returned_exact", "clauses"})
#: Repeated enums that are sets, not lists: read as one path per member.
SETS = frozenset({"legal_decisions"})
#: The value of a message field that is set (its own fields follow it).
SET = "(set)"

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


@cache
def _prefix(enum: EnumDescriptor) -> str:
    return _CAMEL.sub("_", enum.name).upper() + "_"


@cache
def enum_text(enum: EnumDescriptor, number: int) -> str:
    """An enum value as the view writes it: ``HAND_STATUS_STOOD`` is ``stood``."""
    value = enum.values_by_number.get(number)
    if value is None:
        return str(number)
    return value.name.removeprefix(_prefix(enum)).lower().replace("_", "-")


def _scalar(field: FieldDescriptor, value: object) -> str:
    if field.enum_type is not None:
        assert isinstance(value, int)  # noqa: S101 - an enum field holds its number
        return enum_text(field.enum_type, value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


@cache
def _fields(descriptor: Descriptor) -> tuple[FieldDescriptor, ...]:
    return tuple(
        sorted((f for f in descriptor.fields if f.name not in IGNORED), key=lambda f: f.number)
    )


@cache
def _differs_in(descriptor: Descriptor, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a message type holds, anywhere inside, a field the view ignores or reads as a set.

    Only those fields make equal views of unequal messages: ``comparable`` visits no other.
    """
    if descriptor.full_name in seen:
        return False  # a recursive type: its fields, if any, are found on the first visit
    inside = seen | {descriptor.full_name}
    return any(
        field.name in IGNORED
        or field.name in SETS
        or (field.message_type is not None and _differs_in(field.message_type, inside))
        for field in descriptor.fields
    )


@cache
def _to_canonical(
    descriptor: Descriptor,
) -> tuple[
    tuple[str, ...],
    tuple[tuple[FieldDescriptor, Mapping[int, object]], ...],
    tuple[FieldDescriptor, ...],
]:
    """A type's ignored fields, its set fields and their enum's values, its fields leading to either."""
    ignored = tuple(f.name for f in descriptor.fields if f.name in IGNORED)
    sets = tuple(
        (f, f.enum_type.values_by_number)
        for f in descriptor.fields
        if f.name in SETS and f.is_repeated and f.enum_type is not None and f.name not in IGNORED
    )
    inner = tuple(
        f
        for f in descriptor.fields
        if f.message_type is not None
        and not f.message_type.GetOptions().map_entry  # kept whole: copies only differ more
        and f.name not in IGNORED
        and _differs_in(f.message_type)
    )
    return ignored, sets, inner


def comparable(message: Message) -> Message:
    """A copy whose equality is that of views: ignored fields cleared, sets in one order.

    ``comparable(a) == comparable(b)`` implies ``view(a) == view(b)``: the copy keeps every
    field the view reads, and a set field as the view reads it (its members the enum names
    but 0, each once, in number order). Unequal copies may still have equal views (values
    the view writes alike); the view decides those.
    """
    copy = type(message)()
    copy.CopyFrom(message)
    if _differs_in(copy.DESCRIPTOR):
        _canonical(copy)
    return copy


def _canonical(message: Message) -> None:
    ignored, sets, inner = _to_canonical(message.DESCRIPTOR)
    for name in ignored:
        message.ClearField(name)
    for field, known in sets:
        values = getattr(message, field.name)
        members = sorted({number for number in values if number and number in known})
        if list(values) != members:
            del values[:]
            values.extend(members)
    for field in inner:
        if field.is_repeated:
            for item in getattr(message, field.name):
                _canonical(item)
        elif message.HasField(field.name):
            _canonical(getattr(message, field.name))


def view(message: Message, prefix: str = "") -> dict[str, str]:
    """Every value of a message, by path under ``prefix``, in field order."""
    out: dict[str, str] = {}
    _walk(message, prefix, out)
    return out


def _walk(message: Message, prefix: str, out: dict[str, str]) -> None:
    for field in _fields(message.DESCRIPTOR):
        path = f"{prefix}.{field.name}" if prefix else field.name
        value = getattr(message, field.name)
        if field.is_repeated:
            if field.name in SETS and field.enum_type is not None:
                members = set(value)
                for item in field.enum_type.values:
                    if item.number:
                        key = f"{path}[{enum_text(field.enum_type, item.number)}]"
                        out[key] = "offered" if item.number in members else ABSENT
                continue
            for index, item in enumerate(value):
                if field.message_type is not None:
                    out[f"{path}[{index}]"] = SET
                    _walk(item, f"{path}[{index}]", out)
                else:
                    out[f"{path}[{index}]"] = _scalar(field, item)
            out[f"{path}[{len(value)}]"] = ABSENT
        elif field.message_type is not None:
            if message.HasField(field.name):
                out[path] = SET
                _walk(value, path, out)
            else:
                out[path] = ABSENT
        else:
            out[path] = _scalar(field, value)
