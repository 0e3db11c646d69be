"""The oracle's open rounds: what ``EngineService`` deals, decides and settles, by round id.

The round book is the one the adapter kit uses too (``clients.book``: ids taken for good,
a bound on open rounds, expiry); the boards are the rules core's one board store
(``oracle.roulette.Boards``); profiles come from the one registry (``oracle.profile``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier.clients.book import RoundBook
from croupier.oracle.roulette import Boards
from croupier.oracle.rounds import Round, apply_decision, start_round

if TYPE_CHECKING:
    from croupier.oracle.decision import Decision
    from croupier.oracle.profile import Profiles
    from croupier.oracle.rounds import RoundRequest


class OpenRounds:
    """Rounds dealt and not yet settled, and the boards of the tables they are played at."""

    def __init__(
        self,
        profiles: Profiles,
        *,
        max_open_rounds: int = 10_000,
        ttl_seconds: float = 900.0,
        max_tables: int = 10_000,
    ) -> None:
        self.profiles = profiles
        self.book: RoundBook[Round] = RoundBook(
            max_open_rounds=max_open_rounds, ttl_seconds=ttl_seconds
        )
        self.boards = Boards(max_tables)

    def deal(self, request: RoundRequest) -> Round:
        """Start a round and keep it open until it is settled or expires."""
        self.book.check_new(request.round_id)
        profile = self.profiles.get(request.profile_id)
        current = start_round(profile, request, self.boards.get(profile.id, request.table_id))
        if current.history is not None:
            self.boards.put(profile.id, current.history)
        self.book.open(request.round_id, current)
        return current

    def get(self, round_id: str) -> Round:
        """The open round with this id."""
        return self.book.get(round_id)

    def decide(self, round_id: str, decision: Decision) -> Round:
        """Apply one decision to an open round."""
        current = apply_decision(self.book.get(round_id), decision)
        self.book.update(round_id, current)
        return current

    def settle(self, round_id: str) -> Round:
        """Close a complete round (``ROUND_NOT_COMPLETE`` while it waits for a decision)."""
        current = self.book.get(round_id)
        _ = current.settlement
        self.book.close(round_id)
        return current
