"""Oracle blackjack rounds per second per core, against Gymnasium's ``Blackjack-v1``.

Both play the same policy with one seat: hit below 17, else stand. Gymnasium's game is far
simpler (an infinite deck, hit or stick only, no clause, no money); the oracle plays the
profile's full rules from a seeded six-deck shoe, declines insurance and even money, cites
its clauses and settles every round in integer minor units. Repetitions alternate the two
(Gymnasium, oracle, Gymnasium...) so that both meet the same load on a shared machine; the
figure is the median of the repetitions' ratios.
"""

from __future__ import annotations

import importlib
import time
from typing import Any

from croupier.oracle.blackjack import BlackjackState
from croupier.oracle.decision import Action, Decision
from croupier.oracle.profile import Profile, shipped_profile
from croupier.oracle.rounds import (
    BlackjackWager,
    Round,
    RoundRequest,
    SeatRequest,
    apply_decision,
    start_round,
)
from croupier.oracle.shoe import seeded_shoe

#: The oracle's profile: six decks, the dealer stands on every 17, as in Gymnasium.
PROFILE = "blackjack-a"
#: Cards handed to each round, cut from the shoe where the last round stopped: more than one
#: seat and the dealer can take when the seat hits below 17.
WINDOW = 32
#: Seeded shoes the rounds are dealt from in turn, shuffled before the clock starts.
SHOES = 8
STAKE = 100
BALANCE = 10_000
ENV_ID = "Blackjack-v1"


def make_env() -> tuple[Any, str]:
    """``gym.make("Blackjack-v1")`` as a user would, and what it is (version, wrappers)."""
    gym: Any = importlib.import_module("gymnasium")
    env = gym.make(ENV_ID)
    env.reset(seed=0)
    return env, f"gymnasium {gym.__version__} gym.make({ENV_ID!r}): {env}"


def gym_seconds(env: Any, rounds: int) -> float:
    """Seconds for ``rounds`` episodes: hit (1) while the player's sum is below 17, else stick."""
    started = time.perf_counter()
    for _ in range(rounds):
        observation, _ = env.reset()
        while observation[0] < 17:
            observation, _, done, _, _ = env.step(1)
            if done:
                break
        else:
            env.step(0)
    return time.perf_counter() - started


def choose(current: Round) -> Decision:
    """The policy, among the round's legal decisions: no insurance, hit below 17, else stand."""
    legal = current.legal
    state = current.game
    assert isinstance(state, BlackjackState)
    turn = state.turn
    assert turn is not None
    seat, hand = turn.seat, turn.hand
    for declined in (Action.DECLINE_INSURANCE, Action.DECLINE_EVEN_MONEY):
        if declined in legal:
            return Decision(seat=seat, hand=hand, action=declined)
    # The hand's total from the working state: the frozen seats are built only when read.
    total = state.total(seat, hand)
    action = Action.HIT if total < 17 and Action.HIT in legal else Action.STAND
    return Decision(seat=seat, hand=hand, action=action)


class OracleTable:
    """One seat at the oracle's table, dealt from seeded shoes in turn, like a real shoe."""

    def __init__(self, profile: Profile | None = None) -> None:
        self.profile = profile or shipped_profile(PROFILE)
        decks = self.profile.integer("decks")
        self.shoes = [seeded_shoe(f"bench-{n}", decks) for n in range(SHOES)]
        self.shoe, self.position, self.dealt = 0, 0, 0

    def seconds(self, rounds: int) -> float:
        """Seconds for ``rounds`` rounds, each played to its settlement."""
        profile = self.profile
        seats = (SeatRequest(balance=BALANCE, wagers=(BlackjackWager(amount=STAKE),)),)
        started = time.perf_counter()
        for _ in range(rounds):
            shoe = self.shoes[self.shoe]
            if len(shoe) - self.position < WINDOW:
                self.shoe, self.position = (self.shoe + 1) % SHOES, 0
                shoe = self.shoes[self.shoe]
            self.dealt += 1
            request = RoundRequest(
                round_id=f"bench-{self.dealt}",
                profile_id=profile.id,
                table_id="bench",
                currency="EUR",
                seats=seats,
                shoe=shoe[self.position : self.position + WINDOW],
            )
            current = start_round(profile, request)
            while not current.complete:
                current = apply_decision(current, choose(current))
            current.settlement  # noqa: B018 - settled, as an engine would
            self.position += len(current.cards_dealt)
        return time.perf_counter() - started


def measure(rounds: int, repetitions: int) -> tuple[list[float], list[float], str]:
    """Rounds per second of the oracle and of Gymnasium, repetition by repetition, interleaved."""
    env, described = make_env()
    table = OracleTable()
    gym_seconds(env, max(rounds // 10, 1))  # warm both up: imports, caches, the env checker
    table.seconds(max(rounds // 10, 1))
    oracle_rates, gym_rates = [], []
    for _ in range(repetitions):
        gym_rates.append(rounds / gym_seconds(env, rounds))
        oracle_rates.append(rounds / table.seconds(rounds))
    env.close()
    return oracle_rates, gym_rates, described
