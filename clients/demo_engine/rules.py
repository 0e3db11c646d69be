"""House rules: one settings table per profile the demo engine plays.

Every rule a casino might set differently is a field here, not a branch in the
code. ``HOUSE_RULES`` holds the seven tables the engine ships with; ``variant``
gives a copy with one table changed, for a lab (or a mutant) that plays a
different house rule under the same profile id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Literal

PairRule = Literal["same-rank", "same-rank-or-pictures", "same-value"]
#: Which hands may double: any two cards, a two-card 9 to 11 or 10 to 11, or any hand.
DoubleOn = Literal["any-two", "nine-to-eleven", "ten-eleven", "any-cards"]
NaturalVsAce = Literal["even-money", "insurance"]
Wheel = Literal["european", "american"]
ZeroRule = Literal["loses", "half-back", "en-prison"]

MIN_BET = 1
MAX_BET = 1_000_000
#: The most seats a round may have: the contract's 16, unless a table takes fewer.
MAX_SEATS = 16


@dataclass(frozen=True, slots=True, kw_only=True)
class BlackjackRules:
    """How one blackjack table plays."""

    decks: int = 6
    #: Net odds of a player blackjack (3:2).
    blackjack_payout: Fraction = Fraction(3, 2)
    #: Net odds of a winning insurance bet (2:1).
    insurance_payout: Fraction = Fraction(2)
    #: Whether the dealer draws on a soft 17 (both tables stand on every 17).
    dealer_hits_soft_17: bool = False
    #: Which two cards make a pair: the same rank, or also two different pictures (J-Q).
    pair_rule: PairRule = "same-rank"
    #: Whether the dealer looks for a blackjack under an ace before play (no-hole-card games do not).
    peek_under_ace: bool = True
    #: Whether the dealer also looks for a blackjack under a ten-valued up card.
    peek_under_ten: bool = False
    #: What a player blackjack is offered against a dealer ace: even money, or insurance.
    natural_vs_ace: NaturalVsAce = "insurance"
    #: Whether a blackjack that can no longer be tied is paid at once, hole card unseen.
    pay_naturals_at_once: bool = False
    #: Whether a seat that took insurance may still double / split.
    double_after_insurance: bool = True
    split_after_insurance: bool = True
    #: Whether a split hand may double.
    double_after_split: bool = True
    #: Which hands may double.
    double_on: DoubleOn = "any-two"
    #: Whether a double may stake less than the hand (any whole amount from 1).
    double_for_less: bool = False
    #: Whether insurance may stake less than half the bet (any whole amount from 1).
    insure_for_less: bool = False
    #: How many hands a seat may hold after splitting (2: no re-split).
    max_hands: int = 2
    #: Whether split aces that pair again may be split again.
    resplit_aces: bool = False
    #: Whether split aces may take more cards.
    hit_split_aces: bool = True
    #: Whether late surrender (half the stake back) is offered on a first two-card hand.
    surrender: bool = False
    #: Whether surrender is asked before the dealer looks for a blackjack (early surrender).
    early_surrender: bool = False
    #: Whether the hole card is turned only when some hand is compared with it.
    hole_card_at_showdown: bool = False
    #: Whether a dealer blackjack found after play takes doubled and split stakes too.
    late_blackjack_takes_all: bool = True
    min_bet: int = MIN_BET
    max_bet: int = MAX_BET
    max_seats: int = MAX_SEATS


#: For banker totals 3 to 6, the values of the player's third card on which the banker draws
#: (it always draws on 0 to 2 and stands on 7).
Tableau = Mapping[int, frozenset[int]]

STANDARD_TABLEAU: Tableau = {
    3: frozenset({0, 1, 2, 3, 4, 5, 6, 7, 9}),
    4: frozenset({2, 3, 4, 5, 6, 7}),
    5: frozenset({4, 5, 6, 7}),
    6: frozenset({6, 7}),
}
#: Document B as printed: it lists where the banker stands and forgets the ace at 4, 5 and 6.
DOCUMENT_B_TABLEAU: Tableau = {
    3: frozenset({0, 1, 2, 3, 4, 5, 6, 7, 9}),
    4: frozenset({1, 2, 3, 4, 5, 6, 7}),
    5: frozenset({1, 4, 5, 6, 7}),
    6: frozenset({1, 6, 7}),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class BaccaratRules:
    """How one baccarat table plays."""

    decks: int = 8
    tableau: Tableau = field(default_factory=lambda: STANDARD_TABLEAU)
    #: When the player stood, the banker stands on this total and above (draws below it).
    banker_stands_on: int = 6
    player_payout: Fraction = Fraction(1)
    banker_payout: Fraction = Fraction(1)
    #: Taken from the banker's win, not from the stake.
    banker_commission: Fraction = Fraction(5, 100)
    tie_payout: Fraction = Fraction(8)
    #: Whether player and banker bets get their stake back on a tie.
    tie_pushes: bool = True
    #: No commission ("EZ"): a banker win pays in full, but on three cards totalling 7 pushes.
    no_commission: bool = False
    #: What a banker win on a total of 6 pays (net), where it pays other than the rest.
    banker_six_payout: Fraction | None = None
    min_bet: int = MIN_BET
    max_bet: int = MAX_BET
    max_seats: int = MAX_SEATS


def _roulette_payouts(**extra: int) -> dict[str, Fraction]:
    odds = {
        "straight": 35,
        "split": 17,
        "street": 11,
        "corner": 8,
        "line": 5,
        "column": 2,
        "dozen": 2,
        "red": 1,
        "black": 1,
        "even": 1,
        "odd": 1,
        "low": 1,
        "high": 1,
        **extra,
    }
    return {kind: Fraction(net) for kind, net in odds.items()}


@dataclass(frozen=True, slots=True, kw_only=True)
class RouletteRules:
    """How one roulette table plays."""

    wheel: Wheel = "european"
    #: Net odds by bet kind; a kind missing here is not offered on this table.
    payouts: Mapping[str, Fraction] = field(default_factory=_roulette_payouts)
    #: What 0 (and 00) does to the outside bets; en prison keeps the even-money ones.
    zero_rule: ZeroRule = "loses"
    #: How many results the table's board shows.
    history_length: int = 13
    #: The bet kinds the table takes (None: every kind of its layout); others are refused.
    offered: frozenset[str] | None = None
    min_bet: int = MIN_BET
    max_bet: int = MAX_BET
    max_seats: int = MAX_SEATS


TableRules = BlackjackRules | BaccaratRules | RouletteRules

#: The seven tables the demo engine plays, by profile id.
HOUSE_RULES: Mapping[str, TableRules] = {
    "blackjack-a": BlackjackRules(
        pair_rule="same-rank-or-pictures",
        peek_under_ten=True,
        natural_vs_ace="even-money",
        pay_naturals_at_once=True,
    ),
    "blackjack-c": BlackjackRules(
        double_after_insurance=False,
        split_after_insurance=False,
        surrender=True,
    ),
    "baccarat-b": BaccaratRules(decks=8, tableau=DOCUMENT_B_TABLEAU),
    "baccarat-c": BaccaratRules(decks=6),
    "baccarat-d": BaccaratRules(decks=8),
    "roulette-c": RouletteRules(wheel="european", payouts=_roulette_payouts(**{"first-four": 8})),
    "roulette-american": RouletteRules(
        wheel="american", payouts=_roulette_payouts(**{"top-line": 6})
    ),
}


_EUROPEAN = _roulette_payouts(**{"first-four": 8})

#: docs/examples/atlantic-city.toml: 8 decks, S17, double after split, late surrender.
_ATLANTIC_CITY = BlackjackRules(
    decks=8,
    pair_rule="same-value",
    peek_under_ten=True,
    natural_vs_ace="even-money",
    pay_naturals_at_once=True,
    max_hands=4,
    hit_split_aces=False,
    surrender=True,
)

#: The tables of the lab profiles in docs/examples/ the engine also plays, by their ids
#: (``python -m croupier.clients.demo_engine --lab-tables``): a vendor sets its house up for a lab.
LAB_TABLES: Mapping[str, TableRules] = {
    "atlantic-city": _ATLANTIC_CITY,
    # The same table, its surrender asked before the dealer's look (VAR.bj.surrender).
    "atlantic-city-early-surrender": replace(_ATLANTIC_CITY, early_surrender=True),
    "downtown": BlackjackRules(
        decks=2,
        dealer_hits_soft_17=True,
        peek_under_ten=True,
        natural_vs_ace="even-money",
        pay_naturals_at_once=True,
        double_on="any-cards",
        double_for_less=True,
        insure_for_less=True,
        max_hands=4,
        resplit_aces=True,
    ),
    "european-no-hole-card": BlackjackRules(
        peek_under_ace=False,
        double_after_insurance=False,
        split_after_insurance=False,
        double_on="nine-to-eleven",
        hole_card_at_showdown=True,
    ),
    "ez-baccarat": BaccaratRules(
        decks=8, banker_commission=Fraction(0), no_commission=True, max_seats=7
    ),
    "super-six-baccarat": BaccaratRules(
        decks=6, banker_commission=Fraction(0), banker_six_payout=Fraction(1, 2)
    ),
    "french-roulette": RouletteRules(wheel="european", payouts=_EUROPEAN, zero_rule="en-prison"),
    "outside-bets-five-seats": RouletteRules(
        wheel="european",
        payouts=_EUROPEAN,
        offered=frozenset({"column", "dozen", "red", "black", "even", "odd", "low", "high"}),
        max_seats=5,
    ),
}


def variant(profile_id: str, **changes: object) -> dict[str, TableRules]:
    """The house rules with one table's settings changed, e.g. ``variant("blackjack-c", surrender=False)``.

    A lab table's variant comes with every lab table (``LAB_TABLES``).
    """
    tables = dict(HOUSE_RULES)
    if profile_id in LAB_TABLES:
        tables.update(LAB_TABLES)
    tables[profile_id] = replace(tables[profile_id], **changes)  # type: ignore[arg-type]
    return tables
