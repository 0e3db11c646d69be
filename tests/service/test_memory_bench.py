"""make memory's rule and reading, briefly (the long runs are make memory's own)."""

from __future__ import annotations

import os

from bench.memory import Trace, rss_mib
from bench.soak import RSS_GROWTH_MIB, RSS_GROWTH_SHARE


def _trace(client: tuple[float, ...]) -> Trace:
    return Trace(name="explore", client=client, server=(80.0, 90.0), seconds=600.0)


def test_a_client_is_flat_within_the_soaks_allowance_and_grows_past_it() -> None:
    # The soak's rule: at most 20 MiB above the warm-up figure, or 10% of it if that is more.
    assert (RSS_GROWTH_MIB, RSS_GROWTH_SHARE) == (20.0, 0.10)
    assert _trace((100.0, 140.0, 120.0)).flat  # +20 MiB: the allowance itself
    assert not _trace((100.0, 120.5)).flat
    assert _trace((300.0, 330.0)).flat  # 10% of 300 is more than 20 MiB
    assert not _trace((300.0, 330.5)).flat
    assert _trace((120.0, 90.0)).flat  # shrinking is flat
    assert "GROWS" in _trace((100.0, 200.0)).line()
    assert "+100.0" in _trace((100.0, 200.0)).line()


def test_a_client_that_ended_before_its_warm_up_has_no_figure() -> None:
    assert not _trace((100.0,)).flat
    assert "no figure" in _trace(()).line()


def test_the_rss_is_read_from_proc_and_none_once_gone() -> None:
    mine = rss_mib(os.getpid())
    assert mine is not None
    assert mine > 1
    assert rss_mib(2**22 + 12345) is None  # above Linux's largest pid
