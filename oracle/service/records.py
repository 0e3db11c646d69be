"""The record verifier: a ``croupier.v1.RoundRecord`` against the rules.

One function for every caller (``OracleService.VerifyRound``, ``VerifyRounds`` and
``croupier audit verify``): the record is replayed by the rules core
(``oracle.verify``), and when nothing else differs its final state is compared with the
replayed round's, path by path (``oracle.service.flat``), each difference cited from the
clauses the rules recorded (``oracle.provenance``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from oracle import roulette
from oracle.provenance import cite, first_difference, prefixed
from oracle.service import convert, flat
from oracle.verify import Discrepancy, RecordVerdict, verify_record

if TYPE_CHECKING:
    from croupier.v1 import round_pb2

    from oracle.profile import Profile


def verify(
    profile: Profile, record: round_pb2.RoundRecord, board: roulette.TableHistory | None = None
) -> RecordVerdict:
    """Replay a record, ``board`` being its table's history before it (roulette).

    Raises ``OracleError`` for a record that cannot be replayed at all (malformed).
    """
    verdict = verify_record(profile, convert.record_from(record), board)
    if verdict.discrepancies:
        return verdict
    found = _final_state(verdict, record)
    return verdict if found is None else replace(verdict, discrepancies=(found,))


def _final_state(verdict: RecordVerdict, record: round_pb2.RoundRecord) -> Discrepancy | None:
    """The first difference between the recorded final state and the replayed round's."""
    replayed = verdict.replayed
    if replayed is None or not replayed.complete:
        return None
    expected_state = convert.round_state(replayed)
    if verdict.history is not None and expected_state.WhichOneof("table") == "roulette":
        # With the table's earlier spins unknown, the verdict's board is the record's own,
        # already checked against this spin.
        del expected_state.roulette.history[:]
        expected_state.roulette.history.extend(
            roulette.pocket_text(p) for p in verdict.history.results
        )
    difference = first_difference(
        flat.view(expected_state, "final_state"), flat.view(record.final_state, "final_state")
    )
    if difference is None:
        return None
    cited = cite(prefixed(replayed.citations(), "final_state"), difference)
    return Discrepancy(
        clause=cited[0] if cited else "CONTRACT.request",
        path=difference.path,
        expected=difference.expected,
        actual=difference.actual,
        message="the recorded final state differs from the replayed round",
    )
