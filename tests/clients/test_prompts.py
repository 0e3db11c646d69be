"""The prompt driver: the toy blackjack run as a terminal game, replayed through its prompts.

The same toy as ``test_replay.py``, as a program that prints its table and asks ``Your move?``
with ``input()``; the wrapper below writes its prompt patterns, their answers and how to read
the table it printed. A few vectors, each call a fresh process: seconds in all.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from croupier.clients.adapter import (
    BlackjackView,
    DealInput,
    DecisionInput,
    HandView,
    Line,
    SeatView,
)
from croupier.clients.mappings import hand_label
from croupier.clients.prompts import FINISHED, Program, ProgramError, Prompt, PromptedGame, Session
from croupier.clients.replay import Played, ReplayEngine
from croupier.conformance.vectors import LoadedVector
from tests.clients import toy_blackjack as toy
from tests.clients.test_replay import (
    MOVES,
    ORDER,
    STATUS,
    bad,
    certify,
    from_toy,
    playable,
    to_toy,
)

# --- the wrapper: what a vendor writes ---------------------------------------------------------

TOY = Path(toy.__file__)
HAND = re.compile(r"Hand (\d+): (.*) \((\w+), bet (\d+)( split)?( doubled)?\)")
PAID = re.compile(r"Paid hand (\d+): bet (\d+), back (\d+)")


def command(deal: DealInput, decisions: tuple[DecisionInput, ...]) -> list[str]:
    seat = deal.seats[0]
    cards = ORDER.shoe(deal, decisions).in_order()
    return [sys.executable, "-S", str(TOY), str(seat.bets[0].stake), str(seat.balance)] + [
        to_toy(c) for c in cards
    ]


def read(session: Session) -> Played:
    """The last table the program printed, as the engine's view."""
    table = session.output[session.output.rfind("Dealer:") :]
    dealer = table.splitlines()[0].removeprefix("Dealer: ").split()
    hands = [
        HandView(
            cards=[from_toy(c) for c in m[2].split()],
            stake=int(m[4]),
            status=STATUS.contract(m[3]),
            doubled=bool(m[6]),
            from_split=bool(m[5]),
        )
        for m in HAND.finditer(table)
    ]
    shoe = ORDER.shoe(session.deal, session.decisions.decisions)
    shoe.took(int(re.findall(r"Cards used: (\d+)", table)[-1]))
    moves = session.prompt[1].split("/") if session.waiting and session.prompt else []
    playing = [i for i, m in enumerate(HAND.finditer(table)) if m[3] == "PLAY"]
    return shoe.contract(
        Played(
            table=BlackjackView(
                seats=[SeatView(hands=hands)],
                dealer_cards=[from_toy(c) for c in dealer if c != "??"],
                hole_card_hidden="??" in dealer,
            ),
            legal=[MOVES.contract(m) for m in moves],
            turn=(0, playing[0]) if playing else None,
            payouts=None
            if session.waiting
            else [
                Line(seat=0, bet=hand_label(int(i)), stake=int(s), returned=int(r))
                for i, s, r in PAID.findall(table)
            ],
        )
    )


PROMPTS = [
    Prompt(r"Your move\? \[([a-z/]+)\] ", lambda _, session: MOVES.engine(session.decision().kind)),
    Prompt(r"Goodbye\.", FINISHED),
]


# --- the tests ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def few() -> list[LoadedVector]:
    """Six vectors the toy plays: every split among them, and the first others."""
    splits = [v for v in playable() if "split" in str(v.vector.rounds[0].steps)]
    others = [v for v in playable() if v not in splits]
    return splits[:2] + others[:4]


def certify_game(game: PromptedGame, vectors: list[LoadedVector]) -> list[tuple[str, str, str]]:
    """Each failure of the prompted program (two calls at a time: each one is a process)."""
    engine = ReplayEngine(name="toy-cli", version="1", profile_ids=("blackjack-c",), play=game)
    return [r[:3] for r in bad(certify(engine, vectors, concurrency=2))]


def test_the_prompted_toy_certifies_through_its_prompts(few: list[LoadedVector]) -> None:
    assert any("split" in str(v.vector.rounds[0].steps) for v in few)
    game = PromptedGame(command=command, prompts=PROMPTS, read=read)
    assert certify_game(game, few) == []


def test_a_bug_planted_in_the_program_is_reported_with_its_clause(
    few: list[LoadedVector],
) -> None:
    naturals = [v for v in playable() if not v.vector.rounds[0].steps]
    game = PromptedGame(command=command, prompts=PROMPTS, read=read, env={"TOY_BUG": "six-five"})
    failures = certify_game(game, naturals[:3])
    assert failures
    assert {(outcome, clause) for _, outcome, clause in failures} == {("FAIL", "BJ.nat-pays")}


def test_a_program_that_asks_what_no_prompt_knows_fails_with_its_output() -> None:
    with Program([sys.executable, "-S", "-c", "input('Name? ')"], timeout=10) as program:
        assert program.expect([re.compile(r"Name\? ")]) is not None
        program.timeout = 0.2  # the program waits for a name: no Bet prompt ever comes
        with pytest.raises(ProgramError, match=r"nothing the prompts match in 0.2 s.*'Name\? '"):
            program.expect([re.compile("Bet")])


def test_the_driver_reads_prompts_answers_and_the_end() -> None:
    script = "n = input('Bet? '); print('you bet', n); input('More? ')"
    with Program([sys.executable, "-c", script], timeout=5) as program:
        # The earliest match wins, whatever the order of the patterns.
        found = program.expect([re.compile(r"More\? "), re.compile(r"Bet\? ")])
        assert found is not None
        assert found[0] == 1
        program.send("25")
        assert program.expect([re.compile(r"More\? ")]) is not None
        assert "you bet 25" in program.output
        program.send("no")
        assert program.expect([re.compile("never")]) is None  # the program has ended
    assert program.process.returncode == 0


def test_a_program_that_crashes_fails_the_call_with_its_stderr() -> None:
    crash = "import sys; input('Your move? [h/s] '); sys.exit('no more cards')"
    game = PromptedGame(
        command=lambda deal, decisions: [sys.executable, "-S", "-c", crash],
        prompts=PROMPTS,
        read=read,
    )
    deal = DealInput(
        round_id="r",
        profile_id="blackjack-c",
        table_id="t",
        currency="EUR",
        seats=(),
        shoe=(),
    )
    with pytest.raises(ProgramError, match=r"exited with code 1.*stderr ends 'no more cards"):
        game(deal, (DecisionInput(seat=0, hand=0, kind="hit"),))
