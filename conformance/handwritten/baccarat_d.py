"""Hand-written vectors of profile baccarat-d (document D: eight decks assumed, standard tableau)."""

from __future__ import annotations

from croupier.conformance.cases import Case, CaseRound
from croupier.conformance.handwritten._baccarat import common_cases, eight_deck_cases

P = "baccarat-d"

CASES: tuple[Case, ...] = (
    *common_cases(P, "bad"),
    Case(
        id="bad-h050",
        name="baccarat-d/decks/eight-copies-of-a-card",
        profile=P,
        clauses=("D.decks", "BAC.values"),
        description="The assumed eight-deck shoe may hold eight copies of a card.",
        # Eight QC are possible in eight decks. Player 7S 9D = 6 stands; banker 4H 6C = 0
        # draws 3C: 3. 6 > 3: player 200.
        rounds=(
            CaseRound(
                seats=("1000:player=100",),
                shoe="7S 4H 9D 6C 3C QC QC QC QC QC QC QC QC",
                returns=(200,),
            ),
        ),
    ),
    Case(
        id="bad-h051",
        name="baccarat-d/decks/nine-copies-refused",
        profile=P,
        clauses=("D.decks",),
        description="Nine copies of a card cannot come from eight decks: SHOE_NOT_IN_PROFILE.",
        # Eight decks hold eight QC; nine are refused before the coup.
        rounds=(
            CaseRound(
                seats=("1000:player=100",),
                shoe="7S 4H 9D 6C 3C QC QC QC QC QC QC QC QC QC",
                error="SHOE_NOT_IN_PROFILE",
            ),
        ),
    ),
    Case(
        id="bad-h052",
        name="baccarat-d/tableau/four-stands-on-ace",
        profile=P,
        clauses=("BAC.banker-tableau", "BAC.pay-player"),
        description="Standard tableau: banker 4 stands on a player's third-card ace.",
        # Player 2S 3D = 5, draws AC: 6. Banker KH 4C = 4 draws only on 2-7: stands. 6 > 4:
        # player 200, banker 0.
        rounds=(
            CaseRound(
                seats=("1000:player=100,banker=100",), shoe="2S KH 3D 4C AC 4S", returns=(200, 0)
            ),
        ),
    ),
    Case(
        id="bad-h053",
        name="baccarat-d/tableau/five-stands-on-ace",
        profile=P,
        clauses=("BAC.banker-tableau", "BAC.pay-player"),
        description="Standard tableau: banker 5 stands on a player's third-card ace.",
        # Player 2S 3D = 5, draws AC: 6. Banker KH 5C = 5 draws only on 4-7: stands. 6 > 5:
        # player 200, banker 0.
        rounds=(
            CaseRound(
                seats=("1000:player=100,banker=100",), shoe="2S KH 3D 5C AC 2H", returns=(200, 0)
            ),
        ),
    ),
    Case(
        id="bad-h054",
        name="baccarat-d/tableau/six-stands-on-ace",
        profile=P,
        clauses=("BAC.banker-tableau", "BAC.tie-push"),
        description="Standard tableau: banker 6 stands on a player's third-card ace; 6-6 ties.",
        # Player 2S 3D = 5, draws AC: 6. Banker KH 6C = 6 draws only on 6-7: stands. Tie: the
        # player and banker bets are not lost (D), 100 and 100 back; tie 10 + 80 = 90.
        rounds=(
            CaseRound(
                seats=("1000:player=100,banker=100,tie=10",),
                shoe="2S KH 3D 6C AC 3H",
                returns=(100, 100, 90),
            ),
        ),
    ),
    *eight_deck_cases(P, "bad", 55, "D.decks"),
)
