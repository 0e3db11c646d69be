"""The round-replay adapter: serve an engine that plays a whole round from its inputs.

Most engines are a game loop, not a state machine: a function (or a program, see
``clients.prompts``) that deals a round and plays it through, asking for a decision when it
needs one. The vendor writes ONE function that plays a round from the Deal request and the
decisions so far, and returns what the engine shows at that point::

    from croupier.clients import adapter, replay
    from croupier.clients.adapter import BlackjackView, DealInput, DecisionInput, HandView, Line, SeatView

    def play(deal: DealInput, decisions: tuple[DecisionInput, ...]) -> replay.Played:
        table = their_engine.Table(deck=list(deal.shoe), bet=deal.seats[0].bets[0].stake)
        for decision in decisions:                  # every decision so far, in order
            table.act(decision.kind)                # "hit", "stand", "double", "split"...
        return replay.Played(
            table=BlackjackView(...their cards, the dealer's...),
            cards_dealt=table.cards_taken,          # how many shoe cards the round used
            turn=(0, table.hand_index),             # None once the round is over
            legal=table.options(),                  # the engine's offers, contract names
            payouts=[Line(seat=0, bet="hand 0", stake=..., returned=...)]
            if table.over else None,                # None while the round goes on
        )

    adapter.main(replay.ReplayEngine(
        name="their-blackjack", version="2.1", profile_ids=("blackjack-c",), play=play))

``ReplayEngine`` is an ``adapter.Engine``, so the kit's servicer does the rest as for any
engine: the gRPC protocol, the contract's checks before the engine sees a Deal, rounds by
id (a reused id is ``ROUND_EXISTS``, an unknown one ``ROUND_NOT_FOUND``, a Settle before the
end ``ROUND_NOT_COMPLETE``), expiry, AIP-193 errors, the ready line, and the signed,
hash-chained audit log (``--audit-log``, ``--audit-key``). ``Deal`` calls ``play(deal, ())``;
each ``Decide`` calls ``play(deal, decisions + (decision,))`` again from the start (a game loop
cannot be resumed, so it is replayed); ``Settle`` pays what the last ``Played`` said.

The kit derives nothing about the rules: the engine's cards, totals, offers and payouts are
what the suite judges. What it enforces is the engine's own word: a decision the engine did
not offer (not in ``Played.legal``, or addressed to another hand than ``Played.turn``) is
refused ``ILLEGAL_DECISION`` with the engine's legal list, before the engine sees it, as the
contract asks (a game loop could not refuse it: it never asks for it). What ``play`` raises
goes to the client: an ``adapter.EngineError`` with its reason (``BET_OUT_OF_LIMITS``,
``SHOE_EXHAUSTED``...), anything else as ``INTERNAL``.

For what an engine lacks, the kit has helpers: ``legal=`` (a vendor callback for an engine
that lists no legal decisions: the vendor's code, never the oracle's), ``boards=``
(``Boards``: the roulette board of an engine that keeps none), and in ``clients.mappings``
another deal order (``DealOrder``), a shoe that counts its cards (``Shoe``), names the engine
spells otherwise (``NameMap``) and the contract's bet labels (``line_label``).
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from croupier.clients.adapter import (
    DECISION_KINDS,
    MAX_TABLES,
    BaccaratView,
    BlackjackView,
    DealInput,
    DecisionInput,
    EngineError,
    Line,
    RouletteView,
    RoundView,
)

#: The decision kinds, in the contract's order (DecisionKind): legal lists are sorted so.
DECISIONS = DECISION_KINDS


class ReplayError(Exception):
    """The vendor's ``play`` broke the replay protocol (the kit answers the call INTERNAL)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Played:
    """What the engine shows once it has played a round from its inputs, as far as it goes.

    ``table`` is the engine's table (``adapter.BlackjackView``, ``BaccaratView`` or
    ``RouletteView``: the cards as dealt, totals, the board). ``legal`` is the engine's offer
    to the hand of ``turn`` (seat, hand), in contract names (``"hit"``, ``"decline-insurance"``:
    ``adapter.DecisionInput``), in any order: the kit sorts it. ``payouts`` is ``None`` while
    the round waits for a decision, and the settlement lines once it is over (``adapter.Line``:
    stake and amount returned, stake included). ``cards_dealt`` is how many cards the round has
    taken from the front of the shoe, counted in the contract's order (``mappings.Shoe`` and
    ``mappings.DealOrder`` count them). ``phase`` may be left empty: it is then ``complete``
    once there are payouts, ``offers`` while the legal decisions include a refusal
    (``decline-insurance``, ``decline-even-money``, ``decline-surrender``: the offers' answers),
    else ``play``.
    """

    table: BlackjackView | BaccaratView | RouletteView
    legal: Sequence[str] = ()
    turn: tuple[int, int] | None = None
    payouts: Sequence[Line] | None = None
    cards_dealt: int = 0
    phase: str = ""


#: The vendor's round: the Deal request and every decision so far, in order -> the engine's view.
PlayRound = Callable[[DealInput, tuple[DecisionInput, ...]], Played]
#: The legal decisions an engine does not list, computed by the vendor's own code.
LegalDecisions = Callable[[DealInput, tuple[DecisionInput, ...], Played], Sequence[str]]


class OutOfDecisionsError(BaseException):
    """No decision is left: the round waits for one here (``Decisions.next``).

    A ``BaseException``, as ``GeneratorExit`` is: it must get out of the engine's game loop,
    through any ``except Exception`` the engine has, to the wrapper that catches it. One that
    ``play`` lets escape fails the call (``ReplayError``).
    """


class Decisions:
    """The decisions so far, handed out in order to a game loop that asks for them.

    A game loop calls back for each decision (``choose(options)``); its callback takes
    ``next()`` and, once none is left, ``next()`` raises ``OutOfDecisionsError``: the round
    waits there, and the wrapper returns what the engine showed when it asked (``asked``).
    """

    def __init__(self, decisions: Sequence[DecisionInput]) -> None:
        self.decisions = tuple(decisions)
        #: How many decisions have been handed out.
        self.used = 0
        #: What the engine showed when it last asked (``next(shown)``), for the round that waits.
        self.asked: Any = None

    def next(self, shown: Any = None) -> DecisionInput:
        """The next decision; ``OutOfDecisionsError`` when none is left.

        ``shown`` is kept as ``asked``: what the engine shows as it asks (a copy of its
        table, its options), the view of a round that waits at this point.
        """
        self.asked = shown
        if self.used == len(self.decisions):
            raise OutOfDecisionsError
        self.used += 1
        return self.decisions[self.used - 1]

    @property
    def left(self) -> int:
        """How many decisions have not been handed out."""
        return len(self.decisions) - self.used


def phase_of(played: Played) -> str:
    """The round's phase: the engine's own, else as ``Played`` documents it."""
    if played.phase:
        return played.phase
    if played.payouts is not None:
        return "complete"
    return "offers" if any(kind.startswith("decline-") for kind in played.legal) else "play"


class Boards:
    """Each table's board for an engine that keeps none: its last results, oldest first.

    A board belongs to a profile and a table (``DealInput.table_id``); ``length`` is the
    vendor's number of results a board shows (13 by C.rou.history), for every profile or per
    profile id. The least recently used tables are forgotten past ``max_tables``.
    """

    def __init__(self, length: int | Mapping[str, int], *, max_tables: int = MAX_TABLES) -> None:
        self.length = length
        self.max_tables = max_tables
        self._boards: OrderedDict[tuple[str, str], tuple[str, ...]] = OrderedDict()

    def board(self, deal: DealInput) -> tuple[str, ...]:
        """The table's board before this round."""
        return self._boards.get((deal.profile_id, deal.table_id), ())

    def record(self, deal: DealInput, pocket: str) -> tuple[str, ...]:
        """Put a spin's pocket on its table's board; the board after it."""
        length = self.length if isinstance(self.length, int) else self.length[deal.profile_id]
        key = (deal.profile_id, deal.table_id)
        board = (*self._boards.pop(key, ()), pocket)[-length:] if length > 0 else ()
        self._boards[key] = board
        while len(self._boards) > self.max_tables:
            self._boards.popitem(last=False)
        return board


@dataclass(frozen=True, slots=True)
class _Round:
    """An open round: its request, the decisions taken, and what the engine showed last."""

    deal: DealInput
    decisions: tuple[DecisionInput, ...]
    played: Played
    view: RoundView

    def __deepcopy__(self, memo: dict[int, Any]) -> _Round:
        # Immutable: a decision makes a new round, never changes this one.
        return self


class ReplayEngine:
    """An ``adapter.Engine`` made of a vendor's ``play`` function (see the module's docstring).

    ``legal``, when given, computes the legal decisions of a round that waits (the engine lists
    none); ``boards`` keeps the roulette board (``RouletteView.history`` is replaced by it).
    """

    def __init__(
        self,
        *,
        name: str,
        version: str,
        profile_ids: Sequence[str],
        play: PlayRound,
        legal: LegalDecisions | None = None,
        boards: Boards | None = None,
    ) -> None:
        self.name = name
        self.version = version
        self.profile_ids: Sequence[str] = tuple(profile_ids)
        self.play = play
        self.legal = legal
        self.boards = boards

    def replay(self, deal: DealInput, decisions: tuple[DecisionInput, ...]) -> _Round:
        """Play the round from the start with these decisions; the engine's view of it."""
        try:
            played = self.play(deal, decisions)
        except OutOfDecisionsError:
            raise ReplayError(
                "play let OutOfDecisionsError out: catch it, and return what the engine showed "
                "when it asked for the decision (Decisions.asked)"
            ) from None
        if self.legal is not None and played.payouts is None:
            played = dataclasses.replace(played, legal=tuple(self.legal(deal, decisions, played)))
        return _Round(deal=deal, decisions=decisions, played=played, view=round_view(played))

    # --- adapter.Engine ------------------------------------------------------------------

    def deal(self, request: DealInput) -> _Round:
        """Play the round with no decision yet; a spin goes on its table's board."""
        dealt = self.replay(request, ())
        table = dealt.played.table
        if self.boards is not None and isinstance(table, RouletteView):
            board = self.boards.record(request, table.pocket)
            played = dataclasses.replace(
                dealt.played, table=dataclasses.replace(table, history=board)
            )
            dealt = dataclasses.replace(dealt, played=played, view=round_view(played))
        return dealt

    def decide(self, game: _Round, decision: DecisionInput) -> _Round:
        """Refuse what the engine did not offer, else replay the round with the decision."""
        view = game.view
        if decision.kind not in view.legal or (
            view.turn is not None and (decision.seat, decision.hand) != view.turn
        ):
            where = f"seat {decision.seat} hand {decision.hand}"
            turn = "the round is over" if view.turn is None else f"the turn is {view.turn}"
            raise EngineError(
                "ILLEGAL_DECISION",
                f"{decision.kind} for {where} is not offered ({turn}; offered: "
                f"{', '.join(view.legal) or 'nothing'})",
                legal=",".join(view.legal),
                action=decision.kind,
            )
        return self.replay(game.deal, (*game.decisions, decision))

    def view(self, game: _Round) -> RoundView:
        """What the engine showed after the last Deal or Decide."""
        return game.view

    def settle(self, game: _Round) -> Sequence[Line]:
        """The engine's payouts of the complete round."""
        if game.played.payouts is None:
            raise ReplayError(
                "the engine's round is complete but gave no payouts (Played.payouts is None)"
            )
        return tuple(game.played.payouts)


def round_view(played: Played) -> RoundView:
    """A ``Played`` as the kit's ``RoundView``: legal decisions in the contract's order."""
    unknown = [kind for kind in played.legal if kind not in DECISIONS]
    if unknown:
        raise ValueError(
            f"the engine offers {', '.join(map(repr, unknown))}: not a decision of the contract "
            f"({', '.join(DECISIONS)}); map the engine's names with mappings.NameMap"
        )
    phase = phase_of(played)
    complete = phase == "complete"
    return RoundView(
        phase=phase,
        cards_dealt=played.cards_dealt,
        table=played.table,
        turn=None if complete else played.turn,
        legal=() if complete else tuple(k for k in DECISIONS if k in set(played.legal)),
    )
