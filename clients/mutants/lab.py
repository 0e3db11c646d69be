"""The mutants of the lab profiles' variants (issue 24), caught by vectors built for each profile."""

from __future__ import annotations

from fractions import Fraction

from croupier.clients.mutants import bugs
from croupier.clients.mutants.mutant import Mutant, with_settings

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
        factory=with_settings("ez-baccarat", no_commission=False),
    ),
    Mutant(
        name="ez-takes-commission",
        clause="VAR.bac.ez",
        profile="ez-baccarat",
        description="No-commission baccarat still takes 5% of a banker win.",
        factory=with_settings("ez-baccarat", banker_commission=Fraction(5, 100)),
    ),
    Mutant(
        name="super-six-pays-in-full",
        clause="VAR.bac.banker-six",
        profile="super-six-baccarat",
        description="A banker win on 6 pays 1:1 instead of the table's 1:2.",
        factory=with_settings("super-six-baccarat", banker_six_payout=None),
    ),
    Mutant(
        name="inside-bets-taken",
        clause="VAR.rou.bets-offered",
        profile="outside-bets-five-seats",
        description="An outside-bets-only table takes inside bets too.",
        factory=with_settings("outside-bets-five-seats", offered=None),
    ),
    Mutant(
        name="sixth-seat-taken",
        clause="TABLE.seats",
        profile="outside-bets-five-seats",
        description="A table of five seats deals a round of six.",
        factory=with_settings("outside-bets-five-seats", max_seats=16),
    ),
    Mutant(
        name="prison-is-a-loss",
        clause="VAR.rou.en-prison",
        profile="french-roulette",
        description="En prison is played as 'zero loses': an imprisoned bet is lost at once.",
        factory=with_settings("french-roulette", zero_rule="loses"),
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
        factory=with_settings("european-no-hole-card", double_on="any-two"),
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
        factory=with_settings("atlantic-city", max_hands=5),
    ),
    Mutant(
        name="early-surrender-asked-late",
        clause="VAR.bj.surrender",
        profile="atlantic-city-early-surrender",
        description="Early surrender is offered only after the dealer's look, as late surrender.",
        factory=with_settings("atlantic-city-early-surrender", early_surrender=False),
    ),
    Mutant(
        name="hole-card-always-turned",
        clause="VAR.bj.hole-card",
        profile="european-no-hole-card",
        description="The hole card is turned when every hand has busted, with no hand to compare.",
        factory=with_settings("european-no-hole-card", hole_card_at_showdown=False),
    ),
)

#: The mutants of the lab profiles' variants, by name.
LAB_MUTANTS: dict[str, Mutant] = {mutant.name: mutant for mutant in _LAB_ZOO}
