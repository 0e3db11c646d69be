"""Baccarat: every clause of RULES.md "Baccarat", checked against hand-computed coups.

Every expectation below is worked out by hand from RULES.md and the
documents' own examples, never taken from the oracle's output. Shoes are
dealt P, B, P, B, [P3], [B3] (BAC.deal), so in a shoe string the player's
cards are items 1 and 3, the banker's items 2 and 4.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.oracle.baccarat import (
    BaccaratBet,
    BaccaratRound,
    BaccaratRules,
    BaccaratSeat,
    BetKind,
    Coup,
    CoupOutcome,
    Tableau,
    banker_draws,
    card_value,
    hand_value,
    play_coup,
    play_round,
)
from croupier.oracle.cards import Card, parse_cards
from croupier.oracle.errors import (
    BetOutOfLimitsError,
    InsufficientBalanceError,
    InvalidRoundError,
    ProfileError,
    ShoeExhaustedError,
    ShoeNotInProfileError,
)
from croupier.oracle.money import Odds, Rounding
from croupier.oracle.profile import load_profile_text, shipped_profile
from croupier.oracle.settlement import Limits
from tests.strategies import BACCARAT_PROFILE_IDS, baccarat_seats, shoes


def rules(profile_id: str) -> BaccaratRules:
    return BaccaratRules.from_profile(shipped_profile(profile_id))


def lab_rules(base: str, parameters: str) -> BaccaratRules:
    """A lab profile that extends a shipped one and overrides some parameters."""
    text = f'id = "lab"\nextends = "{base}"\n\n[parameters]\n{parameters}\n'
    return BaccaratRules.from_profile(load_profile_text(text))


def seat(*bets: tuple[BetKind, int], balance: int = 10_000) -> BaccaratSeat:
    return BaccaratSeat(
        balance=balance, bets=tuple(BaccaratBet(kind=kind, amount=amount) for kind, amount in bets)
    )


def card(text: str) -> Card:
    return parse_cards(text)[0]


# Hand-checked coups used by the money tests.
PLAYER_WINS = "7C 6D TH TS"  # player 7 stands, banker 6 stands (player stood): player wins
BANKER_WINS = "6C 7D TH TS"  # player 6 stands, banker 7 stands: banker wins
TIE = "7C 7D TH TS"  # both 7, both stand: tie


# --- rules from profiles -----------------------------------------------------------


def test_rules_from_profile_b() -> None:
    """B.decks, B.tableau, B.limits, BAC.pay-*: document B's profile, typed."""
    b = rules("baccarat-b")
    assert b.profile_id == "baccarat-b"
    assert b.decks == 8
    assert b.tableau is Tableau.DOCUMENT_B
    assert b.player_pays == Odds(win=Fraction(1))
    assert b.banker_pays == Odds(win=Fraction(1))
    assert b.banker_commission == Fraction(5, 100)
    assert b.tie_pays == Odds(win=Fraction(8))
    assert b.tie_pushes is True
    assert b.rounding is Rounding.DOWN
    assert b.limits == Limits(min_bet=1, max_bet=1_000_000, clauses=("TABLE.limits", "B.limits"))
    assert b.cite("decks") == ("B.decks",)
    assert b.cite("min_bet", "max_bet") == ("TABLE.limits", "B.limits")
    assert b.cite("tableau") == ("B.tableau", "BAC.banker-tableau")


@pytest.mark.parametrize(
    ("profile_id", "decks", "tableau", "decks_clause"),
    [
        pytest.param("baccarat-c", 6, Tableau.STANDARD, "C.bac.decks", id="C.bac.decks"),
        pytest.param("baccarat-d", 8, Tableau.STANDARD, "D.decks", id="D.decks"),
    ],
)
def test_rules_from_profiles_c_and_d(
    profile_id: str, decks: int, tableau: Tableau, decks_clause: str
) -> None:
    r = rules(profile_id)
    assert (r.decks, r.tableau, r.cite("decks")) == (decks, tableau, (decks_clause,))
    assert r.cite("min_bet") == ("TABLE.limits",)


def test_rules_refuse_a_profile_of_another_game() -> None:
    with pytest.raises(ProfileError, match="blackjack") as info:
        BaccaratRules.from_profile(shipped_profile("blackjack-a"))
    assert info.value.reason == "INVALID_PROFILE"
    assert info.value.metadata["profile"] == "blackjack-a"


# --- BAC.values --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("AS", 1),
        ("2H", 2),
        ("3C", 3),
        ("4D", 4),
        ("5S", 5),
        ("6H", 6),
        ("7C", 7),
        ("8D", 8),
        ("9S", 9),
        ("TH", 0),
        ("JC", 0),
        ("QD", 0),
        ("KS", 0),
    ],
    ids=lambda v: f"BAC.values-{v}",
)
def test_bac_values_card(text: str, value: int) -> None:
    """BAC.values: ace 1, two to nine face value, ten and pictures 0."""
    assert card_value(card(text)) == value


@pytest.mark.parametrize(
    ("texts", "total"),
    [
        pytest.param("7H 9C", 6, id="BAC.values-B-7+9=16-is-6"),
        pytest.param("8H 8C", 6, id="BAC.values-B-8+8=16-is-6"),
        pytest.param("5H 9C", 4, id="BAC.values-B-5+9=14-is-4"),
        pytest.param("7H 6C", 3, id="BAC.values-C-7+6=13-is-3"),
        pytest.param("4H 6C", 0, id="BAC.values-C-4+6=10-is-0"),
        pytest.param("8H 9C", 7, id="BAC.values-D-17-is-7"),
        pytest.param("9H 9C 5D", 3, id="BAC.values-D-23-is-3"),
        pytest.param("KH QC", 0, id="BAC.values-pictures-0"),
        pytest.param("AH TC", 1, id="BAC.values-ace-and-ten-1"),
    ],
)
def test_bac_values_hand(texts: str, total: int) -> None:
    """BAC.values: a hand's value is its total modulo 10 (the documents' own examples)."""
    assert hand_value(parse_cards(texts)) == total


def test_bac_values_in_a_coup() -> None:
    """BAC.values: 7+9 is 6 and 8+8 is 6, both stand, a tie; face values would say 16 each."""
    coup = play_coup(Tableau.STANDARD, parse_cards("7H 8C 9C 8D"))
    assert (coup.player_total, coup.banker_total, coup.outcome) == (6, 6, CoupOutcome.TIE)


# --- BAC.deal ----------------------------------------------------------------------


def test_bac_deal_order() -> None:
    """BAC.deal: P, B, P, B, then the player's third card, then the banker's."""
    # Player AC 3H = 4 draws 5C -> 9; banker 2D AS = 3, third card 5 is not 8 -> draws 6D -> 9.
    shoe = parse_cards("AC 2D 3H AS 5C 6D 9H")
    coup = play_coup(Tableau.STANDARD, shoe)
    assert coup.player == parse_cards("AC 3H 5C")
    assert coup.banker == parse_cards("2D AS 6D")
    assert coup.dealt == parse_cards("AC 2D 3H AS 5C 6D")
    assert (coup.player_total, coup.banker_total, coup.outcome) == (9, 9, CoupOutcome.TIE)


def test_bac_deal_steps_cite_their_clauses() -> None:
    """BAC.deal, BAC.player-draw, BAC.banker-tableau, BAC.outcome: one step per stage."""
    coup = play_coup(Tableau.STANDARD, parse_cards("AC 2D 3H AS 5C 6D"))
    assert [s.action for s in coup.steps] == ["deal", "player-draw", "banker-draw", "outcome"]
    assert [s.clauses for s in coup.steps] == [
        ("BAC.deal", "BAC.values"),
        ("BAC.player-draw",),
        ("BAC.banker-tableau",),
        ("BAC.outcome",),
    ]
    doc_b = play_coup(Tableau.DOCUMENT_B, parse_cards("AC 2D 3H AS 5C 6D"))
    assert doc_b.steps[2].clauses == ("BAC.banker-tableau", "B.tableau")


def test_bac_deal_leaves_unneeded_cards_in_the_shoe() -> None:
    """BAC.deal: no hand has more than three cards; the rest of the shoe is not dealt."""
    # Player 0 draws 0 -> 0; banker 0 draws 0 -> 0; the four cards after stay in the shoe.
    coup = play_coup(Tableau.STANDARD, parse_cards("TC TD TH TS JC JD JH JS KC KD"))
    assert len(coup.player) == 3
    assert len(coup.banker) == 3
    assert coup.dealt == parse_cards("TC TD TH TS JC JD")


# --- BAC.natural -------------------------------------------------------------------


def test_bac_natural_player_8_stops_a_banker_that_would_draw() -> None:
    """BAC.natural: player 4+4 = 8 natural; banker 2+3 = 5 stands (drawing 4D would make 9)."""
    coup = play_coup(Tableau.STANDARD, parse_cards("4C 2D 4H 3S 4D"))
    assert coup.banker == parse_cards("2D 3S")
    assert coup.dealt == parse_cards("4C 2D 4H 3S")
    assert coup.outcome is CoupOutcome.PLAYER
    assert [s.action for s in coup.steps] == ["deal", "natural", "outcome"]
    assert coup.steps[1].clauses == ("BAC.natural",)


def test_bac_natural_player_9_stops_a_banker_that_would_draw() -> None:
    """BAC.natural: player 4+5 = 9 natural; banker 2+3 = 5 stands (drawing 4D would tie at 9)."""
    coup = play_coup(Tableau.STANDARD, parse_cards("4C 2D 5H 3S 4D"))
    assert coup.player == parse_cards("4C 5H")
    assert coup.banker == parse_cards("2D 3S")
    assert coup.dealt == parse_cards("4C 2D 5H 3S")
    assert (coup.player_total, coup.banker_total, coup.outcome) == (9, 5, CoupOutcome.PLAYER)
    assert [s.action for s in coup.steps] == ["deal", "natural", "outcome"]
    # The same coup in a round: the player bet wins 1:1, the tie bet loses.
    rnd = play_round(
        rules("baccarat-b"),
        parse_cards("4C 2D 5H 3S 4D"),
        [seat((BetKind.PLAYER, 100), (BetKind.TIE, 10))],
    )
    assert [(ln.bet, ln.payout.returned) for ln in rnd.settlement] == [("player", 200), ("tie", 0)]


def test_bac_natural_banker_9_stops_a_player_that_would_draw() -> None:
    """BAC.natural: player 5+K = 5 stands; banker 4+5 = 9 wins (drawing 4C would tie at 9)."""
    coup = play_coup(Tableau.STANDARD, parse_cards("5C 4D KH 5S 4C"))
    assert coup.player == parse_cards("5C KH")
    assert (coup.player_total, coup.banker_total, coup.outcome) == (5, 9, CoupOutcome.BANKER)


def test_bac_natural_beats_drawing() -> None:
    """BAC.natural: banker 4+4 = 8 natural beats player T+3 = 3, who would have drawn 6C to 9."""
    coup = play_coup(Tableau.STANDARD, parse_cards("TC 4D 3H 4S 6C"))
    assert (coup.player_total, coup.banker_total, coup.outcome) == (3, 8, CoupOutcome.BANKER)
    assert len(coup.dealt) == 4


@pytest.mark.parametrize(
    ("shoe", "outcome"),
    [
        pytest.param("8C 8D TH KS 9C", CoupOutcome.TIE, id="BAC.natural-8-vs-8-tie"),
        pytest.param("9C 8D KH QS", CoupOutcome.PLAYER, id="BAC.natural-9-beats-8"),
        pytest.param("4C 5D 4H 4S", CoupOutcome.BANKER, id="BAC.natural-banker-9-beats-player-8"),
    ],
)
def test_bac_natural_both_hands(shoe: str, outcome: CoupOutcome) -> None:
    """BAC.natural: two naturals, nobody draws, the higher wins."""
    coup = play_coup(Tableau.STANDARD, parse_cards(shoe))
    assert coup.outcome is outcome
    assert len(coup.dealt) == 4


# --- BAC.player-draw ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("second", "draws", "player_total", "outcome"),
    [
        # Player TC + second card; banker TD 7D = 7 never draws; the fifth card is 2H.
        pytest.param("KC", True, 2, CoupOutcome.BANKER, id="BAC.player-draw-0-draws"),
        pytest.param("AC", True, 3, CoupOutcome.BANKER, id="BAC.player-draw-1-draws"),
        pytest.param("2C", True, 4, CoupOutcome.BANKER, id="BAC.player-draw-2-draws"),
        pytest.param("3C", True, 5, CoupOutcome.BANKER, id="BAC.player-draw-3-draws"),
        pytest.param("4C", True, 6, CoupOutcome.BANKER, id="BAC.player-draw-4-draws"),
        pytest.param("5C", True, 7, CoupOutcome.TIE, id="BAC.player-draw-5-draws"),
        pytest.param("6C", False, 6, CoupOutcome.BANKER, id="BAC.player-draw-6-stands"),
        pytest.param("7C", False, 7, CoupOutcome.TIE, id="BAC.player-draw-7-stands"),
    ],
)
def test_bac_player_draw(second: str, draws: bool, player_total: int, outcome: CoupOutcome) -> None:
    """BAC.player-draw: the player draws on 0-5 and stands on 6-7."""
    coup = play_coup(Tableau.STANDARD, parse_cards(f"TC TD {second} 7D 2H"))
    assert len(coup.player) == (3 if draws else 2)
    assert coup.player_total == player_total
    assert coup.banker_total == 7
    assert coup.outcome is outcome
    assert coup.steps[1].action == ("player-draw" if draws else "player-stand")


# --- BAC.banker-stood --------------------------------------------------------------


@pytest.mark.parametrize(
    ("second", "draws", "banker_total", "outcome"),
    [
        # Player TC 6C = 6 stands; banker TD + second card; the fifth card is 3H.
        pytest.param("KD", True, 3, CoupOutcome.PLAYER, id="BAC.banker-stood-0-draws"),
        pytest.param("AD", True, 4, CoupOutcome.PLAYER, id="BAC.banker-stood-1-draws"),
        pytest.param("2D", True, 5, CoupOutcome.PLAYER, id="BAC.banker-stood-2-draws"),
        pytest.param("3D", True, 6, CoupOutcome.TIE, id="BAC.banker-stood-3-draws"),
        pytest.param("4D", True, 7, CoupOutcome.BANKER, id="BAC.banker-stood-4-draws"),
        pytest.param("5D", True, 8, CoupOutcome.BANKER, id="BAC.banker-stood-5-draws"),
        pytest.param("6D", False, 6, CoupOutcome.TIE, id="BAC.banker-stood-6-stands"),
        pytest.param("7D", False, 7, CoupOutcome.BANKER, id="BAC.banker-stood-7-stands"),
    ],
)
@pytest.mark.parametrize("tableau", list(Tableau), ids=lambda t: t.value)
def test_bac_banker_stood(
    tableau: Tableau, second: str, draws: bool, banker_total: int, outcome: CoupOutcome
) -> None:
    """BAC.banker-stood: the player stood, so the banker draws on 0-5 and stands on 6-7."""
    coup = play_coup(tableau, parse_cards(f"TC TD 6C {second} 3H"))
    assert len(coup.banker) == (3 if draws else 2)
    assert coup.banker_total == banker_total
    assert coup.outcome is outcome
    assert coup.steps[2].clauses == ("BAC.banker-stood",)
    assert banker_draws(tableau, card_value(card(second)), None) is draws


# --- BAC.banker-tableau, B.tableau: every cell -------------------------------------

ALL_RANKS = "A23456789TJQK"

# The table of RULES.md, by banker total: the ranks of the player's third card on which
# the banker draws. Written out by hand; T, J, Q and K are the 10-valued cards.
STANDARD_DRAWS: dict[int, str] = {
    0: ALL_RANKS,
    1: ALL_RANKS,
    2: ALL_RANKS,
    3: "A234567" + "9TJQK",  # anything but 8
    4: "234567",
    5: "4567",
    6: "67",
    7: "",
}
DOCUMENT_B_DRAWS: dict[int, str] = {
    0: ALL_RANKS,
    1: ALL_RANKS,
    2: ALL_RANKS,
    3: "A234567" + "9TJQK",  # unless 8
    4: "A234567",  # unless 8, 9, 10-valued
    5: "A4567",  # unless 2, 3, 8, 9, 10-valued
    6: "A67",  # unless 2-5, 8, 9, 10-valued
    7: "",
}
# Banker's two cards for each total: TD and a card of that value (KD for 0).
BANKER_SECOND = {0: "KD", 1: "AD", 2: "2D", 3: "3D", 4: "4D", 5: "5D", 6: "6D", 7: "7D"}

CELLS = [
    pytest.param(
        tableau,
        total,
        rank,
        rank in table[total],
        id=f"{'B.tableau' if tableau is Tableau.DOCUMENT_B else 'BAC.banker-tableau'}"
        f"-{tableau.value}-banker{total}-third{rank}",
    )
    for tableau, table in (
        (Tableau.STANDARD, STANDARD_DRAWS),
        (Tableau.DOCUMENT_B, DOCUMENT_B_DRAWS),
    )
    for total in range(8)
    for rank in ALL_RANKS
]


@pytest.mark.parametrize(("tableau", "banker_total", "third_rank", "draws"), CELLS)
def test_bac_banker_tableau_cell(
    tableau: Tableau, banker_total: int, third_rank: str, draws: bool
) -> None:
    """BAC.banker-tableau, B.tableau: one cell of the tableau, directly and in a coup."""
    third = card(f"{third_rank}H")
    assert banker_draws(tableau, banker_total, third) is draws
    # Player TC TH = 0 draws the third card; the banker's third card, if drawn, is 2S.
    coup = play_coup(tableau, parse_cards(f"TC TD TH {BANKER_SECOND[banker_total]} {third} 2S"))
    assert coup.player[2] == third
    assert len(coup.banker) == (3 if draws else 2)
    assert coup.banker_total == ((banker_total + 2) % 10 if draws else banker_total)


@pytest.mark.parametrize(
    ("banker", "banker_third"),
    [
        pytest.param("4D", "9H", id="B.tableau-ace-at-4"),
        pytest.param("5D", "8H", id="B.tableau-ace-at-5"),
        pytest.param("6D", "7H", id="B.tableau-ace-at-6"),
    ],
)
def test_b_tableau_ace_cells_differ_from_standard(banker: str, banker_third: str) -> None:
    """B.tableau: at 4, 5 and 6 document B's banker draws on a player's third-card ace.

    Player TC 2C = 2 draws AS -> 3. Banker TD + (4, 5 or 6): the standard banker
    stands and wins over 3; document B's banker draws a card that makes 13 -> 3, a
    tie, so a banker bet of 100 returns 195 under D and is pushed (100) under B.
    """
    shoe = parse_cards(f"TC TD 2C {banker} AS {banker_third}")
    standard = play_coup(Tableau.STANDARD, shoe)
    document_b = play_coup(Tableau.DOCUMENT_B, shoe)
    assert (standard.banker_total, standard.outcome) == (
        card_value(card(banker)),
        CoupOutcome.BANKER,
    )
    assert (document_b.banker_total, document_b.outcome) == (3, CoupOutcome.TIE)

    bets = [seat((BetKind.BANKER, 100))]
    assert play_round(rules("baccarat-d"), shoe, bets).settlement[0].payout.returned == 195
    assert play_round(rules("baccarat-b"), shoe, bets).settlement[0].payout.returned == 100
    assert play_round(rules("baccarat-c"), shoe, bets).settlement[0].payout.returned == 195


def test_b_tableau_can_be_switched_to_standard() -> None:
    """B.tableau: a lab may switch profile B to the standard tableau with one parameter."""
    r = lab_rules("baccarat-b", 'tableau = { value = "standard" }')
    shoe = parse_cards("TC TD 2C 6D AS 7H")
    assert play_round(r, shoe, [seat((BetKind.BANKER, 100))]).coup.outcome is CoupOutcome.BANKER


def test_banker_draws_refuses_an_impossible_total() -> None:
    with pytest.raises(ValueError, match="0 to 9"):
        banker_draws(Tableau.STANDARD, 10, None)


@pytest.mark.parametrize("total", [8, 9], ids=lambda t: f"BAC.natural-banker-{t}")
def test_banker_never_draws_on_a_natural(total: int) -> None:
    """BAC.natural: whatever the tableau says, a two-card 8 or 9 stands."""
    for tableau in Tableau:
        assert banker_draws(tableau, total, None) is False
        assert banker_draws(tableau, total, card("7H")) is False


# --- BAC.outcome -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shoe", "outcome"),
    [
        pytest.param(PLAYER_WINS, CoupOutcome.PLAYER, id="BAC.outcome-player-7-beats-6"),
        pytest.param(BANKER_WINS, CoupOutcome.BANKER, id="BAC.outcome-banker-7-beats-6"),
        pytest.param(TIE, CoupOutcome.TIE, id="BAC.outcome-7-7-tie"),
        # Player 0 draws 9 -> 9; banker 0 draws 8 -> 8: the higher value wins, not the natural.
        pytest.param(
            "TC KD QH JS 9C 8D", CoupOutcome.PLAYER, id="BAC.outcome-three-card-9-beats-8"
        ),
    ],
)
def test_bac_outcome(shoe: str, outcome: CoupOutcome) -> None:
    """BAC.outcome: the higher value wins; equal values tie."""
    coup = play_coup(Tableau.STANDARD, parse_cards(shoe))
    assert coup.outcome is outcome
    assert coup.steps[-1].clauses == ("BAC.outcome",)


# --- money: BAC.pay-player, BAC.pay-banker, BAC.pay-tie, BAC.tie-push ----------------


def settle(r: BaccaratRules, shoe: str, *bets: tuple[BetKind, int]) -> BaccaratRound:
    return play_round(r, parse_cards(shoe), [seat(*bets)])


def test_bac_pay_player() -> None:
    """BAC.pay-player: 1:1, so a stake of 100 returns 200; banker and tie bets lose."""
    rnd = settle(
        rules("baccarat-d"),
        PLAYER_WINS,
        (BetKind.PLAYER, 100),
        (BetKind.BANKER, 50),
        (BetKind.TIE, 10),
    )
    player, banker, tie = rnd.settlement
    assert (player.bet, player.payout.returned, player.payout.returned_exact) == (
        "player",
        200,
        Fraction(200),
    )
    assert player.clauses == ("BAC.pay-player", "BAC.outcome")
    assert (banker.bet, banker.payout.returned, banker.clauses) == ("banker", 0, ("BAC.outcome",))
    assert (tie.bet, tie.payout.returned, tie.clauses) == ("tie", 0, ("BAC.outcome",))


def test_bac_pay_player_odd_stake_is_not_commissioned() -> None:
    """BAC.pay-player: 15 returns 30 (no commission on the player side)."""
    rnd = settle(rules("baccarat-b"), PLAYER_WINS, (BetKind.PLAYER, 15))
    assert rnd.settlement[0].payout.returned == 30


@pytest.mark.parametrize(
    ("stake", "exact", "returned"),
    [
        # 100 + 100 * 1 * (1 - 5/100) = 100 + 95 = 195
        pytest.param(100, Fraction(195), 195, id="BAC.pay-banker-100"),
        # 20 + 20 * 0.95 = 20 + 19 = 39, whole
        pytest.param(20, Fraction(39), 39, id="BAC.pay-banker-20"),
        # 15 + 15 * 0.95 = 15 + 14.25 = 29.25 -> rounded down to 29
        pytest.param(15, Fraction(117, 4), 29, id="BAC.pay-banker-15-rounds-down"),
        # 7 + 7 * 0.95 = 7 + 6.65 = 13.65 -> 13
        pytest.param(7, Fraction(1365, 100), 13, id="BAC.pay-banker-7-rounds-down"),
        # 1 + 0.95 = 1.95 -> 1: the whole win goes to commission and rounding
        pytest.param(1, Fraction(195, 100), 1, id="BAC.pay-banker-1-rounds-down"),
    ],
)
def test_bac_pay_banker_commission_rounding(stake: int, exact: Fraction, returned: int) -> None:
    """BAC.pay-banker: 1:1 less 5% of the win, exact first, rounded down once."""
    line = settle(rules("baccarat-b"), BANKER_WINS, (BetKind.BANKER, stake)).settlement[0]
    assert line.payout.stake == stake
    assert line.payout.returned_exact == exact
    assert line.payout.returned == returned
    # A rounded payout cites the rounding rule after the rule that decided the amount.
    rounded = ("MONEY.rounding",) if returned != exact else ()
    assert line.clauses == ("BAC.pay-banker", "BAC.outcome", *rounded)


def test_bac_pay_banker_commission_is_on_the_win_not_the_stake() -> None:
    """BAC.pay-banker: with a lab's 2:1 banker odds, 100 wins 200 less 5% of 200 = 190: 290.

    A commission on the stake would return 295; on the total returned, 285.
    """
    r = lab_rules("baccarat-d", 'banker_pays = { value = "2:1" }')
    line = settle(r, BANKER_WINS, (BetKind.BANKER, 100)).settlement[0]
    assert line.payout.returned_exact == 290
    assert line.payout.returned == 290


def test_bac_pay_banker_rounding_is_a_profile_parameter() -> None:
    """BAC.pay-banker: 10 + 9.5 = 19.5 is 19 rounded down, 20 rounded half-up."""
    down = settle(rules("baccarat-d"), BANKER_WINS, (BetKind.BANKER, 10)).settlement[0]
    r = lab_rules("baccarat-d", 'rounding = { value = "half-up" }')
    half_up = settle(r, BANKER_WINS, (BetKind.BANKER, 10)).settlement[0]
    assert down.payout.returned_exact == half_up.payout.returned_exact == Fraction(39, 2)
    assert (down.payout.returned, half_up.payout.returned) == (19, 20)


def test_bac_pay_tie_and_tie_push() -> None:
    """BAC.pay-tie: 8:1, a tie stake of 10 returns 90. BAC.tie-push: player and banker push."""
    rnd = settle(
        rules("baccarat-d"), TIE, (BetKind.TIE, 10), (BetKind.PLAYER, 50), (BetKind.BANKER, 15)
    )
    tie, player, banker = rnd.settlement
    assert (tie.payout.returned, tie.clauses) == (90, ("BAC.pay-tie", "BAC.outcome"))
    assert (player.payout.returned, player.clauses) == (50, ("BAC.tie-push",))
    assert (banker.payout.returned, banker.clauses) == (15, ("BAC.tie-push",))


@pytest.mark.parametrize("profile_id", BACCARAT_PROFILE_IDS, ids=lambda p: f"BAC.tie-push-{p}")
def test_bac_tie_push_in_every_shipped_profile(profile_id: str) -> None:
    """BAC.tie-push: documented in D, assumed in B and C; a tie returns the stake."""
    rnd = settle(rules(profile_id), TIE, (BetKind.PLAYER, 40))
    assert rnd.settlement[0].payout.returned == 40


def test_bac_tie_push_off_makes_player_and_banker_lose() -> None:
    """BAC.tie-push: with tie_pushes = false, a tie loses player and banker bets."""
    r = lab_rules("baccarat-d", "tie_pushes = { value = false }")
    assert r.tie_pushes is False
    rnd = settle(r, TIE, (BetKind.PLAYER, 50), (BetKind.BANKER, 50), (BetKind.TIE, 10))
    player, banker, tie = rnd.settlement
    assert (player.payout.returned, player.clauses) == (0, ("BAC.tie-push", "BAC.outcome"))
    assert (banker.payout.returned, banker.clauses) == (0, ("BAC.tie-push", "BAC.outcome"))
    assert tie.payout.returned == 90


def test_settlement_lines_follow_seats_and_bets() -> None:
    """One line per bet, seat by seat, each seat's bets in its own order."""
    rnd = play_round(
        rules("baccarat-c"),
        parse_cards(BANKER_WINS),
        [seat((BetKind.TIE, 5), (BetKind.BANKER, 40)), seat((BetKind.PLAYER, 30))],
    )
    assert [(line.seat, line.bet, line.payout.returned) for line in rnd.settlement] == [
        (0, "tie", 0),
        (0, "banker", 78),  # 40 + 38
        (1, "player", 0),
    ]
    assert rnd.profile_id == "baccarat-c"
    assert [s.action for s in rnd.steps] == [
        "check-bets",
        "check-shoe",
        "deal",
        "player-stand",
        "banker-stand",
        "outcome",
        "settle",
        "settle",
        "settle",
    ]
    assert rnd.steps[1].clauses == ("C.bac.decks",)


# --- decks: B.decks, C.bac.decks, D.decks -------------------------------------------

# Player AS AS = 2 draws AS -> 3; banker AS AS = 2 draws AS -> 3: a tie on six aces.
ACES = "AS " * 6


@pytest.mark.parametrize(
    ("profile_id", "decks"),
    [
        pytest.param("baccarat-b", 8, id="B.decks"),
        pytest.param("baccarat-c", 6, id="C.bac.decks"),
        pytest.param("baccarat-d", 8, id="D.decks"),
    ],
)
def test_decks_limit_copies_of_a_card(profile_id: str, decks: int) -> None:
    """B.decks, C.bac.decks, D.decks: as many copies of a card as decks, and no more."""
    r = rules(profile_id)
    bets = [seat((BetKind.TIE, 10))]
    allowed = parse_cards("AS " * decks)
    rnd = play_round(r, allowed, bets)
    assert rnd.coup.outcome is CoupOutcome.TIE
    assert rnd.settlement[0].payout.returned == 90
    assert rnd.steps[1].clauses == (
        {"baccarat-b": "B.decks", "baccarat-c": "C.bac.decks", "baccarat-d": "D.decks"}[profile_id],
    )

    with pytest.raises(ShoeNotInProfileError) as info:
        play_round(r, parse_cards("AS " * (decks + 1)), bets)
    assert info.value.reason == "SHOE_NOT_IN_PROFILE"
    assert info.value.metadata["card"] == "AS"
    assert info.value.metadata["count"] == str(decks + 1)
    assert info.value.metadata["decks"] == str(decks)


def test_b_decks_nine_copies_refused_even_when_spread_out() -> None:
    """B.decks: a ninth KH anywhere in the shoe is refused before any card is dealt."""
    shoe = parse_cards(ACES + "KH " * 8 + "2C KH")
    with pytest.raises(ShoeNotInProfileError, match="9 copies of KH"):
        play_round(rules("baccarat-b"), shoe, [seat((BetKind.PLAYER, 10))])


def test_c_bac_decks_seven_copies_refused() -> None:
    """C.bac.decks: six decks hold six 7D; a seventh is SHOE_NOT_IN_PROFILE."""
    shoe = parse_cards("TC TD TH TS " + "7D " * 7)
    with pytest.raises(ShoeNotInProfileError, match="7 copies of 7D"):
        play_round(rules("baccarat-c"), shoe, [seat((BetKind.PLAYER, 10))])
    # The same shoe fits the eight decks of B and D.
    play_round(rules("baccarat-d"), shoe, [seat((BetKind.PLAYER, 10))])


def test_a_shoe_not_in_the_profile_cites_the_first_decks_clause() -> None:
    """A lab's decks cite C.bac.decks then B.decks: the refusal cites the deciding one, first."""
    r = lab_rules("baccarat-c", 'decks = { value = 6, clauses = ["C.bac.decks", "B.decks"] }')
    shoe = parse_cards("TC TD TH TS " + "7D " * 7)
    with pytest.raises(ShoeNotInProfileError) as info:
        play_round(r, shoe, [seat((BetKind.PLAYER, 10))])
    assert info.value.clause == "C.bac.decks"


# --- B.limits and seat checks --------------------------------------------------------


def test_b_limits_over_the_maximum() -> None:
    """B.limits: baccarat-b's maximum is 1,000,000; one more is BET_OUT_OF_LIMITS."""
    r = rules("baccarat-b")
    play_round(r, parse_cards(PLAYER_WINS), [seat((BetKind.PLAYER, 1_000_000), balance=10**7)])
    with pytest.raises(BetOutOfLimitsError) as info:
        play_round(r, parse_cards(PLAYER_WINS), [seat((BetKind.PLAYER, 1_000_001), balance=10**7)])
    assert info.value.reason == "BET_OUT_OF_LIMITS"
    assert info.value.metadata["max_bet"] == "1000000"


def test_b_limits_under_the_minimum() -> None:
    """B.limits: a lab's minimum of 10 accepts 10 and refuses 9."""
    r = lab_rules("baccarat-b", "min_bet = { value = 10 }\nmax_bet = { value = 500 }")
    shoe = parse_cards(PLAYER_WINS)
    play_round(r, shoe, [seat((BetKind.TIE, 10), (BetKind.PLAYER, 500))])
    with pytest.raises(BetOutOfLimitsError) as info:
        play_round(r, shoe, [seat((BetKind.PLAYER, 100)), seat((BetKind.TIE, 9))])
    assert info.value.metadata["seat"] == "1"
    assert info.value.metadata["bet"] == "tie"
    with pytest.raises(BetOutOfLimitsError):
        play_round(r, shoe, [seat((BetKind.BANKER, 501))])
    assert rules("baccarat-b").limits != r.limits


def test_bets_over_the_balance() -> None:
    """Stakes of 60 + 50 exceed a balance of 100: INSUFFICIENT_BALANCE; exactly 100 is fine."""
    shoe = parse_cards(PLAYER_WINS)
    r = rules("baccarat-d")
    play_round(r, shoe, [seat((BetKind.PLAYER, 60), (BetKind.TIE, 40), balance=100)])
    with pytest.raises(InsufficientBalanceError) as info:
        play_round(r, shoe, [seat((BetKind.PLAYER, 60), (BetKind.TIE, 50), balance=100)])
    assert info.value.metadata["stake"] == "110"
    assert info.value.metadata["balance"] == "100"


def test_duplicate_bet_kind_on_a_seat() -> None:
    with pytest.raises(InvalidRoundError, match="seat 1 has more than one banker bet") as info:
        play_round(
            rules("baccarat-d"),
            parse_cards(PLAYER_WINS),
            [seat((BetKind.PLAYER, 10)), seat((BetKind.BANKER, 10), (BetKind.BANKER, 20))],
        )
    assert info.value.reason == "INVALID_ROUND"
    assert (info.value.metadata["seat"], info.value.metadata["bet"]) == ("1", "banker")


def test_no_seats() -> None:
    with pytest.raises(InvalidRoundError, match="at least one seat") as info:
        play_round(rules("baccarat-d"), parse_cards(PLAYER_WINS), [])
    assert info.value.metadata["seats"] == "0"


@pytest.mark.parametrize("amount", [0, -5])
def test_stake_below_the_minimum_is_out_of_limits(amount: int) -> None:
    """TABLE.limits: 0 and negative stakes are below the minimum, refused like any other."""
    with pytest.raises(BetOutOfLimitsError) as err:
        play_round(rules("baccarat-d"), parse_cards(PLAYER_WINS), [seat((BetKind.TIE, amount))])
    assert err.value.metadata["clause"] == "TABLE.limits"


@pytest.mark.parametrize(
    "stake",
    [
        pytest.param(10.0, id="float"),
        pytest.param(10.5, id="float-fraction"),
        pytest.param(True, id="bool"),
        pytest.param(Fraction(10), id="fraction"),
        pytest.param("10", id="text"),
    ],
)
def test_a_stake_that_is_not_whole_minor_units_is_refused(stake: object) -> None:
    """Stakes are whole minor units: 10.0 and True fit the limits, yet are no stake."""
    bet = BaccaratBet(kind=BetKind.PLAYER, amount=cast("int", stake))
    with pytest.raises(InvalidRoundError, match="whole number of minor units") as info:
        play_round(
            rules("baccarat-d"),
            parse_cards(PLAYER_WINS),
            [seat((BetKind.TIE, 5)), BaccaratSeat(balance=100, bets=(bet,))],
        )
    assert info.value.reason == "INVALID_ROUND"
    assert (info.value.metadata["seat"], info.value.metadata["bet"]) == ("1", "player")
    assert info.value.metadata["amount"] == str(stake)


def test_a_seat_without_bets_is_refused() -> None:
    with pytest.raises(InvalidRoundError, match="no bet"):
        play_round(rules("baccarat-d"), parse_cards(PLAYER_WINS), [seat()])


# --- shoe exhausted ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shoe", "needed"),
    [
        pytest.param("", 4, id="empty"),
        pytest.param("7C 6D TH", 4, id="three-cards"),
        # Player TC 2C = 2 must draw a fifth card.
        pytest.param("TC TD 2C 6D", 5, id="player-third"),
        # Player 2 draws AS -> 3; banker TD 2D = 2 always draws a sixth card.
        pytest.param("TC TD 2C 2D AS", 6, id="banker-third"),
        # Player 6 stands; banker 0 draws the fifth card.
        pytest.param("6C TD TH KD", 5, id="banker-third-player-stood"),
    ],
)
def test_shoe_too_short(shoe: str, needed: int) -> None:
    """SHOE_EXHAUSTED names how many cards the coup needed and how many the shoe had."""
    cards = parse_cards(shoe)
    with pytest.raises(ShoeExhaustedError) as info:
        play_coup(Tableau.STANDARD, cards)
    err = info.value
    assert err.reason == "SHOE_EXHAUSTED"
    assert err.metadata["needed"] == str(needed)
    assert err.metadata["shoe_size"] == str(len(cards))
    assert f"at least {needed} cards" in err.message
    assert f"holds only {len(cards)}" in err.message
    with pytest.raises(ShoeExhaustedError):
        play_round(rules("baccarat-d"), cards, [seat((BetKind.PLAYER, 10))])


@pytest.mark.parametrize(
    ("profile_id", "shoe", "needed", "asked_by"),
    [
        pytest.param("baccarat-b", "7C 6D TH", 4, "BAC.deal", id="B-deal"),
        # Player TC 2C = 2 must draw the fifth card.
        pytest.param("baccarat-b", "TC TD 2C 6D", 5, "BAC.player-draw", id="B-player-third"),
        # Player 6 stands; banker 0 must draw: the rule for a player who stood.
        pytest.param("baccarat-b", "6C TD TH KD", 5, "BAC.banker-stood", id="B-banker-stood"),
        # Player AC 4H = 5 draws AS: 6. Banker 2D 2S = 4 draws on an ace as document B prints
        # its tableau (B.tableau), so a sixth card is needed.
        pytest.param("baccarat-b", "AC 2D 4H 2S AS", 6, "B.tableau", id="B-tableau-ace-at-4"),
        # Player 2 draws AS: 3; banker 2 always draws, under either tableau.
        pytest.param("baccarat-b", "TC TD 2C 2D AS", 6, "B.tableau", id="B-tableau-banker-2"),
        pytest.param("baccarat-c", "TC TD 2C 2D AS", 6, "BAC.banker-tableau", id="C-tableau"),
        pytest.param("baccarat-d", "TC TD 2C 2D AS", 6, "BAC.banker-tableau", id="D-tableau"),
    ],
)
def test_shoe_exhausted_is_the_deals_and_names_the_rule_that_asked_for_the_card(
    profile_id: str, shoe: str, needed: int, asked_by: str
) -> None:
    with pytest.raises(ShoeExhaustedError) as info:
        play_round(rules(profile_id), parse_cards(shoe), [seat((BetKind.PLAYER, 10))])
    assert info.value.metadata["needed"] == str(needed)
    # BAC.deal refuses: cards come from the forced shoe in contract order, third cards too;
    # an engine that goes on is wrong about the shoe. The rule that wanted the card is what a
    # recorded coup without it breaks (oracle.verify).
    assert info.value.clause == "BAC.deal"
    assert info.value.asked_by == asked_by


def test_shoe_exhausted_b_tableau_only_where_b_draws() -> None:
    """Under the standard tableau banker 4 stands on a player's third-card ace: five cards do."""
    rnd = play_round(
        rules("baccarat-c"), parse_cards("AC 2D 4H 2S AS"), [seat((BetKind.PLAYER, 10))]
    )
    # Player 5 + A = 6 beats banker 4.
    assert (rnd.coup.player_total, rnd.coup.banker_total) == (6, 4)
    assert rnd.coup.outcome is CoupOutcome.PLAYER


def test_a_shoe_exactly_long_enough() -> None:
    """Player 2 draws AS -> 3; banker 4 stands on an ace (standard): five cards suffice."""
    coup = play_coup(Tableau.STANDARD, parse_cards("TC TD 2C 4D AS"))
    assert len(coup.dealt) == 5


def test_everything_is_checked_before_dealing() -> None:
    """Bets are checked before the shoe runs out; the shoe's composition before any card."""
    short = parse_cards("7C")
    with pytest.raises(InsufficientBalanceError):
        play_round(rules("baccarat-d"), short, [seat((BetKind.PLAYER, 10), balance=5)])
    with pytest.raises(ShoeNotInProfileError):
        play_round(rules("baccarat-c"), parse_cards("7C " * 7), [seat((BetKind.PLAYER, 10))])


# --- the round as the contract sees it --------------------------------------------------


def test_a_coup_is_complete_at_once_and_takes_no_decisions() -> None:
    played = play_round(
        rules("baccarat-c"), parse_cards(PLAYER_WINS + " 9C"), [seat((BetKind.PLAYER, 10))]
    )
    assert played.complete is True
    assert played.legal == ()
    assert played.history is None
    assert played.dealt == parse_cards(PLAYER_WINS)


def test_baccarat_values_are_immutable() -> None:
    played = play_round(rules("baccarat-c"), parse_cards(PLAYER_WINS), [seat((BetKind.TIE, 10))])
    values: list[object] = [
        played,
        played.coup,
        played.seats[0],
        played.seats[0].bets[0],
        rules("baccarat-c"),
    ]
    for value in values:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, dataclasses.fields(value)[0].name, None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("profile_id", "shoe", "why"),
    [
        # Player 7C TH = 7 stands, banker 6D TS = 6 stands because the player stood: no card
        # after the fourth, by BAC.player-draw and BAC.banker-stood.
        pytest.param(
            "baccarat-c",
            PLAYER_WINS,
            {
                "cards_dealt+": ("BAC.banker-stood",),
                "baccarat.player_cards[2]": ("BAC.player-draw",),
                "baccarat.banker_cards[2]": ("BAC.banker-stood",),
            },
            id="both-stand",
        ),
        # Player 9S KD = 9, a natural: both stand (BAC.natural).
        pytest.param(
            "baccarat-c",
            "9S 2D KD 3C",
            {
                "cards_dealt+": ("BAC.natural",),
                "baccarat.player_cards[2]": ("BAC.natural",),
                "baccarat.banker_cards[2]": ("BAC.natural",),
            },
            id="natural",
        ),
        # Player 2S 3D = 5 draws 4C: 9; banker KH AC = 1 draws TD by the tableau (0-2 always
        # draws): six cards, and no hand takes a fourth (BAC.deal).
        pytest.param(
            "baccarat-c",
            "2S KH 3D AC 4C TD",
            {
                "cards_dealt+": ("BAC.deal",),
                "baccarat.player_cards[2]=(none)": ("BAC.player-draw",),
                "baccarat.banker_cards[2]=(none)": ("BAC.banker-tableau",),
            },
            id="both-draw",
        ),
        # Player 2S 4D = 6 stands; banker KH 3C = 3 draws 5H after a player who stood
        # (BAC.banker-stood): the banker holds three cards, and no hand takes a fourth.
        pytest.param(
            "baccarat-b",
            "2S KH 4D 3C 5H",
            {
                "cards_dealt+": ("BAC.deal",),
                "baccarat.player_cards[2]": ("BAC.player-draw",),
                "baccarat.banker_cards[2]=(none)": ("BAC.banker-stood",),
            },
            id="banker-draws-alone",
        ),
        # Player AC 4H = 5 draws AS: 6; banker 2D 2S = 4 draws 6D, as document B's tableau
        # prints it (an ace at 4): the profile cites B.tableau, then BAC.banker-tableau.
        pytest.param(
            "baccarat-b",
            "AC 2D 4H 2S AS 6D",
            {
                "cards_dealt+": ("BAC.deal",),
                "baccarat.player_cards[2]=(none)": ("BAC.player-draw",),
                "baccarat.banker_cards[2]=(none)": ("B.tableau", "BAC.banker-tableau"),
            },
            id="b-tableau",
        ),
    ],
)
def test_citations_of_the_cards_taken_and_not_taken(
    profile_id: str, shoe: str, why: dict[str, tuple[str, ...]]
) -> None:
    played = play_round(rules(profile_id), parse_cards(shoe), [seat((BetKind.PLAYER, 10))])
    found = played.citations()
    # Why no card follows those dealt, and why each hand has or lacks a third card: a hand
    # that took it is cited at "[2]=(none)" (why it is not missing), one that did not at "[2]".
    third = {key: found[key] for key in found if key == "cards_dealt+" or "_cards[2]" in key}
    assert third == why


# --- properties ----------------------------------------------------------------------


@st.composite
def baccarat_rounds(
    draw: st.DrawFn, *, min_shoe: int = 6
) -> tuple[BaccaratRules, tuple[Card, ...], tuple[BaccaratSeat, ...]]:
    r = rules(draw(st.sampled_from(BACCARAT_PROFILE_IDS)))
    shoe = draw(shoes(r.decks, min_size=min_shoe, max_size=12))
    seats = tuple(draw(st.lists(baccarat_seats(), min_size=1, max_size=3)))
    return r, shoe, seats


def coup_or_error(tableau: Tableau, shoe: tuple[Card, ...]) -> Coup | ShoeExhaustedError:
    try:
        return play_coup(tableau, shoe)
    except ShoeExhaustedError as exc:
        return exc


@given(st.sampled_from(Tableau), shoes(8, max_size=10))
def test_property_dealt_is_a_prefix_in_contract_order(
    tableau: Tableau, shoe: tuple[Card, ...]
) -> None:
    """BAC.deal: the cards dealt are the front of the shoe, P, B, P, B, [P3], [B3]."""
    coup = coup_or_error(tableau, shoe)
    if isinstance(coup, ShoeExhaustedError):
        # Only a shoe of fewer than six cards can run out, and the error says so.
        assert len(shoe) < 6
        assert int(coup.metadata["needed"]) > len(shoe)
        assert coup.metadata["shoe_size"] == str(len(shoe))
        return
    dealt = coup.dealt
    assert dealt == shoe[: len(dealt)]
    assert 4 <= len(dealt) <= 6
    assert len(coup.player) <= 3
    assert len(coup.banker) <= 3
    assert coup.player[:2] == (dealt[0], dealt[2])
    assert coup.banker[:2] == (dealt[1], dealt[3])
    assert dealt[4:] == coup.player[2:] + coup.banker[2:]
    assert coup.player_total == hand_value(coup.player)
    assert coup.banker_total == hand_value(coup.banker)


@given(baccarat_rounds())
def test_property_settlement_bounded(
    case: tuple[BaccaratRules, tuple[Card, ...], tuple[BaccaratSeat, ...]],
) -> None:
    """No line returns less than nothing or more than stake * (1 + the bet's odds)."""
    r, shoe, seats = case
    rnd = play_round(r, shoe, seats)
    odds = {"player": r.player_pays, "banker": r.banker_pays, "tie": r.tie_pays}
    assert len(rnd.settlement) == sum(len(s.bets) for s in seats)
    for line in rnd.settlement:
        payout = line.payout
        ceiling = payout.stake * (1 + odds[line.bet].ratio)
        assert 0 <= payout.returned_exact <= ceiling
        assert 0 <= payout.returned <= ceiling
        assert payout.returned == r.rounding.apply(payout.returned_exact)
        assert line.clauses


# --- the steps, worded from what the coup and the round recorded ---------------------------


@pytest.mark.parametrize(
    ("shoe", "details"),
    [
        pytest.param(
            "AC 2D 3H AS 5C 6D",
            [
                "player AC 3H = 4; banker 2D AS = 3",
                "player draws 5C: 9",
                "banker draws 6D: 9",
                "player 9, banker 9: tie",
            ],
            id="both-draw",
        ),
        pytest.param(
            "4C 2D 4H 3S 4D",
            [
                "player 4C 4H = 8; banker 2D 3S = 5",
                "natural: player 8, banker 5; both stand",
                "player 8, banker 5: player",
            ],
            id="natural",
        ),
        pytest.param(
            "3C 4D 3H 2S",
            [
                "player 3C 3H = 6; banker 4D 2S = 6",
                "player stands on 6",
                "banker stands on 6",
                "player 6, banker 6: tie",
            ],
            id="both-stand",
        ),
    ],
)
def test_coup_steps_say_the_cards_and_totals(shoe: str, details: list[str]) -> None:
    """BAC.deal, BAC.values: the deal names the two first cards of each hand and their totals;
    a third card and the total it makes; the outcome on the final totals."""
    coup = play_coup(Tableau.STANDARD, parse_cards(shoe))
    assert [s.detail for s in coup.steps] == details


def test_round_steps_say_the_checks_and_each_settled_bet() -> None:
    """B.limits and C.bac.decks checked, then each bet settled: 41 on the banker returns
    41 + 41 x 0.95 = 79.95 exact, 79 paid (rounding down); the step cites the payout's rule,
    the line also the rounding that changed it (MONEY.rounding)."""
    rnd = play_round(
        rules("baccarat-c"),
        parse_cards(BANKER_WINS),
        [seat((BetKind.TIE, 5), (BetKind.BANKER, 41)), seat((BetKind.PLAYER, 30))],
    )
    assert [s.detail for s in rnd.steps] == [
        "2 seat(s), stakes within 1 to 1000000 and covered by the balances",
        "4 card(s), no more copies of a card than 6 deck(s) hold",
        "player 6C TH = 6; banker 7D TS = 7",
        "player stands on 6",
        "banker stands on 7",
        "player 6, banker 7: banker",
        "seat 0 tie: stake 5, returns 0 exact, 0 paid",
        "seat 0 banker: stake 41, returns 79.95 exact, 79 paid",
        "seat 1 player: stake 30, returns 0 exact, 0 paid",
    ]
    banker = rnd.steps[7]
    assert banker.clauses == ("BAC.pay-banker", "BAC.outcome")
    assert rnd.settlement[1].clauses == ("BAC.pay-banker", "BAC.outcome", "MONEY.rounding")
    assert rnd.steps[0].clauses == ("TABLE.limits",)


def test_rules_of_two_profiles_settle_by_their_own_odds() -> None:
    """BAC.pay-tie: two tables of one profile id whose rules differ only in the tie's odds each
    pay by their own, whichever settled first."""
    eight = lab_rules("baccarat-c", 'tie_pays = { value = "8:1" }')
    nine = lab_rules("baccarat-c", 'tie_pays = { value = "9:1" }')
    assert eight.profile_id == nine.profile_id
    for table, returned in ((eight, 90), (nine, 100), (eight, 90)):
        rnd = play_round(table, parse_cards(ACES), [seat((BetKind.TIE, 10))])
        assert rnd.settlement[0].payout.returned == returned
