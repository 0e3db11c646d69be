"""Logs of rounds played by the oracle itself: fair or stacked shoes and wheels, small and fast."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from croupier.clients.audit import AuditWriter
from croupier.oracle.baccarat import BaccaratBet, CoupOutcome
from croupier.oracle.baccarat import BetKind as BaccaratKind
from croupier.oracle.cards import Rank
from croupier.oracle.decision import Action, Decision
from croupier.oracle.profile import resolve_profile
from croupier.oracle.roulette import BetKind, RouletteBet, TableHistory
from croupier.oracle.rounds import (
    BlackjackWager,
    Round,
    RoundRequest,
    SeatRequest,
    apply_decision,
    baccarat_rules,
    blackjack_rules,
    start_round,
)
from croupier.oracle.service import convert
from croupier.oracle.shoe import seeded_shoe
from croupier.v1 import round_pb2

TENS = frozenset({Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING})


def round_request(
    profile_id: str, n: int, wagers: tuple[object, ...], **outcome: object
) -> RoundRequest:
    return RoundRequest(
        round_id=f"{profile_id}-{n}",
        profile_id=profile_id,
        table_id=f"{profile_id}-table",
        currency="EUR",
        seats=(SeatRequest(balance=10_000, wagers=wagers),),  # type: ignore[arg-type]
        **outcome,  # type: ignore[arg-type]
    )


def blackjack_rounds(rounds: int, *, stacked: bool) -> Iterator[Round]:
    profile = resolve_profile("blackjack-a")
    for n in range(rounds):
        shoe = seeded_shoe(f"bj-{n}", blackjack_rules(profile).decks)
        if stacked:
            shoe = tuple(c for c in shoe if c.rank not in TENS)
        current = start_round(
            profile, round_request(profile.id, n, (BlackjackWager(amount=10),), shoe=shoe)
        )
        while not current.complete:
            turn = current.game.turn  # type: ignore[attr-defined]
            action = next(
                a
                for a in (Action.DECLINE_INSURANCE, Action.DECLINE_EVEN_MONEY, Action.STAND)
                if a in current.legal
            )
            current = apply_decision(
                current, Decision(seat=turn.seat, hand=turn.hand, action=action)
            )
        yield current


def baccarat_rounds(rounds: int, *, stacked: bool) -> Iterator[Round]:
    profile = resolve_profile("baccarat-c")
    bets = (
        BaccaratBet(kind=BaccaratKind.PLAYER, amount=10),
        BaccaratBet(kind=BaccaratKind.BANKER, amount=10),
        BaccaratBet(kind=BaccaratKind.TIE, amount=1),
    )
    decks = baccarat_rules(profile).decks
    for n in range(rounds):
        current = start_round(
            profile, round_request(profile.id, n, bets, shoe=seeded_shoe(f"b-{n}", decks))
        )
        if stacked and current.game.coup.outcome is CoupOutcome.PLAYER:  # type: ignore[attr-defined]
            # A dealer who reshuffles when the player would win: the banker wins far too often.
            shoe = seeded_shoe(f"b-{n}-again", decks)
            current = start_round(profile, round_request(profile.id, n, bets, shoe=shoe))
        yield current


def roulette_rounds(
    pockets: Callable[[int], int], rounds: int, bets: tuple[RouletteBet, ...]
) -> Iterator[Round]:
    profile = resolve_profile("roulette-c")
    board: TableHistory | None = None
    for n in range(rounds):
        current = start_round(profile, round_request(profile.id, n, bets, pocket=pockets(n)), board)
        board = current.history
        yield current


STRAIGHT = RouletteBet(kind=BetKind.STRAIGHT, numbers=(17,), amount=1)
RED = RouletteBet(kind=BetKind.RED, numbers=(), amount=5)


def write_rounds(
    path: Path,
    rounds: Iterator[Round],
    fmt: str = "binary",
    change: Callable[[int, round_pb2.RoundRecord], object] | None = None,
) -> Path:
    """Log the rounds, chained; ``change`` edits record n (from 0) before it is chained."""
    writer = AuditWriter.open(path, fmt, durable=False)
    try:
        for n, current in enumerate(rounds):
            record = convert.round_record(current)
            if change is not None:
                change(n, record)
            writer.append(record)
    finally:
        writer.close()
    return path
