"""Recovery vectors (CONTRACT.recovery): rounds with a restart of the engine at chosen points.

For every profile and both kinds of restart (SIGKILL, SIGTERM), one vector per point, each
with one restart, so that a runner restarts the engine once for all of them: before every
Decide of a blackjack round and before its Settle, between a baccarat deal and its Settle,
between two spins of one roulette table and before a spin's Settle (its board and, en prison,
its imprisoned bets must survive), before a second Settle of a settled round (never paid
again: ROUND_NOT_FOUND) and before a Deal reusing a settled round's id (ROUND_EXISTS). A last
vector of each kind restarts a roulette table before two spins in a row. Every expected
answer is the oracle's without a restart: a restart must change nothing.

They are kept apart from the corpus (``conformance/recovery/``): a runner plays them only
against an engine it launched, when the engine claims recovery or it is asked to.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from croupier.conformance import vectors as v
from croupier.conformance.v1 import vector_pb2
from croupier.oracle import baccarat, roulette
from croupier.oracle.clauses import Game
from croupier.oracle.profile import Profile
from croupier.oracle.rounds import BlackjackWager, SeatRequest
from croupier.oracle.service import convert
from croupier.oracle.shoe import SeededStream, seeded_shoe, seeded_spins
from croupier.v1 import engine_service_pb2, round_pb2

#: The shipped recovery vectors, one file per profile.
RECOVERY_DIR = Path(__file__).parent / "recovery"
#: Each kind of restart and the letter its vectors' ids carry.
KINDS = ((vector_pb2.RESTART_KILL, "k"), (vector_pb2.RESTART_TERM, "t"))
#: The fewest decisions the blackjack round of a profile's recovery vectors takes.
_DECISIONS = 3

#: Marks one restart point of a vector built from ``base`` (a fresh copy).
Point = Callable[[vector_pb2.Vector], None]


def recovery_vectors(profile: Profile, prefix: str) -> list[vector_pb2.Vector]:
    """The recovery vectors of one profile: every point, each kind of restart."""
    base, points = _points(profile)
    out: list[vector_pb2.Vector] = []
    for kind, letter in KINDS:
        for number, (name, mark) in enumerate(points):
            vector = vector_pb2.Vector()
            vector.CopyFrom(base)
            vector.id = f"{prefix}-{letter}{number:02d}"
            vector.name = f"{profile.id}/recovery/{'kill' if letter == 'k' else 'term'}/{name}"
            vector.restart = kind
            vector.description = (
                f"Restarted ({'SIGKILL' if letter == 'k' else 'SIGTERM'}) {name.replace('-', ' ')}:"
                " every answer is the one without the restart."
            )
            mark(vector)
            out.append(_rebuilt(vector, profile))
    return out


def _rebuilt(vector: vector_pb2.Vector, profile: Profile) -> vector_pb2.Vector:
    """The vector's answers by the oracle, its ids made its own, its clauses listed."""
    for vround in vector.rounds:
        vround.deal.round_id = vround.deal.round_id.replace("ID", vector.id)
        vround.deal.table_id = vround.deal.table_id.replace("ID", vector.id)
    rebuilt = v.replay(vector, profile)
    rebuilt.ClearField("clauses")
    v.finish_vector(rebuilt)
    rebuilt.clauses.append("CONTRACT.recovery")
    rebuilt.clauses.sort()
    return rebuilt


def _points(profile: Profile) -> tuple[vector_pb2.Vector, list[tuple[str, Point]]]:
    """The vector every point starts from, and each point's name and mark."""
    base = vector_pb2.Vector(
        level=vector_pb2.LEVEL_REQUIRED,
        profile_id=profile.id,
        seed=f"croupier/recovery/{profile.id}",
    )
    if profile.game is Game.ROULETTE:
        return _roulette(profile, base)
    first = _card_round(profile, base.seed)
    base.rounds.append(first)
    # A Deal reusing the settled round's id, after a restart: ROUND_EXISTS.
    again = vector_pb2.VectorRound()
    again.deal.CopyFrom(first.deal)
    base.rounds.append(again)
    points: list[tuple[str, Point]] = [
        (f"before-decision-{n}", _before_step(0, n)) for n in range(len(first.steps))
    ]
    points += [
        ("before-settle", _before_settle(0)),
        ("before-a-second-settle", _before_late(0)),
        ("before-a-deal-reusing-the-id", _before_deal(1)),
    ]
    return base, points


def _card_round(profile: Profile, seed: str) -> vector_pb2.VectorRound:
    """A blackjack round of a few decisions, a hit before the last (seeded); a baccarat coup."""
    stake = _stake(profile, 100)
    seats = convert.seats(
        [SeatRequest(balance=10 * stake, wagers=(BlackjackWager(amount=stake),))], "EUR"
    )
    if profile.game is Game.BACCARAT:
        bets = tuple(
            baccarat.BaccaratBet(kind=kind, amount=_stake(profile, wanted))
            for kind, wanted in zip(baccarat.BetKind, (100, 60, 15), strict=True)
        )
        seats = convert.seats(
            [SeatRequest(balance=4 * sum(bet.amount for bet in bets), wagers=bets)], "EUR"
        )
    decks = profile.integer("decks")
    for k in range(1000):
        rseed = f"{seed}/{k}"
        deal = engine_service_pb2.DealRequest(
            round_id="ID-r0",
            profile_id=profile.id,
            table_id="ID-table",
            currency_code="EUR",
            seats=seats,
            shoe=engine_service_pb2.Shoe(cards=[str(c) for c in seeded_shoe(rseed, decks)]),
        )
        policy = (v.campaign_policy(profile), SeededStream(rseed + "/play"))
        played = v.play_round(profile, deal, [], None, policy=policy).round
        if played.expected_error:
            continue
        if profile.game is Game.BACCARAT:
            return _trimmed(played)
        kinds = [step.decision.kind for step in played.steps]
        if len(kinds) >= _DECISIONS and round_pb2.DECISION_KIND_HIT in kinds[:-1]:
            return _trimmed(played)
    raise AssertionError(f"no recovery round found for {profile.id}")  # pragma: no cover


def _stake(profile: Profile, wanted: int) -> int:
    """A stake near ``wanted`` within the table's limits (TABLE.limits)."""
    return min(max(wanted, profile.integer("min_bet")), profile.integer("max_bet"))


def _trimmed(played: vector_pb2.VectorRound) -> vector_pb2.VectorRound:
    """The round's requests only (the oracle answers them again), its shoe cut short."""
    used = played.expected_settle.state.cards_dealt or played.expected_state.cards_dealt
    out = vector_pb2.VectorRound()
    out.deal.CopyFrom(played.deal)
    del out.deal.shoe.cards[used + 8 :]
    for step in played.steps:
        out.steps.add().decision.CopyFrom(step.decision)
    # A second Settle after the round is settled: refused, nothing paid again.
    out.after_settle.add(settle=True)
    return out


def _roulette(
    profile: Profile, base: vector_pb2.Vector
) -> tuple[vector_pb2.Vector, list[tuple[str, Point]]]:
    """Four spins at one table, a zero second (en prison, the even-money bets go to prison)."""
    wheel = roulette.Wheel(profile.choice("wheel"))
    offered = set(profile.words("bets_offered"))
    pockets = 38 if wheel is roulette.Wheel.AMERICAN else 37
    spins = [("00" if p == 37 else str(p)) for p in seeded_spins(base.seed, 4, pockets)]
    spins[1] = "0"
    kinds = [k for k in roulette.BetKind if roulette.shapes(wheel, k) and k.value in offered]
    even = [k for k in kinds if k.value in ("red", "black", "even", "odd", "low", "high")]
    stream = SeededStream(base.seed + "/bets")
    for number, pocket in enumerate(spins):
        wagers = []
        for kind in (*even[:1], *(kinds[stream.uniform(len(kinds))] for _ in range(2))):
            shapes = roulette.shapes(wheel, kind)
            wagers.append(
                roulette.RouletteBet(
                    kind=kind,
                    numbers=shapes[stream.uniform(len(shapes))],
                    amount=_stake(profile, 25),
                )
            )
        vround = base.rounds.add()
        vround.deal.CopyFrom(
            engine_service_pb2.DealRequest(
                round_id=f"ID-r{number}",
                profile_id=profile.id,
                table_id="ID-table",
                currency_code="EUR",
                seats=convert.seats(
                    [SeatRequest(balance=4 * sum(w.amount for w in wagers), wagers=tuple(wagers))],
                    "EUR",
                ),
                spin=engine_service_pb2.Spin(pocket=pocket),
            )
        )
        vround.after_settle.add(settle=True)
    again = base.rounds.add()
    again.deal.CopyFrom(base.rounds[0].deal)
    last = len(spins)

    def every_spin(vector: vector_pb2.Vector) -> None:
        # Twice: a runner restarts once for every vector at a point, so this sets the count.
        for vround in vector.rounds[1:3]:
            vround.restart_before_deal = True

    points: list[tuple[str, Point]] = [
        (f"between-spins-{n - 1}-and-{n}", _before_deal(n)) for n in range(1, last)
    ]
    points += [
        ("before-the-settle-of-the-zero", _before_settle(1)),
        ("before-a-second-settle", _before_late(0)),
        ("before-a-deal-reusing-an-id", _before_deal(last)),
        ("before-two-spins-in-a-row", every_spin),
    ]
    return base, points


def _before_step(index: int, step: int) -> Point:
    def mark(vector: vector_pb2.Vector) -> None:
        vector.rounds[index].steps[step].restart_before = True

    return mark


def _before_settle(index: int) -> Point:
    def mark(vector: vector_pb2.Vector) -> None:
        vector.rounds[index].restart_before_settle = True

    return mark


def _before_late(index: int) -> Point:
    def mark(vector: vector_pb2.Vector) -> None:
        vector.rounds[index].after_settle[0].restart_before = True

    return mark


def _before_deal(index: int) -> Point:
    def mark(vector: vector_pb2.Vector) -> None:
        vector.rounds[index].restart_before_deal = True

    return mark
