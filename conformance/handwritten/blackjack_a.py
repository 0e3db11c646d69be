"""Hand-written vectors of profile blackjack-a (document A)."""

from __future__ import annotations

from conformance.cases import Case, CaseRound

CASES: tuple[Case, ...] = (
    Case(
        id="bja-h001",
        name="blackjack-a/natural/example-a1",
        profile="blackjack-a",
        clauses=("BJ.nat-pays", "A.nat-immediate"),
        description="Example A1: stake 100, a blackjack against a 7 up is paid 250 at once.",
        # Seat AS, up 7H, seat KD, hole 9C: blackjack against 2-9, 100 + 100 * 3/2 = 250.
        rounds=(CaseRound(seats=("1000:100",), shoe="AS 7H KD 9C 5C", returns=(250,)),),
    ),
)
