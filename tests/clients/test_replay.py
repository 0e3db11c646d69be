"""The round-replay adapter: a toy game loop, wrapped in a few lines, certifies on a vector subset.

The toy (``tests/clients/toy_blackjack.py``) deals in its own order, spells cards and moves its
own way and lists its own options; the wrapper below only maps (``clients.mappings``), and the
kit (``clients.replay``) replays the round after every decision. A bug planted in the toy is
reported with its clause: the engine's payouts are what is judged, the kit derives nothing.
"""

from __future__ import annotations

import asyncio
import copy
import functools
from pathlib import Path

import pytest

from croupier.clients import adapter
from croupier.clients.adapter import (
    BlackjackView,
    DealInput,
    DecisionInput,
    HandView,
    Line,
    SeatView,
)
from croupier.clients.audit import read_log
from croupier.clients.client import CroupierClient
from croupier.clients.mappings import DealOrder, NameMap, Shoe, hand_label
from croupier.clients.replay import Decisions, OutOfDecisionsError, Played, PlayRound, ReplayEngine
from croupier.conformance.runner import RunConfig, RunReport, VectorOutcome, run
from croupier.conformance.vectors import LoadedVector, load_corpus
from croupier.v1 import round_pb2
from tests.clients import toy_blackjack as toy
from tests.clients.conftest import blackjack_deal
from tests.clients.test_adapter import DOUBLE, HIT, SPLIT, STAND, refusal

SURRENDER = round_pb2.DECISION_KIND_SURRENDER

# --- the wrapper: what a vendor writes ---------------------------------------------------------

SUITS = NameMap({"C": "♣", "D": "♦", "H": "♥", "S": "♠"}, what="suit")
RANKS = NameMap({"T": "10"}, same="A23456789JQK", what="rank")
MOVES = NameMap(
    {"hit": "h", "stand": "s", "double": "d", "split": "p", "surrender": "r"}, what="decision"
)
STATUS = NameMap(
    {
        "waiting": "WAIT",
        "playing": "PLAY",
        "stood": "STAND",
        "bust": "BUST",
        "blackjack": "BJ",
        "surrendered": "GIVEUP",
    },
    what="status",
)
#: The toy deals the player's two cards, then the dealer's; a split's two cards at once.
ORDER = DealOrder(first_deal=("pairs", "up", "hole"), split="at-split")


def to_toy(card: str) -> str:
    return RANKS.engine(card[0]) + SUITS.engine(card[1])


def from_toy(card: str) -> str:
    return RANKS.contract(card[:-1]) + SUITS.contract(card[-1])


def shown(table: toy.Table, shoe: Shoe, legal: list[str]) -> Played:
    """The toy's table as the engine's view."""
    hands = [
        HandView(
            cards=[from_toy(c) for c in h.cards],
            stake=h.stake,
            status=STATUS.contract(h.status),
            doubled=h.doubled,
            from_split=h.split,
        )
        for h in table.hands
    ]
    dealer = table.dealer if table.hole_up else table.dealer[:1]
    paid = table.paid
    return shoe.contract(
        Played(
            table=BlackjackView(
                seats=[SeatView(hands=hands)],
                dealer_cards=[from_toy(c) for c in dealer],
                hole_card_hidden=not table.hole_up,
            ),
            legal=[MOVES.contract(m) for m in legal],
            turn=(0, table.at),
            payouts=None
            if paid is None
            else [Line(seat=0, bet=hand_label(i), stake=s, returned=r) for i, s, r in paid],
        )
    )


def toy_play(bug: str = "") -> PlayRound:
    """The vendor's one function: play the round from the Deal and the decisions so far."""

    def play(deal: DealInput, decisions: tuple[DecisionInput, ...]) -> Played:
        shoe = ORDER.shoe(deal, decisions)
        script = Decisions(decisions)

        def choose(table: toy.Table, moves: list[str]) -> str:
            return MOVES.engine(script.next((copy.deepcopy(table), moves)).kind)

        seat = deal.seats[0]
        try:
            table = toy.play_round(
                map(to_toy, shoe), seat.bets[0].stake, seat.balance, choose, bug=bug
            )
        except OutOfDecisionsError:
            waiting, moves = script.asked  # the table as the toy showed it when it asked
            return shown(waiting, shoe, moves)
        return shown(table, shoe, [])

    return play


# --- the tests ------------------------------------------------------------------------------

DECISIONS = {
    round_pb2.DECISION_KIND_HIT,
    round_pb2.DECISION_KIND_STAND,
    round_pb2.DECISION_KIND_DOUBLE,
    round_pb2.DECISION_KIND_SPLIT,
    round_pb2.DECISION_KIND_SURRENDER,
}


def toy_plays(loaded: LoadedVector) -> bool:
    """A one-seat blackjack-c round with no ace up and no refusal: what the toy plays."""
    vector = loaded.vector
    if vector.profile_id != "blackjack-c" or len(vector.rounds) != 1 or vector.other_profile_ids:
        return False
    (played,) = vector.rounds
    deal = played.deal
    if played.expected_error or played.after_settle or len(deal.seats) != 1:
        return False
    if len(deal.seats[0].bets) != 1 or deal.shoe.cards[1][0] == "A":
        return False
    return all(
        not s.expected_error
        and not s.round_id
        and not s.settle
        and s.decision.kind in DECISIONS
        and not s.decision.HasField("amount")
        for s in played.steps
    )


@functools.cache
def playable() -> tuple[LoadedVector, ...]:
    """Every shipped vector the toy plays (364: hand-written and campaign rounds, with splits,
    doubles, surrenders and blackjacks among them)."""
    return tuple(v for v in load_corpus() if toy_plays(v))


def has_split(loaded: LoadedVector) -> bool:
    return any(
        s.decision.kind == round_pb2.DECISION_KIND_SPLIT for s in loaded.vector.rounds[0].steps
    )


@pytest.fixture(scope="module")
def subset() -> list[LoadedVector]:
    """A hundred vectors the toy plays: every hand-written one, every split, then campaign
    rounds (doubles, surrenders and blackjacks among them)."""
    first = [v for v in playable() if "-h" in v.vector.id or has_split(v)]
    chosen = (first + [v for v in playable() if v not in first])[:100]
    assert any(not v.vector.rounds[0].steps for v in chosen)  # a blackjack, for the 6:5 bug
    return chosen


def certify(
    engine: adapter.Engine, vectors: list[LoadedVector], *, concurrency: int = 16
) -> RunReport:
    """The run of ``vectors`` against ``engine``, served by the kit on a free port."""
    served = adapter.serve(engine, port=0)
    config = RunConfig(vectors=vectors, target=f"127.0.0.1:{served.port}", concurrency=concurrency)
    try:
        report = asyncio.run(run(config))
    finally:
        served.stop(grace=0)
    assert len(report.results) == len(vectors)
    return report


def bad(report: RunReport) -> list[tuple[str, str, str, str]]:
    """Each result but a pass: vector id, outcome, clause, message."""
    return [
        (r.vector_id, r.outcome.value, r.clause, r.message)
        for r in report.results
        if r.outcome is not VectorOutcome.PASS
    ]


def test_the_toy_game_loop_certifies_through_the_replay_adapter(
    subset: list[LoadedVector],
) -> None:
    engine = ReplayEngine(
        name="toy-blackjack", version="1", profile_ids=("blackjack-c",), play=toy_play()
    )
    report = certify(engine, subset)
    assert not bad(report), bad(report)[:5]
    assert report.count(VectorOutcome.PASS) == len(subset)


def test_a_bug_planted_in_the_toy_is_reported_with_its_clause(
    subset: list[LoadedVector],
) -> None:
    # The toy pays a blackjack 6:5: the payouts are the engine's, so the suite sees it.
    engine = ReplayEngine(
        name="toy-blackjack", version="1", profile_ids=("blackjack-c",), play=toy_play("six-five")
    )
    failures = bad(certify(engine, subset))
    assert failures
    assert {clause for _, _, clause, _ in failures} == {"BJ.nat-pays"}
    assert all(outcome == "FAIL" for _, outcome, _, _ in failures)
    assert all("settlement" in message for *_, message in failures), failures[:3]


def test_the_kit_keeps_the_rounds_and_refuses_what_the_engine_did_not_offer(
    tmp_path: Path,
) -> None:
    calls: list[int] = []
    play = toy_play()

    def counted(deal: DealInput, decisions: tuple[DecisionInput, ...]) -> Played:
        calls.append(len(decisions))
        return play(deal, decisions)

    engine = ReplayEngine(name="toy", version="1", profile_ids=("blackjack-c",), play=counted)
    served = adapter.serve(engine, port=0, audit_log=tmp_path / "audit.jsonl")
    try:
        with CroupierClient.connect(f"127.0.0.1:{served.port}", timeout=10) as client:
            # Player 9S 7D = 16 against a 9 up, hole 8C (contract order); then 2C for a hit.
            state = client.deal(blackjack_deal("r1", "9S 9H 7D 8C 2C 5C", profile="blackjack-c"))
            assert list(state.legal_decisions) == [HIT, STAND, DOUBLE, SURRENDER]
            assert list(state.blackjack.seats[0].hands[0].cards) == ["9S", "7D"]
            assert state.cards_dealt == 4
            reused = refusal(
                client.deal, blackjack_deal("r1", "9S 9H 7D 8C", profile="blackjack-c")
            )
            assert reused.reason == "ROUND_EXISTS"
            split = refusal(client.decide, "r1", SPLIT)
            assert (split.reason, split.metadata["legal"]) == (
                "ILLEGAL_DECISION",
                "hit,stand,double,surrender",
            )
            elsewhere = refusal(client.decide, "r1", HIT, seat=0, hand=1)
            assert elsewhere.reason == "ILLEGAL_DECISION"
            assert calls == [0]  # neither refusal reached the engine
            hit = client.decide("r1", HIT)
            assert list(hit.blackjack.seats[0].hands[0].cards) == ["9S", "7D", "2C"]
            assert calls == [0, 1]  # the round replayed from the deal with the decision
            assert refusal(client.settle, "r1").reason == "ROUND_NOT_COMPLETE"
            client.decide("r1", STAND)
            settled = client.settle("r1")
            # 18 against the dealer's 17: the toy pays 1:1, and the kit passes it on.
            assert settled.settlement.total_returned.minor_units == 200
            assert refusal(client.settle, "r1").reason == "ROUND_NOT_FOUND"
    finally:
        served.stop(grace=0)
    # The kit's audit log holds the round: the cards the toy took, the decisions it accepted.
    (entry,) = [e for e in read_log(tmp_path / "audit.jsonl") if e.record is not None]
    assert entry.record is not None
    record = entry.record
    assert (record.round_id, record.engine.name) == ("r1", "toy")
    assert list(record.cards_dealt) == ["9S", "9H", "7D", "8C", "2C"]
    assert [d.kind for d in record.decisions] == [HIT, STAND]
    assert record.settlement.total_returned.minor_units == 200
