"""Hand-written vectors of profile baccarat-c (document C: six decks, standard tableau)."""

from __future__ import annotations

from croupier.conformance.cases import Case, CaseRound
from croupier.conformance.handwritten._baccarat import common_cases

P = "baccarat-c"

CASES: tuple[Case, ...] = (
    *common_cases(P, "bac"),
    Case(
        id="bac-h050",
        name="baccarat-c/decks/six-copies-of-a-card",
        profile=P,
        clauses=("C.bac.decks", "BAC.values"),
        description="A six-deck shoe may hold six copies of a card.",
        # Six QC are possible in six decks. Player 7S 9D = 6 stands; banker 4H 6C = 0 draws
        # 3C: 3. 6 > 3: player 200.
        rounds=(
            CaseRound(
                seats=("1000:player=100",),
                shoe="7S 4H 9D 6C 3C QC QC QC QC QC QC",
                returns=(200,),
            ),
        ),
    ),
    Case(
        id="bac-h051",
        name="baccarat-c/decks/seven-copies-refused",
        profile=P,
        clauses=("C.bac.decks",),
        description="Seven copies of a card cannot come from six decks: SHOE_NOT_IN_PROFILE.",
        # Six decks hold six QC; seven are refused before the coup.
        rounds=(
            CaseRound(
                seats=("1000:player=100",),
                shoe="7S 4H 9D 6C 3C QC QC QC QC QC QC QC",
                error="SHOE_NOT_IN_PROFILE",
            ),
        ),
    ),
    Case(
        id="bac-h052",
        name="baccarat-c/decks/fresh-shoe-every-round",
        profile=P,
        clauses=("C.bac.decks",),
        description="Each round is dealt from a fresh six-deck shoe: two rounds may each hold six copies.",
        # Round 1 and round 2 each bring their own shoe with six QC (twelve in all at the
        # table, fine since the shoe is fresh every game). Player 6 beats banker 3 both times:
        # 200 each round.
        rounds=(
            CaseRound(
                seats=("1000:player=100",),
                shoe="7S 4H 9D 6C 3C QC QC QC QC QC QC",
                returns=(200,),
            ),
            CaseRound(
                seats=("1000:player=100",),
                shoe="7S 4H 9D 6C 3C QC QC QC QC QC QC",
                returns=(200,),
            ),
        ),
    ),
    Case(
        id="bac-h053",
        name="baccarat-c/tableau/four-stands-on-ace",
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
        id="bac-h054",
        name="baccarat-c/tableau/five-stands-on-ace",
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
        id="bac-h055",
        name="baccarat-c/tableau/six-stands-on-ace",
        profile=P,
        clauses=("BAC.banker-tableau", "BAC.tie-push"),
        description="Standard tableau: banker 6 stands on a player's third-card ace; 6-6 ties.",
        # Player 2S 3D = 5, draws AC: 6. Banker KH 6C = 6 draws only on 6-7: stands. Tie:
        # player 100 and banker 100 push.
        rounds=(
            CaseRound(
                seats=("1000:player=100,banker=100",), shoe="2S KH 3D 6C AC 3H", returns=(100, 100)
            ),
        ),
    ),
    Case(
        id="bac-h056",
        name="baccarat-c/tableau/three-draws-on-a-ten",
        profile=P,
        clauses=("BAC.banker-tableau", "BAC.pay-banker"),
        description="A ten as the player's third card counts 0 in the tableau: banker 3 draws on it.",
        # Player 2S 3D = 5, draws KC (0): 5. Banker KH 3C = 3 draws on anything but an 8, and
        # the king is 0: draws 4H, 7. 7 > 5: player 0, banker 100 + 95 = 195.
        rounds=(
            CaseRound(
                seats=("1000:player=100,banker=100",), shoe="2S KH 3D 3C KC 4H", returns=(0, 195)
            ),
        ),
    ),
    Case(
        id="bac-h057",
        name="baccarat-c/decks/eight-copies-refused",
        profile=P,
        clauses=("C.bac.decks",),
        description="Eight copies of a card cannot come from six decks: SHOE_NOT_IN_PROFILE.",
        # More copies than the profile's decks hold: refused before the coup.
        rounds=(
            CaseRound(
                seats=("1000:player=100",),
                shoe="7S 4H 9D 6C 3C JD JD JD JD JD JD JD JD",
                error="SHOE_NOT_IN_PROFILE",
            ),
        ),
    ),
    Case(
        id="bac-h058",
        name="baccarat-c/decks/seven-aces-refused",
        profile=P,
        clauses=("C.bac.decks",),
        description="Seven aces of spades cannot come from six decks: SHOE_NOT_IN_PROFILE.",
        # More copies than the profile's decks hold: refused before the coup.
        rounds=(
            CaseRound(
                seats=("1000:player=100",),
                shoe="7S 4H 9D 6C 3C AS AS AS AS AS AS AS",
                error="SHOE_NOT_IN_PROFILE",
            ),
        ),
    ),
)
