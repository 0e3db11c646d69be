"""Hand-written vectors of profile roulette-american (0 and 00, assumed standard).

Amounts are "returned" figures, stake included: a winning stake s at net odds n:1 returns
s + s * n (US.rou.geometry: C.rou.wheel's odds on this wheel, the top line 0-00-1-2-3 at 6:1).
Red: 1 3 5 7 9 12 14 16 18 19 21 23 25 27 30 32 34 36; the other numbers 1-36 are black; 0 and
00 are green and make every outside bet lose. The comment above each round shows the hand
arithmetic from RULES.md.
"""

from __future__ import annotations

from croupier.conformance.cases import Case, CaseRound
from croupier.conformance.handwritten._roulette import common_cases

P = "roulette-american"

# Fourteen spins, 00 first and 0 last. Red/black bets of 1 each: red returns 2 on a red pocket,
# black 2 on a black one, both lose on 0 and 00.
_HISTORY_SPINS: tuple[tuple[str, tuple[int, int]], ...] = (
    ("00", (0, 0)),
    ("27", (2, 0)),
    ("10", (0, 2)),
    ("25", (2, 0)),
    ("29", (0, 2)),
    ("12", (2, 0)),
    ("8", (0, 2)),
    ("19", (2, 0)),
    ("31", (0, 2)),
    ("18", (2, 0)),
    ("6", (0, 2)),
    ("21", (2, 0)),
    ("33", (0, 2)),
    ("0", (0, 0)),
)

CASES: tuple[Case, ...] = (
    *common_cases(P, "rua"),
    # --- the zeros ------------------------------------------------------------------------
    Case(
        id="rua-h001",
        name="roulette-american/payout/straight-double-zero",
        profile=P,
        clauses=("US.rou.geometry", "US.rou.wheel"),
        description="A straight on 00 pays 35:1 when 00 comes; a straight on 0 does not win.",
        # Pocket 00: straight 00: 10 + 350 = 360; straight 0: 0.
        rounds=(
            CaseRound(seats=("1000:straight 00=10,straight 0=10",), pocket="00", returns=(360, 0)),
        ),
    ),
    Case(
        id="rua-h002",
        name="roulette-american/payout/zero-splits",
        profile=P,
        clauses=("US.rou.geometry", "US.rou.wheel"),
        description="The 0-00 and 00-3 splits pay 17:1 on 00; 0-1 loses.",
        # Pocket 00: 0-00: 10 + 170 = 180; 00-3: 180; 0-1: 0.
        rounds=(
            CaseRound(
                seats=("1000:split 0-00=10,split 00-3=10,split 0-1=10",),
                pocket="00",
                returns=(180, 180, 0),
            ),
        ),
    ),
    Case(
        id="rua-h003",
        name="roulette-american/payout/zero-trios",
        profile=P,
        clauses=("US.rou.geometry", "US.rou.wheel"),
        description="The trios 0-00-2 and 00-2-3 pay 11:1 on 00; 0-1-2 loses.",
        # Pocket 00: 0-00-2: 10 + 110 = 120; 00-2-3: 120; 0-1-2: 0.
        rounds=(
            CaseRound(
                seats=("1000:street 0-00-2=10,street 00-2-3=10,street 0-1-2=10",),
                pocket="00",
                returns=(120, 120, 0),
            ),
        ),
    ),
    Case(
        id="rua-h004",
        name="roulette-american/payout/top-line",
        profile=P,
        clauses=("US.rou.geometry", "US.rou.wheel"),
        description="The top line 0-00-1-2-3 pays 6:1, on 00 as on 3.",
        # Pocket 00: 10 + 10 * 6 = 70; pocket 3: 70.
        rounds=(
            CaseRound(seats=("1000:top-line 0-00-1-2-3=10",), pocket="00", returns=(70,)),
            CaseRound(seats=("1000:top-line 0-00-1-2-3=10",), pocket="3", returns=(70,)),
        ),
    ),
    Case(
        id="rua-h005",
        name="roulette-american/zero/outside-bets-lose-on-double-zero",
        profile=P,
        clauses=("US.rou.zero-loses",),
        description="00 makes every column, dozen and even-money bet lose.",
        # Pocket 00 is green and in no column or dozen: all eight bets return 0.
        rounds=(
            CaseRound(
                seats=(
                    "1000:red=10,black=10,even=10,odd=10,low=10,high=10,column 1=10,dozen 1=10",
                ),
                pocket="00",
                returns=(0, 0, 0, 0, 0, 0, 0, 0),
            ),
        ),
    ),
    Case(
        id="rua-h006",
        name="roulette-american/zero/outside-bets-lose-on-zero",
        profile=P,
        clauses=("US.rou.zero-loses",),
        description="0 makes every column, dozen and even-money bet lose too.",
        # Pocket 0: all eight outside bets return 0.
        rounds=(
            CaseRound(
                seats=(
                    "1000:red=10,black=10,even=10,odd=10,low=10,high=10,column 3=10,dozen 3=10",
                ),
                pocket="0",
                returns=(0, 0, 0, 0, 0, 0, 0, 0),
            ),
        ),
    ),
    # --- the rest of the table -------------------------------------------------------------
    Case(
        id="rua-h007",
        name="roulette-american/payout/inside-bets-on-a-number",
        profile=P,
        clauses=("US.rou.geometry", "US.rou.wheel"),
        description="On 17: straight 35:1, split 17:1, street 11:1, corner 8:1, line 5:1.",
        # Pocket 17: straight 360, split 17-20 180, street 16-17-18 120, corner 13-14-16-17 90,
        # line 13-18 60, straight 0 lost 0.
        rounds=(
            CaseRound(
                seats=(
                    (
                        "1000:straight 17=10,split 17-20=10,street 16-17-18=10,"
                        "corner 13-14-16-17=10,line 13-14-15-16-17-18=10,straight 0=10"
                    ),
                ),
                pocket="17",
                returns=(360, 180, 120, 90, 60, 0),
            ),
        ),
    ),
    Case(
        id="rua-h008",
        name="roulette-american/payout/outside-bets-on-a-number",
        profile=P,
        clauses=("US.rou.geometry", "US.rou.wheel"),
        description="On 17: column 2 and dozen 2 pay 2:1; black, odd and low pay 1:1.",
        # 17 is black, odd, low, in column 2 (2, 5, ..., 35) and dozen 2 (13-24). Column 2:
        # 10 + 20 = 30, dozen 2: 30, column 1: 0, red 0, black 20, even 0, odd 20, low 20,
        # high 0.
        rounds=(
            CaseRound(
                seats=(
                    (
                        "1000:column 2=10,dozen 2=10,column 1=10,"
                        "red=10,black=10,even=10,odd=10,low=10,high=10"
                    ),
                ),
                pocket="17",
                returns=(30, 30, 0, 0, 20, 0, 20, 20, 0),
            ),
        ),
    ),
    # --- geometry ---------------------------------------------------------------------------
    Case(
        id="rua-h010",
        name="roulette-american/geometry/first-four-refused",
        profile=P,
        clauses=("US.rou.geometry", "US.rou.wheel"),
        description="0-1-2-3 is not a bet of the American layout, whose top line has five numbers.",
        # With 00 beside 0 the four 0-1-2-3 do not meet at a corner: INVALID_BET_LAYOUT.
        rounds=(
            CaseRound(
                seats=("1000:first-four 0-1-2-3=10",), pocket="2", error="INVALID_BET_LAYOUT"
            ),
        ),
    ),
    Case(
        id="rua-h011",
        name="roulette-american/geometry/split-0-3-refused",
        profile=P,
        clauses=("US.rou.geometry",),
        description="On the American layout 3 touches 00, not 0: 0-3 is no split.",
        # The zero splits are 0-1, 0-2, 00-2, 00-3 and 0-00: INVALID_BET_LAYOUT.
        rounds=(CaseRound(seats=("1000:split 0-3=10",), pocket="3", error="INVALID_BET_LAYOUT"),),
    ),
    # --- the board -------------------------------------------------------------------------------
    Case(
        id="rua-h012",
        name="roulette-american/history/fourteen-spins-keep-thirteen",
        profile=P,
        clauses=("C.rou.history", "US.rou.wheel", "US.rou.zero-loses"),
        description="Fourteen spins at one table: the board then shows only the last 13 results.",
        # After spin 14 the board drops the first result (00) and shows, oldest first:
        # 27 10 25 29 12 8 19 31 18 6 21 33 0. Each round's returns are in _HISTORY_SPINS.
        rounds=tuple(
            CaseRound(seats=("100:red=1,black=1",), pocket=pocket, returns=returns)
            for pocket, returns in _HISTORY_SPINS
        ),
    ),
    # --- limits, balance ---------------------------------------------------------------------------
    Case(
        id="rua-h015",
        name="roulette-american/limits/stake-at-min-bet",
        profile=P,
        clauses=("TABLE.limits", "US.rou.wheel"),
        description="A stake of 1, the table minimum, is taken and paid.",
        # 1 = min_bet: accepted. Straight 00 on 00: 1 + 35 = 36.
        rounds=(CaseRound(seats=("1:straight 00=1",), pocket="00", returns=(36,)),),
    ),
    Case(
        id="rua-h017",
        name="roulette-american/geometry/split-00-1-not-adjacent",
        profile=P,
        clauses=("US.rou.geometry",),
        description="split 00-1 is refused: 00 sits above 2 and 3, not 1.",
        rounds=(CaseRound(seats=("1000:split 00-1=10",), pocket="2", error="INVALID_BET_LAYOUT"),),
    ),
    Case(
        id="rua-h018",
        name="roulette-american/geometry/street-0-2-3-is-european",
        profile=P,
        clauses=("US.rou.geometry",),
        description="street 0-2-3 is a European trio, not one of this layout.",
        rounds=(
            CaseRound(seats=("1000:street 0-2-3=10",), pocket="2", error="INVALID_BET_LAYOUT"),
        ),
    ),
    Case(
        id="rua-h019",
        name="roulette-american/geometry/split-3-0-refused",
        profile=P,
        clauses=("US.rou.geometry",),
        description="3-0 (0-3 named the other way round) is no split of this layout either.",
        rounds=(CaseRound(seats=("1000:split 3-0=10",), pocket="3", error="INVALID_BET_LAYOUT"),),
    ),
    Case(
        id="rua-h020",
        name="roulette-american/geometry/split-0-3-beside-good-bets",
        profile=P,
        clauses=("US.rou.geometry",),
        description="One 0-3 split among good bets refuses the whole seat's round.",
        rounds=(
            CaseRound(
                seats=("1000:straight 3=10,split 0-3=10,red=10",),
                pocket="3",
                error="INVALID_BET_LAYOUT",
            ),
        ),
    ),
)
