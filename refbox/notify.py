"""systemd notification (sd_notify) and the watchdog, with no extra dependency.

``READY=1`` is sent once the journal is replayed and the devices are up;
``WATCHDOG=1`` only while the table loop is still turning, so a hung loop is
restarted by systemd (``WatchdogSec=``).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from typing import Callable, Mapping

log = logging.getLogger(__name__)


class Notifier:
    """Sends datagrams to ``$NOTIFY_SOCKET``; does nothing when not run by systemd."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self.address = environ.get("NOTIFY_SOCKET", "")
        usec = environ.get("WATCHDOG_USEC", "")
        self.watchdog_seconds = int(usec) / 1_000_000 if usec.isdigit() else 0.0

    @property
    def active(self) -> bool:
        return bool(self.address)

    def send(self, message: str) -> bool:
        if not self.address:
            return False
        addr = self.address
        if addr.startswith("@"):  # abstract namespace
            addr = "\0" + addr[1:]
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.connect(addr)
                sock.sendall(message.encode())
            return True
        except OSError as exc:
            log.error("sd_notify to %s failed: %s", self.address, exc)
            return False

    def ready(self, status: str = "") -> None:
        self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def status(self, status: str) -> None:
        self.send(f"STATUS={status}")

    def stopping(self) -> None:
        self.send("STOPPING=1")


class Watchdog(threading.Thread):
    """Pings systemd at half the watchdog interval while ``progress()`` keeps changing."""

    def __init__(self, notifier: Notifier, progress: Callable[[], int]) -> None:
        super().__init__(name="watchdog", daemon=True)
        self.notifier, self.progress = notifier, progress
        self._halt = threading.Event()
        self.pings = 0

    def run(self) -> None:
        interval = self.notifier.watchdog_seconds / 2
        last = self.progress()
        while not self._halt.wait(interval):
            now = self.progress()
            if now != last:
                self.notifier.send("WATCHDOG=1")
                self.pings += 1
            else:
                log.error("the table loop has not turned for %.1f s; withholding the watchdog ping", interval)
            last = now

    def stop(self) -> None:
        self._halt.set()
