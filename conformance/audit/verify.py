"""``croupier audit verify``: a whole log checked, its summary, its JSON report."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from croupier import oracle
from croupier.clients.audit import detect_format, key_id, read_log
from croupier.clients.words import plural
from croupier.conformance.audit.boards import table_rules
from croupier.conformance.audit.executor import Executor
from croupier.conformance.audit.fairness import BAND, P_THRESHOLD, Assessment, Tally, assess
from croupier.conformance.audit.problem import SEAL_KINDS
from croupier.conformance.audit.replay import (
    RecordResult,
    ShardResult,
    Totals,
    basic_strategy,
    load_profile,
)
from croupier.conformance.audit.spools import Spools
from croupier.conformance.audit.stream import LogChecks, Reread, shards
from croupier.oracle.basic_strategy import rules_of, shipped_per_unit_staked
from croupier.oracle.clauses import Game
from croupier.oracle.errors import OracleError

SHARD_SIZE = 2000


#: What a log proves about re-chaining and truncation, by what the audit could check.
UNSIGNED = (
    "unsigned: the log holds no signed checkpoint. Its hash chain shows a record changed, "
    "removed or reordered without re-chaining, but anyone can re-chain edited records or cut "
    "records off the end of the log: re-chaining and truncation cannot be detected without a key."
)
NOT_CHECKED = (
    "not checked: the log holds {checkpoints}, but no public key was "
    "given (--public-key): re-chaining and truncation cannot be detected without a key."
)
CHECKED = "checked: {checkpoints}, {valid} valid under {keys}."
SEALED = (
    "sealed: every record is sealed by a checkpoint signed with {keys}, and the log "
    "ends with its closing checkpoint: no record was changed, added, removed, re-chained or "
    "cut off the end since it was signed."
)
RESTARTS = (
    "restarts: the log's writer restarted {count} on it, each after a closing checkpoint: {where}."
)
LEGACY = (
    "legacy: {count} no sequence number or no time (an older writer): their "
    "order and completeness rest on the hash chain alone."
)


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditSummary:
    """What the console shows; the full detail is in the report."""

    verdict: str
    records: int
    totals: Totals
    kinds: dict[str, int]
    counts: dict[str, int]
    statements: tuple[str, ...]
    first: dict[str, tuple[str, ...]]
    report: dict[str, Any]
    #: Returns and fairness: statistics that flag, never findings (the verdict is the rules').
    statistics: Assessment | None = None

    @property
    def clean(self) -> bool:
        """Records were verified, and nothing was found."""
        return self.verdict == "clean"

    @property
    def discrepancies(self) -> int:
        """Discrepancies of every kind: rules, totals, mixed currency."""
        return self.counts["discrepancies"]

    @property
    def malformed(self) -> int:
        """Entries that are neither a record nor a checkpoint."""
        return self.counts["malformed"]

    @property
    def chain_problems(self) -> int:
        """Broken, missing or reordered links of the hash chain."""
        return self.counts["chain"]


def _statements(checks: LogChecks, key_ids: Sequence[str]) -> tuple[str, ...]:
    seals, order = checks.seals, checks.order
    keys = f"{'key' if len(key_ids) == 1 else 'keys'} {', '.join(key_ids)}"
    if key_ids:
        # Sealed means every record is as written: no entry unreadable, no link or order off.
        spools = checks.spools
        problems = any(kind in spools.kinds for kind in SEAL_KINDS) or bool(
            spools.chain.count or spools.log.count or spools.malformed.count
        )
        signing = (
            CHECKED.format(
                checkpoints=plural(seals.checkpoints, "checkpoint"), valid=seals.valid, keys=keys
            )
            if problems
            else SEALED.format(keys=keys)
        )
    elif seals.checkpoints:
        signing = NOT_CHECKED.format(checkpoints=plural(seals.checkpoints, "signed checkpoint"))
    else:
        signing = UNSIGNED
    legacy = max(order.unnumbered, order.untimed)
    restarts: tuple[str, ...] = ()
    if seals.restart_count:
        where = ", ".join(
            f"after sequence {r['after_sequence']} (record {r['record']})"
            for r in seals.restarts[:5]
        ) + (", ..." if seals.restart_count > 5 else "")
        restarts = (RESTARTS.format(count=plural(seals.restart_count, "time"), where=where),)
    carry = "carries" if legacy == 1 else "carry"
    legacies = (LEGACY.format(count=f"{plural(legacy, 'record')} {carry}"),) if legacy else ()
    return (signing, *restarts, *legacies)


def _record_number(item: RecordResult | dict[str, Any]) -> int:
    return int(item["record"]) if isinstance(item, dict) else item.record


def audit_log(
    path: Path,
    *,
    workers: int | None = None,
    dask_address: str | None = None,
    shard_size: int = SHARD_SIZE,
    lab_files: Sequence[str] = (),
    log_format: str | None = None,
    public_keys: Sequence[Ed25519PublicKey] = (),
    report_path: Path | None = None,
    progress: Callable[[int], None] | None = None,
    keep_first: int = 20,
    band: float = BAND,
    p_threshold: float = P_THRESHOLD,
    options: Mapping[str, Any] | None = None,
) -> AuditSummary:
    """Verify a whole log; write the JSON report if asked; return the summary.

    The report names the log (file name, size, SHA-256), Croupier's version and the
    ``options`` the audit ran with: what a regulator files says which log was checked, by
    which tool, how.

    ``public_keys`` check the signed checkpoints; without them the log's signatures are not
    checked, and the summary says what that leaves unproven. A return whose z-score is
    beyond ``band``, or a fairness test whose p-value is under ``p_threshold``, is flagged.
    """
    fmt = log_format or detect_format(path)
    workers = workers or os.cpu_count() or 1
    keys = {key_id(key): key for key in public_keys}
    spools = Spools(keep_first)
    again = Reread(path, fmt)
    checks = LogChecks(keys, spools, again)
    # The log's digest for the report, read beside the audit (hashlib lets go of the GIL).
    digester = ThreadPoolExecutor(max_workers=1)
    digest = digester.submit(file_digest, path)
    executor = Executor(workers, dask_address)
    merge = _Merge(spools, executor, lab_files, progress)
    pending: deque[Any] = deque()
    try:
        cut = shards(
            read_log(path, fmt),
            shard_size=shard_size,
            checks=checks,
            table_rules=table_rules(lab_files),
        )
        for shard, unreadable in cut:
            pending.append((executor.submit(shard, lab_files), unreadable))
            while len(pending) >= executor.in_flight:
                merge.collect(*pending.popleft())
        while pending:
            merge.collect(*pending.popleft())
        analysed = merge.strategies()
    except BaseException:
        spools.close()
        raise
    finally:
        executor.close()
        again.close()
        digester.shutdown()

    totals = merge.totals
    summary = _summarize(path.name, fmt, checks, totals, sorted(k.hex()[:16] for k in keys))
    summary.report.update(
        log_path=str(path),
        log_size=path.stat().st_size,
        log_sha256=digest.result(),
        croupier_version=oracle.__version__,
        options=dict(options or {}),
    )
    statistics = assess(
        merge.tally,
        lambda profile_id: load_profile(profile_id, lab_files),
        band=band,
        p_threshold=p_threshold,
        strategies=analysed,
    )
    summary.report.update(statistics.as_json())
    summary = dataclasses.replace(summary, statistics=statistics)
    if report_path is not None:
        _write_report(report_path, summary.report, spools)
    else:
        spools.close()
    return summary


class _Merge:
    """Shard results merged in log order; each blackjack profile's strategy asked for once."""

    def __init__(
        self,
        spools: Spools,
        executor: Executor,
        lab_files: Sequence[str],
        progress: Callable[[int], None] | None,
    ) -> None:
        self.spools = spools
        self.executor = executor
        self.lab_files = tuple(lab_files)
        self.progress = progress
        self.totals = Totals()
        self.tally = Tally()
        #: Each blackjack profile's return under basic strategy, computed beside the shards.
        self.asked: dict[str, Any] = {}

    def collect(self, future: Any, unreadable: list[dict[str, Any]]) -> None:
        """Merge a shard's result, with the entries before its end that could not be read."""
        done: ShardResult = future.result()
        for profile_id in done.totals.by_profile:
            if profile_id in self.asked or not _blackjack(profile_id, self.lab_files):
                continue
            shipped = _shipped_figure(profile_id, self.lab_files)
            if shipped is None:
                self.asked[profile_id] = self.executor.aside(
                    basic_strategy, profile_id, self.lab_files
                )
            else:
                # No process started for a figure the oracle ships (``per_unit_staked``).
                known: Future[Fraction | None] = Future()
                known.set_result(shipped)
                self.asked[profile_id] = known
        self.totals.merge(done.totals)
        self.tally.merge(done.tally)
        # Both lists are in log order; merged, the report lists everything in log order.
        merged: list[RecordResult | dict[str, Any]] = [*done.notable, *unreadable]
        merged.sort(key=_record_number)
        for result in merged:
            if isinstance(result, dict):
                self.spools.unreadable(result)
                continue
            for finding in result.findings:
                self.spools.finding(finding)
            if result.unreplayable:
                self.spools.unreplayable_record(result)
        if self.progress is not None:
            self.progress(done.checked + len(unreadable))

    def strategies(self) -> dict[str, Fraction | None]:
        """The strategies asked for, once each is computed."""
        return {profile_id: future.result() for profile_id, future in self.asked.items()}


def _shipped_figure(profile_id: str, lab_files: Sequence[str]) -> Fraction | None:
    """A blackjack profile's basic-strategy figure if the oracle ships it (``FIGURES_FILE``)."""
    try:
        return shipped_per_unit_staked(rules_of(load_profile(profile_id, lab_files)))
    except OracleError:
        return None


def _blackjack(profile_id: str, lab_files: Sequence[str]) -> bool:
    """Whether a profile id names a blackjack profile of the run."""
    try:
        return load_profile(profile_id, lab_files).game is Game.BLACKJACK
    except OracleError:
        return False


def _summarize(
    name: str, fmt: str, checks: LogChecks, totals: Totals, key_ids: list[str]
) -> AuditSummary:
    """The verdict, the statements and the report's head, once every shard is in."""
    spools = checks.spools
    counts = {
        "discrepancies": spools.discrepancies.count,
        "malformed": spools.malformed.count,
        "unreplayable": spools.unreplayable.count,
        "chain": spools.chain.count,
        "log": spools.log.count,
    }
    if not checks.entries:
        verdict = "empty"
    elif not checks.recognised:
        verdict = "not an audit log"
    elif any(counts.values()):
        verdict = "not clean"
    elif checks.records == counts["malformed"]:
        verdict = "empty"  # checkpoints, and not one round
    else:
        verdict = "clean"
    statements = _statements(checks, key_ids)
    money = {currency: dict(values) for currency, values in sorted(totals.by_currency.items())}
    report: dict[str, Any] = {
        "log": name,
        "format": fmt,
        "verdict": verdict,
        "clean": verdict == "clean",
        "records": checks.records,
        "checkpoints": checks.seals.checkpoints,
        "rounds": totals.rounds,
        "totals": money,
        "profiles": dict(sorted(totals.by_profile.items())),
        "counts": counts,
        "findings": dict(sorted(spools.kinds.items())),
        "signing": {
            "public_keys": key_ids,
            "checkpoints": checks.seals.checkpoints,
            "valid_checkpoints": checks.seals.valid if key_ids else None,
            "statement": statements[0],
        },
        "statements": list(statements),
        "restarts": {"count": checks.seals.restart_count, "listed": checks.seals.restarts},
    }
    return AuditSummary(
        verdict=verdict,
        records=checks.records,
        totals=totals,
        kinds=dict(sorted(spools.kinds.items())),
        counts=counts,
        statements=statements,
        first={key: tuple(spool.first) for key, spool in spools.lists()},
        report=report,
    )


def _write_report(path: Path, head: dict[str, Any], spools: Spools) -> None:
    """One JSON document, streamed so that memory stays constant however many findings."""
    with path.open("w", encoding="utf-8") as out:
        body = json.dumps(head, sort_keys=True, indent=1)
        out.write(body[: body.rindex("}")].rstrip())
        for key, spool in spools.lists():
            out.write(f',\n "{key}": [\n')
            for index, line in enumerate(spool.drain()):
                out.write(("  " if index == 0 else ",\n  ") + line)
            out.write("\n ]")
        out.write("\n}\n")


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex, read in constant memory."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
