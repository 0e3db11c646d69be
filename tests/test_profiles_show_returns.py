"""``croupier profiles show``: the Returns section after the parameters (click's CliRunner).

The figures expected are the published ones (tests/oracle/test_returns.py says where from):
standard eight-deck punto banco's house edges 1.0579% (banker), 1.2351% (player), 14.3596%
(tie); roulette 36/37 on the European wheel, 36/38 on the American one but 35/38 on its
0-00-1-2-3 top line at 6:1.
"""

from __future__ import annotations

import re
from fractions import Fraction
from math import perm

import pytest
from click.testing import CliRunner, Result

from croupier.conformance.cli import main
from croupier.oracle.basic_strategy import strategy_return
from croupier.oracle.profile import SHIPPED_IDS, shipped_profile


def show(profile_id: str, columns: int) -> Result:
    result = CliRunner().invoke(
        main, ["profiles", "show", profile_id], env={"COLUMNS": str(columns)}
    )
    assert result.exit_code == 0, result.output
    return result


def returns_rows(output: str) -> dict[str, list[str]]:
    """The Returns table's body rows by bet, cells split on the box's bars; a row a cell
    continues on (its first cell empty) is joined to the row above, one line per cell."""
    section = output[output.index("Returns") :]
    rows: dict[str, list[str]] = {}
    bet = ""
    for line in section.splitlines():
        cells = [c.strip() for c in re.split(r"[│┃]", line)[1:-1]]
        if not cells or cells[0] == "bet":
            continue
        if cells[0]:
            bet = cells[0]
            rows[bet] = cells[1:]
        else:
            rows[bet] = [f"{a} {b}" for a, b in zip(rows[bet], cells[1:], strict=True)]
    return rows


def test_eight_deck_standard_baccarat_shows_the_published_house_edges() -> None:
    rows = returns_rows(show("baccarat-d", 240).output)
    assert set(rows) == {"player", "banker", "tie"}
    assert rows["banker"][1] == "1.0579%"
    assert rows["player"][1] == "1.2351%"
    assert rows["tie"][1] == "14.3596%"
    # The exact figures, from the published counts of six-card sequences (Wizard of Odds).
    total = perm(416, 6)
    banker, tie = Fraction(2_292_252_566_437_888, total), Fraction(475_627_426_473_216, total)
    returned = Fraction(195, 100) * banker + tie
    assert rows["banker"][0] == "98.9421%"
    assert rows["banker"][2:] == [str(returned), str(1 - returned)]
    assert rows["tie"][2] == str(9 * tie)


def test_at_80_columns_each_fraction_goes_whole_under_its_percentage() -> None:
    result = show("baccarat-b", 80)
    assert all(len(line) <= 80 for line in result.output.splitlines())
    rows = returns_rows(result.output)
    wide = returns_rows(show("baccarat-b", 240).output)
    for bet in ("player", "banker", "tie"):
        percent_return, exact_return = rows[bet][0].split()
        percent_edge, exact_edge = rows[bet][1].split()
        assert [percent_return, percent_edge, exact_return, exact_edge] == wide[bet]
        assert Fraction(exact_return) + Fraction(exact_edge) == 1


def test_roulette_shows_every_bet_of_the_wheel() -> None:
    european = returns_rows(show("roulette-c", 80).output)
    assert len(european) == 14
    assert "top-line" not in european
    assert all(cells == ["97.2973%", "2.7027%", "36/37", "1/37"] for cells in european.values())
    american = returns_rows(show("roulette-american", 80).output)
    assert "first-four" not in american
    assert american["top-line"] == ["92.1053%", "7.8947%", "35/38", "3/38"]
    assert american["red"] == ["94.7368%", "5.2632%", "18/19", "1/19"]


@pytest.mark.parametrize("profile_id", ["blackjack-a", "blackjack-c"])
def test_blackjack_shows_its_return_under_basic_strategy(profile_id: str) -> None:
    output = show(profile_id, 200).output
    found = strategy_return(shipped_profile(profile_id))
    said = [line for line in output.splitlines() if line.startswith("Returns")]
    line = (
        f"Returns under basic strategy: {found.returns * 100:+.4f}% per unit of first stake "
        f"(house edge {found.house_edge * 100:.4f}%), exact to 1e-12; {found.stake:.4f} units "
        f"staked a round, {found.per_unit_staked * 100:.4f}% returned per unit staked."
    )
    assert said == [line]
    assert f"croupier profiles strategy {profile_id}" in output


@pytest.mark.parametrize("profile_id", SHIPPED_IDS)
def test_every_profile_shows_its_returns_within_80_columns(profile_id: str) -> None:
    output = show(profile_id, 80).output
    assert "Returns" in output
    assert all(len(line) <= 80 for line in output.splitlines())
