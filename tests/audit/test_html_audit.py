"""``croupier audit verify --html``: one offline page, read back structurally (issue 16)."""

from __future__ import annotations

import copy
import hashlib
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier import oracle
from croupier.conformance.audit.fairness import BAND, BASIC_STRATEGY_NOTE
from croupier.conformance.reports.html.clause_text import clause_text
from croupier.conformance.reports.html.svg import Cell, Whisker, bars_expected, dot_whisker
from croupier.oracle.basic_strategy import strategy_return
from croupier.oracle.money import money_text
from croupier.oracle.profile import shipped_profile
from croupier.oracle.returns import percent
from croupier.oracle.rounds import Round
from croupier.oracle.shoe import seeded_spins
from croupier.v1 import round_pb2
from tests.audit.rounds import RED, STRAIGHT, blackjack_rounds, roulette_rounds, write_rounds
from tests.audit.support import dump_line, invoke, read_lines, write_lines

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>alert("x")</script>'
#: Elements without an end tag.
VOID = frozenset({"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr"})


# --- reading the page back ----------------------------------------------------------------------


class _Tree(HTMLParser):
    """The page as an ElementTree: what a browser would build, enough for these tests."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = ET.Element("document")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = ET.SubElement(self.stack[-1], tag, {k: v or "" for k, v in attrs})
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        ET.SubElement(self.stack[-1], tag, {k: v or "" for k, v in attrs})

    def handle_endtag(self, tag: str) -> None:
        assert self.stack[-1].tag == tag, (self.stack[-1].tag, tag)
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        parent = self.stack[-1]
        if len(parent):
            parent[-1].tail = (parent[-1].tail or "") + data
        else:
            parent.text = (parent.text or "") + data


def parse(html: str) -> ET.Element:
    tree = _Tree()
    tree.feed(html)
    tree.close()
    assert tree.stack == [tree.root], "unclosed elements"
    return tree.root


def by_id(root: ET.Element, element_id: str) -> ET.Element:
    found = [e for e in root.iter() if e.get("id") == element_id]
    assert len(found) == 1, (element_id, len(found))
    return found[0]


def text(element: ET.Element) -> str:
    return " ".join("".join(element.itertext()).split())


def rows(table: ET.Element) -> list[dict[str, str]]:
    """The body rows of a table, as header: cell text."""
    head = [text(th) for th in table.iter("th")]
    body = table.find("tbody")
    assert body is not None
    return [
        dict(zip(head, (text(td) for td in tr.iter("td")), strict=False))
        for tr in body
        # A finding's recall command and a return's reading, each under its row.
        if tr.get("class") not in ("recall", "reading")
    ]


def plots(html: str) -> list[ET.Element]:
    """Every inline SVG, parsed on its own as XML."""
    found = re.findall(r"<svg\b.*?</svg>", html, re.DOTALL)
    return [ET.fromstring(raw) for raw in found]  # noqa: S314 - our own page


def verify_html(log: Path, directory: Path, *options: object, code: int = 0) -> str:
    page = directory / f"{log.stem}.html"
    result = invoke("audit", "verify", log, "--workers", 1, "--html", page, *options)
    assert result.exit_code == code, (result.output, result.exception)
    return page.read_text(encoding="utf-8")


def _offline(root: ET.Element) -> None:
    """No script, and nothing a browser would fetch."""
    assert not list(root.iter("script"))
    for element in root.iter():
        for name in ("src", "href"):
            assert not element.get(name, "").startswith(("http", "//")), element.attrib


# --- logs -----------------------------------------------------------------------------------------


def _fair(count: int) -> Iterator[Round]:
    spins = seeded_spins("html-wheel", count, 37)
    yield from roulette_rounds(spins.__getitem__, count, (STRAIGHT, RED))
    yield from blackjack_rounds(30, stacked=False)


@pytest.fixture(scope="module")
def clean_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    directory = tmp_path_factory.mktemp("clean")
    return verify_html(write_rounds(directory / "clean.bin", _fair(200)), directory)


def _pay_one_more(record: round_pb2.RoundRecord) -> None:
    line = record.settlement.lines[0]
    line.returned.minor_units += 1
    line.returned.currency_code = record.currency_code
    record.settlement.total_returned.minor_units += 1


# --- the pages ------------------------------------------------------------------------------------


def test_a_clean_log_says_clean_with_its_returns_and_theory(clean_page: str) -> None:
    root = parse(clean_page)
    _offline(root)
    verdict = by_id(root, "verdict")
    assert text(verdict) == "CLEAN"
    assert "pass" in verdict.get("class", "").split()
    assert "clean.bin" in text(root.find(".//h1"))  # type: ignore[arg-type]
    meta = text(next(e for e in root.iter("table") if e.get("class") == "meta"))
    assert "|z| > 3" in meta
    assert "p < 0.001" in meta

    totals = rows(by_id(root, "totals"))
    assert [row["currency"] for row in totals] == ["EUR"]
    assert re.fullmatch(r"\d+\.\d\d EUR", totals[0]["staked"])
    assert totals[0]["difference"] == "0.00 EUR"

    returns = {(r["profile"], r["bet"]): r for r in rows(by_id(root, "returns"))}
    straight = returns["roulette-c", "straight"]
    assert straight["rounds"] == "200"
    assert straight["staked"] == "2.00 EUR"
    assert straight["theoretical (exact)"] == "97.2973% (36/37)"
    assert straight["flagged"] in {"no", "FLAGGED"}
    assert returns["roulette-c", "red"]["theoretical (exact)"].endswith("(36/37)")
    hand = returns["blackjack-a", "hand"]
    staked = strategy_return(shipped_profile("blackjack-a")).per_unit_staked_exact
    assert hand["theoretical (exact)"] == f"{percent(staked, 4)} ({staked})"
    assert hand["actual"].endswith("%")
    assert BASIC_STRATEGY_NOTE in text(root)

    assert rows(by_id(root, "findings")) == [{"record": "no findings"}]
    assert "intact" in text(by_id(root, "chain"))


def test_the_plots_are_svg_with_a_point_per_bet_and_a_bar_per_cell(clean_page: str) -> None:
    svgs = plots(clean_page)
    for svg in svgs:
        assert svg.get("role") == "img"
        assert svg.get("class") == "plot"
        assert svg.get("viewBox")
        assert svg.find(f"{SVG}title") is not None
    dots = [svg for svg in svgs if svg.findall(f".//{SVG}circle[@class='actual']")]
    # Straight and red have a theoretical return; blackjack has none, so no dot.
    assert len(dots) == 1
    assert len(dots[0].findall(f".//{SVG}circle")) == 2
    assert len(dots[0].findall(f".//{SVG}line[@class='theory']")) == 2
    bars = {
        len(svg.findall(f".//{SVG}rect[@class='observed']")): svg
        for svg in svgs
        if svg.findall(f".//{SVG}rect")
    }
    assert set(bars) == {37, 13}  # the roulette-c wheel's pockets; thirteen card ranks
    for count, svg in bars.items():
        assert len(svg.findall(f".//{SVG}line[@class='expected']")) == count


def _tampered(path: Path, seed: str, rounds: int) -> Path:
    """A JSON Lines log of red bets whose record 5 pays one cent more, edited in place: the
    link of record 6 no longer matches."""
    spins = seeded_spins(seed, rounds, 37)
    log = write_rounds(path, roulette_rounds(spins.__getitem__, rounds, (RED,)), "jsonl")
    lines = read_lines(log)
    record = round_pb2.RoundRecord()
    json_format.Parse(lines[4], record)
    _pay_one_more(record)
    lines[4] = dump_line(json_format.MessageToDict(record))
    return write_lines(log, lines)


def test_a_tampered_log_lists_the_finding_by_record_and_a_broken_chain(tmp_path: Path) -> None:
    log = _tampered(tmp_path / "tampered.jsonl", "html-tamper", 12)
    root = parse(verify_html(log, tmp_path, code=1))
    verdict = by_id(root, "verdict")
    assert text(verdict) == "NOT CLEAN"
    assert "fail" in verdict.get("class", "").split()
    findings = rows(by_id(root, "findings"))
    rules = [f for f in findings if f["finding"] == "rules"]
    assert rules
    assert {f["record"] for f in rules} == {"5"}
    assert rules[0]["round"] == "roulette-c-4"
    assert rules[0]["table"] == "roulette-c-table"
    assert rules[0]["clause"] == "C.rou.wheel"  # its table of bets: red pays 1:1
    # An amount in its currency, as the totals write it: a red bet pays 1:1 or nothing.
    assert rules[0]["expected"].endswith(" EUR")
    assert rules[0]["actual"].endswith(" EUR")
    assert rules[0]["expected"] != rules[0]["actual"]
    assert any(f["record"] == "6" and f["finding"] == "broken" for f in findings)
    # Each finding's round, shown by the exact command, under its row; the round id quoted.
    commands = [text(c) for c in root.iter("code") if c.get("class") == "recall"]
    assert f"audit recall {log} --round roulette-c-4" in " ".join(commands)
    # The clause the finding cites, its text once on the page.
    clause = rules[0]["clause"]
    quoted = [d for d in root.iter("div") if d.get("data-clause") == clause]
    assert len(quoted) == 1
    assert clause_text(clause) in text(quoted[0])
    # Which log, exactly, and by which Croupier.
    meta = {}
    for tr in by_id(root, "log").iter("tr"):
        label, value = (text(td) for td in tr.iter("td"))
        meta[label] = value
    assert meta["log file"] == log.name
    assert meta["size"] == f"{log.stat().st_size:,} bytes"
    assert meta["SHA-256"] == hashlib.sha256(log.read_bytes()).hexdigest()
    assert meta["checked by"] == f"Croupier {oracle.__version__}"
    # The options that decide what is checked; how many workers checked it is no option of
    # the verdict's (the report is the same whatever the workers).
    assert f"--band {BAND}" in meta["options"]
    assert "--workers" not in meta["options"]
    chain = text(by_id(root, "chain"))
    assert "broken" in chain
    assert "record 6" in chain


def test_a_stacked_wheel_is_flagged_yet_the_log_is_clean(tmp_path: Path) -> None:
    log = write_rounds(tmp_path / "stacked.bin", roulette_rounds(lambda _: 17, 200, (RED,)))
    root = parse(verify_html(log, tmp_path))
    # Statistics flag; the rules were kept, so the verdict is the rules': clean.
    assert text(by_id(root, "verdict")) == "CLEAN"
    (row,) = rows(by_id(root, "fairness"))
    assert row["profile"] == "roulette-c"
    assert row["flagged"] == "FLAGGED"
    assert row["df"] == "36"
    assert float(row["p-value"]) < 0.001
    assert row["worst"].startswith("17 ")


def test_ids_from_the_log_are_escaped(tmp_path: Path) -> None:
    def hostile(n: int, record: round_pb2.RoundRecord) -> None:
        if n == 2:
            record.table_id = HOSTILE
            record.round_id = f"{HOSTILE}-round"
            _pay_one_more(record)

    spins = seeded_spins("html-hostile", 5, 37)
    log = write_rounds(
        tmp_path / "hostile.bin", roulette_rounds(spins.__getitem__, 5, (RED,)), change=hostile
    )
    html = verify_html(log, tmp_path, code=1)
    root = parse(html)
    _offline(root)
    assert "&lt;script&gt;" in html
    findings = [f for f in rows(by_id(root, "findings")) if f["record"] == "3"]
    assert findings
    for finding in findings:
        # Read back as the text it was, not as markup.
        assert finding["table"] == HOSTILE
        assert finding["round"] == f"{HOSTILE}-round"


def test_a_saved_report_makes_the_same_page(tmp_path: Path) -> None:
    spins = seeded_spins("html-saved", 40, 37)
    log = write_rounds(tmp_path / "saved.bin", roulette_rounds(spins.__getitem__, 40, (RED,)))
    report = tmp_path / "saved.json"
    assert invoke("audit", "verify", log, "--workers", 1, "--report", report).exit_code == 0
    page = tmp_path / "page.html"
    result = invoke("audit", "html", report, "-o", page)
    assert result.exit_code == 0, result.output
    root = parse(page.read_text(encoding="utf-8"))
    assert text(by_id(root, "verdict")) == "CLEAN"
    assert rows(by_id(root, "returns"))[0]["bet"] == "red"
    (few,) = rows(by_id(root, "fairness"))
    assert few["verdict"] == "too few rounds for a verdict"

    other = tmp_path / "other.json"
    other.write_text(json.dumps({"not": "a report"}), encoding="utf-8")
    assert invoke("audit", "html", other, "-o", page).exit_code == 2


@pytest.fixture(scope="module")
def saved_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A report with findings of several lists, returns and fairness, as JSON."""
    directory = tmp_path_factory.mktemp("saved")
    log = _tampered(directory / "edited.jsonl", "html-edited", 30)
    report = directory / "edited.json"
    assert invoke("audit", "verify", log, "--workers", 1, "--report", report).exit_code == 1
    data: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    ("path", "value", "said"),
    [
        (("returns", 0, "staked"), "12", "returns[0].staked: expected an integer, got str"),
        (("returns", 0, "theoretical"), "1/0", "returns[0].theoretical: expected a fraction"),
        (("fairness", 0, "p"), float("nan"), "fairness[0].p: expected a number"),
        (("counts", "chain"), None, "counts.chain: expected an integer, got null"),
        (("totals", "EUR", "paid"), True, "totals.EUR.paid: expected an integer, got bool"),
        (("discrepancies", 0, "record"), "5", "discrepancies[0].record: expected an integer"),
        (("band",), [], "band: expected a number, got list"),
    ],
)
def test_an_edited_report_is_refused_naming_the_value(
    saved_report: dict[str, Any], tmp_path: Path, path: tuple[object, ...], value: object, said: str
) -> None:
    """A saved report is a file anyone can edit: a value of the wrong kind is named, not drawn."""
    edited = copy.deepcopy(saved_report)
    inner: Any = edited
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = value
    source = tmp_path / "edited.json"
    source.write_text(json.dumps(edited), encoding="utf-8")
    result = invoke("audit", "html", source, "-o", tmp_path / "page.html")
    assert result.exit_code == 2, result.output
    assert "is not a well-formed report of croupier audit verify" in result.output
    assert said in " ".join(result.output.split())
    assert not (tmp_path / "page.html").exists()


_ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def _paths(value: object, path: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    if path:
        yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:2]):
            yield from _paths(inner, (*path, index))


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_edit_of_a_report_makes_a_page_or_a_named_refusal(
    saved_report: dict[str, Any], tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    edited = copy.deepcopy(saved_report)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(_paths(edited))))
        inner: Any = edited
        for key in path[:-1]:
            inner = inner[key]
        inner[path[-1]] = data.draw(_ODD)
    directory = tmp_path_factory.mktemp("edit")
    source = directory / "edited.json"
    source.write_text(json.dumps(edited), encoding="utf-8")
    result = invoke("audit", "html", source, "-o", directory / "page.html")
    assert result.exit_code in (0, 2), result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception


# --- the parts ------------------------------------------------------------------------------------


def test_money_is_shown_in_the_currency_exponent() -> None:
    assert money_text(1250, "EUR") == "12.50 EUR"
    assert money_text(-5, "EUR") == "-0.05 EUR"
    assert money_text(7, "JPY") == "7 JPY"
    assert money_text(1, "BHD") == "0.001 BHD"
    assert money_text(3, "ZZZ") == "3 ZZZ (minor units)"


def test_svg_helpers_escape_and_count() -> None:
    whiskers = [
        Whisker(label=f"bet <{n}> & co", value=n, centre=1, low=0, high=2, flagged=n > 2)
        for n in range(4)
    ]
    svg = ET.fromstring(dot_whisker("returns <&>", whiskers))  # noqa: S314 - our own plot
    assert svg.findtext(f"{SVG}title") == "returns <&>"
    circles = svg.findall(f"{SVG}circle")
    assert len(circles) == 4
    assert [c.get("fill") != "none" for c in circles] == [False, False, False, True]
    assert "bet <0> & co" in [t.text for t in svg.iter(f"{SVG}text")]
    cells = [Cell(label, n, 2.5) for label, n in (("player", 1), ("banker", 4), ("tie", 0))]
    bars = ET.fromstring(bars_expected("outcomes", cells))  # noqa: S314 - our own plot
    heights = [float(r.get("height", "")) for r in bars.iter(f"{SVG}rect")]
    assert heights[1] > heights[0] > heights[2] == 0
    assert len(bars.findall(f"{SVG}line[@class='expected']")) == 3
