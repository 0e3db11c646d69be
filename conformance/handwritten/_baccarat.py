"""Hand-written baccarat cases common to profiles B, C and D.

Every one of them is decided the same way under the standard tableau and under document B's
as printed: the banker never draws here on a player's third-card ace at 4, 5 or 6, the only
cells where the two differ (those cases are in each profile's own module). Shoes are in
contract order (BAC.deal): player, banker, player, banker, then the player's third card if
any, then the banker's. Card values (BAC.values): ace 1, two to nine face value, tens and
pictures 0, totals modulo 10. Amounts are "returned" figures, stake included; the comment
above each round shows the hand arithmetic from RULES.md.

Ids are fixed per case (``<prefix>-h001`` to ``<prefix>-h029``); each profile's own cases
start at ``h050``, so neither list renumbers the other.
"""

from __future__ import annotations

from croupier.conformance.cases import Case, CaseRound, case_maker


def common_cases(profile: str, prefix: str) -> tuple[Case, ...]:
    """The shared cases, named and numbered for one baccarat profile."""
    # TABLE.limits is every game's; document B words it itself (B.limits).
    limits = ("TABLE.limits", "B.limits") if profile == "baccarat-b" else ("TABLE.limits",)
    case = case_maker(profile, prefix, {"TABLE.limits": limits})

    return (
        case(
            1,
            "values/seven-plus-nine-is-six",
            ("BAC.values", "BAC.player-draw", "BAC.banker-stood", "BAC.outcome", "BAC.pay-player"),
            "7+9 is 6 and 4+6 is 0: the player stands on 6, the banker draws to 3, player wins.",
            # Player 7S 9D = 16 -> 6, stands; banker 4H 6C = 10 -> 0, draws 3C: 3. 6 > 3:
            # player bet 100 + 100 = 200, banker bet 0.
            CaseRound(
                seats=("1000:player=100,banker=100",), shoe="7S 4H 9D 6C 3C 2D", returns=(200, 0)
            ),
        ),
        case(
            2,
            "natural/player-eight-stands",
            ("BAC.natural", "BAC.pay-player", "BAC.outcome"),
            "A player natural 8 against a banker 7: both stand and the player wins.",
            # Player 5S 3D = 8, natural; banker 2H 5C = 7; both stand. 8 > 7: player 50 + 50 =
            # 100, banker 0, tie 0.
            CaseRound(
                seats=("1000:player=50,banker=100,tie=10",),
                shoe="5S 2H 3D 5C 9C 2D",
                returns=(100, 0, 0),
            ),
        ),
        case(
            3,
            "natural/banker-nine-stops-the-player-draw",
            ("BAC.natural", "BAC.pay-banker", "BAC.outcome"),
            "A banker natural 9 stops a player 5 from drawing; the banker bet pays 0.95:1.",
            # Player 2S 3D = 5 would draw, but banker 9H KC = 9 is a natural: both stand.
            # 9 > 5: player 0; banker 100 + 100 * 1 * (1 - 0.05) = 195.
            CaseRound(
                seats=("1000:player=100,banker=100",), shoe="2S 9H 3D KC 5C 2D", returns=(0, 195)
            ),
        ),
        case(
            4,
            "tie/natural-eights",
            ("BAC.tie-push", "BAC.pay-tie", "BAC.natural", "BAC.outcome"),
            "Two natural 8s tie: the tie bet pays 8:1 and the player and banker bets push.",
            # Player 4S 4D = 8, banker 5H 3C = 8: tie. Player 100 back, banker 100 back,
            # tie 10 + 10 * 8 = 90.
            CaseRound(
                seats=("1000:player=100,banker=100,tie=10",),
                shoe="4S 5H 4D 3C 9C 2D",
                returns=(100, 100, 90),
            ),
        ),
        case(
            5,
            "player-draw/draws-on-zero",
            ("BAC.player-draw", "BAC.banker-tableau", "BAC.values"),
            "A player 0 draws a 9; the banker stands on 7 whatever the third card.",
            # Player TS KD = 0, draws 9C: 9. Banker 3H 4C = 7: never draws. 9 > 7: 200.
            CaseRound(seats=("1000:player=100",), shoe="TS 3H KD 4C 9C 2D", returns=(200,)),
        ),
        case(
            6,
            "player-draw/stands-on-seven",
            ("BAC.player-draw", "BAC.banker-stood", "BAC.pay-banker"),
            "The player stands on 7; the banker, on 5, draws to 9 and wins.",
            # Player 7S KD = 7, stands; banker 2H 3C = 5, draws 4C: 9. 9 > 7: player 0,
            # banker 100 + 95 = 195.
            CaseRound(
                seats=("1000:player=100,banker=100",), shoe="7S 2H KD 3C 4C 2D", returns=(0, 195)
            ),
        ),
        case(
            7,
            "banker-stood/stands-on-six",
            ("BAC.banker-stood", "BAC.tie-push", "BAC.pay-tie"),
            "Player stands on 6, banker stands on 6: a tie.",
            # Player 6S KD = 6, stands; banker 3H 3C = 6, stands (player stood, 6-7 stand).
            # Tie: player 20 back, tie 10 + 80 = 90.
            CaseRound(seats=("1000:player=20,tie=10",), shoe="6S 3H KD 3C 9C 2D", returns=(20, 90)),
        ),
        case(
            8,
            "banker-tableau/three-stands-on-eight",
            ("BAC.banker-tableau", "BAC.player-draw"),
            "Banker 3 stands when the player's third card is an 8.",
            # Player TS KD = 0, draws 8C: 8. Banker 3H KH = 3, third card 8: stands. 8 > 3:
            # player 200, banker 0.
            CaseRound(
                seats=("1000:player=100,banker=100",), shoe="TS 3H KD KH 8C 5D", returns=(200, 0)
            ),
        ),
        case(
            9,
            "banker-tableau/three-draws-on-nine",
            ("BAC.banker-tableau",),
            "Banker 3 draws when the player's third card is a 9.",
            # Player TS KD = 0, draws 9C: 9. Banker 3H KH = 3, third card 9: draws 5D: 8.
            # 9 > 8: player 200, banker 0.
            CaseRound(
                seats=("1000:player=100,banker=100",), shoe="TS 3H KD KH 9C 5D", returns=(200, 0)
            ),
        ),
        case(
            10,
            "banker-tableau/two-always-draws",
            ("BAC.banker-tableau", "BAC.pay-banker"),
            "Banker 0-2 always draws, even on a player's third-card 8.",
            # Player TS KD = 0, draws 8C: 8. Banker 2H KH = 2: draws 7D: 9. 9 > 8: player 0,
            # banker 195.
            CaseRound(
                seats=("1000:player=100,banker=100",), shoe="TS 2H KD KH 8C 7D", returns=(0, 195)
            ),
        ),
        case(
            11,
            "banker-tableau/four-draws-on-two",
            ("BAC.banker-tableau", "BAC.tie-push", "BAC.pay-tie"),
            "Banker 4 draws on a player's third-card 2 and ties at 7.",
            # Player AS 4D = 5, draws 2C: 7. Banker 4H KH = 4, third card 2: draws 3D: 7. Tie:
            # player 100, banker 100, tie 10 + 80 = 90.
            CaseRound(
                seats=("1000:player=100,banker=100,tie=10",),
                shoe="AS 4H 4D KH 2C 3D",
                returns=(100, 100, 90),
            ),
        ),
        case(
            12,
            "banker-tableau/four-stands-on-eight",
            ("BAC.banker-tableau", "BAC.pay-banker"),
            "Banker 4 stands on a player's third-card 8 and wins 4 to 3.",
            # Player AS 4D = 5, draws 8C: 13 -> 3. Banker 4H KH = 4, third card 8: stands.
            # 4 > 3: banker 195.
            CaseRound(seats=("1000:banker=100",), shoe="AS 4H 4D KH 8C 3D", returns=(195,)),
        ),
        case(
            13,
            "banker-tableau/five-draws-on-four",
            ("BAC.banker-tableau",),
            "Banker 5 draws on a player's third-card 4.",
            # Player AS 4D = 5, draws 4C: 9. Banker 5H KH = 5, third card 4: draws 2D: 7.
            # 9 > 7: player 200.
            CaseRound(seats=("1000:player=100",), shoe="AS 5H 4D KH 4C 2D", returns=(200,)),
        ),
        case(
            14,
            "banker-tableau/five-stands-on-three",
            ("BAC.banker-tableau",),
            "Banker 5 stands on a player's third-card 3.",
            # Player AS 4D = 5, draws 3C: 8. Banker 5H KH = 5, third card 3: stands. 8 > 5:
            # player 200.
            CaseRound(seats=("1000:player=100",), shoe="AS 5H 4D KH 3C 2D", returns=(200,)),
        ),
        case(
            15,
            "banker-tableau/six-draws-on-six",
            ("BAC.banker-tableau", "BAC.pay-banker"),
            "Banker 6 draws on a player's third-card 6.",
            # Player AS 4D = 5, draws 6C: 11 -> 1. Banker 6H KH = 6, third card 6: draws 2D: 8.
            # 8 > 1: banker 195.
            CaseRound(seats=("1000:banker=100",), shoe="AS 6H 4D KH 6C 2D", returns=(195,)),
        ),
        case(
            16,
            "banker-tableau/six-stands-on-five",
            ("BAC.banker-tableau", "BAC.pay-banker"),
            "Banker 6 stands on a player's third-card 5.",
            # Player AS 4D = 5, draws 5C: 10 -> 0. Banker 6H KH = 6, third card 5: stands.
            # 6 > 0: banker 195.
            CaseRound(seats=("1000:banker=100",), shoe="AS 6H 4D KH 5C 2D", returns=(195,)),
        ),
        case(
            17,
            "money/banker-commission-rounds-down",
            ("MONEY.rounding", "BAC.pay-banker"),
            "A banker win on 25 is exactly 48.75, rounded down to 48.",
            # Banker natural 9 beats player 5. 25 + 25 * 0.95 = 25 + 23.75 = 48.75 exact;
            # MONEY.rounding: rounded down, 48.
            CaseRound(seats=("1000:banker=25",), shoe="2S 9H 3D KC 5C 2D", returns=(48,)),
        ),
        case(
            18,
            "money/two-seats",
            ("BAC.pay-banker", "BAC.outcome"),
            "Two seats on one coup: lines come in seat then bet order.",
            # Banker natural 9 beats player 5. Seat 0 player 100: 0. Seat 1 banker 100: 195,
            # tie 5: 0.
            CaseRound(
                seats=("1000:player=100", "1000:banker=100,tie=5"),
                shoe="2S 9H 3D KC 5C 2D",
                returns=(0, 195, 0),
            ),
        ),
        case(
            19,
            "limits/stake-at-max-bet",
            ("TABLE.limits", "BAC.pay-player"),
            "A stake exactly at the table maximum of 1000000 is taken and paid.",
            # 1000000 = max_bet: accepted. Player 9 beats banker 7: 2000000.
            CaseRound(
                seats=("1000000:player=1000000",), shoe="TS 3H KD 4C 9C 2D", returns=(2000000,)
            ),
        ),
        case(
            20,
            "limits/stake-over-max-bet",
            ("TABLE.limits",),
            "A stake over the table maximum is refused: BET_OUT_OF_LIMITS.",
            # 1000001 > max_bet 1000000.
            CaseRound(
                seats=("2000000:banker=1000001",),
                shoe="TS 3H KD 4C 9C 2D",
                error="BET_OUT_OF_LIMITS",
            ),
        ),
        case(
            21,
            "limits/stake-at-min-bet",
            ("TABLE.limits", "BAC.pay-player"),
            "A stake of 1, the table minimum, is taken and paid.",
            # 1 = min_bet: accepted. Player 9 beats banker 7: 1 + 1 = 2.
            CaseRound(seats=("1:player=1",), shoe="TS 3H KD 4C 9C 2D", returns=(2,)),
        ),
        case(
            22,
            "limits/stakes-over-balance",
            ("CONTRACT.balance",),
            "Stakes of 60 and 60 on a balance of 100 are refused: INSUFFICIENT_BALANCE.",
            # 60 + 60 = 120 > 100.
            CaseRound(
                seats=("100:player=60,banker=60",),
                shoe="TS 3H KD 4C 9C 2D",
                error="INSUFFICIENT_BALANCE",
            ),
        ),
        case(
            23,
            "deal/shoe-exhausted",
            ("BAC.deal", "BAC.player-draw"),
            "A player 0 must draw a fifth card that a four-card shoe does not hold.",
            # Player TS KD = 0 draws; the shoe holds only the four cards of the deal.
            CaseRound(seats=("1000:player=100",), shoe="TS 3H KD 4C", error="SHOE_EXHAUSTED"),
        ),
        case(
            24,
            "deal/three-cards-at-most",
            ("BAC.deal", "BAC.banker-tableau", "BAC.player-draw"),
            "A banker still on 1 after its third card takes no fourth: no hand holds more than three.",
            # Player 2S 3D = 5 draws 4C: 9. Banker KH AC = 1 always draws: TD, still 1. No
            # fourth card (5H stays in the shoe). 9 > 1: player 200.
            CaseRound(seats=("1000:player=100",), shoe="2S KH 3D AC 4C TD 5H", returns=(200,)),
        ),
        case(
            25,
            "values/three-cards-over-twenty",
            ("BAC.values", "BAC.player-draw", "BAC.banker-tableau", "BAC.pay-banker"),
            "A three-card hand of 24 points is worth 4: totals are always taken modulo 10.",
            # Player 7S 8D = 15 -> 5 draws 9C: 24 -> 4. Banker KH 3C = 3 draws on a 9 (both
            # tableaux): 2D, 5. 5 > 4: player 0, banker 100 + 95 = 195.
            CaseRound(
                seats=("1000:player=100,banker=100",),
                shoe="7S KH 8D 3C 9C 2D",
                returns=(0, 195),
            ),
        ),
        case(
            26,
            "money/banker-commission-fractions",
            ("MONEY.rounding", "BAC.pay-banker"),
            "Banker wins of 12, 30 and 1 leave 0.4, 0.5 and 0.95: each rounded down.",
            # Banker natural 9 beats player 5. 12 + 12 * 0.95 = 23.4 -> 23; 30 + 28.5 = 58.5
            # -> 58; 1 + 0.95 = 1.95 -> 1. Fractions under, at and over a half: any other
            # rounding rule gives another figure for one of them.
            CaseRound(
                seats=("1000:banker=12", "1000:banker=30", "1000:banker=1"),
                shoe="2S 9H 3D KC 5C 2D",
                returns=(23, 58, 1),
            ),
        ),
    )


def eight_deck_cases(profile: str, prefix: str, first: int, clause: str) -> tuple[Case, ...]:
    """An eight-deck shoe holds seven copies of two cards, and eight of one (``clause``)."""
    # Player 7S 9D = 6 stands; banker 4H 6C = 0 draws 3C: 3; player 200. The rest stays in
    # the shoe, only to be checked against the profile's decks.
    shoes = (
        ("seven-copies-of-two-cards", "seven copies of two cards each", "JD " * 7 + "AS " * 7),
        ("eight-copies-of-an-ace", "eight aces of spades", "AS " * 8),
    )
    return tuple(
        Case(
            id=f"{prefix}-h{first + i:03d}",
            name=f"{profile}/decks/{slug}",
            profile=profile,
            clauses=(clause,),
            description=f"Eight decks hold {what}.",
            rounds=(
                CaseRound(
                    seats=("1000:player=100",),
                    shoe=f"7S 4H 9D 6C 3C {rest}".strip(),
                    returns=(200,),
                ),
            ),
        )
        for i, (slug, what, rest) in enumerate(shoes)
    )
