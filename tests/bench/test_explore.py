"""The explore-covered figure read from a ``croupier explore --until-covered`` summary."""

from typing import Any

from bench.explore import covered_figures


def _profile(
    name: str, rounds: int, cells: int, unreached: list[str], covered_at: int | None
) -> dict[str, Any]:
    coverage = {
        "reached": cells - len(unreached),
        "cells": cells,
        "covered_at": covered_at,
        "unreached": unreached,
    }
    return {"profile": name, "rounds": rounds, "coverage": coverage, "findings": 0}


def test_a_covered_profile_passes_with_the_round_that_reached_its_last_cell() -> None:
    summary = {"profiles": [_profile("blackjack-a", 74, 98, [], 74)]}
    ((figure, line),) = covered_figures(summary)
    assert (figure.name, figure.value, figure.verdict) == (
        "rounds to cover blackjack-a",
        74,
        "pass",
    )
    assert figure.note == "98/98 cells"
    assert line == (
        "explore --until-covered blackjack-a: 98/98 cells, every cell reached in 74 rounds"
    )


def test_a_profile_left_short_names_the_cells_never_reached() -> None:
    short = _profile("baccarat-b", 10_000, 146, ["tableau:banker-3:8", "pair:A"], None)
    short["findings"] = 1
    (figure, line), _ = covered_figures(
        {"profiles": [short, _profile("roulette-c", 90, 68, [], 90)]}
    )
    assert (figure.value, figure.verdict, figure.note) == (10_000, "short", "144/146 cells")
    assert line == (
        "explore --until-covered baccarat-b: 144/146 cells, 2 never reached in 10,000 rounds: "
        "tableau:banker-3:8, pair:A; 1 finding(s): the search stops at --max-findings"
    )
