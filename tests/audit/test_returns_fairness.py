"""Audit returns and fairness: fair seeded logs pass, stacked ones are flagged (issue 16)."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.conformance.audit import verify
from croupier.conformance.audit.executor import Executor
from croupier.conformance.audit.fairness import (
    Assessment,
    FairnessRow,
    ReturnRow,
    chi_square_p,
    chi_square_test,
)
from croupier.conformance.audit.replay import basic_strategy
from croupier.conformance.audit.verify import AuditSummary, audit_log
from croupier.conformance.cli import main
from croupier.oracle.basic_strategy import strategy_return
from croupier.oracle.profile import shipped_profile
from croupier.oracle.rounds import Round
from croupier.oracle.shoe import seeded_spins
from tests.audit.rounds import (
    RED,
    STRAIGHT,
    baccarat_rounds,
    blackjack_rounds,
    roulette_rounds,
    write_rounds,
)
from tests.audit.support import invoke

ROUNDS = 1500


def _audit(path: Path, **options: float) -> AuditSummary:
    return audit_log(path, workers=1, **options)  # type: ignore[arg-type]


def _statistics(summary: AuditSummary) -> Assessment:
    assert summary.clean, summary.first  # the rules are kept: only the statistics may flag
    assert summary.statistics is not None
    return summary.statistics


def _test(statistics: Assessment, profile_id: str) -> FairnessRow:
    return next(row for row in statistics.fairness if row.profile_id == profile_id)


def _row(statistics: Assessment, profile_id: str, bet: str) -> ReturnRow:
    return next(r for r in statistics.returns if r.profile_id == profile_id and r.bet == bet)


@pytest.fixture(scope="module")
def fair(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One log of fair rounds of the three games: seeded shoes and spins."""
    spins = seeded_spins("fair-wheel", ROUNDS, 37)

    def rounds() -> Iterator[Round]:
        yield from blackjack_rounds(ROUNDS, stacked=False)
        yield from baccarat_rounds(ROUNDS, stacked=False)
        yield from roulette_rounds(spins.__getitem__, ROUNDS, (STRAIGHT, RED))

    return write_rounds(tmp_path_factory.mktemp("fair") / "fair.bin", rounds())


# --- the chi-square distribution ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("statistic", "df", "p"),
    [
        # Upper critical values of the chi-square tables (NIST/SEMATECH 1.3.6.7.4).
        (3.841, 1, 0.05),
        (6.635, 1, 0.01),
        (18.307, 10, 0.05),
        (5.991, 2, 0.05),
        (32.910, 12, 0.001),
        (2.558, 10, 0.99),
        (67.985, 36, 0.001),
    ],
)
def test_chi_square_p_matches_the_tables(statistic: float, df: int, p: float) -> None:
    assert chi_square_p(statistic, df) == pytest.approx(p, rel=2e-3)


def test_chi_square_p_at_the_edges() -> None:
    assert chi_square_p(0, 3) == 1.0
    assert chi_square_p(1e4, 2) == pytest.approx(math.exp(-5e3), abs=1e-300)
    with pytest.raises(ValueError, match="degree of freedom"):
        chi_square_p(1.0, 0)


# --- fair and stacked logs --------------------------------------------------------------------


def test_a_fair_log_flags_nothing(fair: Path) -> None:
    statistics = _statistics(_audit(fair))
    assert statistics.flagged == 0, statistics.as_json()
    tests = {row.profile_id: row for row in statistics.fairness}
    assert set(tests) == {"blackjack-a", "baccarat-c", "roulette-c"}
    for row in tests.values():
        assert row.p is not None
        assert row.p > 0.001
    banker = _row(statistics, "baccarat-c", "banker")
    assert banker.theoretical is not None
    assert banker.z is not None
    assert abs(banker.z) <= 3


def test_blackjack_shows_its_actual_return_beside_basic_strategy(fair: Path) -> None:
    hands = _row(_statistics(_audit(fair)), "blackjack-a", "hand")
    assert hands.staked == 10 * ROUNDS
    assert hands.actual == Fraction(hands.returned, hands.staked)
    # Per unit staked, as the log counts it: doubled and split stakes are stakes too.
    assert (
        hands.theoretical == strategy_return(shipped_profile("blackjack-a")).per_unit_staked_exact
    )
    # The log's players are not basic strategy's: no z against it, and the note says why.
    assert hands.z is None
    assert not hands.flagged
    assert "players' real decisions" in hands.note


def _asides(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every function the audit starts beside its shards, recorded."""
    started: list[object] = []
    aside = Executor.aside

    def spy(self: Executor, function: Callable[..., object], *args: object) -> Future[object]:
        started.append(function)
        return aside(self, function, *args)

    monkeypatch.setattr(Executor, "aside", spy)
    return started


def test_a_shipped_profile_figure_starts_no_analysis(
    fair: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = _asides(monkeypatch)
    hands = _row(_statistics(audit_log(fair, workers=2)), "blackjack-a", "hand")
    assert started == []
    # The table's figure is the analysis' (tests/oracle/test_basic_strategy.py).
    assert (
        hands.theoretical == strategy_return(shipped_profile("blackjack-a")).per_unit_staked_exact
    )


def test_rules_without_a_shipped_figure_are_analysed_beside_the_shards(
    fair: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = _asides(monkeypatch)
    monkeypatch.setattr(verify, "shipped_per_unit_staked", lambda _rules: None)
    hands = _row(_statistics(audit_log(fair, workers=2)), "blackjack-a", "hand")
    assert started == [basic_strategy]
    expected = strategy_return(shipped_profile("blackjack-a")).per_unit_staked_exact
    assert hands.theoretical == expected


def test_blackjack_shoes_without_tens_are_flagged(tmp_path: Path) -> None:
    log = write_rounds(tmp_path / "no-tens.bin", blackjack_rounds(300, stacked=True))
    row = _test(_statistics(_audit(log)), "blackjack-a")
    assert row.flagged
    assert row.p is not None
    assert row.p < 1e-12
    assert row.worst.startswith(("T ", "J ", "Q ", "K "))


def test_a_baccarat_shoe_stacked_for_the_banker_is_flagged(tmp_path: Path) -> None:
    log = write_rounds(tmp_path / "banker.bin", baccarat_rounds(600, stacked=True))
    statistics = _statistics(_audit(log))
    row = _test(statistics, "baccarat-c")
    assert row.flagged
    # The cell furthest from its expectation: the player's, whose wins were dealt again.
    assert row.worst.startswith("player ")
    # The banker bet paid far more than it should: its return is flagged too.
    banker = _row(statistics, "baccarat-c", "banker")
    assert banker.flagged
    assert banker.z is not None
    assert banker.z > 3


def test_a_wheel_that_favours_one_pocket_is_flagged(tmp_path: Path) -> None:
    spins = seeded_spins("biased", 1200, 37)
    log = write_rounds(
        tmp_path / "biased.bin",
        roulette_rounds(lambda n: 17 if n % 6 == 0 else spins[n], 1200, (RED,)),
    )
    row = _test(_statistics(_audit(log)), "roulette-c")
    assert row.flagged
    assert row.worst.startswith("17 ")


def test_too_few_rounds_give_no_verdict(tmp_path: Path) -> None:
    log = write_rounds(tmp_path / "few.bin", roulette_rounds(lambda n: n % 37, 40, (RED,)))
    row = _test(_statistics(_audit(log)), "roulette-c")
    assert row.p is None
    assert not row.flagged
    assert row.note.startswith("too few rounds")


def test_the_z_score_of_a_number_that_never_comes_up(tmp_path: Path) -> None:
    """A unit straight on 17 over N spins that never hit 17 returns 0 against 36/37.

    A unit straight returns 36 with chance 1/37, else 0: its variance per unit staked is
    v = 36**2/37 - (36/37)**2 = 36**3/37**2. N unit stakes: SE = sqrt(v * N) / N, so
    z = (0 - 36/37) / sqrt(v / N) = -sqrt(N) / 6.
    """
    spins = 360
    others = [p for p in range(37) if p != 17]
    log = write_rounds(
        tmp_path / "cold.bin",
        roulette_rounds(lambda n: others[n % len(others)], spins, (STRAIGHT,)),
    )
    statistics = _statistics(_audit(log))
    straight = _row(statistics, "roulette-c", "straight")
    assert straight.staked == spins
    assert straight.returned == 0
    assert straight.actual == 0
    assert straight.theoretical == Fraction(36, 37)
    assert straight.variance == Fraction(36**3, 37**2)
    assert straight.standard_error == pytest.approx(math.sqrt(36**3 / 37**2 / spins))
    assert straight.z == pytest.approx(-math.sqrt(spins) / 6)  # -3.16
    assert straight.flagged
    # A wider band lets the same figure through.
    wide = _statistics(_audit(log, band=4.0))
    assert not _row(wide, "roulette-c", "straight").flagged


# --- the command --------------------------------------------------------------------------------


def test_audit_verify_prints_and_reports_returns_and_fairness(fair: Path, tmp_path: Path) -> None:
    report = tmp_path / "audit.json"
    result = invoke("audit", "verify", fair, "--workers", 1, "--report", report, "--band", 3.5)
    assert result.exit_code == 0, result.output
    assert "Returns" in result.output
    assert "Fairness" in result.output
    assert "blackjack-a:\n    theory is the return under basic strategy" in result.output
    assert "FLAG" not in result.output
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["band"] == 3.5
    assert data["flagged"] == 0
    straight = next(r for r in data["returns"] if r["bet"] == "straight")
    assert Fraction(straight["theoretical"]) == Fraction(36, 37)
    assert Fraction(straight["actual"]) == Fraction(straight["returned"], straight["staked"])
    assert isinstance(straight["z"], float)
    ranks = next(r for r in data["fairness"] if r["profile"] == "blackjack-a")
    assert ranks["df"] == 12
    assert 0.001 < ranks["p"] <= 1


def test_a_stacked_log_is_flagged_on_the_console(tmp_path: Path) -> None:
    log = write_rounds(tmp_path / "no-tens.bin", blackjack_rounds(300, stacked=True))
    result = CliRunner().invoke(
        main, ["audit", "verify", str(log), "--workers", "1"], env={"COLUMNS": "80"}
    )
    # Statistics flag; they are not findings: the rules were kept, so the audit is clean.
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    sections = lines[lines.index(next(x for x in lines if "Returns" in x)) :]
    assert any("FLAG T 0/" in line for line in sections), result.output
    assert max(len(line) for line in sections) <= 80
    assert "1 flagged: statistics to look into, not findings" in result.output


def test_a_value_off_the_table_is_flagged_without_a_chi_square() -> None:
    shares = [("player", Fraction(1, 2)), ("banker", Fraction(1, 2))]
    row = chi_square_test("p", "outcomes", Counter(player=3, banker=2, dragon=1), shares, 0.001)
    assert row.flagged
    assert row.p == 0.0
    assert row.statistic is None
    assert row.worst == "1 value off the table's cells"
    json.dumps(row.as_json(), allow_nan=False)


def test_values_off_the_table_are_counted_in_the_plural() -> None:
    shares = [("player", Fraction(1, 2)), ("banker", Fraction(1, 2))]
    row = chi_square_test("p", "outcomes", Counter(player=3, dragon=1, tiger=1), shares, 0.001)
    assert row.worst == "2 values off the table's cells"
