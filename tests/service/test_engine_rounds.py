"""EngineService over a real channel plays every profile exactly as the oracle does in process.

Each round is built twice from one seeded spec: as a DealRequest for the server, and as a
domain ``RoundRequest`` for ``oracle.rounds.start_round`` (built independently, not through
``oracle.service.convert``). Every RoundState after Deal and each Decide, and the
Settlement, must be byte-for-byte what ``oracle.service.convert`` makes of the in-process
round. That conversion is the server's own, so a conversion bug would cancel out here:
tests/service/test_wire_by_hand.py checks it against messages written out by hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from croupier import oracle
from croupier.oracle import baccarat, blackjack, roulette
from croupier.oracle.cards import Card, Rank
from croupier.oracle.profile import Profile, shipped_profile
from croupier.oracle.rounds import (
    BlackjackWager,
    Round,
    RoundRequest,
    SeatRequest,
    Wager,
    apply_decision,
)
from croupier.oracle.rounds import start_round as start_in_process
from croupier.oracle.service import convert
from croupier.oracle.shoe import seeded_shoe, seeded_spins
from croupier.v1 import engine_service_pb2, engine_service_pb2_grpc, round_pb2
from tests.service.support import (
    PROFILE_IDS,
    TIMEOUT,
    amount,
    card_deal,
    new_id,
    roulette_deal,
    wire_bytes,
)

ROUNDS_PER_PROFILE = 20
CURRENCY = "EUR"


def action_of(kind: round_pb2.DecisionKind.ValueType) -> blackjack.Action:
    """The domain action of a DecisionKind, by name: DECISION_KIND_DOUBLE is Action.DOUBLE."""
    return blackjack.Action[round_pb2.DecisionKind.Name(kind).removeprefix("DECISION_KIND_")]


def arrange(shoe: tuple[Card, ...], wanted: dict[int, Rank]) -> tuple[Card, ...]:
    """The same cards, with a card of the wanted rank moved to each wanted position."""
    cards = list(shoe)
    for position, rank in sorted(wanted.items()):
        found = next(j for j in range(position, len(cards)) if cards[j].rank is rank)
        cards.insert(position, cards.pop(found))
    return tuple(cards)


@dataclass
class Spec:
    """One round, as both a DealRequest and a domain RoundRequest."""

    message: engine_service_pb2.DealRequest
    request: RoundRequest


def _seat_messages(seats: list[tuple[int, list[round_pb2.Bet]]]) -> list[round_pb2.Seat]:
    return [round_pb2.Seat(balance=amount(balance), bets=bets) for balance, bets in seats]


def blackjack_spec(profile: Profile, index: int, rng: random.Random) -> Spec:
    """1 to 3 seats, balances from exactly the stake to plenty, a seeded shoe, often stacked."""
    n = rng.randint(1, 3)
    stakes = [rng.choice((rng.randint(1, 500), 25, 75, 101)) for _ in range(n)]
    balances = [
        rng.choice((s, s + s // 2, 2 * s, 3 * s, 4 * s + rng.randint(0, 99))) for s in stakes
    ]
    shoe = seeded_shoe(f"service/{profile.id}/{index}", profile.integer("decks"))
    # Stack the deal now and then: a dealer ace (offers), a pair (split), a blackjack, a ten up.
    up, first, second = n, 0, n + 1
    stacks: tuple[dict[int, Rank], ...] = (
        {},
        {up: Rank.ACE},
        {first: Rank.EIGHT, second: Rank.EIGHT},
        {first: Rank.ACE, second: Rank.KING, up: Rank.ACE},
        {up: Rank.TEN, first: Rank.ACE, second: Rank.ACE},
        {first: Rank.JACK, second: Rank.QUEEN, up: Rank.SIX},
    )
    shoe = arrange(shoe, stacks[index % len(stacks)])
    round_id, table_id = new_id(profile.id), "bj-table"
    message = card_deal(
        profile.id,
        shoe,
        [
            round_pb2.Seat(
                balance=amount(b),
                bets=[round_pb2.Bet(stake=amount(s), blackjack=round_pb2.BlackjackBet())],
            )
            for b, s in zip(balances, stakes, strict=True)
        ],
        round_id=round_id,
        table_id=table_id,
    )
    request = RoundRequest(
        round_id=round_id,
        profile_id=profile.id,
        table_id=table_id,
        currency=CURRENCY,
        seats=tuple(
            SeatRequest(balance=b, wagers=(BlackjackWager(amount=s),))
            for b, s in zip(balances, stakes, strict=True)
        ),
        shoe=shoe,
    )
    return Spec(message=message, request=request)


def baccarat_spec(profile: Profile, index: int, rng: random.Random) -> Spec:
    """1 to 3 seats, each with 1 to 3 bets of distinct kinds; a prefix of a seeded shoe."""
    shoe = seeded_shoe(f"service/{profile.id}/{index}", profile.integer("decks"))[:8]
    seats: list[tuple[int, list[round_pb2.Bet]]] = []
    domain: list[SeatRequest] = []
    for _ in range(rng.randint(1, 3)):
        kinds = rng.sample(list(baccarat.BetKind), rng.randint(1, 3))
        stakes = [rng.choice((rng.randint(1, 1000), 1, 19, 21, 99)) for _ in kinds]
        balance = sum(stakes) + rng.choice((0, rng.randint(0, 500)))
        seats.append(
            (
                balance,
                [
                    round_pb2.Bet(
                        stake=amount(s),
                        baccarat=round_pb2.BaccaratBet(
                            kind=round_pb2.BaccaratBetKind.Value(f"BACCARAT_BET_KIND_{k.name}")
                        ),
                    )
                    for k, s in zip(kinds, stakes, strict=True)
                ],
            )
        )
        domain.append(
            SeatRequest(
                balance=balance,
                wagers=tuple(
                    baccarat.BaccaratBet(kind=k, amount=s)
                    for k, s in zip(kinds, stakes, strict=True)
                ),
            )
        )
    round_id, table_id = new_id(profile.id), "bac-table"
    message = card_deal(
        profile.id, shoe, _seat_messages(seats), round_id=round_id, table_id=table_id
    )
    request = RoundRequest(
        round_id=round_id,
        profile_id=profile.id,
        table_id=table_id,
        currency=CURRENCY,
        seats=tuple(domain),
        shoe=shoe,
    )
    return Spec(message=message, request=request)


def _roulette_bet(
    wheel: roulette.Wheel, rng: random.Random
) -> tuple[round_pb2.Bet, roulette.RouletteBet]:
    kinds = [k for k in roulette.BetKind if roulette.shapes(wheel, k)]
    kind = rng.choice(kinds)
    numbers = list(rng.choice(roulette.shapes(wheel, kind)))
    rng.shuffle(numbers)  # the contract takes an inside bet's pockets in any order
    stake = rng.choice((rng.randint(1, 1000), 1, 3))
    pb_kind = round_pb2.RouletteBetKind.Value(f"ROULETTE_BET_KIND_{kind.name}")
    if kind in (roulette.BetKind.COLUMN, roulette.BetKind.DOZEN):
        rbet = round_pb2.RouletteBet(kind=pb_kind, group=numbers[0])
    else:
        rbet = round_pb2.RouletteBet(
            kind=pb_kind, pockets=[roulette.pocket_text(n) for n in numbers]
        )
    return (
        round_pb2.Bet(stake=amount(stake), roulette=rbet),
        roulette.RouletteBet(kind=kind, numbers=tuple(numbers), amount=stake),
    )


def roulette_spec(
    profile: Profile, index: int, rng: random.Random, table_id: str, pocket: int
) -> Spec:
    """1 to 2 seats with 1 to 6 legal bets each, on the table's next seeded spin."""
    wheel = roulette.Wheel(profile.choice("wheel"))
    seats: list[tuple[int, list[round_pb2.Bet]]] = []
    domain: list[SeatRequest] = []
    for _ in range(rng.randint(1, 2)):
        pairs = [_roulette_bet(wheel, rng) for _ in range(rng.randint(1, 6))]
        balance = sum(d.amount for _, d in pairs) + rng.randint(0, 200)
        seats.append((balance, [m for m, _ in pairs]))
        wagers: tuple[Wager, ...] = tuple(d for _, d in pairs)
        domain.append(SeatRequest(balance=balance, wagers=wagers))
    round_id = new_id(profile.id)
    message = roulette_deal(
        profile.id,
        roulette.pocket_text(pocket),
        _seat_messages(seats),
        round_id=round_id,
        table_id=table_id,
    )
    request = RoundRequest(
        round_id=round_id,
        profile_id=profile.id,
        table_id=table_id,
        currency=CURRENCY,
        seats=tuple(domain),
        pocket=pocket,
    )
    return Spec(message=message, request=request)


def play(
    engine: engine_service_pb2_grpc.EngineServiceStub,
    spec: Spec,
    expected: Round,
    rng: random.Random,
) -> Round:
    """Deal, decide at random among the legal decisions, settle; compare every step."""
    state = engine.Deal(spec.message, timeout=TIMEOUT).state
    assert wire_bytes(state) == wire_bytes(convert.round_state(expected))
    decisions = 0
    while state.phase != round_pb2.ROUND_PHASE_COMPLETE:
        assert state.legal_decisions, "a round waiting for a decision offers none"
        kind = rng.choice(list(state.legal_decisions))
        turn = state.turn
        state = engine.Decide(
            engine_service_pb2.DecideRequest(
                round_id=spec.message.round_id,
                decision=round_pb2.Decision(seat=turn.seat, hand=turn.hand, kind=kind),
            ),
            timeout=TIMEOUT,
        ).state
        expected = apply_decision(
            expected, blackjack.Decision(seat=turn.seat, hand=turn.hand, action=action_of(kind))
        )
        assert wire_bytes(state) == wire_bytes(convert.round_state(expected))
        decisions += 1
        assert decisions < 60, "a round that never ends"
    settled = engine.Settle(
        engine_service_pb2.SettleRequest(round_id=spec.message.round_id), timeout=TIMEOUT
    )
    want = convert.settlement(expected.settlement, CURRENCY)
    assert wire_bytes(settled.settlement) == wire_bytes(want)
    assert wire_bytes(settled.state) == wire_bytes(convert.round_state(expected))
    # The totals are the sums of the lines (common.proto), whoever computed them.
    lines = settled.settlement.lines
    assert settled.settlement.total_staked.minor_units == sum(x.stake.minor_units for x in lines)
    assert settled.settlement.total_returned.minor_units == sum(
        x.returned.minor_units for x in lines
    )
    return expected


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
def test_rounds_match_the_in_process_oracle(
    engine: engine_service_pb2_grpc.EngineServiceStub, profile_id: str
) -> None:
    profile = shipped_profile(profile_id)
    rng = random.Random(f"service-rounds/{profile_id}")  # noqa: S311 - seeded test choices
    game = profile.game.value
    table_id = new_id("wheel")
    history: roulette.TableHistory | None = None
    pockets = 38 if profile_id == "roulette-american" else 37
    spins = seeded_spins(f"service/{profile_id}", ROUNDS_PER_PROFILE, pockets)
    decided = 0
    for index in range(ROUNDS_PER_PROFILE):
        if game == "blackjack":
            spec = blackjack_spec(profile, index, rng)
        elif game == "baccarat":
            spec = baccarat_spec(profile, index, rng)
        else:
            spec = roulette_spec(profile, index, rng, table_id, spins[index])
        expected = start_in_process(profile, spec.request, history)
        played = play(engine, spec, expected, rng)
        decided += len(played.decisions)
        if isinstance(played.game, roulette.RouletteRound):
            history = played.game.history
    if game == "blackjack":
        assert decided >= ROUNDS_PER_PROFILE, "the rounds took too few decisions to test Decide"
    if history is not None:
        # C.rou.history: the board shows the last 13 results of the table, oldest first.
        assert history.results == spins[-13:]


def test_a_split_round_deals_the_split_card_when_the_hand_starts(
    engine: engine_service_pb2_grpc.EngineServiceStub,
) -> None:
    """Worked by hand (DESIGN.md dealing order): 8-8 against a 6 up, split, stand, stand."""
    # Seat 8C, dealer up 6D, seat 8H, hole TS; then the split hands draw 3C and 2C when each
    # starts; the dealer turns 6D TS = 16 and draws 9C: 25, bust. Both hands win 1:1.
    shoe = ["8C", "6D", "8H", "TS", "3C", "2C", "9C", "4C"]
    message = card_deal(
        "blackjack-c",
        shoe,
        [
            round_pb2.Seat(
                balance=amount(300),
                bets=[round_pb2.Bet(stake=amount(100), blackjack=round_pb2.BlackjackBet())],
            )
        ],
    )
    state = engine.Deal(message, timeout=TIMEOUT).state
    assert state.phase == round_pb2.ROUND_PHASE_PLAY
    assert list(state.blackjack.dealer.cards) == ["6D"]
    assert state.blackjack.dealer.hole_card_hidden
    assert list(state.blackjack.seats[0].hands[0].cards) == ["8C", "8H"]
    assert round_pb2.DECISION_KIND_SPLIT in state.legal_decisions

    def decide(kind: round_pb2.DecisionKind.ValueType, hand: int) -> round_pb2.RoundState:
        request = engine_service_pb2.DecideRequest(
            round_id=message.round_id, decision=round_pb2.Decision(seat=0, hand=hand, kind=kind)
        )
        return engine.Decide(request, timeout=TIMEOUT).state

    state = decide(round_pb2.DECISION_KIND_SPLIT, 0)
    hands = state.blackjack.seats[0].hands
    assert [list(h.cards) for h in hands] == [["8C", "3C"], ["8H"]]
    assert hands[1].status == round_pb2.HAND_STATUS_WAITING
    assert state.cards_dealt == 5
    state = decide(round_pb2.DECISION_KIND_STAND, 0)
    assert [list(h.cards) for h in state.blackjack.seats[0].hands] == [["8C", "3C"], ["8H", "2C"]]
    assert (state.turn.seat, state.turn.hand) == (0, 1)
    state = decide(round_pb2.DECISION_KIND_STAND, 1)
    assert state.phase == round_pb2.ROUND_PHASE_COMPLETE
    assert list(state.blackjack.dealer.cards) == ["6D", "TS", "9C"]
    assert state.cards_dealt == 7
    settled = engine.Settle(
        engine_service_pb2.SettleRequest(round_id=message.round_id), timeout=TIMEOUT
    ).settlement
    assert [(x.bet, x.stake.minor_units, x.returned.minor_units) for x in settled.lines] == [
        ("hand 0", 100, 200),
        ("hand 1", 100, 200),
    ]
    assert settled.total_returned.minor_units == 400


def test_describe_lists_the_seven_profiles(
    engine: engine_service_pb2_grpc.EngineServiceStub,
) -> None:
    described = engine.Describe(engine_service_pb2.DescribeRequest(), timeout=TIMEOUT)
    assert sorted(described.profile_ids) == sorted(PROFILE_IDS)
    assert len(described.profile_ids) == 7
    assert described.name == "croupier-oracle"
    assert described.version == oracle.__version__
