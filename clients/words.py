"""Counts in English, for every message Croupier prints: "1 record", "2 records".

Here, at the bottom of the layers, so that the suite's reports and the demo engine's errors
share one helper.
"""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, with an s unless there is one: "1 vector", "2 vectors".

    ``many`` is the plural when an s does not make it ("discrepancy", "discrepancies").
    """
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {many or noun + 's'}"
