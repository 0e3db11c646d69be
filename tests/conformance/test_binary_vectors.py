"""The binary vector file (vector.proto's VectorFile, gzipped): the same vectors, kept small.

The shipped corpus is kept binary; a lab's JSON Lines files are read as before, and
``croupier vectors show`` and ``export`` give any vector's JSON form back.
"""

from __future__ import annotations

import functools
import gzip
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from google.protobuf import json_format

from croupier.conformance.cli import main
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import (
    BINARY,
    CORPUS_DIR,
    LoadedVector,
    VectorFileError,
    corpus_files,
    corpus_hash,
    dump_line,
    load_vectors,
    read_vectors,
    vectors_hash,
    write_vectors,
)


@functools.cache
def _hand(profile_id: str = "blackjack-a") -> tuple[LoadedVector, ...]:
    return tuple(read_vectors(CORPUS_DIR / f"{profile_id}.hand{BINARY}"))


def _wire(vectors: object) -> list[bytes]:
    return [v.SerializeToString(deterministic=True) for v in vectors]  # type: ignore[attr-defined]


def test_the_shipped_corpus_is_binary_and_every_file_holds_vectors() -> None:
    files = corpus_files(CORPUS_DIR)
    assert files
    assert all(f.name.endswith(BINARY) for f in files)
    # Each file is one gzipped VectorFile, readable with gzip and the schema alone.
    for path in files:
        listed = vector_pb2.VectorFile.FromString(gzip.decompress(path.read_bytes()))
        assert listed.vectors, path.name
        assert all(v.profile_id == path.name.split(".")[0] for v in listed.vectors)


def test_binary_and_json_lines_hold_the_same_vectors(tmp_path: Path) -> None:
    vectors = [v.vector for v in _hand()]
    binary, jsonl = tmp_path / f"v{BINARY}", tmp_path / "v.jsonl"
    assert write_vectors(binary, vectors) == len(vectors)
    assert write_vectors(jsonl, vectors) == len(vectors)
    from_binary = list(read_vectors(binary))
    assert _wire(v.vector for v in from_binary) == _wire(vectors)
    assert _wire(v.vector for v in read_vectors(jsonl)) == _wire(vectors)
    # A binary file's "line" is the vector's position, from 1.
    assert [v.line for v in from_binary] == list(range(1, len(vectors) + 1))
    assert binary.stat().st_size * 5 < jsonl.stat().st_size


def test_writing_the_same_vectors_twice_gives_the_same_bytes(tmp_path: Path) -> None:
    """``make corpus`` stays deterministic: no time in the gzip header, map keys sorted."""
    vectors = [v.vector for v in _hand()]
    first, second = tmp_path / f"a{BINARY}", tmp_path / f"b{BINARY}"
    write_vectors(first, vectors)
    write_vectors(second, reversed(list(reversed(vectors))))
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes()[4:8] == b"\x00\x00\x00\x00"  # gzip MTIME


def test_a_binary_vector_of_an_unusable_shape_is_refused_by_position(tmp_path: Path) -> None:
    good, bad = (vector_pb2.Vector(), vector_pb2.Vector())
    good.CopyFrom(_hand()[0].vector)
    bad.CopyFrom(_hand()[1].vector)
    bad.ClearField("level")
    path = tmp_path / f"lab{BINARY}"
    write_vectors(path, [good, bad])
    with pytest.raises(VectorFileError, match=rf"lab\.binpb\.gz:2 \({bad.id}\)") as refused:
        list(read_vectors(path))
    assert str(refused.value).endswith("not a usable Vector: no level")


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"not gzip at all", "not a gzip file"),
        (gzip.compress(b"\xff\xff\xff", mtime=0), "not a VectorFile"),
        (gzip.compress(b"")[:12], "not a gzip file"),
    ],
    ids=["not-gzip", "not-protobuf", "cut-short"],
)
def test_a_binary_file_that_does_not_decode_is_refused(
    tmp_path: Path, content: bytes, said: str
) -> None:
    path = tmp_path / f"broken{BINARY}"
    path.write_bytes(content)
    with pytest.raises(VectorFileError, match=said) as refused:
        list(read_vectors(path))
    assert str(path) in str(refused.value)
    result = CliRunner().invoke(main, ["certify", "--target", "127.0.0.1:9", "--vectors", path])
    assert result.exit_code == 2
    assert said in " ".join(result.output.split())


def test_the_digest_is_of_the_vectors_not_of_the_deflate_bytes(tmp_path: Path) -> None:
    """A corpus copy, even compressed otherwise, is recognised as the shipped corpus."""
    copy = tmp_path / "copy"
    shutil.copytree(CORPUS_DIR, copy)
    assert corpus_hash(copy) == corpus_hash(CORPUS_DIR) == vectors_hash(())
    assert vectors_hash((copy,)) == corpus_hash(CORPUS_DIR)
    one = copy / f"roulette-c.hand{BINARY}"
    one.write_bytes(gzip.compress(gzip.decompress(one.read_bytes()), compresslevel=1))
    assert corpus_hash(copy) == corpus_hash(CORPUS_DIR)
    # One vector fewer is another corpus.
    write_vectors(one, [v.vector for v in list(read_vectors(one))[1:]])
    assert corpus_hash(copy) != corpus_hash(CORPUS_DIR)


def test_load_vectors_reads_files_and_directories_of_both_forms(tmp_path: Path) -> None:
    hand = [v.vector for v in _hand()]
    write_vectors(tmp_path / "a.jsonl", hand[:3])
    write_vectors(tmp_path / f"b{BINARY}", hand[3:5])
    (tmp_path / "notes.txt").write_text("not a vector file\n", encoding="utf-8")
    from_dir = load_vectors((tmp_path,))
    assert [v.vector.id for v in from_dir] == [v.id for v in hand[:5]]
    assert [v.vector.id for v in load_vectors((tmp_path / f"b{BINARY}",))] == [
        v.id for v in hand[3:5]
    ]


def _invoke(*arguments: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(arguments))
    return result.exit_code, result.stdout


def test_vectors_show_prints_the_vectors_json(tmp_path: Path) -> None:
    wanted = _hand()[2].vector
    code, out = _invoke("vectors", "show", wanted.id)
    assert code == 0
    shown = json_format.ParseDict(json.loads(out), vector_pb2.Vector())
    assert _wire([shown]) == _wire([wanted])
    code, _ = _invoke("vectors", "show", "no-such-vector-*")
    assert code == 2


def test_vectors_export_writes_what_certify_reads_back(tmp_path: Path) -> None:
    source = tmp_path / f"hand{BINARY}"
    write_vectors(source, [v.vector for v in _hand("roulette-c")])
    code, out = _invoke("vectors", "export", "--vectors", str(source))
    assert code == 0
    lines = out.splitlines()
    assert lines == [dump_line(v.vector) for v in _hand("roulette-c")]
    target = tmp_path / "exported.jsonl"
    assert _invoke("vectors", "export", "--vectors", str(source), "--out", str(target))[0] == 0
    assert _wire(v.vector for v in read_vectors(target)) == _wire(
        v.vector for v in _hand("roulette-c")
    )
