"""``croupier explore``: what it draws, that it finds and shrinks a planted bug, seeds, budgets.

The rounds come from the strategies the explorer itself uses (``tests.strategies``
re-exports them); the engines are real processes: the demo engine and mutants of the zoo.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from croupier.conformance.cli import main
from croupier.conformance.explore import rounds, search
from croupier.conformance.explore.coverage import cells
from croupier.conformance.explore.search import ExploreConfig, explore
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import campaign, read_vectors, write_vectors
from croupier.conformance.zoo import launch_command
from croupier.oracle.cards import DECK, Card, Rank
from croupier.oracle.clauses import BY_ID, CONTRACT, Game
from croupier.oracle.profile import Profile, shipped_profile, shipped_profiles
from tests.conformance.support import CROUPIER, REPO, start_engine
from tests.strategies import FAULTS, explored_vector, shoe_cards

DEMO = shlex.join([sys.executable, "-m", "croupier.clients.demo_engine", "--port", "0"])

#: The reason the contract (engine_service.proto, DESIGN.md "Refusals") gives each fault.
REASON = {
    "stake over the balance": "INSUFFICIENT_BALANCE",
    "stake under the minimum": "BET_OUT_OF_LIMITS",
    "stake over the maximum": "BET_OUT_OF_LIMITS",
    "stake in another currency": "INVALID_ROUND",
    "currency not a currency": "INVALID_ROUND",
    "unknown profile": "UNKNOWN_PROFILE",
    "malformed round id": "INVALID_ROUND",
    "reused round id": "ROUND_EXISTS",
    "malformed card": "INVALID_CARD",
    "card over the decks": "SHOE_NOT_IN_PROFILE",
    "shoe cut short": "SHOE_EXHAUSTED",
    "illegal decision": "ILLEGAL_DECISION",
    "decision for another round": "ROUND_NOT_FOUND",
    "settle before the end": "ROUND_NOT_COMPLETE",
    "two bets of one kind": "INVALID_ROUND",
    "pocket off the wheel": "INVALID_ROUND",
    "near-miss shape": "INVALID_BET_LAYOUT",
    "decision in a game without": "ILLEGAL_DECISION",
    # Refused while the round goes on, or after its Settle; and one fault that is none: an id
    # in another letter case is another round (engine_service.proto).
    "settle twice": "ROUND_NOT_FOUND",
    "decision after the end": "ILLEGAL_DECISION",
    "illegal decision, play on": "ILLEGAL_DECISION",
    "settle before the end, play on": "ROUND_NOT_COMPLETE",
    "round id in another case": "",
}


def _refused_with(vround: vector_pb2.VectorRound) -> str:
    """The reason the round's call is refused with: its last call's, or one it plays on after."""
    calls = (*vround.steps, *vround.after_settle)
    return vround.expected_error or next((c.expected_error for c in calls if c.expected_error), "")


PROFILES = shipped_profiles()
CARD_PROFILES = tuple(p for p in PROFILES if p.game is not Game.ROULETTE)
_TENS = {Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING}


def test_every_fault_has_the_contracts_reason() -> None:
    assert {f for faults in FAULTS.values() for f in faults} == set(REASON)


# --- generation ----------------------------------------------------------------------------


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), profile=st.sampled_from(CARD_PROFILES))
def test_a_drawn_shoe_holds_the_profiles_decks_exactly(
    data: st.DataObject, profile: Profile
) -> None:
    decks = profile.integer("decks")
    hands = [(Rank.ACE, Rank.KING), (Rank.EIGHT, Rank.EIGHT)]
    cards = data.draw(shoe_cards(profile, hands))
    assert Counter(cards) == Counter(str(c) for c in DECK * decks)


@given(data=st.data())
def test_a_blackjack_shoe_deals_the_drawn_hands_in_deal_order(data: st.DataObject) -> None:
    # BJ.deal-order: a first card to each seat, the up card, a second card to each seat, the
    # hole card. Two seats: A-K and 8-8, so the shoe must start A, 8, up, K, 8.
    profile = shipped_profile("blackjack-c")
    cards = data.draw(shoe_cards(profile, [(Rank.ACE, Rank.KING), (Rank.EIGHT, Rank.EIGHT)]))
    ranks = [Card.parse(c).rank for c in cards[:6]]
    assert (ranks[0], ranks[1], ranks[3], ranks[4]) == (
        Rank.ACE,
        Rank.EIGHT,
        Rank.KING,
        Rank.EIGHT,
    )


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), profile=st.sampled_from(PROFILES))
def test_a_drawn_fault_is_refused_with_the_contracts_reason(
    data: st.DataObject, profile: Profile
) -> None:
    vector = data.draw(explored_vector(profile, "v"))
    *before, last = vector.rounds
    # The board before the last round is clean: only the last round carries a fault.
    assert all(not r.expected_error for r in before)
    named = [f for f in REASON if f"({f})" in vector.description]
    if named:
        assert _refused_with(last) == REASON[named[0]], vector.description
    else:
        assert not _refused_with(last), vector.description


class _AllKinds(Exception):  # noqa: N818 - a signal, not an error
    """Every decision kind looked for has been drawn."""


class _Drawn:
    """A drawn vector with a short repr: the draw that stops the search is reported by
    Hypothesis as a failing example, and a whole vector's repr runs to 100 kB."""

    __slots__ = ("vector",)

    def __init__(self, vector: vector_pb2.Vector) -> None:
        self.vector = vector

    def __repr__(self) -> str:
        return f"<vector {self.vector.id}: {self.vector.description}>"


def test_drawn_rounds_reach_every_decision_kind() -> None:
    seen: Counter[str] = Counter()
    profile = shipped_profile("blackjack-a")
    # HIT..DECLINE_EVEN_MONEY are 1..9 (round.proto); every one is drawn, SURRENDER (5) aside:
    # document A does not offer it (A.surrender), so it comes only as an illegal decision.
    wanted = {str(k) for k in range(1, 10)} - {"5"}

    # Generation only, stopped once every kind has come (within 1,000 draws, as before).
    @settings(max_examples=1000, database=None, derandomize=True, phases=[Phase.generate])
    @given(explored_vector(profile, "v").map(_Drawn))
    def count(drawn: _Drawn) -> None:
        for vround in drawn.vector.rounds:
            seen.update(str(step.decision.kind) for step in vround.steps)
        if wanted <= set(seen):
            raise _AllKinds

    with contextlib.suppress(_AllKinds):
        count()
    assert wanted <= set(seen), sorted(wanted - set(seen))


@pytest.mark.parametrize("game", list(Game))
def test_a_draw_holds_no_more_rounds_than_the_budget_has_left(game: Game) -> None:
    """``most``: no fault that needs a round before its own, and a board of fewer spins."""
    profile = next(p for p in PROFILES if p.game is game)
    for visit, fault in enumerate(sorted({*FAULTS[game], "round id of another profile"})):
        spec = rounds.explored_vector(profile, "v", PROFILES, f"fault:{fault}#0", most=1)
        vector, _ = search._draw_once(spec, visit, None)
        assert len(vector.rounds) == 1, fault
    if game is Game.ROULETTE:
        # A full board is 14 spins or more (C.rou.history): three were left.
        spec = rounds.explored_vector(profile, "v", PROFILES, "history:full#0", most=3)
        vector, _ = search._draw_once(spec, 0, None)
        assert len(vector.rounds) == 3


@pytest.mark.parametrize(
    ("game", "fault"),
    [(game, fault) for game, faults in FAULTS.items() for fault in sorted(set(faults))],
)
def test_every_fault_is_drawn_and_refused(game: Game, fault: str) -> None:
    profile = next(p for p in PROFILES if p.game is game)
    # Drawn as explore draws a fault it aims at (``fault:NAME``, its N-th visit): a fault
    # bites at once, or within a few visits when it needs the round to wait (a Settle before
    # its end).
    found = []
    for visit in range(8):
        spec = rounds.explored_vector(profile, "v", PROFILES, f"fault:{fault}#{visit}")
        vector, _ = search._draw_once(spec, visit, None)
        if f"({fault})" in vector.description:
            found.append(vector)
            break
    assert found, fault
    # Named only when its round was refused, and refused with the contract's reason.
    assert _refused_with(found[0].rounds[-1]) == REASON[fault]
    if not REASON[fault]:
        return
    # The vector's clauses are what its rounds cite: the refusal's clause among them, and
    # none of another game (a refused roulette round once listed BJ.deal).
    refusal = [
        c for r in found[0].rounds for m in _answers(r) if "error" in m for c in m["error"].ids
    ]
    assert refusal
    assert set(refusal) <= set(found[0].clauses)
    for cid in found[0].clauses:
        assert cid in CONTRACT or BY_ID[cid].game in (game, None), (cid, found[0].clauses)


def _answers(vround: vector_pb2.VectorRound) -> list[Mapping[str, vector_pb2.Clauses]]:
    return [
        vround.deal_citations,
        *(s.citations for s in vround.steps),
        vround.settle_citations,
        *(s.citations for s in vround.after_settle),
    ]


# --- finding and shrinking -----------------------------------------------------------------


def test_a_planted_bug_is_found_and_shrunk_to_the_minimal_round() -> None:
    # The mutant waits for the end of the round to pay a blackjack that A.nat-immediate pays
    # at once under a 2-9 up card. The smallest round that shows it: one seat at the minimum
    # stake, a natural, a dealer up card of 2 to 9, four cards dealt, no decision.
    profile = shipped_profile("blackjack-a")
    report = explore(
        ExploreConfig(
            profiles=[profile],
            launch=launch_command("natural-not-paid-at-once"),
            rounds=600,
            seed="planted",
        )
    )
    (finding,) = report.findings
    assert finding.result.clause == "A.nat-immediate"
    assert finding.found_after <= 600
    (vround,) = finding.vector.rounds
    (seat,) = vround.deal.seats
    assert [b.stake.minor_units for b in seat.bets] == [profile.integer("min_bet")]
    assert not vround.steps
    assert vround.expected_state.cards_dealt == 4
    first, up, second = (Card.parse(c) for c in vround.deal.shoe.cards[:3])
    assert {first.rank is Rank.ACE, second.rank is Rank.ACE} == {True, False}
    assert first.rank in _TENS or second.rank in _TENS
    assert 2 <= up.rank.pip <= 9
    assert finding.size == "1 round, 1 seat, 0 decisions, 4 cards"


def _explored(seed: str, rounds: int, target: str) -> tuple[Counter[str], ...]:
    report = explore(
        ExploreConfig(
            profiles=[shipped_profile("blackjack-c"), shipped_profile("roulette-american")],
            target=target,
            rounds=rounds,
            seed=seed,
        )
    )
    assert not report.findings
    # The budget counts rounds: the last draw holds no more spins than are left.
    assert [p.rounds for p in report.profiles] == [rounds, rounds]
    return tuple(
        counter
        for p in report.profiles
        for counter in (
            p.coverage.clauses,
            p.coverage.decisions,
            p.coverage.bets,
            p.coverage.refusals,
            p.cells.counts,
        )
    )


def test_the_same_seed_draws_the_same_rounds_and_another_seed_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One demo engine plays the three searches: the draws are the seed's, not the engine's.
    engine = start_engine(shlex.split(DEMO))
    try:
        first = _explored("same", 60, engine.address)
        # One vector at a time, results read after each: the same rounds all the same.
        monkeypatch.setattr(search, "CONCURRENCY", 1)
        monkeypatch.setattr(search, "CHUNK", 1)
        assert _explored("same", 60, engine.address) == first
        assert _explored("other", 60, engine.address) != first
    finally:
        engine.stop()


def test_a_time_budget_ends_the_search() -> None:
    began = time.monotonic()
    report = explore(
        ExploreConfig(
            profiles=[shipped_profile("baccarat-b"), shipped_profile("baccarat-c")],
            launch=DEMO,
            rounds=10**9,
            seconds=1.0,
        )
    )
    # Each profile had half the budget; a round takes milliseconds, not seconds.
    assert 0 < report.profiles[0].rounds < 10**9
    assert 0 < report.profiles[1].rounds < 10**9
    assert time.monotonic() - began < 60


# --- the command ---------------------------------------------------------------------------


def test_the_command_appends_the_finding_and_its_reproduce_command_replays_it(
    tmp_path: Path,
) -> None:
    out = tmp_path / "found.jsonl"
    launch = launch_command("offers-on-one-unit")
    runner = CliRunner()
    args = ["explore", "--launch", launch, "--profile", "blackjack-a", "--rounds", "200"]
    args += ["--max-findings", "1"]
    result = runner.invoke(main, [*args, "--out", str(out)], env={"COLUMNS": "400"})
    assert result.exit_code == 1, result.output
    assert "BJ.half-stakes" in result.output
    (found,) = list(read_vectors(out))
    assert found.vector.profile_id == "blackjack-a"
    # The same run again finds the same round, and does not append it twice.
    again = runner.invoke(main, [*args, "--out", str(out)], env={"COLUMNS": "400"})
    assert again.exit_code == 1
    assert len(list(read_vectors(out))) == 1
    # The finding is a vector like any other: the oracle's own answers pass on the demo
    # engine, and the mutant fails it.
    demo = runner.invoke(main, ["certify", "--launch", DEMO, "--vectors", str(out)])
    assert demo.exit_code == 0, demo.output
    line = next(ln for ln in result.output.splitlines() if "certify --launch" in ln)
    assert f"--vector {found.vector.id}" in line


def test_the_command_exits_0_when_nothing_is_found(tmp_path: Path) -> None:
    out = tmp_path / "found.jsonl"
    result = CliRunner().invoke(
        main,
        [
            "explore",
            "--launch",
            DEMO,
            "--profile",
            "roulette-c",
            "--rounds",
            "40",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    found = re.search(r"roulette-c: (\d+) rounds", result.output)
    assert found, result.output
    assert 40 <= int(found.group(1)) < 40 + 16
    assert not out.exists()


def _exploring(tmp_path: Path, profile: str) -> tuple[subprocess.Popen[str], int]:
    """``croupier explore`` under way (its first progress line read), and its engine's pid."""
    pid_file = tmp_path / "engine.pid"
    launch = f"sh -c 'echo $$ > {shlex.quote(str(pid_file))}; exec {DEMO}'"
    options = ["--minutes", "5", "--progress-every", "0.2", "--out", str(tmp_path / "out.jsonl")]
    process = subprocess.Popen(  # noqa: S603 - our own interpreter
        [*CROUPIER, "explore", "--launch", launch, "--profile", profile, *options],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith(f"explore: {profile}"):
            break
    return process, int(pid_file.read_text())


def test_sigterm_stops_the_search_and_the_launched_engine(tmp_path: Path) -> None:
    process, engine = _exploring(tmp_path, "blackjack-c")
    process.send_signal(signal.SIGTERM)
    assert process.stdout is not None
    output = process.stdout.read()
    assert process.wait(30) == 128 + signal.SIGTERM
    assert "interrupted by SIGTERM" in output
    assert "blackjack-c:" in output  # what was covered is still reported
    with pytest.raises(ProcessLookupError):
        os.kill(engine, 0)


def test_an_unknown_profile_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["explore", "--launch", DEMO, "--profile", "blackjack-z"])
    assert result.exit_code == 2
    assert "blackjack-z" in result.output


def test_the_findings_file_is_not_json_lines_then_nothing_runs(tmp_path: Path) -> None:
    out = tmp_path / "found.jsonl"
    out.write_text("not json\n")
    result = CliRunner().invoke(main, ["explore", "--launch", DEMO, "--out", str(out)])
    assert result.exit_code == 2
    assert json.dumps(str(out))[1:-1] in result.output


def test_certify_explore_adds_explored_rounds_to_the_verdict_and_the_report(
    tmp_path: Path,
) -> None:
    corpus = tmp_path / "bja.jsonl"
    write_vectors(corpus, campaign(shipped_profile("blackjack-a"), "explore-test", 2, "bja-e"))
    found = tmp_path / "found.jsonl"
    args = ["certify", "--vectors", str(corpus), "--explore", "300", "--explore-out", str(found)]
    runner = CliRunner()

    page = tmp_path / "demo.html"
    demo = [*args, "--launch", DEMO, "--report", str(tmp_path / "demo.jsonl"), "--html", str(page)]
    clean = runner.invoke(main, demo)
    assert clean.exit_code == 0, clean.output
    lines = [json.loads(ln) for ln in (tmp_path / "demo.jsonl").read_text().splitlines()]
    explored = [ln for ln in lines if ln.get("id") == "explore/blackjack-a"]
    assert [ln["outcome"] for ln in explored] == ["PASS"]
    # The explored profile's coverage: a line of the report and a section of the certificate.
    (coverage,) = [ln["explore_coverage"] for ln in lines if "explore_coverage" in ln]
    assert (coverage["profile"], coverage["rounds"]) == ("blackjack-a", 300)
    # The demo engine claims every shipped profile: the faults across profiles are cells.
    assert coverage["cells"] == len(cells(shipped_profile("blackjack-a"), PROFILES))
    assert coverage["reached"] + len(coverage["unreached"]) == coverage["cells"]
    html = page.read_text()
    assert '<section id="explore-coverage">' in html
    assert f"{coverage['reached']} / {coverage['cells']}" in html
    # Passed, but on a vector file of its own: not the corpus, so never conformant.
    assert (lines[-1]["passed"], lines[-1]["conformant"]) == (True, False)

    mutant = launch_command("natural-not-paid-at-once")
    caught = runner.invoke(
        main, [*args, "--launch", mutant, "--report", str(tmp_path / "mutant.jsonl")]
    )
    assert caught.exit_code == 1, caught.output
    lines = [json.loads(ln) for ln in (tmp_path / "mutant.jsonl").read_text().splitlines()]
    (finding,) = [ln for ln in lines if str(ln.get("id", "")).startswith("x")]
    assert finding["clause"] == "A.nat-immediate"
    assert lines[-1]["conformant"] is False
    assert [v.vector.id for v in read_vectors(found)] == [finding["id"]]


def test_a_killed_explorer_leaves_no_engine_behind(tmp_path: Path) -> None:
    # SIGKILL gives the explorer no chance to stop its engine: the engine is tied to it
    # (PR_SET_PDEATHSIG) and gets SIGTERM when it dies.
    process, engine = _exploring(tmp_path, "baccarat-b")
    process.kill()
    process.wait(30)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.kill(engine, 0)
        except ProcessLookupError:
            return
        if _zombie(engine):  # dead, waiting for whoever adopted it to reap it
            return
        time.sleep(0.1)
    seen = _seen(engine)
    os.kill(engine, signal.SIGKILL)
    pytest.fail(f"the engine outlived the explorer that launched it: {seen}")


def _seen(pid: int) -> str:
    """What /proc says of a process that should have ended: its state and its threads' waits."""
    try:
        state = next(
            line
            for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines()
            if line.startswith("State:")
        )
        waits = Counter(
            (task / "wchan").read_text(encoding="ascii")
            for task in Path(f"/proc/{pid}/task").iterdir()
        )
    except OSError as exc:
        return f"/proc/{pid} unreadable ({exc})"
    return f"{state}; threads waiting in {dict(waits)}"


def _zombie(pid: int) -> bool:
    """Whether ``pid`` has exited and is not yet reaped (state Z in /proc)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] == "Z"
