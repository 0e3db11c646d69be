"""The certification HTML page: made from JSON Lines reports by hand, and end to end."""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.conformance.cli import main
from croupier.conformance.reports.html import clause_text as clause_text_module
from croupier.conformance.reports.html.certificate import (
    NO_CLAUSE,
    ReportFileError,
    parse_records,
    read_records,
    render,
)
from croupier.conformance.reports.html.clause_text import (
    POINTER,
    clause_html,
    clause_text,
    clause_texts,
    clauses,
    parse_rules,
    rules_markdown,
)
from croupier.conformance.vectors import CORPUS_DIR, dump_line, read_vectors
from croupier.conformance.zoo import launch_command
from croupier.oracle.clauses import CLAUSES, CONTRACT
from tests.conformance.support import certify, free_port, read_report

HOSTILE = '<script>alert("x")</script>'

HEADER = {
    "suite_version": "1.0.0",
    "corpus_hash": "ab" * 32,
    "engine": {"name": "acme", "version": "2.1", "profileIds": ["blackjack-a", "roulette-c"]},
    "time": "2026-12-01T03:00:00+00:00",
    "certify": True,
    "host": "lab",
}
PASSING = (
    {
        "id": "bja-h002",
        "name": "blackjack-a/even-money/taken",
        "profile": "blackjack-a",
        "level": "LEVEL_REQUIRED",
        "outcome": "PASS",
        "seconds": 0.01,
        "clauses": ["BJ.natural", "A.even-money"],
    },
    {
        "id": "rou-1",
        "name": "roulette-c/one",
        "profile": "roulette-c",
        "level": "LEVEL_REQUIRED",
        "outcome": "PASS",
        "seconds": 0.01,
        "clauses": ["C.rou.wheel"],
    },
    {
        "id": "bac-1",
        "name": "baccarat-b/one",
        "profile": "baccarat-b",
        "level": "LEVEL_REQUIRED",
        "outcome": "NOT_APPLICABLE",
        "seconds": 0.0,
        "clauses": ["BAC.values"],
    },
)
FAILING = {
    "id": "bja-h001",
    "name": "blackjack-a/natural/example-a1",
    "profile": "blackjack-a",
    "level": "LEVEL_REQUIRED",
    "outcome": "FAIL",
    "seconds": 0.02,
    "step": "round 0 settle",
    "clause": "BJ.nat-pays",
    "path": "settlement.lines[0].returned.minor_units",
    "expected": "250",
    "actual": "220",
    "message": "settlement.lines[0].returned.minor_units: expected 250, got 220",
    "reproduce": "croupier certify --launch 'x' --vector bja-h001",
    "clauses": ["BJ.natural", "BJ.nat-pays", "A.nat-immediate"],
    "hand_written": True,
    "inputs": {
        "round": 0,
        "profile": "blackjack-a",
        "table": "t",
        "currency": "EUR",
        "seats": [{"balance": 1000, "bets": [{"bet": "hand", "stake": 100}]}],
        "dealt": "AS 7H KD",
        "table_state": ["dealer: 7H  (hole card not shown)", "seat 0 hand 0: AS KD"],
        "decisions": [],
    },
}


def _trailer(*, conformant: bool, complete: bool = True) -> dict[str, object]:
    return {
        "summary": "certify: ...",
        "complete": complete,
        "conformant": conformant,
        "passed": conformant,
        "waived": 0,
        "counts": {},
        "unmatched_known_failures": [],
    }


def _lines(*records: object) -> list[str]:
    return [json.dumps(r) for r in records]


@dataclass
class _Node:
    tag: str
    attrs: dict[str, str]
    text: str = ""
    children: list[_Node] = field(default_factory=list)

    def find(self, tag: str, cls: str = "") -> list[_Node]:
        """Descendants with this tag (and class)."""
        found = []
        for child in self.children:
            if child.tag == tag and (not cls or cls in child.attrs.get("class", "").split()):
                found.append(child)
            found.extend(child.find(tag, cls))
        return found

    def links(self) -> dict[str, str]:
        return {a.attrs["href"]: a.text for a in self.find("a")}


_VOID = frozenset({"br", "meta", "link", "img", "input", "hr"})


class _Tree(HTMLParser):
    """Elements by id, elements by class, and each element's text, from the parsed page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.stack: list[_Node] = []
        self.by_id: dict[str, _Node] = {}
        self.by_class: dict[str, list[_Node]] = {}
        self.scripts = 0
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.scripts += tag == "script"
        if tag in _VOID:
            return
        node = _Node(tag, {k: v or "" for k, v in attrs})
        if self.stack:
            self.stack[-1].children.append(node)
        if "id" in node.attrs:
            self.by_id[node.attrs["id"]] = node
        for cls in node.attrs.get("class", "").split():
            self.by_class.setdefault(cls, []).append(node)
        self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        node = self.stack.pop()
        assert node.tag == tag, (node.tag, tag)

    def handle_data(self, data: str) -> None:
        for node in self.stack:
            node.text += data


def _page(*records: object) -> _Tree:
    return _Tree(render(parse_records(_lines(*records))))


def test_a_passing_run_says_conformant_with_engine_and_matrix() -> None:
    tree = _page(HEADER, *PASSING, _trailer(conformant=True))
    assert tree.stack == []  # every element closed
    assert tree.scripts == 0
    assert tree.by_id["verdict"].text == "CONFORMANT"
    engine = tree.by_id["engine"].text
    assert "acme" in engine
    assert "2.1" in engine
    assert "blackjack-a, roulette-c" in engine
    run = tree.by_id["run"].text
    assert "ab" * 32 in run
    assert "2026-12-01T03:00:00+00:00" in run
    matrix = tree.by_id["matrix"]
    columns = [h.text for h in matrix.find("th") if h.attrs.get("scope") == "col"]
    assert columns == ["baccarat-b", "blackjack-a", "roulette-c"]
    rows = [h for h in matrix.find("th") if h.attrs.get("scope") == "row"]
    assert [r.find("a")[0].text for r in rows] == [
        "BJ.natural",
        "A.even-money",
        "BAC.values",
        "C.rou.wheel",
    ]
    links = matrix.links()
    assert links["#cell-BJ.natural-blackjack-a"] == "1 pass"
    assert links["#cell-BAC.values-baccarat-b"] == "1 n/a"
    # Every cell link leads to its list of vectors.
    for href in links:
        if href.startswith("#cell-"):
            assert href[1:] in tree.by_id
    assert "failure" not in tree.by_class


def test_a_failure_shows_expected_actual_clause_text_and_reproduce() -> None:
    tree = _page(HEADER, PASSING[0], FAILING, _trailer(conformant=False))
    assert tree.by_id["verdict"].text == "NOT CONFORMANT"
    (failure,) = tree.by_class["failure"]
    assert failure.attrs["id"] == "v-bja-h001"
    # Amounts in the round's currency, the minor units the report holds in the tooltip.
    (expected,) = failure.find("pre", "expected")
    (actual,) = failure.find("pre", "actual")
    assert (expected.text, expected.attrs["title"]) == ("2.50 EUR", "250 minor units")
    assert (actual.text, actual.attrs["title"]) == ("2.20 EUR", "220 minor units")
    # The clause's text is quoted once, in the summary under the verdict, not per failure.
    assert not failure.find("div", "clause-text")
    (row,) = tree.by_id["summary"].find("tr", "failing-clause")
    (quoted,) = row.find("div", "clause-text")
    assert "A player blackjack wins 3:2" in quoted.text
    assert [q.attrs["data-clause"] for q in tree.by_class["clause-text"]].count("BJ.nat-pays") == 1
    assert row.links() == {"#failures-BJ.nat-pays": "1 failure", "#v-bja-h001": "bja-h001"}
    (inputs,) = failure.find("div", "inputs")
    assert "round 0 at table t" in " ".join(inputs.text.split())
    # Balance and stake in their currency; the cards as dealt.
    assert "10.00 EUR" in inputs.text
    assert "hand 1.00 EUR" in inputs.text
    assert "AS 7H KD" in inputs.text
    (reproduce,) = failure.find("pre", "reproduce")
    assert reproduce.text == FAILING["reproduce"]
    assert "round 0 settle" in failure.text
    assert str(FAILING["path"]) in failure.text
    # Failed under the blamed clause; stopped under the others it lists.
    links = tree.by_id["matrix"].links()
    assert links["#cell-BJ.nat-pays-blackjack-a"] == "1 fail"
    assert links["#cell-BJ.natural-blackjack-a"] == "1 pass 1 stopped"
    assert links["#cell-A.nat-immediate-blackjack-a"] == "1 stopped"
    # The cell's list links to the failure.
    cell = tree.by_id["cell-BJ.nat-pays-blackjack-a"]
    assert [a.attrs["href"] for a in cell.find("a")] == ["#v-bja-h001"]


def test_old_lines_without_clauses_count_under_the_blamed_clause_or_none() -> None:
    old_pass = {k: v for k, v in PASSING[0].items() if k != "clauses"}
    old_fail = {k: v for k, v in FAILING.items() if k != "clauses"}
    tree = _page(HEADER, old_pass, old_fail, _trailer(conformant=False))
    links = tree.by_id["matrix"].links()
    assert links == {
        "#cell-BJ.nat-pays-blackjack-a": "1 fail",
        "#cell-_none_-blackjack-a": "1 pass",
        # A failing clause's row leads to its text in the summary.
        "#summary-BJ.nat-pays": "BJ.nat-pays",
        "#clause-_none_": NO_CLAUSE,
    }


def test_everything_from_the_report_is_escaped() -> None:
    header = {**HEADER, "engine": {"name": HOSTILE, "version": HOSTILE, "profileIds": [HOSTILE]}}
    failing = {
        **FAILING,
        "expected": HOSTILE,
        "actual": f'"><img src=x onerror=alert(1)>{HOSTILE}',
        "profile": HOSTILE,
        "name": HOSTILE,
        "clause": HOSTILE,
        "clauses": [HOSTILE],
        "id": 'x" onclick="alert(1)',
    }
    text = render(parse_records(_lines(header, failing, _trailer(conformant=False))))
    tree = _Tree(text)
    assert tree.scripts == 0
    assert "<script>" not in text
    assert "<img" not in text
    assert "onclick=" not in text.replace("onclick=&quot;", "")
    (failure,) = tree.by_class["failure"]
    assert [p.text for p in failure.find("pre", "expected")] == [HOSTILE]
    assert HOSTILE in tree.by_id["engine"].text


def test_a_run_without_its_last_line_or_not_complete_is_incomplete() -> None:
    for records in (
        (HEADER, *PASSING),
        (HEADER, *PASSING, _trailer(conformant=False, complete=False)),
    ):
        tree = _page(*records)
        assert tree.by_id["verdict"].text == "INCOMPLETE"
        assert "matrix" in tree.by_id


def test_a_file_that_is_no_report_is_refused(tmp_path: Path) -> None:
    for text in ("not json\n", "[1]\n", '{"x": 1}\n', ""):
        path = tmp_path / "bad.jsonl"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ReportFileError, match=r"bad\.jsonl"):
            read_records(path)
    result = CliRunner().invoke(main, ["report", "html", str(path)])
    assert result.exit_code == 2


def test_every_clause_has_its_rules_text() -> None:
    markdown = rules_markdown()
    assert markdown is not None
    parsed = parse_rules(markdown)
    for entry in CLAUSES:
        assert parsed.get(entry.id), entry.id
    texts = clause_texts()
    for cid in (*(c.id for c in CLAUSES), *CONTRACT):
        assert texts[cid], cid
    assert clause_text("BJ.nat-pays").startswith("A player blackjack wins 3:2")
    # The one contract label RULES.md defines (its contract additions) has its text there.
    assert clause_text("CONTRACT.recovery").startswith("An engine that claims recovery")
    # Two clauses in one bullet each get their own text; bold that is no clause stays text.
    assert clause_text("B.decks") == "Eight decks."
    assert clause_text("B.limits").startswith("Bets within the table limits")
    assert "**" not in clause_text("C.bj.insurance")
    assert "neither double" in clause_text("C.bj.insurance")


def test_certify_html_and_report_html_make_the_same_bytes(tmp_path: Path) -> None:
    """A mutant that pays blackjacks 6:5: the page from certify and the later one match."""
    # A ``*.hand.*`` file: its vectors are hand-written, as the corpus's hand files are.
    subset = tmp_path / "subset.hand.jsonl"
    lines = [dump_line(v.vector) for v in read_vectors(CORPUS_DIR / "blackjack-a.hand.binpb.gz")]
    subset.write_text("\n".join(lines[:4]) + "\n", encoding="utf-8")
    page, jsonl, again = tmp_path / "out.html", tmp_path / "out.jsonl", tmp_path / "again.html"
    launch = launch_command("blackjack-pays-6-5")
    result = certify("--launch", launch, "--vectors", subset, "--html", page, "--report", jsonl)
    assert result.exit_code == 1, result.output
    _, vectors, _ = read_report(jsonl)
    assert vectors["bja-h001"]["clauses"]
    later = CliRunner().invoke(main, ["report", "html", str(jsonl), "-o", str(again)])
    assert later.exit_code == 0, later.output
    assert page.read_bytes() == again.read_bytes()
    tree = _Tree(page.read_text(encoding="utf-8"))
    assert tree.by_id["verdict"].text == "NOT CONFORMANT"
    assert "v-bja-h001" in tree.by_id
    assert "hand-written" in tree.by_id["v-bja-h001"].text
    assert "A player blackjack wins 3:2" in tree.by_id["summary"].text


def test_without_rules_md_a_clause_falls_back_to_its_title(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clause_text_module, "document", lambda name: None)
    clauses.cache_clear()
    try:
        assert clause_text_module.rules_markdown() is None
        assert clause_text("BJ.nat-pays") == "A blackjack pays 3:2 unless the dealer has one too"
    finally:
        clauses.cache_clear()


def test_a_run_without_an_engine_still_writes_its_page_and_no_scratch_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --report the JSONL is a temporary file, gone once the page is made."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    page = tmp_path / "out.html"
    subset = tmp_path / "subset.jsonl"
    first = dump_line(next(read_vectors(CORPUS_DIR / "blackjack-a.hand.binpb.gz")).vector)
    subset.write_text(first + "\n", encoding="utf-8")
    result = certify(
        "--target",
        f"127.0.0.1:{free_port()}",
        "--vectors",
        subset,
        "--html",
        page,
        "--timeout",
        "1",
    )
    assert result.exit_code == 3, result.output
    assert _Tree(page.read_text(encoding="utf-8")).by_id["verdict"].text == "INCOMPLETE"
    assert list(scratch.iterdir()) == []


def test_no_clause_text_is_a_mere_back_reference() -> None:
    """A clause whose words point at a table ("table above") carries that table whole."""
    found = clauses()
    pointing = [cid for cid, c in found.items() if POINTER.search(c.text)]
    # RULES.md: B.tableau reads "as printed (table above)", BAC.banker-tableau "per the
    # tableau of each profile below"; both mean the banker's tableau after BAC.outcome.
    assert set(pointing) >= {"B.tableau", "BAC.banker-tableau"}
    for cid in pointing:
        assert found[cid].tables, cid
    (tableau,) = found["B.tableau"].tables
    assert tableau.header[0] == "banker total"
    # Document B's row for a banker total of 4: draws unless the third card is 8, 9 or a ten.
    assert ("4", "2-7", "8, 9, 10-valued (so draws on A, 2-7)") in tableau.rows
    assert any("omits the ace" in note for note in tableau.notes)
    # C.rou.wheel's table of bets follows its bullet, and nothing points at it.
    (bets,) = found["C.rou.wheel"].tables
    assert ("straight (plein)", "one number, 0 included", "35:1") in bets.rows
    # The page quotes the table whole, and says where it is: under the words.
    quoted = clause_html("B.tableau")
    assert "<table>" in quoted
    assert "table above" not in quoted
    assert "table below" in quoted
    for cid, text in clause_texts().items():
        # Every other quote says something of its own, beyond where to look.
        assert len(POINTER.sub("", text).split()) >= 2 or found[cid].tables, cid
