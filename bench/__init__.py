"""Benchmarks (``make bench``) and sampled mutation testing (``make mutation``): never asserted in tests."""
