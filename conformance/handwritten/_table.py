"""Hand-written cases every profile shares: one refusal each, for every refusal of the contract.

Each case has exactly one fault and names the error the contract gives it (EngineService in
``engine_service.proto``): an amount in another currency or in none, a code that is not an
ISO 4217 currency is INVALID_ROUND (TABLE.currency); a stake of 0 or below is under the table minimum,
BET_OUT_OF_LIMITS (TABLE.limits); a malformed id, no seat or too many, a negative balance
are INVALID_ROUND; a profile the engine does not know is UNKNOWN_PROFILE; an id used twice
ROUND_EXISTS; a Decide for a round never dealt ROUND_NOT_FOUND; a malformed card INVALID_CARD;
more copies of a card than any profile's eight decks hold SHOE_NOT_IN_PROFILE; a shoe too
short for the deal SHOE_EXHAUSTED. The game's own refusals come from ``game_cases``. Ids
``h090`` to ``h119`` of each profile are reserved for these cases.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from croupier.conformance.cases import NO_CURRENCY, Case, CaseMaker, CaseRound, case_maker
from croupier.oracle.clauses import Game

#: A valid seat of each game, as a format string for its stake.
_SEAT = {
    Game.BLACKJACK: "1000:{stake}",
    Game.BACCARAT: "1000:player={stake}",
    Game.ROULETTE: "1000:red={stake}",
}
#: A round of each game that needs no decision and is complete at once: TS 7H 9D TC is 19
#: against 17 for blackjack (it needs a stand), a player 9 for baccarat; pocket 36 (red).
_SHOE = {Game.BLACKJACK: "TS 7H 9D TC 5C 2D 3C", Game.BACCARAT: "TS 7H 9D TC 5C 2D 3C"}


@dataclass(frozen=True, slots=True)
class _Cases:
    """One profile's builders: a case by number, and a round with one fault."""

    game: Game
    case: CaseMaker

    @property
    def roulette(self) -> bool:
        return self.game is Game.ROULETTE

    def seat(self, stake: str = "100", balance: str = "1000") -> str:
        return _SEAT[self.game].format(stake=stake).replace("1000:", f"{balance}:", 1)

    def round(self, error: str, **fault: Any) -> CaseRound:
        """A valid round of the game but for ``fault``, refused with ``error``."""
        base = CaseRound(
            seats=(self.seat(),),
            shoe="" if self.roulette else _SHOE[self.game],
            pocket="36" if self.roulette else "",
            error=error,
        )
        return dataclasses.replace(base, **fault)


def table_cases(
    profile: str, prefix: str, game: Game, *, limits: tuple[str, ...]
) -> tuple[Case, ...]:
    """The shared cases, named and numbered for one profile; ``limits`` cites its limits."""
    t = _Cases(game=game, case=case_maker(profile, prefix))
    case, round_ = t.case, t.round
    played = dataclasses.replace(
        round_(""),
        error="",
        decisions="stand" if game is Game.BLACKJACK else "",
        returns=(200,),
    )
    waiting = "TS 7H 9D TC 5C"
    common = (
        case(
            90,
            "currency/stake-in-another-currency",
            ("TABLE.currency",),
            "A stake in GBP in a EUR round is refused: INVALID_ROUND.",
            round_("INVALID_ROUND", stake_currency="GBP"),
        ),
        case(
            91,
            "currency/code-not-iso-4217",
            ("TABLE.currency",),
            "A round whose currency code is 'eur' (not three capital letters) is refused.",
            round_("INVALID_ROUND", currency="eur"),
        ),
        case(
            108,
            "currency/code-not-a-currency",
            ("TABLE.currency",),
            "A round in 'XYZ', three capital letters that ISO 4217 does not list, is refused: "
            "INVALID_ROUND.",
            round_("INVALID_ROUND", currency="XYZ"),
        ),
        case(
            109,
            "currency/stake-without-a-currency",
            ("TABLE.currency",),
            "A stake that names no currency is not in the round's currency: INVALID_ROUND.",
            round_("INVALID_ROUND", stake_currency=NO_CURRENCY),
        ),
        case(
            92,
            "limits/zero-stake",
            limits,
            "A stake of 0 is below the table minimum of 1: BET_OUT_OF_LIMITS.",
            round_("BET_OUT_OF_LIMITS", seats=(t.seat(stake="0"),)),
        ),
        case(
            93,
            "limits/negative-stake",
            limits,
            "A stake of -5 is below the table minimum of 1: BET_OUT_OF_LIMITS.",
            round_("BET_OUT_OF_LIMITS", seats=(t.seat(stake="-5"),)),
        ),
        case(
            94,
            "request/round-id-with-a-space",
            ("CONTRACT.request",),
            "A round id holding a space is not an id: INVALID_ROUND.",
            round_("INVALID_ROUND", round_id="bad id"),
        ),
        case(
            95,
            "request/round-id-too-long",
            ("CONTRACT.request",),
            "A round id of 129 characters is one too many: INVALID_ROUND.",
            round_("INVALID_ROUND", round_id="r" * 129),
        ),
        case(
            96,
            "request/no-seat",
            ("CONTRACT.request",),
            "A round needs at least one seat: INVALID_ROUND.",
            round_("INVALID_ROUND", seats=()),
        ),
        case(
            97,
            "request/seventeen-seats",
            ("CONTRACT.request",),
            "A round takes at most 16 seats: 17 are refused with INVALID_ROUND.",
            round_("INVALID_ROUND", seats=(t.seat(stake="10"),) * 17),
        ),
        case(
            98,
            "request/negative-balance",
            ("CONTRACT.request",),
            "A balance of -5 is not a balance: INVALID_ROUND.",
            round_("INVALID_ROUND", seats=(t.seat(balance="-5"),)),
        ),
        case(
            99,
            "request/unknown-profile",
            ("CONTRACT.request",),
            "A Deal naming a profile the engine does not know is refused: UNKNOWN_PROFILE.",
            round_("UNKNOWN_PROFILE", profile_id="no-such-profile"),
        ),
        case(
            100,
            "lifecycle/round-id-used-twice",
            ("CONTRACT.lifecycle",),
            "A round id is used once: dealing it again, even settled, is ROUND_EXISTS.",
            played,
            round_("ROUND_EXISTS", reuse=0),
        ),
        case(
            101,
            "lifecycle/decide-on-a-round-never-dealt",
            ("CONTRACT.lifecycle",),
            "A Decide naming a round that was never dealt is ROUND_NOT_FOUND.",
            round_("ROUND_NOT_FOUND", stray_decision="stand", shoe="" if t.roulette else waiting),
        ),
    )
    return common + _outcome_cases(t) + _decision_cases(t, waiting)


def _outcome_cases(t: _Cases) -> tuple[Case, ...]:
    """Faults of the outcome source: a card, a shoe, a pocket."""
    if t.roulette:
        return (
            t.case(
                102,
                "request/pocket-not-on-any-wheel",
                ("CONTRACT.request",),
                "The spin names pocket 37, which no wheel has: INVALID_ROUND.",
                t.round("INVALID_ROUND", pocket="37"),
            ),
        )
    deal = "BJ.deal" if t.game is Game.BLACKJACK else "BAC.deal"
    return (
        t.case(
            102,
            "request/malformed-card",
            ("CONTRACT.request",),
            "A card written '1S' is no card (ranks A23456789TJQK): INVALID_CARD.",
            t.round("INVALID_CARD", shoe="TS 7H 1S TC 5C 2D 3C"),
        ),
        t.case(
            103,
            "shoe/more-copies-than-eight-decks",
            ("CONTRACT.request",),
            "Nine aces of spades cannot come from eight decks or fewer: SHOE_NOT_IN_PROFILE.",
            t.round("SHOE_NOT_IN_PROFILE", shoe="TS 7H 9D TC" + " AS" * 9),
        ),
        t.case(
            104,
            "shoe/too-short-for-the-deal",
            (deal,),
            "A shoe of three cards cannot deal two cards to each hand: SHOE_EXHAUSTED.",
            t.round("SHOE_EXHAUSTED", shoe="TS 7H 9D"),
        ),
    )


def _decision_cases(t: _Cases, waiting: str) -> tuple[Case, ...]:
    """Decisions refused whatever the rules of play: the wrong kind, hand or moment."""
    if t.game is not Game.BLACKJACK:
        return (
            t.case(
                105,
                "decisions/none-in-this-game",
                ("CONTRACT.request",),
                f"A {t.game.value} round takes no decision: a Decide is ILLEGAL_DECISION.",
                t.round("ILLEGAL_DECISION", decisions="0/0:hit"),
            ),
        )
    return (
        t.case(
            105,
            "decisions/kind-not-set",
            ("CONTRACT.request",),
            "A Decide whose decision kind is not set is ILLEGAL_DECISION.",
            t.round("ILLEGAL_DECISION", decisions="unspecified", shoe=waiting),
        ),
        t.case(
            106,
            "decisions/another-seat-s-turn",
            ("CONTRACT.request",),
            "A decision for seat 1 while seat 0 is to act is ILLEGAL_DECISION.",
            # Seat 0 TS 7H = 17 is to act first; seat 1 (9C TC) is addressed instead.
            t.round(
                "ILLEGAL_DECISION",
                seats=("1000:100", "1000:100"),
                shoe="TS 9C 7D 7H TC 5C 2D 3C",
                decisions="1/0:stand",
            ),
        ),
        t.case(
            107,
            "lifecycle/settle-before-the-end",
            ("CONTRACT.lifecycle",),
            "Settle while the round waits for a decision is ROUND_NOT_COMPLETE.",
            t.round("ROUND_NOT_COMPLETE", shoe=waiting),
        ),
    )
