"""One version everywhere, each vector's ``since``, and ``certify --baseline``.

``since`` is the suite version that added a vector or last changed what it expects of an
engine (vector.proto). The history facts below are read off the git history by hand: document
A's example A1 (bja-h001) had its cards reordered on 30 November (0.2.0), the seat key became
required for INSUFFICIENT_BALANCE (bab-h020) the same day, zero stakes (bja-h092) were first
asked then, and the campaigns are unchanged since the first corpus (0.1.0).
"""

from __future__ import annotations

import importlib.metadata
import json
import re
import tomllib
from html import unescape
from pathlib import Path

import pytest
from click.testing import CliRunner
from google.protobuf import json_format

from croupier import oracle
from croupier.conformance.cli import main
from croupier.conformance.reports.summary import SUITE_VERSION
from croupier.conformance.since import (
    Release,
    VersionError,
    expectations,
    freeze,
    newer,
    parse_version,
    read_releases,
    since,
)
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import LoadedVector, check_corpus, load_corpus
from croupier.oracle.profile import shipped_profile
from tests.conformance.support import NATURAL, REPO, Vectors, certify, read_report

CURRENT = oracle.__version__


@pytest.fixture(scope="module")
def corpus() -> list[LoadedVector]:
    return load_corpus()


def _vector(text: str) -> vector_pb2.Vector:
    return json_format.Parse(text, vector_pb2.Vector())


def _natural(**changes: str) -> vector_pb2.Vector:
    """Document A's example A1 as a bare vector."""
    vector = _vector(
        '{"id": "v1", "profileId": "blackjack-a", "level": "LEVEL_REQUIRED", "rounds": [{"deal": '
        '{"roundId": "r", "profileId": "blackjack-a", "tableId": "t", "currencyCode": "EUR", '
        '"shoe": {"cards": ["AS", "7H", "KD", "9C"]}}, "expectedErrorMetadata": []}]}'
    )
    for name, value in changes.items():
        setattr(vector, name, value)
    return vector


# --- versions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["0.2.0", "1.10.3", "10.0.0"])
def test_a_version_is_three_numbers(text: str) -> None:
    assert ".".join(map(str, parse_version(text))) == text


@pytest.mark.parametrize("text", ["0.2", "v0.2.0", "0.2.0-rc1", "01.2.0", "0.2.x", ""])
def test_anything_else_is_refused_by_name(text: str) -> None:
    with pytest.raises(VersionError, match=re.escape(repr(text))):
        parse_version(text)


def test_versions_compare_as_numbers_not_text() -> None:
    assert newer("0.10.0", "0.9.0")
    assert not newer("0.2.0", "0.2.0")
    assert not newer("0.1.0", "0.2.0")
    assert not newer("", "0.0.0")  # a vector of no version is never newer


def test_one_version_everywhere() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["dynamic"] == ["version"]
    assert pyproject["tool"]["hatch"]["version"]["path"] == "oracle/__init__.py"
    assert "version" not in pyproject["project"]
    installed = importlib.metadata.version("croupier")
    assert installed == CURRENT, f"the installed package says {installed}: run make venv"
    assert SUITE_VERSION == CURRENT
    result = CliRunner().invoke(main, ["--version"])
    # The build that runs follows the version (oracle/build.py).
    assert result.output == f"croupier {CURRENT} ({oracle.BUILD})\n"


def test_every_release_is_older_than_this_version_and_has_its_changes() -> None:
    releases = read_releases()
    assert [r.version for r in releases][:2] == ["0.1.0", "0.2.0"]
    assert all(parse_version(r.version) < parse_version(CURRENT) for r in releases)
    changes = (REPO / "docs" / "CHANGES.md").read_text(encoding="utf-8")
    for version in [*(r.version for r in releases), CURRENT]:
        assert re.search(rf"^## {re.escape(version)} ", changes, re.MULTILINE), version


# --- expectations and since -------------------------------------------------------------------


def test_what_describes_a_vector_is_not_an_expectation() -> None:
    plain = expectations(_natural())
    described = _natural(name="x/y", description="said otherwise", seed="s", since="0.1.0")
    described.clauses.append("BJ.nat-pays")
    described.citations["state.phase"].ids.append("BJ.deal")
    described.rounds[0].deal_citations["state"].ids.append("BJ.deal")
    assert expectations(described) == plain


@pytest.mark.parametrize(
    "change",
    [
        lambda v: setattr(v, "level", vector_pb2.LEVEL_RECOMMENDED),
        lambda v: v.rounds[0].deal.shoe.cards.__setitem__(0, "KD"),
        lambda v: v.rounds[0].expected_error_metadata.append("seat"),
        lambda v: setattr(v.rounds[0], "expected_error", "BET_OUT_OF_LIMITS"),
    ],
    ids=["level", "card", "metadata-key", "refusal"],
)
def test_what_an_engine_must_answer_is(change: object) -> None:
    vector = _natural()
    change(vector)  # type: ignore[operator]
    assert expectations(vector) != expectations(_natural())


def test_since_is_the_oldest_release_that_holds_the_vector_unchanged() -> None:
    now, before = expectations(_natural()), "0123456789abcdef"
    history = [
        Release(version="0.1.0", digests={"v1": now}),
        Release(version="0.2.0", digests={"v1": now}),
    ]
    assert since(_natural(), releases=history, current="0.3.0") == "0.1.0"
    changed = [Release(version="0.1.0", digests={"v1": before}), history[1]]
    assert since(_natural(), releases=changed, current="0.3.0") == "0.2.0"
    added = [Release(version="0.1.0", digests={}), history[1]]
    assert since(_natural(), releases=added, current="0.3.0") == "0.2.0"
    # Changed after the last release, even back to what an older one held: new again.
    back = [history[0], Release(version="0.2.0", digests={"v1": before})]
    assert since(_natural(), releases=back, current="0.3.0") == "0.3.0"
    assert since(_natural(), releases=[], current="0.3.0") == "0.3.0"


def test_a_frozen_release_is_read_back(tmp_path: Path) -> None:
    path = freeze([_natural()], "0.7.0", tmp_path)
    assert path == tmp_path / "0.7.0.txt"
    (release,) = read_releases(tmp_path)
    assert release == Release(version="0.7.0", digests={"v1": expectations(_natural())})
    assert since(_natural(), releases=[release], current="0.8.0") == "0.7.0"


def test_every_shipped_vector_is_stamped_with_its_version(corpus: list[LoadedVector]) -> None:
    known = {r.version for r in read_releases()} | {CURRENT}
    stale = [v.vector.id for v in corpus if v.vector.since != since(v.vector)]
    assert not stale, stale[:10]
    assert {v.vector.since for v in corpus} <= known
    dated = {v.vector.id: v.vector.since for v in corpus}
    assert dated["bja-h001"] == "0.2.0"
    # Changed in 0.2.0 (metadata keys required), then in 0.3.0 (their fixed values checked:
    # docs/CHANGES.md 0.3.0, "Vectors changed").
    assert (dated["bab-h020"], dated["bja-h092"]) == ("0.3.0",) * 2
    # Added in 0.3.0 (docs/CHANGES.md 0.3.0, "Vectors added").
    assert dated["bja-h300"] == "0.3.0"
    assert (dated["bja-g-0000"], dated["rou-g-0000"], dated["bja-h002"]) == ("0.1.0",) * 3


def test_vectors_check_refuses_a_wrong_since(corpus: list[LoadedVector]) -> None:
    loaded = next(v for v in corpus if v.vector.id == "bja-h001")
    vector = vector_pb2.Vector()
    vector.CopyFrom(loaded.vector)
    vector.since = "0.1.0"  # its cards changed in 0.2.0
    wrong = LoadedVector(vector=vector, path=loaded.path, line=loaded.line)
    problems = [p.message for p in check_corpus([wrong], shipped_profile)]
    assert "since 0.1.0, but its expectations date from 0.2.0 (make corpus stamps them)" in problems
    vector.ClearField("since")  # a lab's own vector has none: nothing to check
    assert not [p for p in check_corpus([wrong], shipped_profile) if "since" in p.message]
    # ... but every vector of the shipped corpus has one (vectors check of the shipped corpus).
    problems = [p.message for p in check_corpus([wrong], shipped_profile, stamped=True)]
    assert (
        "since (none), but its expectations date from 0.2.0 (make corpus stamps them)" in problems
    )


# --- certify --baseline -----------------------------------------------------------------------


def _copies(vectors: Vectors, tmp_path: Path) -> Path:
    """Three copies of the blackjack that pays 3:2: from 0.1.0, from 0.3.0, and of no version."""
    line = next(
        text
        for text in vectors.targeted.read_text(encoding="utf-8").splitlines()
        if f'"id":"{NATURAL.id}"' in text
    )
    out = []
    for vid, version in (("t-old", "0.1.0"), ("t-new", "0.3.0"), ("t-own", "")):
        data = json.loads(line)
        data["id"] = vid
        data["since"] = version
        out.append(json.dumps(data))
    path = tmp_path / "three.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def test_baseline_names_the_failures_of_newer_vectors(
    pays_even: str, vectors: Vectors, tmp_path: Path
) -> None:
    report, html = tmp_path / "r.jsonl", tmp_path / "r.html"
    result = certify(
        "--target", pays_even, "--vectors", _copies(vectors, tmp_path), "--baseline", "0.2.0",
        "--report", report, "--html", html,
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    line = (
        "baseline 0.2.0: 3 failures: 1 from vectors added or changed after 0.2.0 (0.3.0: 1; "
        "docs/CHANGES.md lists the changes), 1 from vectors 0.2.0 already had, 1 from vectors "
        "outside the suite's corpus"
    )
    assert line in result.output
    header, lines, trailer = read_report(report)
    assert header["baseline"] == "0.2.0"
    # Two engines that describe themselves alike still read apart: how each was reached.
    assert header["engine_command"] == f"--target {pays_even}"
    assert (lines["t-old"]["since"], lines["t-new"]["since"]) == ("0.1.0", "0.3.0")
    assert "since" not in lines["t-own"]
    assert trailer["baseline"] == {
        "version": "0.2.0",
        "summary": line,
        "newer": ["t-new"],
        "older": ["t-old"],
        "outside": ["t-own"],
    }
    page = html.read_text(encoding="utf-8")
    assert f'<p id="baseline">{line}<br>' in unescape(page)
    assert 'Added or changed after 0.2.0: <a href="#v-t-new">t-new</a>' in page
    assert f"<td>engine reached by</td><td>--target {pays_even}</td>" in unescape(page)


def test_every_failure_older_than_the_baseline_is_a_regression(
    pays_even: str, vectors: Vectors, tmp_path: Path
) -> None:
    result = certify(
        "--target", pays_even, "--vectors", _copies(vectors, tmp_path), "--baseline", "0.3.0"
    )  # fmt: skip
    assert (
        "baseline 0.3.0: 3 failures: 0 from vectors added or changed after 0.3.0, 2 from vectors "
        "0.3.0 already had, 1 from vectors outside the suite's corpus"
    ) in result.output


@pytest.mark.parametrize(
    ("baseline", "message"),
    [
        ("0.2", "--baseline: '0.2' is not a version X.Y.Z (such as 0.2.0)"),
        ("99.0.0", f"--baseline: 99.0.0 is newer than this suite's version {CURRENT}"),
    ],
)
def test_a_baseline_that_is_no_version_of_the_suite_is_a_usage_error(
    baseline: str, message: str
) -> None:
    result = certify("--target", "127.0.0.1:1", "--baseline", baseline)
    assert result.exit_code == 2, result.output
    assert message in result.output
