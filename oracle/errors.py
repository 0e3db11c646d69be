"""The oracle's exceptions: one root, one subclass per stable reason.

Each subclass carries ``reason``, the UPPER_SNAKE string that the gRPC edge
puts in ``google.rpc.ErrorInfo.reason`` (DESIGN.md "Errors"), and
``metadata``, string pairs that say what was wrong.
"""

from __future__ import annotations

from collections.abc import Mapping


def shown(value: str, limit: int = 64) -> str:
    """``value`` quoted for an error message, cut short past ``limit`` characters.

    An error names what was wrong; a 9 kB round id named whole would not fit in a reply.
    """
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}... ({len(value)} characters)"


class OracleError(Exception):
    """Root of every error the oracle raises on bad input.

    ``clause`` is what refuses the input: the RULES.md clause of the rule that decided
    (``metadata['clause']``, given where the error is raised), else the contract's label
    for this kind of error (``default_clause``).
    """

    reason = "ORACLE_ERROR"
    default_clause = "CONTRACT.request"

    def __init__(self, message: str, **metadata: object) -> None:
        super().__init__(message)
        self.message = message
        self.metadata: Mapping[str, str] = {k: str(v) for k, v in metadata.items()}

    def __str__(self) -> str:
        return self.message

    @property
    def clause(self) -> str:
        """The clause or contract label that refuses the input."""
        return self.metadata.get("clause", self.default_clause)


class UnknownProfileError(OracleError):
    """No profile has the requested id."""

    reason = "UNKNOWN_PROFILE"


class ProfileError(OracleError):
    """A profile file is malformed: unknown key or clause, impossible value."""

    reason = "INVALID_PROFILE"


class InvalidCardError(OracleError):
    """A card string is not rank ``A23456789TJQK`` then suit ``CDHS``."""

    reason = "INVALID_CARD"


class ShoeNotInProfileError(OracleError):
    """The shoe holds more copies of a card than the profile's decks contain."""

    reason = "SHOE_NOT_IN_PROFILE"


class ShoeExhaustedError(OracleError):
    """The round needs a card beyond the end of the forced shoe.

    Metadata: ``needed`` (the card's position, from 1), ``shoe_size``, and ``clause``, the
    shoe's rule that refuses the round (BJ.deal-order, BAC.deal: cards come from the forced
    shoe only). ``asked_by`` is the rule that asked for the card (the dealer's drawing rule, a
    tableau): what a recorded round missing that card breaks (``oracle.verify``).
    """

    reason = "SHOE_EXHAUSTED"

    def __init__(self, message: str, *, asked_by: str = "", **metadata: object) -> None:
        super().__init__(message, **metadata)
        self.asked_by = asked_by or self.clause


class IllegalDecisionError(OracleError):
    """A decision the rules do not allow now; ``metadata['legal']`` lists the legal ones."""

    reason = "ILLEGAL_DECISION"


class InsufficientBalanceError(OracleError):
    """A stake exceeds the seat's uncommitted funds."""

    reason = "INSUFFICIENT_BALANCE"


class BetOutOfLimitsError(OracleError):
    """A stake is below the table minimum or above the table maximum."""

    reason = "BET_OUT_OF_LIMITS"


class InvalidBetLayoutError(OracleError):
    """A bet's numbers do not form a shape of the layout, or the bet kind is wrong for the game."""

    reason = "INVALID_BET_LAYOUT"


class BetNotOfferedError(OracleError):
    """A bet of a kind the table does not offer (VAR.rou.bets-offered); the round is not dealt.

    Metadata: ``seat`` (0-based), ``kind`` (the bet kind refused), ``offered``.
    """

    reason = "BET_NOT_OFFERED"


class TooManySeatsError(OracleError):
    """More seats than the table takes (TABLE.seats); the round is not dealt.

    Metadata: ``limit`` (the most seats the table takes) and ``seats`` (how many came).
    """

    reason = "TOO_MANY_SEATS"


class InvalidRoundError(OracleError):
    """A round request is malformed: no seats, a duplicate seat, a bad amount or id."""

    reason = "INVALID_ROUND"


class RoundNotCompleteError(OracleError):
    """Settlement was asked for a round that still waits for decisions."""

    reason = "ROUND_NOT_COMPLETE"
    default_clause = "CONTRACT.lifecycle"


class RoundNotFoundError(OracleError):
    """No open round has this id (never dealt, settled already, or expired)."""

    reason = "ROUND_NOT_FOUND"
    default_clause = "CONTRACT.lifecycle"


class RoundExistsError(OracleError):
    """A round with this id is open or was played already; ids are never reused."""

    reason = "ROUND_EXISTS"
    default_clause = "CONTRACT.lifecycle"


class TooManyRoundsError(OracleError):
    """The engine holds as many open rounds as it may; settle or let some expire first."""

    reason = "TOO_MANY_OPEN_ROUNDS"
    default_clause = "CONTRACT.lifecycle"


class BatchTooLargeError(OracleError):
    """A batch holds more records than the server takes in one call."""

    reason = "BATCH_TOO_LARGE"
    default_clause = "CONTRACT.lifecycle"
