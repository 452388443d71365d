"""The interface every game engine implements, and house-rule options.

A game is a stateless object (one subclass per game or variant, like python-chess's
variants) with pure functions over immutable states:

- ``setup(players, options) -> state``
- ``apply(state, event) -> state`` (raises :class:`IllegalEvent` with the reason)
- ``view(state, now) -> dict`` (what a scoreboard shows; JSON-able)
- ``due_events(state, now) -> events`` the timers must inject (period end, ...)
- ``on_restart(state, t) -> events`` to append after a restart (stop running clocks)

Time is always passed in; games never read the wall clock.

>>> from rules import get_game
>>> pig = get_game("pig")
>>> s = pig.setup(["Ann", "Bob"], pig.resolve_options({}))
>>> pig.view(s, 0.0)["turn"]
'Ann'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from .events import Event, IllegalEvent, MalformedEvent, Schema, check_fields

S = TypeVar("S")


@dataclass(frozen=True)
class TileAnswer:
    """What a settled camera reading of domino tiles means now (``Game.read_tiles``).

    ``events``: none (nothing to do, ``reason`` says why), one (played at once unless
    ``confirm``), several (the operator chooses one). ``confirm``: even a single event
    waits for the operator (an end-of-hand count is final and has no contact to check).
    """

    events: tuple[Event, ...] = ()
    reason: str = ""
    confirm: bool = False


class BadOptions(ValueError):
    """An option name or value was refused; the message names the key and allowed values."""


class BadPlayers(ValueError):
    """The player list does not fit the game."""


@dataclass(frozen=True)
class Option:
    """A named house-rule option with a default.

    ``choices`` lists the allowed values; else ``kind`` (int/bool/str/float) with an
    optional ``lo``..``hi`` range.
    """

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    lo: float | None = None
    hi: float | None = None

    def check(self, value: Any) -> Any:
        if self.choices is not None:
            if value not in self.choices or isinstance(value, bool) != isinstance(self.default, bool):
                raise BadOptions(f"option {self.name!r}: {value!r} is not one of {list(self.choices)}")
            return value
        kind = type(self.default)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not kind:
            raise BadOptions(f"option {self.name!r}: expected {kind.__name__}, got {value!r}")
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise BadOptions(f"option {self.name!r}: {value!r} is outside {self.lo}..{self.hi}")
        return value

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "default": self.default, "help": self.help}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.lo is not None or self.hi is not None:
            out["range"] = [self.lo, self.hi]
        return out


class Game(Generic[S]):
    """Base class of every game engine. Subclasses set the class attributes and
    implement ``setup``, ``_apply`` and ``view``."""

    name: ClassVar[str]  # registry key, kebab-case: "pig", "four-dice", "futsal"
    title: ClassVar[str]  # English name
    native: ClassVar[str] = ""  # name in the source document's language
    family: ClassVar[str] = "dice"  # dice | dominoes | billiards | sports
    source: ClassVar[str] = ""  # where in shared/seeds (e.g. "000:40-46")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    options: ClassVar[tuple[Option, ...]] = ()
    events: ClassVar[Schema] = {}
    # logical button -> event the keypad sends for this game
    keypad: ClassVar[Mapping[str, Mapping[str, Any]]] = {}

    # --- set-up -------------------------------------------------------------------

    def resolve_options(self, given: Mapping[str, Any] | None) -> Mapping[str, Any]:
        """Defaults merged with ``given``; unknown keys and bad values are refused."""
        if given is not None and not isinstance(given, Mapping):
            raise BadOptions(f"options of {self.name} must be a JSON object (name: value), got {given!r}")
        given = dict(given or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            allowed = sorted(known) or "none"
            raise BadOptions(f"unknown option(s) {unknown} for {self.name}; allowed: {allowed}")
        return {name: (opt.check(given[name]) if name in given else opt.default) for name, opt in known.items()}

    def check_players(self, players: Sequence[str]) -> tuple[str, ...]:
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise BadPlayers(f"players must be a list of names, got {players!r}")
        names = tuple(players)
        for p in names:
            if not isinstance(p, str) or not p.strip() or len(p) > 40:
                raise BadPlayers(f"player name {p!r} must be 1..40 characters")
        if len(set(names)) != len(names):
            raise BadPlayers(f"player names must differ, got {list(names)}")
        if not self.min_players <= len(names) <= self.max_players:
            raise BadPlayers(
                f"{self.name} takes {self.min_players}..{self.max_players} players, got {len(names)}"
            )
        return names

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> S:
        raise NotImplementedError

    # --- events -------------------------------------------------------------------

    def parse(self, event: Event) -> Event:
        """Check the event's fields against this game's schema (``events``)."""
        return check_fields(event, self.events, self.name)

    def apply(self, state: S, event: Event) -> S:
        """Validate and apply one event; raise MalformedEvent/IllegalEvent, state untouched."""
        if event.type == "undo":
            raise MalformedEvent(event.to_dict(), "undo is handled by the session, not the game")
        return self._apply(state, self.parse(event))

    def _apply(self, state: S, event: Event) -> S:
        raise NotImplementedError

    def legal_types(self, state: S) -> tuple[str, ...]:
        """Event types acceptable now (for keypads and the control panel)."""
        return tuple(self.events)

    def due_events(self, state: S, now: float) -> tuple[Event, ...]:
        """Events a timer must inject at ``now`` (e.g. a period ending). Default: none."""
        return ()

    def on_restart(self, state: S, t: float) -> tuple[Event, ...]:
        """Events to append when the table restarts after a stop at time ``t``."""
        return ()

    def from_reading(self, state: S, dice: Sequence[int]) -> Event | None:
        """The event a settled camera reading of ``dice`` proposes (default: a roll)."""
        if "roll" in self.events:
            return Event("roll", {"dice": list(dice)}, source="camera")
        return None

    def from_tiles(self, state: S, tiles: Sequence[Sequence[int]]) -> list[Event]:
        """The events a settled camera reading of domino ``tiles`` on the table may be:
        none (nothing new), one (the camera's play) or several (the operator chooses).
        Default: the game takes no tiles."""
        return []

    def read_tiles(self, state: S, tiles: Sequence[Any]) -> TileAnswer:
        """Like :meth:`from_tiles`, with the reason when nothing is proposed and whether
        the operator must confirm. ``tiles`` entries are ``[a, b]`` or, from the camera,
        objects with ``tile`` and optional geometry (``touches``, ``zone``; see the game)."""
        plain = [t["tile"] if isinstance(t, Mapping) else t for t in tiles]
        events = self.from_tiles(state, plain)
        return TileAnswer(tuple(events), "" if events else f"{self.name} proposes nothing for tiles {plain}")

    # --- outputs ------------------------------------------------------------------

    def view(self, state: S, now: float) -> dict[str, Any]:
        raise NotImplementedError

    def describe(self, state: S) -> str:
        """A few words on the state for error messages (whose turn, scores)."""
        return ""

    def illegal(self, event: Event, state: S, reason: str) -> IllegalEvent:
        """Build the error for a refused event, naming the event and the state."""
        where = self.describe(state)
        return IllegalEvent(event, reason, f"{self.name}{', ' + where if where else ''}")

    # --- chances ------------------------------------------------------------------

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """Exact chances for a situation; ``refbox odds NAME --key value``."""
        raise NotImplementedError(f"{self.name} has no odds yet")

    # --- catalogue ----------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "native": self.native,
            "family": self.family,
            "source": self.source,
            "players": [self.min_players, self.max_players],
            "options": [o.to_dict() for o in self.options],
            "events": sorted(self.events),
        }
