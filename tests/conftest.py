"""Test configuration: Hypothesis profiles, chosen by HYPOTHESIS_PROFILE (default ``ci``)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

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
