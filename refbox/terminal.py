"""Simulation in the terminal: keys press the mock buttons, the emulated display is drawn."""

from __future__ import annotations

import logging
import os
import select
import sys
import termios
import threading
import tty
from typing import Any

log = logging.getLogger(__name__)


def key_map(buttons: list[str]) -> dict[str, str]:
    """Give each logical button a key: its first free letter.

    >>> key_map(["stop", "start_stop", "undo"])
    {'s': 'stop', 't': 'start_stop', 'u': 'undo'}
    """
    keys: dict[str, str] = {}
    for name in buttons:
        for ch in name.replace("_", ""):
            if ch.isalpha() and ch not in keys and ch != "q":
                keys[ch] = name
                break
    return keys


class TerminalUI:
    """The emulated displays drawn in the terminal and the keys that press the mock
    buttons; its words and the table's answers in ``lang`` (``table.language``)."""

    def __init__(self, table: Any, devices: Any, *, keyboard: bool, lang: str = "en") -> None:
        from .i18n import translator

        self.table, self.devices, self.keyboard, self.lang = table, devices, keyboard, lang
        self._ = translator(lang)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._old: Any = None

    def start(self) -> None:
        self._threads.append(threading.Thread(target=self._draw, name="terminal-draw", daemon=True))
        if self.keyboard:
            self._threads.append(threading.Thread(target=self._keys, name="terminal-keys", daemon=True))
        for t in self._threads:
            t.start()

    def stop(self) -> None:
        self._stop.set()
        if self._old is not None:
            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, self._old)

    def _buttons(self) -> list[str]:
        return sorted([*self.table.session.game.keypad, "undo"])

    def _draw(self) -> None:
        last = ""
        while not self._stop.wait(0.2):
            display, led = self.devices.sim_display, self.devices.led
            parts = []
            if display is not None:
                parts.append(self._("serial display (emulated):") + "\n" + display.render_text())
            if led is not None and hasattr(led.backend, "render_text"):
                parts.append(self._("LED scoreboard (emulated):") + "\n" + led.backend.render_text())
            text = "\n".join(parts)
            if text and text != last:
                sys.stdout.write("\n" + text + "\n")
                sys.stdout.flush()
                last = text

    def _keys(self) -> None:
        fd = sys.stdin.fileno()
        self._old = termios.tcgetattr(fd)
        tty.setcbreak(fd)
        keys = key_map(self._buttons())
        print(self.help_line(keys), flush=True)
        while not self._stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.2)
            if not ready:
                continue
            ch = os.read(fd, 1).decode(errors="ignore")
            if ch == "q":
                os.kill(os.getpid(), 2)
                return
            fut = self.key(ch, keys)
            if fut is None:
                continue
            try:
                print(self.answer(fut.result(5)), flush=True)
            except Exception as exc:
                print(self._("error: {error}").format(error=exc), flush=True)

    def key(self, ch: str, keys: dict[str, str]) -> Any:
        """The table's answer (a future) to one key: ``1``-``6`` a roll of that die entered by hand
        (the camera hears it once the table takes it: a throw it held for a die in doubt is this one,
        ``refbox.camera.CameraWorker.heard``); a key of ``keys`` its button pressed; None for any other key."""
        if ch and ch in "123456":
            return self.table.submit({"type": "roll", "dice": [int(ch)]}, "cli")
        if ch in keys:
            presser = self.devices.presser
            return presser(keys[ch]) if presser is not None else self.table.press(keys[ch], "cli")
        return None

    def help_line(self, keys: dict[str, str]) -> str:
        """The keys, with each button's name in the language.

        >>> TerminalUI(None, None, keyboard=False, lang="uk").help_line({"s": "stop"})
        'клавіші: s=stop (зупинитися), 1-6 = кинутий кубик вручну, q = вихід'
        """
        from .i18n import action_name

        named = ", ".join(f"{k}={n}" + (f" ({action_name(n, self.lang)})" if self.lang != "en" else "")
                          for k, n in keys.items())
        return self._("keys: {keys}, 1-6 = roll that die by hand, q = quit").format(keys=named)

    def answer(self, r: Any) -> str:
        """The table's answer to a key, in the language (refusals translated)."""
        from .i18n import translate_reason

        if r.accepted:
            return self._("accepted {event}").format(event=r.event)
        return self._("refused: {reason}").format(reason=translate_reason(r.reason, self.lang))
