"""Protocol bugs of the mutant zoo: the demo engine served through a kit gone wrong.

The rules are right; what the engine sends is not: a refusal's status code, reason or
metadata, the round id it echoes, the ids it lets a round take, a Settle it lets through.
Each class is the adapter kit with one hook overridden, the way a vendor's own server code
would get it wrong.
"""

from __future__ import annotations

from typing import Any, TypeVar

import grpc

from croupier.clients.adapter import DealInput, EngineAdapter, RoundView
from croupier.clients.book import RoundBook
from croupier.clients.status import StatusError, error_status
from croupier.v1 import round_pb2

T = TypeVar("T")


class _Renamed(EngineAdapter):
    """Sends refusals of one reason under another."""

    #: The reason sent wrong, and what is sent instead.
    wrong: tuple[str, str] = ("", "")

    def status_of(self, refusal: StatusError) -> grpc.Status:
        """The right refusal, under the wrong reason."""
        if refusal.reason == self.wrong[0]:
            return error_status(self.wrong[1], refusal.message, refusal.metadata)
        return super().status_of(refusal)


class MalformedCardIsInvalidRound(_Renamed):
    """Refuses a malformed card with INVALID_ROUND instead of INVALID_CARD."""

    wrong = ("INVALID_CARD", "INVALID_ROUND")


class UnknownProfileIsInvalidRound(_Renamed):
    """Refuses a profile it does not know with INVALID_ROUND instead of UNKNOWN_PROFILE."""

    wrong = ("UNKNOWN_PROFILE", "INVALID_ROUND")


class UnknownRoundIsIllegalDecision(_Renamed):
    """Refuses a Decide for a round it does not hold with ILLEGAL_DECISION."""

    wrong = ("ROUND_NOT_FOUND", "ILLEGAL_DECISION")


class IllegalDecisionWrongCode(EngineAdapter):
    """Sends ILLEGAL_DECISION with INVALID_ARGUMENT instead of FAILED_PRECONDITION."""

    def status_of(self, refusal: StatusError) -> grpc.Status:
        """The right reason and metadata under the wrong code."""
        if refusal.reason != "ILLEGAL_DECISION":
            return super().status_of(refusal)
        return error_status(
            refusal.reason, refusal.message, refusal.metadata, grpc.StatusCode.INVALID_ARGUMENT
        )


class IllegalDecisionWithoutLegal(EngineAdapter):
    """Sends ILLEGAL_DECISION without the legal decisions in its metadata."""

    def status_of(self, refusal: StatusError) -> grpc.Status:
        """The metadata the contract requires is left out."""
        if refusal.reason == "ILLEGAL_DECISION":
            return error_status(refusal.reason, refusal.message, {})
        return super().status_of(refusal)


class EchoesTheTableId(EngineAdapter):
    """Answers every state with the table's id where the round's goes."""

    def state_of(self, request: DealInput, view: RoundView) -> round_pb2.RoundState:
        """The table id, not the round id."""
        state = super().state_of(request, view)
        state.round_id = request.table_id
        return state


class SettlesUnfinishedRounds(EngineAdapter):
    """Settles a round that still waits for a decision."""

    def check_complete(self, round_id: str, view: RoundView) -> None:
        """No check."""
        del round_id, view


class _ForgetfulBook(RoundBook[T]):
    """Remembers the ids of open rounds only: a settled round's id may be dealt again."""

    def check_new(self, round_id: str) -> None:
        """Only an open round's id is taken."""
        try:
            self.get(round_id)
        except StatusError:
            return
        super().check_new(round_id)


class ReusesRoundIds(EngineAdapter):
    """Lets a new round take the id of a round already settled."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type] # the kit's own arguments
        self.book = _ForgetfulBook(max_open_rounds=self.book.max_open_rounds)


class CurrencyLeftToTheEngine(EngineAdapter):
    """Lets any currency code through, for the engine to check (or not)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type] # the kit's own arguments
        self.currencies = None


# --- the clause of a difference (issue 22, item 3) ------------------------------------------


class AnswersTheStateBefore(EngineAdapter):
    """Answers a Decide with the state it answered before it: a reply cache filled too late."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type] # the kit's own arguments
        self.answered: dict[str, round_pb2.RoundState] = {}

    def state_of(self, request: DealInput, view: RoundView) -> round_pb2.RoundState:
        """The state the round answered last, if any (a Settle's is its last Decide's)."""
        state = super().state_of(request, view)
        before = self.answered.get(state.round_id)
        self.answered[state.round_id] = state
        return state if before is None else before


# --- what the corpus never asked (issue 22) ---------------------------------------------------


class _BookKeepsSettled(RoundBook[T]):
    """Closes nothing: a settled round stays open and can be settled again."""

    def close(self, round_id: str) -> T:
        """The round, left in the book."""
        return self.get(round_id)


class SettlesTwice(EngineAdapter):
    """Pays a settled round again when Settle is sent a second time."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type] # the kit's own arguments
        self.book = _BookKeepsSettled(max_open_rounds=self.book.max_open_rounds)


class DecidesInPlace(EngineAdapter):
    """Applies a Decide to the round itself, not to a copy: a refusal halfway keeps its change."""

    def working_copy(self, game: Any) -> Any:
        """The round itself."""
        return game


class _PerProfileBook(RoundBook[Any]):
    """Takes a round id once per profile: the same id under another profile is a new round."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.taken: set[tuple[str, str]] = set()

    def check_new(self, round_id: str) -> None:
        """Nothing yet: the profile is known when the round opens."""
        del round_id

    def open(self, round_id: str, value: Any) -> None:
        """Refuse an id this profile used before; another profile's is let through."""
        key = (value.request.profile_id, round_id)
        if key in self.taken:
            raise StatusError("ROUND_EXISTS", f"round {round_id!r} exists", round_id=round_id)
        self.taken.add(key)
        self.update(round_id, value)


class RoundIdsPerProfile(EngineAdapter):
    """Keeps round ids unique within each profile only."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type] # the kit's own arguments
        self.book = _PerProfileBook(max_open_rounds=self.book.max_open_rounds)


class _FoldingBook(RoundBook[T]):
    """Files rounds under their id in lower case: "R1" and "r1" are one round."""

    def check_new(self, round_id: str) -> None:
        """The id, case folded."""
        super().check_new(round_id.casefold())

    def open(self, round_id: str, value: T) -> None:
        """The id, case folded."""
        super().open(round_id.casefold(), value)

    def get(self, round_id: str) -> T:
        """The id, case folded."""
        return super().get(round_id.casefold())

    def update(self, round_id: str, value: T) -> None:
        """The id, case folded."""
        super().update(round_id.casefold(), value)

    def close(self, round_id: str) -> T:
        """The id, case folded."""
        return super().close(round_id.casefold())


class CaseInsensitiveRoundIds(EngineAdapter):
    """Takes round ids that differ only in letter case for the same round."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type] # the kit's own arguments
        self.book = _FoldingBook(max_open_rounds=self.book.max_open_rounds)


class NeededCountedFromZero(EngineAdapter):
    """Sends SHOE_EXHAUSTED's "needed" counted from 0, one less than the contract's."""

    def status_of(self, refusal: StatusError) -> grpc.Status:
        """The right refusal, "needed" one short."""
        if refusal.reason == "SHOE_EXHAUSTED" and "needed" in refusal.metadata:
            metadata = {**refusal.metadata, "needed": str(int(refusal.metadata["needed"]) - 1)}
            return error_status(refusal.reason, refusal.message, metadata)
        return super().status_of(refusal)
