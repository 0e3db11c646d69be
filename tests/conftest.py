"""Test configuration: Hypothesis profiles, chosen by HYPOTHESIS_PROFILE (default ``ci``).

And a guard: the code is imported as ``croupier.oracle``, ``croupier.clients`` and
``croupier.conformance`` only. The repository's root is on ``sys.path`` under pytest, where
``oracle`` would import a second copy of the package (two of every enum, which compare
unequal); ruff bans such imports (TID251), and the session fails if one happened anyway.
"""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import HealthCheck, settings

#: The repository's folders, which are packages only under the installed name ``croupier``.
BARE = frozenset({"oracle", "clients", "conformance"})

settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("dev", max_examples=30, deadline=None)
# `make mutation` (bench/mutation.py): few examples, the same ones every run, no example database.
settings.register_profile(
    "mutation", max_examples=20, deadline=None, derandomize=True, database=None
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# `make fuzz`: over 100,000 bad, out-of-order and concurrent requests through
# tests/service/test_fuzz.py (about 7.5 calls an example, two targets), random each run, no
# example database kept.
settings.register_profile(
    "fuzz",
    max_examples=7_500,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Fail the run if any module was imported under a bare folder name (``oracle.money``)."""
    bare = sorted(name for name in sys.modules if name.partition(".")[0] in BARE)
    if bare:
        sys.stderr.write(f"imported under a bare name, not croupier.*: {', '.join(bare)}\n")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
