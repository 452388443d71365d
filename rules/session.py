"""A game in progress: header, accepted events, undo by replay.

The session is what both the table runtime and ``refbox replay`` fold events
through. ``undo`` removes the last effective event; since states are immutable and
a pure function of the event prefix, keeping the state after every prefix is the
same as replaying the journal without the undone event, only faster.

>>> s = Session.start({"game": "pig", "players": ["Ann", "Bob"]})
>>> s.submit({"type": "roll", "dice": [4]}).view(0.0)["turn_total"]
4
>>> s.submit({"type": "undo"}).view(0.0)["turn_total"]
0
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping, Sequence
from typing import Any

from .events import Event, IllegalEvent, MalformedEvent
from .game import BadOptions, BadPlayers, Game
from .registry import UnknownGame, get_game


class BadHeader(ValueError):
    """The header line (game, players, options) is refused."""


@dataclass(frozen=True)
class Header:
    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "players": list(self.players), "options": dict(self.options)}

    @classmethod
    def from_dict(cls, data: Any) -> "Header":
        if not isinstance(data, Mapping):
            raise BadHeader(f"header must be a JSON object, got {data!r}")
        unknown = sorted(set(data) - {"game", "players", "options"})
        if unknown:
            raise BadHeader(f"unknown header field(s) {unknown}; allowed: ['game', 'options', 'players']")
        try:
            game = get_game(data.get("game"))  # type: ignore[arg-type]
            players = game.check_players(data.get("players", []))
            options = game.resolve_options(data.get("options"))
        except (UnknownGame, BadPlayers, BadOptions) as exc:
            raise BadHeader(str(exc)) from None
        return cls(game.name, players, dict(options))


@dataclass
class Session:
    """Header + effective events + the state after each of them."""

    header: Header
    game: Game
    events: list[Event] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)
    applied: int = 0  # every accepted event, undo included (the audit trail)

    @classmethod
    def start(cls, header: "Header | Mapping[str, Any]") -> "Session":
        h = header if isinstance(header, Header) else Header.from_dict(header)
        game = get_game(h.game)
        return cls(h, game, [], [game.setup(h.players, h.options)])

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def last_t(self) -> float | None:
        for e in reversed(self.events):
            if e.t is not None:
                return e.t
        return None

    def check(self, event: "Event | Mapping[str, Any]") -> tuple[Event, Any]:
        """Validate ``event`` without changing anything: (normalised event, new state).

        ``undo`` gives the state before the last effective event.
        """
        ev = event if isinstance(event, Event) else Event.from_dict(event)
        if ev.type == "undo":
            if ev.args:
                raise MalformedEvent(ev.to_dict(), f"undo takes no fields, got {sorted(ev.args)}")
            if not self.events:
                raise IllegalEvent(ev, "nothing to undo", self.game.name)
            return ev, self.states[-2]
        if ev.t is not None and self.last_t is not None and ev.t < self.last_t:
            raise IllegalEvent(ev, f"time {ev.t} is before the last event's time {self.last_t}", self.game.name)
        clean = self.game.parse(ev)
        return clean, self.game._apply(self.state, clean)

    def commit(self, event: Event, new_state: Any) -> None:
        """Record an event that :meth:`check` accepted."""
        if event.type == "undo":
            self.events.pop()
            self.states.pop()
        else:
            self.events.append(event)
            self.states.append(new_state)
        self.applied += 1

    def submit(self, event: "Event | Mapping[str, Any]") -> "Session":
        """Check and commit; raises MalformedEvent/IllegalEvent and changes nothing."""
        ev, new_state = self.check(event)
        self.commit(ev, new_state)
        return self

    def view(self, now: float | None = None) -> dict[str, Any]:
        if now is None:
            now = self.last_t or 0.0
        v = self.game.view(self.state, now)
        v["game"] = self.game.name
        v["events"] = len(self.events)
        return v

    def due_events(self, now: float) -> Sequence[Event]:
        return [e.with_source("timer") for e in self.game.due_events(self.state, now)]
