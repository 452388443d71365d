"""GPIO keypad: buttons on gpiozero pins, each press reported once by its logical name.

``pins`` maps a physical pin (BCM number or gpiozero pin name) to a logical name, or
to ``(short, long)``: a short press reports ``short``, a press held for ``hold_time``
seconds or longer reports ``long`` instead (for the less frequent actions). Either may
be None: ``(None, "undo")`` makes a button that only acts when held. Buttons
are wired between the pin and ground (internal pull-up).

Debounce is done here, not by gpiozero (its mock pins ignore ``bounce_time``, and its
hold detection needs a thread and real time): after an accepted change of a button,
further edges within ``bounce_time`` are contact bounce and ignored. Time comes from
``clock`` (``time.monotonic`` by default), so tests drive it by hand and never sleep.

A button with only a short name reports at the press (lowest latency); one with a
long name reports at the release, or from :meth:`Keypad.poll` as soon as it has been
held ``hold_time`` (call ``poll`` a few times a second from the event loop).

>>> from gpiozero.pins.mock import MockFactory
>>> now = [0.0]
>>> pressed = []
>>> pad = Keypad({17: "start_stop"}, pressed.append, pin_factory=MockFactory(), clock=lambda: now[0])
>>> pin = pad.pin_of("start_stop")
>>> for level in "LHLHL":  # a bouncing contact, all within a few milliseconds
...     _ = pin.drive_low() if level == "L" else pin.drive_high()
...     now[0] += 0.002
>>> now[0] += 0.2; pin.drive_high()
>>> pressed
['start_stop']
>>> pad.close()
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, NamedTuple

from gpiozero import Button

PinSpec = int | str
Names = str | tuple[str | None, str | None]

DEFAULT_BOUNCE = 0.05  # s; contacts of arcade buttons settle within ~10 ms
DEFAULT_HOLD = 1.0  # s; a long press


class Held(NamedTuple):
    """A button that is down now: its name (``short/long`` for a two-name button),
    its pin and for how many seconds it has been down."""

    name: str
    pin: PinSpec
    seconds: float


@dataclass
class _Contact:
    short: str | None
    long: str | None
    button: Any
    pressed: bool = False
    pressed_at: float = 0.0
    last_change: float = float("-inf")
    long_sent: bool = False


class Keypad:
    """Named buttons with debounce and long press; ``on_press(name)`` once per press."""

    def __init__(
        self,
        pins: Mapping[PinSpec, Names],
        on_press: Callable[[str], None],
        *,
        pin_factory: Any,
        bounce_time: float = DEFAULT_BOUNCE,
        hold_time: float = DEFAULT_HOLD,
        clock: Callable[[], float] = time.monotonic,
        idle: Iterable[PinSpec] = (),
    ) -> None:
        """``idle``: pins wired as well, silent until :meth:`relabel` gives them names."""
        if bounce_time < 0:
            raise ValueError(f"bounce_time must be >= 0 seconds, got {bounce_time!r}")
        if hold_time <= bounce_time:
            raise ValueError(f"hold_time ({hold_time!r} s) must be longer than bounce_time ({bounce_time!r} s)")
        self._on_press = on_press
        self._bounce = bounce_time
        self._hold = hold_time
        self._clock = clock
        self._lock = threading.Lock()
        self._contacts: dict[PinSpec, _Contact] = {}
        labels, self._names = _labels(pins)
        try:
            for pin in [*pins, *(p for p in idle if p not in pins)]:
                short, long = labels.get(pin, (None, None))
                button = Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                contact = _Contact(short, long, button)
                if button.is_pressed:  # down already at start (stuck, or held): counted as held, reports nothing
                    contact.pressed, contact.pressed_at, contact.long_sent = True, clock(), True
                button.when_pressed = lambda _d=None, c=contact: self._edge(c, True)
                button.when_released = lambda _d=None, c=contact: self._edge(c, False)
                self._contacts[pin] = contact
        except Exception:
            self.close()
            raise

    def relabel(self, pins: Mapping[PinSpec, Names]) -> None:
        """New names for wired pins (another game's layout); wired pins left out go
        silent. A pin that is not wired, or a name on two pins, raises ValueError and
        changes nothing.

        >>> from gpiozero.pins.mock import MockFactory
        >>> pad = Keypad({17: "stop"}, print, pin_factory=MockFactory(), idle=[22])
        >>> pad.relabel({17: ("choose", "new_hand"), 22: "confirm"}); sorted(pad.names)
        ['choose', 'confirm', 'new_hand']
        >>> pad.relabel({5: "goal"})
        Traceback (most recent call last):
        ...
        ValueError: pin 5 is not wired to this keypad; wired: 17, 22
        >>> pad.close()
        """
        labels, names = _labels(pins)
        with self._lock:
            stray = [p for p in pins if p not in self._contacts]
            if stray:
                raise ValueError(f"pin {stray[0]!r} is not wired to this keypad; wired: {', '.join(map(str, self._contacts))}")
            for pin, c in self._contacts.items():
                c.short, c.long = labels.get(pin, (None, None))
                c.long_sent = c.pressed  # a button held across the change reports nothing
            self._names = names

    @property
    def names(self) -> tuple[str, ...]:
        """Every logical name this keypad can report."""
        return tuple(self._names)

    def pin_of(self, name: str) -> Any:
        """The gpiozero pin behind a logical name (``drive_low()`` presses a mock pin)."""
        if name not in self._names:
            raise KeyError(f"no button {name!r}; buttons: {sorted(self._names)}")
        return self._contacts[self._names[name]].button.pin

    def press(self, name: str) -> None:
        """Report ``name`` as pressed (simulation and the web page; no contact, no debounce)."""
        if name not in self._names:
            raise KeyError(f"no button {name!r}; buttons: {sorted(self._names)}")
        self._on_press(name)

    def poll(self) -> None:
        """Report long presses that have reached ``hold_time`` while still held."""
        now = self._clock()
        due = []
        with self._lock:
            for c in self._contacts.values():
                if c.pressed and c.long and not c.long_sent and now - c.pressed_at >= self._hold:
                    c.long_sent = True
                    due.append(c.long)
        for name in due:
            self._on_press(name)

    def held(self) -> list[Held]:
        """The buttons that are down now and for how long, longest first (a health
        check calls a button down for many seconds stuck).

        >>> from gpiozero.pins.mock import MockFactory
        >>> now = [10.0]
        >>> pad = Keypad({17: "stop", 21: (None, "undo")}, print, pin_factory=MockFactory(), clock=lambda: now[0])
        >>> pad.pin_of("undo").drive_low(); now[0] += 42.5
        >>> pad.held()
        [Held(name='undo', pin=21, seconds=42.5)]
        >>> pad.close()
        """
        now = self._clock()
        with self._lock:
            out = [
                Held("/".join(n for n in (c.short, c.long) if n) or "(silent)", pin, now - c.pressed_at)
                for pin, c in self._contacts.items()
                if c.pressed
            ]
        return sorted(out, key=lambda h: -h.seconds)

    def _edge(self, c: _Contact, pressed: bool) -> None:
        now = self._clock()
        report = None
        with self._lock:
            if pressed == c.pressed or now - c.last_change < self._bounce:
                return  # no change, or contact bounce after an accepted change
            c.pressed = pressed
            c.last_change = now
            if pressed:
                c.pressed_at = now
                c.long_sent = False
                if c.long is None:
                    report = c.short
            elif c.long is not None and not c.long_sent:
                report = c.long if now - c.pressed_at >= self._hold else c.short
        if report is not None:
            self._on_press(report)

    def close(self) -> None:
        for c in self._contacts.values():
            c.button.close()
        self._contacts.clear()
        self._names.clear()

    def __enter__(self) -> "Keypad":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _labels(pins: Mapping[PinSpec, Names]) -> tuple[dict[PinSpec, tuple[str | None, str | None]], dict[str, PinSpec]]:
    """Check a pin -> names map: (pin -> (short, long), name -> pin)."""
    labels: dict[PinSpec, tuple[str | None, str | None]] = {}
    where: dict[str, PinSpec] = {}
    for pin, names in pins.items():
        short, long = (names, None) if isinstance(names, str) else names
        if short is None and long is None:
            raise ValueError(f"pin {pin!r}: give a short-press name, a long-press name or both")
        for n in (short, long):
            if n is None:
                continue
            if not isinstance(n, str) or not n:
                raise ValueError(f"pin {pin!r}: logical names must be non-empty strings, got {n!r}")
            if n in where:
                raise ValueError(f"logical name {n!r} is on pins {where[n]!r} and {pin!r}")
            where[n] = pin
        labels[pin] = (short, long)
    return labels, where


# The timekeeper's keypad (docs/keypad.md): BCM pin -> (short press, long press).
TIMEKEEPER_PINS: Mapping[int, Names] = {
    17: ("start_stop", "next_period"),
    27: ("goal_home", None),
    22: ("goal_away", None),
    5: ("foul_home", "send_off_home"),
    6: ("foul_away", "send_off_away"),
    13: ("timeout_home", None),
    19: ("timeout_away", None),
    26: ("four_seconds", "four_seconds_cancel"),
    20: ("horn", "timeout_end"),
    21: (None, "undo"),
}
# A dice table's keypad: the same box, fewer buttons (docs/keypad.md).
DICE_PINS: Mapping[int, Names] = {
    17: ("stop", None),
    27: ("challenge", None),
    22: ("accept", None),
    21: (None, "undo"),
}
# A domino table's keypad: the dice box's four buttons; CHOOSE/CONFIRM step through and
# play the camera's proposals (docs/keypad.md), the long presses are the rarer calls.
DOMINOES_PINS: Mapping[int, Names] = {
    17: ("choose", "new_hand"),
    27: ("draw", "pass"),
    22: ("confirm", "fish"),
    21: (None, "undo"),
}
HORN_RELAY_PIN = 16  # BCM; see firmware_bridge/horn.py
