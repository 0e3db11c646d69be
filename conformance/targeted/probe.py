"""A probe: the rounds a parameter's generator proposes, and how one is played into a vector.

A probe round is written like a hand-written case's round (``conformance.cases`` text forms:
seats ``"1000:100"``, a shoe in contract order or a pocket), with a *plan* instead of a fixed
script: blackjack decisions named in order (``"split double=40 hit"``), each sent to the hand
whose turn it is. An offer the plan does not name (insurance, even money, early surrender) is
declined, a plan that runs out stands, and a named decision the rules withhold is sent all
the same: the vector then expects its refusal. The decisions are frozen into the vector as
the oracle answered them, so the vector replays under any other value as a fixed script.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from croupier.conformance.cases import decisions_message, seats_message
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import finish_vector, play_round
from croupier.oracle import roulette
from croupier.oracle.profile import Profile
from croupier.oracle.shoe import SeededStream
from croupier.v1 import engine_service_pb2, round_pb2

#: The decline that answers each offer the plan does not take.
_DECLINES = (
    round_pb2.DECISION_KIND_DECLINE_INSURANCE,
    round_pb2.DECISION_KIND_DECLINE_EVEN_MONEY,
    round_pb2.DECISION_KIND_DECLINE_SURRENDER,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ProbeRound:
    """One round of a probe: seats, the outcome source, and the plan of decisions."""

    seats: tuple[str, ...]
    shoe: str = ""
    pocket: str = ""
    plan: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Probe:
    """Rounds played in order at one table, and what they are meant to decide."""

    rounds: tuple[ProbeRound, ...]
    #: What the rounds show, in a few words (the vector's description).
    topic: str
    #: Whether the amounts are what the probe decides (a stake at a limit): never ``fitted``.
    exact: bool = False


def probe(topic: str, *rounds: ProbeRound, exact: bool = False) -> Probe:
    """A probe of these rounds."""
    return Probe(rounds=rounds, topic=topic, exact=exact)


def _amounts(text: str, scale: Callable[[int], int]) -> str:
    """A bet's or a decision's text with its amount (after ``=``, or the whole) scaled."""
    head, sep, amount = text.rpartition("=")
    if not sep:
        return str(scale(int(text))) if text.strip().lstrip("-").isdigit() else text
    return f"{head}={scale(int(amount))}"


def _stakes(pround: ProbeRound) -> list[int]:
    found = []
    for seat in pround.seats:
        for bet in seat.partition(":")[2].split(","):
            amount = bet.rpartition("=")[2].strip()
            if amount.lstrip("-").isdigit():
                found.append(int(amount))
    return found


def _scaling(low: int, high: int, stakes: list[int]) -> tuple[Callable[[int], int], str] | None:
    """How to bring the stakes within the limits, and its name; None if they are, or cannot be."""
    smallest, largest = min(stakes), max(stakes)
    if smallest < low:
        # The smallest odd factor that lifts the smallest stake to the minimum (odd: an odd
        # stake stays odd, a half stays a half).
        times = -(-low // smallest)
        times += 1 - times % 2
        if largest * times <= high:
            return (lambda amount: amount * times), f"times {times}"
    elif largest > high:
        parts = -(-largest // high)
        if smallest // parts >= low:
            return (
                lambda amount: max(1, amount // parts) if amount > 0 else amount
            ), f"over {parts}"
    return None


def fitted(profile: Profile, found: Probe) -> Probe:
    """The probe with its amounts scaled so that its stakes are within the table's limits.

    A probe is written for stakes of a few units to a few hundred; a table whose limits leave
    them out takes them multiplied by the smallest odd factor that lifts the smallest stake to
    the minimum, or divided by the smallest whole number that brings the largest under the
    maximum. A probe whose stakes cannot all fit, or that is ``exact``, is left as it is.
    """
    stakes = [s for pround in found.rounds for s in _stakes(pround) if s > 0]
    if found.exact or not stakes:
        return found
    scaling = _scaling(profile.integer("min_bet"), profile.integer("max_bet"), stakes)
    if scaling is None:
        return found
    scale, how = scaling

    def seat(text: str) -> str:
        balance, _, bets = text.partition(":")
        return f"{scale(int(balance))}:" + ",".join(_amounts(b, scale) for b in bets.split(","))

    rounds = tuple(
        dataclasses.replace(
            pround,
            seats=tuple(seat(text) for text in pround.seats),
            plan=" ".join(_amounts(token, scale) for token in pround.plan.split()),
        )
        for pround in found.rounds
    )
    return dataclasses.replace(found, rounds=rounds, topic=f"{found.topic}, stakes {how}")


class _Plan:
    """A campaign-style policy that follows a probe round's plan (``play_round``'s ``policy``)."""

    def __init__(self, text: str) -> None:
        self._pending = decisions_message(text, "EUR")

    def __call__(self, state: round_pb2.RoundState, _stream: SeededStream) -> round_pb2.Decision:
        legal = set(state.legal_decisions)
        turn = round_pb2.Decision(seat=state.turn.seat, hand=state.turn.hand)
        if self._pending:
            wanted = self._pending[0]
            if wanted.kind in legal or not legal & set(_DECLINES):
                self._pending.pop(0)
                turn.kind = wanted.kind
                if wanted.HasField("amount"):
                    currency = state.blackjack.seats[0].hands[0].stake.currency_code
                    turn.amount.CopyFrom(wanted.amount)
                    turn.amount.currency_code = currency
                return turn
        for kind in (*_DECLINES, round_pb2.DECISION_KIND_STAND):
            if kind in legal:
                turn.kind = kind
                return turn
        turn.kind = state.legal_decisions[0]
        return turn


def play_probe(profile: Profile, found: Probe, vid: str, name: str) -> vector_pb2.Vector:
    """The probe played through the oracle under ``profile``, frozen as a vector."""
    vector = vector_pb2.Vector(
        id=vid,
        name=name,
        level=vector_pb2.LEVEL_REQUIRED,
        profile_id=profile.id,
        description=f"Generated from the profile's parameters: {found.topic}.",
    )
    board: roulette.TableHistory | None = None
    taken: set[str] = set()
    for index, pround in enumerate(found.rounds):
        deal = engine_service_pb2.DealRequest(
            round_id=f"{vid}-r{index}",
            profile_id=profile.id,
            table_id=f"{vid}-table",
            currency_code="EUR",
            seats=seats_message(profile.game, pround.seats, "EUR"),
        )
        if pround.pocket:
            deal.spin.pocket = pround.pocket
        else:
            deal.shoe.cards.extend(pround.shoe.split())
        policy = (_Plan(pround.plan), SeededStream(vid))
        outcome = play_round(profile, deal, [], board, policy=policy, taken=taken)
        taken.add(deal.round_id)
        board = outcome.history
        vector.rounds.append(outcome.round)
    finish_vector(vector)
    return vector
