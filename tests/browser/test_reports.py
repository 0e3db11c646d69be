"""Both HTML reports as a reader sees them, in headless Chromium.

A certificate of a mutant that pays blackjacks 6:5 (a real run on blackjack-a's whole corpus,
hand-written and generated) and the audit page of a small log with one record paid a cent
too much: the verdict is legible, the failing clauses are summarised above the fold and link
to their failures, the first failure is the document's own example, a failure shows its
round and expected beside actual, the page prints in a few pages, the matrix and the return
table render, the audit page names its log's digest and each finding's recall command, and
no plot label is cut.
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.conformance.audit.fairness import BAND
from croupier.conformance.cli import main
from croupier.conformance.corpus import CORPUS_DIR
from croupier.conformance.vectors import dump_line, read_vectors
from croupier.conformance.zoo import launch_command
from croupier.oracle.basic_strategy import strategy_return
from croupier.oracle.money import money_text
from croupier.oracle.profile import shipped_profile
from croupier.oracle.returns import percent
from croupier.oracle.shoe import seeded_spins
from croupier.v1 import round_pb2
from tests.audit.rounds import RED, STRAIGHT, blackjack_rounds, roulette_rounds, write_rounds
from tests.browser.chromium import Chromium
from tests.conformance.engines import command

WHITE = "rgb(255, 255, 255)"


def _croupier(*arguments: object, code: int) -> None:
    result = CliRunner().invoke(main, [str(a) for a in arguments])
    assert result.exit_code == code, (result.output, result.exception)


def _certify(directory: Path, launch: str, *, code: int) -> Path:
    """Certify on the first six blackjack-a hand vectors; the page."""
    subset = directory / "subset.jsonl"
    lines = [dump_line(v.vector) for v in read_vectors(CORPUS_DIR / "blackjack-a.hand.binpb.gz")]
    subset.write_text("\n".join(lines[:6]) + "\n", encoding="utf-8")
    page = directory / "certificate.html"
    _croupier("certify", "--launch", launch, "--vectors", subset, "--html", page, code=code)
    return page


@pytest.fixture(scope="module")
def mutant_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """blackjack-a's whole corpus, hand-written and generated, against a 6:5 blackjack."""
    page = tmp_path_factory.mktemp("mutant") / "certificate.html"
    launch = launch_command("blackjack-pays-6-5")
    files = [CORPUS_DIR / f"blackjack-a.{kind}.binpb.gz" for kind in ("hand", "campaign")]
    vectors = [word for file in files for word in ("--vectors", file)]
    _croupier("certify", "--launch", launch, *vectors, "--html", page, code=1)
    return page


@pytest.fixture(scope="module")
def partial_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo engine passes six vectors: a part of the corpus, which certifies nothing."""
    launch = f"{sys.executable} -m croupier.clients.demo_engine"
    return _certify(tmp_path_factory.mktemp("engine"), launch, code=0)


@pytest.fixture(scope="module")
def conformant_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole shipped corpus against the reference rules claiming roulette-c alone."""
    page = tmp_path_factory.mktemp("whole") / "certificate.html"
    launch = command("--claim", "roulette-c")
    _croupier("certify", "--launch", launch, "--certify", "--html", page, code=0)
    return page


def _pay_one_more(n: int, record: round_pb2.RoundRecord) -> None:
    """Record 5 (from 1) pays a cent more than the rules say, its totals kept consistent."""
    if n == 4:
        record.settlement.lines[0].returned.minor_units += 1
        record.settlement.total_returned.minor_units += 1


@pytest.fixture(scope="module")
def audit_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("audit")
    spins = seeded_spins("browser-wheel", 120, 37)
    rounds = [
        *roulette_rounds(spins.__getitem__, 120, (STRAIGHT, RED)),
        *blackjack_rounds(20, stacked=False),
    ]
    log = write_rounds(directory / "rounds.bin", iter(rounds), change=_pay_one_more)
    page = directory / "audit.html"
    _croupier("audit", "verify", log, "--workers", 1, "--html", page, code=1)
    return page


def test_the_mutant_certificate_says_not_conformant_legibly(
    browser: Chromium, mutant_page: Path
) -> None:
    browser.open(mutant_page)
    assert browser.text("#verdict") == "NOT CONFORMANT"
    assert browser.style("#verdict", "color") == WHITE
    assert browser.style("#verdict", "background-color") != WHITE
    assert browser.visible("#engine")
    assert "blackjack-a" in browser.text("#engine")


def test_a_failure_shows_expected_beside_actual_with_its_rule(
    browser: Chromium, mutant_page: Path
) -> None:
    browser.open(mutant_page)
    assert browser.count(".failure") >= 1
    expected = browser.text(".failure pre.expected")
    actual = browser.text(".failure pre.actual")
    # A blackjack of the vectors' stakes: 3:2 and 6:5 pay different amounts.
    assert expected.strip()
    assert actual.strip()
    assert expected != actual
    left = browser.evaluate(
        "[...document.querySelectorAll('.failure')[0].querySelectorAll('pre.expected, pre.actual')]"
        ".map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width]; })"
    )
    (e_left, e_top, e_width), (a_left, a_top, _) = left
    assert a_top == pytest.approx(e_top, abs=2), "expected and actual are side by side"
    assert a_left >= e_left + e_width
    failure = browser.text(".failure")
    assert "BJ.nat-pays" in failure
    assert "certify --launch" in browser.text(".failure pre.reproduce")
    # The round beside it: the seat's balance and stake, the cards as dealt, the decisions.
    inputs = browser.text(".failure .inputs")
    assert "seat 0" in inputs
    assert "EUR" in inputs
    assert browser.text(".failure .inputs .dealt").split()
    assert "decisions" in inputs
    # The rule's text is quoted once, in the summary, not under every failure.
    assert "A player blackjack wins 3:2" in browser.text("#summary")
    assert "A player blackjack wins 3:2" not in failure
    quoted = browser.evaluate(
        "[...document.querySelectorAll('.clause-text')].map(e => e.dataset.clause)"
    )
    assert quoted.count("BJ.nat-pays") == 1


def test_the_summary_is_above_the_fold_and_links_to_the_failures(
    browser: Chromium, mutant_page: Path
) -> None:
    browser.window(1400, 900)
    try:
        browser.open(mutant_page)
        row = browser.evaluate(
            "(r => [r.top, r.bottom])(document.querySelector('#summary tr.failing-clause')"
            ".getBoundingClientRect())"
        )
        assert 0 < row[0] < row[1] <= 900, "the failing clause's row is above the fold"
        links = browser.evaluate(
            "[...document.querySelectorAll('#summary tr.failing-clause a')]"
            ".map(a => a.getAttribute('href'))"
        )
        assert links == ["#failures-BJ.nat-pays", "#v-bja-h001"]
        # Following the link to the first failure brings it to the top of the window.
        browser.evaluate("document.querySelector('#summary a[href=\"#v-bja-h001\"]').click()")
        time.sleep(0.2)
        top = browser.evaluate("document.getElementById('v-bja-h001').getBoundingClientRect().top")
        assert abs(top) < 5
        assert browser.evaluate("scrollY") > 900
        assert browser.visible("#v-bja-h001")
        assert browser.visible('[id="failures-BJ.nat-pays"]')
    finally:
        browser.reset()


def test_the_first_failure_is_the_hand_written_vector(browser: Chromium, mutant_page: Path) -> None:
    """bja-g-... sorts before bja-h001, yet the document's own example A1 comes first."""
    browser.open(mutant_page)
    ids = browser.evaluate("[...document.querySelectorAll('.failure')].map(e => e.id)")
    generated = [i for i in ids if i.startswith("v-bja-g-")]
    assert generated, "the run has generated failures too"
    assert min(ids) in generated, "by id alone a generated vector would come first"
    assert ids[0] == "v-bja-h001"
    assert "hand-written" in browser.text(".failure")
    hand = [i for i in ids if i.startswith("v-bja-h")]
    assert ids[: len(hand)] == sorted(hand), "every hand-written failure before the generated"
    # Only the first is shown; the clause's others are folded.
    shown = browser.evaluate(
        "[...document.querySelectorAll('.failure')].filter(e => e.checkVisibility()).length"
    )
    assert shown == 1
    assert len(ids) > 10
    # A cell of the matrix opens the folded list it links to.
    assert not browser.visible('[id="cell-BJ.nat-pays-blackjack-a"]')
    browser.evaluate("location.hash = '#cell-BJ.nat-pays-blackjack-a'")
    time.sleep(0.2)
    assert browser.visible('[id="cell-BJ.nat-pays-blackjack-a"]')


def test_a_one_bug_certificate_prints_in_a_few_pages(browser: Chromium, mutant_page: Path) -> None:
    browser.open(mutant_page)
    failures = browser.count(".failure")
    pages, pdf = browser.pdf_pages()
    assert pdf.startswith(b"%PDF-")
    assert failures > 10
    assert 1 <= pages <= 10, f"{failures} failures printed to {pages} pages"


def test_the_matrix_renders_a_failing_cell_that_links_to_its_vectors(
    browser: Chromium, mutant_page: Path
) -> None:
    browser.open(mutant_page)
    assert browser.visible("#matrix")
    headers = browser.evaluate(
        "[...document.querySelectorAll('#matrix thead th')].map(e => e.innerText.trim())"
    )
    assert "blackjack-a" in [h.replace("\n", "") for h in headers]
    row = browser.evaluate(
        "[...document.querySelectorAll('#matrix tbody tr')]"
        ".map(r => r.innerText).find(t => t.startsWith('BJ.nat-pays'))"
    )
    assert row is not None
    assert "fail" in row
    target = browser.evaluate(
        "[...document.querySelectorAll('#matrix a')].map(a => a.getAttribute('href'))"
        ".find(h => h.startsWith('#cell-BJ.nat-pays-blackjack-a'))"
    )
    assert target is not None
    # Ids hold dots (clause ids), so the selector matches the attribute, not a class.
    cell = f'[id="{target.removeprefix("#")}"]'
    browser.evaluate(f"location.hash = {target!r}")
    time.sleep(0.2)
    assert browser.visible(cell)
    assert "bja-h0" in browser.text(cell)
    # The counts stay on one line each, and "stopped" is no link-blue.
    # The tops of an inline link's boxes: one line, one top.
    lines = browser.evaluate(
        "[...document.querySelectorAll('#matrix td.cell a')]"
        ".map(a => new Set([...a.getClientRects()].map(r => Math.round(r.top))).size)"
    )
    assert lines
    assert set(lines) == {1}
    stopped = browser.evaluate(
        "(e => e && getComputedStyle(e).color)(document.querySelector('#matrix .stopped'))"
    )
    assert stopped != "rgb(0, 0, 238)"


def test_a_whole_run_certificate_says_conformant(browser: Chromium, conformant_page: Path) -> None:
    browser.open(conformant_page)
    assert browser.text("#verdict") == "CONFORMANT"
    assert browser.style("#verdict", "color") == WHITE
    assert browser.count(".failure") == 0
    assert browser.visible("#matrix")


def test_a_partial_run_certificate_never_says_conformant(
    browser: Chromium, partial_page: Path
) -> None:
    browser.open(partial_page)
    assert browser.text("#verdict") == "PARTIAL RUN"
    assert browser.style("#verdict", "color") == WHITE
    assert "conformant" not in browser.text("body").lower()


def test_the_audit_page_shows_the_finding_and_the_returns(
    browser: Chromium, audit_page: Path
) -> None:
    browser.open(audit_page)
    assert browser.text("#verdict") == "NOT CLEAN"
    assert browser.style("#verdict", "color") == WHITE
    findings = browser.evaluate(
        "[...document.querySelectorAll('#findings tbody tr.finding')]"
        ".map(r => [...r.cells].map(c => c.innerText))"
    )
    (finding,) = findings
    # The fifth record, counted from 1: its straight on 17 (a stake of 1) returns 36 on 17
    # (35:1, C.rou.wheel), else nothing; the log says a cent more. In euros, as the totals.
    assert finding[:4] == ["5", "roulette-c-4", "roulette-c-table", "rules"]
    due = 36 if seeded_spins("browser-wheel", 120, 37)[4] == 17 else 0
    assert finding[6:8] == [money_text(due, "EUR"), money_text(due + 1, "EUR")]
    tips = browser.evaluate(
        "[...document.querySelectorAll('#findings tr.finding .money')].map(e => e.title)"
    )
    assert tips == [f"{due} minor units", f"{due + 1} minor units"]
    assert browser.style("#findings tr.finding", "color") != browser.style(
        "#verdict", "background-color"
    )
    returns = browser.evaluate(
        "[...document.querySelectorAll('#returns tr')].map(r => r.innerText)"
    )
    red = next(r for r in returns if "roulette-c" in r and "red" in r)
    straight = next(r for r in returns if "roulette-c" in r and "straight" in r)
    # A single-zero wheel returns 36/37 of even chances and of straights alike (C.rou.*).
    assert "97.2973% (36/37)" in red
    assert "97.2973% (36/37)" in straight
    blackjack = next(r for r in returns if "blackjack-a" in r)
    # Beside basic strategy's return, without a z: the log's players are not the chart.
    staked = strategy_return(shipped_profile("blackjack-a")).per_unit_staked_exact
    assert percent(staked, 4) in blackjack
    assert "-" in blackjack
    assert "players' real decisions" in browser.text("body")


def test_the_audit_page_names_its_log_and_how_to_recall_a_finding(
    browser: Chromium, audit_page: Path
) -> None:
    browser.open(audit_page)
    log = audit_page.parent / "rounds.bin"
    meta = browser.text("#log")
    assert hashlib.sha256(log.read_bytes()).hexdigest() in meta
    assert f"{log.stat().st_size:,} bytes" in meta
    assert "rounds.bin" in meta
    assert "Croupier 0." in meta
    # The options that decide what was checked, not how many workers checked it.
    assert f"--band {BAND}" in meta
    assert "--workers" not in meta
    command = browser.text("#findings code.recall")
    assert command.endswith(f"audit recall {log} --round roulette-c-4")
    # The cited clause's text, once, where the finding's clause links.
    assert browser.count('#clauses .clause-text[data-clause="C.rou.wheel"]') == 1
    assert "straight" in browser.text('#clauses .clause-text[data-clause="C.rou.wheel"]')
    # Each return says why it is flagged or not.
    readings = browser.evaluate(
        "[...document.querySelectorAll('#returns td.reading')].map(e => e.innerText)"
    )
    assert readings
    judged = [r for r in readings if "standard errors" in r]
    # Two roulette bets (red, straight), judged by their z; blackjack beside basic strategy.
    assert len(judged) == 2
    assert all(r.endswith("not flagged.") for r in judged)
    assert any("not judged" in r and "standard error" in r for r in readings)
    assert "standard error" in browser.text("body")


def test_no_plot_label_is_cut(browser: Chromium, audit_page: Path) -> None:
    """Every text of every plot lies whole inside its plot's box."""
    browser.open(audit_page)
    boxes = browser.evaluate(
        "[...document.querySelectorAll('svg.plot')].flatMap(svg => {"
        " const v = svg.viewBox.baseVal;"
        " return [...svg.querySelectorAll('text')].map(t => {"
        "  const b = t.getBBox();"
        "  return [t.textContent, b.x, b.y, b.x + b.width, b.y + b.height, v.width, v.height];"
        " });"
        "})"
    )
    assert len(boxes) > 10
    for label, left, top, right, bottom, width, height in boxes:
        assert left >= 0, label
        assert right <= width, label
        assert top >= 0, label
        assert bottom <= height, label
        assert not label.endswith("\u2026"), label
    labels = [b[0] for b in boxes]
    assert "roulette-c straight (EUR)" in labels


def test_the_audit_plots_render_at_a_readable_size(browser: Chromium, audit_page: Path) -> None:
    browser.open(audit_page)
    sizes = browser.evaluate(
        "[...document.querySelectorAll('svg.plot')]"
        ".map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })"
    )
    assert sizes, "no plot on the page"
    for width, height in sizes:
        assert width >= 300
        assert height >= 60


def test_the_certificate_prints_with_its_verdict_and_failures(
    browser: Chromium, mutant_page: Path
) -> None:
    """Printed (the print style sheet), the verdict and the diffs still show; a PDF comes out."""
    browser.open(mutant_page)
    browser.call("Emulation.setEmulatedMedia", media="print")
    try:
        assert browser.visible("#verdict")
        assert browser.text("#verdict") == "NOT CONFORMANT"
        assert browser.visible("#summary")
        assert browser.visible(".failure pre.expected")
        assert browser.visible(".failure pre.actual")
    finally:
        browser.call("Emulation.setEmulatedMedia", media="")
