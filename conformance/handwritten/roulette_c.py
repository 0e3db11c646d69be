"""Hand-written vectors of profile roulette-c (document C, European wheel).

Amounts are "returned" figures, stake included: a winning stake s at net odds n:1 returns
s + s * n (C.rou.wheel table). Red: 1 3 5 7 9 12 14 16 18 19 21 23 25 27 30 32 34 36; the other
numbers 1-36 are black. Column k holds k, k+3, ..., dozen k holds 12k-11 to 12k. The comment
above each round shows the hand arithmetic from RULES.md.
"""

from __future__ import annotations

from croupier.conformance.cases import Case, CaseRound
from croupier.conformance.handwritten._roulette import common_cases

P = "roulette-c"

# The European wheel from 0 clockwise: 0 32 15 19 4 21 2 25 17 34 6 27 13 36. Red/black bets of
# 1 each: red pays 1 + 1 = 2 on a red pocket, black 2 on a black one, both lose on 0.
_HISTORY_SPINS: tuple[tuple[str, tuple[int, int]], ...] = (
    ("0", (0, 0)),
    ("32", (2, 0)),
    ("15", (0, 2)),
    ("19", (2, 0)),
    ("4", (0, 2)),
    ("21", (2, 0)),
    ("2", (0, 2)),
    ("25", (2, 0)),
    ("17", (0, 2)),
    ("34", (2, 0)),
    ("6", (0, 2)),
    ("27", (2, 0)),
    ("13", (0, 2)),
    ("36", (2, 0)),
)

CASES: tuple[Case, ...] = (
    *common_cases(P, "rou"),
    # --- the payout table -----------------------------------------------------------------
    Case(
        id="rou-h001",
        name="roulette-c/payout/straight",
        profile=P,
        clauses=("C.rou.wheel",),
        description="A straight pays 35:1: 10 on 17 returns 360; 10 on 20 is lost.",
        # Pocket 17: straight 17: 10 + 10 * 35 = 360; straight 20: 0.
        rounds=(
            CaseRound(seats=("1000:straight 17=10,straight 20=10",), pocket="17", returns=(360, 0)),
        ),
    ),
    Case(
        id="rou-h002",
        name="roulette-c/payout/split",
        profile=P,
        clauses=("C.rou.wheel",),
        description="A split pays 17:1, across a row (16-17) or down a column (17-20).",
        # Pocket 17: 17-20: 10 + 170 = 180; 16-17: 180; 14-15: 0.
        rounds=(
            CaseRound(
                seats=("1000:split 17-20=10,split 16-17=10,split 14-15=10",),
                pocket="17",
                returns=(180, 180, 0),
            ),
        ),
    ),
    Case(
        id="rou-h003",
        name="roulette-c/payout/street",
        profile=P,
        clauses=("C.rou.wheel",),
        description="A street (a row of three) pays 11:1.",
        # Pocket 17: 16-17-18: 10 + 110 = 120; 13-14-15: 0.
        rounds=(
            CaseRound(
                seats=("1000:street 16-17-18=10,street 13-14-15=10",),
                pocket="17",
                returns=(120, 0),
            ),
        ),
    ),
    Case(
        id="rou-h004",
        name="roulette-c/payout/corner",
        profile=P,
        clauses=("C.rou.wheel",),
        description="A corner (four numbers meeting at a corner) pays 8:1.",
        # Pocket 17: 13-14-16-17: 10 + 80 = 90; 17-18-20-21: 90; 19-20-22-23: 0.
        rounds=(
            CaseRound(
                seats=("1000:corner 13-14-16-17=10,corner 17-18-20-21=10,corner 19-20-22-23=10",),
                pocket="17",
                returns=(90, 90, 0),
            ),
        ),
    ),
    Case(
        id="rou-h005",
        name="roulette-c/payout/first-four",
        profile=P,
        clauses=("C.rou.wheel",),
        description="The quatre 0-1-2-3 pays 8:1.",
        # Pocket 2: first four: 10 + 80 = 90.
        rounds=(CaseRound(seats=("1000:first-four 0-1-2-3=10",), pocket="2", returns=(90,)),),
    ),
    Case(
        id="rou-h006",
        name="roulette-c/payout/line",
        profile=P,
        clauses=("C.rou.wheel",),
        description="A six line (two adjacent rows) pays 5:1.",
        # Pocket 17: 13-18: 10 + 50 = 60; 19-24: 0.
        rounds=(
            CaseRound(
                seats=("1000:line 13-14-15-16-17-18=10,line 19-20-21-22-23-24=10",),
                pocket="17",
                returns=(60, 0),
            ),
        ),
    ),
    Case(
        id="rou-h007",
        name="roulette-c/payout/column",
        profile=P,
        clauses=("C.rou.wheel",),
        description="A column pays 2:1: 34 is in the first column (1, 4, ..., 34).",
        # Pocket 34: column 1: 10 + 20 = 30; columns 2 and 3: 0.
        rounds=(
            CaseRound(
                seats=("1000:column 1=10,column 2=10,column 3=10",),
                pocket="34",
                returns=(30, 0, 0),
            ),
        ),
    ),
    Case(
        id="rou-h008",
        name="roulette-c/payout/dozen",
        profile=P,
        clauses=("C.rou.wheel",),
        description="A dozen pays 2:1 (C's '2 : 2' is a misprint).",
        # Pocket 5: dozen 1 (1-12): 10 + 20 = 30; dozens 2 and 3: 0.
        rounds=(
            CaseRound(
                seats=("1000:dozen 1=10,dozen 2=10,dozen 3=10",),
                pocket="5",
                returns=(30, 0, 0),
            ),
        ),
    ),
    Case(
        id="rou-h009",
        name="roulette-c/payout/even-chances",
        profile=P,
        clauses=("C.rou.wheel",),
        description="Red/black, even/odd, low/high pay 1:1, checked on 18, 19, 10 and 29.",
        # Bets in order red, black, even, odd, low, high, 10 each; a win returns 20.
        rounds=(
            # 18: red, even, low.
            CaseRound(
                seats=("1000:red=10,black=10,even=10,odd=10,low=10,high=10",),
                pocket="18",
                returns=(20, 0, 20, 0, 20, 0),
            ),
            # 19: red, odd, high.
            CaseRound(
                seats=("1000:red=10,black=10,even=10,odd=10,low=10,high=10",),
                pocket="19",
                returns=(20, 0, 0, 20, 0, 20),
            ),
            # 10: black, even, low.
            CaseRound(
                seats=("1000:red=10,black=10,even=10,odd=10,low=10,high=10",),
                pocket="10",
                returns=(0, 20, 20, 0, 20, 0),
            ),
            # 29: black, odd, high.
            CaseRound(
                seats=("1000:red=10,black=10,even=10,odd=10,low=10,high=10",),
                pocket="29",
                returns=(0, 20, 0, 20, 0, 20),
            ),
        ),
    ),
    # --- zero ------------------------------------------------------------------------------
    Case(
        id="rou-h010",
        name="roulette-c/zero/document-examples-win",
        profile=P,
        clauses=("C.rou.wheel",),
        description="C's zero bets 0, 1+0, 2+0, 3+0, 1+2+0, 0+2+3 and 1+2+3+0 are taken and win on 0.",
        # Pocket 0: straight 0: 10 + 350 = 360; splits 0-1, 0-2, 0-3: 10 + 170 = 180 each;
        # trios 0-1-2, 0-2-3: 10 + 110 = 120 each; first four 0-1-2-3: 10 + 80 = 90.
        rounds=(
            CaseRound(
                seats=(
                    (
                        "1000:straight 0=10,split 0-1=10,split 0-2=10,split 0-3=10,"
                        "street 0-1-2=10,street 0-2-3=10,first-four 0-1-2-3=10"
                    ),
                ),
                pocket="0",
                returns=(360, 180, 180, 180, 120, 120, 90),
            ),
        ),
    ),
    Case(
        id="rou-h011",
        name="roulette-c/zero/outside-bets-lose",
        profile=P,
        clauses=("C.rou.zero-loses",),
        description="Zero makes every column, dozen and even-money bet lose, with no half back.",
        # Pocket 0: none of red, black, even, odd, low, high, column 1, dozen 1 covers 0: all 0.
        rounds=(
            CaseRound(
                seats=(
                    "1000:red=10,black=10,even=10,odd=10,low=10,high=10,column 1=10,dozen 1=10",
                ),
                pocket="0",
                returns=(0, 0, 0, 0, 0, 0, 0, 0),
            ),
        ),
    ),
    # --- geometry ----------------------------------------------------------------------------
    Case(
        id="rou-h013",
        name="roulette-c/geometry/split-3-4-refused",
        profile=P,
        clauses=("C.rou.geometry",),
        description="3 and 4 are consecutive but in different rows: no split.",
        # 3 ends row 1-2-3, 4 starts row 4-5-6: not adjacent on the layout.
        rounds=(CaseRound(seats=("1000:split 3-4=10",), pocket="3", error="INVALID_BET_LAYOUT"),),
    ),
    Case(
        id="rou-h014",
        name="roulette-c/geometry/street-2-3-4-refused",
        profile=P,
        clauses=("C.rou.geometry",),
        description="2-3-4 is not a row of the layout nor a zero trio: no street.",
        # Rows are 1-2-3, 4-5-6, ...; the trios are 0-1-2 and 0-2-3 only.
        rounds=(
            CaseRound(seats=("1000:street 2-3-4=10",), pocket="3", error="INVALID_BET_LAYOUT"),
        ),
    ),
    Case(
        id="rou-h015",
        name="roulette-c/geometry/double-zero-refused",
        profile=P,
        clauses=("C.rou.geometry", "C.rou.wheel"),
        description="00 is no pocket of the European wheel: a straight on 00 is refused.",
        # One zero only (pockets 0-36).
        rounds=(CaseRound(seats=("1000:straight 00=10",), pocket="5", error="INVALID_BET_LAYOUT"),),
    ),
    Case(
        id="rou-h016",
        name="roulette-c/geometry/top-line-refused",
        profile=P,
        clauses=("C.rou.geometry", "C.rou.wheel"),
        description="The American top line 0-00-1-2-3 is not a bet of the European layout.",
        # No 00 on this wheel, so no five-number bet.
        rounds=(
            CaseRound(
                seats=("1000:top-line 0-00-1-2-3=10",), pocket="5", error="INVALID_BET_LAYOUT"
            ),
        ),
    ),
    Case(
        id="rou-h017",
        name="roulette-c/geometry/one-bad-bet-refuses-the-round",
        profile=P,
        clauses=("C.rou.geometry",),
        description="A bad shape on one seat refuses the whole spin; no bet is settled.",
        # Seat 0 holds a fine red bet; seat 1's corner 1-2-3-4 is no corner: INVALID_BET_LAYOUT.
        rounds=(
            CaseRound(
                seats=("1000:red=10", "1000:straight 7=10,corner 1-2-3-4=10"),
                pocket="7",
                error="INVALID_BET_LAYOUT",
            ),
        ),
    ),
    # --- the board ----------------------------------------------------------------------------
    Case(
        id="rou-h018",
        name="roulette-c/history/fourteen-spins-keep-thirteen",
        profile=P,
        clauses=("C.rou.history", "C.rou.wheel", "C.rou.zero-loses"),
        description="Fourteen spins at one table: the board then shows only the last 13 results.",
        # After spin 14 the board drops the first result (0) and shows, oldest first:
        # 32 15 19 4 21 2 25 17 34 6 27 13 36. Each round's returns are in _HISTORY_SPINS.
        rounds=tuple(
            CaseRound(seats=("100:red=1,black=1",), pocket=pocket, returns=returns)
            for pocket, returns in _HISTORY_SPINS
        ),
    ),
    # --- seats, limits, balance ---------------------------------------------------------------
    Case(
        id="rou-h019",
        name="roulette-c/seats/two-seats",
        profile=P,
        clauses=("C.rou.wheel",),
        description="Two seats on one spin: lines come in seat then bet order.",
        # Pocket 23 (red, odd, high, dozen 2, column 2): seat 0 straight 23: 5 + 175 = 180,
        # black: 0; seat 1 dozen 2: 20 + 40 = 60, column 2 (2, 5, ..., 23): 20 + 40 = 60.
        rounds=(
            CaseRound(
                seats=("500:straight 23=5,black=5", "500:dozen 2=20,column 2=20"),
                pocket="23",
                returns=(180, 0, 60, 60),
            ),
        ),
    ),
    Case(
        id="rou-h022",
        name="roulette-c/limits/stake-at-min-bet",
        profile=P,
        clauses=("TABLE.limits", "C.rou.wheel"),
        description="A stake of 1, the table minimum, is taken and paid.",
        # 1 = min_bet: accepted. Straight 36 on 36: 1 + 35 = 36.
        rounds=(CaseRound(seats=("1:straight 36=1",), pocket="36", returns=(36,)),),
    ),
    Case(
        id="rou-h024",
        name="roulette-c/geometry/street-0-00-2-is-american",
        profile=P,
        clauses=("C.rou.geometry",),
        description="street 0-00-2 is an American trio: 00 is no pocket of this wheel.",
        rounds=(
            CaseRound(seats=("1000:street 0-00-2=10",), pocket="2", error="INVALID_BET_LAYOUT"),
        ),
    ),
    Case(
        id="rou-h025",
        name="roulette-c/geometry/split-0-00-is-american",
        profile=P,
        clauses=("C.rou.geometry",),
        description="split 0-00 is an American split: 00 is no pocket of this wheel.",
        rounds=(CaseRound(seats=("1000:split 0-00=10",), pocket="2", error="INVALID_BET_LAYOUT"),),
    ),
)
