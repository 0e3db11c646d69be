"""What the runner cites for a wrong answer: the faults it recognises itself, before any rule.

An answer that repeats the state of an earlier call (a stale reply) differs from the expected
one in whatever field the step changed: citing that field's rule would give one bug as many
clauses as steps. The runner cites it as one fault, CONTRACT.stale.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from croupier.conformance.runner import Exchange, _Divergence, _judge, exchanges
from croupier.conformance.vectors import CORPUS_DIR, read_vectors
from croupier.oracle.clauses import CONTRACT
from croupier.oracle.service import flat
from croupier.v1 import engine_service_pb2

VECTOR_PROTO = Path(__file__).parents[2] / "proto/croupier/conformance/v1/vector.proto"


def _calls(vector_id: str) -> list[Exchange]:
    path = CORPUS_DIR / "blackjack-a.hand.binpb.gz"
    (loaded,) = (v for v in read_vectors(path) if v.vector.id == vector_id)
    vector = loaded.vector
    return [e for i in range(len(vector.rounds)) for e in exchanges(vector, i, "")]


def _cited(exchange: Exchange, answer: object, earlier: list[tuple[str, object]]) -> str:
    with pytest.raises(_Divergence) as raised:
        _judge(exchange, answer, earlier)  # type: ignore[arg-type]
    return raised.value.details["clause"]


def _states(calls: list[Exchange]) -> list[tuple[str, object]]:
    return [(c.step, c.expected.state) for c in calls if c.expected is not None]  # type: ignore[attr-defined]


def test_a_decide_answered_with_an_earlier_state_is_stale_whatever_it_differs_in() -> None:
    # bja-h023: a split, a double after it and a stand, each changing other fields.
    calls = _calls("bja-h023")
    decides = [k for k, c in enumerate(calls) if c.method == "Decide" and c.expected is not None]
    assert len(decides) >= 3
    seen: set[str] = set()
    for k in decides:
        earlier = _states(calls[:k])
        stale = engine_service_pb2.DecideResponse(state=earlier[-1][1])  # type: ignore[arg-type]
        # Without the earlier states the runner cites a rule: a different one step by step.
        seen.add(_cited(calls[k], stale, []))
        assert _cited(calls[k], stale, earlier) == "CONTRACT.stale"
        # The state of any earlier call, not only the last.
        older = engine_service_pb2.DecideResponse(state=earlier[0][1])  # type: ignore[arg-type]
        assert _cited(calls[k], older, earlier) == "CONTRACT.stale"
    assert not seen & set(CONTRACT), seen


def test_a_wrong_answer_that_repeats_nothing_is_cited_by_its_rule() -> None:
    calls = _calls("bja-h023")
    k = next(k for k, c in enumerate(calls) if c.method == "Decide")
    wrong = engine_service_pb2.DecideResponse()
    wrong.CopyFrom(calls[k].expected)  # type: ignore[arg-type]
    wrong.state.cards_dealt += 1
    assert _cited(calls[k], wrong, _states(calls[:k])) not in CONTRACT


def test_a_settle_with_the_right_state_and_a_wrong_line_is_not_stale() -> None:
    # The settle's state is the last Decide's: that it repeats it is right, the line is wrong.
    calls = _calls("bja-h023")
    settle = calls[-1]
    assert settle.method == "Settle"
    wrong = engine_service_pb2.SettleResponse()
    wrong.CopyFrom(settle.expected)  # type: ignore[arg-type]
    wrong.settlement.lines[0].returned.minor_units += 1
    assert _cited(settle, wrong, _states(calls[:-1])) not in CONTRACT


def test_every_contract_label_is_documented_in_the_vector_schema() -> None:
    documented = set(
        re.findall(r"^// - (CONTRACT\.[a-z-]+):", VECTOR_PROTO.read_text(), re.MULTILINE)
    )
    assert documented == set(CONTRACT)


def _settle() -> tuple[Exchange, engine_service_pb2.SettleResponse]:
    """bja-h023's Settle, and a copy of the answer it expects to change."""
    settle = _calls("bja-h023")[-1]
    assert settle.method == "Settle"
    answer = engine_service_pb2.SettleResponse()
    answer.CopyFrom(settle.expected)  # type: ignore[arg-type]
    return settle, answer


def _counting_views(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    walked: list[object] = []
    real = flat.view

    def counted(message: object, prefix: str = "") -> dict[str, str]:
        walked.append(message)
        return real(message, prefix)  # type: ignore[arg-type]

    monkeypatch.setattr(flat, "view", counted)
    return walked


def test_a_settle_without_what_an_engine_may_omit_passes_without_a_walk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settle, bare = _settle()
    for line in bare.settlement.lines:
        assert line.clauses  # the corpus fills them, as the oracle does
        line.ClearField("clauses")
        line.ClearField("returned_exact")
    bare.state.legal_decisions.reverse()
    walked = _counting_views(monkeypatch)
    _judge(settle, bare)
    assert walked == []


def test_a_wrong_line_without_its_clauses_is_found_as_with_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settle, wrong = _settle()
    wrong.settlement.lines[0].returned.minor_units += 1
    with pytest.raises(_Divergence) as filled:
        _judge(settle, wrong)
    for line in wrong.settlement.lines:
        line.ClearField("clauses")
    walked = _counting_views(monkeypatch)
    with pytest.raises(_Divergence) as bare:
        _judge(settle, wrong)
    assert walked  # the difference is looked for in the views
    assert isinstance(settle.expected, engine_service_pb2.SettleResponse)
    line = settle.expected.settlement.lines[0]
    assert bare.value.details == filled.value.details
    assert bare.value.details["path"] == "settlement.lines[0].returned.minor_units"
    assert bare.value.details["expected"] == str(line.returned.minor_units)
    assert bare.value.details["actual"] == str(line.returned.minor_units + 1)
    # The rule that decided the line, as the oracle recorded it on the line itself.
    assert bare.value.details["clause"] in line.clauses
