"""The mutant zoo: the demo engine with exactly one realistic rule bug each.

Each ``Mutant`` names its bug, the profile whose vectors catch it, and the RULES.md clause
the conformance runner must cite when it kills it. ``python -m croupier.clients.mutants NAME`` serves
one mutant through the adapter kit; ``python -m croupier.conformance.zoo`` certifies them all.

A bug that is a house-rule setting gone wrong is the demo engine under ``variant(profile,
**changes)``; any other bug is one overridden method (``clients.mutants.bugs``). No mutant
imports the oracle or the conformance suite (the zoo driver, ``conformance.zoo``, does): a
mutant is a vendor engine like any other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from croupier.clients.adapter import EngineAdapter
from croupier.clients.demo_engine import HOUSE_RULES, DemoEngine, RouletteRules, variant
from croupier.clients.demo_engine.rules import DOCUMENT_B_TABLEAU, STANDARD_TABLEAU
from croupier.clients.mutants import bugs, kits, recovery


@dataclass(frozen=True, slots=True, kw_only=True)
class Mutant:
    """One mutant: its bug, where it shows, the clause that must kill it, and how to build it."""

    #: Kebab-case, unique: ``python -m croupier.clients.mutants NAME``.
    name: str
    #: The RULES.md clause the runner cites for the first vector that kills the mutant.
    clause: str
    #: The profile whose vectors catch the bug.
    profile: str
    #: The bug, in one line.
    description: str
    #: A fresh engine with the bug.
    factory: Callable[[], DemoEngine]
    #: The adapter kit that serves it: the kit itself, or one with a protocol bug.
    kit: type[EngineAdapter] = EngineAdapter
    #: A recovery bug (``RECOVERY_MUTANTS``): served with a state directory, it claims
    #: recovery, and the recovery vectors catch it.
    recovery: bool = False


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
        name="hangs-on-even-money",
        clause="CONTRACT.timeout",
        profile="blackjack-a",
        description="A Decide that takes even money never gets an answer (a protocol failure, not a rule).",
        factory=bugs.HangsOnEvenMoney,
    ),
    # --- blackjack: more rules ------------------------------------------------------------
    Mutant(
        name="hole-card-turned-for-a-blackjack",
        clause="A.peek",
        profile="blackjack-a",
        description="A blackjack settled at the peek turns the hole card while other seats play.",
        factory=bugs.HoleCardTurnedForABlackjack,
    ),
    Mutant(
        name="insurance-pays-on-any-21",
        clause="A.insurance",
        profile="blackjack-a",
        description="Insurance pays when the dealer ends on 21 with three cards, not only on a blackjack.",
        factory=bugs.InsurancePaysOnAny21,
    ),
    Mutant(
        name="dealer-hits-multi-card-soft-17",
        clause="A.dealer-draw",
        profile="blackjack-a",
        description="The dealer stands on a two-card soft 17 but hits one of three cards (A-2-4).",
        factory=bugs.DealerHitsMultiCardSoft17,
    ),
    Mutant(
        name="bust-wins-on-dealer-bust",
        clause="BJ.bust",
        profile="blackjack-a",
        description="A bust hand is paid 1:1 when the dealer busts too.",
        factory=bugs.BustWinsOnDealerBust,
    ),
    Mutant(
        name="blackjack-needs-ace-first",
        clause="BJ.natural",
        profile="blackjack-a",
        description="A ten-valued card then an ace is taken for a plain 21, not a blackjack.",
        factory=bugs.BlackjackNeedsAceFirst,
    ),
    Mutant(
        name="no-double-after-split-a",
        clause="A.double",
        profile="blackjack-a",
        description="Under A a hand formed by a split may not double.",
        factory=_settings("blackjack-a", double_after_split=False),
    ),
    Mutant(
        name="dealer-hits-soft-17-a",
        clause="A.dealer-draw",
        profile="blackjack-a",
        description="Under A the dealer draws on a soft 17.",
        factory=_settings("blackjack-a", dealer_hits_soft_17=True),
    ),
    Mutant(
        name="surrender-offered-a",
        clause="A.surrender",
        profile="blackjack-a",
        description="Under A surrender is offered on the first two cards.",
        factory=_settings("blackjack-a", surrender=True),
    ),
    # --- every table: limits, currency, funds, shoe -------------------------------------
    Mutant(
        name="zero-stake-accepted",
        clause="TABLE.limits",
        profile="baccarat-b",
        description="A stake of 0 or less is taken: the minimum is read only for positive stakes.",
        factory=bugs.ZeroStakeAccepted,
    ),
    Mutant(
        name="max-bet-not-enforced",
        clause="TABLE.limits",
        profile="baccarat-b",
        description="A stake over the table maximum is taken.",
        factory=bugs.MaxBetNotEnforced,
    ),
    Mutant(
        name="currency-code-not-checked",
        clause="TABLE.currency",
        profile="baccarat-b",
        description="Any text is taken as the round's currency code ('eur' too).",
        factory=bugs.CurrencyCodeNotChecked,
        kit=kits.CurrencyLeftToTheEngine,
    ),
    Mutant(
        name="currency-code-shape-only",
        clause="TABLE.currency",
        profile="roulette-c",
        description="Any three capital letters are taken as a currency code ('XYZ' too).",
        factory=bugs.CurrencyCodeShapeOnly,
        kit=kits.CurrencyLeftToTheEngine,
    ),
    Mutant(
        name="box-over-balance-accepted",
        clause="BJ.funds",
        profile="blackjack-a",
        description="A blackjack box larger than the seat's balance is dealt.",
        factory=bugs.BoxOverBalanceAccepted,
    ),
    Mutant(
        name="shoe-not-checked",
        clause="B.decks",
        profile="baccarat-b",
        description="Any shoe is dealt, whatever the copies of a card: nine of one card in eight decks too.",
        factory=bugs.ShoeNotChecked,
    ),
    Mutant(
        name="six-decks-b",
        clause="B.decks",
        profile="baccarat-b",
        description="Profile B is built with six decks: seven or eight copies of a card are refused.",
        factory=_settings("baccarat-b", decks=6),
    ),
    Mutant(
        name="eight-decks-c",
        clause="C.bac.decks",
        profile="baccarat-c",
        description="Profile C is built with eight decks: seven or eight copies of a card are dealt.",
        factory=_settings("baccarat-c", decks=8),
    ),
    Mutant(
        name="six-decks-d",
        clause="D.decks",
        profile="baccarat-d",
        description="Profile D is built with six decks: seven or eight copies of a card are refused.",
        factory=_settings("baccarat-d", decks=6),
    ),
    # --- the protocol ---------------------------------------------------------------------
    Mutant(
        name="illegal-decision-wrong-code",
        clause="CONTRACT.status-code",
        profile="baccarat-b",
        description="ILLEGAL_DECISION is sent with INVALID_ARGUMENT instead of FAILED_PRECONDITION.",
        factory=DemoEngine,
        kit=kits.IllegalDecisionWrongCode,
    ),
    Mutant(
        name="illegal-decision-without-legal",
        clause="CONTRACT.error-metadata",
        profile="baccarat-b",
        description="ILLEGAL_DECISION is sent without the legal decisions in its metadata.",
        factory=DemoEngine,
        kit=kits.IllegalDecisionWithoutLegal,
    ),
    Mutant(
        name="malformed-card-is-invalid-round",
        clause="CONTRACT.error-reason",
        profile="baccarat-b",
        description="A malformed card is refused with INVALID_ROUND instead of INVALID_CARD.",
        factory=DemoEngine,
        kit=kits.MalformedCardIsInvalidRound,
    ),
    Mutant(
        name="unknown-profile-is-invalid-round",
        clause="CONTRACT.error-reason",
        profile="baccarat-b",
        description="A profile the engine does not know is refused with INVALID_ROUND.",
        factory=DemoEngine,
        kit=kits.UnknownProfileIsInvalidRound,
    ),
    Mutant(
        name="unknown-round-is-illegal-decision",
        clause="CONTRACT.error-reason",
        profile="baccarat-b",
        description="A Decide for a round never dealt is refused with ILLEGAL_DECISION.",
        factory=DemoEngine,
        kit=kits.UnknownRoundIsIllegalDecision,
    ),
    Mutant(
        name="echoes-the-table-id",
        clause="CONTRACT.round-id",
        profile="baccarat-b",
        description="Every state names the table's id where the round's goes.",
        factory=DemoEngine,
        kit=kits.EchoesTheTableId,
    ),
    Mutant(
        name="settles-unfinished-rounds",
        clause="CONTRACT.lifecycle",
        profile="blackjack-a",
        description="A round that still waits for a decision is settled when asked.",
        factory=DemoEngine,
        kit=kits.SettlesUnfinishedRounds,
    ),
    Mutant(
        name="reuses-round-ids",
        clause="CONTRACT.lifecycle",
        profile="baccarat-b",
        description="A settled round's id may be dealt again.",
        factory=DemoEngine,
        kit=kits.ReusesRoundIds,
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
        name="totals-not-modulo-ten",
        clause="BAC.values",
        profile="baccarat-b",
        description="A baccarat total of 20 or more keeps 10 too many (9+9+9 is 17, not 7).",
        factory=bugs.TotalsNotModuloTen,
    ),
    Mutant(
        name="player-draws-on-6",
        clause="BAC.player-draw",
        profile="baccarat-b",
        description="The player draws on 6 too.",
        factory=bugs.PlayerDrawsOnSix,
    ),
    Mutant(
        name="tie-goes-to-banker",
        clause="BAC.outcome",
        profile="baccarat-b",
        description="Equal values are a banker win, not a tie.",
        factory=bugs.TieGoesToBanker,
    ),
    Mutant(
        name="player-pays-less-commission",
        clause="BAC.pay-player",
        profile="baccarat-b",
        description="A winning player bet is charged the banker's 5% commission.",
        factory=bugs.PlayerPaysLessCommission,
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
        name="any-four-is-a-corner",
        clause="C.rou.geometry",
        profile="roulette-c",
        description="Any four numbers are taken as a corner (3-4-6-7 too).",
        factory=bugs.AnyFourIsACorner,
    ),
    Mutant(
        name="any-two-rows-are-a-line",
        clause="C.rou.geometry",
        profile="roulette-c",
        description="Any two rows are taken as a line, adjacent or not (1-2-3-7-8-9 too).",
        factory=bugs.AnyTwoRowsAreALine,
    ),
    Mutant(
        name="run-of-three-is-a-street",
        clause="C.rou.geometry",
        profile="roulette-c",
        description="Any three consecutive numbers are a street, across rows too (2-3-4).",
        factory=bugs.RunOfThreeIsAStreet,
    ),
    Mutant(
        name="american-zero-three-split",
        clause="US.rou.geometry",
        profile="roulette-american",
        description="The American layout takes 0-3 as a split, as the European one does.",
        factory=bugs.AmericanZeroThreeSplit,
    ),
    Mutant(
        name="double-zero-is-zero",
        clause="US.rou.wheel",
        profile="roulette-american",
        description="00 pays the bets on 0: a straight on 0 wins when 00 comes up.",
        factory=bugs.DoubleZeroIsZero,
    ),
    Mutant(
        name="double-zero-half-back",
        clause="US.rou.zero-loses",
        profile="roulette-american",
        description="00 returns half an even-money bet instead of making it lose.",
        factory=bugs.DoubleZeroHalfBack,
    ),
    Mutant(
        name="zero-three-split-refused",
        clause="C.rou.geometry",
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
    # --- the clause of a difference (issue 22, item 3) -----------------------------------
    Mutant(
        name="decide-answers-the-state-before",
        clause="CONTRACT.stale",
        profile="blackjack-a",
        description="Every Decide is answered with the state the round was in before it.",
        factory=DemoEngine,
        kit=kits.AnswersTheStateBefore,
    ),
    Mutant(
        name="unplayed-hands-stand-at-the-peek",
        clause="A.peek",
        profile="blackjack-a",
        description="A dealer blackjack found at the peek marks the hands never played as stood.",
        factory=bugs.UnplayedHandsStandAtThePeek,
    ),
    Mutant(
        name="double-needs-twice-the-funds",
        clause="BJ.funds",
        profile="blackjack-a",
        description="A double is withheld unless the free funds cover twice the hand's stake.",
        factory=bugs.DoubleNeedsTwiceTheFunds,
    ),
    Mutant(
        name="insurance-on-even-stakes-only",
        clause="BJ.half-stakes",
        profile="blackjack-a",
        description="Insurance is not offered on an odd stake, whose half would be rounded.",
        factory=bugs.InsuranceOnEvenStakesOnly,
    ),
    Mutant(
        name="dealer-needed-by-the-first-seat",
        clause="BJ.dealer-needed",
        profile="blackjack-a",
        description="The dealer plays only if a hand of the first seat waits, not another seat's.",
        factory=bugs.DealerNeededByTheFirstSeat,
    ),
    # --- what the corpus never asked (issue 22) ------------------------------------------
    Mutant(
        name="decision-after-the-end-accepted",
        clause="CONTRACT.lifecycle",
        profile="blackjack-a",
        description="A decision sent to a complete round is answered with the round instead of ILLEGAL_DECISION.",
        factory=bugs.DecisionAfterTheEnd,
    ),
    Mutant(
        name="second-settle-pays-again",
        clause="CONTRACT.lifecycle",
        profile="baccarat-b",
        description="A settled round stays open: a second Settle pays it again instead of ROUND_NOT_FOUND.",
        factory=DemoEngine,
        kit=kits.SettlesTwice,
    ),
    Mutant(
        name="refused-double-keeps-its-card",
        clause="BJ.deal-order",
        profile="blackjack-a",
        description="A refused double has dealt its card already: the hand plays on with a card too many.",
        factory=bugs.RefusedDoubleKeepsItsCard,
        kit=kits.DecidesInPlace,
    ),
    Mutant(
        name="round-ids-unique-per-profile",
        clause="CONTRACT.lifecycle",
        profile="baccarat-b",
        description="A round id dealt under one profile may be dealt again under another.",
        factory=DemoEngine,
        kit=kits.RoundIdsPerProfile,
    ),
    Mutant(
        name="round-ids-case-insensitive",
        clause="CONTRACT.lifecycle",
        profile="baccarat-b",
        description="Round ids that differ only in letter case are taken for one round: the second is ROUND_EXISTS.",
        factory=DemoEngine,
        kit=kits.CaseInsensitiveRoundIds,
    ),
    Mutant(
        name="needed-counted-from-zero",
        clause="CONTRACT.error-metadata",
        profile="blackjack-a",
        description='SHOE_EXHAUSTED says "needed" one less than the contract (counted from 0).',
        factory=DemoEngine,
        kit=kits.NeededCountedFromZero,
    ),
    Mutant(
        name="commission-in-floats",
        clause="BAC.pay-banker",
        profile="baccarat-b",
        description="The banker commission is worked out in floats on major units: a banker bet of 60 returns 116, not 117.",
        factory=bugs.CommissionInFloats,
    ),
    Mutant(
        name="boards-shared-across-profiles",
        clause="C.rou.history",
        profile="roulette-c",
        description="A table's board is kept by table id alone: another profile's spins at that table show on it.",
        factory=bugs.BoardsSharedAcrossProfiles,
    ),
)

#: Every mutant, by name.
MUTANTS: dict[str, Mutant] = {mutant.name: mutant for mutant in _ZOO}


# --- lab profiles' variants (issue 24): blackjack, baccarat, roulette, a table's seats ------
#
# Each plays one lab profile of docs/examples/ (``LAB_TABLES``, the profile's id) and gets
# one VAR.* or TABLE.seats rule wrong. The shipped corpus has no vector of these profiles:
# vectors built for the lab profile kill them (tests/conformance/test_lab_variants.py).

_LAB_ZOO: tuple[Mutant, ...] = (
    Mutant(
        name="ez-three-card-seven-pays",
        clause="VAR.bac.ez",
        profile="ez-baccarat",
        description="No-commission baccarat pays a banker win on three cards totalling 7 at 1:1 "
        "instead of pushing it.",
        factory=_settings("ez-baccarat", no_commission=False),
    ),
    Mutant(
        name="ez-takes-commission",
        clause="VAR.bac.ez",
        profile="ez-baccarat",
        description="No-commission baccarat still takes 5% of a banker win.",
        factory=_settings("ez-baccarat", banker_commission=Fraction(5, 100)),
    ),
    Mutant(
        name="super-six-pays-in-full",
        clause="VAR.bac.banker-six",
        profile="super-six-baccarat",
        description="A banker win on 6 pays 1:1 instead of the table's 1:2.",
        factory=_settings("super-six-baccarat", banker_six_payout=None),
    ),
    Mutant(
        name="inside-bets-taken",
        clause="VAR.rou.bets-offered",
        profile="outside-bets-five-seats",
        description="An outside-bets-only table takes inside bets too.",
        factory=_settings("outside-bets-five-seats", offered=None),
    ),
    Mutant(
        name="sixth-seat-taken",
        clause="TABLE.seats",
        profile="outside-bets-five-seats",
        description="A table of five seats deals a round of six.",
        factory=_settings("outside-bets-five-seats", max_seats=16),
    ),
    Mutant(
        name="prison-is-a-loss",
        clause="VAR.rou.en-prison",
        profile="french-roulette",
        description="En prison is played as 'zero loses': an imprisoned bet is lost at once.",
        factory=_settings("french-roulette", zero_rule="loses"),
    ),
    Mutant(
        name="prison-pays-winnings",
        clause="VAR.rou.en-prison",
        profile="french-roulette",
        description="An imprisoned bet that wins on the seat's next spin is paid 1:1, not just "
        "its stake back.",
        factory=bugs.PrisonPaysWinnings,
    ),
    # Blackjack (VAR.bj.*): tables of docs/examples killed by the hand-computed vectors of
    # conformance/handwritten/lab_blackjack.py (tests/clients/test_lab_mutants.py).
    Mutant(
        name="double-on-any-two-cards",
        clause="VAR.bj.double-on",
        profile="european-no-hole-card",
        description="A table that doubles on 9, 10 or 11 only lets any two cards double.",
        factory=_settings("european-no-hole-card", double_on="any-two"),
    ),
    Mutant(
        name="double-for-less-doubles-full",
        clause="VAR.bj.double-for-less",
        profile="downtown",
        description="A double for less stakes the hand's whole stake, not the amount chosen.",
        factory=bugs.DoubleForLessDoublesFull,
    ),
    Mutant(
        name="insurance-for-less-insures-half",
        clause="VAR.bj.insurance-stake",
        profile="downtown",
        description="Insurance for less stakes half the bet, not the amount chosen.",
        factory=bugs.InsuranceForLessInsuresHalf,
    ),
    Mutant(
        name="splits-to-five-hands",
        clause="VAR.bj.resplit",
        profile="atlantic-city",
        description="Pairs re-split to five hands where the table allows four.",
        factory=_settings("atlantic-city", max_hands=5),
    ),
    Mutant(
        name="early-surrender-asked-late",
        clause="VAR.bj.surrender",
        profile="atlantic-city-early-surrender",
        description="Early surrender is offered only after the dealer's look, as late surrender.",
        factory=_settings("atlantic-city-early-surrender", early_surrender=False),
    ),
    Mutant(
        name="hole-card-always-turned",
        clause="VAR.bj.hole-card",
        profile="european-no-hole-card",
        description="The hole card is turned when every hand has busted, with no hand to compare.",
        factory=_settings("european-no-hole-card", hole_card_at_showdown=False),
    ),
)

#: The mutants of the lab profiles' variants, by name.
LAB_MUTANTS: dict[str, Mutant] = {mutant.name: mutant for mutant in _LAB_ZOO}


def _recovering(name: str, profile: str, description: str, kit: type[EngineAdapter]) -> Mutant:
    return Mutant(
        name=name,
        clause="CONTRACT.recovery",
        profile=profile,
        description=description,
        factory=DemoEngine,
        kit=kit,
        recovery=True,
    )


#: Recovery bugs (CONTRACT.recovery): each is served with ``--state-dir`` and claims recovery;
#: the recovery vectors (``conformance/recovery/``) catch them, each restarting the engine.
_RECOVERY_ZOO: tuple[Mutant, ...] = (
    _recovering(
        "recovery-forgets-open-rounds",
        "blackjack-a",
        "After a restart, every open round is gone (its id still taken).",
        recovery.ForgetsOpenRounds,
    ),
    _recovering(
        "recovery-fresh-shoe",
        "blackjack-a",
        "After a restart, a round keeps its cards but draws the rest from a fresh shoe.",
        recovery.FreshShoeAfterRestart,
    ),
    _recovering(
        "recovery-last-decision-twice",
        "blackjack-c",
        "After a restart, each open round's last decision is applied a second time.",
        recovery.AppliesTheLastDecisionTwice,
    ),
    _recovering(
        "recovery-settles-twice",
        "baccarat-b",
        "After a restart, a settled round is open again and a second Settle pays it again.",
        recovery.SettlesTwiceAfterRestart,
    ),
    _recovering(
        "recovery-loses-the-board",
        "roulette-c",
        "After a restart, a roulette table's board holds none of its earlier spins.",
        recovery.LosesTheRouletteBoard,
    ),
    _recovering(
        "recovery-journals-after-answering",
        "blackjack-a",
        "A call is journaled after its answer: a SIGKILL in between loses it.",
        recovery.JournalsAfterAnswering,
    ),
)

#: The recovery mutants, by name.
RECOVERY_MUTANTS: dict[str, Mutant] = {mutant.name: mutant for mutant in _RECOVERY_ZOO}

__all__ = ["LAB_MUTANTS", "MUTANTS", "RECOVERY_MUTANTS", "Mutant"]
