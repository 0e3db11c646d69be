"""Hand-written cases every profile shares: one currency per round, the table limits.

Each case has exactly one fault and names the error the contract gives it: an amount in
another currency or a code that is not ISO 4217 is INVALID_ROUND (TABLE.currency); a stake of
0 or below is under the table minimum, BET_OUT_OF_LIMITS (TABLE.limits). Ids ``h090`` to
``h099`` of each profile are reserved for them.
"""

from __future__ import annotations

from conformance.cases import Case, CaseRound, case_maker
from oracle.clauses import Game

#: A valid seat of each game, as a format string for its stake.
_SEAT = {
    Game.BLACKJACK: "1000:{stake}",
    Game.BACCARAT: "1000:player={stake}",
    Game.ROULETTE: "1000:red={stake}",
}


def table_cases(
    profile: str, prefix: str, game: Game, *, limits: tuple[str, ...]
) -> tuple[Case, ...]:
    """The shared cases, named and numbered for one profile; ``limits`` cites its limits."""

    def round_(
        stake: str, error: str, *, currency: str = "EUR", stake_currency: str = ""
    ) -> CaseRound:
        seats = (_SEAT[game].format(stake=stake),)
        # Enough cards for any round of either card game; a refused deal uses none of them.
        roulette = game is Game.ROULETTE
        return CaseRound(
            seats=seats,
            shoe="" if roulette else "TS 7H 9D TC 5C 2D 3C",
            pocket="36" if roulette else "",
            error=error,
            currency=currency,
            stake_currency=stake_currency,
        )

    case = case_maker(profile, prefix)

    return (
        case(
            90,
            "currency/stake-in-another-currency",
            ("TABLE.currency",),
            "A stake in GBP in a EUR round is refused: INVALID_ROUND.",
            round_("100", "INVALID_ROUND", stake_currency="GBP"),
        ),
        case(
            91,
            "currency/code-not-iso-4217",
            ("TABLE.currency",),
            "A round whose currency code is 'eur' (not three capital letters) is refused.",
            round_("100", "INVALID_ROUND", currency="eur"),
        ),
        case(
            92,
            "limits/zero-stake",
            limits,
            "A stake of 0 is below the table minimum of 1: BET_OUT_OF_LIMITS.",
            round_("0", "BET_OUT_OF_LIMITS"),
        ),
        case(
            93,
            "limits/negative-stake",
            limits,
            "A stake of -5 is below the table minimum of 1: BET_OUT_OF_LIMITS.",
            round_("-5", "BET_OUT_OF_LIMITS"),
        ),
    )
