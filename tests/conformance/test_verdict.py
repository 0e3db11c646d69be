"""Only a run of the whole corpus, for every profile the engine claims, may say "conformant".

An engine that claims one profile (roulette-c, the smallest part of the shipped corpus) is
certified on the shipped corpus: played whole, every report says conformant; filtered to a
part, no report says it, and each says what it ran instead. The reports read are the console,
the JSON Lines trailer, the JUnit properties and the HTML certificate.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from click.testing import Result as CliResult

from croupier.conformance.vectors import CORPUS_DIR, dump_line, read_vectors
from tests.conformance.engines import command
from tests.conformance.support import certify, read_report, start_engine, summary

CLAIMED = "roulette-c"


@pytest.fixture(scope="module")
def roulette_only() -> Iterator[str]:
    """The reference rules, claiming roulette-c alone."""
    engine = start_engine(shlex.split(command("--claim", CLAIMED)))
    yield engine.address
    engine.stop()


def _lines(pattern: str) -> list[str]:
    """The shipped corpus's vectors in the files matching ``pattern``, as JSON lines."""
    return [
        dump_line(v.vector) for path in sorted(CORPUS_DIR.glob(pattern)) for v in read_vectors(path)
    ]


@pytest.fixture(scope="module")
def claimed_count() -> int:
    return len(_lines(f"{CLAIMED}.*"))


@pytest.fixture(scope="module")
def spanning_count() -> int:
    """The claimed profile's vectors that also deal under profiles the engine does not claim
    (other_profile_ids): not applicable to it, yet part of the corpus a whole run covers."""
    return sum(
        1
        for path in sorted(CORPUS_DIR.glob(f"{CLAIMED}.*"))
        for v in read_vectors(path)
        if v.vector.other_profile_ids
    )


class _Verdict(HTMLParser):
    """The text of the certificate's ``#verdict`` element."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.inside = self.inside or ("id", "verdict") in attrs

    def handle_endtag(self, tag: str) -> None:
        self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.text += data


def _reports(tmp_path: Path, name: str) -> tuple[Path, Path, Path]:
    return tmp_path / f"{name}.jsonl", tmp_path / f"{name}.xml", tmp_path / f"{name}.html"


def _run(target: str, tmp_path: Path, name: str, *args: str) -> tuple[CliResult, dict[str, object]]:
    jsonl, junit, html = _reports(tmp_path, name)
    result = certify(
        "--target", target, "--report", jsonl, "--junit", junit, "--html", html, *args
    )  # fmt: skip
    _, _, trailer = read_report(jsonl)
    return result, trailer


def _junit(path: Path) -> dict[str, str]:
    """The verdict properties of the JUnit report (every suite carries the same)."""
    root = ET.parse(path).getroot()  # noqa: S314 - our own report
    found = {
        (prop.get("name"), prop.get("value"))
        for suite in root.findall("testsuite")
        for prop in suite.iter("property")
    }
    return {str(name): str(value) for name, value in found}


def _verdict_word(path: Path) -> str:
    parser = _Verdict()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.text.strip()


def test_a_whole_run_says_conformant_in_every_report(
    roulette_only: str, claimed_count: int, spanning_count: int, tmp_path: Path
) -> None:
    result, trailer = _run(roulette_only, tmp_path, "whole", "--certify")
    assert result.exit_code == 0, result.output
    mode, verdict, total, counts = summary(result.output)
    assert (mode, verdict) == ("certify", "conformant")
    assert spanning_count > 0
    assert counts["PASS"] == claimed_count - spanning_count
    assert total == len(_lines("*"))  # the other profiles' vectors are not applicable
    assert (trailer["conformant"], trailer["whole_corpus"]) == (True, True)
    assert trailer["corpus_vectors"] == claimed_count
    _, junit, html = _reports(tmp_path, "whole")
    props = _junit(junit)
    assert props["croupier.conformant"] == "true"
    assert props["croupier.summary"].startswith("certify: conformant: ")
    assert _verdict_word(html) == "CONFORMANT"


def test_a_profile_filter_that_keeps_every_claimed_profile_is_whole(
    roulette_only: str, tmp_path: Path
) -> None:
    # The engine claims roulette-c alone: --profile roulette-c leaves out nothing it claims.
    result, trailer = _run(roulette_only, tmp_path, "profile", "--profile", CLAIMED)
    assert result.exit_code == 0, result.output
    assert summary(result.output)[:2] == ("run", "conformant")
    assert trailer["conformant"] is True


def _assert_never_conformant(
    result: CliResult, trailer: dict[str, object], paths: tuple[Path, ...]
) -> None:
    """No report of this run says "conformant", in any case, and none sets the field."""
    assert "conformant" not in result.output.lower(), result.output
    assert trailer["conformant"] is False
    assert trailer["whole_corpus"] is False
    assert "conformant" not in str(trailer["summary"]).lower()
    _, junit, html = paths
    props = _junit(junit)
    assert props["croupier.conformant"] == "false"
    assert "conformant" not in props["croupier.summary"].lower()
    assert _verdict_word(html) == "PARTIAL RUN"
    assert "conformant" not in html.read_text(encoding="utf-8").lower()


def test_a_filtered_certify_says_what_it_ran_and_never_conformant(
    roulette_only: str, claimed_count: int, tmp_path: Path
) -> None:
    result, trailer = _run(roulette_only, tmp_path, "filtered", "--vector", "rou-h001")
    assert result.exit_code == 0, result.output
    _assert_never_conformant(result, trailer, _reports(tmp_path, "filtered"))
    line = next(text for text in result.output.splitlines() if text.startswith("run: "))
    assert re.fullmatch(
        r"run: passed 1 of the 1 vector selected \(1 pass\) in \d+\.\d s; the corpus holds "
        rf"{claimed_count} vectors for the engine's profiles: a partial run, no verdict",
        line,
    ), line
    assert trailer["summary"] == line


def test_a_profile_filter_that_leaves_out_a_claimed_profile_is_partial(
    reference: str, tmp_path: Path
) -> None:
    # The reference claims every profile: roulette-c alone is a part of what it must pass.
    result, trailer = _run(reference, tmp_path, "part", "--profile", CLAIMED)
    assert result.exit_code == 0, result.output
    _assert_never_conformant(result, trailer, _reports(tmp_path, "part"))
    assert re.search(r"run: passed (\d+) of the \1 vectors selected", result.output), result.output


def test_own_vector_files_are_never_conformant(roulette_only: str, tmp_path: Path) -> None:
    # A copy of one shipped vector, as a lab's own file.
    own = tmp_path / "lab-vectors.jsonl"  # not own.jsonl: that is the run's report
    (line,) = [text for text in _lines(f"{CLAIMED}.hand.*") if '"id":"rou-h001"' in text]
    own.write_text(line + "\n", encoding="utf-8")
    result, trailer = _run(roulette_only, tmp_path, "own", "--vectors", str(own), "--certify")
    assert result.exit_code == 0, result.output
    _assert_never_conformant(result, trailer, _reports(tmp_path, "own"))
    assert "certify: passed 1 of the 1 vector selected (1 pass)" in result.output
    assert "vector files other than the shipped corpus: a partial run, no verdict" in result.output
    assert trailer["corpus_vectors"] is None
    assert trailer["passed"] is True
