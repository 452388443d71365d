"""Replay a header line and events (the ``refbox replay`` file format), purely.

>>> lines = ['{"game": "pig", "players": ["Ann", "Bob"]}', '{"type": "roll", "dice": [4]}']
>>> replay_lines(lines).view()["turn_total"]
4
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from .events import IllegalEvent, MalformedEvent
from .session import BadHeader, Session


class ReplayError(ValueError):
    """A line of a replay file was refused; ``line`` is 1-based."""

    def __init__(self, line: int, reason: str) -> None:
        self.line = line
        self.reason = reason
        super().__init__(f"line {line}: {reason}")


def _load(line: str, number: int) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise ReplayError(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise ReplayError(number, "not valid JSON (nested too deeply)") from None


def replay_lines(lines: Iterable[str]) -> Session:
    """Fold a header line and event lines into a session; blank lines and ``#`` comments are skipped."""
    session: Session | None = None
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        data = _load(line, number)
        if session is None:
            try:
                session = Session.start(data)
            except BadHeader as exc:
                raise ReplayError(number, f"bad header: {exc}") from None
            continue
        try:
            session.submit(data)
        except (MalformedEvent, IllegalEvent) as exc:
            raise ReplayError(number, str(exc)) from None
    if session is None:
        raise ReplayError(1, "no header line (expected {\"game\": ..., \"players\": [...]})")
    return session


def final_view(session: Session) -> dict[str, Any]:
    """The view at the last event's time (or 0 when no event carried a time)."""
    return session.view(session.last_t or 0.0)
