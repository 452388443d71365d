"""Events: the only way a game's state changes.

An event is a flat JSON object: ``type`` (a snake_case verb), the fields that type
needs, and optionally ``t`` (seconds on the table's clock) and ``source``
(``button``, ``camera``, ``web``, ``timer``, ``replay``, ``restore``).

>>> e = Event.from_dict({"type": "roll", "dice": [4], "t": 1.5})
>>> e.type, e["dice"], e.t
('roll', (4,), 1.5)
>>> Event.from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from collections.abc import Callable, Iterator, Mapping  # abc's isinstance is ~5x faster than typing's
from typing import Any

SOURCES = frozenset({"button", "camera", "web", "timer", "replay", "restore", "cli", "club"})
_TYPE_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
RESERVED = ("type", "t", "source")


class MalformedEvent(ValueError):
    """The event is not well formed (bad JSON shape, unknown field, wrong type)."""

    def __init__(self, event: Any, reason: str) -> None:
        self.event = event
        self.reason = reason
        super().__init__(f"malformed event {_short(event)}: {reason}")


class IllegalEvent(ValueError):
    """The event is well formed but the rules refuse it in this state.

    Carries the event and a short description of the state, like python-chess's
    ``IllegalMoveError``: ``illegal roll [7] in pig (turn Ann): die value 7 not in 1..6``.
    """

    def __init__(self, event: "Event | Mapping[str, Any]", reason: str, state: str = "") -> None:
        self.event = event
        self.reason = reason
        self.state = state
        desc = event.describe() if isinstance(event, Event) else _short(event)
        where = f" ({state})" if state else ""
        super().__init__(f"illegal {desc}{where}: {reason}")


def _short(obj: Any, limit: int = 120) -> str:
    text = repr(obj) if not isinstance(obj, Mapping) else _json_like(obj)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json_like(obj: Mapping[str, Any]) -> str:
    import json

    try:
        text = json.dumps(dict(obj), ensure_ascii=False, default=str)
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:  # a lone surrogate: keep the message printable
        return json.dumps(dict(obj), default=str)
    except (TypeError, ValueError):
        return repr(obj)


_SCALARS = (str, int, float, bool, type(None))


def _bad_text(value: Any, depth: int = 0) -> str | None:
    """The first string in ``value`` that cannot be stored as UTF-8 (a lone surrogate,
    as JSON's ``"\\ud800"`` gives), or None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value
        return None
    if depth > 50:
        return None
    if isinstance(value, list | tuple):
        items: Any = value
    elif isinstance(value, Mapping):
        items = [*value.keys(), *value.values()]
    else:
        return None
    for v in items:
        bad = _bad_text(v, depth + 1)
        if bad is not None:
            return bad
    return None


def _freeze(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Event:
    """One immutable event. ``args`` holds the type-specific fields (lists become tuples)."""

    type: str
    args: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    t: float | None = None
    source: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.args, MappingProxyType):
            object.__setattr__(self, "args", _freeze(dict(self.args)))

    def __getitem__(self, key: str) -> Any:
        return self.args[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.args.get(key, default)

    def __iter__(self) -> Iterator[str]:  # pragma: no cover - convenience
        return iter(self.args)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.type, dict(self.args), self.t, self.source) == (
            other.type,
            dict(other.args),
            other.t,
            other.source,
        )

    def __hash__(self) -> int:
        return hash((self.type, tuple(sorted(self.args.items(), key=lambda kv: kv[0])), self.t))

    def with_time(self, t: float) -> "Event":
        return Event(self.type, self.args, t, self.source)

    def with_source(self, source: str) -> "Event":
        return Event(self.type, self.args, self.t, source)

    def describe(self) -> str:
        """Short human form: ``roll [4]``, ``stop``, ``play {'tile': [5, 5], 'end': 'left'}``."""
        if not self.args:
            return self.type
        if len(self.args) == 1:
            (value,) = self.args.values()
            return f"{self.type} {_json_like({'v': _thaw(value)})[6:-1]}"
        return f"{self.type} {_json_like(_thaw(self.args))}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        out.update(_thaw(self.args))
        if self.t is not None:
            out["t"] = self.t
        if self.source is not None:
            out["source"] = self.source
        return out

    @classmethod
    def from_dict(cls, data: Any) -> "Event":
        """Check the common shape (``type``, ``t``, ``source``); game fields are checked by the game."""
        if not isinstance(data, Mapping):
            raise MalformedEvent(data, "an event must be a JSON object")
        kind = data.get("type")
        if not isinstance(kind, str) or not _TYPE_RE.match(kind):
            raise MalformedEvent(data, f"'type' must be a snake_case verb, got {kind!r}")
        t = data.get("t")
        if t is not None:
            if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) or t < 0:
                raise MalformedEvent(data, f"'t' must be a non-negative number of seconds, got {t!r}")
            t = float(t)
        source = data.get("source")
        if source is not None and (not isinstance(source, str) or source not in SOURCES):  # (a list or an object is unhashable: no set lookup)
            raise MalformedEvent(data, f"'source' must be one of {sorted(SOURCES)}, got {source!r}")
        args = {k: v for k, v in data.items() if k not in RESERVED}
        for key in args:
            if not isinstance(key, str):
                raise MalformedEvent(data, f"field names must be strings, got {key!r}")
        bad = _bad_text(args)
        if bad is not None:
            raise MalformedEvent(data, f"text {bad!r} is not valid Unicode (a lone surrogate)")
        return cls(kind, args, t, source)


# --- field validators -------------------------------------------------------------
# A validator takes the raw JSON value and returns the normalised value or raises
# ValueError with a message naming what was expected.

Validator = Callable[[Any], Any]


@dataclass(frozen=True)
class Opt:
    """Marks a field as optional in an event schema."""

    validator: Validator
    default: Any = None


def integer(lo: int | None = None, hi: int | None = None) -> Validator:
    def check(v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"expected a whole number, got {v!r}")
        if lo is not None and v < lo or hi is not None and v > hi:
            raise ValueError(f"expected a number in {lo}..{hi}, got {v}")
        return v

    return check


def number(lo: float | None = None, hi: float | None = None) -> Validator:
    def check(v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise ValueError(f"expected a number, got {v!r}")
        if lo is not None and v < lo or hi is not None and v > hi:
            raise ValueError(f"expected a number in {lo}..{hi}, got {v}")
        return float(v)

    return check


def text(max_len: int = 60, choices: tuple[str, ...] | None = None) -> Validator:
    def check(v: Any) -> str:
        if not isinstance(v, str):
            raise ValueError(f"expected a string, got {v!r}")
        if choices is not None and v not in choices:
            raise ValueError(f"expected one of {list(choices)}, got {v!r}")
        if len(v) > max_len:
            raise ValueError(f"expected at most {max_len} characters, got {len(v)}")
        return v

    return check


def boolean() -> Validator:
    def check(v: Any) -> bool:
        if not isinstance(v, bool):
            raise ValueError(f"expected true or false, got {v!r}")
        return v

    return check


def list_of(item: Validator, min_len: int = 0, max_len: int = 100) -> Validator:
    def check(v: Any) -> tuple[Any, ...]:
        if not isinstance(v, list | tuple):
            raise ValueError(f"expected a list, got {v!r}")
        if not min_len <= len(v) <= max_len:
            if min_len == max_len:
                raise ValueError(f"expected a list of {min_len}, got {len(v)}")
            raise ValueError(f"expected a list of {min_len}..{max_len} items, got {len(v)}")
        out = []
        for i, x in enumerate(v):
            try:
                out.append(item(x))
            except ValueError as exc:
                raise ValueError(f"item {i}: {exc}") from None
        return tuple(out)

    return check


def dice(min_len: int = 1, max_len: int = 10, faces: int = 6) -> Validator:
    """A list of die values 1..faces."""
    return list_of(integer(1, faces), min_len, max_len)


Schema = Mapping[str, Mapping[str, "Validator | Opt"]]


def check_fields(event: Event, schema: Schema, game: str) -> Event:
    """Validate ``event`` against ``schema`` (event type -> field -> validator).

    Unknown types and fields are refused, never ignored. ``undo`` is known to every game.
    Returns the event with normalised field values.
    """
    if event.type not in schema:
        raise MalformedEvent(
            event.to_dict(),
            f"unknown event type {event.type!r} for {game}; known: {sorted(schema)}",
        )
    fields = schema[event.type]
    unknown = sorted(set(event.args) - set(fields))
    if unknown:
        raise MalformedEvent(
            event.to_dict(),
            f"unknown field(s) {unknown} for {event.type!r}; allowed: {sorted(fields)}",
        )
    clean: dict[str, Any] = {}
    for name, spec in fields.items():
        if isinstance(spec, Opt):
            if name not in event.args or event.args[name] is None:
                if spec.default is not None:
                    clean[name] = spec.default
                continue
            validator = spec.validator
        else:
            if name not in event.args:
                raise MalformedEvent(event.to_dict(), f"{event.type!r} needs the field {name!r}")
            validator = spec
        try:
            clean[name] = validator(_thaw(event.args[name]))
        except ValueError as exc:
            raise MalformedEvent(event.to_dict(), f"field {name!r}: {exc}") from None
    return Event(event.type, clean, event.t, event.source)
