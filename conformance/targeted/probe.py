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

from dataclasses import dataclass

from croupier.conformance.v1 import vector_pb2
from croupier.v1 import engine_service_pb2, round_pb2

from conformance.cases import decisions_message, seats_message
from conformance.vectors import finish_vector, play_round
from oracle import roulette
from oracle.profile import Profile
from oracle.shoe import SeededStream

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


def probe(topic: str, *rounds: ProbeRound) -> Probe:
    """A probe of these rounds."""
    return Probe(rounds=rounds, topic=topic)


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
