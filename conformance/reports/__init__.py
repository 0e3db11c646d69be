"""A run's and an audit's reports: what the suite found, written for people and for CI.

``summary`` words a run's verdict (the console's lines), ``jsonl`` and ``junit`` write a
run's report files, and ``html`` makes the self-contained pages: a run's certificate and an
audit's report. The reports read results; they run nothing (import-linter contracts).
"""
