"""Self-contained HTML reports: a certification run's certificate and an audit's report.

Every page is one file with its style inline and no script: readable offline, printable,
and the same bytes whoever opens it.
"""
