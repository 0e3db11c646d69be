"""Tests of the conformance suite: corpus, coverage, runner."""
