"""Hand-written cases of what a corpus easily never asks, for every profile: ids ``h300``-``h349``.

- The round's life after the answer a vector usually stops at: a Decide to a complete round, a
  second Settle (it must not pay again), a round looked at after a refused call (the refusal
  changed nothing: the round goes on as if the call had never been sent).
- Ids: case-sensitive, one round id for the whole engine whatever the profile, a roulette board
  per (profile, table).
- Stakes where exact arithmetic and floating point part: banker stakes that are multiples of 20
  (a commission worked out in floats on major units comes out a cent short at 60, 120, 140,
  380), odd stakes at 3:2, half stakes of odd amounts.
- Rare cells: re-split aces, even money with no free funds, the shoe running out during the
  dealer's draw, a split hand followed by another seat, the street 34-35-36, dozens on 12,
  24 and 36.

Every figure is worked out by hand in the comment above its round, from RULES.md.
"""

from __future__ import annotations

from croupier.conformance.cases import Case, CaseMaker, CaseRound, case_maker
from croupier.conformance.handwritten._blackjack import OWN
from croupier.oracle.clauses import Game

#: The profile whose rounds share an engine with each profile's in the cross-profile cases: one
#: of the same game, so that a vendor of one game's profiles is asked too.
PARTNER = {
    "blackjack-a": "blackjack-c",
    "blackjack-c": "blackjack-a",
    "baccarat-b": "baccarat-c",
    "baccarat-c": "baccarat-d",
    "baccarat-d": "baccarat-b",
    "roulette-c": "roulette-american",
    "roulette-american": "roulette-c",
}

#: A round of each game that pays 100 on 100 (returned 200): TS 7H 9D TC is 19 against 17 for
#: blackjack (after a stand), a player natural 9 against 7 for baccarat, red 36 for roulette.
_SEAT = {
    Game.BLACKJACK: "1000:100",
    Game.BACCARAT: "1000:player=100",
    Game.ROULETTE: "1000:red=100",
}
_SHOE = "TS 7H 9D TC 5C 2D 3C"


def _won(game: Game, **more: object) -> CaseRound:
    """The game's plain winning round, with ``more`` fields set."""
    fields: dict[str, object] = {
        "seats": (_SEAT[game],),
        "shoe": "" if game is Game.ROULETTE else _SHOE,
        "pocket": "36" if game is Game.ROULETTE else "",
        "decisions": "stand" if game is Game.BLACKJACK else "",
        "returns": (200,),
    }
    fields.update(more)
    return CaseRound(**fields)  # type: ignore[arg-type] # the fields of CaseRound by name


def asked_cases(profile: str, prefix: str, game: Game) -> tuple[Case, ...]:
    """Every case of this module for one profile."""
    american = {"C.rou.geometry": ("US.rou.geometry",), "C.rou.wheel": ("US.rou.wheel",)}
    case = case_maker(profile, prefix, american if profile == "roulette-american" else None)
    partner = PARTNER[profile]
    cases = [
        case(
            300,
            "lifecycle/settled-round-is-closed",
            ("CONTRACT.lifecycle",),
            "A settled round is paid once: a second Settle, and a Decide, are ROUND_NOT_FOUND.",
            # Paid 200 once; then Settle again and a Decide: the round is closed.
            _won(game, after_settle="settle stand", refusals=("ROUND_NOT_FOUND",) * 2),
        ),
        case(
            301,
            "ids/letter-case-makes-another-round",
            ("CONTRACT.lifecycle",),
            "Ids are case-sensitive: a round id that differs from one dealt only in case is new.",
            # '...-Round' then '...-round': two rounds, each paid 200.
            _won(game, round_id=f"{prefix}-h301-Round"),
            _won(game, round_id=f"{prefix}-h301-round"),
        ),
        _across(case, partner, game),
        case(
            303,
            "decisions/decision-to-a-complete-round",
            ("CONTRACT.lifecycle",),
            "A Decide to a complete round is ILLEGAL_DECISION, with no legal decision; "
            "it changes nothing and the round is settled as it was.",
            # Blackjack: 19 stands against 17, the round is complete; a hit is refused ("legal"
            # empty), and Settle pays 200. Baccarat and roulette: complete at the deal.
            _won(
                game,
                decisions="stand !0/0:hit" if game is Game.BLACKJACK else "!0/0:hit",
                refusals=("ILLEGAL_DECISION",),
            ),
        ),
    ]
    match game:
        case Game.BLACKJACK:
            cases.extend(_blackjack(case, profile))
        case Game.BACCARAT:
            cases.extend(_baccarat(case))
        case Game.ROULETTE:
            cases.extend(_roulette(case, partner, prefix))
    return tuple(cases)


def _across(case: CaseMaker, partner: str, game: Game) -> Case:
    made = case(
        302,
        "ids/round-id-taken-under-another-profile",
        ("CONTRACT.lifecycle",),
        f"A round id dealt under {partner} is taken for every profile of the engine: ROUND_EXISTS.",
        # Round 0 under the other profile is paid 200; the same id under this one is refused.
        _won(game, profile_id=partner),
        CaseRound(
            seats=(_SEAT[game],),
            shoe=_won(game).shoe,
            pocket=_won(game).pocket,
            reuse=0,
            error="ROUND_EXISTS",
        ),
    )
    return _with_partner(made, partner)


def _with_partner(made: Case, partner: str) -> Case:
    return Case(
        id=made.id,
        name=made.name,
        profile=made.profile,
        clauses=made.clauses,
        description=made.description,
        rounds=made.rounds,
        other_profiles=(partner,),
    )


def _blackjack(case: CaseMaker, profile: str) -> tuple[Case, ...]:
    own = OWN[profile]
    out = [
        case(
            304,
            "decisions/refused-calls-change-nothing",
            (own["double"], "CONTRACT.lifecycle"),
            "A double on three cards, a split of no pair and a Settle before the end are "
            "refused, and the hand plays on as if none had been sent.",
            # 2S 3D = 5 hits 4C: 9 on three cards. Double and split refused (ILLEGAL_DECISION),
            # Settle refused (ROUND_NOT_COMPLETE). The next card is still TS: 19, stands.
            # Dealer 7H TC = 17. 19 > 17: 200.
            CaseRound(
                seats=("1000:100",),
                shoe="2S 7H 3D TC 4C TS 5C 5D",
                decisions="hit !double !split settle hit stand",
                returns=(200,),
                refusals=("ILLEGAL_DECISION", "ILLEGAL_DECISION", "ROUND_NOT_COMPLETE"),
            ),
        ),
        case(
            305,
            "decisions/another-seat-s-turn-then-play-on",
            ("CONTRACT.request", "BJ.compare"),
            "A decision for seat 1 while seat 0 is to act is refused; then both seats play "
            "as if it had not been sent.",
            # Seat 0 TS 7H = 17, seat 1 9C TC = 19; seat 1's stand is refused. Both stand.
            # Dealer 7D 5C = 12 draws 2D (14), 3C (17), stands. Seat 0 pushes: 100; seat 1 wins:
            # 200.
            CaseRound(
                seats=("1000:100", "1000:100"),
                shoe="TS 9C 7D 7H TC 5C 2D 3C",
                decisions="!1/0:stand stand stand",
                returns=(100, 200),
                refusals=("ILLEGAL_DECISION",),
            ),
        ),
        case(
            306,
            "money/odd-stakes-at-three-to-two",
            ("BJ.nat-pays", "MONEY.rounding"),
            "Blackjacks on stakes of 7, 15, 30 and 60: exact 3:2 rounded down, where halves and "
            "floats part (17.5 is 17, 37.5 is 37; 75 and 150 are whole).",
            # Four seats KD/AS... against 7H up, hole 9C: every seat a blackjack, the dealer needs
            # no card. 7 + 10.5 = 17.5 -> 17; 15 + 22.5 = 37.5 -> 37; 30 + 45 = 75; 60 + 90 = 150.
            CaseRound(
                seats=("1000:7", "1000:15", "1000:30", "1000:60"),
                shoe="KD KS KH KC 7H AS AD AH AC 9C 5C",
                returns=(17, 37, 75, 150),
            ),
        ),
        case(
            307,
            "half-stakes/insurance-on-an-odd-stake",
            ("BJ.half-stakes", own["insurance"]),
            "Insurance on a stake of 11 is 5 (5.5 rounded down) and a dealer blackjack pays it "
            "2:1: 15 back.",
            # 9S 7D = 16 against AH, insurance 11 / 2 = 5.5 -> 5; hole KC: dealer blackjack, the
            # box loses (0), insurance 5 + 10 = 15.
            CaseRound(
                seats=("1000:11",),
                shoe="9S AH 7D KC 5C",
                decisions="insurance",
                returns=(0, 15),
            ),
        ),
        case(
            308,
            "split/no-resplit-of-aces",
            (own["split"],),
            "Split aces that pair again may not be split again: two hands at most.",
            # AS AD split against 7H; hand 0 takes AC: A-A again, a second split is refused.
            CaseRound(
                seats=("1000:100",),
                shoe="AS 7H AD TC AC 9S 9H",
                decisions="split split",
                error="ILLEGAL_DECISION",
            ),
        ),
        case(
            309,
            "dealer/shoe-runs-out-during-the-dealer-s-draw",
            (own["dealer-draw"],),
            "A shoe that ends while the dealer must draw refuses the stand that needs the "
            "card: SHOE_EXHAUSTED, needed 5.",
            # TS 8D = 18 stands; dealer 6H TC = 16 must draw the fifth card, which the four-card
            # shoe lacks.
            CaseRound(
                seats=("1000:100",),
                shoe="TS 6H 8D TC",
                decisions="stand",
                error="SHOE_EXHAUSTED",
            ),
        ),
        case(
            310,
            "split/split-hands-then-another-seat",
            (own["split"], "BJ.deal-order", "BJ.compare"),
            "Seat 0 splits and plays both hands, each taking its second card as it starts; "
            "then seat 1 plays.",
            # Seat 0 8S 8D, seat 1 TC 9C, dealer 7H TD = 17. Split: hand 0 takes TS (18), stands;
            # hand 1 takes 9S (17), stands; seat 1 stands on 19. 18 > 17: 200; 17 = 17: 100;
            # 19 > 17: 200.
            CaseRound(
                seats=("1000:100", "1000:100"),
                shoe="8S TC 7H 8D 9C TD TS 9S 5C",
                decisions="split stand stand stand",
                returns=(200, 100, 200),
            ),
        ),
    ]
    out.append(
        case(
            312,
            "funds/double-refused-without-funds-then-play-on",
            ("BJ.funds", own["double"]),
            "A double the funds cannot cover is refused; the hand then hits and stands as if "
            "the double had never been asked.",
            # Balance 100 on a box of 100: no double. 6S 5D = 11 hits TS: 21, stands by itself.
            # Dealer 7H TC = 17. 21 > 17: 200.
            CaseRound(
                seats=("100:100",),
                shoe="6S 7H 5D TC TS 9C 5C",
                decisions="!double hit",
                returns=(200,),
                refusals=("ILLEGAL_DECISION",),
            ),
        )
    )
    if profile == "blackjack-a":
        out.append(
            case(
                311,
                "even-money/offered-without-free-funds",
                ("A.even-money", "BJ.funds"),
                "Even money needs no funds: a seat with its whole balance on the box is offered "
                "it against an ace, and takes 200.",
                # Balance 100, stake 100: free funds 0. AS KD against AH: even money is offered
                # all the same and taken: 100 + 100 = 200.
                CaseRound(
                    seats=("100:100",),
                    shoe="AS AH KD 9C 5C",
                    decisions="even-money",
                    returns=(200,),
                ),
            )
        )
    else:
        out.append(
            case(
                311,
                "half-stakes/surrender-of-an-odd-stake",
                ("C.bj.surrender", "BJ.half-stakes"),
                "A surrendered stake of 15 gets half back: 7 (7.5 rounded down).",
                # TS 6D = 16 against 9H, no peek under a 9: surrender, 15 / 2 = 7.5 -> 7.
                CaseRound(
                    seats=("1000:15",),
                    shoe="TS 9H 6D 8C 5C",
                    decisions="surrender",
                    returns=(7,),
                ),
            )
        )
    return tuple(out)


def _baccarat(case: CaseMaker) -> tuple[Case, ...]:
    return (
        case(
            304,
            "commission/banker-stakes-in-twenties",
            ("BAC.pay-banker", "MONEY.rounding"),
            "Winning banker bets of 20, 60, 120, 140 and 380 pay exactly 19/20 of the stake: "
            "the amounts a commission worked out in floats gets a unit short.",
            # Player TC KD = 0, banker 8H TH = 8, a natural: the banker wins. Returned: stake +
            # 95%: 20 + 19 = 39, 60 + 57 = 117, 120 + 114 = 234, 140 + 133 = 273, 380 + 361 = 741.
            CaseRound(
                seats=(
                    "1000:banker=20",
                    "1000:banker=60",
                    "1000:banker=120",
                    "1000:banker=140",
                    "1000:banker=380",
                ),
                shoe="TC 8H KD TH 5C 5D",
                returns=(39, 117, 234, 273, 741),
            ),
        ),
    )


def _roulette(case: CaseMaker, partner: str, prefix: str) -> tuple[Case, ...]:
    board = case(
        304,
        "board/one-table-under-two-profiles",
        ("C.rou.history", "CONTRACT.request"),
        f"A table id used under {partner} too is another board: each profile's board holds its "
        "own spins only.",
        # Red 100 on each spin. The other profile spins 17 (black: 0) at the table, this one 5
        # (red: 200), the other 9 (red: 200). Boards: [17]; [5]; [17, 9].
        CaseRound(seats=("1000:red=100",), pocket="17", profile_id=partner, returns=(0,)),
        CaseRound(seats=("1000:red=100",), pocket="5", returns=(200,)),
        CaseRound(seats=("1000:red=100",), pocket="9", profile_id=partner, returns=(200,)),
    )
    between = case(
        308,
        "board/another-profile-between-two-spins",
        ("C.rou.history", "CONTRACT.request"),
        f"A spin of {partner} at the same table, between two of this profile's, goes on its "
        "own board only.",
        # Red 100: this profile spins 1 (red: 200), the other 2 (black: 0), this one 3 (red:
        # 200). Boards: [1]; [2]; [1, 3].
        CaseRound(seats=("1000:red=100",), pocket="1", returns=(200,)),
        CaseRound(seats=("1000:red=100",), pocket="2", profile_id=partner, returns=(0,)),
        CaseRound(seats=("1000:red=100",), pocket="3", returns=(200,)),
    )
    return (
        _with_partner(board, partner),
        _with_partner(between, partner),
        case(
            305,
            "board/tables-differ-in-case",
            ("C.rou.history", "CONTRACT.request"),
            "Table ids are case-sensitive: '-Table' and '-table' keep two boards.",
            # Red 100: 5 at '-Table' ([5]), 9 at '-table' ([9]), 12 at '-Table' ([5, 12]).
            CaseRound(
                seats=("1000:red=100",), pocket="5", table_id=f"{prefix}-h305-Table", returns=(200,)
            ),
            CaseRound(
                seats=("1000:red=100",), pocket="9", table_id=f"{prefix}-h305-table", returns=(200,)
            ),
            CaseRound(
                seats=("1000:red=100",),
                pocket="12",
                table_id=f"{prefix}-h305-Table",
                returns=(200,),
            ),
        ),
        case(
            306,
            "bets/street-34-35-36",
            ("C.rou.geometry", "C.rou.wheel"),
            "The last street, 34-35-36, wins 11:1 on 35; the third dozen wins 2:1 with it.",
            # Street 10 + 110 = 120; dozen 3 (25-36) 10 + 20 = 30.
            CaseRound(
                seats=("1000:street 34-35-36=10,dozen 3=10",), pocket="35", returns=(120, 30)
            ),
        ),
        case(
            307,
            "bets/dozens-on-their-last-numbers",
            ("C.rou.wheel",),
            "12, 24 and 36 are the last numbers of dozens 1, 2 and 3: each wins 2:1 there only.",
            # Each spin: 10 on each dozen. 12: dozen 1 30, others 0; 24: dozen 2; 36: dozen 3.
            CaseRound(
                seats=("1000:dozen 1=10,dozen 2=10,dozen 3=10",), pocket="12", returns=(30, 0, 0)
            ),
            CaseRound(
                seats=("1000:dozen 1=10,dozen 2=10,dozen 3=10",), pocket="24", returns=(0, 30, 0)
            ),
            CaseRound(
                seats=("1000:dozen 1=10,dozen 2=10,dozen 3=10",), pocket="36", returns=(0, 0, 30)
            ),
        ),
    )
