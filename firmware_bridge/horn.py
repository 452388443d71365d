"""The timekeeper's horn: a relay on a GPIO pin sounding named patterns.

The Laws ask for an end-of-period and end-of-time-out signal distinct from the
referees' whistles (Law 7). A whistle is short and trilled; the horn's patterns are
long steady blasts (period end: one 2 s blast; time-out end: two; end of the break:
two long ones; the 4-second count: three short beeps; the operator's button: 1 s).

:meth:`Horn.sound` returns at once: the first step is switched synchronously and the
rest plays on a background thread, which a new pattern, :meth:`Horn.silence` or
:meth:`Horn.close` interrupts. ``wait`` (how the thread waits between steps) can be
injected so tests run a pattern to its end without real time.

>>> from gpiozero.pins.mock import MockFactory
>>> horn = Horn(16, pin_factory=MockFactory())
>>> horn.sound("period_end"); horn.is_on
True
>>> horn.silence(); horn.is_on
False
>>> horn.close()
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Mapping

from gpiozero import DigitalOutputDevice

Step = tuple[bool, float]  # relay on?, for how many seconds

PATTERNS: Mapping[str, tuple[Step, ...]] = {
    "period_end": ((True, 2.0),),
    "timeout_end": ((True, 0.6), (False, 0.3), (True, 0.6)),
    "break_end": ((True, 1.0), (False, 0.5), (True, 1.0)),
    "four_seconds": ((True, 0.25), (False, 0.25), (True, 0.25), (False, 0.25), (True, 0.25)),
    "manual": ((True, 1.0),),
}


def pattern_seconds(pattern: str) -> float:
    """How long a pattern sounds, first blast to last."""
    return sum(d for _, d in PATTERNS[pattern])


class Horn:
    """A horn relay on ``pin`` (``active_high=False`` for relay boards that switch on low)."""

    def __init__(
        self,
        pin: int | str,
        *,
        pin_factory: Any,
        active_high: bool = True,
        patterns: Mapping[str, tuple[Step, ...]] = PATTERNS,
        wait: Callable[[threading.Event, float], bool] | None = None,
    ) -> None:
        for name, steps in patterns.items():
            if not steps or any(d <= 0 for _, d in steps):
                raise ValueError(f"horn pattern {name!r} needs steps of positive length, got {steps!r}")
        self.patterns = dict(patterns)
        self._wait = wait or (lambda ev, seconds: ev.wait(seconds))
        self._relay = DigitalOutputDevice(pin, active_high=active_high, initial_value=False, pin_factory=pin_factory)
        self._lock = threading.Lock()
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self.played: list[str] = []  # patterns started, for the simulator and tests

    @property
    def is_on(self) -> bool:
        return bool(self._relay.value)

    @property
    def pin(self) -> Any:
        return self._relay.pin

    def sound(self, pattern: str) -> None:
        """Start ``pattern`` (interrupting one that plays) and return at once."""
        if pattern not in self.patterns:
            raise ValueError(f"unknown horn pattern {pattern!r}; patterns: {sorted(self.patterns)}")
        self.silence()
        steps = self.patterns[pattern]
        with self._lock:
            self.played.append(pattern)
            cancel = threading.Event()
            self._cancel = cancel
            self._relay.value = steps[0][0]
            self._thread = threading.Thread(target=self._play, args=(steps, cancel), name=f"horn-{pattern}",
                                            daemon=True)
            self._thread.start()

    def _play(self, steps: tuple[Step, ...], cancel: threading.Event) -> None:
        for i, (on, seconds) in enumerate(steps):
            if i:
                with self._lock:
                    if cancel.is_set():
                        return
                    self._relay.value = on
            if self._wait(cancel, seconds):
                return
        with self._lock:
            if not cancel.is_set():
                self._relay.value = False

    def wait_done(self, timeout: float | None = None) -> bool:
        """Join the pattern's thread (for tests with an instant ``wait``); True when done."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    def silence(self) -> None:
        """Stop the pattern and switch the relay off."""
        with self._lock:
            self._cancel.set()
            self._relay.value = False
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(1.0)
        self._thread = None

    def close(self) -> None:
        self.silence()
        self._relay.close()

    def __enter__(self) -> "Horn":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class HornOutput:
    """Sounds ``horn`` when a view's ``horn_count`` goes up, with the view's
    ``horn_pattern`` (an output of the table: it sees views, never events).

    The first view only sets the baseline, so a restart does not replay old signals;
    a count that goes down (a new game, an undone signal) resets it.

    >>> from gpiozero.pins.mock import MockFactory
    >>> horn = Horn(16, pin_factory=MockFactory())
    >>> out = HornOutput(horn)
    >>> out.show({"horn_count": 2, "horn_pattern": None})
    >>> out.show({"horn_count": 3, "horn_pattern": "period_end"}); horn.played
    ['period_end']
    >>> horn.close()
    """

    def __init__(self, horn: Horn) -> None:
        self.horn = horn
        self._count: int | None = None

    def show(self, view: Mapping[str, Any]) -> None:
        count = view.get("horn_count")
        if not isinstance(count, int):
            return  # a game without a horn
        before, self._count = self._count, count
        if before is None or count <= before:
            return
        pattern = view.get("horn_pattern")
        self.horn.sound(pattern if pattern in self.horn.patterns else "manual")
