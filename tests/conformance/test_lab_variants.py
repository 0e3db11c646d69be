"""The lab profiles of docs/examples/ for baccarat and roulette, played by real engines.

Hand-computed rounds for each variant they choose (VAR.bac.ez, VAR.bac.banker-six,
VAR.rou.bets-offered, VAR.rou.en-prison, TABLE.seats), where a campaign meets the rule seldom
or never (a refusal, a seat too many), frozen as vectors beside a campaign of each profile:
the demo engine, which plays the lab tables, passes them all, and each lab mutant of the zoo
(``clients.mutants.LAB_MUTANTS``) is killed by a hand-computed one, with its own clause.
"""

from __future__ import annotations

import asyncio
import shlex
import sys
from pathlib import Path

import pytest

from croupier.clients.mutants import LAB_MUTANTS
from croupier.conformance.cases import Case, CaseRound, build_case
from croupier.conformance.results import VectorOutcome
from croupier.conformance.runner import BAD
from croupier.conformance.vectors import LoadedVector, campaign, read_vectors, write_vectors
from croupier.conformance.zoo import MutantVerdict, run_zoo
from croupier.oracle.profile import Profile, load_profile_file
from tests.clients import zoo_host
from tests.conformance.support import run_api

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
LAB_IDS = ("ez-baccarat", "super-six-baccarat", "french-roulette", "outside-bets-five-seats")

#: Player 2S 2D = 4 draws TH: 4; banker 3C KD = 3 draws on a third card of 0 (BAC.banker-
#: tableau) 4C: 7. The banker wins on three cards totalling 7.
THREE_CARD_SEVEN = "2S 3C 2D KD TH 4C"
#: Player 2S 4D = 6 stands; banker 3C 4H = 7 stands. The banker wins on two cards.
TWO_CARD_SEVEN = "2S 3C 4D 4H"
#: Player 2S 2D = 4 draws TH: 4; banker 3C 3H = 6 stands on a third card of 0. Banker on 6.
BANKER_SIX = "2S 3C 2D 3H TH"


def _case(profile: str, n: int, topic: str, clauses: tuple[str, ...], *rounds: CaseRound) -> Case:
    return Case(
        id=f"{profile}-h{n:03d}",
        name=f"{profile}/{topic}",
        profile=profile,
        clauses=clauses,
        description=f"A lab's variant, hand-computed: {topic.replace('-', ' ')}.",
        rounds=rounds,
    )


EZ = ("VAR.bac.ez", "BAC.outcome")
SIX = ("VAR.bac.banker-six", "BAC.outcome")
OFFERED = ("VAR.rou.bets-offered",)
SEATS = ("TABLE.seats",)
PRISON = ("VAR.rou.en-prison", "C.rou.wheel")

CASES: dict[str, tuple[Case, ...]] = {
    "ez-baccarat": (
        # A banker win on three cards totalling 7 pushes; player and tie lose.
        _case(
            "ez-baccarat",
            1,
            "three-card-seven-pushes",
            EZ,
            CaseRound(
                seats=("1000:player=100,banker=100,tie=10",),
                shoe=THREE_CARD_SEVEN,
                returns=(0, 100, 0),
            ),
        ),
        # Player 3S 2H = 5 draws 9D: 4; banker 4C 9H = 3 draws on a 9 (all but 8) 4S: 7.
        _case(
            "ez-baccarat",
            2,
            "three-card-seven-after-a-nine-pushes",
            EZ,
            CaseRound(seats=("1000:banker=50",), shoe="3S 4C 2H 9H 9D 4S", returns=(50,)),
        ),
        _case(
            "ez-baccarat",
            3,
            "three-card-seven-pushes-at-every-seat",
            EZ,
            CaseRound(
                seats=("500:banker=25", "500:banker=30,player=30"),
                shoe=THREE_CARD_SEVEN,
                returns=(25, 30, 0),
            ),
        ),
        # No commission: 1:1 in full, 100 + 100; and an odd stake, 75 + 75.
        _case(
            "ez-baccarat",
            4,
            "two-card-seven-pays-in-full",
            EZ,
            CaseRound(seats=("1000:banker=100",), shoe=TWO_CARD_SEVEN, returns=(200,)),
        ),
        _case(
            "ez-baccarat",
            5,
            "banker-six-pays-in-full",
            EZ,
            CaseRound(seats=("1000:banker=75",), shoe=BANKER_SIX, returns=(150,)),
        ),
        _case(
            "ez-baccarat",
            6,
            "odd-stake-pays-in-full",
            EZ,
            CaseRound(seats=("1000:banker=33",), shoe=TWO_CARD_SEVEN, returns=(66,)),
        ),
    ),
    "ez-baccarat-seats": (
        # Player 7S 9D = 6 stands; banker 4H 6C = 0 draws 3C: 3. Every player bet 1:1.
        _case(
            "ez-baccarat",
            7,
            "seven-seats-play",
            SEATS,
            CaseRound(seats=("1000:player=10",) * 7, shoe="7S 4H 9D 6C 3C", returns=(20,) * 7),
        ),
        _case(
            "ez-baccarat",
            8,
            "eight-seats-refused",
            SEATS,
            CaseRound(seats=("1000:player=10",) * 8, shoe="7S 4H 9D 6C 3C", error="TOO_MANY_SEATS"),
        ),
    ),
    "super-six-baccarat": (
        # 1:2 on a banker 6: 100 + 50.
        _case(
            "super-six-baccarat",
            1,
            "banker-six-pays-half",
            SIX,
            CaseRound(seats=("1000:banker=100",), shoe=BANKER_SIX, returns=(150,)),
        ),
        # Player 2S 3D = 5 draws KH: 5; banker 2C TS = 2 draws 4D: 6 beats 5. 40 + 20.
        _case(
            "super-six-baccarat",
            2,
            "three-card-six-pays-half",
            SIX,
            CaseRound(
                seats=("1000:banker=40,player=40",), shoe="2S 2C 3D TS KH 4D", returns=(60, 0)
            ),
        ),
        # 25 + 12.5, rounded down (MONEY.rounding): 37.
        _case(
            "super-six-baccarat",
            3,
            "banker-six-on-an-odd-stake-rounds-down",
            SIX,
            CaseRound(seats=("1000:banker=25",), shoe=BANKER_SIX, returns=(37,)),
        ),
        # Any other banker win: 1:1, no commission.
        _case(
            "super-six-baccarat",
            4,
            "banker-seven-pays-in-full",
            SIX,
            CaseRound(seats=("1000:banker=100",), shoe=TWO_CARD_SEVEN, returns=(200,)),
        ),
    ),
    "outside-bets-five-seats": (
        _case(
            "outside-bets-five-seats",
            1,
            "straight-not-offered",
            OFFERED,
            CaseRound(seats=("1000:straight 17=10",), pocket="17", error="BET_NOT_OFFERED"),
        ),
        _case(
            "outside-bets-five-seats",
            2,
            "split-beside-offered-bets-not-offered",
            OFFERED,
            CaseRound(
                seats=("1000:red=10", "1000:dozen 2=10,split 1-2=10"),
                pocket="1",
                error="BET_NOT_OFFERED",
            ),
        ),
        _case(
            "outside-bets-five-seats",
            3,
            "corner-not-offered",
            OFFERED,
            CaseRound(seats=("1000:corner 1-2-4-5=10",), pocket="5", error="BET_NOT_OFFERED"),
        ),
        # 17 is black, odd, low, in column 2 and dozen 2: 2:1, 2:1, then 1:1 three times.
        _case(
            "outside-bets-five-seats",
            4,
            "outside-bets-pay",
            OFFERED,
            CaseRound(
                seats=("1000:column 2=10,dozen 2=10,black=10,odd=10,low=10",),
                pocket="17",
                returns=(30, 30, 20, 20, 20),
            ),
        ),
        _case(
            "outside-bets-five-seats",
            5,
            "five-seats-play",
            SEATS,
            CaseRound(seats=("1000:red=10",) * 5, pocket="1", returns=(20,) * 5),
        ),
        _case(
            "outside-bets-five-seats",
            6,
            "six-seats-refused",
            SEATS,
            CaseRound(seats=("1000:red=10",) * 6, pocket="1", error="TOO_MANY_SEATS"),
        ),
        _case(
            "outside-bets-five-seats",
            7,
            "seven-seats-refused",
            SEATS,
            CaseRound(seats=("100:odd=10",) * 7, pocket="2", error="TOO_MANY_SEATS"),
        ),
        _case(
            "outside-bets-five-seats",
            8,
            "six-seats-of-mixed-bets-refused",
            SEATS,
            CaseRound(
                seats=("100:low=10", "100:dozen 1=10", "100:column 3=10") * 2,
                pocket="3",
                error="TOO_MANY_SEATS",
            ),
        ),
    ),
    "french-roulette": (
        # A zero imprisons red (0 now); the straight 0 wins 35:1. Next spin, 1 (red): the
        # red bet's stake back, no winnings (stake 0 on that line); black loses.
        _case(
            "french-roulette",
            1,
            "zero-imprisons-then-red-gives-the-stake-back",
            PRISON,
            CaseRound(seats=("1000:red=100,straight 0=10",), pocket="0", returns=(0, 360)),
            CaseRound(seats=("1000:black=10",), pocket="1", returns=(100, 0)),
        ),
        # Even imprisoned, then 3 (odd): lost; the new odd bet wins 1:1.
        _case(
            "french-roulette",
            2,
            "imprisoned-bet-lost-on-the-next-spin",
            PRISON,
            CaseRound(seats=("1000:even=100",), pocket="0", returns=(0,)),
            CaseRound(seats=("1000:odd=10",), pocket="3", returns=(0, 20)),
        ),
        # Seat 1's low bet is imprisoned; a spin of seat 0 alone leaves it (high loses on 5);
        # with seat 1 back, 5 (red, low) gives its 100 back, and its red bet wins.
        _case(
            "french-roulette",
            3,
            "a-spin-without-the-seat-keeps-its-bet",
            PRISON,
            CaseRound(seats=("1000:dozen 1=10", "1000:low=100"), pocket="0", returns=(0, 0)),
            CaseRound(seats=("1000:high=10",), pocket="5", returns=(0,)),
            CaseRound(seats=("1000:high=10", "1000:red=10"), pocket="5", returns=(0, 100, 20)),
        ),
        # A second zero loses the first prisoner and imprisons the new bet; then 2 (black)
        # gives the 50 back; red loses.
        _case(
            "french-roulette",
            4,
            "a-second-zero-loses-the-prisoner",
            PRISON,
            CaseRound(seats=("1000:black=100",), pocket="0", returns=(0,)),
            CaseRound(seats=("1000:black=50",), pocket="0", returns=(0, 0)),
            CaseRound(seats=("1000:red=10",), pocket="2", returns=(50, 0)),
        ),
    ),
}


def _cases(profile_id: str) -> tuple[Case, ...]:
    return tuple(case for cases in CASES.values() for case in cases if case.profile == profile_id)


def _profile(profile_id: str) -> Profile:
    return load_profile_file(EXAMPLES / f"{profile_id}.toml")


@pytest.fixture(scope="module")
def lab_corpus(tmp_path_factory: pytest.TempPathFactory) -> list[LoadedVector]:
    """Each lab profile's hand-computed vectors and a campaign of it, as vector files."""
    folder = tmp_path_factory.mktemp("lab-corpus")
    loaded: list[LoadedVector] = []
    for profile_id in LAB_IDS:
        profile = _profile(profile_id)
        hand = folder / f"{profile_id}.hand.jsonl"
        # build_case checks every hand-computed outcome against the oracle under the profile.
        write_vectors(hand, [build_case(case, profile) for case in _cases(profile_id)])
        generated = folder / f"{profile_id}.campaign.jsonl"
        write_vectors(generated, campaign(profile, "lab-variants", 200, f"{profile_id}-c"))
        loaded.extend([*read_vectors(hand), *read_vectors(generated)])
    return loaded


DEMO = shlex.join([sys.executable, "-m", "croupier.clients.demo_engine", "--lab-tables"])


def test_every_lab_variant_has_cases() -> None:
    for profile_id in LAB_IDS:
        cited = {c for case in _cases(profile_id) for c in case.clauses}
        chosen = {
            c for c in _profile(profile_id).clause_ids() if c.startswith(("VAR.", "TABLE.seats"))
        }
        assert chosen <= cited, (profile_id, chosen - cited)


def test_the_demo_engine_plays_every_lab_profile(lab_corpus: list[LoadedVector]) -> None:
    report = run_api(lab_corpus, launch=DEMO, concurrency=8)
    outcomes = {r.vector_id: r.outcome for r in report.results}
    assert len(outcomes) == len(lab_corpus)
    assert set(outcomes.values()) == {VectorOutcome.PASS}, {
        vid: o for vid, o in outcomes.items() if o is not VectorOutcome.PASS
    }


#: The lab mutants of these profiles (the blackjack ones have tests/clients/test_lab_mutants.py).
MUTANTS_HERE = {name: m for name, m in LAB_MUTANTS.items() if m.profile in LAB_IDS}


def test_the_oracle_server_plays_every_lab_profile(lab_corpus: list[LoadedVector]) -> None:
    # croupier serve keeps each table's prison with its board, and refuses with the new
    # reasons and their status codes, as the vectors froze them.
    files = [arg for pid in LAB_IDS for arg in ("--profile", str(EXAMPLES / f"{pid}.toml"))]
    serve = shlex.join(
        [sys.executable, "-m", "croupier.conformance.cli", "serve", "--port", "0", *files]
    )
    report = run_api(lab_corpus, launch=serve, concurrency=8)
    assert len(report.results) == len(lab_corpus)
    assert {r.outcome for r in report.results} == {VectorOutcome.PASS}


@pytest.fixture(scope="module")
def verdicts(
    lab_corpus: list[LoadedVector], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, MutantVerdict]:
    """Every mutant here certified once, all served by one process (``zoo_host``)."""
    log = tmp_path_factory.mktemp("lab-zoo") / "host.log"
    with zoo_host.hosting(MUTANTS_HERE, log) as addresses:
        zoo = run_zoo(
            list(MUTANTS_HERE.values()), jobs=2, corpus=lab_corpus, at_least=3, targets=addresses
        )
        return {v.mutant.name: v for v in asyncio.run(zoo)}


@pytest.mark.parametrize("name", list(MUTANTS_HERE))
def test_each_lab_mutant_is_killed_with_its_clause(
    name: str, verdicts: dict[str, MutantVerdict]
) -> None:
    mutant = LAB_MUTANTS[name]
    verdict = verdicts[name]
    assert not verdict.error, verdict.error
    assert verdict.first is not None, f"{name} survived the lab vectors"
    assert verdict.first.outcome in BAD
    assert verdict.first.clause == mutant.clause, (verdict.first.vector_id, verdict.first.path)
    assert verdict.first.profile_id == mutant.profile
    assert verdict.stage == "hand-written", verdict.first.vector_id
    assert verdict.kills >= 3, verdict.kills
    assert verdict.ok
