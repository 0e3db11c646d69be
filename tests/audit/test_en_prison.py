"""Audit replay of a table that plays en prison (VAR.rou.en-prison).

The prison lives at the table like its board: the audit carries it from record to record in
the log's order, across shards and workers, so that the spin deciding an imprisoned bet is
judged against the right prison.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.conformance.audit.verify import audit_log
from croupier.oracle.profile import load_profile_file
from croupier.oracle.roulette import BetKind, RouletteBet, TableHistory
from croupier.oracle.rounds import Round, RoundRequest, SeatRequest, start_round
from croupier.v1 import common_pb2, round_pb2
from tests.audit.rounds import write_rounds

FRENCH = Path(__file__).resolve().parents[2] / "docs" / "examples" / "french-roulette.toml"

#: The spins at one table and the seats at each: a zero imprisons (seat 0's red, seat 1's
#: even); a spin of seat 0 alone decides its red (1: its 100 back) and leaves seat 1's even;
#: seat 1's return on 3 (odd) loses it; a second zero then 2 (black) give seat 0's black back.
SPINS: tuple[tuple[int, int], ...] = ((0, 2), (1, 1), (3, 2), (0, 1), (2, 1), (7, 1))


def _seat() -> SeatRequest:
    return SeatRequest(
        balance=1000,
        wagers=(
            RouletteBet(kind=BetKind.RED, amount=100),
            RouletteBet(kind=BetKind.BLACK, amount=50),
            RouletteBet(kind=BetKind.EVEN, amount=20),
        ),
    )


def _rounds() -> Iterator[Round]:
    profile = load_profile_file(FRENCH)
    board: TableHistory | None = None
    for n, (pocket, seats) in enumerate(SPINS):
        request = RoundRequest(
            round_id=f"fr-{n}",
            profile_id=profile.id,
            table_id="t1",
            currency="EUR",
            seats=tuple(_seat() for _ in range(seats)),
            pocket=pocket,
        )
        current = start_round(profile, request, board)
        board = current.history
        yield current


def test_the_rounds_do_release_prisoners() -> None:
    released = [
        line for current in _rounds() for line in current.settlement if line.prison is not None
    ]
    assert {line.prison.value for line in released} == {"imprisoned", "released"}


@pytest.mark.parametrize(("workers", "shard_size"), [(1, 1), (2, 2), (1, 100)])
def test_a_log_of_en_prison_is_clean_whatever_the_shards(
    tmp_path: Path, workers: int, shard_size: int
) -> None:
    log = write_rounds(tmp_path / "fr.bin", _rounds())
    summary = audit_log(log, workers=workers, shard_size=shard_size, lab_files=(str(FRENCH),))
    assert summary.clean, summary.first
    assert summary.records == len(SPINS)


def test_an_imprisoned_bet_paid_its_winnings_is_a_finding(tmp_path: Path) -> None:
    def pay_winnings(n: int, record: round_pb2.RoundRecord) -> None:
        # Round 1 (pocket 1, red): seat 0's imprisoned red comes back: 100, not 200.
        if n != 1:
            return
        line = record.settlement.lines[0]
        assert line.prison == common_pb2.PRISON_STATUS_RELEASED
        assert line.returned.minor_units == 100
        line.returned.minor_units = 200
        record.settlement.total_returned.minor_units += 100

    log = write_rounds(tmp_path / "fr.bin", _rounds(), change=pay_winnings)
    report = tmp_path / "report.json"
    summary = audit_log(log, workers=1, shard_size=1, lab_files=(str(FRENCH),), report_path=report)
    assert not summary.clean
    assert summary.discrepancies == 1
    (finding,) = json.loads(report.read_text(encoding="utf-8"))["discrepancies"]
    assert finding["round_id"] == "fr-1"
    assert finding["clause"] == "VAR.rou.en-prison"
    assert (finding["expected"], finding["actual"]) == ("100", "200")


def test_a_line_that_does_not_say_it_was_imprisoned_is_a_finding(tmp_path: Path) -> None:
    def forget_the_prison(n: int, record: round_pb2.RoundRecord) -> None:
        # Round 0 (pocket 0): seat 0's red is imprisoned, its line says so; this one does not.
        if n == 0:
            line = record.settlement.lines[0]
            assert line.prison == common_pb2.PRISON_STATUS_IMPRISONED
            line.prison = common_pb2.PRISON_STATUS_UNSPECIFIED

    log = write_rounds(tmp_path / "fr.bin", _rounds(), change=forget_the_prison)
    report = tmp_path / "report.json"
    summary = audit_log(log, workers=1, shard_size=1, lab_files=(str(FRENCH),), report_path=report)
    assert summary.discrepancies == 1
    (finding,) = json.loads(report.read_text(encoding="utf-8"))["discrepancies"]
    assert (finding["round_id"], finding["path"]) == ("fr-0", "settlement.lines[0].prison")
    assert finding["clause"] == "VAR.rou.en-prison"
    assert (finding["expected"], finding["actual"]) == ("imprisoned", "")
