"""The record verifier: a ``croupier.v1.RoundRecord`` against the rules.

One function for every caller (``OracleService.VerifyRound``, ``VerifyRounds`` and
``croupier audit verify``): the record is replayed by the rules core
(``oracle.verify``), and when nothing else differs its final state is compared with the
replayed round's, path by path (``oracle.service.flat``), each difference cited from the
clauses the rules recorded (``oracle.provenance``). The replay compares settlement lines;
``record_discrepancies`` checks what an audit log's record must also get right whatever
the rules say: its totals and the currency of every amount.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from croupier.oracle import roulette
from croupier.oracle.provenance import cite, first_difference, prefixed
from croupier.oracle.service import convert, flat
from croupier.oracle.verify import Discrepancy, RecordVerdict, verify_record
from croupier.v1 import common_pb2

if TYPE_CHECKING:
    from google.protobuf.descriptor import Descriptor, FieldDescriptor
    from google.protobuf.message import Message

    from croupier.oracle.profile import Profile
    from croupier.v1 import round_pb2


def verify(
    profile: Profile, record: round_pb2.RoundRecord, board: roulette.TableHistory | None = None
) -> RecordVerdict:
    """Replay a record, ``board`` being its table's history before it (roulette).

    Raises ``OracleError`` for a record that cannot be replayed at all (malformed).
    """
    return _replay(profile, record, board)[0]


def audit_record(
    profile: Profile, record: round_pb2.RoundRecord, board: roulette.TableHistory | None = None
) -> tuple[RecordVerdict, tuple[Discrepancy, ...]]:
    """``verify`` and ``record_discrepancies`` of one record, the second proved where it can be.

    A clean replay took every amount of the seats and the decisions in the round's currency
    (``convert.amount_from`` refuses any other) and found the final state equal to the
    replayed one, whose amounts are all in it: only the settlement is left to look at
    (``record_discrepancies``' settlement scope). Raises ``OracleError`` as ``verify`` does.
    """
    verdict, same_state = _replay(profile, record, board)
    return verdict, record_discrepancies(record, settlement_only=same_state)


def _replay(
    profile: Profile, record: round_pb2.RoundRecord, board: roulette.TableHistory | None
) -> tuple[RecordVerdict, bool]:
    """The verdict, and whether it is clean with the final state the replayed one, as a message."""
    verdict = verify_record(profile, convert.record_from(record), board)
    if verdict.discrepancies:
        return verdict, False
    found, same = _final_state(verdict, record)
    return (verdict, same) if found is None else (replace(verdict, discrepancies=(found,)), False)


@functools.cache
def _holding_amounts(descriptor: Descriptor) -> tuple[FieldDescriptor, ...]:
    """The message fields of a message type that hold an amount, themselves or further down."""
    return tuple(
        field
        for field in descriptor.fields
        if field.message_type is not None
        and (
            field.message_type is common_pb2.Amount.DESCRIPTOR
            or _holding_amounts(field.message_type)
        )
    )


def _currencies(message: Message, found: set[str]) -> set[str]:
    """Add the currency code of every amount set in a message (``_amounts`` without paths)."""
    for field in _holding_amounts(message.DESCRIPTOR):
        if field.is_repeated:
            items = getattr(message, field.name)
        elif message.HasField(field.name):
            items = (getattr(message, field.name),)
        else:
            continue
        if field.message_type is common_pb2.Amount.DESCRIPTOR:
            found.update(item.currency_code for item in items)
        else:
            for item in items:
                _currencies(item, found)
    return found


def _amounts(message: Message, prefix: str = "") -> Iterator[tuple[str, common_pb2.Amount]]:
    """Every amount set in a message, by path, in field order."""
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        path = f"{prefix}.{field.name}" if prefix else field.name
        items = (
            [(f"{path}[{i}]", item) for i, item in enumerate(value)]
            if field.is_repeated
            else [(path, value)]
        )
        for where, item in items:
            if isinstance(item, common_pb2.Amount):
                yield where, item
            else:
                yield from _amounts(item, where)


def record_discrepancies(
    record: round_pb2.RoundRecord, *, settlement_only: bool = False
) -> tuple[Discrepancy, ...]:
    """Where the record disagrees with itself, whatever the rules say.

    Every amount of the record (balances, stakes, payouts, totals) is in the round's
    currency (TABLE.currency; an empty code is the round's), and each total of the
    settlement is the sum of its lines (CONTRACT.settlement). ``settlement_only`` looks at
    the settlement's amounts alone, for a record whose other amounts are known to be in the
    round's currency (``audit_record``).
    """
    currency = record.currency_code
    settlement = record.settlement
    allowed = (currency, "")
    # One pass over the lines: whether they hold another currency, and what each total sums.
    other = (
        settlement.total_staked.currency_code not in allowed
        or settlement.total_returned.currency_code not in allowed
    )
    staked = returned = 0
    for line in settlement.lines:
        stake, back = line.stake, line.returned
        if stake.currency_code not in allowed or back.currency_code not in allowed:
            other = True
        staked += stake.minor_units
        returned += back.minor_units
    if not (other or settlement_only):
        other = bool(_currencies(record, set()) - {currency, ""})
    found: list[Discrepancy] = []
    # The paths are worked out only for a record that has an amount in another currency.
    if other:
        amounts = _amounts(settlement, "settlement") if settlement_only else _amounts(record)
        found = [
            Discrepancy(
                clause="TABLE.currency",
                path=f"{path}.currency_code",
                expected=currency,
                actual=amount.currency_code,
                message=f"an amount in {amount.currency_code} in a round in {currency}",
            )
            for path, amount in amounts
            if amount.currency_code and amount.currency_code != currency
        ]
    for total, name, summed in (
        ("total_staked", "stake", staked),
        ("total_returned", "returned", returned),
    ):
        recorded = getattr(settlement, total).minor_units
        if recorded != summed:
            found.append(
                Discrepancy(
                    clause="CONTRACT.settlement",
                    path=f"settlement.{total}.minor_units",
                    expected=str(summed),
                    actual=str(recorded),
                    message=f"{total} is not the sum of the lines' {name} amounts",
                )
            )
    return tuple(found)


def _final_state(
    verdict: RecordVerdict, record: round_pb2.RoundRecord
) -> tuple[Discrepancy | None, bool]:
    """The first difference between the recorded final state and the replayed round's.

    And whether the two are equal messages (a difference no view shows leaves them unequal).
    """
    replayed = verdict.replayed
    if replayed is None or not replayed.complete:
        return None, False
    expected_state = convert.round_state(replayed)
    history = verdict.history
    if history is not None and history is not replayed.history:
        # With the table's earlier spins unknown, the verdict's board is the record's own,
        # already checked against this spin (else it is the replayed round's, shown already).
        del expected_state.roulette.history[:]
        expected_state.roulette.history.extend(roulette.pocket_text(p) for p in history.results)
    if expected_state == record.final_state:
        # Equal messages have equal views: nothing to look for, value by value.
        return None, True
    difference = first_difference(
        flat.view(expected_state, "final_state"), flat.view(record.final_state, "final_state")
    )
    if difference is None:
        return None, False
    cited = cite(prefixed(replayed.citations(), "final_state"), difference)
    return Discrepancy(
        clause=cited[0] if cited else "CONTRACT.request",
        path=difference.path,
        expected=difference.expected,
        actual=difference.actual,
        message="the recorded final state differs from the replayed round",
    ), False
