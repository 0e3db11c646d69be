"""Hand-written blackjack cases common to profiles A and C.

Each is decided the same way under both documents; where a document has its own clause for
the rule (double, split, insurance, the dealer's drawing rule), the case names it through
``own``. Ids stay what they were when the cases were written per profile: each case carries
its number under A and under C. Shoes are in contract order (BJ.deal-order); amounts are
"returned" figures, stake included, worked out by hand in the comment above each round.
"""

from __future__ import annotations

from collections.abc import Mapping

from croupier.conformance.cases import Case, CaseRound, case_maker

#: Each document's clause for the rules the cases name by role.
OWN: dict[str, Mapping[str, str]] = {
    "blackjack-a": {
        "double": "A.double",
        "split": "A.split",
        "insurance": "A.insurance",
        "dealer-draw": "A.dealer-draw",
    },
    "blackjack-c": {
        "double": "C.bj.double",
        "split": "C.bj.split",
        "insurance": "C.bj.insurance",
        "dealer-draw": "C.bj.dealer-draw",
    },
}
_COLUMN = {"blackjack-a": 0, "blackjack-c": 1}


def common_cases(profile: str, prefix: str) -> tuple[Case, ...]:
    """The shared cases, named and numbered for one blackjack profile."""
    own = {"{" + role + "}": (clause,) for role, clause in OWN[profile].items()}
    case = case_maker(profile, prefix, own, column=_COLUMN[profile])

    return (
        case(
            (14, 15),
            "funds/insurance-not-offered-when-short",
            ("BJ.funds", "{insurance}"),
            "A seat whose free funds cannot cover the insurance is not offered it.",
            # Balance 120, stake 100: free 20 < insurance 50, so no offer; the dealer peeks (AH 8C,
            # no blackjack) and play starts: insurance is then illegal.
            CaseRound(
                seats=("120:100",),
                shoe="9S AH 7D 8C 5C",
                decisions="insurance",
                error="ILLEGAL_DECISION",
            ),
        ),
        case(
            (15, 33),
            "dealer/stands-on-soft-17",
            ("{dealer-draw}", "BJ.values", "BJ.compare"),
            "The dealer stands on soft 17 (A+6); a player 18 wins 1:1.",
            # TS 8D = 18 stands; dealer 6H AC = soft 17, stands (A.dealer-draw, C.bj.dealer-draw): 18 > 17,
            # 100 + 100 = 200.
            CaseRound(
                seats=("1000:100",),
                shoe="TS 6H 8D AC 5C 5D 9S",
                decisions="stand",
                returns=(200,),
            ),
        ),
        case(
            (17, 35),
            "dealer/no-draw-when-every-hand-busted",
            ("BJ.dealer-needed", "BJ.bust"),
            "A player who busts loses at once and the dealer, needed by no hand, draws nothing.",
            # TS 6D = 16 hits KS: 26, bust, 0. Dealer 5H TC = 15 would draw, but no hand waits:
            # the 9C stays in the shoe.
            CaseRound(
                seats=("1000:100",), shoe="TS 5H 6D TC KS 9C 8C", decisions="hit", returns=(0,)
            ),
        ),
        case(
            (18, 36),
            "values/soft-hand-then-auto-stand-on-21",
            ("BJ.values", "BJ.auto-stand", "BJ.compare"),
            "A soft 17 hits to a hard 16, then to 21, where the hand stands by itself.",
            # AS 6D = soft 17; hit 9S: 26 with the ace as 11, so 16 hard; hit 5C: 21, stands with no
            # decision. Dealer 9H 8C = 17 stands. 21 > 17: 200.
            CaseRound(
                seats=("1000:100",),
                shoe="AS 9H 6D 8C 9S 5C 2C",
                decisions="hit hit",
                returns=(200,),
            ),
        ),
        case(
            (20, 30),
            "double/one-card-only",
            ("{double}", "BJ.compare"),
            "A double takes exactly one card and stands: 12 loses the doubled stake.",
            # 5S 4D = 9, double: stake 200, one card 3C: 12, stands. Dealer 7H TC = 17. 12 < 17: 0.
            CaseRound(
                seats=("1000:100",), shoe="5S 7H 4D TC 3C 9C", decisions="double", returns=(0,)
            ),
        ),
        case(
            (21, 31),
            "double/refused-on-three-cards",
            ("{double}",),
            "A hand of three cards may not double.",
            # 2S 3D = 5, hit 4C: 9 on three cards; double is only for two-card hands: refused.
            CaseRound(
                seats=("1000:100",),
                shoe="2S 7H 3D TC 4C 5C",
                decisions="hit double",
                error="ILLEGAL_DECISION",
            ),
        ),
        case(
            (22, 32),
            "funds/double-refused-without-funds",
            ("BJ.funds", "{double}"),
            "A seat whose whole balance is on the box may not double.",
            # Balance 100, stake 100: free funds 0 < 100 extra, so double is not offered.
            CaseRound(
                seats=("100:100",),
                shoe="6S 7H 5D TC 9C",
                decisions="double",
                error="ILLEGAL_DECISION",
            ),
        ),
        case(
            (26, 27),
            "split/no-resplit",
            ("{split}",),
            "A split hand that pairs again may not be split a second time.",
            # Split 8S 8D; hand 0 receives 8C: 8-8 again, but two hands at most: refused.
            CaseRound(
                seats=("1000:100",),
                shoe="8S 7H 8D TC 8C KC 5C",
                decisions="split split",
                error="ILLEGAL_DECISION",
            ),
        ),
        case(
            (28, 28),
            "funds/split-refused-without-funds",
            ("{split}", "BJ.funds"),
            "A split needs a second stake equal to the first: 50 free of 150 is not enough.",
            # Balance 150, stake 100: free 50 < 100, "suffisamment d'argent" fails: refused.
            CaseRound(
                seats=("150:100",),
                shoe="8S 7H 8D TC 5C",
                decisions="split",
                error="ILLEGAL_DECISION",
            ),
        ),
        case(
            (35, 41),
            "limits/stake-at-max-bet",
            ("TABLE.limits", "BJ.compare"),
            "A stake exactly at the table maximum of 1000000 is taken and paid.",
            # 1000000 = max_bet: accepted. 19 > 17: 1000000 + 1000000 = 2000000.
            CaseRound(
                seats=("1000000:1000000",),
                shoe="TS 7H 9D TC 5C",
                decisions="stand",
                returns=(2000000,),
            ),
        ),
        case(
            (36, 42),
            "limits/stake-over-max-bet",
            ("TABLE.limits",),
            "A stake over the table maximum is refused: BET_OUT_OF_LIMITS.",
            # 1000001 > max_bet 1000000.
            CaseRound(seats=("2000000:1000001",), shoe="TS 7H 9D TC 5C", error="BET_OUT_OF_LIMITS"),
        ),
        case(
            (37, 43),
            "limits/stake-at-min-bet",
            ("TABLE.limits", "BJ.compare"),
            "A stake of 1, the table minimum, is taken and paid.",
            # 1 = min_bet: accepted. 19 > 17: 1 + 1 = 2.
            CaseRound(seats=("1:1",), shoe="TS 7H 9D TC 5C", decisions="stand", returns=(2,)),
        ),
        case(
            (41, 46),
            "half-stakes/one-unit-stake-gets-no-insurance",
            ("BJ.half-stakes", "{insurance}"),
            "A 1-unit stake against an ace is offered no insurance; play goes straight on.",
            # 9S 7D = 16 against AH: half of 1 rounds to 0, no insurance offer. Peek: 8C, no
            # blackjack. Stand; dealer A+8 = soft 19 stands; 16 loses: 0.
            CaseRound(seats=("1000:1",), shoe="9S AH 7D 8C 5C", decisions="stand", returns=(0,)),
        ),
        case(
            (60, 60),
            "insurance/lost-to-a-three-card-21",
            ("{insurance}", "BJ.natural"),
            "Insurance is lost when the dealer makes 21 with three cards: only a blackjack pays it.",
            # 6S 5D = 11 against AH; insurance 50. Hole 5C: soft 16, no blackjack, insurance
            # lost. Stand; the dealer draws 5H: 21 with three cards. 11 loses: 0; insurance 0.
            CaseRound(
                seats=("1000:100",),
                shoe="6S AH 5D 5C 5H 9C",
                decisions="insurance stand",
                returns=(0, 0),
            ),
        ),
        case(
            (61, 61),
            "dealer/stands-on-a-three-card-soft-17",
            ("{dealer-draw}", "BJ.values", "BJ.compare"),
            "The dealer stands on a soft 17 of three cards (2-4-A) as on any soft 17.",
            # TS 8D = 18 stands. Dealer 2H 4C = 6 draws AS: soft 17, stands (4D stays). 18 > 17:
            # 200.
            CaseRound(
                seats=("1000:100",), shoe="TS 2H 8D 4C AS 4D", decisions="stand", returns=(200,)
            ),
        ),
        case(
            (62, 62),
            "bust/loses-though-the-dealer-busts",
            ("BJ.bust", "BJ.compare"),
            "A bust hand loses at once, even when the dealer busts later for another seat.",
            # Seat 0 TS 5H = 15 hits KS: 25, bust. Seat 1 9C TC = 19 stands. Dealer 6D TH = 16
            # draws 9S: 25, bust. Seat 0: 0; seat 1: 200.
            CaseRound(
                seats=("1000:100", "1000:100"),
                shoe="TS 9C 6D 5H TC TH KS 9S",
                decisions="hit stand",
                returns=(0, 200),
            ),
        ),
        case(
            (63, 63),
            "funds/second-seat-box-over-balance",
            ("BJ.funds",),
            "A second seat whose box of 100 is more than its balance of 50 refuses the deal.",
            # Seat 1: stake 100 > balance 50: INSUFFICIENT_BALANCE.
            CaseRound(
                seats=("1000:100", "50:100"),
                shoe="TS 9C 7D 7H TC 5C 2D 3C",
                error="INSUFFICIENT_BALANCE",
            ),
        ),
        case(
            (64, 64),
            "lifecycle/settle-during-the-offers",
            ("CONTRACT.lifecycle",),
            "Settle while a seat's insurance offer waits is ROUND_NOT_COMPLETE.",
            # 9S 7D against AH: the insurance offer waits for seat 0.
            CaseRound(seats=("1000:100",), shoe="9S AH 7D 8C 5C", error="ROUND_NOT_COMPLETE"),
        ),
        case(
            (65, 65),
            "split/no-resplit-of-eights",
            ("{split}",),
            "8-8 split, the first hand pairs again with an 8: a second split is refused.",
            # Split 8S 8D against 6H; hand 0 takes 8C: 8-8 again, but two hands are the most.
            CaseRound(
                seats=("1000:100",),
                shoe="8S 6H 8D TC 8C 9S 9H",
                decisions="split split",
                error="ILLEGAL_DECISION",
            ),
        ),
        case(
            (66, 66),
            "split/no-resplit-of-the-second-hand",
            ("{split}",),
            "After a split the second hand pairs again: it may not split either.",
            # Split 9S 9D; hand 0 takes 5C: 14, stands. Hand 1 takes 9C: 9-9, no second split.
            CaseRound(
                seats=("1000:100",),
                shoe="9S 6H 9D TC 5C 9C 7H",
                decisions="split stand split",
                error="ILLEGAL_DECISION",
            ),
        ),
        case(
            (67, 67),
            "funds/a-seat-short-of-insurance-is-skipped",
            ("BJ.funds", "{insurance}"),
            "The offers skip a seat whose free funds cannot cover insurance; the next is asked.",
            # Seat 0 9S 7H = 16, balance 100 all on the box: no offer, skipped. Seat 1 9C 7D
            # = 16 insures 50. Hole 8S: AD 8S = 19, no blackjack; both stand and lose, and so
            # does the insurance: seat 0 hand 0; seat 1 hand 0, insurance 0.
            CaseRound(
                seats=("100:100", "1000:100"),
                shoe="9S 9C AD 7H 7D 8S 5C 5D",
                decisions="insurance stand stand",
                returns=(0, 0, 0),
            ),
        ),
    )
