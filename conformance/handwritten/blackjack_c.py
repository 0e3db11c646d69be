"""Hand-written vectors of profile blackjack-c (document C).

Every shoe is in contract order (BJ.deal-order): first card to each seat, dealer up card,
second card to each seat, dealer hole card, then every draw as it happens (a split hand gets
its second card when it starts). Under C the dealer looks at the hole card only under an ace
(C.bj.peek); under a ten the hole card stays hidden until the players finish. Amounts are
"returned" figures, stake included. The comment above each round shows the hand arithmetic
from RULES.md behind its ``returns`` or ``error``.
"""

from __future__ import annotations

from croupier.conformance.cases import Case, CaseRound
from croupier.conformance.handwritten._blackjack import common_cases

P = "blackjack-c"

CASES: tuple[Case, ...] = (
    *common_cases(P, "bjc"),
    # --- naturals --------------------------------------------------------------------------
    Case(
        id="bjc-h001",
        name="blackjack-c/natural/three-to-two-against-seven",
        profile=P,
        clauses=("BJ.nat-pays", "BJ.natural", "C.bj.peek"),
        description="A blackjack against a 7 up is paid 3:2 once the hole card is turned: 250.",
        # AS KD against 7H; the hole 9C makes 16, no blackjack: 100 + 100 * 3/2 = 250.
        rounds=(CaseRound(seats=("1000:100",), shoe="AS 7H KD 9C 5C", returns=(250,)),),
    ),
    Case(
        id="bjc-h002",
        name="blackjack-c/natural/push-against-late-dealer-blackjack",
        profile=P,
        clauses=("BJ.nat-pays", "C.bj.peek"),
        description="A blackjack against a ten up pushes when the turned hole card makes blackjack.",
        # AS KD against TH; no peek under a ten; hole AC: dealer blackjack, push: 100.
        rounds=(CaseRound(seats=("1000:100",), shoe="AS TH KD AC 5C", returns=(100,)),),
    ),
    Case(
        id="bjc-h003",
        name="blackjack-c/natural/odd-stake-rounds-down",
        profile=P,
        clauses=(
            "MONEY.rounding",
            "BJ.nat-pays",
        ),
        description="A blackjack on a stake of 15 pays exactly 37.5, rounded down to 37.",
        # 15 + 15 * 3/2 = 37.5 exact; MONEY.rounding: rounded down, 37.
        rounds=(CaseRound(seats=("1000:15",), shoe="AS 7H KD 9C 5C", returns=(37,)),),
    ),
    # --- the late dealer blackjack under a ten -----------------------------------------------
    Case(
        id="bjc-h004",
        name="blackjack-c/peek/late-blackjack-takes-doubled-stake",
        profile=P,
        clauses=("C.bj.peek", "C.bj.double"),
        description="No peek under a ten: a dealer blackjack found after a double takes all 200.",
        # 6S 5D = 11 against TH, double: stake 200, 9C: 20. Hole AC: dealer blackjack, found
        # at the end, takes every stake on the hand, the doubled part included: 0.
        rounds=(
            CaseRound(
                seats=("1000:100",), shoe="6S TH 5D AC 9C 5C", decisions="double", returns=(0,)
            ),
        ),
    ),
    Case(
        id="bjc-h005",
        name="blackjack-c/peek/late-blackjack-takes-split-stakes",
        profile=P,
        clauses=("C.bj.peek", "C.bj.split"),
        description="No peek under a ten: a dealer blackjack found after a split takes both stakes.",
        # Split 8S 8D against TH. Hand 0: 8S 3C = 11 stands; hand 1: 8D 9C = 17 stands.
        # Hole AC: dealer blackjack takes both hands: 0, 0.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="8S TH 8D AC 3C 9C 5C",
                decisions="split stand stand",
                returns=(0, 0),
            ),
        ),
    ),
    Case(
        id="bjc-h006",
        name="blackjack-c/peek/three-card-21-loses-to-late-blackjack",
        profile=P,
        clauses=("C.bj.peek", "BJ.natural", "BJ.compare"),
        description="A three-card 21 is no blackjack: the dealer's late blackjack beats it.",
        # 7S 4D = 11 against TH, hit KS: 21 on three cards, stands. Hole AC: dealer blackjack
        # beats every non-blackjack hand: 0.
        rounds=(
            CaseRound(seats=("1000:100",), shoe="7S TH 4D AC KS 5C", decisions="hit", returns=(0,)),
        ),
    ),
    Case(
        id="bjc-h007",
        name="blackjack-c/peek/ace-up-checked-after-insurance-declined",
        profile=P,
        clauses=("C.bj.peek", "C.bj.insurance"),
        description="Under an ace the dealer checks even when nobody insured; blackjack ends the round.",
        # 9S 7D = 16 against AH, insurance declined; the dealer looks: AH KC, blackjack: 0.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="9S AH 7D KC 5C",
                decisions="decline-insurance",
                returns=(0,),
            ),
        ),
    ),
    # --- insurance ----------------------------------------------------------------------------
    Case(
        id="bjc-h008",
        name="blackjack-c/insurance/pays-two-to-one",
        profile=P,
        clauses=("C.bj.insurance", "BJ.half-stakes"),
        description="Insurance 50 on a stake of 100 pays 2:1 against a dealer blackjack: net zero.",
        # 9S 7D = 16 against AH; insurance 100 / 2 = 50. Hole KC: blackjack. Hand lost: 0;
        # insurance 50 + 50 * 2 = 150 (150 staked, 150 returned).
        rounds=(
            CaseRound(
                seats=("1000:100",), shoe="9S AH 7D KC 5C", decisions="insurance", returns=(0, 150)
            ),
        ),
    ),
    Case(
        id="bjc-h009",
        name="blackjack-c/insurance/lost-and-play-continues",
        profile=P,
        clauses=("C.bj.insurance", "BJ.compare"),
        description="Insurance is lost to a dealer without blackjack and the hand plays on.",
        # TS 9D = 19 against AH; insurance 50. Hole 8C: no blackjack, insurance lost: 0.
        # Stand on 19; dealer A+8 = 19: push, 100.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="TS AH 9D 8C 5C",
                decisions="insurance stand",
                returns=(100, 0),
            ),
        ),
    ),
    Case(
        id="bjc-h010",
        name="blackjack-c/insurance/half-of-odd-stake-rounds-down",
        profile=P,
        clauses=("BJ.half-stakes", "C.bj.insurance"),
        description="Insurance on a stake of 15 is 7 (7.5 rounded down), paid 2:1: 21.",
        # Insurance 15 / 2 = 7.5, rounded down to 7. Hole KC: blackjack. Hand lost: 0;
        # insurance 7 + 7 * 2 = 21.
        rounds=(
            CaseRound(
                seats=("1000:15",), shoe="9S AH 7D KC 5C", decisions="insurance", returns=(0, 21)
            ),
        ),
    ),
    Case(
        id="bjc-h011",
        name="blackjack-c/insurance/blackjack-insures-against-dealer-blackjack",
        profile=P,
        clauses=("C.bj.insurance", "BJ.nat-pays"),
        description="A blackjack may insure: against a dealer blackjack it pushes and insurance pays 150.",
        # AS KD against AH; no even money in C, insurance 50 is offered. Hole KC: blackjack.
        # The naturals push: 100; insurance 50 + 100 = 150. Total 250 on 150 staked.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="AS AH KD KC 5C",
                decisions="insurance",
                returns=(100, 150),
            ),
        ),
    ),
    Case(
        id="bjc-h012",
        name="blackjack-c/insurance/blackjack-insured-no-dealer-blackjack",
        profile=P,
        clauses=("C.bj.insurance", "BJ.nat-pays"),
        description="An insured blackjack against an ace without dealer blackjack: 250 and 0.",
        # AS KD against AH, insurance 50. Hole 9C: no blackjack, insurance lost: 0; the natural
        # pays 100 + 150 = 250.
        rounds=(
            CaseRound(
                seats=("1000:100",), shoe="AS AH KD 9C 5C", decisions="insurance", returns=(250, 0)
            ),
        ),
    ),
    Case(
        id="bjc-h013",
        name="blackjack-c/insurance/no-double-after-insurance",
        profile=P,
        clauses=("C.bj.insurance",),
        description="After taking insurance the player may not double.",
        # 6S 5D = 11 against AH; insured; hole 7C: no blackjack; double is refused under C.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="6S AH 5D 7C TD 5C",
                decisions="insurance double",
                error="ILLEGAL_DECISION",
            ),
        ),
    ),
    Case(
        id="bjc-h014",
        name="blackjack-c/insurance/no-split-after-insurance",
        profile=P,
        clauses=("C.bj.insurance", "C.bj.split"),
        description="After taking insurance the player may not split a pair.",
        # 8S 8D against AH; insured; hole 7C: no blackjack; split is refused under C.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="8S AH 8D 7C TD 5C",
                decisions="insurance split",
                error="ILLEGAL_DECISION",
            ),
        ),
    ),
    # --- surrender -----------------------------------------------------------------------------
    Case(
        id="bjc-h016",
        name="blackjack-c/surrender/half-stake-returned",
        profile=P,
        clauses=("C.bj.surrender", "BJ.half-stakes", "BJ.dealer-needed"),
        description="Surrender on the first two cards returns half the stake: 50 of 100.",
        # TS 6D = 16 against 9H, surrender: 100 / 2 = 50. No hand waits: the dealer draws nothing.
        rounds=(
            CaseRound(
                seats=("1000:100",), shoe="TS 9H 6D 8C 5C", decisions="surrender", returns=(50,)
            ),
        ),
    ),
    Case(
        id="bjc-h017",
        name="blackjack-c/surrender/half-of-odd-stake-rounds-down",
        profile=P,
        clauses=("C.bj.surrender", "BJ.half-stakes"),
        description="Surrender on a stake of 15 returns 7 (7.5 rounded down).",
        # 15 / 2 = 7.5, rounded down to 7.
        rounds=(
            CaseRound(
                seats=("1000:15",), shoe="TS 9H 6D 8C 5C", decisions="surrender", returns=(7,)
            ),
        ),
    ),
    Case(
        id="bjc-h018",
        name="blackjack-c/surrender/kept-against-late-dealer-blackjack",
        profile=P,
        clauses=("C.bj.surrender", "C.bj.peek"),
        description="Under a ten a surrendered hand keeps its half stake though the dealer has blackjack.",
        # TS 6D against KH, no peek; surrender: 50. The hole AC makes blackjack, too late: 50.
        rounds=(
            CaseRound(
                seats=("1000:100",), shoe="TS KH 6D AC 5C", decisions="surrender", returns=(50,)
            ),
        ),
    ),
    Case(
        id="bjc-h019",
        name="blackjack-c/surrender/after-the-ace-check",
        profile=P,
        clauses=("C.bj.surrender", "C.bj.peek"),
        description="Under an ace surrender is offered after the dealer's check finds no blackjack.",
        # TS 6D against AH; insurance declined; check: AH 9C, no blackjack; surrender: 50.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="TS AH 6D 9C 5C",
                decisions="decline-insurance surrender",
                returns=(50,),
            ),
        ),
    ),
    Case(
        id="bjc-h020",
        name="blackjack-c/surrender/not-on-a-split-hand",
        profile=P,
        clauses=("C.bj.surrender", "C.bj.split"),
        description="A hand formed by a split may not surrender.",
        # Split 8S 8D against 9H; hand 0 gets 2C: 10; surrender is not offered to a split hand.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="8S 9H 8D 8C 2C 5C",
                decisions="split surrender",
                error="ILLEGAL_DECISION",
            ),
        ),
    ),
    Case(
        id="bjc-h021",
        name="blackjack-c/no-withdraw/no-surrender-after-a-hit",
        profile=P,
        clauses=("C.bj.no-withdraw", "C.bj.surrender"),
        description="Once a hand has drawn, no decision takes any of its stake back.",
        # 5S 4D = 9 against 9H, hit 2C: 11 on three cards; surrender was for the first two
        # cards only and nothing else withdraws a stake: refused.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="5S 9H 4D 8C 2C 5C",
                decisions="hit surrender",
                error="ILLEGAL_DECISION",
            ),
        ),
    ),
    # --- split ---------------------------------------------------------------------------------
    Case(
        id="bjc-h022",
        name="blackjack-c/split/kings",
        profile=P,
        clauses=("C.bj.split", "BJ.compare"),
        description="K-K may be split; each hand carries a stake equal to the original.",
        # Split KS KD. Hand 0: KS 9C = 19; hand 1: KD 8C = 18; dealer 7H TC = 17.
        # 100 + 100 = 200 each.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="KS 7H KD TC 9C 8C 5C",
                decisions="split stand stand",
                returns=(200, 200),
            ),
        ),
    ),
    Case(
        id="bjc-h023",
        name="blackjack-c/split/king-queen-refused",
        profile=P,
        clauses=("C.bj.split",),
        description="K-Q is not a pair under C: the split is refused.",
        # KS QD: different ranks ("même dénomination" fails): refused.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="KS 7H QD TC 5C",
                decisions="split",
                error="ILLEGAL_DECISION",
            ),
        ),
    ),
    Case(
        id="bjc-h024",
        name="blackjack-c/split/ten-king-refused",
        profile=P,
        clauses=("C.bj.split",),
        description="10-K is not a pair under C: the split is refused.",
        # TS KD: different ranks: refused.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="TS 7H KD 9C 5C",
                decisions="split",
                error="ILLEGAL_DECISION",
            ),
        ),
    ),
    Case(
        id="bjc-h025",
        name="blackjack-c/split/aces-21-is-not-blackjack",
        profile=P,
        clauses=("C.bj.split", "BJ.natural", "BJ.compare"),
        description="21 on split aces is a plain 21: a dealer 21 pushes it.",
        # Split AS AD against 9H. Hand 0: AS KC = 21 (plain), stands. Hand 1: AD 9C = soft 20,
        # stands. Dealer 9H 2C = 11 draws TC: 21. Hand 0: 21 = 21, push, 100; hand 1: 20 < 21, 0.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="AS 9H AD 2C KC 9C TC 5C",
                decisions="split stand",
                returns=(100, 0),
            ),
        ),
    ),
    Case(
        id="bjc-h026",
        name="blackjack-c/split/aces-may-hit",
        profile=P,
        clauses=("C.bj.split", "BJ.values"),
        description="Split aces may take as many cards as the player wants.",
        # Split AS AD against 7H. Hand 0: AS 5C = soft 16, hit 2C: soft 18, stand. Hand 1:
        # AD 9C = soft 20, stand. Dealer 7H TC = 17. 18 > 17: 200; 20 > 17: 200.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="AS 7H AD TC 5C 2C 9C 5D",
                decisions="split hit stand stand",
                returns=(200, 200),
            ),
        ),
    ),
    # --- double ----------------------------------------------------------------------------------
    Case(
        id="bjc-h029",
        name="blackjack-c/double/after-split",
        profile=P,
        clauses=("C.bj.double", "C.bj.split", "C.bj.dealer-draw", "BJ.compare"),
        description="A hand formed by a split may double; the dealer draws on 16 and busts.",
        # Split 9S 9D against 6H. Hand 0: 9S 2C = 11, double: stake 200, TD: 21. Hand 1: 9D 8C
        # = 17, stand. Dealer 6H TC = 16 draws KS: 26, bust. 200 + 200 = 400; 100 + 100 = 200.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="9S 6H 9D TC 2C TD 8C KS 5C",
                decisions="split double stand",
                returns=(400, 200),
            ),
        ),
    ),
    # --- dealer, values ------------------------------------------------------------------------
    Case(
        id="bjc-h034",
        name="blackjack-c/dealer/draws-on-16",
        profile=P,
        clauses=("C.bj.dealer-draw", "BJ.compare"),
        description="The dealer draws on 16 and stands on 19, beating a standing 18.",
        # TS 8D = 18 stands; dealer 6H TC = 16 draws 3C: 19. 18 < 19: 0.
        rounds=(
            CaseRound(
                seats=("1000:100",), shoe="TS 6H 8D TC 3C 5C", decisions="stand", returns=(0,)
            ),
        ),
    ),
    # --- deal, seats, limits -------------------------------------------------------------------
    Case(
        id="bjc-h037",
        name="blackjack-c/deal/two-seats-contract-order",
        profile=P,
        clauses=("BJ.deal", "BJ.deal-order", "BJ.compare"),
        description="Two seats are dealt in contract order; 19 wins, 16 loses to the dealer's 18.",
        # Order: seat 0 TS, seat 1 9S, up 8H, seat 0 9D, seat 1 7D, hole TC. Seat 0: 19,
        # seat 1: 16, dealer 18. Seat 0 stands: 100 + 100 = 200; seat 1 stands: 0.
        rounds=(
            CaseRound(
                seats=("1000:100", "500:50"),
                shoe="TS 9S 8H 9D 7D TC 5C",
                decisions="stand stand",
                returns=(200, 0),
            ),
        ),
    ),
    Case(
        id="bjc-h038",
        name="blackjack-c/deal/shoe-exhausted-on-dealer-draw",
        profile=P,
        clauses=("BJ.deal-order", "C.bj.dealer-draw"),
        description="A dealer draw beyond the last card of the forced shoe is SHOE_EXHAUSTED.",
        # TS 8D = 18 stands; dealer 6H TC = 16 must draw a fifth card the shoe does not hold.
        rounds=(
            CaseRound(
                seats=("1000:100",), shoe="TS 6H 8D TC", decisions="stand", error="SHOE_EXHAUSTED"
            ),
        ),
    ),
    Case(
        id="bjc-h039",
        name="blackjack-c/deal/six-copies-of-a-card",
        profile=P,
        clauses=("BJ.deal", "BJ.compare"),
        description="A six-deck shoe may hold six copies of a card.",
        # Six QH are possible in six decks. TS 9D = 19 stands, dealer 7H TC = 17: 200.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="TS 7H 9D TC QH QH QH QH QH QH",
                decisions="stand",
                returns=(200,),
            ),
        ),
    ),
    Case(
        id="bjc-h040",
        name="blackjack-c/deal/seven-copies-refused",
        profile=P,
        clauses=("BJ.deal",),
        description="Seven copies of a card cannot come from six decks: SHOE_NOT_IN_PROFILE.",
        # Six decks hold six QH; seven are refused.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="TS 7H 9D TC QH QH QH QH QH QH QH",
                error="SHOE_NOT_IN_PROFILE",
            ),
        ),
    ),
    Case(
        id="bjc-h044",
        name="blackjack-c/funds/stake-over-balance",
        profile=P,
        clauses=("BJ.funds",),
        description="A stake the seat's balance cannot cover is refused: INSUFFICIENT_BALANCE.",
        # Stake 100 > balance 99.
        rounds=(CaseRound(seats=("99:100",), shoe="TS 7H 9D TC 5C", error="INSUFFICIENT_BALANCE"),),
    ),
    Case(
        id="bjc-h045",
        name="blackjack-c/natural/beats-dealer-three-card-21",
        profile=P,
        clauses=("BJ.nat-pays", "BJ.natural", "BJ.compare"),
        description="A player blackjack beats a dealer 21 made with three cards: paid 3:2.",
        # Seat 0: AS KD, a blackjack; seat 1: TS QH = 20, stands. Dealer 7H 4C = 11 draws TC:
        # 21 on three cards, not a blackjack. Seat 0: 100 + 150 = 250; seat 1: 20 < 21, 0.
        rounds=(
            CaseRound(
                seats=("1000:100", "1000:100"),
                shoe="AS TS 7H KD QH 4C TC 5C",
                decisions="stand",
                returns=(250, 0),
            ),
        ),
    ),
    # --- BJ.half-stakes: a half stake that rounds to nothing ----------------------------------
    Case(
        id="bjc-h047",
        name="blackjack-c/half-stakes/one-unit-blackjack-gets-no-insurance",
        profile=P,
        clauses=("BJ.half-stakes", "C.bj.insurance", "MONEY.rounding"),
        description="A 1-unit blackjack against an ace is offered no insurance and wins 3:2, rounded.",
        # AS KD against AH: no insurance offer (half of 1 rounds to 0). The dealer looks: 7C,
        # soft 18, no blackjack; the blackjack wins: 1 + 1.5 = 2.5 exact, rounded down: 2.
        rounds=(CaseRound(seats=("1000:1",), shoe="AS AH KD 7C 5C", returns=(2,)),),
    ),
    Case(
        id="bjc-h048",
        name="blackjack-c/compare/three-card-21-loses-to-a-late-blackjack",
        profile=P,
        clauses=("BJ.compare", "C.bj.peek"),
        description="A 21 of three cards loses to a dealer blackjack found after play.",
        # 5S 6D = 11 against KH (no look under a ten); hit TS: 21, stands. The hole card AC
        # makes a blackjack, which beats every 21 but a blackjack: 0.
        rounds=(
            CaseRound(seats=("1000:100",), shoe="5S KH 6D AC TS", decisions="hit", returns=(0,)),
        ),
    ),
    Case(
        id="bjc-h049",
        name="blackjack-c/compare/four-card-21-loses-to-a-late-blackjack",
        profile=P,
        clauses=("BJ.compare", "C.bj.peek"),
        description="A 21 of four cards loses to a dealer blackjack found after play.",
        # 2S 3D = 5 against KH; hit 6C: 11; hit TS: 21, stands. Hole AC: blackjack: 0.
        rounds=(
            CaseRound(
                seats=("1000:100",), shoe="2S KH 3D AC 6C TS", decisions="hit hit", returns=(0,)
            ),
        ),
    ),
)
