"""make soak's machinery, briefly: a real ``croupier serve`` under a little load, then SIGTERM."""

from __future__ import annotations

from bench.soak import soak


def test_a_short_soak_settles_rounds_and_loses_no_call_at_shutdown() -> None:
    # Two seconds at eight rounds in flight: the figures come out, and what must hold at any
    # scale holds here (no timing is asserted: make soak judges the speeds).
    figures = soak(2, concurrency=8, warmup=0.5, rounds_per_profile=10)
    tally = figures.tally
    assert tally.rounds > 0
    assert tally.latencies
    assert not tally.errors, tally.first_errors
    # Every worker always has a call in flight: all eight were in flight at the signal.
    assert tally.in_flight_at_signal == 8
    assert tally.lost == 0, tally.first_errors
    assert tally.finished_after_signal == 8
    assert figures.exit_code == 0
    assert figures.health_ms
    assert figures.health_failed == 0
    assert figures.rss_start is not None
    assert figures.rss_end is not None
    assert "rounds/s" in figures.report()
