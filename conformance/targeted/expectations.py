"""What an engine must answer for a vector: cards, states, decisions, refusals and amounts.

The clauses the oracle cites are left out, so two vectors that differ only in what a failure
would cite count as the same (``differs``).
"""

from __future__ import annotations

from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import replay
from croupier.oracle.profile import Profile


def expectations(vector: vector_pb2.Vector) -> bytes:
    """What an engine must answer for a vector, without the clauses the oracle cites."""
    bare = vector_pb2.Vector()
    bare.CopyFrom(vector)
    bare.ClearField("citations")
    bare.ClearField("clauses")
    for vround in bare.rounds:
        vround.ClearField("deal_citations")
        vround.ClearField("settle_citations")
        for step in (*vround.steps, *vround.after_settle):
            step.ClearField("citations")
        for line in vround.expected_settle.settlement.lines:
            line.ClearField("clauses")
            line.ClearField("returned_exact")
    return bare.SerializeToString(deterministic=True)


def differs(vector: vector_pb2.Vector, other: Profile) -> bool:
    """Whether the vector's expectations change when it is replayed under ``other``."""
    return expectations(replay(vector, other)) != expectations(vector)
