"""Recovery bugs of the mutant zoo: the demo engine behind a kit that recovers wrongly.

Each kit journals (``--state-dir``) and claims recovery like the adapter kit, with one hook
overridden the way a vendor's own recovery code gets it wrong; the recovery vectors catch
each one with CONTRACT.recovery (the zoo serves them with a state directory of their own).
``RECOVERY_MUTANTS`` names them.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from typing import Any

import grpc

from croupier.clients.adapter import EngineAdapter, _Open, deal_input
from croupier.clients.demo_engine import DemoEngine
from croupier.clients.journal import Event
from croupier.clients.mutants.mutant import Mutant
from croupier.clients.status import StatusError
from croupier.v1 import engine_service_pb2, round_pb2


class ForgetsOpenRounds(EngineAdapter):
    """Restores used round ids and tables, but no open round: each is lost at a restart."""

    def restore(self) -> None:
        """The journal replayed, then every open round dropped (its id stays used)."""
        super().restore()
        for round_id in self.book.ids():
            self.book.close(round_id)


class FreshShoeAfterRestart(EngineAdapter):
    """Keeps a restored round's cards, but deals what follows from a fresh shoe."""

    def replay_deal(self, request: engine_service_pb2.DealRequest) -> None:
        """The cards dealt at the deal kept; the rest of the shoe is the shoe's end reversed."""
        if request.WhichOneof("outcome") == "shoe":
            dealt = self.engine.view(self.engine.deal(deal_input(request))).cards_dealt
            fresh = engine_service_pb2.DealRequest()
            fresh.CopyFrom(request)
            rest = list(request.shoe.cards[dealt:])
            del fresh.shoe.cards[dealt:]
            fresh.shoe.cards.extend(reversed(rest))
            request = fresh
        super().replay_deal(request)

    def replay_decide(self, round_id: str, decision: round_pb2.Decision) -> None:
        """A journaled decision the fresh shoe no longer allows is skipped."""
        with contextlib.suppress(StatusError):
            super().replay_decide(round_id, decision)


class AppliesTheLastDecisionTwice(EngineAdapter):
    """Replays each open round's last journaled decision twice."""

    def restore(self) -> None:
        """The journal replayed, then each open round's last decision applied again."""
        super().restore()
        for round_id in self.book.ids():
            entry = self.book.get(round_id)
            if entry.decisions:
                with contextlib.suppress(StatusError):
                    self.replay_decide(round_id, entry.decisions[-1])


class SettlesTwiceAfterRestart(EngineAdapter):
    """Forgets at a restart that a round was settled: it is open again, and paid again."""

    def journal_settle(self, round_id: str, entry: _Open) -> None:
        """The settle is not journaled: the round comes back open."""
        del round_id, entry

    def restore(self) -> None:
        """Rounds the audit log holds are not closed either (it has none: no log)."""
        audit, self.audit = self.audit, None
        try:
            super().restore()
        finally:
            self.audit = audit


class LosesTheRouletteBoard(EngineAdapter):
    """Restores open rounds only: a table's earlier spins, its board and prison, are lost."""

    def restore(self) -> None:
        """Settled spins are not replayed: their ids stay used, their results are gone."""
        assert self.journal is not None  # noqa: S101 - called with a journal only
        events = list(self.journal.events())
        settled = {e.round_id for e in events if e.kind == "settle"}
        for round_id in self.journal.used():
            self.book.remember(round_id)
        for event in events:
            if event.round_id in settled:
                self.book.remember(event.round_id)
            elif event.kind == "deal":
                self.replay_deal(engine_service_pb2.DealRequest.FromString(event.payload))
            elif event.kind == "decide":
                self.replay_decide(event.round_id, round_pb2.Decision.FromString(event.payload))


class JournalsAfterAnswering(EngineAdapter):
    """Answers first and journals later, a batch at a time: a crash loses what it owes."""

    #: Calls answered before the journal is written (a write-behind buffer, "for speed").
    batch = 64

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._late: list[Callable[[], None]] = []
        super().__init__(*args, **kwargs)

    def journal_write(self, event: Event) -> None:
        """Kept for later instead of written now."""
        self._late.append(functools.partial(super().journal_write, event))

    def journal_settle(self, round_id: str, entry: _Open) -> None:
        """Kept for later too, in its place among the calls."""
        self._late.append(functools.partial(super().journal_settle, round_id, entry))

    def _flush(self) -> None:
        late, self._late = self._late, []
        for write in late:
            write()

    def _guarded(self, request: object, context: grpc.ServicerContext, action: Any) -> Any:
        def late_first() -> Any:
            # The calls answered before this one are written once a batch is full.
            if len(self._late) >= self.batch:
                self._flush()
            return action()

        return super()._guarded(request, context, late_first)

    def close_audit(self) -> None:
        """A graceful stop writes what is still owed."""
        with self._lock:
            self._flush()
        super().close_audit()


def _recovering(name: str, profile: str, description: str, kit: type[EngineAdapter]) -> Mutant:
    return Mutant(
        name=name,
        clause="CONTRACT.recovery",
        profile=profile,
        description=description,
        factory=DemoEngine,
        kit=kit,
        recovery=True,
    )


#: Recovery bugs (CONTRACT.recovery): each is served with ``--state-dir`` and claims recovery;
#: the recovery vectors (``conformance/recovery/``) catch them, each restarting the engine.
_RECOVERY_ZOO: tuple[Mutant, ...] = (
    _recovering(
        "recovery-forgets-open-rounds",
        "blackjack-a",
        "After a restart, every open round is gone (its id still taken).",
        ForgetsOpenRounds,
    ),
    _recovering(
        "recovery-fresh-shoe",
        "blackjack-a",
        "After a restart, a round keeps its cards but draws the rest from a fresh shoe.",
        FreshShoeAfterRestart,
    ),
    _recovering(
        "recovery-last-decision-twice",
        "blackjack-c",
        "After a restart, each open round's last decision is applied a second time.",
        AppliesTheLastDecisionTwice,
    ),
    _recovering(
        "recovery-settles-twice",
        "baccarat-b",
        "After a restart, a settled round is open again and a second Settle pays it again.",
        SettlesTwiceAfterRestart,
    ),
    _recovering(
        "recovery-loses-the-board",
        "roulette-c",
        "After a restart, a roulette table's board holds none of its earlier spins.",
        LosesTheRouletteBoard,
    ),
    _recovering(
        "recovery-journals-after-answering",
        "blackjack-a",
        "A call is journaled after its answer: a SIGKILL in between loses it.",
        JournalsAfterAnswering,
    ),
)

#: The recovery mutants, by name.
RECOVERY_MUTANTS: dict[str, Mutant] = {mutant.name: mutant for mutant in _RECOVERY_ZOO}
