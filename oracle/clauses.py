"""The clause IDs of RULES.md, each with the game it belongs to and a short title.

Code, profiles, vectors and reports cite rules by these IDs; citing an ID not
listed here is an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.oracle.errors import ProfileError
from croupier.oracle.immutable import Choice


class Game(Choice):
    """The three games the oracle knows."""

    BLACKJACK = "blackjack"
    BACCARAT = "baccarat"
    ROULETTE = "roulette"


@dataclass(frozen=True, slots=True, kw_only=True)
class Clause:
    """One numbered rule of RULES.md."""

    id: str
    #: The game the clause belongs to; None for the clauses of every game (money, limits).
    game: Game | None
    title: str
    #: A variant a lab may choose (RULES.md "Variants a lab may choose"): only the profiles
    #: that choose it cite it, so only their corpora must cover it.
    variant: bool = False


_BJ, _BAC, _ROU, _ALL = Game.BLACKJACK, Game.BACCARAT, Game.ROULETTE, None

CLAUSES: tuple[Clause, ...] = tuple(
    Clause(id=cid, game=game, title=title, variant=cid.startswith("VAR.") or cid == "TABLE.seats")
    for cid, game, title in (
        ("BJ.values", _BJ, "Card values; an ace counts 11 unless that busts; soft hands"),
        ("BJ.deal", _BJ, "Two cards to each seat, an up card and a hole card to the dealer"),
        ("BJ.deal-order", _BJ, "The contract's dealing order, split hands dealt as they start"),
        ("BJ.bust", _BJ, "A hand over 21 loses at once"),
        ("BJ.auto-stand", _BJ, "A hand that reaches 21 stands; a blackjack has no decisions"),
        ("BJ.dealer-needed", _BJ, "The dealer draws only if some hand waits for its total"),
        ("BJ.half-stakes", _BJ, "Insurance stake and surrender refund are half, rounded down"),
        ("BJ.natural", _BJ, "A blackjack is an ace and a ten-valued card as the first two"),
        ("BJ.compare", _BJ, "Higher total wins 1:1, dealer bust pays, equal totals push"),
        ("BJ.nat-pays", _BJ, "A blackjack pays 3:2 unless the dealer has one too"),
        ("BJ.funds", _BJ, "Extra stakes need the seat's uncommitted funds"),
        ("A.double", _BJ, "A: double any two-card hand but a blackjack, one card"),
        ("A.split", _BJ, "A: split same rank or two pictures; two hands at most"),
        ("A.dealer-draw", _BJ, "A: dealer draws to 16, stands on every 17 (assumed)"),
        ("A.peek", _BJ, "A: dealer peeks under an ace or a ten before the player acts"),
        ("A.nat-immediate", _BJ, "A: a blackjack against 2-9 is paid at once"),
        ("A.even-money", _BJ, "A: a blackjack against an ace is offered even money"),
        ("A.nat-vs-ten", _BJ, "A: a blackjack against a ten waits for the dealer's reveal"),
        ("A.insurance", _BJ, "A: insurance of half the stake against an ace, pays 2:1"),
        ("A.surrender", _BJ, "A: no surrender"),
        ("C.bj.dealer-draw", _BJ, "C: dealer stands on 17 to 21, draws on 16 or less"),
        ("C.bj.double", _BJ, "C: double on the first two cards, also after a split"),
        ("C.bj.split", _BJ, "C: split same rank only; split 21 is not a blackjack"),
        ("C.bj.surrender", _BJ, "C: surrender the first two cards for half the stake"),
        ("C.bj.insurance", _BJ, "C: insurance pays 2:1; no double or split after it"),
        ("C.bj.peek", _BJ, "C: peek only under an ace; a late dealer blackjack takes all"),
        ("C.bj.no-withdraw", _BJ, "C: stakes cannot be withdrawn once cards are dealt"),
        ("BAC.values", _BAC, "Ace 1, 2-9 face, tens and pictures 0; total modulo 10"),
        ("BAC.deal", _BAC, "Player, banker, player, banker; third cards player first"),
        ("BAC.natural", _BAC, "An 8 or 9 on two cards: both hands stand"),
        ("BAC.player-draw", _BAC, "The player draws on 0-5, stands on 6-7"),
        ("BAC.banker-stood", _BAC, "Player stood: banker draws on 0-5, stands on 6-7"),
        ("BAC.banker-tableau", _BAC, "Player drew: banker acts by the tableau"),
        ("BAC.outcome", _BAC, "The higher value wins; equal values tie"),
        ("BAC.pay-player", _BAC, "A winning player bet pays 1:1"),
        ("BAC.pay-banker", _BAC, "A winning banker bet pays 1:1 less 5% commission"),
        ("BAC.pay-tie", _BAC, "A winning tie bet pays 8:1"),
        ("BAC.tie-push", _BAC, "On a tie, player and banker bets push"),
        ("B.decks", _BAC, "B: eight decks"),
        ("B.tableau", _BAC, "B: the banker's tableau as printed"),
        ("B.limits", _BAC, "B: bets within the table limits"),
        ("C.bac.decks", _BAC, "C: six decks, a fresh shoe every round"),
        ("D.decks", _BAC, "D: decks not stated, eight assumed"),
        ("C.rou.wheel", _ROU, "Pockets, colours, layout, bets and their odds"),
        ("C.rou.zero-loses", _ROU, "Zero makes outside bets lose"),
        ("C.rou.geometry", _ROU, "A bet that is not a shape of the layout is refused"),
        ("C.rou.history", _ROU, "The board shows the 13 previous results"),
        ("US.rou.wheel", _ROU, "American: 38 pockets, 0 and 00, C's colours (assumed)"),
        ("US.rou.geometry", _ROU, "American: C's shapes and odds, this layout's zero shapes"),
        ("US.rou.zero-loses", _ROU, "American: 0 and 00 make outside bets lose (assumed)"),
        ("MONEY.rounding", _ALL, "Exact amounts, rounded once by the profile's rule"),
        ("TABLE.limits", _ALL, "Every stake within the profile's minimum and maximum bet"),
        ("TABLE.currency", _ALL, "One currency for every amount of a round"),
        ("VAR.bj.double-on", _BJ, "Variant: which hands may double"),
        ("VAR.bj.double-for-less", _BJ, "Variant: a double's extra stake up to the hand's stake"),
        ("VAR.bj.insurance-stake", _BJ, "Variant: an insurance stake of half, or up to half"),
        ("VAR.bj.resplit", _BJ, "Variant: re-splits up to 8 hands; re-splitting aces"),
        ("VAR.bj.surrender", _BJ, "Variant: no, late or early surrender"),
        ("VAR.bj.hole-card", _BJ, "Variant: the hole card shown always, or at a showdown"),
        ("VAR.bac.ez", _BAC, "Variant: no commission; a banker three-card 7 pushes"),
        ("VAR.bac.banker-six", _BAC, "Variant: a banker win on 6 pays the given odds"),
        ("VAR.rou.bets-offered", _ROU, "Variant: the bet kinds a table offers"),
        ("VAR.rou.en-prison", _ROU, "Variant: even-money bets imprisoned on a zero"),
        ("TABLE.seats", _ALL, "The most seats a round may have at the table"),
    )
)

BY_ID: dict[str, Clause] = {clause.id: clause for clause in CLAUSES}

#: What the contract itself requires, cited where no rule of RULES.md decides: protocol
#: failures, request syntax, the round lifecycle. ``proto/croupier/conformance/v1/vector.proto``
#: documents the same labels.
CONTRACT: dict[str, str] = {
    "CONTRACT.timeout": "The engine gave no answer within the call's deadline.",
    "CONTRACT.crash": "The engine process died, or the connection dropped during the call.",
    "CONTRACT.unreachable": "No engine answered at the address, or it did not start.",
    "CONTRACT.malformed": "The answer does not decode as the call's response message.",
    "CONTRACT.stale": "The answer repeats the state of an earlier call, not this call's own.",
    "CONTRACT.round-id": "The answer names another round or profile than the request.",
    "CONTRACT.status-code": "A refusal carries another status code than its reason's.",
    "CONTRACT.error-reason": "A refusal has no ErrorInfo, or another reason than the contract's.",
    "CONTRACT.error-metadata": "A refusal lacks a metadata key its reason requires.",
    "CONTRACT.refusal": "A request the rules accept was refused.",
    "CONTRACT.settlement": "One line per bet or hand in order; totals are the sums of the lines.",
    "CONTRACT.request": "Ids, seat and bet counts, cards, pockets, profile and bet kinds.",
    "CONTRACT.lifecycle": "Round ids are unique; Decide and Settle need an open round.",
    "CONTRACT.balance": "A seat's stakes together must not exceed its balance.",
    # RULES.md "Contract additions of this project": the one label RULES.md itself defines.
    "CONTRACT.recovery": "After a restart, open rounds and tables go on as without it.",
}


def citable(cid: str) -> bool:
    """Whether a report may cite this ID: a RULES.md clause or a contract label."""
    return cid in BY_ID or cid in CONTRACT


def clause(clause_id: str) -> Clause:
    """The clause with this ID; ``ProfileError`` if RULES.md has no such clause."""
    try:
        return BY_ID[clause_id]
    except KeyError:
        raise ProfileError(f"unknown clause {clause_id!r}", clause=clause_id) from None
