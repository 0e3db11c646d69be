"""A message read as paths to values: the view that answers are compared in.

``view(message)`` lists every field of a message by path, in field order, as text
(``croupier.conformance.v1.Vector`` documents the form): the expected and the actual answer
of a call, or a recorded and a replayed final state, are compared as two such views by
``oracle.provenance.first_difference``, and the difference is cited from the oracle's
citations for the same paths.
"""

from __future__ import annotations

import re
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
