"""The adapter kit recovers (CONTRACT.recovery): its journal, the restore, and a SIGKILL.

In process first (fast): the journal replays open rounds, tables and used ids; a damaged or
foreign journal is refused naming it and left as it is; a crash between the journal write and
the answer applies the decision once. Then one real process killed with SIGKILL while 100
rounds are in flight: every round comes back or is refused with a clear reason, none is lost,
none is paid twice, and the audit log verifies clean with one record per round.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import signal
from pathlib import Path
from typing import Any

import grpc
import pytest

from croupier.clients import adapter
from croupier.clients.audit import AuditWriter, read_log
from croupier.clients.client import CroupierClient, CroupierError
from croupier.clients.demo_engine import DemoEngine
from croupier.clients.journal import FILE_NAME, Event, JournalError
from croupier.conformance.audit.verify import audit_log
from croupier.conformance.vectors import play_round
from croupier.oracle.profile import shipped_profile
from croupier.oracle.shoe import seeded_shoe
from croupier.v1 import engine_service_pb2, round_pb2
from tests.audit.engines import refused, run_engine
from tests.clients.conftest import baccarat_deal, blackjack_deal, roulette_deal

HIT, STAND = round_pb2.DECISION_KIND_HIT, round_pb2.DECISION_KIND_STAND
#: A-1 blackjack-a: seat T then 2 (12) against a 7 up, 9 in the hole; a hit takes the 5 (17).
SHOE = "TH 7C 2D 9S 5H 4C 8D"


def _serve(state: Path, kit: type[adapter.EngineAdapter] = adapter.EngineAdapter) -> adapter.Served:
    return adapter.serve(DemoEngine(), port=0, state_dir=state, kit=kit)


def test_a_restart_keeps_open_rounds_tables_and_used_ids(tmp_path: Path) -> None:
    served = _serve(tmp_path)
    with CroupierClient.connect(f"127.0.0.1:{served.port}", timeout=10) as client:
        assert client.describe().recovery
        client.deal(blackjack_deal("bj", SHOE))
        hit = client.decide("bj", HIT)
        client.deal(baccarat_deal("bac"))
        client.deal(roulette_deal("spin-0", "0"))
        client.settle("spin-0")
        client.deal(roulette_deal("spin-1", "7"))
        client.deal(baccarat_deal("settled"))
        paid = client.settle("settled")
    served.stop(grace=0)
    again = _serve(tmp_path)
    try:
        with CroupierClient.connect(f"127.0.0.1:{again.port}", timeout=10) as client:
            # The hit is applied once: 12 + 5 = 17, standing now completes the round.
            state = client.decide("bj", STAND)
            assert list(hit.blackjack.seats[0].hands[0].cards) == ["TH", "2D", "5H"]
            assert list(state.blackjack.seats[0].hands[0].cards) == ["TH", "2D", "5H"]
            assert state.phase == round_pb2.ROUND_PHASE_COMPLETE
            # The open coup settles as it would have: a banker natural 9 pays 195 for 100.
            assert client.settle("bac").settlement.total_returned.minor_units == 195
            # The table's board holds both spins, oldest first (C.rou.history).
            spin = client.settle("spin-1")
            assert list(spin.state.roulette.history) == ["0", "7"]
            # A settled round stays settled, and its id used.
            with pytest.raises(CroupierError) as late:
                client.settle("settled")
            assert late.value.reason == "ROUND_NOT_FOUND"
            with pytest.raises(CroupierError) as reused:
                client.deal(baccarat_deal("settled"))
            assert reused.value.reason == "ROUND_EXISTS"
            assert paid.settlement.total_returned.minor_units == 195
    finally:
        again.stop(grace=0)


def test_without_a_state_dir_no_recovery_is_claimed(
    client: CroupierClient,
) -> None:
    assert not client.describe().recovery


class _DiesBeforeAnswering(adapter.EngineAdapter):
    """Journals a decision, then fails before the answer (as a crash there would)."""

    def journal_write(self, event: Event) -> None:
        super().journal_write(event)
        if event.kind == "decide":
            raise SystemExit("killed between the journal write and the answer")


def test_a_crash_between_journal_and_answer_applies_the_decision_once(tmp_path: Path) -> None:
    from croupier.clients.journal import Journal  # noqa: PLC0415 - the kit's own part under test

    kit = _DiesBeforeAnswering(DemoEngine(), journal=Journal(tmp_path, DemoEngine.name))
    deal = blackjack_deal("r1", SHOE)
    kit.Deal(deal, _CONTEXT)
    decide = engine_service_pb2.DecideRequest(round_id="r1", decision=round_pb2.Decision(kind=HIT))
    with pytest.raises(SystemExit):
        kit.Decide(decide, _CONTEXT)
    assert kit.journal is not None
    kit.journal.close()
    # The engine starts again from the journal: the hit is there once, not lost, not twice.
    served = _serve(tmp_path)
    try:
        with CroupierClient.connect(f"127.0.0.1:{served.port}", timeout=10) as client:
            state = client.decide("r1", STAND)
            assert list(state.blackjack.seats[0].hands[0].cards) == ["TH", "2D", "5H"]
    finally:
        served.stop(grace=0)


class _DiesAfterTheRecord(adapter.EngineAdapter):
    """Writes a Settle's audit record, then fails before the journal hears of it."""

    def journal_settle(self, round_id: str, entry: Any) -> None:
        raise SystemExit("killed between the audit record and the journal")


def test_a_crash_between_the_audit_record_and_the_journal_pays_once(tmp_path: Path) -> None:
    from croupier.clients.journal import Journal  # noqa: PLC0415 - the kit's own part under test

    log = tmp_path / "rounds.jsonl"
    kit = _DiesAfterTheRecord(
        DemoEngine(),
        journal=Journal(tmp_path, DemoEngine.name),
        audit=AuditWriter.open(log),
    )
    kit.Deal(baccarat_deal("b1"), _CONTEXT)
    with pytest.raises(SystemExit):
        kit.Settle(engine_service_pb2.SettleRequest(round_id="b1"), _CONTEXT)
    assert kit.journal is not None
    assert kit.audit is not None
    kit.journal.close()
    kit.audit.close()
    # Started again: the journal says the round is open, the log says it was paid: closed.
    served = adapter.serve(DemoEngine(), port=0, state_dir=tmp_path, audit_log=log)
    try:
        with CroupierClient.connect(f"127.0.0.1:{served.port}", timeout=10) as client:
            with pytest.raises(CroupierError) as again:
                client.settle("b1")
            assert again.value.reason == "ROUND_NOT_FOUND"
    finally:
        served.stop(grace=0)
    assert [e.record.round_id for e in read_log(log) if e.record is not None] == ["b1"]


def test_a_round_that_expired_stays_gone_after_a_restart(tmp_path: Path) -> None:
    from croupier.clients.journal import Journal  # noqa: PLC0415 - the kit's own part under test

    now = [0.0]
    kit = adapter.EngineAdapter(
        DemoEngine(),
        journal=Journal(tmp_path, DemoEngine.name),
        ttl_seconds=60,
        clock=lambda: now[0],
    )
    kit.Deal(blackjack_deal("old", SHOE), _CONTEXT)
    kit.Deal(baccarat_deal("young"), _CONTEXT)
    now[0] = 61.0
    kit.Deal(roulette_deal("spin", "7"), _CONTEXT)
    assert kit.book.ids() == ["spin"]  # the two rounds untouched for 61 s expired
    assert kit.journal is not None
    kit.journal.close()
    again = adapter.EngineAdapter(DemoEngine(), journal=Journal(tmp_path, DemoEngine.name))
    assert again.book.ids() == ["spin"]
    assert again.journal is not None
    again.journal.close()


class _Context:
    """The little of a servicer context the kit uses when nothing goes wrong."""

    def abort_with_status(self, status: grpc.Status) -> None:
        raise AssertionError(status)


#: Passed where the kit wants a grpc.ServicerContext (it calls abort_with_status alone).
_CONTEXT: Any = _Context()


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"not a database at all, an operator's notes\n", "not an SQLite database"),
        (b"SQLite format 3\x00" + b"\x00" * 200, "damaged"),
    ],
)
def test_a_damaged_journal_is_refused_naming_it_and_left_as_it_is(
    tmp_path: Path, content: bytes, said: str
) -> None:
    journal = tmp_path / FILE_NAME
    journal.write_bytes(content)
    message = refused(["--state-dir", tmp_path], tmp_path / "stderr")
    assert str(journal) in message
    assert said in message
    assert journal.read_bytes() == content


def test_a_journal_of_another_engine_or_format_is_refused(tmp_path: Path) -> None:
    served = _serve(tmp_path)
    served.stop(grace=0)
    journal = tmp_path / FILE_NAME
    before = hashlib.sha256(journal.read_bytes()).hexdigest()

    class Other(DemoEngine):
        name = "another-engine"

    with pytest.raises(JournalError, match="journal of engine 'croupier-demo-engine'"):
        adapter.serve(Other(), port=0, state_dir=tmp_path)
    assert hashlib.sha256(journal.read_bytes()).hexdigest() == before
    with pytest.raises(JournalError, match="is not a directory"):
        adapter.serve(DemoEngine(), port=0, state_dir=journal)


def _rounds(count: int) -> dict[str, tuple[list[str], bool, engine_service_pb2.SettleResponse]]:
    """Seeded rounds whose deal waits for a stand, or is complete; what the oracle settles.

    Each id's shoe, whether it takes a stand, and its settlement after that stand (if any).
    """
    profile = shipped_profile("blackjack-a")
    rounds: dict[str, tuple[list[str], bool, engine_service_pb2.SettleResponse]] = {}
    seed = 0
    while len(rounds) < count:
        seed += 1
        round_id = f"r{len(rounds):03d}"
        shoe = [str(c) for c in seeded_shoe(f"recovery-test/{seed}", 6)][:20]
        deal = blackjack_deal(round_id, " ".join(shoe))
        dealt = play_round(profile, deal, []).round
        takes = STAND in dealt.expected_state.legal_decisions
        if not takes and dealt.expected_state.phase != round_pb2.ROUND_PHASE_COMPLETE:
            continue  # insurance offered first: not this test's business
        stood = play_round(profile, deal, [round_pb2.Decision(kind=STAND)] if takes else [])
        rounds[round_id] = (shoe, takes, stood.round.expected_settle)
    return rounds


def _paid(settled: engine_service_pb2.SettleResponse) -> list[tuple[int, str, int, int]]:
    """Each line's seat, bet, stake and return (the oracle's exact figures and clauses aside)."""
    return [
        (line.seat, line.bet, line.stake.minor_units, line.returned.minor_units)
        for line in settled.settlement.lines
    ]


def _refusal(client: CroupierClient, round_id: str) -> str:
    """A stand sent again after the restart: "" when taken now, else the refusal's reason."""
    try:
        client.decide(round_id, STAND)
    except CroupierError as exc:
        return exc.reason
    return ""


def _killed_in_flight(
    args: list[object], tmp_path: Path, rounds: dict[str, Any], playing: set[str]
) -> dict[str, str]:
    """What each stand got when the engine was killed with them in flight.

    Every round dealt, the stands sent 16 at a time, SIGKILL after the first answer: each
    stand's "answered", its refusal's reason, or "lost".
    """
    engine = run_engine(args, tmp_path / "stderr")
    address = engine.address  # type: ignore[attr-defined]

    def stand(round_id: str) -> str:
        with CroupierClient.connect(address, timeout=30) as own:
            try:
                own.decide(round_id, STAND)
            except CroupierError as exc:
                return exc.reason or "lost"
        return "answered"

    try:
        with CroupierClient.connect(address, timeout=30) as client:
            for round_id, (shoe, _, _) in rounds.items():
                client.deal(blackjack_deal(round_id, " ".join(shoe)))
        with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
            answers = {r: pool.submit(stand, r) for r in sorted(playing)}
            # Killed as soon as the first answers are in: the rest are on their way or queued.
            next(concurrent.futures.as_completed(answers.values())).result()
            engine.send_signal(signal.SIGKILL)
            engine.wait(30)
            outcome = {r: future.result() for r, future in answers.items()}
    finally:
        # Never left behind, whatever failed first.
        if engine.poll() is None:
            engine.kill()
            engine.wait(30)
    return outcome


def test_sigkill_with_100_rounds_in_flight(tmp_path: Path) -> None:
    """Killed while 100 stands are on their way: each round resumes or refuses, once paid."""
    state, log = tmp_path / "state", tmp_path / "rounds.jsonl"
    args: list[object] = ["--state-dir", state, "--audit-log", log]
    rounds = _rounds(100)
    playing = {round_id for round_id, (_, takes, _) in rounds.items() if takes}
    outcome = _killed_in_flight(args, tmp_path, rounds, playing)
    assert "answered" in outcome.values()
    assert set(outcome.values()) - {"answered"}, "the kill came after every answer"
    again = run_engine(args, tmp_path / "stderr-again")
    try:
        with CroupierClient.connect(again.address, timeout=30) as client:  # type: ignore[attr-defined]
            for round_id, (_, takes, expected) in rounds.items():
                if takes:
                    # Resumed: a stand never answered is taken now, or refused, clearly,
                    # because the engine took it before the kill; an answered one is refused.
                    refusal = _refusal(client, round_id)
                    assert refusal in ("", "ILLEGAL_DECISION"), (round_id, refusal)
                    if outcome[round_id] == "answered":
                        assert refusal == "ILLEGAL_DECISION", round_id
                settled = client.settle(round_id)
                assert _paid(settled) == _paid(expected), round_id
                with pytest.raises(CroupierError) as twice:
                    client.settle(round_id)
                assert twice.value.reason == "ROUND_NOT_FOUND"
    finally:
        again.send_signal(signal.SIGTERM)
        assert again.wait(30) == 0
    # The audit log: one record per round (the interrupted ones too), and it verifies clean.
    records = [e.record.round_id for e in read_log(log) if e.record is not None]
    assert sorted(records) == sorted(rounds)
    summary = audit_log(log, workers=1)
    assert summary.clean, summary.first
    assert summary.records == len(rounds)
