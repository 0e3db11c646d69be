"""Explore that keeps going: several distinct findings in one run, each shrunk; known failures.

The engine is the oracle's EngineService serving blackjack-c with rules changed on purpose
(``tests/conformance/engines.py --set``): each change is a planted bug whose clause the
profile's table names (``croupier profiles show blackjack-c``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from croupier.conformance.cli import main
from croupier.conformance.explore import search
from croupier.conformance.vectors import read_vectors
from tests.conformance.engines import command

#: Three bugs, each decided by its own clause: a blackjack paid 1:1 (BJ.nat-pays), the
#: dealer drawing on a soft 17 (C.bj.dealer-draw), insurance paid 3:2, not 2:1
#: (C.bj.insurance).
THREE_BUGS = command(
    "--set",
    'blackjack-c.blackjack_pays="1:1"',
    "--set",
    "blackjack-c.dealer_hits_soft_17=true",
    "--set",
    'blackjack-c.insurance_pays="3:2"',
)


def _explore(tmp_path: Path, launch: str, *args: str) -> tuple[int, str, Path]:
    out = tmp_path / "found.jsonl"
    result = CliRunner().invoke(
        main,
        ["explore", "--launch", launch, "--profile", "blackjack-c", "--out", str(out), *args],
        env={"COLUMNS": "400"},
    )
    return result.exit_code, result.stdout, out


def _json(stdout: str) -> dict[str, Any]:
    summary: dict[str, Any] = json.loads(stdout)
    return summary


def test_one_run_reports_three_planted_bugs_each_shrunk(tmp_path: Path) -> None:
    code, stdout, out = _explore(tmp_path, THREE_BUGS, "--rounds", "1500", "--json")
    assert code == 1, stdout
    summary = _json(stdout)  # stdout is the JSON alone: progress went to stderr
    findings = {f["clause"]: f for f in summary["findings"]}
    assert set(findings) == {"BJ.nat-pays", "C.bj.dealer-draw", "C.bj.insurance"}
    for finding in findings.values():
        # Shrunk: one round, at most two decisions (a stand, an insurance declined...). The
        # seats may stay (a round diverges at its first difference: with one seat, another
        # bug may show first, and that is not the same mismatch), and so may what the draw
        # aimed at (a second seat that stands, a dealer ace that brings the offers).
        rounds, _seats, decisions, _cards = finding["size"].split(", ")
        assert rounds == "1 round", finding
        assert finding["shrunk"] is True  # no time budget: each shrink ran to its end
        assert decisions in ("0 decisions", "1 decision", "2 decisions"), finding
        assert f"--vector {finding['vector_id']}" in finding["reproduce"]
        assert finding["expected"] != finding["actual"]
    # The vectors went to --out only, one per finding, in the summary's order.
    vectors = [loaded.vector for loaded in read_vectors(out)]
    assert [v.id for v in vectors] == [f["vector_id"] for f in summary["findings"]]
    # The blackjack paid 1:1: its round deals some seat an ace and a ten-valued card
    # (BJ.natural), in deal order (BJ.deal-order: first cards, the up card, second cards).
    (natural,) = [v for v in vectors if v.id == findings["BJ.nat-pays"]["vector_id"]]
    (vround,) = natural.rounds
    seats = len(vround.deal.seats)
    ranks = [c[0] for c in vround.deal.shoe.cards[: 2 * seats + 1]]
    hands = [{ranks[i], ranks[seats + 1 + i]} for i in range(seats)]
    assert any("A" in hand and hand & set("TJQK") for hand in hands), hands
    assert summary["appended"] == 3
    assert summary["profiles"][0]["findings"] == 3


def test_max_findings_stops_the_search_at_that_many(tmp_path: Path) -> None:
    code, stdout, _out = _explore(
        tmp_path, THREE_BUGS, "--rounds", "1200", "--seed", "three", "--max-findings", "1"
    )
    assert code == 1, stdout
    assert "mismatch 1 of 1 blackjack-c" in stdout
    assert "mismatch 2 of" not in stdout
    # The terminal shows a summary, never the vector itself (JSON lines go to --out).
    assert '"rounds":' not in stdout
    for label in ("clause", "step", "path", "expected", "actual", "shrunk to", "reproduce"):
        assert f"│ {label} " in stdout, label


def test_known_failures_waive_what_the_lab_classified(tmp_path: Path) -> None:
    two_bugs = command(
        "--set",
        'blackjack-c.blackjack_pays="1:1"',
        "--set",
        "blackjack-c.dealer_hits_soft_17=true",
    )
    known = tmp_path / "known.txt"
    # Certify's file: the shipped vector that catches the even-money blackjack, by name.
    known.write_text(
        "# what the lab knows\nblackjack-c/natural/three-to-two-*  # the house pays 1:1\n",
        encoding="utf-8",
    )
    code, stdout, _out = _explore(
        tmp_path,
        two_bugs,
        "--rounds",
        "600",
        "--seed",
        "three",
        "--known-failures",
        str(known),
        "--json",
    )
    assert code == 1, stdout
    summary = _json(stdout)
    assert [f["clause"] for f in summary["findings"]] == ["C.bj.dealer-draw"]
    (waived,) = summary["waived"]
    assert waived["clause"] == "BJ.nat-pays"
    assert waived["pattern"] == "blackjack-c/natural/three-to-two-*"
    assert waived["reason"] == "the house pays 1:1"
    assert waived["rounds"] >= 1


def test_only_waived_mismatches_exit_0(tmp_path: Path) -> None:
    known = tmp_path / "known.txt"
    known.write_text("bjc-h001  # the house pays 1:1\n", encoding="utf-8")
    code, stdout, out = _explore(
        tmp_path,
        command("--set", 'blackjack-c.blackjack_pays="1:1"'),
        "--rounds",
        "300",
        "--known-failures",
        str(known),
    )
    assert code == 0, stdout
    assert "waived in blackjack-c:" in stdout
    assert "BJ.nat-pays (known failure 'bjc-h001'" in stdout
    assert not out.exists()


def test_a_known_failures_file_without_reasons_is_a_usage_error(tmp_path: Path) -> None:
    known = tmp_path / "known.txt"
    known.write_text("bjc-h001\n", encoding="utf-8")
    result = CliRunner().invoke(
        main,
        ["explore", "--launch", THREE_BUGS, "--known-failures", str(known)],
        env={"COLUMNS": "400"},
    )
    assert result.exit_code == 2
    assert "a known failure needs a reason after '#'" in result.output


def test_shrinking_stops_at_the_budget_and_the_finding_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Time is up the moment a mismatch is being shrunk: the budget ends the shrink there, and
    # the round found is the finding, as shrunk so far (a finished shrink would be 1 round).
    monkeypatch.setattr(search._Search, "out_of_time", lambda self: self.target is not None)
    code, stdout, out = _explore(
        tmp_path, THREE_BUGS, "--rounds", "1500", "--max-findings", "3", "--json"
    )
    assert code == 1, stdout
    summary = _json(stdout)
    (finding,) = summary["findings"]  # the search ended with the budget: one finding
    assert finding["shrunk"] is False
    (vector,) = [loaded.vector for loaded in read_vectors(out)]
    assert vector.description.endswith("(shrunk so far: the search ended before shrinking did).")
    assert summary["profiles"][0]["rounds"] == finding["found_after"]


def test_certify_explore_waives_the_known_failures_of_its_corpus_run(tmp_path: Path) -> None:
    """The explored rounds of ``certify --explore`` are waived as ``explore``'s are."""
    known = tmp_path / "known.txt"
    known.write_text("bjc-h001  # the house pays 1:1\n", encoding="utf-8")
    report = tmp_path / "r.jsonl"
    engine = command("--set", 'blackjack-c.blackjack_pays="1:1"')
    args = ["certify", "--launch", engine, "--vector", "bjc-h001", "--known-failures", str(known)]
    args += ["--explore", "60", "--explore-out", str(tmp_path / "found.jsonl")]
    result = CliRunner().invoke(main, [*args, "--report", str(report)], env={"COLUMNS": "400"})
    # The listed vector fails as listed, and the explored blackjacks paid 1:1 are no finding.
    assert result.exit_code == 0, result.output
    assert "BJ.nat-pays (known failure 'bjc-h001'" in result.output
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    (listed,) = [line for line in lines if line.get("id") == "bjc-h001"]
    assert listed["outcome"] == "EXPECTED_FAIL"
    (explored,) = [line for line in lines if line.get("id") == "explore/blackjack-c"]
    assert explored["outcome"] == "PASS"
    assert re.fullmatch(
        r"60 explored rounds, no mismatch but \d+ rounds? the known failures waive",
        explored["message"],
    ), explored["message"]
    assert not (tmp_path / "found.jsonl").exists()
