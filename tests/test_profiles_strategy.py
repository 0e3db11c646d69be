"""``croupier profiles strategy``: the basic-strategy chart, the return and each rule's worth."""

from __future__ import annotations

import re

from click.testing import CliRunner, Result

from croupier.conformance.cli import main
from croupier.oracle.basic_strategy import strategy_return
from croupier.oracle.profile import shipped_profile


def strategy(profile_id: str) -> Result:
    return CliRunner().invoke(main, ["profiles", "strategy", profile_id], env={"COLUMNS": "120"})


def cells(output: str, label: str) -> list[str]:
    """The ten cells of a chart row, up cards 2 to 10 then the ace."""
    line = next(line for line in output.splitlines() if re.match(rf"│ {re.escape(label)} +│", line))
    return [c.strip() for c in line.split("│")[2:-1]]


def test_blackjack_c_prints_its_chart_return_and_rules_worth() -> None:
    result = strategy("blackjack-c")
    assert result.exit_code == 0, result.output
    output = result.output
    # No hole card under a ten (C.bj.peek): 11 hits a ten, doubles a nine.
    assert cells(output, "hard 11")[7:9] == ["D", "H"]
    assert cells(output, "soft 18 (A,7)")[:5] == ["S", "Ds", "Ds", "Ds", "Ds"]
    assert cells(output, "A,A") == ["P"] * 10
    assert cells(output, "T,T") == ["S"] * 10
    found = strategy_return(shipped_profile("blackjack-c"))
    assert f"{found.returns * 100:+.4f}% per unit of first stake" in output
    for rule in ("peek", "hit_split_aces", "surrender"):
        assert re.search(rf"│ {rule} +│", output), rule
    assert "by the rule against doubling and splitting after insurance" in output


def test_a_profile_of_another_game_is_refused() -> None:
    result = strategy("roulette-c")
    assert result.exit_code == 2
    assert "basic strategy is blackjack's" in result.output
