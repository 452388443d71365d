"""GPIO keypad: named buttons on gpiozero pins, each press reported by name.

Pass ``pin_factory`` explicitly (gpiozero's ``MockFactory`` in tests and ``--sim``).

>>> from gpiozero.pins.mock import MockFactory
>>> pressed = []
>>> pad = Keypad({"stop": 17}, pressed.append, pin_factory=MockFactory())
>>> pad.pin("stop").drive_low(); pad.pin("stop").drive_high()
>>> pressed
['stop']
>>> pad.close()
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from gpiozero import Button


class Keypad:
    """Buttons wired between a GPIO pin and ground (internal pull-up)."""

    def __init__(
        self,
        pins: Mapping[str, int | str],
        on_press: Callable[[str], None],
        *,
        pin_factory: Any,
        bounce_time: float | None = None,
    ) -> None:
        self._on_press = on_press
        self.buttons: dict[str, Button] = {}
        try:
            for name, pin in pins.items():
                button = Button(pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory)
                button.when_pressed = lambda _b=None, _n=name: self._on_press(_n)
                self.buttons[name] = button
        except Exception:
            self.close()
            raise

    def pin(self, name: str) -> Any:
        """The gpiozero pin object behind a button (``drive_low()`` presses a mock pin)."""
        return self.buttons[name].pin

    def press(self, name: str) -> None:
        """Press and release a button of a mock keypad (simulation and the web page)."""
        if name not in self.buttons:
            raise KeyError(f"no button {name!r}; buttons: {sorted(self.buttons)}")
        pin = self.pin(name)
        pin.drive_low()
        pin.drive_high()

    def close(self) -> None:
        for b in self.buttons.values():
            b.close()
        self.buttons.clear()
