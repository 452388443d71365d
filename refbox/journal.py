"""The journal: every accepted event, appended to SQLite (WAL) before anyone is told.

One row per game (its header) and one row per accepted event, in order. ``undo``
rows are kept like any other event (the audit trail); the state is rebuilt by
replaying the rows through a :class:`rules.Session`. Each event row carries a
CRC-32 of its JSON so a damaged row is detected and reported, never half-applied.

>>> j = Journal(":memory:")
>>> gid = j.new_game({"game": "pig", "players": ["Ann", "Bob"], "options": {}})
>>> j.append(gid, {"type": "roll", "dice": [4]})
1
>>> [e["type"] for e in j.events(gid)]
['roll']
"""

from __future__ import annotations

import functools
import json
import logging
import sqlite3
import threading
import time
import zlib
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, TypeVar

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    header TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    events INTEGER NOT NULL,
    final_view TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    crc INTEGER NOT NULL,
    written REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS damaged (
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    body BLOB,
    crc INTEGER,
    written REAL,
    cut REAL NOT NULL
);
"""


_F = TypeVar("_F", bound=Callable[..., Any])


def _locked(method: _F) -> _F:
    """Run ``method`` holding the journal's lock: the table's loop writes while the web
    page's threads read, and one ``sqlite3`` connection must not be used (or closed)
    by two threads at once (it crashed the process when the page read during a close)."""

    @functools.wraps(method)
    def run(self: Journal, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return run  # type: ignore[return-value]


class JournalError(RuntimeError):
    """The journal file cannot be used (damaged, unreadable)."""


class Journal:
    """SQLite journal. ``path`` may be ``":memory:"`` for tests of pure logic."""

    def __init__(self, path: str | Path, *, synchronous: str = "FULL") -> None:
        if synchronous not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, got {synchronous!r}")
        self.path = str(path)
        self._lock = threading.RLock()
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={synchronous}")
            self._db.executescript(SCHEMA)
            self._db.execute("SELECT COUNT(*) FROM games").fetchone()
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"cannot open journal {self.path}: {exc}") from exc
        #: damaged rows found by :meth:`events` (game, seq, why), for the report
        self.damage: list[dict[str, Any]] = []

    @_locked
    def close(self) -> None:
        self._db.close()

    @_locked
    def new_game(self, header: Mapping[str, Any]) -> int:
        cur = self._db.execute(
            "INSERT INTO games (header, created) VALUES (?, ?)",
            (json.dumps(dict(header), ensure_ascii=False, sort_keys=True), time.time()),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    @_locked
    def latest_game(self) -> tuple[int, dict[str, Any]] | None:
        row = self._db.execute("SELECT id, header FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else (row[0], json.loads(row[1]))

    @_locked
    def append(self, game_id: int, event: Mapping[str, Any]) -> int:
        """Append one event durably (committed before this returns); returns its sequence number."""
        body = json.dumps(dict(event), ensure_ascii=False, sort_keys=True)
        with self._db:  # BEGIN ... COMMIT, one transaction
            row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)).fetchone()
            seq = int(row[0]) + 1
            self._db.execute(
                "INSERT INTO events (game_id, seq, body, crc, written) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, body, zlib.crc32(body.encode()), time.time()),
            )
        return seq

    def events(self, game_id: int) -> Iterator[dict[str, Any]]:
        """The game's events in order; a row whose CRC does not match (or whose text
        is not JSON) is reported in :attr:`damage` and ends the replay there: the
        damaged tail is never applied. :meth:`cut` then removes it."""
        try:
            with self._lock:  # (a generator: the lock is held for the read, not between the yields)
                rows = self._db.execute(
                    "SELECT seq, CAST(body AS BLOB), crc FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"journal {self.path}: cannot read the events of game {game_id}: {exc}") from exc
        expected = 1
        for seq, body, crc in rows:
            why = None
            if seq != expected:
                why = f"event {expected} is missing (next is {seq})"
            elif not isinstance(body, bytes) or zlib.crc32(body) != crc:
                why = "CRC mismatch"
            else:
                try:
                    data = json.loads(body.decode("utf-8"))
                except ValueError:  # UnicodeDecodeError too
                    why = "not JSON"
                else:
                    if not isinstance(data, dict):
                        why = "not a JSON object"
            if why is not None:
                self._report(game_id, seq, why, len(rows) - expected + 1)
                return
            expected += 1
            yield data

    def _report(self, game_id: int, seq: int, why: str, tail: int) -> None:
        log.error("journal %s: event %d of game %d is damaged (%s); replay stops before it, %d row(s) not applied",
                  self.path, seq, game_id, why, tail)
        self.damage.append({"game": game_id, "seq": seq, "reason": why, "rows": tail})

    @_locked
    def cut(self, game_id: int, from_seq: int) -> int:
        """Move the rows from ``from_seq`` on out of the game (into the ``damaged``
        table, kept for inspection), so new events follow the valid prefix. Returns
        how many rows were cut."""
        with self._db:
            self._db.execute(
                "INSERT INTO damaged (game_id, seq, body, crc, written, cut) "
                "SELECT game_id, seq, body, crc, written, ? FROM events WHERE game_id = ? AND seq >= ?",
                (time.time(), game_id, from_seq),
            )
            n = self._db.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?", (game_id, from_seq)).rowcount
        log.error("journal %s: cut %d damaged row(s) of game %d from event %d on (kept in table 'damaged')",
                  self.path, n, game_id, from_seq)
        return int(n)

    @_locked
    def rows(self, game_id: int, after: int = 0) -> list[tuple[int, float, dict[str, Any]]]:
        """``(seq, written, event)`` of the game's events with ``seq > after``, in order
        (the web page's history); stops before a damaged row like :meth:`events`.

        >>> j = Journal(":memory:")
        >>> gid = j.new_game({"game": "pig", "players": ["Ann", "Bob"], "options": {}})
        >>> _ = j.append(gid, {"type": "roll", "dice": [4]}); _ = j.append(gid, {"type": "stop"})
        >>> [(seq, e["type"]) for seq, _, e in j.rows(gid, after=1)]
        [(2, 'stop')]
        """
        found = self._db.execute(
            "SELECT seq, written, body, crc FROM events WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, after)
        ).fetchall()
        out: list[tuple[int, float, dict[str, Any]]] = []
        for seq, written, body, crc in found:
            if zlib.crc32(body.encode()) != crc:
                log.error("journal %s: event %d of game %d is damaged (CRC mismatch)", self.path, seq, game_id)
                break
            out.append((int(seq), float(written), json.loads(body)))
        return out

    @_locked
    def games(self) -> list[tuple[int, dict[str, Any]]]:
        return [(gid, json.loads(h)) for gid, h in self._db.execute("SELECT id, header FROM games ORDER BY id")]

    @_locked
    def result(self, game_id: int) -> dict[str, Any] | None:
        """The final view kept for a compacted game."""
        row = self._db.execute("SELECT final_view FROM results WHERE game_id = ?", (game_id,)).fetchone()
        return None if row is None else json.loads(row[0])

    @_locked
    def compact(self, keep_games: int, summarise: Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]],
                limit: int | None = 25) -> int:
        """Bound the journal's growth: games older than the newest ``keep_games`` keep their
        header and final view (``summarise(header, events)``) but lose their event rows.
        At most ``limit`` games per call (each in its own transaction), so a backlog is
        worked off over several new games without stalling the table's loop.
        Returns how many games were compacted. The current game is never touched."""
        if keep_games < 1:
            raise ValueError(f"keep_games must be at least 1, got {keep_games}")
        old = self._db.execute(
            "SELECT id, header FROM games WHERE id NOT IN (SELECT id FROM games ORDER BY id DESC LIMIT ?)"
            " AND id NOT IN (SELECT game_id FROM results) ORDER BY id LIMIT ?",
            (keep_games, -1 if limit is None else limit),
        ).fetchall()
        for gid, header in old:
            events = list(self.events(gid))
            final = summarise(json.loads(header), events)
            with self._db:
                self._db.execute(
                    "INSERT INTO results (game_id, events, final_view) VALUES (?, ?, ?)",
                    (gid, len(events), json.dumps(final, ensure_ascii=False, sort_keys=True)),
                )
                self._db.execute("DELETE FROM events WHERE game_id = ?", (gid,))
        if old:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            log.info("journal %s: compacted %d old games", self.path, len(old))
        return len(old)

    @_locked
    def size_bytes(self) -> int:
        page_count = self._db.execute("PRAGMA page_count").fetchone()[0]
        page_size = self._db.execute("PRAGMA page_size").fetchone()[0]
        return int(page_count * page_size)

    @_locked
    def count(self, game_id: int) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0])
