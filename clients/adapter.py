"""The adapter kit: turn a vendor's Python engine into a Croupier ``EngineService``.

The vendor implements ``Engine`` with plain Python values (no protobuf): deal a
round from a forced shoe or spin, apply a decision, show the round, settle it.
The kit does the rest: the gRPC protocol, rounds by id (``ROUND_EXISTS``,
``ROUND_NOT_FOUND``, ``ROUND_NOT_COMPLETE``, a bound on open rounds, expiry),
AIP-193 errors, the ``CROUPIER_ENGINE host:port`` ready line, graceful shutdown
on SIGTERM, and an optional audit log of every settled round: hash-chained, numbered,
timed, signed with the operator's key if given, and continued, never overwritten, when the
engine restarts. With a state directory (``--state-dir``) it journals every call it answers
and restores the open rounds and tables at start (``clients.journal``, CONTRACT.recovery),
and ``Describe`` claims recovery.

    class MyEngine:
        name, version, profile_ids = "acme", "1.0", ("blackjack-c",)
        def deal(self, request): ...          # -> your round object
        def decide(self, game, decision): ... # -> your round object after the decision
        def view(self, game): ...             # -> RoundView
        def settle(self, game): ...           # -> list[Line]

    if __name__ == "__main__":
        adapter.main(MyEngine())

An engine that is a game loop or a prompted program, not a state machine, is served through
``clients.replay.ReplayEngine`` instead: one function plays the round from the Deal and the
decisions so far (``clients.prompts`` for a program on stdin and stdout; ``clients.mappings``
for another deal order, names spelt otherwise, settlement labels).
"""

from __future__ import annotations

import argparse
import copy
import math
import re
import socket
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import grpc
import iso4217
from google.protobuf.message import DecodeError
from grpc_health.v1 import health, health_pb2
from grpc_reflection.v1alpha import reflection

from croupier.clients import listen
from croupier.clients.audit import CHECKPOINT_EVERY, AuditLogError, AuditWriter, load_private_key
from croupier.clients.book import RoundBook
from croupier.clients.journal import DEAL, DECIDE, Event, Journal, JournalError
from croupier.clients.status import StatusError, error_status
from croupier.v1 import common_pb2, engine_service_pb2, engine_service_pb2_grpc, round_pb2

# --- what the vendor receives -----------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class BetInput:
    """One bet: the stake in minor units and what it backs.

    ``kind`` is ``""`` for a blackjack box; ``"player"``, ``"banker"``, ``"tie"`` for
    baccarat; the roulette kind (``"straight"``, ``"split"``, ``"dozen"``, ``"red"``...)
    with ``pockets`` (``"0"``-``"36"``, ``"00"``) for inside bets and ``group`` (1-3) for
    columns and dozens.
    """

    game: str
    stake: int
    kind: str = ""
    pockets: tuple[str, ...] = ()
    group: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatInput:
    """A seat joining the round: funds before the round, and its bets."""

    balance: int
    bets: tuple[BetInput, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DealInput:
    """A Deal request: deal from exactly ``shoe`` (front first) or land on ``pocket``."""

    round_id: str
    profile_id: str
    table_id: str
    currency: str
    seats: tuple[SeatInput, ...]
    shoe: tuple[str, ...] | None = None
    pocket: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DecisionInput:
    """One decision, addressed to a seat and hand.

    ``kind`` is hit, stand, double, split, surrender, insurance, decline-insurance,
    even-money, decline-even-money or decline-surrender.
    """

    seat: int
    hand: int
    kind: str
    #: The stake a double or insurance puts down when the player chooses it (Decision.amount),
    #: in minor units of the round's currency; None for the full one.
    amount: int | None = None


# --- what the vendor returns ------------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class HandView:
    """One blackjack hand; ``status`` is waiting, playing, stood, bust, blackjack or surrendered."""

    cards: Sequence[str]
    stake: int
    status: str
    doubled: bool = False
    from_split: bool = False
    even_money: bool = False


@dataclass(slots=True, kw_only=True)
class SeatView:
    """One blackjack seat: its hands and the insurance stake it took (0 if none)."""

    hands: Sequence[HandView]
    insurance: int = 0


@dataclass(slots=True, kw_only=True)
class BlackjackView:
    """What a player sees of a blackjack table."""

    seats: Sequence[SeatView]
    dealer_cards: Sequence[str]
    hole_card_hidden: bool


@dataclass(slots=True, kw_only=True)
class BaccaratView:
    """A baccarat coup; ``outcome`` is player, banker or tie."""

    player_cards: Sequence[str]
    banker_cards: Sequence[str]
    player_total: int
    banker_total: int
    outcome: str


@dataclass(slots=True, kw_only=True)
class Imprisoned:
    """An even-money bet imprisoned at the table by a zero (VAR.rou.en-prison)."""

    seat: int
    #: The bet kind as a settlement line names it: ``"red"``.
    kind: str
    stake: int


@dataclass(slots=True, kw_only=True)
class RouletteView:
    """A roulette spin and the table's board after it, oldest first; its imprisoned bets."""

    pocket: str
    history: Sequence[str]
    prison: Sequence[Imprisoned] = ()


@dataclass(slots=True, kw_only=True)
class RoundView:
    """A round as the player sees it; ``phase`` is offers, play or complete."""

    phase: str
    cards_dealt: int
    table: BlackjackView | BaccaratView | RouletteView
    turn: tuple[int, int] | None = None
    legal: Sequence[str] = ()


@dataclass(slots=True, kw_only=True)
class Line:
    """One settled bet or hand: stake and amount returned (stake included), in minor units."""

    seat: int
    bet: str
    stake: int
    returned: int
    #: ``"imprisoned"`` for a bet a zero imprisoned, ``"released"`` for one this spin decides
    #: (stake 0: it was counted when imprisoned), else empty (VAR.rou.en-prison).
    prison: str = ""


class EngineError(StatusError):
    """A refusal with a stable reason (``ILLEGAL_DECISION``...) and metadata saying what was wrong."""


class Engine(Protocol):
    """The interface a vendor implements; the kit calls it from one thread at a time."""

    name: str
    version: str
    profile_ids: Sequence[str]

    def deal(self, request: DealInput) -> Any:
        """Start a round; return the engine's own round object."""

    def decide(self, game: Any, decision: DecisionInput) -> Any:
        """Apply a decision; return the round after it (the kit passes a copy, so mutate freely)."""

    def view(self, game: Any) -> RoundView:
        """What the player sees of the round now."""

    def settle(self, game: Any) -> Sequence[Line]:
        """The settlement of a complete round."""


# --- conversions --------------------------------------------------------------------------------

_BACCARAT = {
    round_pb2.BACCARAT_BET_KIND_PLAYER: "player",
    round_pb2.BACCARAT_BET_KIND_BANKER: "banker",
    round_pb2.BACCARAT_BET_KIND_TIE: "tie",
}
_ROULETTE = {
    value.number: value.name.removeprefix("ROULETTE_BET_KIND_").lower().replace("_", "-")
    for value in round_pb2.DESCRIPTOR.enum_types_by_name["RouletteBetKind"].values
    if value.number
}
_ROULETTE_KIND_NUMBERS = {
    name: round_pb2.RouletteBetKind.Value("ROULETTE_BET_KIND_" + name.upper().replace("-", "_"))
    for name in _ROULETTE.values()
}
_PRISON = {
    "": common_pb2.PRISON_STATUS_UNSPECIFIED,
    "imprisoned": common_pb2.PRISON_STATUS_IMPRISONED,
    "released": common_pb2.PRISON_STATUS_RELEASED,
}
_DECISIONS = {
    value.number: value.name.removeprefix("DECISION_KIND_").lower().replace("_", "-")
    for value in round_pb2.DESCRIPTOR.enum_types_by_name["DecisionKind"].values
    if value.number
}
#: Every decision kind's name, in the contract's order (DecisionKind): legal lists follow it.
DECISION_KINDS: tuple[str, ...] = tuple(_DECISIONS.values())
_DECISION_NUMBERS: dict[str, round_pb2.DecisionKind.ValueType] = {
    name: round_pb2.DecisionKind.ValueType(number) for number, name in _DECISIONS.items()
}
_PHASES = {
    "offers": round_pb2.ROUND_PHASE_OFFERS,
    "play": round_pb2.ROUND_PHASE_PLAY,
    "complete": round_pb2.ROUND_PHASE_COMPLETE,
}
_STATUSES = {
    "waiting": round_pb2.HAND_STATUS_WAITING,
    "playing": round_pb2.HAND_STATUS_PLAYING,
    "stood": round_pb2.HAND_STATUS_STOOD,
    "bust": round_pb2.HAND_STATUS_BUST,
    "blackjack": round_pb2.HAND_STATUS_BLACKJACK,
    "surrendered": round_pb2.HAND_STATUS_SURRENDERED,
}
_OUTCOMES = {
    "player": round_pb2.BACCARAT_OUTCOME_PLAYER,
    "banker": round_pb2.BACCARAT_OUTCOME_BANKER,
    "tie": round_pb2.BACCARAT_OUTCOME_TIE,
}


def _amount(currency: str, units: int) -> common_pb2.Amount:
    return common_pb2.Amount(currency_code=currency, minor_units=units)


def _units(amount: common_pb2.Amount, currency: str, where: str) -> int:
    # common.proto: an amount's currency "must equal the round's currency"; none is not it.
    if amount.currency_code != currency:
        held = f"in {amount.currency_code}" if amount.currency_code else "without a currency"
        raise EngineError(
            "INVALID_ROUND",
            f"{where} is {held}, the round in {currency}",
            field=where,
        )
    return amount.minor_units


#: Ids the contract allows (engine_service.proto): 1 to 128 of these characters.
_ID = re.compile(r"[A-Za-z0-9._:/-]{1,128}")
#: ISO 4217 currencies with minor units (TABLE.currency), from the iso4217 data package.
CURRENCIES = frozenset(c.code for c in iso4217.Currency if c.exponent is not None)
_RANKS, _SUITS = "A23456789TJQK", "CDHS"
_POCKETS = frozenset(("00", *(str(n) for n in range(37))))
#: Most seats a round takes (the contract's; h097 of every profile).
MAX_SEATS = 16
#: The highest TCP port.
_MAX_PORT = 65535
#: Tables whose roulette rounds the kit counts; the least recently dealt is forgotten past it.
MAX_TABLES = 100_000
#: Seconds between two looks at a signal delivered to a thread other than the main one.
_SIGNAL_POLL = 0.2


def check_contract(
    request: engine_service_pb2.DealRequest, *, currencies: frozenset[str] | None = CURRENCIES
) -> None:
    """Refuse what the contract forbids, before the vendor's code sees the request.

    The order, the reference server's: ids (INVALID_ROUND), the currency code (INVALID_ROUND,
    TABLE.currency), the seats' count and balances (INVALID_ROUND), each card's text
    (INVALID_CARD, metadata "card"), the spin's text (INVALID_ROUND). Whether a shoe fits the
    profile, a pocket is on its wheel, a bet has a legal shape, a stake is within the limits
    and the funds: those are the rules, the vendor's to refuse.
    """
    for name, value in (("round_id", request.round_id), ("table_id", request.table_id)):
        if not _ID.fullmatch(value):
            raise EngineError(
                "INVALID_ROUND",
                f"{name} {value[:64]!r} must be 1 to 128 letters, digits or ._:/-"
                + (f" ({len(value)} characters)" if len(value) > 64 else ""),
                field=name,
            )
    if currencies is not None and request.currency_code not in currencies:
        raise EngineError(
            "INVALID_ROUND",
            f"currency code {request.currency_code[:16]!r} is not an ISO 4217 currency",
            field="currency_code",
        )
    if not 1 <= len(request.seats) <= MAX_SEATS:
        raise EngineError(
            "INVALID_ROUND",
            f"a round takes 1 to {MAX_SEATS} seats, not {len(request.seats)}",
            field="seats",
        )
    for index, seat in enumerate(request.seats):
        if seat.balance.minor_units < 0:
            raise EngineError(
                "INVALID_ROUND", f"seats[{index}].balance is negative", field=f"seats[{index}]"
            )
    for index, card in enumerate(request.shoe.cards):
        if len(card) != 2 or card[0] not in _RANKS or card[1] not in _SUITS:
            raise EngineError(
                "INVALID_CARD",
                f"shoe.cards[{index}] is {card[:16]!r}: a card is a rank of {_RANKS} then a "
                f"suit of {_SUITS}, like 'TH'",
                card=card[:16],
            )
    if request.WhichOneof("outcome") == "spin" and request.spin.pocket not in _POCKETS:
        raise EngineError(
            "INVALID_ROUND",
            f"spin.pocket {request.spin.pocket[:16]!r} is no pocket of any wheel (0 to 36, 00)",
            field="spin.pocket",
        )


def deal_input(request: engine_service_pb2.DealRequest) -> DealInput:
    """A Deal request as plain values."""
    currency = request.currency_code
    seats = []
    for i, seat in enumerate(request.seats):
        bets = []
        for j, bet in enumerate(seat.bets):
            where = f"seats[{i}].bets[{j}]"
            stake = _units(bet.stake, currency, f"{where}.stake")
            which = bet.WhichOneof("kind")
            if which == "blackjack":
                bets.append(BetInput(game="blackjack", stake=stake))
            elif which == "baccarat":
                kind = _BACCARAT.get(bet.baccarat.kind)
                if kind is None:
                    raise EngineError(
                        "INVALID_BET_LAYOUT",
                        f"{where}: the baccarat bet kind is not set",
                        field=where,
                    )
                bets.append(BetInput(game="baccarat", stake=stake, kind=kind))
            elif which == "roulette":
                rkind = _ROULETTE.get(bet.roulette.kind)
                if rkind is None:
                    raise EngineError(
                        "INVALID_BET_LAYOUT",
                        f"{where}: the roulette bet kind is not set",
                        field=where,
                    )
                bets.append(
                    BetInput(
                        game="roulette",
                        stake=stake,
                        kind=rkind,
                        pockets=tuple(bet.roulette.pockets),
                        group=bet.roulette.group,
                    )
                )
            else:
                raise EngineError(
                    "INVALID_BET_LAYOUT", f"{where}: the bet backs nothing", field=where
                )
        seats.append(
            SeatInput(
                balance=_units(seat.balance, currency, f"seats[{i}].balance"), bets=tuple(bets)
            )
        )
    outcome = request.WhichOneof("outcome")
    return DealInput(
        round_id=request.round_id,
        profile_id=request.profile_id,
        table_id=request.table_id,
        currency=currency,
        seats=tuple(seats),
        shoe=tuple(request.shoe.cards) if outcome == "shoe" else None,
        pocket=request.spin.pocket if outcome == "spin" else None,
    )


def round_state(request: DealInput, view: RoundView) -> round_pb2.RoundState:
    """A vendor's view as a RoundState message."""
    currency = request.currency
    state = round_pb2.RoundState(
        round_id=request.round_id,
        profile_id=request.profile_id,
        phase=_PHASES[view.phase],
        cards_dealt=view.cards_dealt,
        legal_decisions=[_DECISION_NUMBERS[k] for k in view.legal],
    )
    if view.turn is not None:
        state.turn.CopyFrom(round_pb2.Turn(seat=view.turn[0], hand=view.turn[1]))
    table = view.table
    if isinstance(table, BlackjackView):
        state.blackjack.CopyFrom(
            round_pb2.BlackjackTable(
                seats=[
                    round_pb2.BlackjackSeat(
                        hands=[
                            round_pb2.BlackjackHand(
                                cards=list(h.cards),
                                stake=_amount(currency, h.stake),
                                status=_STATUSES[h.status],
                                doubled=h.doubled,
                                from_split=h.from_split,
                                even_money=h.even_money,
                            )
                            for h in seat.hands
                        ],
                        insurance=_amount(currency, seat.insurance),
                    )
                    for seat in table.seats
                ],
                dealer=round_pb2.BlackjackDealer(
                    cards=list(table.dealer_cards), hole_card_hidden=table.hole_card_hidden
                ),
            )
        )
    elif isinstance(table, BaccaratView):
        state.baccarat.CopyFrom(
            round_pb2.BaccaratTable(
                player_cards=list(table.player_cards),
                banker_cards=list(table.banker_cards),
                player_total=table.player_total,
                banker_total=table.banker_total,
                outcome=_OUTCOMES[table.outcome],
            )
        )
    else:
        state.roulette.CopyFrom(
            round_pb2.RouletteTable(
                pocket=table.pocket,
                history=list(table.history),
                prison=[
                    round_pb2.ImprisonedBet(
                        seat=p.seat,
                        kind=_ROULETTE_KIND_NUMBERS[p.kind],
                        stake=_amount(currency, p.stake),
                    )
                    for p in table.prison
                ],
            )
        )
    return state


def settlement(currency: str, lines: Sequence[Line]) -> common_pb2.Settlement:
    """Settlement lines as a Settlement message with its totals."""
    return common_pb2.Settlement(
        lines=[
            common_pb2.SettlementLine(
                seat=line.seat,
                bet=line.bet,
                stake=_amount(currency, line.stake),
                returned=_amount(currency, line.returned),
                prison=_PRISON[line.prison],
            )
            for line in lines
        ],
        total_staked=_amount(currency, sum(line.stake for line in lines)),
        total_returned=_amount(currency, sum(line.returned for line in lines)),
    )


# --- the servicer -------------------------------------------------------------------------------


@dataclass(slots=True)
class _Open:
    request: DealInput
    message: engine_service_pb2.DealRequest
    game: Any
    decisions: list[round_pb2.Decision] = field(default_factory=list)
    #: Roulette: the round's place among its table's rounds, in the order dealt.
    table_round: int = 0


class EngineAdapter(engine_service_pb2_grpc.EngineServiceServicer):
    """Serves a vendor ``Engine`` as ``EngineService``.

    A kit of one's own may override ``status_of`` (a refusal's status), ``state_of`` (the
    RoundState of a view), ``check_complete`` (Settle's check) or ``working_copy`` (what a
    Decide is applied to); the mutant zoo does, to play engines whose protocol, not whose
    rules, is wrong.
    """

    def __init__(
        self,
        engine: Engine,
        *,
        audit: AuditWriter | None = None,
        max_open_rounds: int = 10_000,
        ttl_seconds: float = 900.0,
        clock: Callable[[], float] = time.monotonic,
        journal: Journal | None = None,
    ) -> None:
        self.engine = engine
        self.audit = audit
        #: Where the kit journals what it answers, to recover after a restart (None: it does not).
        self.journal = journal
        #: Which running copy of the engine writes the audit log.
        self.instance = socket.gethostname()
        self.book: RoundBook[_Open] = RoundBook(
            max_open_rounds=max_open_rounds,
            ttl_seconds=ttl_seconds,
            clock=clock,
            # An expired round is gone after a restart too (CONTRACT.recovery).
            on_expire=self.journal_settle,
        )
        self._lock = threading.Lock()
        #: The currency codes the kit lets through (None: the vendor checks them alone).
        self.currencies: frozenset[str] | None = CURRENCIES
        #: Calls in flight; closed by ``Served.stop`` before the server stops.
        self.gate = listen.ThreadGate()
        #: Roulette rounds dealt per (profile, table): the audit record's ``table_round``.
        self._table_rounds: OrderedDict[tuple[str, str], int] = OrderedDict()
        if journal is not None:
            self.restore()

    # --- recovery (CONTRACT.recovery) ------------------------------------------------------

    def restore(self) -> None:
        """Replay the journal through the engine: the open rounds and every table come back.

        A journaled call the engine no longer accepts means the journal is not this engine's
        (``JournalError``). A round whose Settle reached the audit log but not the journal
        (a crash between the two) is closed now: it is never paid twice.
        """
        assert self.journal is not None  # noqa: S101 - called with a journal only
        for round_id in self.journal.used():
            self.book.remember(round_id)
        for event in self.journal.events():
            try:
                if event.kind == DEAL:
                    self.replay_deal(engine_service_pb2.DealRequest.FromString(event.payload))
                elif event.kind == DECIDE:
                    self.replay_decide(event.round_id, round_pb2.Decision.FromString(event.payload))
                else:
                    self.replay_settle(event.round_id)
            except (StatusError, DecodeError) as exc:
                raise JournalError(
                    f"the journal {self.journal.path} does not replay on this engine: "
                    f"{event.kind} of round {event.round_id!r}: {exc}"
                ) from None
        settled = self.audit.last_round_id if self.audit is not None else ""
        if settled and settled in self.book.ids():
            entry = self.book.close(settled)
            self.journal.settle(settled, keep=bool(entry.table_round))

    def replay_deal(self, request: engine_service_pb2.DealRequest) -> None:
        """Deal a journaled round again, as ``Deal`` did (the forced outcome decides it)."""
        dealt = deal_input(request)
        game = self.engine.deal(dealt)
        self.book.open(
            request.round_id,
            _Open(
                request=dealt,
                message=request,
                game=game,
                table_round=self._count_table_round(request),
            ),
        )

    def replay_decide(self, round_id: str, decision: round_pb2.Decision) -> None:
        """Apply a journaled decision again."""
        entry = self.book.get(round_id)
        entry.game = self.engine.decide(
            self.working_copy(entry.game), self.decision_input(entry, decision)
        )
        entry.decisions.append(decision)
        self.book.update(round_id, entry)

    def replay_settle(self, round_id: str) -> None:
        """Close a journaled settled round (a roulette spin, whose events stay for its table)."""
        self.book.close(round_id)

    def journal_write(self, event: Event) -> None:
        """Journal a call before answering it (on disk when this returns)."""
        if self.journal is not None:
            self.journal.append(event)

    def journal_settle(self, round_id: str, entry: _Open) -> None:
        """Journal a settled round: a roulette spin keeps its events (its table's board)."""
        if self.journal is not None:
            self.journal.settle(round_id, keep=bool(entry.table_round))

    def _count_table_round(self, request: engine_service_pb2.DealRequest) -> int:
        """A roulette round's place among its table's rounds, in the order dealt; 0 for cards."""
        if request.WhichOneof("outcome") != "spin":
            return 0
        # The board moves as a round is dealt: count the table's rounds in that order.
        key = (request.profile_id, request.table_id)
        table_round = self._table_rounds.pop(key, 0) + 1
        self._table_rounds[key] = table_round
        while len(self._table_rounds) > MAX_TABLES:
            self._table_rounds.popitem(last=False)
        return table_round

    def decision_input(self, entry: _Open, decision: round_pb2.Decision) -> DecisionInput:
        """A Decide's decision as plain values (ILLEGAL_DECISION for a kind not set)."""
        kind = _DECISIONS.get(decision.kind)
        if kind is None:
            raise EngineError(
                "ILLEGAL_DECISION",
                "the decision kind is not set",
                legal=",".join(self.engine.view(entry.game).legal),
            )
        amount = (
            _units(decision.amount, entry.request.currency, "decision.amount")
            if decision.HasField("amount")
            else None
        )
        return DecisionInput(seat=decision.seat, hand=decision.hand, kind=kind, amount=amount)

    def close_audit(self) -> None:
        """Seal and close the audit log and the journal, once no call is writing to them."""
        with self._lock:
            if self.journal is not None:
                self.journal.close()
            if self.audit is not None:
                self.audit.close()

    def _guarded(
        self, request: object, context: grpc.ServicerContext, action: Callable[[], Any]
    ) -> Any:
        _refuse_malformed(request, context)
        if not self.gate.enter():
            context.abort_with_status(listen.shutting_down())
        try:
            with self._lock:
                try:
                    return action()
                except StatusError as exc:
                    status = self.status_of(exc)
                except Exception as exc:  # noqa: BLE001 - a vendor bug must not kill the server
                    status = error_status(
                        "INTERNAL", f"engine error: {type(exc).__name__}: {exc}", {}
                    )
        finally:
            self.gate.leave()
        # abort_with_status keeps the trailing metadata that carries the ErrorInfo.
        context.abort_with_status(status)
        raise AssertionError("unreachable")  # pragma: no cover

    def status_of(self, refusal: StatusError) -> grpc.Status:
        """The AIP-193 status a refusal is sent with."""
        return refusal.status()

    def state_of(self, request: DealInput, view: RoundView) -> round_pb2.RoundState:
        """The RoundState message of a vendor's view."""
        return round_state(request, view)

    def check_complete(self, round_id: str, view: RoundView) -> None:
        """Refuse to settle a round that waits for a decision (ROUND_NOT_COMPLETE)."""
        if view.phase != "complete":
            raise EngineError(
                "ROUND_NOT_COMPLETE",
                f"round {round_id!r} waits for a decision",
                legal=",".join(view.legal),
            )

    def working_copy(self, game: Any) -> Any:
        """What the vendor's ``decide`` works on: a copy, so that a refusal changes nothing."""
        return copy.deepcopy(game)

    def Describe(
        self, request: engine_service_pb2.DescribeRequest, context: grpc.ServicerContext
    ) -> engine_service_pb2.DescribeResponse:
        """The vendor engine's name, version and profiles."""

        def action() -> engine_service_pb2.DescribeResponse:
            return engine_service_pb2.DescribeResponse(
                name=self.engine.name,
                version=self.engine.version,
                profile_ids=list(self.engine.profile_ids),
                recovery=self.journal is not None,
            )

        return self._guarded(request, context, action)  # type: ignore[no-any-return]

    def Deal(
        self, request: engine_service_pb2.DealRequest, context: grpc.ServicerContext
    ) -> engine_service_pb2.DealResponse:
        """Start a round in the vendor engine."""

        def action() -> engine_service_pb2.DealResponse:
            # The book's checks first, then the request's: one order for every engine.
            self.book.check_new(request.round_id)
            if request.profile_id not in self.engine.profile_ids:
                raise EngineError(
                    "UNKNOWN_PROFILE",
                    f"this engine does not play {request.profile_id!r}",
                    profile=request.profile_id,
                )
            check_contract(request, currencies=self.currencies)
            dealt = deal_input(request)
            game = self.engine.deal(dealt)
            table_round = self._count_table_round(request)
            # Journaled before the answer (CONTRACT.recovery): a crash after it loses nothing.
            self.journal_write(
                Event(
                    kind=DEAL,
                    round_id=request.round_id,
                    payload=request.SerializeToString(deterministic=True),
                )
            )
            self.book.open(
                request.round_id,
                _Open(request=dealt, message=request, game=game, table_round=table_round),
            )
            return engine_service_pb2.DealResponse(
                state=self.state_of(dealt, self.engine.view(game))
            )

        return self._guarded(request, context, action)  # type: ignore[no-any-return]

    def Decide(
        self, request: engine_service_pb2.DecideRequest, context: grpc.ServicerContext
    ) -> engine_service_pb2.DecideResponse:
        """Apply one decision; on a refusal the round stays as it was."""

        def action() -> engine_service_pb2.DecideResponse:
            entry = self.book.get(request.round_id)
            decision = self.decision_input(entry, request.decision)
            # The vendor works on a copy: a refusal halfway through leaves the round untouched.
            game = self.engine.decide(self.working_copy(entry.game), decision)
            # Journaled before the round changes and before the answer: applied once on replay.
            self.journal_write(
                Event(
                    kind=DECIDE,
                    round_id=request.round_id,
                    payload=request.decision.SerializeToString(deterministic=True),
                )
            )
            entry.game = game
            entry.decisions.append(request.decision)
            self.book.update(request.round_id, entry)
            return engine_service_pb2.DecideResponse(
                state=self.state_of(entry.request, self.engine.view(entry.game))
            )

        return self._guarded(request, context, action)  # type: ignore[no-any-return]

    def Settle(
        self, request: engine_service_pb2.SettleRequest, context: grpc.ServicerContext
    ) -> engine_service_pb2.SettleResponse:
        """Settle a complete round, log it, and close it."""

        def action() -> engine_service_pb2.SettleResponse:
            entry = self.book.get(request.round_id)
            view = self.engine.view(entry.game)
            self.check_complete(request.round_id, view)
            lines = self.engine.settle(entry.game)
            state = self.state_of(entry.request, view)
            response = engine_service_pb2.SettleResponse(
                settlement=settlement(entry.request.currency, lines), state=state
            )
            # Logged before the round closes: if the log cannot be written, Settle fails and
            # the round stays open, never paid without its record.
            if self.audit is not None:
                self.audit.append(self.record(entry, response))
            # Then journaled: a crash between the two is mended at start (``restore``).
            self.journal_settle(request.round_id, entry)
            self.book.close(request.round_id)
            return response

        return self._guarded(request, context, action)  # type: ignore[no-any-return]

    def record(
        self, entry: _Open, response: engine_service_pb2.SettleResponse
    ) -> round_pb2.RoundRecord:
        """The RoundRecord of a settled round (the writer fills its link, number and time)."""
        deal = entry.message
        shoe = list(deal.shoe.cards) if deal.WhichOneof("outcome") == "shoe" else []
        return round_pb2.RoundRecord(
            round_id=deal.round_id,
            profile_id=deal.profile_id,
            table_id=deal.table_id,
            currency_code=deal.currency_code,
            seats=list(deal.seats),
            cards_dealt=shoe[: response.state.cards_dealt],
            pocket=deal.spin.pocket if deal.WhichOneof("outcome") == "spin" else "",
            decisions=entry.decisions,
            final_state=response.state,
            settlement=response.settlement,
            engine=round_pb2.EngineIdentity(
                name=self.engine.name, version=self.engine.version, instance=self.instance
            ),
            table_round=entry.table_round,
        )


def _refuse_malformed(request: object, context: grpc.ServicerContext) -> None:
    """A request that did not decode is answered MALFORMED_REQUEST (``listen.add_service``)."""
    if isinstance(request, listen.MalformedRequest):
        context.abort_with_status(request.status())


# --- serving -----------------------------------------------------------------------------------


@dataclass(slots=True)
class Served:
    """A running adapter server."""

    server: grpc.Server
    port: int
    health: health.HealthServicer
    adapter: EngineAdapter

    def stop(self, grace: float = 5.0) -> None:
        """Graceful stop: health NOT_SERVING, calls in flight finish within ``grace`` seconds.

        The calls on their way are let in for a moment, then new ones are refused
        (SHUTTING_DOWN) until the calls in flight are done and a moment more; what still runs
        when the grace ends is cancelled.
        """
        deadline = time.monotonic() + grace
        self.health.enter_graceful_shutdown()
        time.sleep(min(listen.ARRIVING_SECONDS, grace))
        self.adapter.gate.close()
        self.adapter.gate.drained(max(deadline - time.monotonic(), 0.0))
        # Calls still arriving get the refusal a moment longer: gRPC's own stop would cancel
        # them (CANCELLED) instead of saying why (UNAVAILABLE, SHUTTING_DOWN).
        time.sleep(min(listen.ARRIVING_SECONDS, max(deadline - time.monotonic(), 0.0)))
        self.server.stop(max(deadline - time.monotonic(), 0.0)).wait()
        self.adapter.close_audit()


def serve(
    engine: Engine,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    audit_log: Path | None = None,
    audit_format: str = "jsonl",
    audit_key: Path | None = None,
    audit_checkpoint_every: int = CHECKPOINT_EVERY,
    audit_new_log: bool = False,
    max_open_rounds: int = 10_000,
    round_ttl: float = 900.0,
    credentials: grpc.ServerCredentials | None = None,
    kit: type[EngineAdapter] = EngineAdapter,
    state_dir: Path | None = None,
) -> Served:
    """Start serving an engine (through ``kit``); returns at once with the bound port.

    ``audit_log`` is continued if it exists (``AuditWriter.open``); ``audit_key`` (a PEM
    Ed25519 private key) signs a checkpoint every ``audit_checkpoint_every`` records and at
    the stop. ``state_dir`` holds the journal the engine recovers from (``clients.journal``;
    CONTRACT.recovery): its open rounds and tables are restored before the server starts.
    Raises ``AuditLogError`` for a log or key that cannot be used, ``JournalError`` for a
    journal that cannot (damaged, another format or engine), ``OSError`` when the address
    cannot be listened on (a port in use: no two servers share one).
    """
    audit = None
    if audit_log is not None:
        audit = AuditWriter.open(
            audit_log,
            audit_format,
            key=load_private_key(audit_key) if audit_key is not None else None,
            checkpoint_every=audit_checkpoint_every,
            new_log=audit_new_log,
        )
    elif audit_key is not None:
        raise AuditLogError("an audit key signs an audit log: give --audit-log too")
    journal = None
    try:
        if state_dir is not None:
            journal = Journal(state_dir, engine.name)
        adapter = kit(
            engine,
            audit=audit,
            max_open_rounds=max_open_rounds,
            ttl_seconds=round_ttl,
            journal=journal,
        )
    except BaseException:
        if journal is not None:
            journal.close()
        if audit is not None:
            audit.close()
        raise
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=8), options=list(listen.SERVER_OPTIONS)
    )
    # Not the generated add_*_to_server: a request that does not decode reaches the method.
    listen.add_service(
        server, engine_service_pb2.DESCRIPTOR.services_by_name["EngineService"], adapter
    )
    health_servicer = health.HealthServicer()
    name = engine_service_pb2.DESCRIPTOR.services_by_name["EngineService"].full_name
    # Health and reflection behind the same guard: bytes that do not decode are
    # MALFORMED_REQUEST, never UNKNOWN with a traceback, nor a stream left hanging.
    listen.add_health_and_reflection(
        server, health_servicer, reflection.ReflectionServicer((name, *listen.AUXILIARY))
    )
    address = f"{host}:{port}"
    try:
        bound = (
            server.add_secure_port(address, credentials)
            if credentials
            else server.add_insecure_port(address)
        )
    except RuntimeError:
        bound = 0
    if bound == 0:
        adapter.close_audit()
        raise OSError(f"cannot listen on {address}: {listen.why_not_bound(host, port)}")
    server.start()
    for service in ("", name):
        health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    return Served(server=server, port=bound, health=health_servicer, adapter=adapter)


def main(
    engine: Engine,
    argv: Sequence[str] | None = None,
    *,
    kit: type[EngineAdapter] = EngineAdapter,
) -> None:
    """Command line for an adapted engine: serve, print the ready line, stop on SIGTERM."""
    parser = argparse.ArgumentParser(
        prog=_prog(),
        description=f"Serve {engine.name} as a Croupier EngineService. Prints "
        "'CROUPIER_ENGINE host:port' when ready; stops gracefully on SIGTERM or SIGINT. Exit "
        "codes: 0 stopped, 1 stopped but the audit log could not be sealed, 2 usage error (a bad audit log, key or journal, a TLS file that holds "
        "something else), 3 cannot listen (the port is in use).",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    parser.add_argument("--port", type=int, default=0, help="port; 0 picks a free one (default)")
    parser.add_argument(
        "--max-open-rounds",
        type=int,
        default=10_000,
        metavar="N",
        help="open rounds held at once; more get TOO_MANY_OPEN_ROUNDS (default 10000)",
    )
    parser.add_argument(
        "--round-ttl",
        type=float,
        default=900.0,
        metavar="SECONDS",
        help="seconds before an untouched round expires (default 900)",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="seconds in-flight calls get on shutdown (default 5)",
    )
    parser.add_argument("--tls-cert", type=Path, metavar="FILE", help="server certificate (PEM)")
    parser.add_argument("--tls-key", type=Path, metavar="FILE", help="server private key (PEM)")
    parser.add_argument(
        "--tls-client-ca",
        type=Path,
        metavar="FILE",
        help="CA that signs client certificates: turns on mutual TLS",
    )
    parser.add_argument(
        "--audit-log",
        type=Path,
        metavar="FILE",
        help="write every settled round to this hash-chained log; an existing log is continued",
    )
    parser.add_argument(
        "--audit-format", choices=("jsonl", "binary"), default="jsonl", help="audit log format"
    )
    parser.add_argument(
        "--audit-key",
        type=Path,
        metavar="FILE",
        help="Ed25519 private key (PEM, from 'croupier audit keygen') that signs checkpoints",
    )
    parser.add_argument(
        "--audit-checkpoint-every",
        type=int,
        default=CHECKPOINT_EVERY,
        metavar="N",
        help=f"records between two signed checkpoints (default {CHECKPOINT_EVERY})",
    )
    parser.add_argument(
        "--audit-new-log",
        action="store_true",
        help="start a new log even if --audit-log exists: the old file is kept, renamed "
        "FILE.<UTC time>, never deleted",
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        metavar="DIR",
        help="journal every call answered in DIR (created if need be) and restore the open "
        "rounds and tables from it at start: the engine then claims recovery in Describe "
        "(a damaged journal, or one of another engine, is refused and left as it is)",
    )
    args = parser.parse_args(argv)
    _check_args(parser, args)
    try:
        credentials = (
            listen.server_credentials(args.tls_cert, args.tls_key, args.tls_client_ca)
            if args.tls_cert is not None
            else None
        )
        served = serve(
            engine,
            host=args.host,
            port=args.port,
            audit_log=args.audit_log,
            audit_format=args.audit_format,
            audit_key=args.audit_key,
            audit_checkpoint_every=args.audit_checkpoint_every,
            audit_new_log=args.audit_new_log,
            max_open_rounds=args.max_open_rounds,
            round_ttl=args.round_ttl,
            credentials=credentials,
            kit=kit,
            state_dir=args.state_dir,
        )
    except (AuditLogError, JournalError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)  # noqa: T201 - the command line's own error
        sys.exit(2)
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)  # noqa: T201 - the command line's own error
        sys.exit(3)
    audit = served.adapter.audit
    if audit is not None and audit.notice:
        print(f"audit: {audit.notice}", file=sys.stderr, flush=True)  # noqa: T201 - says what it did
    stop = listen.StopSignals(_SIGNAL_POLL)
    stop.install()
    print(f"CROUPIER_ENGINE {args.host}:{served.port}", flush=True)  # noqa: T201 - the launch protocol's line
    stop.wait()
    try:
        served.stop(args.grace)
    except (OSError, AuditLogError) as exc:
        log = args.audit_log
        print(  # noqa: T201 - the command line's own error
            f"error: stopped, but the audit log {log} could not be sealed ({exc}): it ends "
            "without its closing checkpoint",
            file=sys.stderr,
        )
        sys.exit(1)
    sys.exit(0)


def _check_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Exit 2 (``parser.error``) for options out of range, NaN and infinity included."""
    if args.audit_checkpoint_every < 1:
        parser.error("--audit-checkpoint-every must be at least 1")
    # Written so that NaN fails too: every comparison with NaN is false.
    if not (
        args.max_open_rounds >= 1 and 1 <= args.round_ttl < math.inf and 0 <= args.grace < math.inf
    ):
        parser.error(
            "--max-open-rounds and --round-ttl must be at least 1, --grace at least 0 "
            "(a finite number of seconds)"
        )
    if not 0 <= args.port <= _MAX_PORT:
        parser.error(f"--port must be 0 (any free port) to {_MAX_PORT}, not {args.port}")
    if (args.tls_cert is None) != (args.tls_key is None):
        parser.error("--tls-cert and --tls-key go together")
    if args.tls_client_ca is not None and args.tls_cert is None:
        parser.error("--tls-client-ca needs --tls-cert and --tls-key")


def _prog() -> str:
    """The command as typed: ``python -m package``, not ``__main__.py``."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name:
        return f"python -m {spec.name.removesuffix('.__main__')}"
    return Path(sys.argv[0]).name
