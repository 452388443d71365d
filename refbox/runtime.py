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
from typing import Any, Callable, Mapping

from .config import Config
from .journal import Journal
from .notify import Notifier, Watchdog
from .table import Table

log = logging.getLogger("refbox")

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_DICE = ROOT / "samples" / "dice"
SAMPLE_DOMINOES = ROOT / "samples" / "dominoes"


Health = dict[str, dict[str, Any]]


def _gpio(pin: Any) -> str:
    return f"GPIO{pin}" if isinstance(pin, int) else str(pin)


class Devices:
    """What the composition root started; ``close`` stops all of it; ``health`` says
    how each of them is doing."""

    #: a button down longer than this is reported as stuck (seconds)
    STUCK_AFTER = 30.0

    def __init__(self, table: Table | None = None) -> None:
        self.closers: list[Callable[[], None]] = []
        self.status: dict[str, dict[str, Any]] = {}
        self.table = table  # for the outputs' feeder status and the journal's health
        self.keypad: Any = None
        self.presser: KeypadPresser | None = None
        self.sim_display: Any = None
        self.display: Any = None  # firmware_bridge.link.DisplayLink
        self.camera: Any = None  # refbox.camera.CameraWorker
        self.horn: Any = None
        self.led: Any = None
        self.club: Any = None  # the club publisher, when one is started (refbox.club)
        self.web_address: tuple[str, int] | None = None  # where the web server listens
        self.stuck_after = self.STUCK_AFTER
        self._health_lock = threading.Lock()
        self._last_ok: dict[str, bool] = {}
        self._closing = False

    # --- health -----------------------------------------------------------------------

    def _output(self, name: str) -> dict[str, Any]:
        st = self.table.output_status(name) if self.table is not None else None
        return st or {}

    def _display_health(self) -> dict[str, Any]:
        st = self.display.status()
        out = self._output("serial-display")
        # starting up (no answer yet, no error yet) is not a fault; after an error, only an answer is
        ok = bool(st["connected"] and st["responding"] or st["last_error"] is None) and not out.get("last_error")
        if ok and st["responding"]:
            detail = f"{st['url']}: connected, responding"
        elif ok:
            detail = f"{st['url']}: starting"
        elif out.get("last_error"):
            detail = f"cannot show the view: {out['last_error']}"
        elif st["last_error"]:
            detail = str(st["last_error"])
        else:
            detail = f"{st['url']}: " + ("connected, not answering yet" if st["connected"] else "not connected yet")
        return {"ok": ok, "detail": detail, **st, "output": out}

    def _camera_health(self) -> dict[str, Any]:
        st = dict(self.camera.status)
        ok = bool(st["connected"]) or st["last_error"] is None  # still opening is not a fault
        if st["last_error"]:
            detail = f"{st['last_error']} (retrying; enter rolls by hand)"
        elif st["reading_error"]:
            detail = f"a picture could not be read: {st['reading_error']} ({st['unreadable']} so far; going on with the next picture, enter rolls by hand meanwhile)"
        else:
            speed = f", {st['read_ms']:g} ms a picture" if st.get("read_ms") is not None else ""
            detail = f"connected, {st['readings']} readings{speed}" if st["connected"] else "opening"
        return {"ok": ok and not st["last_error"] and not st["reading_error"], "detail": detail, **st}

    def _keypad_health(self) -> dict[str, Any]:
        held = self.keypad.held()
        stuck = [h for h in held if h.seconds >= self.stuck_after]
        if stuck:
            detail = "; ".join(f"button {h.name} on {_gpio(h.pin)} has been held for {int(h.seconds)} s (stuck?)"
                               for h in stuck)
        else:
            detail = f"{len(self.keypad.names)} buttons, none stuck"
        return {"ok": not stuck, "detail": detail,
                "held": [{"name": h.name, "pin": h.pin, "seconds": round(h.seconds, 1)} for h in held]}

    def _output_health(self, name: str, what: str) -> dict[str, Any]:
        out = self._output(name)
        err = out.get("last_error")
        detail = f"{what}: the last view failed: {err}" if err else f"{what}: {out.get('shown', 0)} views shown"
        return {"ok": not err, "detail": detail, **out}

    def _journal_health(self) -> dict[str, Any]:
        assert self.table is not None
        damage = list(self.table.damage)
        if damage:
            detail = "; ".join(f"damaged journal tail cut at start-up: game {d['game']} from event {d['seq']} "
                               f"({d['reason']}, {d['rows']} row(s) not applied)" for d in damage)
        else:
            detail = f"{self.table.session.applied} events in game {self.table.game_id}"
        return {"ok": not damage, "detail": detail, "damage": damage}

    def health(self) -> Health:
        """``{device: {"ok": bool, "detail": str, ...}}`` for every started device. A
        change is logged once: WARNING when a device goes bad, INFO when it recovers."""
        checks: list[tuple[str, Callable[[], dict[str, Any]]]] = []
        if self.display is not None:
            checks.append(("serial-display", self._display_health))
        if self.camera is not None:
            checks.append(("camera", self._camera_health))
        if self.keypad is not None:
            checks.append(("keypad", self._keypad_health))
        if self.horn is not None:
            checks.append(("horn", lambda: {**self._output_health("horn", f"relay on {self.horn.pin}"),
                                            "on": bool(self.horn.is_on)}))
        if self.led is not None:
            checks.append(("led", lambda: self._output_health("led", f"{self.led.config.backend}, {self.led.config.digits} digits")))
        if self.table is not None:
            checks.append(("journal", self._journal_health))
        if self.club is not None:  # ClubPublisher.status() has "ok" and "detail" already
            checks.append(("club", lambda: dict(self.club.status())))
        report: Health = {}
        for name, check in checks:
            try:
                report[name] = check()
            except Exception as exc:  # a health check must not fail the page or the loop
                report[name] = {"ok": False, "detail": f"health check failed: {type(exc).__name__}: {exc}"}
        with self._health_lock:
            for name, h in report.items():
                was = self._last_ok.get(name)
                if h["ok"] != was:
                    self._last_ok[name] = h["ok"]
                    if not h["ok"]:
                        log.warning("device %s: %s", name, h["detail"])
                    elif was is not None:
                        log.info("device %s recovered: %s", name, h["detail"])
        return report

    def watch(self, table: Table, every: float = 1.0) -> None:
        """Check the health from the table's loop every ``every`` seconds, so changes are
        logged even while nobody looks at the page."""
        due = [0.0]

        def hook() -> None:
            now = time.monotonic()
            if now >= due[0] and not self._closing:
                due[0] = now + every
                self.health()

        table.tick_hooks.append(hook)

    def close(self) -> None:
        self._closing = True  # the loop's health check leaves closed devices alone
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
        if self.keypad is None or button not in self.keypad.names:
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


def auto_layout(game: Any) -> str:
    """The built-in keypad layout ``auto`` wires for a game."""
    from .camera import takes_tiles

    return "timekeeper" if "start_stop" in game.keypad else "dominoes" if takes_tiles(game) else "dice"


def keypad_layout(cfg: Config, table: Table) -> dict[Any, Any]:
    """BCM pin -> (short, long) names for the configured layout ("auto": the current game's)."""
    from .config import keypad_layouts

    layouts = keypad_layouts(cfg.keypad)
    if len(layouts) > 1:  # auto
        return dict(layouts[auto_layout(table.session.game)])
    return dict(next(iter(layouts.values())))


def _pins_text(pins: Mapping[Any, Any]) -> str:
    """A layout for the log: ``GPIO17=start_stop/next_period, GPIO27=goal_home/-``."""
    return ", ".join(f"GPIO{p}={'/'.join(n or '-' for n in names)}" for p, names in pins.items())


class LayoutFollower:
    """With ``keypad.layout = "auto"``, relabels the keypad when the table's game
    changes (a new game from the control page): every pin of every built-in layout is
    wired at start, the ones the game's layout leaves out stay silent. A table tick
    hook (the loop thread, where new games are made)."""

    def __init__(self, table: Table, keypad: Any, layouts: Mapping[str, Mapping[Any, Any]], current: str) -> None:
        self.table, self.keypad, self.layouts, self.current = table, keypad, layouts, current

    def __call__(self) -> None:
        name = auto_layout(self.table.session.game)
        if name == self.current:
            return
        self.keypad.relabel(self.layouts[name])
        self.current = name
        log.info("keypad (auto): %s layout for %s: %s", name, self.table.session.game.name, _pins_text(self.layouts[name]))


def start_keypad(cfg: Config, table: Table, devices: Devices, factory: Any) -> None:
    if cfg.keypad.layout == "none":
        log.info("keypad: none configured")
        return
    from firmware_bridge.keypad import Keypad

    from .config import keypad_layouts

    layouts = keypad_layouts(cfg.keypad)
    pins = keypad_layout(cfg, table)
    every_pin = {p for layout in layouts.values() for p in layout}
    presser = KeypadPresser(table)
    pad = Keypad(pins, presser.on_press, pin_factory=factory, bounce_time=cfg.keypad.bounce_ms / 1000,
                 hold_time=cfg.keypad.hold_ms / 1000, idle=sorted(every_pin - set(pins)))
    presser.keypad = devices.keypad = pad
    devices.presser = presser
    devices.closers.append(pad.close)
    table.tick_hooks.append(pad.poll)  # long presses are reported while still held
    if len(layouts) > 1:  # auto: the layout follows the game
        table.tick_hooks.append(LayoutFollower(table, pad, layouts, auto_layout(table.session.game)))
    log.info("keypad (%s): %s", cfg.keypad.layout, _pins_text(pins))


def start_horn(cfg: Config, table: Table, devices: Devices, factory: Any) -> None:
    if not cfg.horn.enabled:
        return
    from firmware_bridge.horn import Horn, HornOutput

    horn = Horn(cfg.horn.pin, pin_factory=factory)
    devices.horn = horn
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
    devices.display = link
    devices.closers.append(link.close)
    table.attach("serial-display", link)
    log.info("serial display on %s", url)


def start_led(cfg: Config, table: Table, devices: Devices, factory: Any, sim: bool) -> None:
    from .config import led_config

    config = led_config(cfg.led, sim=sim)
    if config is None:
        log.info("LED scoreboard: none configured")
        return
    from firmware_bridge.led import GpioSegments, LedScoreboard, Max7219Segments

    backend: Any
    if config.backend == "gpio":
        backend = GpioSegments(config, pin_factory=factory)
    elif config.backend == "max7219":
        backend = Max7219Segments(config)
    else:
        backend = None
        if sim:
            log.warning("SIMULATED LED SCOREBOARD: %s digits drawn in the terminal and on the web page", config.digits)
    from .i18n import display_text

    language = cfg.table.language
    board = LedScoreboard(config, backend, translate=lambda text: display_text(text, language))
    devices.led = board
    devices.closers.append(board.close)
    table.attach("led", board)
    log.info("LED scoreboard: %s, %d digits", config.backend, config.digits)


def start_club(cfg: Config, table: Table, devices: Devices, *, reconnect_max: float = 30.0) -> None:
    """Publish the table's views to the club broker (``[club]``; docs/club.md)."""
    if not cfg.club.host:
        log.info("club: off (no club.host configured); this table publishes to no MQTT broker")
        return
    from .club import Broker, ClubPublisher
    from .config import club_table_id

    c = cfg.club
    broker = Broker(c.host, c.port, c.username, c.password, c.tls, c.ca_file, c.keepalive)
    publisher = ClubPublisher(broker, club_table_id(cfg), prefix=c.prefix, homeassistant=c.homeassistant,
                              discovery_prefix=c.discovery_prefix, reconnect_max=reconnect_max)
    devices.club = publisher
    devices.closers.append(publisher.close)
    publisher.start()  # connects in the background: an absent broker never holds the table up
    table.attach("club", publisher)


def load_dice_network(network: str, key: str = "camera.dice_network") -> Any:
    """How a picture is read with the dice network ``network`` (``camera.dice_network``: a name or an
    ONNX file, :func:`vision.dice_model.network_path`, or ``auto``: the reader chooses), as
    :class:`vision.dice.Params` (:func:`vision.dice.params_for`). Each network it reads with is
    loaded once here, so that a name, file or record the reader cannot use is refused at start
    naming the key, the value and the reason. (A camera told ``auto`` chooses from its frames
    instead: :func:`vision.dice.camera_reader`.)"""
    from vision.dice import CHOOSE, params_for
    from vision.dice_model import load_model

    from .config import ConfigError

    try:
        params = params_for(network)
        load_model(params.network)
        if params.other_network is not None:
            load_model(params.other_network)
    except ValueError as exc:
        raise ConfigError(f"{key}: {exc} (or {CHOOSE}: the reader chooses)") from None
    return params


def load_zones(path: str, key: str = "camera.zones") -> Any:
    """The table zones of ``camera.zones`` (a calibration file, vision/zones.py), None when it holds
    none (``{"zones": {}}``: the zones cleared on the control page); a file that cannot be read or
    used is refused naming the key, the file and the reason."""
    import json

    from vision.zones import CalibrationError, Zones

    from .config import ConfigError

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise CalibrationError(f"expected a JSON object, got {type(data).__name__}")
        zones = Zones.from_calibration(data)
    except (OSError, ValueError) as exc:  # CalibrationError and JSON errors are ValueErrors
        raise ConfigError(f"{key}: cannot use {path}: {exc}") from None
    return None if zones.empty else zones


ZONES_FILE = "zones.json"
"""The calibration drawn on the control page, kept beside the journal when ``camera.zones`` names no file."""


def beside_journal(journal_path: str, name: str) -> str | None:
    """The file ``name`` in the journal's folder, as an absolute path: where a setting the operator makes on the
    control page is kept; None for a journal in memory (nowhere to keep one).

    >>> beside_journal("/var/lib/refbox/journal.sqlite3", "camera-paused"), beside_journal(":memory:", "camera-paused")
    ('/var/lib/refbox/camera-paused', None)
    """
    return None if journal_path == ":memory:" else str(Path(journal_path).absolute().parent / name)


def zones_file(cfg: Config, journal_path: str) -> str | None:
    """The calibration file of this table: ``camera.zones``, or else :data:`ZONES_FILE` beside the journal
    (None for a journal in memory: nowhere to keep one).

    >>> from refbox.config import from_dict
    >>> zones_file(from_dict({}), "/var/lib/refbox/journal.sqlite3"), zones_file(from_dict({}), ":memory:")
    ('/var/lib/refbox/zones.json', None)
    >>> zones_file(from_dict({"camera": {"zones": "/etc/refbox/zones.json"}}), ":memory:")
    '/etc/refbox/zones.json'
    """
    if cfg.camera.zones:
        return cfg.camera.zones
    return beside_journal(journal_path, ZONES_FILE)


PAUSE_FILE = "camera-paused"
"""There, beside the journal, while the operator has paused the camera (``CameraWorker.pause``): a restarted table
starts with its camera paused as it was. A journal in memory keeps no pause."""


def start_camera(cfg: Config, table: Table, devices: Devices, sim: bool) -> None:
    from .camera import CameraWorker, open_source, takes_tiles

    kept_in = zones_file(cfg, table.journal.path)
    # camera.zones must be readable; the file beside the journal is there once a calibration is drawn on the control page
    zones = load_zones(kept_in) if kept_in and (cfg.camera.zones or Path(kept_in).is_file()) else None
    load_dice_network(cfg.camera.dice_network)  # (refused here, naming the key, when it cannot be used)
    source_spec = cfg.camera.source
    if sim and not source_spec.startswith("folder:"):
        folder = SAMPLE_DOMINOES if takes_tiles(table.session.game) else SAMPLE_DICE
        source_spec = f"folder:{folder}"
        log.warning("SIMULATED CAMERA: replaying the sample photos in %s (camera.source %r is not used in --sim)",
                    folder, cfg.camera.source)
    if source_spec == "none":
        log.info("camera: none configured (enter rolls by hand)")
        return
    interval = cfg.camera.interval_ms / 1000
    hold = max(1, round(3.0 / interval))  # a replayed photo stays on the table for 3 s
    worker = CameraWorker(lambda: open_source(source_spec, hold_frames=hold), table, interval=interval, zones=zones,
                          dice_network=cfg.camera.dice_network, dice_confidence=cfg.camera.dice_confidence, zones_file=kept_in,
                          pause_file=beside_journal(table.journal.path, PAUSE_FILE))
    devices.camera = worker
    devices.closers.append(worker.stop)
    worker.start()
    log.info("camera: %s, dice network %s, a throw taken with every die read at %s or surer", source_spec, cfg.camera.dice_network,
             cfg.camera.dice_confidence)


def session_key(journal_path: str) -> str | None:
    """The key that signs control-panel logins, kept beside the journal (mode 0600) so a
    restart or a power cut does not log the operator out; None for an in-memory journal.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> k = session_key(os.path.join(d, "j.sqlite3"))
    >>> k == session_key(os.path.join(d, "j.sqlite3")), len(k), oct(os.stat(os.path.join(d, "web-session.key")).st_mode & 0o777)
    (True, 64, '0o600')
    """
    if journal_path == ":memory:":
        return None
    import secrets

    path = Path(journal_path).parent / "web-session.key"
    try:
        key = path.read_text(encoding="ascii").strip()
        if len(key) >= 32:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key + "\n")
    return key


def start_web(cfg: Config, table: Table, devices: Devices, port: int | None, sim: bool = False) -> threading.Thread:
    from werkzeug.serving import make_server

    from web import create_app

    pin = cfg.web.pin
    if sim and not pin:
        import secrets

        pin = f"{secrets.randbelow(10**6):06d}"
        log.warning("SIMULATION: no web.pin configured; the control PIN for this run is %s", pin)
    app = create_app(table, {"CONTROL_PIN": pin, "TABLE_NAME": cfg.table.name, "LANGUAGE": cfg.table.language,
                             "SECRET_KEY": session_key(table.journal.path)})
    if devices.presser is not None:
        app.extensions["refbox.press"] = devices.presser
    app.extensions["refbox.health"] = devices.health  # GET /api/health
    app.extensions["refbox.camera"] = devices.camera  # GET /api/camera (None: no camera)
    server = make_server(cfg.web.host, cfg.web.port if port is None else port, app, threaded=True)
    devices.web_address = (str(server.server_address[0]), int(server.server_address[1]))
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
    devices = Devices(table)
    stop = threading.Event()
    try:
        factory = _pin_factory(sim)
        start_keypad(cfg, table, devices, factory)
        start_horn(cfg, table, devices, factory)
        start_display(cfg, table, devices, sim)
        start_led(cfg, table, devices, factory, sim)
        start_club(cfg, table, devices)
        table.start()
        start_camera(cfg, table, devices, sim)
        start_web(cfg, table, devices, port, sim)
        devices.watch(table)
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        if sim:
            from .terminal import TerminalUI

            ui = TerminalUI(table, devices, keyboard=keyboard and sys.stdin.isatty(), lang=cfg.table.language)
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


def run_club(broker: Any, *, prefix: str, host: str, port: int, ready: Callable[[int], None] | None = None) -> int:
    """The club dashboard alone (a club PC): watch every table on ``broker``, serve
    ``/club`` on ``host:port`` until SIGINT/SIGTERM."""
    from werkzeug.serving import make_server

    from web import create_app

    from .club import ClubWatcher

    watcher = ClubWatcher(broker, prefix=prefix).start()
    stop = threading.Event()
    try:
        app = create_app(None, {"CLUB_WATCHER": watcher})
        server = make_server(host, port, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, name="web", daemon=True)
        thread.start()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        log.info("club dashboard on http://%s:%d/club (tables under %s/ on %s)", host, server.server_port, prefix, broker.where())
        print(f"refbox club: ready on http://{host}:{server.server_port}/club", flush=True)
        if ready is not None:
            ready(server.server_port)
        stop.wait()
        server.shutdown()
    finally:
        watcher.close()
    log.info("stopped")
    return 0
