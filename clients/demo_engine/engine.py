"""The demo engine: one vendor engine for blackjack, baccarat and roulette, behind the adapter kit.

``DemoEngine`` implements the kit's ``Engine`` protocol: ``deal`` checks a
request and hands it to the game's dealer, ``decide`` applies a blackjack
decision, ``view`` and ``settle`` read the round back. The house rules of each
profile come from a settings table (``rules.HOUSE_RULES``); the rules
themselves are the small methods of the dealers it inherits.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from croupier.clients.adapter import (
    CURRENCIES,
    DealInput,
    DecisionInput,
    EngineError,
    Line,
    RoundView,
)
from croupier.clients.demo_engine.baccarat import BaccaratDealer, Coup
from croupier.clients.demo_engine.blackjack import BlackjackDealer, BlackjackRound
from croupier.clients.demo_engine.cards import check_cards
from croupier.clients.demo_engine.roulette import RouletteCroupier, Spin, check_bet_format, pockets
from croupier.clients.demo_engine.rules import (
    HOUSE_RULES,
    BaccaratRules,
    BlackjackRules,
    TableRules,
)

Game = BlackjackRound | Coup | Spin

_ID = re.compile(r"[A-Za-z0-9._:/-]{1,128}")
MAX_SEATS = 16
MAX_BETS_PER_SEAT = 64


def game_of(rules: TableRules) -> str:
    """The game a rules table is for: blackjack, baccarat or roulette."""
    if isinstance(rules, BlackjackRules):
        return "blackjack"
    return "baccarat" if isinstance(rules, BaccaratRules) else "roulette"


class DemoEngine(BlackjackDealer, BaccaratDealer, RouletteCroupier):
    """A table-game engine with forced outcomes, for every profile in its rules tables."""

    name = "croupier-demo-engine"
    version = "1.0.0"

    def __init__(self, tables: Mapping[str, TableRules] = HOUSE_RULES) -> None:
        super().__init__()
        self.tables = dict(tables)
        self.profile_ids: Sequence[str] = tuple(self.tables)

    def check_format(self, request: DealInput) -> None:
        """Values malformed in themselves, before any rule: cards, pocket texts, negative balances.

        A negative stake is not malformed: it is below the table minimum (BET_OUT_OF_LIMITS).
        """
        if request.shoe is not None:
            check_cards(request.shoe)
        if request.pocket is not None and request.pocket not in pockets("american"):
            raise EngineError(
                "INVALID_ROUND",
                f"spin.pocket {request.pocket!r} is not a pocket (0 to 36, 00)",
                field="spin.pocket",
            )
        for index, seat in enumerate(request.seats):
            if seat.balance < 0:
                raise EngineError(
                    "INVALID_ROUND", f"seat {index}: the balance is negative", seat=index
                )
            for bet in seat.bets:
                if bet.game == "roulette":
                    check_bet_format(index, bet)

    def valid_currency(self, code: str) -> bool:
        """An ISO 4217 currency with minor units: the kit's list (``clients.adapter.CURRENCIES``)."""
        return code in CURRENCIES

    def check_request(self, request: DealInput, rules: TableRules) -> None:
        """What every round needs: ids, currency, seats the table takes, bets of its game, an outcome."""
        game = game_of(rules)
        for name, value in (("round_id", request.round_id), ("table_id", request.table_id)):
            if not _ID.fullmatch(value):
                raise EngineError(
                    "INVALID_ROUND",
                    f"{name} {value!r} must be 1 to 128 letters, digits or ._:/-",
                    field=name,
                )
        if not self.valid_currency(request.currency):
            raise EngineError(
                "INVALID_ROUND",
                f"currency code {request.currency[:16]!r} is not an ISO 4217 currency",
                field="currency_code",
            )
        if not 1 <= len(request.seats) <= MAX_SEATS:
            raise EngineError(
                "INVALID_ROUND",
                f"a round takes 1 to {MAX_SEATS} seats, got {len(request.seats)}",
                field="seats",
            )
        if len(request.seats) > rules.max_seats:
            raise EngineError(
                "TOO_MANY_SEATS",
                f"this table takes at most {rules.max_seats} seats, got {len(request.seats)}",
                field="seats",
                limit=rules.max_seats,
            )
        for index, seat in enumerate(request.seats):
            if len(seat.bets) > MAX_BETS_PER_SEAT:
                raise EngineError(
                    "INVALID_ROUND",
                    f"seat {index}: at most {MAX_BETS_PER_SEAT} bets are taken",
                    seat=index,
                )
            for bet in seat.bets:
                if bet.game != game:
                    raise EngineError(
                        "INVALID_BET_LAYOUT",
                        f"seat {index}: a {bet.game} bet at a {game} table ({request.profile_id})",
                        seat=index,
                    )
        if game == "roulette" and request.pocket is None:
            raise EngineError("INVALID_ROUND", "a roulette round needs a spin", field="spin")
        if game != "roulette" and request.shoe is None:
            raise EngineError("INVALID_ROUND", f"a {game} round needs a shoe", field="shoe")

    # --- the kit's Engine protocol -----------------------------------------------------

    def deal(self, request: DealInput) -> Game:
        """Start a round from its forced shoe or spin."""
        rules = self.tables.get(request.profile_id)
        if rules is None:
            raise EngineError(
                "UNKNOWN_PROFILE",
                f"this engine does not play {request.profile_id!r}",
                profile=request.profile_id,
            )
        self.check_format(request)
        self.check_request(request, rules)
        shoe = tuple(request.shoe or ())
        if isinstance(rules, BlackjackRules):
            return self.deal_blackjack(rules, request.seats, shoe)
        if isinstance(rules, BaccaratRules):
            return self.deal_baccarat(rules, request.seats, shoe)
        return self.spin_roulette(
            rules, self.board_of(request), request.seats, request.pocket or ""
        )

    def board_of(self, request: DealInput) -> str:
        """The key of the round's board: a board belongs to a profile and a table."""
        return f"{request.profile_id}/{request.table_id}"

    def decide(self, game: Game, decision: DecisionInput) -> Game:
        """Apply a blackjack decision; baccarat and roulette rounds take none."""
        if not isinstance(game, BlackjackRound):
            raise EngineError(
                "ILLEGAL_DECISION", "this round takes no decisions", action=decision.kind, legal=""
            )
        return self.decide_blackjack(game, decision)

    def view(self, game: Game) -> RoundView:
        """What the player sees of the round now."""
        if isinstance(game, BlackjackRound):
            return self.view_blackjack(game)
        if isinstance(game, Coup):
            return self.view_baccarat(game)
        return self.view_roulette(game)

    def settle(self, game: Game) -> Sequence[Line]:
        """The settlement lines of a complete round."""
        if isinstance(game, BlackjackRound):
            return self.settle_blackjack(game)
        return list(game.lines)
