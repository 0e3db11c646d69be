"""``croupier certify --profile-file``: a lab profile's corpus built, cached and certified.

The corpus is what ``croupier vectors build --profile FILE`` makes (shared refusals, targeted
rounds and refusals generated from the parameters, a campaign), cached by the profile's
digest, the suite version and the builder's; a whole run of it may say conformant for that
profile, and the reports name the file, its digest and what differs from the profile it
extends.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier import oracle
from croupier.conformance.cli import main
from croupier.conformance.labcorpus import (
    BUILDER,
    LAB_ROUNDS,
    Difference,
    build_vectors,
    differences,
    lab_corpus,
    profile_digest,
)
from croupier.conformance.vectors import read_vectors
from croupier.oracle.profile import load_profile_file

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
EZ = EXAMPLES / "ez-baccarat.toml"


def _serve(profile: Path) -> str:
    """The reference server, serving the lab profile beside the shipped ones."""
    return shlex.join([sys.executable, "-m", "croupier.conformance.cli", "serve", "--port", "0",
                       "--profile", str(profile)])  # fmt: skip


def _copy(tmp_path: Path, text: str, name: str = "lab.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_differences_are_the_parameters_the_file_changes() -> None:
    """ez-baccarat.toml extends baccarat-d: 8 decks like it, but no commission (0.05 there),
    the EZ rule, and 7 seats where the default takes 16."""
    found = differences(load_profile_file(EZ))
    assert found == (
        Difference(name="banker_commission", base="0.05", value="0"),
        Difference(name="no_commission", base="false", value="true"),
        Difference(name="max_seats", base="16", value="7"),
    )


def test_the_digest_follows_the_rules_not_the_words(tmp_path: Path) -> None:
    text = EZ.read_text(encoding="utf-8")
    same = _copy(tmp_path, "# a comment\n" + text.replace('title = "No', 'title = "Our no'))
    other = _copy(tmp_path, text.replace("value = 8,", "value = 6,"), "other.toml")
    assert load_profile_file(other).integer("decks") == 6
    digest = profile_digest(load_profile_file(EZ))
    assert profile_digest(load_profile_file(same)) == digest
    assert profile_digest(load_profile_file(other)) != digest
    assert len(digest) == 64


def test_the_corpus_is_built_once_then_read_from_the_cache(tmp_path: Path) -> None:
    said: list[str] = []
    first = lab_corpus(EZ, tmp_path, say=said.append)
    assert first.built
    assert len(said) == 1
    assert first.path.parent == tmp_path
    assert oracle.__version__ in first.path.name
    assert first.digest[:16] in first.path.name
    # Another builder makes other vectors of the same profile: its caches are not read.
    assert first.path.name.endswith(f"-{BUILDER}.binpb.gz")
    vectors = [v.vector for v in read_vectors(first.path)]
    campaign = [v for v in vectors if v.id[len("ez-baccarat-") :].isdigit()]
    assert len(campaign) == LAB_ROUNDS  # one baccarat round a vector
    kinds = {v.id[len("ez-baccarat-")] for v in vectors if v not in campaign}
    assert kinds == {"h", "t", "r"}  # shared refusals, targeted rounds, refusals
    assert {v.profile_id for v in vectors} == {"ez-baccarat"}
    again = lab_corpus(EZ, tmp_path, say=said.append)
    assert (again.built, again.path, len(said)) == (False, first.path, 1)
    # A cached file cut short is built again, not trusted.
    first.path.write_bytes(first.path.read_bytes()[:100])
    rebuilt = lab_corpus(EZ, tmp_path, say=said.append)
    assert rebuilt.built
    assert [v.vector for v in read_vectors(rebuilt.path)] == vectors


def _certify(tmp_path: Path, *arguments: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        main, ["certify", "--cache-dir", str(tmp_path / "cache"), *arguments]
    )
    return result.exit_code, " ".join(result.output.split())


def test_a_whole_lab_corpus_run_is_conformant_and_the_reports_name_the_profile(
    tmp_path: Path,
) -> None:
    report, page = tmp_path / "r.jsonl", tmp_path / "r.html"
    code, output = _certify(
        tmp_path, "--profile-file", str(EZ), "--launch", _serve(EZ), "--certify",
        "--report", str(report), "--html", str(page),
    )  # fmt: skip
    assert code == 0, output
    assert "certify: conformant" in output, output
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    header, trailer = lines[0], lines[-1]
    (lab,) = header["lab_profiles"]
    digest = profile_digest(load_profile_file(EZ))
    assert (lab["file"], lab["id"], lab["digest"], lab["extends"]) == (
        str(EZ),
        "ez-baccarat",
        digest,
        "baccarat-d",
    )
    assert {d["name"] for d in lab["differs"]} == {
        "banker_commission",
        "no_commission",
        "max_seats",
    }
    assert (trailer["conformant"], trailer["whole_corpus"]) == (True, True)
    assert trailer["corpus_vectors"] == len(build_vectors(load_profile_file(EZ)))
    html = page.read_text(encoding="utf-8")
    for shown in (str(EZ), digest, "differs from baccarat-d", "max_seats: 16 -&gt; 7"):
        assert shown in html, shown
    assert re.search(r'id="verdict" class="[^"]*">CONFORMANT<', html)


def test_a_filtered_lab_run_is_partial_and_the_reproduce_command_names_the_file(
    tmp_path: Path,
) -> None:
    report = tmp_path / "r.jsonl"
    code, output = _certify(
        tmp_path, "--profile-file", str(EZ), "--launch", _serve(EZ),
        "--vector", "ez-baccarat-000*", "--report", str(report),
    )  # fmt: skip
    assert code == 0, output
    assert "passed 10 of the 10 vectors selected" in output, output
    trailer = json.loads(report.read_text(encoding="utf-8").splitlines()[-1])
    assert (trailer["conformant"], trailer["whole_corpus"]) == (False, False)


def test_an_engine_that_plays_the_shipped_rules_is_not_conformant_to_the_lab_profile(
    tmp_path: Path,
) -> None:
    """The same profile id, but the shipped baccarat-d's rules: a commission, six decks."""
    plain = _copy(tmp_path, 'id = "ez-baccarat"\nextends = "baccarat-d"\n', "plain.toml")
    code, output = _certify(
        tmp_path, "--profile-file", str(EZ), "--launch", _serve(plain), "--certify", "--show", "1"
    )
    assert code == 1, output
    assert "certify: NOT conformant" in output, output


def test_explore_after_a_lab_corpus_draws_rounds_of_the_lab_profile(tmp_path: Path) -> None:
    """The EZ rule played wrong (a commission, no push) is found by the explored rounds too."""
    report = tmp_path / "r.jsonl"
    code, output = _certify(
        tmp_path, "--profile-file", str(EZ), "--launch", _serve(EZ), "--vector", "ez-baccarat-0000",
        "--explore", "20", "--explore-out", str(tmp_path / "found.jsonl"), "--report", str(report),
    )  # fmt: skip
    assert code == 0, output
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    explored = [line for line in lines if line.get("id") == "explore/ez-baccarat"]
    assert len(explored) == 1, lines
    assert explored[0]["outcome"] == "PASS"
    # The budget is in rounds: the last vector drawn holds no more than are left.
    played = re.search(r"(\d+) explored rounds", explored[0]["message"])
    assert played is not None, explored[0]["message"]
    assert int(played.group(1)) == 20


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (("--vectors", "VECTORS"), "give --vectors or --profile-file, not both"),
        (("--profile-file", "SHIPPED"), "is a shipped profile's"),
        (("--profile-file", "BAD"), "decks"),
    ],
    ids=["with-vectors", "shipped-id", "bad-profile"],
)
def test_a_lab_profile_run_that_cannot_be_played_exits_2_before_any_call(
    tmp_path: Path, arguments: tuple[str, ...], said: str
) -> None:
    files = {
        "VECTORS": str(_copy(tmp_path, "", "empty.jsonl")),
        "SHIPPED": str(_copy(tmp_path, 'id = "baccarat-d"\nextends = "baccarat-d"\n', "s.toml")),
        "BAD": str(_copy(tmp_path, 'id = "x"\nextends = "baccarat-d"\n'
                     '[parameters]\ndecks = { value = 0, clauses = ["D.decks"], '
                     'status = "documented" }\n', "bad.toml")),
    }  # fmt: skip
    given = [files.get(a, a) for a in arguments]
    if "--vectors" in given:
        given = ["--profile-file", str(EZ), *given]
    code, output = _certify(tmp_path, *given, "--target", "127.0.0.1:9", "--timeout", "0.5")
    assert code == 2, output
    assert said in output, output
