"""Hand-written vectors of profile blackjack-a (document A).

Every shoe is in contract order (BJ.deal-order): first card to each seat, dealer up card,
second card to each seat, dealer hole card, then every draw as it happens (a split hand gets
its second card when it starts). Amounts are "returned" figures, stake included, as document
A states them (A1: stake 100, blackjack, 250 returned). The comment above each round shows the
hand arithmetic from RULES.md behind its ``returns`` or ``error``.
"""

from __future__ import annotations

from croupier.conformance.cases import Case, CaseRound
from croupier.conformance.handwritten._blackjack import common_cases

P = "blackjack-a"

CASES: tuple[Case, ...] = (
    *common_cases(P, "bja"),
    # --- naturals: A1, A2, A3 ------------------------------------------------------------
    Case(
        id="bja-h001",
        name="blackjack-a/natural/example-a1",
        profile=P,
        clauses=("BJ.nat-pays", "A.nat-immediate", "BJ.natural"),
        description="Example A1: stake 100, a blackjack against a 7 up is paid 250 at once.",
        # Seat KD, up 7H, seat AS, hole 9C: a ten then an ace is a blackjack (BJ.natural),
        # against 2-9: 100 + 100 * 3/2 = 250.
        rounds=(CaseRound(seats=("1000:100",), shoe="KD 7H AS 9C 5C", returns=(250,)),),
    ),
    Case(
        id="bja-h002",
        name="blackjack-a/even-money/example-a2-taken",
        profile=P,
        clauses=("A.even-money", "BJ.natural"),
        description="Example A2: a blackjack against an ace takes even money, 200 returned.",
        # AS KD against up AH: even money offered and taken, 100 + 100 * 1 = 200
        # (the hole 9C is no blackjack, but even money is paid whatever the dealer holds).
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="AS AH KD 9C 5C",
                decisions="even-money",
                returns=(200,),
            ),
        ),
    ),
    Case(
        id="bja-h003",
        name="blackjack-a/even-money/example-a2-declined",
        profile=P,
        clauses=("A.even-money", "A.peek", "BJ.nat-pays"),
        description="Example A2: even money declined, no dealer blackjack, the natural pays 3:2.",
        # Declined; the dealer checks AH 9C: no blackjack, so 100 + 100 * 3/2 = 250.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="AS AH KD 9C 5C",
                decisions="decline-even-money",
                returns=(250,),
            ),
        ),
    ),
    Case(
        id="bja-h004",
        name="blackjack-a/even-money/example-a2-declined-dealer-blackjack",
        profile=P,
        clauses=("A.even-money", "A.peek", "BJ.nat-pays"),
        description="Example A2: even money declined and the dealer has blackjack: a push, 100.",
        # Declined; the dealer checks AH KC: blackjack, both naturals push, the stake 100 returns.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="AS AH KD KC 5C",
                decisions="decline-even-money",
                returns=(100,),
            ),
        ),
    ),
    Case(
        id="bja-h005",
        name="blackjack-a/even-money/taken-dealer-blackjack",
        profile=P,
        clauses=("A.even-money", "A.peek"),
        description="Even money taken is 200 even when the dealer turns out to hold blackjack.",
        # Even money is paid at once, 100 + 100 = 200, before the dealer's AH KC is known.
        rounds=(
            CaseRound(
                seats=("1000:100",), shoe="AS AH KD KC 5C", decisions="even-money", returns=(200,)
            ),
        ),
    ),
    Case(
        id="bja-h006",
        name="blackjack-a/natural/example-a3-no-dealer-blackjack",
        profile=P,
        clauses=("A.nat-vs-ten", "A.peek", "BJ.nat-pays"),
        description="Example A3: a blackjack against a ten up, no dealer blackjack: 250.",
        # Up TH, hole 9C: the dealer reveals 19, no blackjack, 100 + 100 * 3/2 = 250.
        rounds=(CaseRound(seats=("1000:100",), shoe="AS TH KD 9C 5C", returns=(250,)),),
    ),
    Case(
        id="bja-h007",
        name="blackjack-a/natural/example-a3-push",
        profile=P,
        clauses=("A.nat-vs-ten", "A.peek", "BJ.nat-pays"),
        description="Example A3: a blackjack against a ten up and a dealer blackjack pushes.",
        # Up TH, hole AC: dealer blackjack, the player's blackjack pushes: 100 returned.
        rounds=(CaseRound(seats=("1000:100",), shoe="AS TH KD AC 5C", returns=(100,)),),
    ),
    Case(
        id="bja-h008",
        name="blackjack-a/natural/three-to-two-odd-stake-rounds-down",
        profile=P,
        clauses=("MONEY.rounding", "BJ.nat-pays", "A.nat-immediate"),
        description="A blackjack on a stake of 15 pays exactly 37.5, rounded down to 37.",
        # 15 + 15 * 3/2 = 15 + 22.5 = 37.5 exact; MONEY.rounding: rounded down, 37.
        rounds=(CaseRound(seats=("1000:15",), shoe="AS 7H KD 9C 5C", returns=(37,)),),
    ),
    # --- insurance and the peek: A4 ------------------------------------------------------
    Case(
        id="bja-h009",
        name="blackjack-a/insurance/example-a4",
        profile=P,
        clauses=("A.insurance", "A.peek", "BJ.half-stakes"),
        description="Example A4: stake 100, insurance 50, dealer blackjack: main lost, 150 back.",
        # 9S 7D = 16 against AH; insurance 100 / 2 = 50. Hole KC: dealer blackjack, the round
        # ends: hand 0, insurance 50 + 50 * 2 = 150 (net zero on 150 staked).
        rounds=(
            CaseRound(
                seats=("1000:100",), shoe="9S AH 7D KC 5C", decisions="insurance", returns=(0, 150)
            ),
        ),
    ),
    Case(
        id="bja-h010",
        name="blackjack-a/insurance/lost-then-double",
        profile=P,
        clauses=("A.insurance", "A.double", "BJ.compare"),
        description="Insurance lost to a dealer without blackjack; play goes on and A allows a double.",
        # 6S 5D = 11 against AH; insurance 50. Hole 7C: no blackjack, insurance lost (0).
        # Double: stake 200, one card TD, 21. Dealer A+7 = soft 18 stands. 21 > 18: 200 + 200.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="6S AH 5D 7C TD 5C 5H",
                decisions="insurance double",
                returns=(400, 0),
            ),
        ),
    ),
    Case(
        id="bja-h011",
        name="blackjack-a/insurance/half-of-odd-stake-rounds-down",
        profile=P,
        clauses=("BJ.half-stakes", "A.insurance", "BJ.compare"),
        description="Insurance on a stake of 15 is 7 (7.5 rounded down); equal 19s push.",
        # Insurance 15 / 2 = 7.5, rounded down to 7. Hole 8C: no blackjack, insurance lost.
        # TS 9D = 19 stands, dealer A+8 = 19: push, 15 returned.
        rounds=(
            CaseRound(
                seats=("1000:15",),
                shoe="TS AH 9D 8C 5C",
                decisions="insurance stand",
                returns=(15, 0),
            ),
        ),
    ),
    Case(
        id="bja-h012",
        name="blackjack-a/peek/ten-up-dealer-blackjack-ends-round",
        profile=P,
        clauses=("A.peek", "BJ.compare"),
        description="Under a ten up the dealer peeks, finds blackjack, and a 16 loses its single stake.",
        # 9S 7D = 16 against KH; hole AC: dealer blackjack found before play, 16 loses: 0.
        rounds=(CaseRound(seats=("1000:100",), shoe="9S KH 7D AC 5C", returns=(0,)),),
    ),
    Case(
        id="bja-h013",
        name="blackjack-a/peek/ace-up-insurance-declined-dealer-blackjack",
        profile=P,
        clauses=("A.peek", "A.insurance"),
        description="Insurance declined against an ace; the dealer's blackjack takes the stake.",
        # 9S 7D = 16 against AH, insurance declined; hole KC: dealer blackjack, 16 loses: 0.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="9S AH 7D KC 5C",
                decisions="decline-insurance",
                returns=(0,),
            ),
        ),
    ),
    # --- dealer ----------------------------------------------------------------------------
    Case(
        id="bja-h016",
        name="blackjack-a/dealer/draws-on-16-and-busts",
        profile=P,
        clauses=("A.dealer-draw", "BJ.compare"),
        description="The dealer draws on 16 and busts: a standing 18 is paid 200 on 100.",
        # TS 8D = 18 stands; dealer 6H TC = 16 draws KS: 26, bust: 100 + 100 = 200.
        rounds=(
            CaseRound(
                seats=("1000:100",), shoe="TS 6H 8D TC KS 5C", decisions="stand", returns=(200,)
            ),
        ),
    ),
    # --- hand values, 21 --------------------------------------------------------------------
    Case(
        id="bja-h019",
        name="blackjack-a/values/three-card-21-is-not-blackjack",
        profile=P,
        clauses=("BJ.natural", "BJ.compare", "BJ.auto-stand"),
        description="A three-card 21 against a dealer's three-card 21 pushes; it is no blackjack.",
        # 7S 4D = 11, hit KS: 21 (three cards, no blackjack), stands. Dealer 9H 5C = 14 draws
        # 7C: 21. Equal totals push: 100.
        rounds=(
            CaseRound(
                seats=("1000:100",), shoe="7S 9H 4D 5C KS 7C 2C", decisions="hit", returns=(100,)
            ),
        ),
    ),
    # --- double ----------------------------------------------------------------------------
    # --- split -----------------------------------------------------------------------------
    Case(
        id="bja-h023",
        name="blackjack-a/split/eights-double-after-split",
        profile=P,
        clauses=("A.split", "A.double", "BJ.deal-order", "A.dealer-draw"),
        description="8-8 split; the first hand doubles on 11; the dealer draws on 16 and busts.",
        # Split 8S 8D (second stake 100). Hand 0 gets 3C when it starts: 11, double: stake 200,
        # TD, 21. Hand 1 then gets 9C: 17, stands. Dealer 6H TC = 16 draws KS: 26, bust.
        # Hand 0: 200 + 200 = 400; hand 1: 100 + 100 = 200.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="8S 6H 8D TC 3C TD 9C KS 2C",
                decisions="split double stand",
                returns=(400, 200),
            ),
        ),
    ),
    Case(
        id="bja-h024",
        name="blackjack-a/split/two-different-pictures",
        profile=P,
        clauses=("A.split", "BJ.compare"),
        description="Under A two different pictures (J-Q) may be split.",
        # Split JS QD. Hand 0: JS 9C = 19 stands; hand 1: QD 8C = 18 stands. Dealer 7H TC = 17.
        # 19 > 17: 200; 18 > 17: 200.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="JS 7H QD TC 9C 8C 5C",
                decisions="split stand stand",
                returns=(200, 200),
            ),
        ),
    ),
    Case(
        id="bja-h025",
        name="blackjack-a/split/ten-and-jack-refused",
        profile=P,
        clauses=("A.split",),
        description="A ten and a jack are not a pair under A: the split is refused.",
        # TS JD: a ten and a picture, not the same rank and not two pictures: refused.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="TS 7H JD 9C 5C",
                decisions="split",
                error="ILLEGAL_DECISION",
            ),
        ),
    ),
    Case(
        id="bja-h027",
        name="blackjack-a/split/aces-hit-and-21-is-not-blackjack",
        profile=P,
        clauses=("A.split", "BJ.natural", "BJ.auto-stand"),
        description="Split aces may hit, and an ace and a king on a split hand are a plain 21.",
        # Split AS AD. Hand 0: AS KC = 21, not a blackjack, stands. Hand 1: AD 5C = soft 16, hit
        # 2C: soft 18, stand. Dealer 9H 8C = 17. 21 > 17: 100 + 100 = 200 (not 250);
        # 18 > 17: 200.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="AS 9H AD 8C KC 5C 2C 3C",
                decisions="split hit stand",
                returns=(200, 200),
            ),
        ),
    ),
    Case(
        id="bja-h029",
        name="blackjack-a/surrender/not-offered",
        profile=P,
        clauses=("A.surrender",),
        description="Document A offers no surrender.",
        # TS 6D = 16 against 7H: surrender is not a decision of A: refused.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="TS 7H 6D TC 5C",
                decisions="surrender",
                error="ILLEGAL_DECISION",
            ),
        ),
    ),
    # --- deal, seats -------------------------------------------------------------------------
    Case(
        id="bja-h030",
        name="blackjack-a/deal/two-seats-contract-order",
        profile=P,
        clauses=("BJ.deal", "BJ.deal-order", "BJ.compare"),
        description="Two seats are dealt in contract order and both 18s beat the dealer's 17.",
        # Order: seat 0 TS, seat 1 9S, up 7H, seat 0 8D, seat 1 9D, hole TC. Seat 0: 18,
        # seat 1: 18, dealer 17. Seat 0 stake 100: 200; seat 1 stake 50: 100.
        rounds=(
            CaseRound(
                seats=("1000:100", "500:50"),
                shoe="TS 9S 7H 8D 9D TC 5C",
                decisions="stand stand",
                returns=(200, 100),
            ),
        ),
    ),
    Case(
        id="bja-h031",
        name="blackjack-a/deal/shoe-exhausted-on-a-hit",
        profile=P,
        clauses=("BJ.deal-order",),
        description="A hit beyond the last card of the forced shoe is refused as SHOE_EXHAUSTED.",
        # Four cards make the deal; the hit needs a fifth: the shoe is exhausted.
        rounds=(
            CaseRound(
                seats=("1000:100",), shoe="TS 7H 2D TC", decisions="hit", error="SHOE_EXHAUSTED"
            ),
        ),
    ),
    Case(
        id="bja-h032",
        name="blackjack-a/deal/shoe-exhausted-at-deal",
        profile=P,
        clauses=("BJ.deal",),
        description="Three cards cannot make the deal of one seat and the dealer.",
        # The deal needs 2 * 1 + 2 = 4 cards; the shoe holds 3.
        rounds=(CaseRound(seats=("1000:100",), shoe="TS 7H 2D", error="SHOE_EXHAUSTED"),),
    ),
    Case(
        id="bja-h033",
        name="blackjack-a/deal/six-copies-of-a-card",
        profile=P,
        clauses=("BJ.deal", "BJ.compare"),
        description="A six-deck shoe may hold six copies of a card.",
        # Six KC in a six-deck shoe is possible. TS 9D = 19 stands, dealer 7H TC = 17: 200.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="TS 7H 9D TC KC KC KC KC KC KC",
                decisions="stand",
                returns=(200,),
            ),
        ),
    ),
    Case(
        id="bja-h034",
        name="blackjack-a/deal/seven-copies-refused",
        profile=P,
        clauses=("BJ.deal",),
        description="Seven copies of a card cannot come from six decks: SHOE_NOT_IN_PROFILE.",
        # Six decks hold six KC; seven are refused before any card is dealt.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="TS 7H 9D TC KC KC KC KC KC KC KC",
                error="SHOE_NOT_IN_PROFILE",
            ),
        ),
    ),
    # --- limits and balance ----------------------------------------------------------------
    Case(
        id="bja-h038",
        name="blackjack-a/funds/stake-over-balance",
        profile=P,
        clauses=("BJ.funds",),
        description="A stake the seat's balance cannot cover is refused: INSUFFICIENT_BALANCE.",
        # Stake 100 > balance 50.
        rounds=(CaseRound(seats=("50:100",), shoe="TS 7H 9D TC 5C", error="INSUFFICIENT_BALANCE"),),
    ),
    Case(
        id="bja-h039",
        name="blackjack-a/values/two-aces-and-a-king-make-12",
        profile=P,
        clauses=("BJ.values", "A.double"),
        description="Two aces and a king are 12, both aces counting 1: a doubled A-A takes a K and stands.",
        # AS AD = soft 12 against 9H; double: stake 200, KS: 1 + 1 + 10 = 12 (an ace at 11
        # would make 22), the hand stands. Dealer 9H 7C = 16 draws TC: 26, bust: 200 + 200 = 400.
        rounds=(
            CaseRound(
                seats=("1000:100",),
                shoe="AS 9H AD 7C KS TC 5C",
                decisions="double",
                returns=(400,),
            ),
        ),
    ),
    # --- BJ.half-stakes: a half stake that rounds to nothing ----------------------------------
    Case(
        id="bja-h040",
        name="blackjack-a/half-stakes/one-unit-blackjack-gets-no-even-money",
        profile=P,
        clauses=("BJ.half-stakes", "A.even-money", "MONEY.rounding"),
        description="A 1-unit blackjack against an ace is offered no even money; paid 3:2 after the peek.",
        # AS KD against AH: half of 1 rounds to 0, so no even-money offer (BJ.half-stakes).
        # The peek finds 7C, no dealer blackjack; the blackjack is paid at once: 1 + 1.5 = 2.5
        # exact, MONEY.rounding down: 2.
        rounds=(CaseRound(seats=("1000:1",), shoe="AS AH KD 7C 5C", returns=(2,)),),
    ),
    Case(
        id="bja-h068",
        name="blackjack-a/peek/hole-card-hidden-while-another-seat-plays",
        profile=P,
        clauses=("A.nat-vs-ten", "A.peek"),
        description="A blackjack against a ten is paid, but the hole card stays down while "
        "the next seat plays.",
        # Seat 0 AS KH, seat 1 9C 7D, up KD, hole 8S: the peek finds no blackjack. Seat 1
        # still plays, so the hole card stays face down until it stands. Dealer 18: seat 0
        # 100 + 150 = 250; seat 1's 16 loses: 0.
        rounds=(
            CaseRound(
                seats=("1000:100", "1000:100"),
                shoe="AS 9C KD KH 7D 8S",
                decisions="stand",
                returns=(250, 0),
            ),
        ),
    ),
    Case(
        id="bja-h069",
        name="blackjack-a/even-money/hole-card-hidden-while-another-seat-plays",
        profile=P,
        clauses=("A.even-money", "A.peek"),
        description="Even money taken by one seat turns no card while the next seat plays.",
        # Seat 0 AS KH takes even money; seat 1 9C 7D declines insurance. Hole 8S: AD 8S =
        # 19, no blackjack; seat 1 stands, then the hole card is turned. Seat 0: 200; seat 1: 0.
        rounds=(
            CaseRound(
                seats=("1000:100", "1000:100"),
                shoe="AS 9C AD KH 7D 8S",
                decisions="even-money decline-insurance stand",
                returns=(200, 0),
            ),
        ),
    ),
    Case(
        id="bja-h089",
        name="blackjack-a/funds/double-with-just-enough",
        profile=P,
        clauses=("BJ.funds", "A.double", "BJ.compare"),
        description="Free funds equal to the stake cover a double's extra stake exactly.",
        # Balance 200, stake 100: 100 free, the extra stake of a double is 100 (BJ.funds).
        # 5S 6D = 11 doubles on 9C: 20, stake 200; dealer 7H TC = 17 stands: 400 returned.
        rounds=(
            CaseRound(
                seats=("200:100",), shoe="5S 7H 6D TC 9C", decisions="double", returns=(400,)
            ),
        ),
    ),
)
