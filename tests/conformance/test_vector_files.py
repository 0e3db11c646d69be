"""A lab's vector file is read strictly: a vector certify cannot use is refused, by its place.

A vector that names no profile, or a call that expects nothing, would otherwise be played and
its fault charged to the engine (a conformant engine called NOT conformant), or let anything
pass. Each shape rule comes from ``vector.proto``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.conformance.cli import main
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import (
    CORPUS_DIR,
    LoadedVector,
    VectorFileError,
    dump_line,
    load_corpus,
    read_vectors,
    structure_problem,
)


@functools.cache
def _corpus() -> tuple[LoadedVector, ...]:
    """The shipped corpus, read once for the module (reading it takes seconds)."""
    return tuple(load_corpus(CORPUS_DIR))


def _corpus_vector(wanted: Callable[[vector_pb2.Vector], bool]) -> vector_pb2.Vector:
    return next(v.vector for v in _corpus() if wanted(v.vector))


def _two_steps(vector: vector_pb2.Vector) -> bool:
    return not vector.rounds[0].expected_error and len(vector.rounds[0].steps) >= 2


def _drop(field: str) -> Callable[[vector_pb2.Vector], None]:
    def change(vector: vector_pb2.Vector) -> None:
        vector.ClearField(field)  # type: ignore[arg-type]

    return change


def _round(change: Callable[[vector_pb2.VectorRound], None]) -> Callable[[vector_pb2.Vector], None]:
    return lambda vector: change(vector.rounds[0])


def _refuse_first_step(vround: vector_pb2.VectorRound) -> None:
    vround.expected_error = "ILLEGAL_DECISION"
    vround.steps[0].ClearField("expected_state")


CASES: list[tuple[str, Callable[[vector_pb2.Vector], None], str]] = [
    ("no id", _drop("id"), "no id"),
    ("no profile", _drop("profile_id"), "no profile_id"),
    ("no level", _drop("level"), "no level"),
    ("no round", _drop("rounds"), "no round"),
    ("no deal", _round(lambda r: r.ClearField("deal")), "round 0: no deal"),
    (
        "a deal that expects nothing",
        _round(lambda r: r.ClearField("expected_state")),
        "round 0: the deal expects neither a state nor an error",
    ),
    (
        "a step that expects nothing",
        _round(lambda r: r.steps[0].ClearField("expected_state")),
        "round 0: step 0 expects neither a state nor an error",
    ),
    (
        "a step with no decision",
        _round(lambda r: r.steps[1].ClearField("decision")),
        "round 0: step 1: no decision",
    ),
    (
        "a refused step before others",
        _round(_refuse_first_step),
        "round 0: step 0 is refused, so it must be the round's last call",
    ),
    (
        "a settle that expects nothing",
        _round(lambda r: r.ClearField("expected_settle")),
        "round 0: the settle expects neither an answer nor an error",
    ),
    (
        "an error no call is refused with",
        _round(lambda r: setattr(r, "expected_error", "SHOE_EXHAUSTED")),
        "round 0: expected_error SHOE_EXHAUSTED refuses no call",
    ),
]


@pytest.mark.parametrize(
    ("change", "said"), [(c, s) for _, c, s in CASES], ids=[n for n, *_ in CASES]
)
def test_an_unusable_vector_is_refused_by_file_line_and_reason(
    tmp_path: Path, change: Callable[[vector_pb2.Vector], None], said: str
) -> None:
    vector = vector_pb2.Vector()
    vector.CopyFrom(_corpus_vector(_two_steps))
    assert structure_problem(vector) == ""
    change(vector)
    assert structure_problem(vector) == said
    path = tmp_path / "lab.jsonl"
    good = _corpus_vector(lambda v: v.id != vector.id)
    path.write_text(dump_line(good) + "\n" + dump_line(vector) + "\n", encoding="utf-8")
    with pytest.raises(VectorFileError, match=r"lab\.jsonl:2\b") as refused:
        list(read_vectors(path))
    assert str(refused.value).endswith(f"not a usable Vector: {said}")


def test_every_shipped_vector_has_a_usable_shape() -> None:
    """The corpus itself, every refusal shape included (deal, decision and settle refused)."""
    vectors = _corpus()
    refused_at = {
        "deal": any(
            v.vector.rounds[-1].expected_error
            and not v.vector.rounds[-1].HasField("expected_state")
            for v in vectors
        ),
        "settle": any(
            v.vector.rounds[-1].expected_error
            and v.vector.rounds[-1].HasField("expected_state")
            and all(s.HasField("expected_state") for s in v.vector.rounds[-1].steps)
            for v in vectors
        ),
    }
    assert refused_at == {"deal": True, "settle": True}
    assert all(structure_problem(v.vector) == "" for v in vectors)


def _certify(*arguments: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        main, ["certify", "--target", "127.0.0.1:9", "--timeout", "0.5", *arguments]
    )
    return result.exit_code, " ".join(result.output.split())


def test_certify_refuses_a_file_that_is_not_utf8_before_any_call(tmp_path: Path) -> None:
    path = tmp_path / "latin.jsonl"
    path.write_bytes(b'{"id": "caf\xe9"}\n')
    code, output = _certify("--vectors", str(path))
    assert code == 2
    assert f"{path}:1: not UTF-8 text" in output


def test_certify_refuses_one_id_used_twice(tmp_path: Path) -> None:
    """Reports, known failures and reproduce commands name a vector by its id alone."""
    line = dump_line(_corpus_vector(_two_steps))
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(line + "\n", encoding="utf-8")
    second.write_text(line + "\n", encoding="utf-8")
    code, output = _certify("--vectors", str(first), "--vectors", str(second))
    assert code == 2
    assert "is already used at" in output
    assert f"{second}:1" in output
