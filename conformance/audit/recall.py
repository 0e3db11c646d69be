"""Last-game recall: a table's last rounds read back from a log, in constant memory.

``croupier audit recall`` shows them as ``conformance.recall`` writes a record for a person.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

from croupier.clients.audit import read_log
from croupier.v1 import round_pb2


def recall(
    path: Path,
    table_id: str,
    last: int,
    log_format: str | None = None,
    *,
    round_id: str = "",
) -> list[round_pb2.RoundRecord]:
    """The last ``last`` rounds of a table (or of that id), oldest first, in constant memory.

    ``round_id`` keeps only the records of that round (of ``table_id`` too, when given).
    """
    kept: deque[round_pb2.RoundRecord] = deque(maxlen=last)
    for entry in read_log(path, log_format):
        record = entry.record
        if record is None or (table_id and record.table_id != table_id):
            continue
        if round_id and record.round_id != round_id:
            continue
        kept.append(record)
    return list(kept)
