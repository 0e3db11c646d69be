"""Hand-written cases of the blackjack lab profiles in ``docs/examples``, one per variant value.

Not part of the shipped corpus (no shipped profile chooses a variant): the zoo's lab mutants
are certified against these vectors, built for the example profiles, and the demo engine
passes them. Every outcome is worked out by hand from RULES.md, as in the shipped cases:
shoes in contract order (a card to each seat, the up card, a second card to each seat, the
hole card, then every draw), amounts returned stake included.
"""

from __future__ import annotations

from croupier.conformance.cases import Case, CaseRound, case_maker

_SEAT = ("1000:100",)
_ILLEGAL = "ILLEGAL_DECISION"


def _round(shoe: str, decisions: str = "", returns: tuple[int, ...] | None = None) -> CaseRound:
    return CaseRound(seats=_SEAT, shoe=shoe, decisions=decisions, returns=returns)


def _refused(shoe: str, decisions: str) -> CaseRound:
    return CaseRound(seats=_SEAT, shoe=shoe, decisions=decisions, error=_ILLEGAL)


_EU = "european-no-hole-card"
_eu = case_maker(_EU, "eu")
_DOUBLE_ON = ("VAR.bj.double-on",)
_HOLE = ("VAR.bj.hole-card",)

EUROPEAN: tuple[Case, ...] = (
    _eu(
        1,
        "double-on/two-card-8-refused",
        _DOUBLE_ON,
        "5S 3D = 8 against 7H: no double on a total outside 9 to 11.",
        _refused("5S 7H 3D TC", "double"),
    ),
    _eu(
        2,
        "double-on/two-card-10",
        _DOUBLE_ON,
        "6S 4D = 10 against 7H, hole TC: double, TS: 20 beats 17; 200 staked, 400 back.",
        _round("6S 7H 4D TC TS", "double", (400,)),
    ),
    _eu(
        3,
        "double-on/two-card-12",
        _DOUBLE_ON,
        "TS 2D = 12 against 7H, hole TC: hit or stand only; stands, 12 loses to 17: 0.",
        _round("TS 7H 2D TC", "stand", (0,)),
    ),
    _eu(
        4,
        "double-on/soft-19",
        _DOUBLE_ON,
        "AS 8D = soft 19 against 7H, hole TC: no double; stands, 19 beats 17: 200.",
        _round("AS 7H 8D TC", "stand", (200,)),
    ),
    _eu(
        5,
        "hole-card/bust-stays-face-down",
        _HOLE,
        "TS 6D = 16 against 7H, hole TC; hits 9C: 25, bust: the hole card stays face down: 0.",
        _round("TS 7H 6D TC 9C", "hit", (0,)),
    ),
    _eu(
        6,
        "hole-card/bust-against-a-six",
        _HOLE,
        "TS 5D = 15 against 6H, hole TC; hits 8C: 23, bust: no showdown, no draw: 0.",
        _round("TS 6H 5D TC 8C", "hit", (0,)),
    ),
    _eu(
        7,
        "hole-card/bust-against-a-ten",
        (*_HOLE, "C.bj.peek"),
        "TS 6D against KH, no look: hits 9C, bust; the hole card (AC) is never shown: 0.",
        _round("TS KH 6D AC 9C", "hit", (0,)),
    ),
    _eu(
        8,
        "hole-card/stood-hand-shown",
        _HOLE,
        "TS 8D = 18 stands against 7H, hole TC: compared, the hole card turned: 200.",
        _round("TS 7H 8D TC", "stand", (200,)),
    ),
    _eu(
        9,
        "peek/late-blackjack-takes-the-double",
        ("C.bj.peek", *_DOUBLE_ON),
        "5S 5D = 10 against KH, no look: double, 9C: 19; the hole card AC makes a blackjack, "
        "which takes both stakes: 0.",
        _round("5S KH 5D AC 9C", "double", (0,)),
    ),
)

_DT = "downtown"
_dt = case_maker(_DT, "dt")
_DFL = ("VAR.bj.double-for-less",)
_INSURE = ("VAR.bj.insurance-stake",)

DOWNTOWN: tuple[Case, ...] = (
    _dt(
        1,
        "double-for-less/40",
        _DFL,
        "5S 6D = 11 against 7H, hole TC (17): double for 40, TS: 21; 140 staked, 280 back.",
        _round("5S 7H 6D TC TS", "double=40", (280,)),
    ),
    _dt(
        2,
        "double-for-less/25",
        _DFL,
        "5S 5D = 10 against 7H, hole TC: double for 25, 9S: 19; 125 staked, 250 back.",
        _round("5S 7H 5D TC 9S", "double=25", (250,)),
    ),
    _dt(
        3,
        "double-for-less/after-a-hit",
        (*_DFL, "VAR.bj.double-on"),
        "2S 3D against 7H, hole TC: hit 4C: 9; double for 60 on three cards, TS: 19; 160 "
        "staked, 320 back.",
        _round("2S 7H 3D TC 4C TS", "hit double=60", (320,)),
    ),
    _dt(
        4,
        "double-for-less/more-than-the-stake",
        _DFL,
        "5S 6D against 7H: a double for 101, more than the hand's 100, is refused.",
        _refused("5S 7H 6D TC TS", "double=101"),
    ),
    _dt(
        5,
        "insurance-stake/20-against-a-blackjack",
        _INSURE,
        "9S 8D against AH, hole KC: insure for 20; the blackjack takes the hand (0) and pays "
        "the insurance 2:1 (60).",
        _round("9S AH 8D KC", "insurance=20", (0, 60)),
    ),
    _dt(
        6,
        "insurance-stake/10-lost",
        _INSURE,
        "9S 8D against AH, hole 7C: insure for 10, lost; 17 stands against soft 18 (H17 "
        "stands on 18): 0 and 0.",
        _round("9S AH 8D 7C", "insurance=10 stand", (0, 0)),
    ),
    _dt(
        7,
        "insurance-stake/1",
        _INSURE,
        "TS 7D against AH, hole KD: insure for 1; blackjack: the hand 0, the insurance 3.",
        _round("TS AH 7D KD", "insurance=1", (0, 3)),
    ),
    _dt(
        8,
        "resplit/aces",
        ("VAR.bj.resplit",),
        "AS AD against 6H, hole TC: split; hand 0 takes AC: split again; the hands AS AD AC "
        "take TD TH TS: three plain 21s; the dealer's 16 draws 6S: 22; 200 each.",
        _round("AS 6H AD TC AC TD TH TS 6S", "split split", (200, 200, 200)),
    ),
)

_AC = "atlantic-city"
_ac = case_maker(_AC, "ac")
_RESPLIT = ("VAR.bj.resplit",)

ATLANTIC_CITY: tuple[Case, ...] = (
    _ac(
        1,
        "resplit/four-hands-then-no-more",
        _RESPLIT,
        "8S 8D against 6H, hole TC: three splits of eights make four hands; hand 0 then "
        "holds 8S 8S, a pair it may not split (four hands at most): it stands on 16; 8D, 8C, "
        "8H take TD, TH, TS: 18s; the dealer's 16 draws 6C: 22; 200 each.",
        _round(
            "8S 6H 8D TC 8C 8H 8S TD TH TS 6C",
            "split split split stand stand stand stand",
            (200, 200, 200, 200),
        ),
    ),
    _ac(
        2,
        "resplit/fifth-hand-refused",
        _RESPLIT,
        "The same eights: a fourth split, for a fifth hand, is refused.",
        _refused("8S 6H 8D TC 8C 8H 8S TD TH TS 6C", "split split split split"),
    ),
    _ac(
        3,
        "resplit/later-pair-with-four-hands",
        _RESPLIT,
        "8S 8D against 6H, hole TC: three splits; hand 0 takes 2S: 10, stands; hand 1 8D "
        "takes 8S, a pair the seat's four hands leave unsplit: stands on 16; 8C, 8H take TH, "
        "TS; the dealer's 16 draws 6C: 22; 200 each.",
        _round(
            "8S 6H 8D TC 8C 8H 2S 8S TH TS 6C",
            "split split split stand stand stand stand",
            (200, 200, 200, 200),
        ),
    ),
    _ac(
        4,
        "surrender/late-too-late",
        ("VAR.bj.surrender", "C.bj.surrender"),
        "TS 6D against KH, hole AC: the look finds a blackjack before anyone acts; late "
        "surrender comes too late: 0.",
        _round("TS KH 6D AC", "", (0,)),
    ),
)

_ACE = "atlantic-city-early-surrender"
_ace = case_maker(_ACE, "ace")
_EARLY = ("VAR.bj.surrender",)

ATLANTIC_CITY_EARLY: tuple[Case, ...] = (
    _ace(
        1,
        "surrender/early-against-a-blackjack",
        _EARLY,
        "TS 6D against KH, hole AC: asked before the look, the hand surrenders; the look "
        "finds a blackjack: 50 back all the same.",
        _round("TS KH 6D AC", "surrender", (50,)),
    ),
    _ace(
        2,
        "surrender/early-declined",
        _EARLY,
        "TS 6D against KH, hole 7C: declines; no blackjack; stands, 16 against 17: 0.",
        _round("TS KH 6D 7C", "decline-surrender stand", (0,)),
    ),
    _ace(
        3,
        "surrender/early-before-insurance",
        (*_EARLY, "A.insurance"),
        "TS 6D against AH, hole KC: asked first, the hand surrenders (no insurance offer "
        "follows); the look finds a blackjack: 50.",
        _round("TS AH 6D KC", "surrender", (50,)),
    ),
    _ace(
        4,
        "surrender/no-look-under-a-nine",
        _EARLY,
        "TS 6D against 9H, hole 8C: nobody looks under a 9; surrender is a play decision: 50.",
        _round("TS 9H 6D 8C", "surrender", (50,)),
    ),
)

#: Every lab case, by the id of its profile in docs/examples.
LAB_CASES: dict[str, tuple[Case, ...]] = {
    _EU: EUROPEAN,
    _DT: DOWNTOWN,
    _AC: ATLANTIC_CITY,
    _ACE: ATLANTIC_CITY_EARLY,
}
