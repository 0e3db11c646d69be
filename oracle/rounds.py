"""Rounds of any game behind one interface.

``start_round`` and ``apply_decision`` are pure: they check a round request
(ids, currency, seats, wagers of the profile's game) and hand it to the game's
rules, found by the profile's game (``_GAMES``). A ``Round`` answers the same
questions whatever its game: complete, settlement, cards dealt, legal decisions,
and the clauses behind each value (``oracle.provenance``).
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Final, Protocol, TypeVar

from croupier.oracle import baccarat, blackjack, roulette
from croupier.oracle.clauses import Game
from croupier.oracle.decision import Action, Decision
from croupier.oracle.errors import (
    InvalidBetLayoutError,
    InvalidRoundError,
    RoundNotCompleteError,
    TooManySeatsError,
    shown,
)
from croupier.oracle.money import is_currency
from croupier.oracle.profile import Profile
from croupier.oracle.settlement import SettlementLine, settlement_citations

if TYPE_CHECKING:
    from croupier.oracle.cards import Card

# Final: compiled, a round reads these from C statics, not the module's dict (oracle.blackjack).

#: What an id is made of (CONTRACT.round-id): 1 to 128 of these.
_ID_CHARACTERS: Final = string.ascii_letters + string.digits + "._:/-"
MAX_SEATS: Final = 16
MAX_BETS_PER_SEAT: Final = 64


@dataclass(frozen=True, slots=True, kw_only=True)
class BlackjackWager:
    """A seat's stake on its blackjack box."""

    amount: int


Wager = BlackjackWager | baccarat.BaccaratBet | roulette.RouletteBet
_Bet = TypeVar("_Bet", baccarat.BaccaratBet, roulette.RouletteBet)


class GameRound(Protocol):
    """What every game's round answers, whichever the game (``BlackjackState``...)."""

    @property
    def complete(self) -> bool:
        """Whether the round has ended."""
        ...

    @property
    def dealt(self) -> tuple[Card, ...]:
        """Every card taken from the shoe so far, in dealing order."""
        ...

    @property
    def legal(self) -> tuple[Action, ...]:
        """The decisions open now."""
        ...

    @property
    def settlement(self) -> tuple[SettlementLine, ...]:
        """The settlement, once complete."""
        ...

    @property
    def history(self) -> roulette.TableHistory | None:
        """The table's board after the round (roulette); None for a card game."""
        ...

    def citations(self) -> dict[str, tuple[str, ...]]:
        """The clauses behind every value of the round state (``oracle.provenance``)."""
        ...

    def decide(self, decision: Decision) -> GameRound:
        """The round after one player decision; ``IllegalDecisionError`` where none is taken."""
        ...


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatRequest:
    """A seat joining a round: its funds and its wagers."""

    balance: int
    wagers: tuple[Wager, ...]


@dataclass(frozen=True, slots=True, kw_only=True, init=False)
class RoundRequest:
    """Everything a round starts from, the forced outcome included."""

    round_id: str
    profile_id: str
    table_id: str
    currency: str
    seats: tuple[SeatRequest, ...]
    shoe: tuple[Card, ...] | None = None
    pocket: int | None = None

    # Written out (init=False): mypyc compiles it, where a generated __init__ runs as Python
    # (``oracle.immutable``); a round makes these at every step.
    def __init__(
        self,
        *,
        round_id: str,
        profile_id: str,
        table_id: str,
        currency: str,
        seats: tuple[SeatRequest, ...],
        shoe: tuple[Card, ...] | None = None,
        pocket: int | None = None,
    ) -> None:
        object.__setattr__(self, "round_id", round_id)
        object.__setattr__(self, "profile_id", profile_id)
        object.__setattr__(self, "table_id", table_id)
        object.__setattr__(self, "currency", currency)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "shoe", shoe)
        object.__setattr__(self, "pocket", pocket)


#: What identifies a round's request, whatever the game: CONTRACT.round-id; and the one
#: currency of every amount: TABLE.currency.
_ROUND_CITATIONS: Final[dict[str, tuple[str, ...]]] = {
    "round_id": ("CONTRACT.round-id",),
    "profile_id": ("CONTRACT.round-id",),
    "*.currency_code": ("TABLE.currency",),
}


@dataclass(frozen=True, slots=True, kw_only=True, init=False)
class Round:
    """A round under way or complete: its request, its profile and the game's state."""

    request: RoundRequest
    profile: Profile
    game: GameRound
    decisions: tuple[Decision, ...] = ()

    # Written out (init=False): mypyc compiles it, where a generated __init__ runs as Python
    # (``oracle.immutable``); a round makes these at every step.
    def __init__(
        self,
        *,
        request: RoundRequest,
        profile: Profile,
        game: GameRound,
        decisions: tuple[Decision, ...] = (),
    ) -> None:
        object.__setattr__(self, "request", request)
        object.__setattr__(self, "profile", profile)
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "decisions", decisions)

    @property
    def complete(self) -> bool:
        """Whether the round has ended."""
        return self.game.complete

    @property
    def settlement(self) -> tuple[SettlementLine, ...]:
        """The settlement; ``RoundNotCompleteError`` while decisions are awaited."""
        if not self.game.complete:
            legal = ",".join(a.value for a in self.game.legal)
            raise RoundNotCompleteError(
                f"round {self.request.round_id!r} is not complete: it waits for a decision "
                f"({legal})",
                round_id=self.request.round_id,
                legal=legal,
            )
        return self.game.settlement

    @property
    def cards_dealt(self) -> tuple[Card, ...]:
        """Every card taken from the shoe so far, in dealing order."""
        return self.game.dealt

    @property
    def legal(self) -> tuple[Action, ...]:
        """The decisions open now (blackjack only)."""
        return self.game.legal

    @property
    def history(self) -> roulette.TableHistory | None:
        """The table's board after this round, for a roulette round."""
        return self.game.history

    def citations(self) -> dict[str, tuple[str, ...]]:
        """Why every value of the round state is what it is, by path (``oracle.provenance``)."""
        return {**_ROUND_CITATIONS, **self.game.citations()}

    def settlement_citations(self) -> dict[str, tuple[str, ...]]:
        """Why every line of the settlement returns what it does (``oracle.provenance``)."""
        rounding = self.profile.citations()("rounding")
        return settlement_citations(self.settlement, rounding)

    def accepted(self) -> dict[str, tuple[str, ...]]:
        """Why the deal was not refused, keyed ``error=REASON`` (``oracle.provenance``)."""
        return {
            **_GAMES[self.profile.game].accepted(self.profile),
            **_seat_citations(self.profile),
        }


@cache
def blackjack_rules(profile: Profile) -> blackjack.BlackjackRules:
    """The typed blackjack rules of a profile (cached: profiles are immutable)."""
    return blackjack.BlackjackRules.from_profile(profile)


@cache
def baccarat_rules(profile: Profile) -> baccarat.BaccaratRules:
    """The typed baccarat rules of a profile (cached)."""
    return baccarat.BaccaratRules.from_profile(profile)


@cache
def roulette_rules(profile: Profile) -> roulette.RouletteRules:
    """The typed roulette rules of a profile (cached)."""
    return roulette.RouletteRules.from_profile(profile)


def _check_request(request: RoundRequest, profile: Profile) -> None:
    for name, value in (("round_id", request.round_id), ("table_id", request.table_id)):
        # Stripped of the id characters, an id leaves nothing: a C-level test, where a regular
        # expression costs a round a few per cent.
        if not 1 <= len(value) <= 128 or value.strip(_ID_CHARACTERS):
            raise InvalidRoundError(
                f"{name} {shown(value)} must be 1 to 128 letters, digits or ._:/-",
                field=name,
                value=value,
            )
    if not is_currency(request.currency):
        raise InvalidRoundError(
            f"currency code {shown(request.currency)} is not an ISO 4217 currency "
            "with minor units, such as EUR",
            field="currency_code",
            value=request.currency,
            clause="TABLE.currency",
        )
    if not request.seats:
        raise InvalidRoundError("a round needs at least one seat", field="seats")
    if len(request.seats) > MAX_SEATS:
        raise InvalidRoundError(
            f"a round takes at most {MAX_SEATS} seats, got {len(request.seats)}", field="seats"
        )
    if len(request.seats) > 1:
        # A profile's max_seats is at least 1 (its parameter's minimum): one seat always sits.
        _check_seat_count(profile, len(request.seats))
    kind = _GAMES[profile.game]
    for index, seat in enumerate(request.seats):
        if len(seat.wagers) > MAX_BETS_PER_SEAT:
            raise InvalidRoundError(
                f"seat {index} has {len(seat.wagers)} bets; at most {MAX_BETS_PER_SEAT} are taken",
                seat=index,
            )
        for wager in seat.wagers:
            if not isinstance(wager, kind.wager):
                raise InvalidBetLayoutError(
                    f"seat {index}: a {type(wager).__name__} is not a {profile.game.value} bet "
                    f"(profile {profile.id})",
                    seat=index,
                    profile=profile.id,
                )
    if kind.uses_shoe and request.shoe is None:
        raise InvalidRoundError(f"a {profile.game.value} round needs a shoe", field="shoe")
    if not kind.uses_shoe and request.pocket is None:
        raise InvalidRoundError("a roulette round needs a spin", field="spin")


@cache
def _seat_limit(profile: Profile) -> int:
    """The profile's ``max_seats`` (cached: every round asks)."""
    return profile.integer("max_seats")


def _check_seat_count(profile: Profile, seats: int) -> None:
    """The table takes at most ``max_seats`` seats; a round with more is not dealt (TABLE.seats)."""
    limit = _seat_limit(profile)
    if seats > limit:
        raise TooManySeatsError(
            f"this table takes at most {limit} seat(s), got {seats}",
            field="seats",
            limit=limit,
            seats=seats,
            clause=profile.citations()("max_seats")[0],
        )


def _seat_citations(profile: Profile) -> dict[str, tuple[str, ...]]:
    """Why a deal is not refused for its seats: only where the profile sets a limit."""
    if profile.parameter("max_seats") is None:
        return {}
    return {"error=TOO_MANY_SEATS": profile.citations()("max_seats")}


def _shoe(request: RoundRequest) -> tuple[Card, ...]:
    if request.shoe is None:
        raise InvalidRoundError("a card game round needs a shoe", field="shoe")
    return request.shoe


def _start_blackjack(
    profile: Profile, request: RoundRequest, _board: roulette.TableHistory | None
) -> GameRound:
    seats = []
    for index, seat in enumerate(request.seats):
        stakes = [w.amount for w in seat.wagers if isinstance(w, BlackjackWager)]
        if len(stakes) != 1:
            raise InvalidRoundError(
                f"blackjack seat {index} must have exactly one bet, got {len(stakes)}",
                seat=index,
            )
        seats.append(blackjack.BlackjackSeat(balance=seat.balance, stake=stakes[0]))
    return blackjack.deal(blackjack_rules(profile), _shoe(request), seats)


def _start_baccarat(
    profile: Profile, request: RoundRequest, _board: roulette.TableHistory | None
) -> GameRound:
    seats = [
        baccarat.BaccaratSeat(balance=seat.balance, bets=_bets(seat, baccarat.BaccaratBet))
        for seat in request.seats
    ]
    return baccarat.play_round(baccarat_rules(profile), _shoe(request), seats)


def _bets(seat: SeatRequest, kind: type[_Bet]) -> tuple[_Bet, ...]:
    return tuple(w for w in seat.wagers if isinstance(w, kind))


def _start_roulette(
    profile: Profile, request: RoundRequest, board: roulette.TableHistory | None
) -> GameRound:
    seats = [
        roulette.RouletteSeat(balance=seat.balance, bets=_bets(seat, roulette.RouletteBet))
        for seat in request.seats
    ]
    if request.pocket is None:
        raise InvalidRoundError("a roulette round needs a spin", field="spin")
    history = board if board is not None else roulette.TableHistory.new(request.table_id)
    return roulette.spin_round(roulette_rules(profile), history, request.pocket, seats)


@dataclass(frozen=True, slots=True, kw_only=True)
class _GameKind:
    """How a round of one game starts: its wager type, outcome source and rules."""

    wager: type[Wager]
    uses_shoe: bool
    start: Callable[[Profile, RoundRequest, roulette.TableHistory | None], GameRound]
    accepted: Callable[[Profile], dict[str, tuple[str, ...]]]


_GAMES: Final[dict[Game, _GameKind]] = {
    Game.BLACKJACK: _GameKind(
        wager=BlackjackWager,
        uses_shoe=True,
        start=_start_blackjack,
        accepted=lambda profile: blackjack.accepted(blackjack_rules(profile)),
    ),
    Game.BACCARAT: _GameKind(
        wager=baccarat.BaccaratBet,
        uses_shoe=True,
        start=_start_baccarat,
        accepted=lambda profile: baccarat.accepted(baccarat_rules(profile)),
    ),
    Game.ROULETTE: _GameKind(
        wager=roulette.RouletteBet,
        uses_shoe=False,
        start=_start_roulette,
        accepted=lambda profile: roulette.accepted(roulette_rules(profile)),
    ),
}


def start_round(
    profile: Profile, request: RoundRequest, history: roulette.TableHistory | None = None
) -> Round:
    """Check a request and play it as far as the rules go without a decision."""
    _check_request(request, profile)
    game = _GAMES[profile.game].start(profile, request, history)
    return Round(request=request, profile=profile, game=game)


def apply_decision(current: Round, decision: Decision) -> Round:
    """Apply one player decision; baccarat and roulette rounds take none."""
    game = current.game.decide(decision)
    return Round(
        request=current.request,
        profile=current.profile,
        game=game,
        decisions=(*current.decisions, decision),
    )
