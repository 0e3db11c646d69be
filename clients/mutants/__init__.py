"""The mutant zoo: the demo engine with exactly one realistic rule bug each.

Each ``Mutant`` names its bug, the profile whose vectors catch it, and the RULES.md clause
the conformance runner must cite when it kills it. ``python -m clients.mutants NAME`` serves
one mutant through the adapter kit; ``python -m conformance.zoo`` certifies them all.

A bug that is a house-rule setting gone wrong is the demo engine under ``variant(profile,
**changes)``; any other bug is one overridden method (``clients.mutants.bugs``). No mutant
imports the oracle or the conformance suite (the zoo driver, ``conformance.zoo``, does): a
mutant is a vendor engine like any other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from clients.demo_engine import HOUSE_RULES, DemoEngine, RouletteRules, variant
from clients.demo_engine.rules import DOCUMENT_B_TABLEAU, STANDARD_TABLEAU
from clients.mutants import bugs


@dataclass(frozen=True, slots=True, kw_only=True)
class Mutant:
    """One mutant: its bug, where it shows, the clause that must kill it, and how to build it."""

    #: Kebab-case, unique: ``python -m clients.mutants NAME``.
    name: str
    #: The RULES.md clause the runner cites for the first vector that kills the mutant.
    clause: str
    #: The profile whose vectors catch the bug.
    profile: str
    #: The bug, in one line.
    description: str
    #: A fresh engine with the bug.
    factory: Callable[[], DemoEngine]


def _settings(profile: str, **changes: object) -> Callable[[], DemoEngine]:
    """A demo engine with one settings table changed."""

    def build() -> DemoEngine:
        return DemoEngine(variant(profile, **changes))

    return build


def _payouts(profile: str, **odds: int) -> dict[str, Fraction]:
    """A roulette table's payouts with some bet kinds' net odds changed."""
    rules = HOUSE_RULES[profile]
    assert isinstance(rules, RouletteRules)  # noqa: S101 - a roulette profile by construction
    return {**rules.payouts, **{kind: Fraction(net) for kind, net in odds.items()}}


_ZOO: tuple[Mutant, ...] = (
    # --- blackjack: payouts ---------------------------------------------------------------
    Mutant(
        name="blackjack-pays-even",
        clause="BJ.nat-pays",
        profile="blackjack-c",
        description="A player blackjack pays 1:1 instead of 3:2.",
        factory=_settings("blackjack-c", blackjack_payout=Fraction(1)),
    ),
    Mutant(
        name="blackjack-pays-6-5",
        clause="BJ.nat-pays",
        profile="blackjack-a",
        description="A player blackjack pays 6:5 instead of 3:2.",
        factory=_settings("blackjack-a", blackjack_payout=Fraction(6, 5)),
    ),
    Mutant(
        name="natural-pushes-dealer-21",
        clause="BJ.nat-pays",
        profile="blackjack-c",
        description="A player blackjack pushes against a dealer's three-card 21 (it should win 3:2).",
        factory=bugs.NaturalPushesAny21,
    ),
    Mutant(
        name="three-card-21-pushes-blackjack",
        clause="BJ.compare",
        profile="blackjack-c",
        description="A player's three-card 21 pushes against a dealer blackjack (it should lose).",
        factory=bugs.Any21PushesDealerBlackjack,
    ),
    Mutant(
        name="split-aces-21-pays-3-2",
        clause="A.split",
        profile="blackjack-a",
        description="A two-card 21 on a split hand (split aces and a ten) is paid as a blackjack, 3:2.",
        factory=bugs.SplitAces21IsBlackjack,
    ),
    Mutant(
        name="insurance-pays-3-2",
        clause="A.insurance",
        profile="blackjack-a",
        description="Insurance pays 3:2 instead of 2:1.",
        factory=_settings("blackjack-a", insurance_payout=Fraction(3, 2)),
    ),
    Mutant(
        name="surrender-refunds-all",
        clause="C.bj.surrender",
        profile="blackjack-c",
        description="Surrender returns the whole stake instead of half.",
        factory=bugs.SurrenderRefundsAll,
    ),
    Mutant(
        name="rounds-up",
        clause="MONEY.rounding",
        profile="baccarat-b",
        description="A fractional payout is rounded up instead of down (a winning banker bet of 25 returns 49, 48.75 rounded up, not 48).",
        factory=bugs.RoundsUp,
    ),
    Mutant(
        name="late-blackjack-original-bet-only",
        clause="C.bj.peek",
        profile="blackjack-c",
        description="A dealer blackjack found after play takes only the original bet, not doubled or split stakes.",
        factory=_settings("blackjack-c", late_blackjack_takes_all=False),
    ),
    # --- blackjack: hand values and the dealer --------------------------------------------
    Mutant(
        name="aces-drop-once",
        clause="BJ.values",
        profile="blackjack-a",
        description="Aces count 11 and only one drops to 1 when the hand is over 21 (A-A-K is 22).",
        factory=bugs.AcesDropOnce,
    ),
    Mutant(
        name="dealer-hits-soft-17",
        clause="C.bj.dealer-draw",
        profile="blackjack-c",
        description="The dealer draws on a soft 17.",
        factory=_settings("blackjack-c", dealer_hits_soft_17=True),
    ),
    Mutant(
        name="dealer-plays-after-all-bust",
        clause="BJ.dealer-needed",
        profile="blackjack-a",
        description="The dealer draws to 17 even when every hand is bust.",
        factory=bugs.DealerAlwaysPlays,
    ),
    # --- blackjack: the deal --------------------------------------------------------------
    Mutant(
        name="hole-card-before-second-card",
        clause="BJ.deal-order",
        profile="blackjack-a",
        description="The dealer's hole card is dealt before the seats' second cards.",
        factory=bugs.HoleCardFirst,
    ),
    Mutant(
        name="split-hands-dealt-together",
        clause="BJ.deal-order",
        profile="blackjack-a",
        description="Both split hands get their second card at the split, not each as it starts.",
        factory=bugs.SplitDealsBothAtOnce,
    ),
    # --- blackjack: the peek and the offers -----------------------------------------------
    Mutant(
        name="peek-under-ten-c",
        clause="C.bj.peek",
        profile="blackjack-c",
        description="Under C the dealer peeks for blackjack under a ten up card.",
        factory=_settings("blackjack-c", peek_under_ten=True),
    ),
    Mutant(
        name="no-peek-under-ten-a",
        clause="A.peek",
        profile="blackjack-a",
        description="Under A the dealer does not look for blackjack under a ten up card.",
        factory=_settings("blackjack-a", peek_under_ten=False),
    ),
    Mutant(
        name="natural-not-paid-at-once",
        clause="A.nat-immediate",
        profile="blackjack-a",
        description="Under A a blackjack against 2-9 waits for the hole card instead of being paid at once.",
        factory=_settings("blackjack-a", pay_naturals_at_once=False),
    ),
    Mutant(
        name="no-even-money",
        clause="A.even-money",
        profile="blackjack-a",
        description="Under A a blackjack against an ace is offered insurance, not even money.",
        factory=_settings("blackjack-a", natural_vs_ace="insurance"),
    ),
    Mutant(
        name="offers-on-one-unit",
        clause="BJ.half-stakes",
        profile="blackjack-a",
        description="A 1-unit stake is offered even money or insurance although half of it rounds to 0.",
        factory=bugs.OffersOnNothing,
    ),
    Mutant(
        name="insurance-ignores-funds",
        clause="BJ.funds",
        profile="blackjack-a",
        description="Insurance is offered even when the balance cannot cover it.",
        factory=bugs.InsuranceIgnoresFunds,
    ),
    Mutant(
        name="hangs-on-insurance",
        clause="CONTRACT.timeout",
        profile="blackjack-a",
        description="A Decide that takes insurance never gets an answer (a protocol failure, not a rule).",
        factory=bugs.HangsOnInsurance,
    ),
    # --- blackjack: splits, doubles, surrender --------------------------------------------
    Mutant(
        name="split-hand-plays-on-at-21",
        clause="BJ.auto-stand",
        profile="blackjack-a",
        description="A split hand that makes 21 with its second card keeps playing instead of standing.",
        factory=bugs.SplitHandPlaysOnAt21,
    ),
    Mutant(
        name="ten-jack-splits-a",
        clause="A.split",
        profile="blackjack-a",
        description="Under A a ten and a picture (10-J) may be split.",
        factory=bugs.TenIsAPicture,
    ),
    Mutant(
        name="pictures-do-not-split-a",
        clause="A.split",
        profile="blackjack-a",
        description="Under A two different pictures (K-Q) may not be split.",
        factory=_settings("blackjack-a", pair_rule="same-rank"),
    ),
    Mutant(
        name="pictures-split-c",
        clause="C.bj.split",
        profile="blackjack-c",
        description="Under C two different pictures (K-Q) may be split.",
        factory=_settings("blackjack-c", pair_rule="same-rank-or-pictures"),
    ),
    Mutant(
        name="resplit-c",
        clause="C.bj.split",
        profile="blackjack-c",
        description="Under C a split hand may be split again (up to three hands).",
        factory=_settings("blackjack-c", max_hands=3),
    ),
    Mutant(
        name="double-after-insurance-c",
        clause="C.bj.insurance",
        profile="blackjack-c",
        description="Under C a seat that took insurance may still double.",
        factory=_settings("blackjack-c", double_after_insurance=True),
    ),
    Mutant(
        name="split-after-insurance-c",
        clause="C.bj.insurance",
        profile="blackjack-c",
        description="Under C a seat that took insurance may still split.",
        factory=_settings("blackjack-c", split_after_insurance=True),
    ),
    Mutant(
        name="no-double-after-split-c",
        clause="C.bj.double",
        profile="blackjack-c",
        description="Under C a hand formed by a split may not double.",
        factory=_settings("blackjack-c", double_after_split=False),
    ),
    Mutant(
        name="surrender-after-split",
        clause="C.bj.surrender",
        profile="blackjack-c",
        description="Surrender is offered on a hand formed by a split.",
        factory=bugs.SurrenderAfterSplit,
    ),
    Mutant(
        name="split-ignores-funds",
        clause="BJ.funds",
        profile="blackjack-a",
        description="A split is offered even when the balance cannot cover the second stake.",
        factory=bugs.SplitIgnoresFunds,
    ),
    Mutant(
        name="double-ignores-funds",
        clause="BJ.funds",
        profile="blackjack-a",
        description="A double is offered even when the balance cannot cover the extra stake.",
        factory=bugs.DoubleIgnoresFunds,
    ),
    # --- baccarat -------------------------------------------------------------------------
    Mutant(
        name="commission-on-return",
        clause="BAC.pay-banker",
        profile="baccarat-b",
        description="The 5% banker commission is taken off the whole return, stake and win (190 for 100, not 195).",
        factory=bugs.CommissionOnReturn,
    ),
    Mutant(
        name="commission-on-tie",
        clause="BAC.tie-push",
        profile="baccarat-b",
        description="A banker bet pushed by a tie is charged the 5% commission (95 back for 100).",
        factory=bugs.CommissionOnTie,
    ),
    Mutant(
        name="tie-loses-bets",
        clause="BAC.tie-push",
        profile="baccarat-d",
        description="A tie makes the player and banker bets lose instead of pushing.",
        factory=_settings("baccarat-d", tie_pushes=False),
    ),
    Mutant(
        name="tie-pays-9-1",
        clause="BAC.pay-tie",
        profile="baccarat-c",
        description="A winning tie pays 9:1 (document C's '9 pour 1' read as net odds) instead of 8:1.",
        factory=_settings("baccarat-c", tie_payout=Fraction(9)),
    ),
    Mutant(
        name="tableau-ten-counts-ten",
        clause="BAC.banker-tableau",
        profile="baccarat-c",
        description="A ten or picture as the player's third card reads 10 in the banker's tableau, not 0.",
        factory=bugs.TenCountsTen,
    ),
    Mutant(
        name="b-tableau-standard",
        clause="B.tableau",
        profile="baccarat-b",
        description="Profile B plays the standard tableau, not its ace cells as printed.",
        factory=_settings("baccarat-b", tableau=STANDARD_TABLEAU),
    ),
    Mutant(
        name="c-tableau-document-b",
        clause="BAC.banker-tableau",
        profile="baccarat-c",
        description="Profile C plays document B's tableau (the banker draws on an ace at 4, 5, 6).",
        factory=_settings("baccarat-c", tableau=DOCUMENT_B_TABLEAU),
    ),
    Mutant(
        name="banker-stands-on-5",
        clause="BAC.banker-stood",
        profile="baccarat-c",
        description="When the player stood, the banker stands on 5 instead of drawing.",
        factory=_settings("baccarat-c", banker_stands_on=5),
    ),
    Mutant(
        name="player-dealt-first",
        clause="BAC.deal",
        profile="baccarat-b",
        description="The player's two cards are dealt before the banker's (P, P, B, B).",
        factory=bugs.PlayerDealtFirst,
    ),
    Mutant(
        name="banker-draws-fourth",
        clause="BAC.deal",
        profile="baccarat-b",
        description="A banker still on 0 to 2 after its third card draws a fourth.",
        factory=bugs.BankerDrawsFourth,
    ),
    Mutant(
        name="banker-natural-ignored",
        clause="BAC.natural",
        profile="baccarat-b",
        description="A banker natural does not stop the player from drawing a third card.",
        factory=bugs.BankerNaturalIgnored,
    ),
    # --- roulette -------------------------------------------------------------------------
    Mutant(
        name="zero-half-back",
        clause="C.rou.zero-loses",
        profile="roulette-c",
        description="Zero returns half of an even-money bet instead of losing it.",
        factory=_settings("roulette-c", zero_rule="half-back"),
    ),
    Mutant(
        name="any-split-accepted",
        clause="C.rou.geometry",
        profile="roulette-c",
        description="A split of two pockets that are not adjacent (1-5) is accepted and settled.",
        factory=bugs.AnySplit,
    ),
    Mutant(
        name="zero-three-split-refused",
        clause="C.rou.wheel",
        profile="roulette-c",
        description="The European 0-3 split is refused as not a shape of the layout.",
        factory=bugs.NoZeroThreeSplit,
    ),
    Mutant(
        name="street-pays-17-1",
        clause="C.rou.wheel",
        profile="roulette-c",
        description="A street pays 17:1 instead of 11:1.",
        factory=_settings("roulette-c", payouts=_payouts("roulette-c", street=17)),
    ),
    Mutant(
        name="dozen-pays-1-1",
        clause="C.rou.wheel",
        profile="roulette-c",
        description="A dozen pays 1:1 instead of 2:1 (document C's '2 : 2' misprint taken literally).",
        factory=_settings("roulette-c", payouts=_payouts("roulette-c", dozen=1)),
    ),
    Mutant(
        name="history-holds-12",
        clause="C.rou.history",
        profile="roulette-c",
        description="The board shows the last 12 results instead of 13.",
        factory=_settings("roulette-c", history_length=12),
    ),
    Mutant(
        name="top-line-pays-8-1",
        clause="US.rou.geometry",
        profile="roulette-american",
        description="The American top line (0-00-1-2-3) pays 8:1 instead of 6:1.",
        factory=_settings(
            "roulette-american", payouts=_payouts("roulette-american", **{"top-line": 8})
        ),
    ),
)

#: Every mutant, by name.
MUTANTS: dict[str, Mutant] = {mutant.name: mutant for mutant in _ZOO}

__all__ = ["MUTANTS", "Mutant"]
