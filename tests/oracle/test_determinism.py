"""The oracle gives the same answer in every process: the same rounds replayed under other hash seeds.

Calling a pure function twice in one process cannot catch the nondeterminism that matters
here: Python randomizes the hash of strings, and so of enum members, per process, and the
order of a set of them follows. A rule that iterated over such a set (clauses, actions, bet
kinds) would list legal decisions, steps, clauses or error text in another order in another
process; an audit replayed elsewhere would then disagree with the engine's log.

So a fixed batch of seeded rounds of every game and profile (legal decisions at each turn,
refusals, steps, settlements, the clauses behind every value) is written out here and in
fresh interpreters with other ``PYTHONHASHSEED`` values, and the transcripts must be equal.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from croupier.oracle import baccarat, blackjack, roulette
from croupier.oracle.cards import Card, Rank
from croupier.oracle.errors import OracleError
from croupier.oracle.profile import Profile, load_profile_text, shipped_profile, shipped_profiles
from croupier.oracle.provenance import compact
from croupier.oracle.settlement import settlement_citations
from croupier.oracle.shoe import seeded_shoe, seeded_spins

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 25

# Every blackjack switch that the shipped profiles leave at one value, turned.
_BLACKJACK_LABS = (
    """
id = "det-wide"
extends = "blackjack-c"
[parameters]
max_hands = { value = 4 }
dealer_hits_soft_17 = { value = true }
peek = { value = "none" }
auto_stand_21 = { value = false }
dealer_blackjack_takes = { value = "original-stake" }
""",
    """
id = "det-odd"
extends = "blackjack-c"
[parameters]
split_pairs = { value = "same-value" }
double_after_split = { value = false }
hit_split_aces = { value = false }
split_21_is_blackjack = { value = true }
blackjack_vs_ace = { value = "nothing" }
surrender_after_split = { value = true }
blackjack_pays = { value = "6:5" }
natural_paid_at_once = { value = true }
peek = { value = "ace-or-ten" }
""",
)


def _error(exc: OracleError) -> str:
    return f"{exc.reason} {exc.clause} {exc.message} {list(exc.metadata.items())}"


def _stacked(rng: random.Random, shoe: tuple[Card, ...], seats: int) -> tuple[Card, ...]:
    """Now and then a dealer ace or ten, or a pair on seat 0, moved to the front."""
    wanted = rng.choice(
        ({}, {seats: Rank.ACE}, {seats: Rank.KING}, {0: Rank.EIGHT, seats + 1: Rank.EIGHT})
    )
    cards = list(shoe)
    for position, rank in sorted(wanted.items()):
        found = next(j for j in range(position, len(cards)) if cards[j].rank is rank)
        cards.insert(position, cards.pop(found))
    return tuple(cards)


def _blackjack(profile: Profile) -> Iterator[str]:
    rules = blackjack.BlackjackRules.from_profile(profile)
    for index in range(ROUNDS):
        rng = random.Random(f"determinism/{profile.id}/{index}")  # noqa: S311 - seeded test choices
        count = rng.randint(1, 3)
        seats = [
            blackjack.BlackjackSeat(stake=stake, balance=stake * rng.choice((1, 2, 5)))
            for stake in (rng.choice((1, 15, 100)) for _ in range(count))
        ]
        shoe = _stacked(rng, seeded_shoe(f"determinism/{profile.id}/{index}", rules.decks), count)
        state = blackjack.deal(rules, shoe, seats)
        while not state.complete:
            assert state.turn is not None
            yield f"legal {state.legal} options {list(blackjack.options(state).items())}"
            for action in blackjack.Action:
                if action not in state.legal:
                    wrong = blackjack.Decision(
                        seat=state.turn.seat, hand=state.turn.hand, action=action
                    )
                    try:
                        state.decide(wrong)
                    except OracleError as exc:
                        yield _error(exc)
                    break
            action = rng.choice(state.legal)
            state = state.decide(
                blackjack.Decision(seat=state.turn.seat, hand=state.turn.hand, action=action)
            )
        yield repr(state.steps)
        yield repr(state.settlement)
        yield repr(list(state.citations().items()))
        yield repr(list(compact(state.citations()).items()))
        yield repr(list(settlement_citations(state.settlement, rules.cite("rounding")).items()))
        yield repr(list(blackjack.accepted(rules).items()))


def _baccarat(profile: Profile) -> Iterator[str]:
    rules = baccarat.BaccaratRules.from_profile(profile)
    for index in range(ROUNDS):
        rng = random.Random(f"determinism/{profile.id}/{index}")  # noqa: S311 - seeded test choices
        kinds = rng.sample(list(baccarat.BetKind), rng.randint(1, 3))
        bets = tuple(baccarat.BaccaratBet(kind=k, amount=rng.choice((1, 15, 99))) for k in kinds)
        seat = baccarat.BaccaratSeat(balance=300, bets=bets)
        shoe = seeded_shoe(f"determinism/{profile.id}/{index}", rules.decks)
        shoe = shoe[: rng.choice((3, 4, 5, 6, 6, 6, 6))]
        try:
            played = baccarat.play_round(rules, shoe, [seat])
        except OracleError as exc:
            yield _error(exc)
            continue
        yield repr(played.steps)
        yield repr(played.settlement)
        yield repr(list(played.citations().items()))
        yield repr(list(compact(played.citations()).items()))
        yield repr(list(settlement_citations(played.settlement, rules.cite("rounding")).items()))
        yield repr(list(baccarat.accepted(rules).items()))


def _roulette(profile: Profile) -> Iterator[str]:
    rules = roulette.RouletteRules.from_profile(profile)
    wheel = rules.wheel
    for kind in roulette.BetKind:
        yield f"{kind} {roulette.shapes(wheel, kind)}"
    kinds = [kind for kind in roulette.BetKind if roulette.shapes(wheel, kind)]
    board = roulette.TableHistory.new("t")
    for index, pocket in enumerate(
        seeded_spins(f"determinism/{profile.id}", ROUNDS, wheel.pockets)
    ):
        rng = random.Random(f"determinism/{profile.id}/{index}")  # noqa: S311 - seeded test choices
        bets = []
        for kind in rng.sample(kinds, 4):
            numbers = rng.choice(roulette.shapes(wheel, kind))
            bets.append(roulette.RouletteBet(kind=kind, numbers=numbers, amount=rng.randint(1, 9)))
        # A bet that is no shape: refused, with the layout's help text.
        wrong = roulette.RouletteBet(kind=roulette.BetKind.SPLIT, numbers=(1, 5), amount=1)
        for seat_bets in ((wrong,), tuple(bets)):
            seat = roulette.RouletteSeat(balance=100, bets=seat_bets)
            try:
                played = roulette.spin_round(rules, board, pocket, (seat,))
            except OracleError as exc:
                yield _error(exc)
                continue
            board = played.history
            yield repr(played.steps)
            yield repr(played.settlement)
            yield repr(list(played.citations().items()))
            yield repr(
                list(settlement_citations(played.settlement, rules.cite("rounding")).items())
            )
            yield repr(list(roulette.accepted(rules).items()))


_GAMES: dict[str, Callable[[Profile], Iterator[str]]] = {
    "blackjack": _blackjack,
    "baccarat": _baccarat,
    "roulette": _roulette,
}


def transcript() -> dict[str, str]:
    """The digest of every profile's batch of rounds, and of the profiles themselves."""
    labs = tuple(load_profile_text(text) for text in _BLACKJACK_LABS)
    digests = {}
    for profile in (*shipped_profiles(), *labs):
        digest = hashlib.sha256()
        digest.update(repr(profile).encode())
        digest.update(repr(sorted(profile.clause_ids())).encode())
        for text in _GAMES[profile.game.value](profile):
            digest.update(text.encode())
            digest.update(b"\n")
        digests[profile.id] = digest.hexdigest()
    return digests


def _in_a_fresh_interpreter(hash_seed: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    code = "import json; from tests.oracle.test_determinism import transcript; print(json.dumps(transcript()))"
    done = subprocess.run(  # noqa: S603 - our own interpreter on our own module
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, str] = json.loads(done.stdout)
    return found


def test_the_transcript_covers_every_shipped_profile() -> None:
    digests = transcript()
    assert set(digests) == {p.id for p in shipped_profiles()} | {"det-wide", "det-odd"}
    assert shipped_profile("blackjack-a").id in digests


@pytest.mark.parametrize("hash_seed", ["0", "1", "4242"])
def test_the_same_rounds_in_another_process_give_the_same_transcript(hash_seed: str) -> None:
    assert _in_a_fresh_interpreter(hash_seed) == transcript()
