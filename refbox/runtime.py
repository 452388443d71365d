"""Wiring: real or simulated devices around one Table. The only place that knows both.

Simulation swaps the fakes in here and nowhere else, and says so loudly in the log.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Callable

from .config import Config
from .journal import Journal
from .notify import Notifier, Watchdog
from .table import Table

log = logging.getLogger("refbox")

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_DICE = ROOT / "samples" / "dice"


class Devices:
    """What the composition root started; ``close`` stops all of it."""

    def __init__(self) -> None:
        self.closers: list[Callable[[], None]] = []
        self.status: dict[str, dict[str, Any]] = {}
        self.keypad: Any = None
        self.presser: KeypadPresser | None = None
        self.sim_display: Any = None

    def close(self) -> None:
        for close in reversed(self.closers):
            try:
                close()
            except Exception:  # closing must go on for the others
                log.exception("error while closing a device")


class KeypadPresser:
    """Connects keypad presses to the table, and lets the web page and the terminal
    press a simulated button through its mock pin, as a finger would."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.keypad: Any = None
        self._last: dict[str, Future[Any]] = {}
        self._lock = threading.Lock()

    def on_press(self, name: str) -> None:
        fut = self.table.press(name, "button")
        with self._lock:
            self._last[name] = fut

    def __call__(self, button: str) -> "Future[Any]":
        if self.keypad is None or button not in self.keypad.buttons:
            return self.table.press(button, "web")
        with self._lock:
            self._last.pop(button, None)
        self.keypad.press(button)
        with self._lock:
            fut = self._last.pop(button, None)
        if fut is None:
            fut = Future()
            fut.set_exception(RuntimeError(f"button {button} was pressed but the keypad did not report it"))
        return fut


def _pin_factory(sim: bool) -> Any:
    if sim:
        from gpiozero.pins.mock import MockFactory

        log.warning("SIMULATED GPIO: buttons and horn are gpiozero MockFactory pins (press them from the keyboard or the web page)")
        return MockFactory()
    from gpiozero import Device

    try:
        return Device._default_pin_factory()
    except Exception as exc:
        raise SystemExit(f"refbox run: no GPIO pin library works here ({exc}); use --sim to simulate the devices") from None


def start_keypad(cfg: Config, table: Table, devices: Devices, factory: Any) -> None:
    if not cfg.keypad.pins:
        log.info("keypad: none configured")
        return
    from firmware_bridge.keypad import Keypad

    presser = KeypadPresser(table)
    bounce = cfg.keypad.bounce_ms / 1000 if cfg.keypad.bounce_ms else None
    pad = Keypad(dict(cfg.keypad.pins), presser.on_press, pin_factory=factory, bounce_time=bounce)
    presser.keypad = devices.keypad = pad
    devices.presser = presser
    devices.closers.append(pad.close)
    log.info("keypad: %s", ", ".join(f"{n}=GPIO{p}" for n, p in cfg.keypad.pins.items()))


def start_horn(cfg: Config, table: Table, devices: Devices, factory: Any) -> None:
    if not cfg.horn.enabled:
        return
    from firmware_bridge.horn import Horn, HornOutput

    horn = Horn(cfg.horn.pin, pin_factory=factory)
    devices.closers.append(horn.close)
    table.attach("horn", HornOutput(horn))
    log.info("horn relay on GPIO%d", cfg.horn.pin)


def start_display(cfg: Config, table: Table, devices: Devices, sim: bool) -> None:
    url = cfg.display.url
    if sim and not url:
        from firmware_bridge.emulator import SimDisplay

        sim_display = SimDisplay()
        devices.sim_display = sim_display
        devices.closers.append(sim_display.close)
        url = sim_display.url
        log.warning("SIMULATED DISPLAY: the serial display is emulated on pseudo-terminal %s", url)
    if not url:
        log.info("serial display: none configured")
        return
    from firmware_bridge.link import DisplayLink

    link = DisplayLink(url, baudrate=cfg.display.baudrate)
    devices.closers.append(link.close)
    table.attach("serial-display", link)
    log.info("serial display on %s", url)


def start_camera(cfg: Config, table: Table, devices: Devices, sim: bool) -> None:
    source_spec = cfg.camera.source
    if sim and source_spec == "none":
        source_spec = f"folder:{SAMPLE_DICE}"
        log.warning("SIMULATED CAMERA: replaying the sample photos in %s", SAMPLE_DICE)
    if source_spec == "none":
        log.info("camera: none configured (enter rolls by hand)")
        return
    from .camera import CameraWorker, open_source

    worker = CameraWorker(lambda: open_source(source_spec), table, interval=cfg.camera.interval_ms / 1000)
    devices.closers.append(worker.stop)
    worker.start()
    log.info("camera: %s", source_spec)


def start_web(cfg: Config, table: Table, devices: Devices, port: int | None) -> threading.Thread:
    from werkzeug.serving import make_server

    from web import create_app

    app = create_app(table, {"CONTROL_PIN": cfg.web.pin, "TABLE_NAME": cfg.table.name})
    if devices.presser is not None:
        app.extensions["refbox.press"] = devices.presser
    server = make_server(cfg.web.host, port or cfg.web.port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="web", daemon=True)
    thread.start()
    devices.closers.append(server.shutdown)
    log.info("web page on http://%s:%d", cfg.web.host, server.server_port)
    return thread


def run(cfg: Config, *, sim: bool, journal_path: str | None = None, port: int | None = None, keyboard: bool = True) -> int:
    """Run the table until SIGINT/SIGTERM. Returns the exit status."""
    path = journal_path or cfg.journal.path
    journal = Journal(path, synchronous=cfg.journal.synchronous)
    header = {"game": cfg.table.game, "players": list(cfg.table.players), "options": dict(cfg.table.options)}
    t0 = time.monotonic()
    table = Table(journal, header)
    log.info("journal %s: game %d (%s), %d events, ready in %.3f s",
             path, table.game_id, table.session.game.name, table.session.applied, time.monotonic() - t0)
    devices = Devices()
    stop = threading.Event()
    try:
        factory = _pin_factory(sim)
        start_keypad(cfg, table, devices, factory)
        start_horn(cfg, table, devices, factory)
        start_display(cfg, table, devices, sim)
        table.start()
        start_camera(cfg, table, devices, sim)
        start_web(cfg, table, devices, port)
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        if sim:
            from .terminal import TerminalUI

            ui = TerminalUI(table, devices, keyboard=keyboard and sys.stdin.isatty())
            devices.closers.append(ui.stop)
            ui.start()
        notifier = Notifier(os.environ)
        if notifier.active and notifier.watchdog_seconds:
            dog = Watchdog(notifier, lambda: table.ticks)
            devices.closers.append(dog.stop)
            dog.start()
        notifier.ready(f"{table.session.game.name}: {table.session.applied} events")
        print("refbox: ready", flush=True)
        stop.wait()
        notifier.stopping()
    finally:
        devices.close()
        table.stop()
        journal.close()
    log.info("stopped")
    return 0
