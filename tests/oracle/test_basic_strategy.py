"""Blackjack's return under total-dependent basic strategy against published figures.

Sources (every figure is a house edge, in percent of the first stake, for a shoe reshuffled
before every round, total-dependent basic strategy, split to two hands, one card to split
aces, peek under an ace and a ten, 3:2, no surrender unless said):

- [WOO] The Wizard of Odds blackjack house-edge calculator,
  https://wizardofodds.com/games/blackjack/calculator/, its "basic strategy with continuous
  shuffler" figure (total-dependent basic strategy, fresh shoe every hand), published to
  five decimals: 8 decks, S17, DAS, split to 2 hands: 0.48768%; 6 decks, the same rules:
  0.45999%; 6 decks, re-split to 4 hands (not aces): 0.40622%. (The issue's tolerance: 0.01
  percentage points.)
- [BJR] blackjackreview.com, "Blackjack Rule Variations and Odds" (after Norm Wattenberger's
  calculator), for a six-deck shoe: dealer hits soft 17 -0.20%, double after split +0.14%,
  late surrender +0.08%, blackjack pays 6:5 -1.36% to the player; early surrender against
  an ace +0.39% and against a ten +0.24% (together +0.63%).
- [BJ21] bj21.com, "Estimating your edge", Table 4: dealer hits soft seventeen -0.20%,
  double after splits +0.14%.
- [WOOBS] The Wizard of Odds basic strategy charts for four decks or more
  (https://wizardofodds.com/games/blackjack/strategy/calculator/): hit 11 against an ace
  when the dealer stands on soft 17, double it when the dealer hits; stand on soft 18
  against a 2 (S17), double it (H17); surrender 16 against a ten; without a hole card, do
  not double 11 against a ten.

The published rule effects are given to two decimals and were measured on a base that
re-splits to four hands (which makes doubling after a split worth more), so each effect is
checked to 0.02 percentage points: a quarter of the smallest of them.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from importlib import resources

import pytest

from croupier.oracle import basic_strategy
from croupier.oracle.basic_strategy import (
    _BIT,
    ERROR_BOUND,
    FIGURES_FILE,
    Action,
    Rules,
    StrategyReturn,
    _Up,
    analyse,
    contributions,
    figures_text,
    per_unit_staked,
    rules_of,
    shipped_per_unit_staked,
    strategy_return,
)
from croupier.oracle.blackjack import BlackjackRules
from croupier.oracle.clauses import Game
from croupier.oracle.errors import ProfileError
from croupier.oracle.immutable import evolve
from croupier.oracle.parameters import SPECS
from croupier.oracle.profile import Profile, load_profile_text, shipped_profile

#: The issue's tolerance for a published figure, in percentage points.
FIGURE = 0.01
#: For a published rule effect (see the module's docstring).
EFFECT = 0.02


def lab(**values: object) -> Profile:
    """Blackjack A with its unusual rules taken back to the standard game's, then ``values``."""
    params = {"split_pairs": "same-rank", "hit_split_aces": False, **values}
    specs = SPECS[Game.BLACKJACK]
    lines = [
        f"{name} = {{ value = {_toml(value)}, clauses = [{_clauses(specs[name].clauses)}], "
        'status = "assumed" }'
        for name, value in sorted(params.items())
    ]
    text = "\n".join(
        [
            'id = "lab-standard"',
            'game = "blackjack"',
            'title = "The standard game"',
            'source = "lab"',
            'extends = "blackjack-a"',
            "[parameters]",
            *lines,
        ]
    )
    return load_profile_text(text)


def _clauses(clauses: tuple[str, ...]) -> str:
    return ", ".join(f'"{c}"' for c in clauses)


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def edge(profile: Profile) -> float:
    """The house edge in percent."""
    return strategy_return(profile).house_edge * 100


# --- published figures --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "published"),
    [({"decks": 8}, 0.48768), ({"decks": 6}, 0.45999), ({"max_hands": 4}, 0.40622)],
)
def test_the_standard_game_matches_the_wizard_of_odds_calculator(
    change: dict[str, object], published: float
) -> None:
    # [WOO]: S17, DAS, double any two cards, split to 2 hands (or re-split to 4, not aces),
    # one card to split aces, peek (the original stake only to a dealer blackjack), no
    # surrender, 3:2.
    assert abs(edge(lab(**change)) - published) < FIGURE


@pytest.mark.parametrize(
    ("change", "published"),
    [
        # [BJR], [BJ21]: H17 costs the player 0.20%.
        ({"dealer_hits_soft_17": True}, 0.20),
        # [BJR], [BJ21]: doubling after a split is worth 0.14%.
        ({"double_after_split": False}, 0.14),
        # [BJR]: 6:5 costs 1.36%.
        ({"blackjack_pays": "6:5"}, 1.36),
        # [BJR]: late surrender is worth 0.08%.
        ({"surrender": True}, -0.08),
        # [BJR]: early surrender (VAR.bj.surrender) against an ace and a ten, 0.39% + 0.24%.
        ({"surrender": True, "surrender_timing": "early"}, -0.63),
    ],
)
def test_one_rule_changes_the_edge_by_its_published_effect(
    change: dict[str, object], published: float
) -> None:
    delta = edge(lab(**change)) - edge(lab())
    assert abs(delta - published) < EFFECT


def test_the_chart_has_the_published_cells() -> None:
    # [WOOBS], six decks.
    s17 = strategy_return(lab()).chart
    h17 = strategy_return(lab(dealer_hits_soft_17=True)).chart
    assert s17.hard[1][11] is Action.HIT
    assert h17.hard[1][11] is Action.DOUBLE
    assert s17.soft[2][18] is Action.STAND
    assert h17.soft[2][18] is Action.DOUBLE
    assert h17.hit_stand[2][18, True] is Action.STAND  # "Ds": double, else stand
    surrender = strategy_return(lab(surrender=True)).chart
    assert surrender.hard[10][16] is Action.SURRENDER
    assert surrender.hit_stand[10][16, False] is Action.HIT
    # The textbook rows every chart shares: split aces and eights, never tens or fives.
    for up in range(1, 11):
        assert s17.pairs[up][1] is Action.SPLIT
        assert s17.pairs[up][8] is Action.SPLIT
        assert s17.pairs[up][10] is Action.STAND
        assert s17.pairs[up][5] in (Action.DOUBLE, Action.HIT)
        assert s17.hard[up][17] is Action.STAND


# --- the shipped profiles -----------------------------------------------------------------


def test_blackjack_c_plays_without_a_hole_card_under_a_ten() -> None:
    # C.bj.peek: no look under a ten, a dealer blackjack takes doubled stakes too, so 11
    # does not double against a ten ([WOOBS], no hole card); C.bj.surrender: the half stake
    # is kept even against a dealer blackjack turned later, so 16 surrenders there.
    chart = strategy_return(shipped_profile("blackjack-c")).chart
    assert chart.hard[10][11] is Action.HIT
    assert chart.hard[9][11] is Action.DOUBLE
    assert chart.hard[10][16] is Action.SURRENDER


def test_the_rules_worth_add_up_to_the_profile_return() -> None:
    # Blackjack A: the standard game, then mixed-picture pairs, then hits on split aces.
    found = strategy_return(shipped_profile("blackjack-a"))
    base, worths = contributions(found.rules)
    assert base.returns == strategy_return(lab()).returns
    assert worths[-1].after == found.returns
    assert base.returns + sum(w.worth for w in worths) == pytest.approx(found.returns, abs=1e-12)
    for before, after in itertools.pairwise(worths):
        assert after.before == before.after


def test_mixed_picture_splits_are_worth_nothing_to_basic_strategy() -> None:
    # A.split lets J-Q split, but the chart never splits two ten-valued cards: the same return.
    found = strategy_return(shipped_profile("blackjack-a"))
    assert all(found.chart.pairs[up][10] is Action.STAND for up in range(1, 11))
    _, worths = contributions(found.rules)
    by_rule = {w.rule: w for w in worths}
    assert by_rule["split_pairs"].worth == 0.0
    assert by_rule["hit_split_aces"].worth > 0.1 / 100


def test_insurance_and_even_money_cost_what_counting_the_cards_says() -> None:
    # Six decks: 24 aces and 96 ten-valued cards of 312. Insurance (A.insurance) stakes half
    # the first stake on every hand but a natural and pays 2:1 when the hole card is a ten.
    found = strategy_return(shipped_profile("blackjack-a"))
    ace_up = Fraction(24, 312)
    ten_hole = Fraction(96, 311)
    natural = Fraction(2 * 23 * 95, 310 * 309)  # the player's A-T, once A up and T hole are out
    no_natural_with_ten = ace_up * ten_hole * (1 - natural)
    no_natural = ace_up * (1 - Fraction(2 * 23 * 96, 311 * 310))
    insurance = Fraction(1, 2) * (3 * no_natural_with_ten - no_natural)
    assert found.declined.insurance == pytest.approx(float(insurance), abs=1e-15)
    # Even money (A.even-money): 1 now instead of 3:2 unless the hole card is a ten.
    naturals = ace_up * Fraction(2 * 23 * 96, 311 * 310)
    even_money = naturals * (1 - Fraction(3, 2) * (1 - Fraction(95, 309)))
    assert found.declined.even_money == pytest.approx(float(even_money), abs=1e-15)
    # Blackjack A lets an insured seat play on; C (C.bj.insurance) does not, which costs more.
    assert found.declined.after_insurance == 0.0
    assert strategy_return(shipped_profile("blackjack-c")).declined.after_insurance < 0


def test_the_stake_counts_doubles_and_splits() -> None:
    found = strategy_return(shipped_profile("blackjack-a"))
    assert 1.05 < found.stake < 1.2
    assert found.per_unit_staked == 1 + found.returns / found.stake
    places = Fraction(1, 10**12)
    assert abs(found.per_unit_staked_exact - Fraction(found.per_unit_staked)) <= places
    assert abs(found.returns_exact - Fraction(found.returns)) <= places
    assert found.error_bound == ERROR_BOUND


def test_results_are_cached_by_the_rules_digest() -> None:
    rules = rules_of(shipped_profile("blackjack-a"))
    first: StrategyReturn = analyse(rules)
    again = analyse(Rules.of(BlackjackRules.from_profile(shipped_profile("blackjack-a"))))
    assert again is first
    assert rules.digest != rules_of(shipped_profile("blackjack-c")).digest


def test_the_shipped_figures_are_those_the_analysis_gives_now() -> None:
    """``oracle/basic_strategy.toml`` is ``make figures``' output: re-analysed, it is unchanged."""
    shipped = (resources.files("croupier.oracle") / FIGURES_FILE).read_text("utf-8")
    assert shipped == figures_text(), "the analysis changed: run `make figures`"
    for profile_id in ("blackjack-a", "blackjack-c"):
        rules = rules_of(shipped_profile(profile_id))
        assert shipped_per_unit_staked(rules) == analyse(rules).per_unit_staked_exact
        assert f'digest = "{rules.digest}"' in shipped


def test_the_shipped_figure_is_read_not_analysed(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = rules_of(shipped_profile("blackjack-c"))
    marked = Fraction(1, 3)
    monkeypatch.setattr(basic_strategy, "_shipped_figures", lambda: {rules.digest: marked})
    assert per_unit_staked(rules) == marked


def test_rules_the_table_lacks_are_analysed() -> None:
    rules = rules_of(lab(dealer_hits_soft_17=True))
    assert shipped_per_unit_staked(rules) is None
    assert per_unit_staked(rules) == analyse(rules).per_unit_staked_exact
    # The standard game's rules differ from blackjack-a's own, and so does its figure.
    assert per_unit_staked(rules) != per_unit_staked(rules_of(shipped_profile("blackjack-a")))


def test_another_game_is_refused_by_name() -> None:
    with pytest.raises(ProfileError, match="not blackjack"):
        rules_of(shipped_profile("roulette-c"))


def _dealer_exact(
    shoe: list[int], total: int, soft: bool, cards: int, *, h17: bool
) -> list[Fraction]:
    """The dealer's outcomes (17-21, bust, blackjack) by plain recursion over the next card,
    exact: C.bj.dealer-draw (stand on 17 to 21; on a soft 17 only if S17), BJ.natural."""
    if cards == 2 and total == 21:
        return [Fraction(0)] * 6 + [Fraction(1)]
    if total > 21:
        return [Fraction(0)] * 5 + [Fraction(1), Fraction(0)]
    if total > 17 or (total == 17 and not (soft and h17)):
        out = [Fraction(0)] * 7
        out[total - 17] = Fraction(1)
        return out
    size = sum(shoe)
    out = [Fraction(0)] * 7
    for value in range(1, 11):
        n = shoe[value - 1]
        if not n:
            continue
        shoe[value - 1] -= 1
        hard = total - (10 if soft else 0) + value
        is_soft = (soft or value == 1) and hard + 10 <= 21
        after = _dealer_exact(shoe, hard + 10 if is_soft else hard, is_soft, cards + 1, h17=h17)
        shoe[value - 1] += 1
        for i in range(7):
            out[i] += Fraction(n, size) * after[i]
    return out


@pytest.mark.parametrize(("up", "h17"), [(6, False), (1, True), (10, False)])
def test_the_dealer_totals_are_those_of_counting_every_draw(up: int, h17: bool) -> None:
    # One deck, a player's 10 and 6 out too: an independent exact count, by BJ.values.
    rules = evolve(rules_of(lab(decks=1)), hits_soft_17=h17)
    analysis = _Up(rules, up)
    removed = _BIT[10] + _BIT[6]
    shoe = [4] * 9 + [16]
    shoe[up - 1] -= 1
    shoe[9] -= 1
    shoe[5] -= 1
    exact = _dealer_exact(shoe, 11 if up == 1 else up, up == 1, 1, h17=h17)
    found = analysis.dealer(removed)
    assert sum(exact) == 1
    for mine, theirs in zip(found, exact, strict=True):
        assert abs(Fraction(mine) - theirs) < Fraction(1, 10**15)
