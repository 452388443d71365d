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


KEPT_ZONE = "kept"
"""The table zone (``camera.zones``) where a player sets aside the dice kept from a throw."""


@dataclass(frozen=True)
class SeenDie:
    """One die of a settled camera reading, as plain data: its value, the table zone it
    lies in (None: outside every zone) and whether it moved since the last reading."""

    value: int
    zone: str | None = None
    moved: bool = True


def seen_die(value: Any) -> SeenDie:
    """``4`` or ``{"value": 4, "zone": "kept", "moved": false}`` (``zone`` and ``moved`` optional).

    >>> seen_die(4), seen_die({"value": 6, "zone": "kept"}).zone
    (SeenDie(value=4, zone=None, moved=True), 'kept')
    >>> seen_die({"value": 7})
    Traceback (most recent call last):
    ...
    ValueError: camera die {'value': 7}: 'value' must be a number 1..6, got 7
    """
    if isinstance(value, Mapping):
        unknown = sorted(set(value) - {"value", "zone", "moved"})
        if unknown:
            raise ValueError(f"camera die {dict(value)!r}: unknown field(s) {unknown}; fields: value, zone, moved")
        v, zone, moved = value.get("value"), value.get("zone"), value.get("moved", True)
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
            raise ValueError(f"camera die {dict(value)!r}: 'value' must be a number 1..6, got {v!r}")
        if zone is not None and not isinstance(zone, str):
            raise ValueError(f"camera die {dict(value)!r}: 'zone' must be a name, got {zone!r}")
        if not isinstance(moved, bool):
            raise ValueError(f"camera die {dict(value)!r}: 'moved' must be true or false, got {moved!r}")
        return SeenDie(v, zone, moved)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"camera die {value!r}: expected a value 1..6 or an object with 'value'")
    return SeenDie(value)


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

    def read_dice(self, state: S, dice: Sequence[Any]) -> tuple[Event, ...]:
        """The events a settled camera reading of ``dice`` proposes, to be applied in
        order as one reading (none, usually one roll). Entries are values or, from a
        camera with a ``kept`` zone, objects (:func:`seen_die`) saying where each die
        lies, read by zone: the dice in the ``kept`` zone are the ones set aside. When
        they differ from the game's (:meth:`kept_dice`) the reading starts with the game's
        ``keep`` (:meth:`keep_event`); the dice elsewhere are a ``roll`` when a throw is
        due and one of them moved (dice only moved to the kept zone are no throw).
        Plain values go to :meth:`from_reading`. Raises ValueError naming a malformed entry.
        """
        seen = [seen_die(d) for d in dice]
        if not any(isinstance(d, Mapping) for d in dice):
            ev = self.from_reading(state, [d.value for d in seen])
            return () if ev is None else (ev,)
        kept = sorted(d.value for d in seen if d.zone == KEPT_ZONE)
        loose = [d for d in seen if d.zone != KEPT_ZONE]
        events: list[Event] = []
        after = state
        if kept != sorted(self.kept_dice(state)):
            keep = self.keep_event(state, kept)
            if keep is not None:
                events.append(keep)
                try:
                    after = self._apply(state, self.parse(keep))
                except (IllegalEvent, MalformedEvent):
                    return tuple(events)  # refused with the game's reason when it is applied
        if any(d.moved for d in loose) and "roll" in self.legal_types(after):
            events.append(Event("roll", {"dice": [d.value for d in loose]}, source="camera"))
        return tuple(events)

    def kept_dice(self, state: S) -> tuple[int, ...]:
        """The dice the game counts as set aside now, out of the next throw (default:
        the state's ``held``)."""
        return tuple(getattr(state, "held", None) or ())

    def keep_event(self, state: S, kept: Sequence[int]) -> Event | None:
        """The event that makes ``kept`` the dice set aside, or None when the game keeps
        no dice now (default: ``keep`` with them, when ``keep`` is legal)."""
        if "keep" not in self.legal_types(state):
            return None
        return Event("keep", {"dice": list(kept)}, source="camera")

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
