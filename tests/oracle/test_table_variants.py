"""The baccarat, roulette and every-game variants of RULES.md "Variants a lab may choose".

VAR.bac.ez, VAR.bac.banker-six, VAR.rou.bets-offered, VAR.rou.en-prison and TABLE.seats: every
expectation is worked out by hand from the clause's text, each value against its neighbours.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.oracle.baccarat import BaccaratBet, BaccaratRules, BaccaratSeat, play_round
from croupier.oracle.baccarat import BetKind as Bac
from croupier.oracle.cards import parse_cards
from croupier.oracle.errors import (
    BetNotOfferedError,
    InvalidBetLayoutError,
    ProfileError,
    TooManySeatsError,
)
from croupier.oracle.money import Odds
from croupier.oracle.profile import Profile, load_profile_text
from croupier.oracle.returns import percent, theoretical_returns
from croupier.oracle.roulette import (
    DOUBLE_ZERO,
    BetKind,
    Boards,
    Prisoner,
    RouletteBet,
    RouletteRules,
    RouletteSeat,
    TableHistory,
    accepted,
    spin_round,
)
from croupier.oracle.rounds import BlackjackWager, RoundRequest, SeatRequest, start_round
from croupier.oracle.settlement import Prison


def _lab(base: str, parameters: str) -> Profile:
    return load_profile_text(f'id = "lab"\nextends = "{base}"\n[parameters]\n{parameters}\n')


EZ = 'no_commission = { value = true, clauses = ["VAR.bac.ez"], status = "assumed" }\n'
NO_COMMISSION = 'banker_commission = { value = "0" }\n'
SIX = 'banker_six_pays = { value = "1:2", clauses = ["VAR.bac.banker-six"], status = "assumed" }\n'


def _bac(parameters: str = "") -> BaccaratRules:
    return BaccaratRules.from_profile(_lab("baccarat-c", parameters))


def _coup(rules: BaccaratRules, shoe: str) -> tuple[int, int, int]:
    """What a player, a banker and a tie bet of 100 each return on the shoe."""
    seat = BaccaratSeat(
        balance=1000,
        bets=(
            BaccaratBet(kind=Bac.PLAYER, amount=100),
            BaccaratBet(kind=Bac.BANKER, amount=100),
            BaccaratBet(kind=Bac.TIE, amount=100),
        ),
    )
    lines = play_round(rules, parse_cards(shoe), [seat]).settlement
    player, banker, tie = (line.payout.returned for line in lines)
    return player, banker, tie


# Player 2S 2D = 4 draws TH: 4. Banker 3C KD = 3; the player's third card is worth 0, so
# the banker draws (BAC.banker-tableau: 3 draws on all but 8) 4C: 7. Banker wins, 3 cards.
BANKER_THREE_CARD_SEVEN = "2S 3C 2D KD TH 4C"
# Player 2S 4D = 6 stands; banker 3C 4H = 7 stands (BAC.banker-stood). Banker wins, 2 cards.
BANKER_TWO_CARD_SEVEN = "2S 3C 4D 4H"
# Player 2S 2D = 4 draws TH: 4. Banker 3C 3H = 6 stands on a third card of 0 (draws only
# on 6-7). Banker wins on 6.
BANKER_SIX = "2S 3C 2D 3H TH"


def test_ez_a_banker_three_card_seven_pushes() -> None:
    assert _coup(_bac(EZ + NO_COMMISSION), BANKER_THREE_CARD_SEVEN) == (0, 100, 0)
    # Without the variant, the usual 0.95:1: 195.
    assert _coup(_bac(), BANKER_THREE_CARD_SEVEN) == (0, 195, 0)


def test_ez_other_banker_wins_pay_in_full() -> None:
    assert _coup(_bac(EZ + NO_COMMISSION), BANKER_TWO_CARD_SEVEN) == (0, 200, 0)
    assert _coup(_bac(EZ + NO_COMMISSION), BANKER_SIX) == (0, 200, 0)
    assert _coup(_bac(), BANKER_TWO_CARD_SEVEN) == (0, 195, 0)


def test_ez_cites_its_clause_first() -> None:
    rules = _bac(EZ + NO_COMMISSION)
    seat = BaccaratSeat(balance=100, bets=(BaccaratBet(kind=Bac.BANKER, amount=100),))
    for shoe in (BANKER_THREE_CARD_SEVEN, BANKER_TWO_CARD_SEVEN):
        (line,) = play_round(rules, parse_cards(shoe), [seat]).settlement
        assert line.clauses[0] == "VAR.bac.ez", shoe
    (line,) = play_round(_bac(), parse_cards(BANKER_TWO_CARD_SEVEN), [seat]).settlement
    assert "VAR.bac.ez" not in line.clauses


def test_banker_six_pays_its_odds() -> None:
    assert _coup(_bac(SIX), BANKER_SIX) == (0, 150, 0)
    # Other banker wins keep 0.95:1; without the variant a 6 too.
    assert _coup(_bac(SIX), BANKER_TWO_CARD_SEVEN) == (0, 195, 0)
    assert _coup(_bac(), BANKER_SIX) == (0, 195, 0)
    # With no commission: 1:2 on a 6, a three-card 7 pushes, other wins 1:1.
    both = _bac(EZ + NO_COMMISSION + SIX)
    assert _coup(both, BANKER_SIX) == (0, 150, 0)
    assert _coup(both, BANKER_THREE_CARD_SEVEN) == (0, 100, 0)
    assert _coup(both, BANKER_TWO_CARD_SEVEN) == (0, 200, 0)


def test_banker_six_odds_are_the_profiles() -> None:
    rules = _bac(
        'banker_six_pays = { value = "3:4", clauses = ["VAR.bac.banker-six"], status = "assumed" }'
    )
    assert rules.banker_six_pays == Odds.parse("3:4")
    assert _coup(rules, BANKER_SIX) == (0, 175, 0)
    seat = BaccaratSeat(balance=100, bets=(BaccaratBet(kind=Bac.BANKER, amount=100),))
    (line,) = play_round(rules, parse_cards(BANKER_SIX), [seat]).settlement
    assert line.clauses[0] == "VAR.bac.banker-six"
    assert _bac().banker_six_pays is None


# --- roulette: the kinds a table offers -----------------------------------------------


OUTSIDE = (
    'bets_offered = { value = ["column", "dozen", "red", "black", "even", "odd", "low", "high"],'
    ' clauses = ["VAR.rou.bets-offered"], status = "assumed" }\n'
)


def _rou(parameters: str = "", base: str = "roulette-c") -> RouletteRules:
    return RouletteRules.from_profile(_lab(base, parameters))


def _seat(*bets: RouletteBet, balance: int = 1000) -> RouletteSeat:
    return RouletteSeat(balance=balance, bets=bets)


def _bet(kind: BetKind, amount: int = 100, *numbers: int) -> RouletteBet:
    return RouletteBet(kind=kind, numbers=numbers, amount=amount)


def test_a_kind_the_table_does_not_offer_is_refused_naming_seat_and_kind() -> None:
    rules = _rou(OUTSIDE)
    seats = [
        _seat(_bet(BetKind.RED)),
        _seat(_bet(BetKind.DOZEN, 10, 2), _bet(BetKind.STRAIGHT, 10, 17)),
    ]
    with pytest.raises(BetNotOfferedError) as info:
        spin_round(rules, TableHistory.new("t"), 17, seats)
    assert info.value.reason == "BET_NOT_OFFERED"
    assert info.value.metadata["seat"] == "1"
    assert info.value.metadata["kind"] == "straight"
    assert info.value.clause == "VAR.rou.bets-offered"


def test_the_offered_kinds_settle_as_usual() -> None:
    # 17 is black, odd, low, in column 2 and dozen 2: column 2 pays 2:1, red loses.
    played = spin_round(
        _rou(OUTSIDE),
        TableHistory.new("t"),
        17,
        [_seat(_bet(BetKind.COLUMN, 10, 2), _bet(BetKind.RED, 10), _bet(BetKind.ODD, 10))],
    )
    assert [line.payout.returned for line in played.settlement] == [30, 0, 20]


def test_a_not_offered_kind_is_refused_before_its_shape_is_checked() -> None:
    # A straight on 1-2 is no shape (C.rou.geometry), but the table takes no straight at all.
    with pytest.raises(BetNotOfferedError):
        spin_round(
            _rou(OUTSIDE), TableHistory.new("t"), 1, [_seat(_bet(BetKind.STRAIGHT, 10, 1, 2))]
        )
    with pytest.raises(InvalidBetLayoutError):
        spin_round(_rou(), TableHistory.new("t"), 1, [_seat(_bet(BetKind.STRAIGHT, 10, 1, 2))])


def test_every_kind_is_offered_by_default() -> None:
    assert _rou().offered == frozenset(BetKind)
    assert _rou(OUTSIDE).offered == frozenset(
        {BetKind.COLUMN, BetKind.DOZEN, *(k for k in BetKind if k.is_even_chance)}
    )


# --- roulette: en prison --------------------------------------------------------------

PRISON = (
    'zero_rule = { value = "en-prison", clauses = ["VAR.rou.en-prison"], status = "assumed" }\n'
)


def test_a_zero_imprisons_the_even_money_bets_only() -> None:
    rules = _rou(PRISON)
    seat = _seat(
        _bet(BetKind.RED, 100),
        _bet(BetKind.STRAIGHT, 10, 0),
        _bet(BetKind.DOZEN, 10, 1),
        _bet(BetKind.LOW, 40),
    )
    played = spin_round(rules, TableHistory.new("t"), 0, [seat])
    # Red and low stay on the table (0 now); the straight 0 wins 35:1; the dozen loses.
    assert [line.payout.returned for line in played.settlement] == [0, 360, 0, 0]
    assert [line.prison for line in played.settlement] == [
        Prison.IMPRISONED,
        None,
        None,
        Prison.IMPRISONED,
    ]
    assert played.settlement[0].clauses[0] == "VAR.rou.en-prison"
    assert played.history.prison == (
        Prisoner(seat=0, kind=BetKind.RED, amount=100),
        Prisoner(seat=0, kind=BetKind.LOW, amount=40),
    )
    assert played.history.results == (0,)


@pytest.mark.parametrize(
    ("pocket", "back"),
    [
        (1, 100),  # red: the stake back, no winnings
        (2, 0),  # black: lost
        (0, 0),  # another zero: lost, not imprisoned again
    ],
)
def test_the_seats_next_spin_decides_an_imprisoned_bet(pocket: int, back: int) -> None:
    rules = _rou(PRISON)
    first = spin_round(rules, TableHistory.new("t"), 0, [_seat(_bet(BetKind.RED, 100))])
    second = spin_round(rules, first.history, pocket, [_seat(_bet(BetKind.STRAIGHT, 10, 36))])
    released, straight = second.settlement
    assert released.prison is Prison.RELEASED
    assert (released.seat, released.bet) == (0, "red")
    # Its stake was counted on the spin that imprisoned it.
    assert released.payout.stake == 0
    assert released.payout.returned == back
    assert released.clauses[0] == "VAR.rou.en-prison"
    assert straight.payout.returned == 0
    assert second.history.prison == ()


def test_a_new_even_money_bet_on_a_second_zero_is_imprisoned_while_the_old_one_is_lost() -> None:
    rules = _rou(PRISON)
    first = spin_round(rules, TableHistory.new("t"), 0, [_seat(_bet(BetKind.RED, 100))])
    second = spin_round(rules, first.history, 0, [_seat(_bet(BetKind.BLACK, 50))])
    assert [(line.prison, line.payout.returned) for line in second.settlement] == [
        (Prison.RELEASED, 0),
        (Prison.IMPRISONED, 0),
    ]
    assert second.history.prison == (Prisoner(seat=0, kind=BetKind.BLACK, amount=50),)


def test_a_spin_without_the_seat_leaves_its_bet_imprisoned() -> None:
    rules = _rou(PRISON)
    two = [_seat(_bet(BetKind.DOZEN, 10, 1)), _seat(_bet(BetKind.EVEN, 100))]
    first = spin_round(rules, TableHistory.new("t"), 0, two)
    assert first.history.prison == (Prisoner(seat=1, kind=BetKind.EVEN, amount=100),)
    # Seat 0 alone: seat 1's bet waits; 4 (even) does not decide it.
    alone = spin_round(rules, first.history, 4, [_seat(_bet(BetKind.ODD, 10))])
    assert [line.prison for line in alone.settlement] == [None]
    assert alone.history.prison == first.history.prison
    assert alone.history.results == (0, 4)
    # Seat 1 is back: 7 is odd, the even bet is lost.
    back = spin_round(
        rules, alone.history, 7, [_seat(_bet(BetKind.ODD, 10)), _seat(_bet(BetKind.RED, 10))]
    )
    assert [(line.seat, line.prison, line.payout.returned) for line in back.settlement] == [
        (0, None, 20),
        (1, Prison.RELEASED, 0),
        (1, None, 20),
    ]
    assert back.history.prison == ()


def test_a_seat_s_imprisoned_bet_is_decided_once_with_that_seat_only() -> None:
    # Seat 0's red 100 is imprisoned on 0. Next spin 1 (red), seats 0 and 1 both back: seat 0's
    # red comes back as its stake, 100, once and as seat 0's; seat 0's black 10 loses; seat 1's
    # red 20 wins 1:1, 40. Seat 1 has no prisoner of its own, so no line of it is a release.
    rules = _rou(PRISON)
    two = [_seat(_bet(BetKind.RED, 100)), _seat(_bet(BetKind.STRAIGHT, 10, 5))]
    first = spin_round(rules, TableHistory.new("t"), 0, two)
    assert first.history.prison == (Prisoner(seat=0, kind=BetKind.RED, amount=100),)
    again = [_seat(_bet(BetKind.BLACK, 10)), _seat(_bet(BetKind.RED, 20))]
    second = spin_round(rules, first.history, 1, again)
    assert [
        (line.seat, line.bet, line.prison, line.payout.returned) for line in second.settlement
    ] == [
        (0, "red", Prison.RELEASED, 100),
        (0, "black", None, 0),
        (1, "red", None, 40),
    ]
    assert second.history.prison == ()


def test_double_zero_imprisons_too() -> None:
    rules = _rou(PRISON, base="roulette-american")
    played = spin_round(rules, TableHistory.new("t"), DOUBLE_ZERO, [_seat(_bet(BetKind.HIGH, 100))])
    assert played.history.prison == (Prisoner(seat=0, kind=BetKind.HIGH, amount=100),)


def test_other_zero_rules_imprison_nothing() -> None:
    for parameters, back in (("", 0), ('zero_rule = { value = "half-back" }\n', 50)):
        played = spin_round(
            _rou(parameters), TableHistory.new("t"), 0, [_seat(_bet(BetKind.RED, 100))]
        )
        assert played.history.prison == ()
        assert [(line.prison, line.payout.returned) for line in played.settlement] == [(None, back)]


def test_the_board_store_keeps_a_tables_prison_per_profile_and_table() -> None:
    rules = _rou(PRISON)
    boards = Boards()
    played = spin_round(rules, TableHistory.new("t"), 0, [_seat(_bet(BetKind.RED, 100))])
    boards.put("lab", played.history)
    kept = boards.get("lab", "t")
    assert kept is not None
    assert kept.prison == (Prisoner(seat=0, kind=BetKind.RED, amount=100),)
    assert boards.get("lab", "other") is None
    assert boards.get("roulette-c", "t") is None


# --- every game: the most seats ---------------------------------------------------------


def _request(profile: Profile, seats: int) -> RoundRequest:
    if profile.game.value == "roulette":
        wager: object = RouletteBet(kind=BetKind.RED, amount=10)
        outcome: dict[str, object] = {"pocket": 1}
    elif profile.game.value == "baccarat":
        wager = BaccaratBet(kind=Bac.PLAYER, amount=10)
        outcome = {"shoe": parse_cards("7S 4H 9D 6C 3C")}
    else:
        wager = BlackjackWager(amount=10)
        outcome = {"shoe": parse_cards("TS TD TH TC QS 9C 9D 9H 9S 7H JC QC")}
    return RoundRequest(
        round_id="r",
        profile_id=profile.id,
        table_id="t",
        currency="EUR",
        seats=tuple(SeatRequest(balance=100, wagers=(wager,)) for _ in range(seats)),  # type: ignore[arg-type]
        **outcome,  # type: ignore[arg-type]
    )


FIVE = 'max_seats = { value = 5, clauses = ["TABLE.seats"], status = "assumed" }\n'


@pytest.mark.parametrize("base", ["blackjack-a", "baccarat-b", "roulette-c"])
def test_a_table_of_five_takes_five_seats_and_refuses_six(base: str) -> None:
    profile = _lab(base, FIVE)
    assert start_round(profile, _request(profile, 5)).request.seats
    with pytest.raises(TooManySeatsError) as info:
        start_round(profile, _request(profile, 6))
    assert info.value.reason == "TOO_MANY_SEATS"
    assert info.value.metadata["limit"] == "5"
    assert info.value.metadata["seats"] == "6"
    assert info.value.clause == "TABLE.seats"


def test_without_the_variant_a_table_takes_the_contracts_sixteen() -> None:
    profile = _lab("roulette-c", "")
    assert profile.integer("max_seats") == 16
    assert len(start_round(profile, _request(profile, 16)).settlement) == 16


def test_a_refusal_of_seats_is_cited_only_where_the_profile_sets_a_limit() -> None:
    limited = _lab("roulette-c", FIVE)
    plain = _lab("roulette-c", "")
    assert start_round(limited, _request(limited, 1)).accepted()["error=TOO_MANY_SEATS"] == (
        "TABLE.seats",
    )
    assert "error=TOO_MANY_SEATS" not in start_round(plain, _request(plain, 1)).accepted()


# --- profiles a lab may not write ------------------------------------------------------


def test_each_problem_of_a_profile_is_named() -> None:
    with pytest.raises(ProfileError) as info:
        _lab(
            "baccarat-c",
            EZ
            + 'tableau = { value = "nope" }\n'
            + "max_seats = { value = 17 }\n"
            + "nonsense = { value = 1 }\n",
        )
    message = str(info.value)
    assert message.startswith("<profile>: 4 problems: ")
    assert "parameters.tableau.value" in message
    assert "parameters.max_seats.value: must be at most 16, got 17" in message
    assert "parameters.nonsense: unknown baccarat parameter" in message
    # No-commission play with the 5% of baccarat-c.
    assert "no_commission is true but banker_commission is 0.05" in message
    assert info.value.metadata["keys"].split(",") == [
        "parameters.tableau.value",
        "parameters.max_seats.value",
        "parameters.nonsense",
        "parameters.no_commission",
    ]


def test_en_prison_on_a_table_without_even_money_bets_is_refused() -> None:
    inside = (
        'bets_offered = { value = ["straight", "split", "dozen"], clauses = '
        '["VAR.rou.bets-offered"], status = "assumed" }\n'
    )
    with pytest.raises(
        ProfileError, match="zero_rule is en-prison but bets_offered holds no even-money bet"
    ):
        _lab("roulette-c", PRISON + inside)
    # Either alone is a table a lab may run.
    assert _rou(inside).offered == frozenset({BetKind.STRAIGHT, BetKind.SPLIT, BetKind.DOZEN})
    assert _rou(PRISON).en_prison


@pytest.mark.parametrize(
    ("base", "kind"), [("roulette-c", "top-line"), ("roulette-american", "first-four")]
)
def test_offering_a_kind_the_wheel_lacks_is_refused(base: str, kind: str) -> None:
    with pytest.raises(ProfileError, match=f"bets_offered names {kind}"):
        _lab(
            base,
            f'bets_offered = {{ value = ["red", "{kind}"], clauses = ["VAR.rou.bets-offered"], status = "assumed" }}',
        )


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("[]", "at least one word"),
        ('["red", "red"]', "names a word twice"),
        ('["purple"]', "'purple': expected words of"),
        ('"red"', "expected a list of words"),
    ],
)
def test_a_set_of_kinds_is_checked(value: str, why: str) -> None:
    with pytest.raises(ProfileError, match=why):
        _lab(
            "roulette-c",
            f'bets_offered = {{ value = {value}, clauses = ["VAR.rou.bets-offered"], status = "assumed" }}',
        )


@pytest.mark.parametrize("value", ['"0:1x"', "12", '"some"'])
def test_banker_six_takes_odds_or_none(value: str) -> None:
    with pytest.raises(ProfileError, match="banker_six_pays"):
        _lab(
            "baccarat-c",
            f'banker_six_pays = {{ value = {value}, clauses = ["VAR.bac.banker-six"], status = "assumed" }}',
        )


def test_the_same_kinds_in_another_order_are_the_same_value() -> None:
    a = _lab(
        "roulette-c",
        'bets_offered = { value = ["red", "dozen"], clauses = ["VAR.rou.bets-offered"], status = "assumed" }',
    )
    b = _lab(
        "roulette-c",
        'bets_offered = { value = ["dozen", "red"], clauses = ["VAR.rou.bets-offered"], status = "assumed" }',
    )
    assert a["bets_offered"] == b["bets_offered"] == ("dozen", "red")


# --- what the variants do to the theoretical returns and the citations ------------------


def test_en_prison_returns_an_even_chance_its_stake_on_the_next_spin() -> None:
    # 18/37 of spins pay 2; a zero (1/37) imprisons, and the next spin gives the stake back
    # with 18/37: (36 * 37 + 18) / 37^2 = 1350/1369, an edge of 19/1369 (about 1.39%).
    returns = {r.bet: r for r in theoretical_returns(_lab("roulette-c", PRISON))}
    assert returns["red"].returns == Fraction(1350, 1369)
    assert returns["low"].returns == Fraction(1350, 1369)
    # Second moment: 18/37 * 4 + 1/37 * 18/37 * 1, less the mean squared.
    second = Fraction(18 * 4, 37) + Fraction(18, 37 * 37)
    assert returns["red"].variance == second - Fraction(1350, 1369) ** 2
    # A zero still takes a dozen: 24/37 * ... = 36/37 as without the variant.
    assert returns["dozen"].returns == Fraction(36, 37)
    assert "VAR.rou.en-prison" in returns["red"].clauses


def test_a_table_returns_only_the_kinds_it_offers() -> None:
    bets = [r.bet for r in theoretical_returns(_lab("roulette-c", OUTSIDE))]
    assert bets == ["column", "dozen", "red", "black", "even", "odd", "low", "high"]


def test_no_commission_and_super_six_edges_are_the_published_ones() -> None:
    # Eight decks, the standard tableau: EZ Baccarat's banker edge is 1.0183%, Super 6's
    # (no commission, a banker 6 paid 1:2) 1.458%, as the game's published analyses give.
    ez = {r.bet: r for r in theoretical_returns(_lab("baccarat-d", EZ + NO_COMMISSION))}
    six = {r.bet: r for r in theoretical_returns(_lab("baccarat-d", NO_COMMISSION + SIX))}
    plain = {r.bet: r for r in theoretical_returns(_lab("baccarat-d", ""))}
    assert percent(ez["banker"].house_edge) == "1.0183%"
    assert percent(six["banker"].house_edge, 3) == "1.458%"
    assert percent(plain["banker"].house_edge) == "1.0579%"
    # Neither variant touches the player or the tie bet.
    for bet in ("player", "tie"):
        assert ez[bet].returns == six[bet].returns == plain[bet].returns
    assert "VAR.bac.ez" in ez["banker"].clauses
    assert "VAR.bac.banker-six" in six["banker"].clauses


def test_a_refusal_of_a_kind_is_cited_only_where_the_table_restricts_them() -> None:
    assert accepted(_rou(OUTSIDE))["error=BET_NOT_OFFERED"] == ("VAR.rou.bets-offered",)
    assert "error=BET_NOT_OFFERED" not in accepted(_rou())


def test_a_prison_is_cited_by_the_variant() -> None:
    played = spin_round(_rou(PRISON), TableHistory.new("t"), 5, [_seat(_bet(BetKind.RED, 10))])
    assert played.citations()["roulette.prison"][0] == "VAR.rou.en-prison"


def test_the_prison_is_kept_in_seat_order() -> None:
    rules = _rou(PRISON)
    # Seat 2 imprisoned first; a later zero with seats 0 and 1 imprisons theirs before it.
    three = [
        _seat(_bet(BetKind.DOZEN, 10, 1)),
        _seat(_bet(BetKind.DOZEN, 10, 1)),
        _seat(_bet(BetKind.ODD, 30)),
    ]
    first = spin_round(rules, TableHistory.new("t"), 0, three)
    two = [_seat(_bet(BetKind.RED, 10)), _seat(_bet(BetKind.BLACK, 20))]
    second = spin_round(rules, first.history, 0, two)
    assert second.history.prison == (
        Prisoner(seat=0, kind=BetKind.RED, amount=10),
        Prisoner(seat=1, kind=BetKind.BLACK, amount=20),
        Prisoner(seat=2, kind=BetKind.ODD, amount=30),
    )


def test_a_seats_prisoner_is_decided_once_with_other_seats_at_the_spin() -> None:
    rules = _rou(PRISON)
    first = spin_round(rules, TableHistory.new("t"), 0, [_seat(_bet(BetKind.RED, 100))])
    # Seat 0's red and two more seats: one released line, seat 0's; 3 is red.
    seats = [
        _seat(_bet(BetKind.ODD, 10)),
        _seat(_bet(BetKind.LOW, 10)),
        _seat(_bet(BetKind.HIGH, 10)),
    ]
    second = spin_round(rules, first.history, 3, seats)
    assert [(line.seat, line.prison, line.payout.returned) for line in second.settlement] == [
        (0, Prison.RELEASED, 100),
        (0, None, 20),
        (1, None, 20),
        (2, None, 0),
    ]
