"""A simulated display: the real firmware code on one end of a pseudo-terminal.

:class:`SimDisplay` opens a pty pair, runs the display's own protocol handler
(``firmware_bridge/firmware/display.py``, the code the Pico runs) on the master
end in a thread, and gives the slave end's path as :attr:`SimDisplay.url` for a
:class:`~firmware_bridge.link.DisplayLink`. It is what ``refbox run --sim``
drives and what the link's tests talk to.

With ``link_path`` the URL is a symlink (as udev's ``/dev/serial/by-id/...``
names are): :meth:`unplug` closes the display's end and :meth:`replug` brings up
a fresh one behind the same name, so a link can be seen to reconnect.

>>> from firmware_bridge.link import DisplayLink
>>> with SimDisplay() as sim, DisplayLink(sim.url) as link:
...     link.show({"game": "futsal", "clock": "07:30", "home": {"name": "A", "score": 2},
...                "away": {"name": "B", "score": 1}, "period": "1st half"})
...     sim.wait_for(lambda s: s["clock"] == "07:30", timeout=5)
...     print(sim.render_text().splitlines()[0])
True
 CLOCK              SHOT
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from pathlib import Path
from typing import Any, Callable

from .firmware import display as fw_display
from .firmware import segments


class RecordingHardware:
    """The firmware's hardware abstraction, recording instead of driving pins."""

    def __init__(self) -> None:
        self.cells: list[int] = [0] * fw_display.N_DIGITS
        self.horn = False
        self.writes = 0

    def write_digits(self, cells: list[int]) -> None:
        self.cells = list(cells)
        self.writes += 1

    def set_horn(self, on: bool) -> None:
        self.horn = bool(on)


class SimDisplay:
    """The display firmware on a pty; see the module docstring."""

    def __init__(
        self,
        *,
        link_path: str | os.PathLike[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._clock = clock
        self._link = Path(link_path) if link_path is not None else None
        self._cond = threading.Condition()
        #: called with each chunk read from the line before the firmware sees it
        #: (tests inject corruption here); returns what the firmware gets
        self.inbound_filter: Callable[[bytes], bytes] | None = None
        #: likewise for what the firmware answers
        self.outbound_filter: Callable[[bytes], bytes] | None = None
        self.received = bytearray()  # raw bytes read from the line (for tests and the bench)
        self.last_frame_at: float | None = None
        self.plugged = False
        self.firmware: Any = None
        self.hw = RecordingHardware()
        self._thread: threading.Thread | None = None
        self._master = self._slave = -1
        self._wake_r = self._wake_w = -1
        self.replug()

    # -- plugging --------------------------------------------------------------
    @property
    def url(self) -> str:
        """What to give DisplayLink: the symlink if any, else the pty's device path."""
        return str(self._link) if self._link is not None else self._tty_name

    def replug(self) -> None:
        """(Re)start the display on a fresh pty: digits blank, as after power-up."""
        if self.plugged:
            return
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no newline translation, before anyone opens it
        self._master, self._slave = master, slave
        self._tty_name = os.ttyname(slave)
        if self._link is not None:
            tmp = self._link.with_name(self._link.name + ".new")
            if tmp.is_symlink() or tmp.exists():
                tmp.unlink()
            tmp.symlink_to(self._tty_name)
            os.replace(tmp, self._link)
        self._wake_r, self._wake_w = os.pipe()
        self.hw = RecordingHardware()
        self.firmware = fw_display.Firmware(self.hw, self._now_ms())
        self.plugged = True
        self._thread = threading.Thread(target=self._serve, name="SimDisplay", daemon=True)
        self._thread.start()
        self._notify()

    def unplug(self) -> None:
        """Close the display's end: the bridge's reads and writes fail, the name is dead."""
        if not self.plugged:
            return
        os.write(self._wake_w, b"x")
        assert self._thread is not None
        self._thread.join(timeout=5)
        for fd in (self._master, self._slave, self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        if self._link is not None and self._link.is_symlink():
            self._link.unlink()
        self.plugged = False
        self._notify()

    def close(self) -> None:
        self.unplug()

    def __enter__(self) -> "SimDisplay":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the firmware loop -----------------------------------------------------
    def _now_ms(self) -> int:
        return int(self._clock() * 1000)

    def _serve(self) -> None:
        master, wake = self._master, self._wake_r
        while True:
            ready, _, _ = select.select([master, wake], [], [], 0.1)
            if wake in ready:
                return
            now = self._now_ms()
            if master in ready:
                try:
                    data = os.read(master, 4096)
                except OSError:
                    return
                if not data:
                    return
                at = self._clock()
                if self.inbound_filter is not None:
                    data = self.inbound_filter(data)
                with self._cond:
                    self.received += data
                    reply = self.firmware.feed(data, now)
                    if reply:
                        self.last_frame_at = at
                if reply and self.outbound_filter is not None:
                    reply = self.outbound_filter(reply)
                if reply:
                    try:
                        os.write(master, reply)
                    except OSError:
                        return
            with self._cond:
                self.firmware.tick(now)
            self._notify()

    def _notify(self) -> None:
        with self._cond:
            self._cond.notify_all()

    # -- what a person (or a test) sees ------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The digits as text per group, the horn, and the firmware's counters."""
        with self._cond:
            cells = list(self.hw.cells)
            fw = self.firmware
            snap: dict[str, Any] = {
                name: _cells_text(cells[first : first + width], name)
                for name, first, width in fw_display.DIGITS
            }
            snap.update(
                horn=self.hw.horn,
                clock_running=bool(cells[15] & segments.DP),
                turn="home" if cells[13] & segments.DP else "away" if cells[14] & segments.DP else None,
                plugged=self.plugged,
                frames_ok=fw.frames_ok,
                bad_crc=fw.reader.bad_crc,
                skipped=fw.reader.skipped,
                last_seq=fw.last_seq,
            )
            return snap

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float) -> bool:
        """Wait until ``predicate(snapshot())`` holds; False on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                if predicate(self.snapshot()):
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.1))

    def render_text(self) -> str:
        """The board as big 7-segment digits, for the terminal (``refbox run --sim``)."""
        with self._cond:
            cells = list(self.hw.cells)
            horn = self.hw.horn
        return render_board(cells, horn)


def _cells_text(cells: list[int], name: str) -> str:
    out = ""
    for i, cell in enumerate(cells):
        out += segments.decode(cell)
        if cell & segments.DP and name in ("clock", "shot"):
            out += ":" if (name == "clock" and i == 1) else "."
    return out.strip()


def big_digit(cell: int, colon: bool = False) -> list[str]:
    """Three rows of a 7-segment digit (4 columns: the last is the point or colon)."""
    on = lambda bit, ch: ch if cell & bit else " "  # noqa: E731
    dp = cell & segments.DP
    return [
        " " + on(segments.A, "_") + " " + (" " if not colon else " "),
        on(segments.F, "|") + on(segments.G, "_") + on(segments.B, "|") + ("." if colon and dp else " "),
        on(segments.E, "|") + on(segments.D, "_") + on(segments.C, "|") + ("." if dp else " "),
    ]


def _group(cells: list[int], colon_at: int | None = None) -> list[str]:
    rows = ["", "", ""]
    for i, cell in enumerate(cells):
        for r, text in enumerate(big_digit(cell, colon=i == colon_at)):
            rows[r] += text
    return rows


def render_board(cells: list[int], horn: bool = False) -> str:
    """Big-digit text of the 16 display cells (see ``firmware/display.py`` DIGITS)."""
    clock = _group(cells[0:4], colon_at=1)
    shot = _group(cells[4:7])
    home, away = _group(cells[7:10]), _group(cells[10:13])
    hf, af, per = _group(cells[13:14]), _group(cells[14:15]), _group(cells[15:16])
    lines = [" CLOCK".ljust(20) + "SHOT"]
    lines += [c + "   " + s for c, s in zip(clock, shot)]
    lines.append(" HOME".ljust(15) + "F   P   F    AWAY")
    lines += [h + "  " + a + b + c + " " + w for h, a, b, c, w in zip(home, hf, per, af, away)]
    lines.append(" HORN" if horn else "")
    return "\n".join(line.rstrip() for line in lines)
