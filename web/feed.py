"""What the live stream sends besides views: the game's history (from the journal)
and device health, each computed once and shared by every viewer.

Stream ids say where a client is: ``BOOT.GAME.JSEQ.VSEQ`` — the server process
(``BOOT`` changes when the table restarts, and with it the view sequence), the
journal's game id, the last journal event the client has, and the last view seq.
A reconnecting client sends it back (``Last-Event-ID`` header or ``?since=``) and
gets exactly the journal events it missed, then the current view.

>>> parse_position("ab12.3.40.7")
Position(boot='ab12', game=3, jseq=40, vseq=7)
>>> parse_position("garbage") is None
True
"""

from __future__ import annotations

import bisect
import json
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple

log = logging.getLogger(__name__)


class Position(NamedTuple):
    boot: str
    game: int
    jseq: int
    vseq: int

    def __str__(self) -> str:
        return f"{self.boot}.{self.game}.{self.jseq}.{self.vseq}"


def parse_position(text: str | None) -> Position | None:
    """A stream id sent back by a client; ``None`` when absent or not one of ours."""
    if not text:
        return None
    parts = text.strip().split(".")
    if len(parts) != 4 or not parts[0].isalnum():
        return None
    try:
        game, jseq, vseq = (int(p) for p in parts[1:])
    except ValueError:
        return None
    if min(game, jseq, vseq) < 0:
        return None
    return Position(parts[0], game, jseq, vseq)


@dataclass(frozen=True)
class Entry:
    """One journalled event, as the page's history shows it."""

    seq: int
    at: float  # wall-clock time it was written (Unix seconds)
    event: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": round(self.at, 3), "event": dict(self.event)}


class Feed:
    """Shared, cached reads of the journal and of device health for all viewers."""

    def __init__(self, table: Any, app: Any) -> None:
        self.table, self.app = table, app
        self._lock = threading.Lock()
        self._game = -1
        self._entries: list[Entry] = []
        self._seqs: list[int] = []
        self._key: tuple[int, int] = (-1, -1)  # (game id, view seq) last refreshed for
        self._messages: dict[tuple[int, int, int, bool], tuple[int, str] | None] = {}
        self._health: dict[str, Any] = {}
        self._health_at = -1e9

    # --- history ----------------------------------------------------------------------

    def history(self, game: int, after: int = 0, view_seq: int | None = None) -> list[Entry]:
        """Journal entries of ``game`` with seq > ``after`` (oldest first). The journal is
        read at most once per published view (``view_seq``), whatever the number of viewers."""
        with self._lock:
            if game != self._game:
                self._game, self._entries, self._seqs, self._key = game, [], [], (-1, -1)
            key = (game, view_seq if view_seq is not None else -1)
            if view_seq is None or key != self._key:
                last = self._seqs[-1] if self._seqs else 0
                for seq, written, event in self.table.journal.rows(game, after=last):
                    self._entries.append(Entry(seq, written, event))
                    self._seqs.append(seq)
                self._key = key
            start = bisect.bisect_right(self._seqs, after)
            return self._entries[start:]

    def history_message(self, game: int, after: int, view_seq: int, reset: bool, limit: int) -> tuple[int, str] | None:
        """The stream's ``history`` data for a viewer at ``after`` (``None``: nothing new):
        (last seq, JSON text). Viewers that are up to date share one encoding per view."""
        key = (game, after, view_seq, reset)
        with self._lock:
            if key in self._messages:
                return self._messages[key]
        entries = self.history(game, 0 if reset else after, view_seq)
        with self._lock:
            newest = self._seqs[-1] if self._seqs else 0
        if not reset and after > newest:  # the client knows events this journal has not: start afresh
            reset, entries = True, self.history(game, 0, view_seq)
        if reset:
            entries = entries[-limit:]
        out: tuple[int, str] | None = None
        if reset or entries:
            body = {"game": game, "reset": reset, "events": [e.to_dict() for e in entries]}
            out = (entries[-1].seq if entries else 0), json.dumps(body, ensure_ascii=False)
        with self._lock:
            if len(self._messages) > 64:
                self._messages.clear()
            self._messages[key] = out
        return out

    # --- health -----------------------------------------------------------------------

    def health(self, max_age: float = 0.0) -> dict[str, Any]:
        """``{device: {"ok": bool, "detail": str, ...}}`` from the runtime's ``refbox.health``
        callable (nothing when there is none); cached for ``max_age`` seconds."""
        check = self.app.extensions.get("refbox.health")
        if check is None:
            return {}
        with self._lock:
            now = time.monotonic()
            if now - self._health_at >= max_age:
                try:
                    found = check()
                    self._health = {str(k): dict(v) for k, v in dict(found).items()}
                except Exception as exc:  # a broken check is itself a fault to show
                    log.exception("device health check failed")
                    self._health = {"health": {"ok": False, "detail": f"the health check failed: {exc}"}}
                self._health_at = now
            return self._health
