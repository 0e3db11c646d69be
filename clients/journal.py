"""The adapter kit's journal: what an engine needs to recover its rounds after a restart.

CONTRACT.recovery. The kit writes, before it answers, every Deal it accepted, every decision
it applied and every round it settled, in one SQLite database in WAL mode whose every commit
is flushed to disk (``synchronous=FULL``): a crash, SIGKILL included, loses no answered call.
At start the kit replays the journal through the vendor's engine (its deals and decisions are
functions of the forced outcome and the table's board, so the replay rebuilds each open round
and each table as it was). A settled card-game round leaves only its id (still refused); a
settled roulette round stays, since its table's board and imprisoned bets are made of it:
the journal grows with the spins. An open round that expires (``--round-ttl``) is journaled
as closed, like a settled one: it stays gone after a restart.

A file that is not such a journal (damaged, of another format or of another engine) is
refused at start with ``JournalError`` naming it, and never written to.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: The journal's name inside the state directory.
FILE_NAME = "journal.sqlite3"
#: What the journal's ``meta`` table says it is.
FORMAT = "croupier-adapter-kit-journal"
VERSION = "1"
#: The used round ids kept once their rounds are gone from the journal (the book's own bound).
REMEMBER_USED = 100_000
_SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    (
        "CREATE TABLE events (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, "
        "round_id TEXT NOT NULL, payload BLOB NOT NULL)"
    ),
    "CREATE INDEX events_round ON events (round_id)",
    "CREATE TABLE used (seq INTEGER PRIMARY KEY, round_id TEXT NOT NULL)",
)
#: The kinds of event, in the order a round has them.
DEAL, DECIDE, SETTLE = "deal", "decide", "settle"


class JournalError(Exception):
    """A state directory or journal the kit cannot use; the message names the file."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """One journaled call: a Deal (its request's bytes), a decision (its bytes), a Settle."""

    kind: str
    round_id: str
    payload: bytes


class Journal:
    """One engine's journal in ``state_dir``; created empty the first time.

    Not thread-safe: the kit calls it under its own lock, one call at a time.
    """

    def __init__(self, state_dir: Path, engine: str) -> None:
        self.path = state_dir / FILE_NAME
        if state_dir.exists() and not state_dir.is_dir():
            raise JournalError(f"--state-dir {state_dir} is not a directory")
        try:
            state_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot make the state directory {state_dir}: {exc}") from None
        fresh = not self.path.exists()
        if not fresh:
            self._check_header()
        try:
            # mode=rw never creates a file: an existing one is only read until it checks out.
            uri = f"{self.path.resolve().as_uri()}?mode={'rwc' if fresh else 'rw'}"
            # The kit calls from its server's threads, one at a time (its lock).
            self._db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open the journal {self.path}: {exc}") from None
        try:
            if fresh:
                self._create(engine)
            else:
                self._check(engine)
            self._db.execute("PRAGMA journal_mode=WAL")
            # Every commit reaches the disk before the kit answers (the audit log's rule).
            self._db.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as exc:
            self._db.close()
            raise JournalError(
                f"the journal {self.path} is damaged ({exc}): refused, left as it is; "
                "move it away or give another --state-dir"
            ) from None
        except JournalError:
            self._db.close()
            raise

    def _check_header(self) -> None:
        try:
            with self.path.open("rb") as handle:
                head = handle.read(len(_SQLITE_MAGIC))
        except OSError as exc:
            raise JournalError(f"cannot read the journal {self.path}: {exc}") from None
        if head != _SQLITE_MAGIC:
            raise JournalError(
                f"{self.path} is not an adapter-kit journal (not an SQLite database): refused, "
                "left as it is; move it away or give another --state-dir"
            )

    def _create(self, engine: str) -> None:
        with self._db:
            self._db.execute("BEGIN")
            for statement in _SCHEMA:
                self._db.execute(statement)
            self._db.executemany(
                "INSERT INTO meta VALUES (?, ?)",
                (("format", FORMAT), ("version", VERSION), ("engine", engine)),
            )

    def _check(self, engine: str) -> None:
        problem = self._db.execute("PRAGMA quick_check").fetchone()[0]
        if problem != "ok":
            raise sqlite3.DatabaseError(problem)
        try:
            meta = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.Error:
            meta = {}
        if meta.get("format") != FORMAT or meta.get("version") != VERSION:
            raise JournalError(
                f"{self.path} is not an adapter-kit journal of format {VERSION} (it says "
                f"{meta.get('format', 'nothing')!r} {meta.get('version', '')!r}): refused, "
                "left as it is; move it away or give another --state-dir"
            )
        if meta.get("engine") != engine:
            raise JournalError(
                f"{self.path} is the journal of engine {meta.get('engine')!r}, not {engine!r}: "
                "refused, left as it is; give each engine its own --state-dir"
            )

    def events(self) -> Iterator[Event]:
        """Every journaled call, oldest first (read at once: a replay may write meanwhile)."""
        try:
            query = "SELECT kind, round_id, payload FROM events ORDER BY seq"
            for kind, round_id, payload in self._db.execute(query).fetchall():
                if kind not in (DEAL, DECIDE, SETTLE) or not isinstance(payload, bytes):
                    raise JournalError(f"the journal {self.path} holds an event {kind!r}")
                yield Event(kind=kind, round_id=round_id, payload=payload)
        except sqlite3.Error as exc:
            raise JournalError(f"the journal {self.path} is damaged ({exc})") from None

    def used(self) -> list[str]:
        """The ids of settled rounds whose events are gone, oldest first."""
        return [row[0] for row in self._db.execute("SELECT round_id FROM used ORDER BY seq")]

    def append(self, event: Event) -> None:
        """Write one event; on disk when this returns."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT INTO events (kind, round_id, payload) VALUES (?, ?, ?)",
                (event.kind, event.round_id, event.payload),
            )

    def settle(self, round_id: str, *, keep: bool) -> None:
        """Journal a round settled: its events stay (``keep``: a roulette spin), or its id only."""
        if keep:
            self.append(Event(kind=SETTLE, round_id=round_id, payload=b""))
            return
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM events WHERE round_id = ?", (round_id,))
            self._db.execute("INSERT INTO used (round_id) VALUES (?)", (round_id,))
            self._db.execute(
                "DELETE FROM used WHERE seq <= (SELECT MAX(seq) FROM used) - ?", (REMEMBER_USED,)
            )

    def close(self) -> None:
        """Close the database (what it holds is on disk already)."""
        self._db.close()
