"""Benchmarks (``make bench``): measured, never asserted in tests."""
