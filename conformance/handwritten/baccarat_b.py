"""Hand-written vectors of profile baccarat-b (document B: eight decks, tableau as printed)."""

from __future__ import annotations

from croupier.conformance.cases import Case, CaseRound
from croupier.conformance.handwritten._baccarat import common_cases, eight_deck_cases

P = "baccarat-b"

CASES: tuple[Case, ...] = (
    *common_cases(P, "bab"),
    Case(
        id="bab-h050",
        name="baccarat-b/decks/eight-copies-of-a-card",
        profile=P,
        clauses=("B.decks", "BAC.values"),
        description="An eight-deck shoe may hold eight copies of a card.",
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
        id="bab-h051",
        name="baccarat-b/decks/nine-copies-refused",
        profile=P,
        clauses=("B.decks",),
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
        id="bab-h052",
        name="baccarat-b/tableau/four-draws-on-ace-as-printed",
        profile=P,
        clauses=("B.tableau", "BAC.banker-tableau", "BAC.pay-banker"),
        description="As printed, banker 4 draws on a player's third-card ace (the standard stands).",
        # Player 2S 3D = 5, draws AC: 6. Banker KH 4C = 4; B's list of non-draws at 4 is 8, 9,
        # 10-valued, so an ace draws: 4S, 8. 8 > 6: player 0, banker 100 + 95 = 195.
        rounds=(
            CaseRound(
                seats=("1000:player=100,banker=100",), shoe="2S KH 3D 4C AC 4S", returns=(0, 195)
            ),
        ),
    ),
    Case(
        id="bab-h053",
        name="baccarat-b/tableau/five-draws-on-ace-as-printed",
        profile=P,
        clauses=("B.tableau", "BAC.banker-tableau", "BAC.pay-banker"),
        description="As printed, banker 5 draws on a player's third-card ace (the standard stands).",
        # Player 2S 3D = 5, draws AC: 6. Banker KH 5C = 5; B's non-draws at 5 are 2, 3, 8, 9,
        # 10-valued: the ace draws 2H: 7. 7 > 6: player 0, banker 195.
        rounds=(
            CaseRound(
                seats=("1000:player=100,banker=100",), shoe="2S KH 3D 5C AC 2H", returns=(0, 195)
            ),
        ),
    ),
    Case(
        id="bab-h054",
        name="baccarat-b/tableau/six-draws-on-ace-as-printed",
        profile=P,
        clauses=("B.tableau", "BAC.banker-tableau", "BAC.pay-banker"),
        description="As printed, banker 6 draws on a player's third-card ace (the standard stands).",
        # Player 2S 3D = 5, draws AC: 6. Banker KH 6C = 6; B's non-draws at 6 are 2-5, 8, 9,
        # 10-valued: the ace draws 3H: 9. 9 > 6: player 0, banker 195.
        rounds=(
            CaseRound(
                seats=("1000:player=100,banker=100",), shoe="2S KH 3D 6C AC 3H", returns=(0, 195)
            ),
        ),
    ),
    Case(
        id="bab-h055",
        name="baccarat-b/tableau/six-stands-on-four",
        profile=P,
        clauses=("B.tableau", "BAC.banker-tableau"),
        description="Banker 6 stands on a player's third-card 4, as B's list says.",
        # Player 2S 3D = 5, draws 4C: 9. Banker KH 6C = 6, third card 4 is on B's list: stands.
        # 9 > 6: player 200.
        rounds=(CaseRound(seats=("1000:player=100",), shoe="2S KH 3D 6C 4C 3H", returns=(200,)),),
    ),
    *eight_deck_cases(P, "bab", 57, "B.decks"),
)
