"""Theoretical returns (``oracle.returns``) against figures worked out outside the code.

Baccarat, standard punto banco (standard tableau, player 1:1, banker 1:1 less 5%, tie 8:1,
ties push player and banker bets): the published counts of ordered six-card sequences by
outcome, and the house edges derived from them, as the Wizard of Odds publishes them
(wizardofodds.com, baccarat; the same counts are quoted on casinoexploit.com's baccarat page
and in the Wizard's forum: "Permut(416,6) in Excel"):

- eight decks: banker 2,292,252,566,437,888, player 2,230,518,282,592,256, tie
  475,627,426,473,216 of 416*415*...*411; house edges banker 1.0579%, player 1.2351%,
  tie 14.3596%;
- six decks: banker 403,095,751,234,560, player 392,220,492,728,832, tie
  83,552,962,932,288 of 312*311*...*307; house edges 1.0558%, 1.2374%, 14.4382%;
- one deck: the published counts tests/oracle/test_baccarat_exact.py checks by brute force,
  and for document B's printed tableau the counts it takes from a separate brute force
  written from RULES.md alone.

Roulette: each pocket equally likely, so a bet covering k of n pockets at net odds w:1
returns k(w + 1)/n: 36/37 on the European wheel, 36/38 on the American one but for its
five-number top line at 6:1, 35/38; with zero returning half an even chance (la partage),
that bet returns 36/37 + 1/74 = 73/74.
"""

from __future__ import annotations

from fractions import Fraction
from math import perm

import pytest

from croupier.oracle.baccarat import BaccaratRules, CoupOutcome, Tableau
from croupier.oracle.money import Odds
from croupier.oracle.profile import Profile, load_profile_text, shipped_profile
from croupier.oracle.returns import (
    BetReturn,
    coup_probabilities,
    percent,
    theoretical_returns,
)
from croupier.oracle.roulette import BetKind, RouletteRules, Wheel

BANKER, PLAYER, TIE = CoupOutcome.BANKER, CoupOutcome.PLAYER, CoupOutcome.TIE

EIGHT_DECKS = {
    BANKER: 2_292_252_566_437_888,
    PLAYER: 2_230_518_282_592_256,
    TIE: 475_627_426_473_216,
}
SIX_DECKS = {
    BANKER: 403_095_751_234_560,
    PLAYER: 392_220_492_728_832,
    TIE: 83_552_962_932_288,
}
ONE_DECK_STANDARD = {
    BANKER: 6_737_232_640,
    PLAYER: 6_548_674_432,
    TIE: 1_372_227_328,
}
ONE_DECK_DOCUMENT_B = {
    BANKER: 6_717_468_416,
    PLAYER: 6_576_749_120,
    TIE: 1_363_916_864,
}


def lab(extends: str, **values: object) -> Profile:
    """A lab profile that extends a shipped one and overrides some values."""
    lines = [f'id = "lab-{extends}"', f'extends = "{extends}"', "", "[parameters]"]
    for name, value in values.items():
        shown = f'"{value}"' if isinstance(value, str) else str(value).lower()
        lines.append(f"{name} = {{ value = {shown} }}")
    return load_profile_text("\n".join(lines), f"lab-{extends}.toml")


def by_bet(profile: Profile) -> dict[str, BetReturn]:
    return {line.bet: line for line in theoretical_returns(profile)}


def chances(profile: Profile) -> dict[CoupOutcome, Fraction]:
    return dict(coup_probabilities(BaccaratRules.from_profile(profile)))


def assert_standard_punto_banco(profile: Profile, decks: int) -> None:
    """The published figures hold for these rules only: check the profile has them."""
    rules = BaccaratRules.from_profile(profile)
    assert rules.decks == decks
    assert rules.tableau is Tableau.STANDARD
    assert rules.player_pays == Odds(win=Fraction(1))
    assert rules.banker_pays == Odds(win=Fraction(1))
    assert rules.banker_commission == Fraction(5, 100)
    assert rules.tie_pays == Odds(win=Fraction(8))
    assert rules.tie_pushes


# --- baccarat: the published standard figures --------------------------------------------


@pytest.mark.parametrize(
    ("profile_id", "decks", "counts", "edges"),
    [
        (
            "baccarat-d",
            8,
            EIGHT_DECKS,
            {"banker": "1.0579%", "player": "1.2351%", "tie": "14.3596%"},
        ),
        ("baccarat-c", 6, SIX_DECKS, {"banker": "1.0558%", "player": "1.2374%", "tie": "14.4382%"}),
    ],
)
def test_standard_shoes_give_the_published_counts_and_house_edges(
    profile_id: str, decks: int, counts: dict[CoupOutcome, int], edges: dict[str, str]
) -> None:
    profile = shipped_profile(profile_id)
    assert_standard_punto_banco(profile, decks)
    total = perm(52 * decks, 6)
    assert sum(counts.values()) == total  # the published counts are of all six-card sequences
    assert chances(profile) == {outcome: Fraction(n, total) for outcome, n in counts.items()}
    lines = by_bet(profile)
    assert {bet: percent(line.house_edge) for bet, line in lines.items()} == edges
    # Exactly: a winning player bet returns 2, a banker one 1.95; a tie returns 9 on the
    # tie bet and the stake on the others (BAC.pay-*, BAC.tie-push).
    banker, player, tie = (Fraction(counts[o], total) for o in (BANKER, PLAYER, TIE))
    assert lines["player"].returns == 2 * player + tie
    assert lines["banker"].returns == Fraction(195, 100) * banker + tie
    assert lines["tie"].returns == 9 * tie


@pytest.mark.parametrize(
    ("extends", "counts"),
    [("baccarat-d", ONE_DECK_STANDARD), ("baccarat-b", ONE_DECK_DOCUMENT_B)],
)
def test_one_deck_counts_match_the_brute_force_ones(
    extends: str, counts: dict[CoupOutcome, int]
) -> None:
    """The enumeration by value classes and two-card totals against every ordered sequence.

    The standard counts are published; document B's come from a separate brute force
    (tests/oracle/test_baccarat_exact.py): its printed tableau included.
    """
    total = perm(52, 6)
    assert chances(lab(extends, decks=1)) == {o: Fraction(n, total) for o, n in counts.items()}


def test_document_b_as_printed_on_its_eight_decks() -> None:
    """B.tableau: no published figure, so what must hold whatever the tableau says.

    The chances add up to exactly 1 over B's eight-deck shoe; the returns follow from them by
    the payouts; and the banker's extra draws on a player's third-card ace at 4, 5 and 6 cost
    it coups against the standard tableau on the same shoe (D), as they do on one deck.
    """
    b, d = shipped_profile("baccarat-b"), shipped_profile("baccarat-d")
    b_rules = BaccaratRules.from_profile(b)
    assert b_rules.decks == 8
    assert b_rules.tableau is Tableau.DOCUMENT_B
    odds = chances(b)
    assert sum(odds.values()) == 1
    assert all(perm(416, 6) % p.denominator == 0 for p in odds.values())
    assert odds[BANKER] < Fraction(EIGHT_DECKS[BANKER], perm(416, 6)) == chances(d)[BANKER]
    assert odds[PLAYER] > chances(d)[PLAYER]
    lines = by_bet(b)
    assert lines["player"].returns == 2 * odds[PLAYER] + odds[TIE]
    assert lines["banker"].returns == Fraction(195, 100) * odds[BANKER] + odds[TIE]
    assert lines["tie"].returns == 9 * odds[TIE]
    # The ace cells help the player: B's player bet is better, its banker bet worse.
    assert lines["player"].house_edge < by_bet(d)["player"].house_edge
    assert lines["banker"].house_edge > by_bet(d)["banker"].house_edge


def test_the_profiles_own_payouts_are_used() -> None:
    """BAC.tie-push off: a tie loses player and banker bets; a 4% commission; tie at 9:1."""
    total = perm(416, 6)
    banker, player, tie = (Fraction(EIGHT_DECKS[o], total) for o in (BANKER, PLAYER, TIE))
    lines = by_bet(lab("baccarat-d", tie_pushes=False, banker_commission="0.04", tie_pays="9:1"))
    assert lines["player"].returns == 2 * player
    assert lines["banker"].returns == Fraction(196, 100) * banker
    assert lines["tie"].returns == 10 * tie
    # The well-known 9:1 tie edge, 4.84% (8 decks).
    assert percent(lines["tie"].house_edge, 2) == "4.84%"


def test_baccarat_variance_of_one_bet() -> None:
    """The player bet returns 2, 1 (a tie pushes) or 0: its variance from the published counts."""
    total = perm(416, 6)
    player, tie = Fraction(EIGHT_DECKS[PLAYER], total), Fraction(EIGHT_DECKS[TIE], total)
    mean = 2 * player + tie
    line = by_bet(shipped_profile("baccarat-d"))["player"]
    assert line.variance == 4 * player + tie - mean * mean


def test_baccarat_clauses() -> None:
    banker = by_bet(shipped_profile("baccarat-b"))["banker"]
    for clause in ("B.decks", "B.tableau", "BAC.banker-tableau", "BAC.pay-banker", "BAC.tie-push"):
        assert clause in banker.clauses
    # The figure is exact: rounding one stake's payout plays no part in it.
    assert "MONEY.rounding" not in banker.clauses
    assert "C.bac.decks" in by_bet(shipped_profile("baccarat-c"))["tie"].clauses


# --- roulette ----------------------------------------------------------------------------

EUROPEAN_KINDS = [
    "straight", "split", "street", "corner", "first-four", "line", "column", "dozen",
    "red", "black", "even", "odd", "low", "high",
]  # fmt: skip
AMERICAN_KINDS = [kind if kind != "first-four" else "top-line" for kind in EUROPEAN_KINDS]


def test_european_wheel_with_zero_losing_returns_36_of_37_on_every_bet() -> None:
    profile = shipped_profile("roulette-c")
    rules = RouletteRules.from_profile(profile)
    assert rules.wheel is Wheel.EUROPEAN
    assert rules.zero_loses
    lines = by_bet(profile)
    assert list(lines) == EUROPEAN_KINDS
    assert {line.returns for line in lines.values()} == {Fraction(36, 37)}
    assert percent(lines["red"].house_edge) == "2.7027%"
    assert "C.rou.zero-loses" in lines["red"].clauses
    assert "C.rou.zero-loses" not in lines["straight"].clauses


def test_american_wheel_returns_36_of_38_but_the_top_line() -> None:
    profile = shipped_profile("roulette-american")
    rules = RouletteRules.from_profile(profile)
    assert rules.wheel is Wheel.AMERICAN
    assert rules.zero_loses
    assert rules.odds_for(BetKind.TOP_LINE) == Odds(win=Fraction(6))  # 0-00-1-2-3 at 6:1
    lines = by_bet(profile)
    assert list(lines) == AMERICAN_KINDS
    for bet, line in lines.items():
        assert line.returns == (Fraction(35, 38) if bet == "top-line" else Fraction(36, 38)), bet
    assert percent(lines["top-line"].house_edge) == "7.8947%"


def test_la_partage_returns_half_an_even_chance_on_zero() -> None:
    """zero_rule half-back: 1 - 1/74, a house edge of 1.35%, on the even chances only."""
    lines = by_bet(lab("roulette-c", zero_rule="half-back"))
    for bet in ("red", "black", "even", "odd", "low", "high"):
        assert lines[bet].returns == Fraction(73, 74), bet
        assert percent(lines[bet].house_edge, 2) == "1.35%"
    for bet in ("straight", "column", "dozen"):
        assert lines[bet].returns == Fraction(36, 37), bet


def test_roulette_odds_come_from_the_profile() -> None:
    lines = by_bet(lab("roulette-c", straight_pays="36:1"))
    assert lines["straight"].returns == 1
    assert lines["split"].returns == Fraction(36, 37)


def test_roulette_variance_of_a_straight() -> None:
    """A straight returns 36 once in 37 spins: 36**2/37 less the mean's square."""
    line = by_bet(shipped_profile("roulette-c"))["straight"]
    assert line.variance == Fraction(36**2, 37) - Fraction(36, 37) ** 2


# --- blackjack and formatting ------------------------------------------------------------


def test_blackjack_has_no_exact_bet_figure_here() -> None:
    # Its return depends on the decisions: oracle.basic_strategy gives basic strategy's.
    assert theoretical_returns(shipped_profile("blackjack-a")) == ()


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [
        (Fraction(1, 74), 4, "1.3514%"),
        (Fraction(1, 37), 4, "2.7027%"),
        (Fraction(-1, 37), 4, "-2.7027%"),
        (Fraction(1), 2, "100.00%"),
        (Fraction(1, 3), 0, "33%"),
        # Exactly half a last place goes to the even digit: 0.00025% and 0.00035%.
        (Fraction(1, 400_000), 4, "0.0002%"),
        (Fraction(7, 2_000_000), 4, "0.0004%"),
    ],
)
def test_percent_rounds_exactly(value: Fraction, places: int, text: str) -> None:
    assert percent(value, places) == text
