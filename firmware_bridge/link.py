"""The native serial link to the shot-clock / match-clock display.

:class:`DisplayLink` owns one background thread and one port opened by URL
(``serial.serial_for_url``: a device path such as ``/dev/serial/by-id/...``, a
pty, ``loop://``, ``spy://...``). The caller hands it views with :meth:`show`,
which only swaps a latest-value mailbox and returns: the table never waits on
the display. The thread turns the newest view into a frame
(:mod:`firmware_bridge.protocol`), writes it, waits for the display's ACK,
resends lost or corrupted frames, and when the port fails (display unplugged)
reports it in :meth:`status` and keeps trying to reopen the same URL; once it
is back, the newest view is sent again.

>>> link = DisplayLink("loop://", ack_timeout=0.01)
>>> link.show({"game": "pig", "players": [{"name": "Ann", "score": 3}], "turn": "Ann"})
>>> link.status()["url"]
'loop://'
>>> link.close()
"""

from __future__ import annotations

import termios
import threading
import time
from typing import Any, Callable, Mapping

import serial

from .layout import DisplayFields, LayoutConfig
from .protocol import Ack, Decoder, Nak, Ping, Show, encode_frame


#: what a vanished or misbehaving port raises
PORT_ERRORS: tuple[type[BaseException], ...] = (serial.SerialException, OSError, termios.error)
OPEN_ERRORS: tuple[type[BaseException], ...] = PORT_ERRORS + (ValueError,)


class LinkSettingsError(ValueError):
    """A DisplayLink setting is out of range; the message names it and its value."""


def _positive(name: str, value: Any, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
        raise LinkSettingsError(f"display link {name}: expected a number in {lo}..{hi}, got {value!r}")
    return float(value)


class DisplayLink:
    """Send views to the display without ever blocking the caller."""

    BAUDRATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)

    def __init__(
        self,
        url: str,
        *,
        baudrate: int = 115200,
        ack_timeout: float = 0.05,
        retry_interval: float = 0.25,
        keepalive: float = 1.0,
        tries_before_report: int = 3,
        write_timeout: float = 1.0,
        layout: LayoutConfig | None = None,
        clock: Callable[[], float] = time.monotonic,
        opener: Callable[..., Any] = serial.serial_for_url,
    ) -> None:
        if not isinstance(url, str) or not url:
            raise LinkSettingsError(f"display link url: expected a device path or a pyserial URL, got {url!r}")
        if baudrate not in self.BAUDRATES:
            raise LinkSettingsError(f"display link baudrate: {baudrate!r} is not one of {list(self.BAUDRATES)}")
        self.url = url
        self.baudrate = baudrate
        self.ack_timeout = _positive("ack_timeout", ack_timeout, 0.001, 10.0)
        self.retry_interval = _positive("retry_interval", retry_interval, 0.001, 60.0)
        self.keepalive = _positive("keepalive", keepalive, 0.01, 3600.0)
        self.write_timeout = _positive("write_timeout", write_timeout, 0.01, 60.0)
        if isinstance(tries_before_report, bool) or not isinstance(tries_before_report, int) or not 1 <= tries_before_report <= 100:
            raise LinkSettingsError(
                f"display link tries_before_report: expected an integer in 1..100, got {tries_before_report!r}"
            )
        self.tries_before_report = tries_before_report
        self.layout = layout or LayoutConfig()
        self._clock = clock
        self._opener = opener

        self._mailbox_lock = threading.Lock()
        self._latest: Show | None = None
        self._latest_at: float | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._cond = threading.Condition()
        self._status: dict[str, Any] = {
            "url": url,
            "connected": False,
            "responding": False,
            "last_error": None,
            "frames_sent": 0,
            "resends": 0,
            "acks": 0,
            "naks": 0,
            "disconnects": 0,
            "connects": 0,
            "garbage_bytes": 0,
            "bad_crc": 0,
            "firmware_version": None,
            "shown": None,
            "last_ack_latency_ms": None,
        }
        self._port: Any = None
        self._decoder = Decoder()
        self._skipped_before = self._bad_crc_before = 0
        self._seq = 0
        self._thread = threading.Thread(target=self._run, name=f"DisplayLink({url})", daemon=True)
        self._thread.start()

    # -- the caller's side: never blocks ---------------------------------
    def show(self, view: Mapping[str, Any]) -> None:
        """Put the newest view in the mailbox (raises LayoutError for a bad view)."""
        message = Show.from_fields(DisplayFields.from_view(view, self.layout))
        with self._mailbox_lock:
            self._latest = message
            self._latest_at = self._clock()
        self._wake.set()

    def status(self) -> dict[str, Any]:
        """A copy of the link's state: connected, responding, last_error, counters."""
        with self._cond:
            return dict(self._status)

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float) -> bool:
        """Wait until ``predicate(status())`` holds (tests, the runtime's health check)."""
        with self._cond:
            return self._cond.wait_for(lambda: predicate(dict(self._status)), timeout)

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=max(5.0, 3 * self.write_timeout))
        self._drop_port()

    def __enter__(self) -> "DisplayLink":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the thread ----------------------------------------------------------
    def _update(self, **changes: Any) -> None:
        with self._cond:
            self._status.update(changes)
            self._cond.notify_all()

    def _drop_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except Exception:  # closing a vanished device may fail; it is gone either way
                pass

    def _connect(self) -> bool:
        try:
            port = self._opener(self.url, baudrate=self.baudrate, timeout=0.005, write_timeout=self.write_timeout)
        except OPEN_ERRORS as exc:
            self._update(connected=False, responding=False, last_error=f"cannot open {self.url}: {exc}")
            return False
        self._port = port
        # counters stay cumulative across reconnections
        self._skipped_before += self._decoder.skipped
        self._bad_crc_before += self._decoder.bad_crc
        self._decoder = Decoder()
        try:
            port.reset_input_buffer()
        except PORT_ERRORS as exc:
            self._fail(exc)
            return False
        with self._cond:
            self._status["connected"] = True
            self._status["connects"] += 1
            self._cond.notify_all()
        return True

    def _fail(self, exc: BaseException) -> None:
        self._drop_port()
        with self._cond:
            was = self._status["connected"]
            self._status.update(connected=False, responding=False, last_error=f"{self.url}: {exc}")
            if was:
                self._status["disconnects"] += 1
            self._cond.notify_all()

    def _run(self) -> None:
        acked: Show | None = None  # what the display is known to show
        acked_at = 0.0
        unanswered = 0
        in_flight: tuple[Show, int] | None = None  # a resend keeps its sequence number
        while not self._stop.is_set():
            if self._port is None:
                if not self._connect():
                    self._stop.wait(self.retry_interval)
                    continue
                acked, in_flight, unanswered = None, None, 0  # a display that comes back starts blank
            # clear before reading the mailbox: a show() from now on wakes the waits below
            self._wake.clear()
            with self._mailbox_lock:
                latest = self._latest
            now = self._clock()
            due = latest is not None and (latest != acked or now - acked_at >= self.keepalive)
            if not due:
                if latest is None:
                    self._wake.wait(self.keepalive)
                    if self._latest is None and not self._stop.is_set() and self._port is not None:
                        self._ping()
                else:
                    self._wake.wait(max(0.0, self.keepalive - (now - acked_at)))
                continue
            assert latest is not None
            resend = in_flight is not None and in_flight[0] == latest
            if resend:
                assert in_flight is not None
                seq = in_flight[1]
            else:
                seq = self._next_seq()
                in_flight = (latest, seq)
            try:
                ok = self._send(latest, seq, resend=resend)
            except PORT_ERRORS as exc:
                self._fail(exc)
                continue
            if ok:
                acked, acked_at, unanswered, in_flight = latest, self._clock(), 0, None
                self._update(responding=True, shown=_show_dict(latest))
            else:
                unanswered += 1
                if unanswered >= self.tries_before_report:
                    self._update(responding=False, last_error=f"{self.url}: no answer to {unanswered} frames")
                    # back off, but wake at once for a newer view (even one that came during _send)
                    self._wake.wait(self.retry_interval)

    def _next_seq(self) -> int:
        self._seq = (self._seq + 1) & 0xFF
        return self._seq

    def _ping(self) -> None:
        try:
            ok = self._send(Ping(), self._next_seq(), resend=False)
        except PORT_ERRORS as exc:
            self._fail(exc)
            return
        self._update(responding=ok)

    def _send(self, message: Show | Ping, seq: int, *, resend: bool) -> bool:
        """Write one frame and wait for its ACK; True when acknowledged."""
        port = self._port
        port.write(encode_frame(seq, message))
        sent_at = self._clock()
        with self._cond:
            self._status["frames_sent"] += 1
            if resend:
                self._status["resends"] += 1
            self._cond.notify_all()
        deadline = sent_at + self.ack_timeout
        while not self._stop.is_set():
            data = port.read(1)
            if data:
                waiting = port.in_waiting
                if waiting:
                    data += port.read(waiting)
                for frame in self._decoder.feed(data):
                    if frame.seq != seq:
                        continue  # a late answer to an older frame
                    if isinstance(frame.message, Ack):
                        self._update_counts(acks=1, latency=self._clock() - sent_at, version=frame.message.firmware_version)
                        return True
                    if isinstance(frame.message, Nak):
                        self._update_counts(naks=1)
                        return False
                self._update_counts()
            if self._clock() >= deadline:
                return False
        return False

    def _update_counts(self, acks: int = 0, naks: int = 0, latency: float | None = None, version: int | None = None) -> None:
        with self._cond:
            s = self._status
            s["acks"] += acks
            s["naks"] += naks
            s["garbage_bytes"] = self._skipped_before + self._decoder.skipped
            s["bad_crc"] = self._bad_crc_before + self._decoder.bad_crc
            if latency is not None:
                s["last_ack_latency_ms"] = round(latency * 1000, 3)
            if version is not None:
                s["firmware_version"] = version
            self._cond.notify_all()


def _show_dict(show: Show) -> dict[str, Any]:
    return {
        "clock": show.clock,
        "shot_clock": show.shot_clock,
        "home_score": show.home_score,
        "away_score": show.away_score,
        "home_fouls": show.home_fouls,
        "away_fouls": show.away_fouls,
        "period": show.period,
        "horn": show.horn,
    }
