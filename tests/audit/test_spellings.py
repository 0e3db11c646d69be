"""A JSON line that says two things is refused: a field under both of its names.

protobuf's JSON parser takes ``roundId`` and ``round_id`` alike, and the last one read
wins. Decoys under the other name, placed before the genuine keys, leave the record and
its hash as the engine wrote them, so a signed log still verified sealed and clean while
``jq`` read another round id and another payout.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from croupier.clients import adapter
from croupier.clients.demo_engine import DemoEngine
from tests.audit.engines import settle
from tests.audit.support import invoke, read_lines, verify, write_lines


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[bytes]]:
    """A signed log of three baccarat rounds by the demo engine: the public key, the lines."""
    directory = tmp_path_factory.mktemp("spellings")
    assert invoke("audit", "keygen", directory / "operator").exit_code == 0
    log = directory / "rounds.jsonl"
    served = adapter.serve(
        DemoEngine(), port=0, audit_log=log, audit_key=directory / "operator.key"
    )
    try:
        settle(f"127.0.0.1:{served.port}", ["r1", "r2", "r3"])
    finally:
        served.stop(grace=0)
    return directory / "operator.pub", read_lines(log)


def _decoyed(line: bytes, decoys: dict[str, object], where: list[str]) -> bytes:
    """The line with ``decoys`` put first in the object at ``where`` (keys from the top)."""
    value = json.loads(line)
    target = value
    for key in where:
        target = target[key]
    rebuilt = {**decoys, **target}
    if where:
        parent = value
        for key in where[:-1]:
            parent = parent[key]
        parent[where[-1]] = rebuilt
    else:
        value = rebuilt
    return json.dumps(value, separators=(",", ":")).encode() + b"\n"


@pytest.mark.parametrize(
    ("decoys", "where", "named"),
    [
        ({"round_id": "r9"}, [], "the field round_id appears twice, as 'round_id' and 'roundId'"),
        (
            {"total_returned": {"currencyCode": "EUR", "minorUnits": "1000000"}},
            ["settlement"],
            (
                "the field settlement.total_returned appears twice, as 'total_returned' and "
                "'totalReturned'"
            ),
        ),
    ],
)
def test_a_field_under_two_names_is_malformed(
    signed: tuple[Path, list[bytes]],
    decoys: dict[str, object],
    where: list[str],
    named: str,
    tmp_path: Path,
) -> None:
    public, lines = signed
    assert json.loads(lines[1])["roundId"] == "r2"
    tampered = write_lines(
        tmp_path / "rounds.jsonl", [lines[0], _decoyed(lines[1], decoys, where), *lines[2:]]
    )
    result, report = verify(tampered, tmp_path / "report.json", "--public-key", public)
    assert result.exit_code == 1, result.output
    (malformed,) = report["malformed"]
    assert malformed["record"] == 2
    assert malformed["reason"] == f"not a RoundRecord: {named}"
    assert not report["signing"]["statement"].startswith("sealed")


def test_a_checkpoint_under_two_names_is_malformed(
    signed: tuple[Path, list[bytes]], tmp_path: Path
) -> None:
    public, lines = signed
    closing = json.loads(lines[-1])
    assert closing["checkpoint"]["closing"] is True
    line = _decoyed(lines[-1], {"chain_head_sha256": "AAAA"}, ["checkpoint"])
    tampered = write_lines(tmp_path / "rounds.jsonl", [*lines[:-1], line])
    result, report = verify(tampered, tmp_path / "report.json", "--public-key", public)
    assert result.exit_code == 1, result.output
    (malformed,) = report["malformed"]
    assert "the field checkpoint.chain_head_sha256 appears twice" in malformed["reason"]
