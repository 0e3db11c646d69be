"""Record verification: a record whose cards run out is found, and blamed on the rule that asked.

A forced shoe that runs out is refused by the dealing order (BJ.deal-order, BAC.deal), but a
recorded round holds the cards the engine dealt: one short of what the dealer's rule or a
tableau asks for is a dealer that did not draw, and cites that rule (``ShoeExhaustedError``
keeps it as ``asked_by``).
"""

from __future__ import annotations

from dataclasses import replace

from croupier.oracle import blackjack
from croupier.oracle.baccarat import BaccaratBet, BetKind
from croupier.oracle.cards import parse_cards
from croupier.oracle.profile import shipped_profile
from croupier.oracle.rounds import BlackjackWager, RoundRequest, SeatRequest, Wager
from croupier.oracle.verify import ClaimedLine, RecordedRound, verify_record


def _request(profile_id: str, shoe: str, wager: Wager) -> RoundRequest:
    return RoundRequest(
        round_id="r1",
        profile_id=profile_id,
        table_id="t1",
        currency="EUR",
        seats=(SeatRequest(balance=1000, wagers=(wager,)),),
        shoe=parse_cards(shoe),
    )


def test_a_dealer_draw_missing_from_the_record_cites_the_dealer_rule() -> None:
    # Seat TS 7D = 17 stands; dealer 6H TC = 16 must draw (C.bj.dealer-draw): a fifth card is needed.
    record = RecordedRound(
        request=_request("blackjack-c", "TS 6H 7D TC", BlackjackWager(amount=100)),
        decisions=(blackjack.Decision(seat=0, hand=0, action=blackjack.Action.STAND),),
        lines=(ClaimedLine(seat=0, bet="hand 0", stake=100, returned=200),),
    )
    verdict = verify_record(shipped_profile("blackjack-c"), record)
    (only,) = verdict.discrepancies
    assert (only.clause, only.path, only.expected, only.actual) == (
        "C.bj.dealer-draw",
        "cards_dealt",
        "at least 5 cards",
        "4 cards",
    )


def test_a_player_third_card_missing_from_the_record_cites_the_player_rule() -> None:
    # Dealt P 2C, B 4S, P 3D, B 2H: player 5 draws (BAC.player-draw), banker 6; no natural.
    record = RecordedRound(
        request=_request("baccarat-d", "2C 4S 3D 2H", BaccaratBet(kind=BetKind.PLAYER, amount=100)),
        decisions=(),
        lines=(ClaimedLine(seat=0, bet="player", stake=100, returned=0),),
    )
    verdict = verify_record(shipped_profile("baccarat-d"), record)
    (only,) = verdict.discrepancies
    assert (only.clause, only.path, only.expected) == (
        "BAC.player-draw",
        "cards_dealt",
        "at least 5 cards",
    )


def _natural_nine(line: ClaimedLine) -> RecordedRound:
    # Dealt P 9C, B 2S, P TD, B 5H: player 9 is a natural against banker 7 (BAC.natural);
    # the player bet of 100 wins even money (BAC.pay-player): 200 returned.
    return RecordedRound(
        request=_request("baccarat-d", "9C 2S TD 5H", BaccaratBet(kind=BetKind.PLAYER, amount=100)),
        decisions=(),
        lines=(line,),
    )


RIGHT = ClaimedLine(seat=0, bet="player", stake=100, returned=200, returned_exact="200")


def test_each_field_of_a_settlement_line_that_differs_is_found() -> None:
    """A line equal to the rules' in all but one field is found in that field, and only there."""
    profile = shipped_profile("baccarat-d")
    right = verify_record(profile, _natural_nine(RIGHT))
    assert right.discrepancies == ()
    (expected,) = right.expected
    clauses = tuple(sorted(expected.clauses))
    assert verify_record(profile, _natural_nine(replace(RIGHT, clauses=clauses))).conformant
    if len(clauses) > 1:
        # The order of a line's clauses is not compared.
        reordered = replace(RIGHT, clauses=clauses[::-1])
        assert verify_record(profile, _natural_nine(reordered)).conformant
    wrong = {
        "seat": (replace(RIGHT, seat=1), "0", "1"),
        "bet": (replace(RIGHT, bet="banker"), "player", "banker"),
        "stake.minor_units": (replace(RIGHT, stake=101), "100", "101"),
        "returned.minor_units": (replace(RIGHT, returned=199), "200", "199"),
        "prison": (replace(RIGHT, prison="imprisoned"), "", "imprisoned"),
        "returned_exact": (replace(RIGHT, returned_exact="399/2"), "200", "399/2"),
        "clauses": (replace(RIGHT, clauses=("BAC.tie",)), " ".join(clauses), "BAC.tie"),
    }
    for field, (line, want, got) in wrong.items():
        found = verify_record(profile, _natural_nine(line)).discrepancies
        assert [(d.path, d.expected, d.actual) for d in found] == [
            (f"settlement.lines[0].{field}", want, got)
        ], field
