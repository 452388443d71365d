"""Device faults with real parts: the display unplugged from a real pseudo-terminal,
garbage on the line, the camera's folder deleted under it, a button stuck down on a
gpiozero mock pin. Each is reported by ``Devices.health()`` (and logged once), and the
table keeps scoring meanwhile."""

from __future__ import annotations

import logging
import os
import re
import shutil
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.emulator import SimDisplay
from refbox.camera import CameraWorker, open_source
from refbox.config import from_dict
from refbox.journal import Journal
from refbox.runtime import Devices, start_display, start_horn, start_keypad, start_led, start_web
from refbox.table import Table
from tests.support import StillCamera, wait_until

ROOT = Path(__file__).resolve().parents[2]
FUTSAL = {"game": "futsal", "players": ["Home", "Away"]}
PIG = {"game": "pig", "players": ["Ann", "Bob"], "options": {"target": 1000}}




@pytest.fixture
def rig(tmp_path):
    made = []

    def make(header, cfg_data=None):
        table = Table(Journal(tmp_path / f"j{len(made)}.sqlite3"), header, tick=0.02)
        dev = Devices(table)
        made.append((table, dev))
        return from_dict(cfg_data or {}), table, dev

    yield make
    for table, dev in made:
        dev.close()
        table.stop()


def goal(table, team="home"):
    return table.submit({"type": "goal", "team": team}, "web").result(5)


def scoring_to(sim, rig):
    """A futsal table wired to the simulated serial display ``sim``, one home goal scored."""
    cfg, table, dev = rig(FUTSAL, {"display": {"url": sim.url}})
    start_display(cfg, table, dev, sim=False)
    table.start()
    assert goal(table).accepted
    return table, dev


def test_display_unplugged_and_replugged(tmp_path, rig, caplog):
    caplog.set_level(logging.INFO, logger="refbox")
    sim = SimDisplay(link_path=tmp_path / "refbox-display")
    try:
        table, dev = scoring_to(sim, rig)
        assert wait_until(lambda: dev.health()["serial-display"]["ok"]), dev.health()
        assert sim.wait_for(lambda s: s["home"] == "1", 5)

        sim.unplug()
        assert not (tmp_path / "refbox-display").exists()
        assert goal(table).accepted  # the table scores on while the display is away
        assert wait_until(lambda: not dev.health()["serial-display"]["ok"])
        bad = dev.health()["serial-display"]
        assert bad["connected"] is False and "refbox-display" in bad["detail"], bad
        assert goal(table).accepted and goal(table, "away").accepted
        assert table.view.data["home"]["score"] == 3

        sim.replug()
        assert wait_until(lambda: dev.health()["serial-display"]["ok"]), dev.health()
        # the display came back blank and shows the latest view, not the one before the cut
        assert sim.wait_for(lambda s: s["home"] == "3" and s["away"] == "1", 5), sim.snapshot()
        status = dev.health()["serial-display"]
        assert status["disconnects"] >= 1 and status["connects"] >= 2
    finally:
        sim.close()
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and "device serial-display" in r.getMessage()]
    recoveries = [r for r in caplog.records if "device serial-display recovered" in r.getMessage()]
    assert len(warnings) == 1 and len(recoveries) == 1, [r.getMessage() for r in caplog.records]


def test_garbage_and_corruption_on_the_line_are_resynced_and_counted(tmp_path, rig):
    sim = SimDisplay(link_path=tmp_path / "refbox-display")
    try:
        table, dev = scoring_to(sim, rig)
        assert sim.wait_for(lambda s: s["home"] == "1", 5)
        # line noise towards the bridge: raw garbage (with stray start bytes) into the pty
        os.write(sim._master, b"\xa5\x12\x00\x01noise\xa5\xa5\x00\xff" * 8)
        # and one frame towards the display with a flipped bit
        flipped = []

        def corrupt_once(data: bytes) -> bytes:
            if not flipped and len(data) > 8:
                flipped.append(data)
                return data[:6] + bytes([data[6] ^ 0x10]) + data[7:]
            return data

        sim.inbound_filter = corrupt_once
        assert goal(table).accepted
        assert sim.wait_for(lambda s: s["home"] == "2", 5), sim.snapshot()
        assert flipped and sim.snapshot()["bad_crc"] >= 1
        assert wait_until(lambda: dev.health()["serial-display"]["garbage_bytes"] >= 40)
        h = dev.health()["serial-display"]
        # the corrupted frame is never acknowledged: it is sent again, or, when a newer view is due
        # first (the link sends the latest view; a loaded machine can let one come in between), that
        # view takes its place; either way the display shows the goal (above) and the loss is counted
        assert h["ok"] and h["frames_sent"] > h["acks"], h
        assert goal(table, "away").accepted
        assert sim.wait_for(lambda s: s["away"] == "1", 5)
    finally:
        sim.close()


def test_camera_folder_deleted_is_reported_retried_and_manual_rolls_go_on(tmp_path, rig, caplog):
    caplog.set_level(logging.INFO, logger="refbox")
    photos = tmp_path / "photos"
    photos.mkdir()
    for name in ("face-3.jpg", "face-5.jpg"):
        shutil.copy(ROOT / "samples" / "dice" / name, photos / name)
    cfg, table, dev = rig(PIG)
    table.start()
    worker = CameraWorker(lambda: open_source(f"folder:{photos}", hold_frames=2), table, interval=0.01)
    dev.camera = worker
    dev.closers.append(worker.stop)
    worker.start()
    assert wait_until(lambda: dev.health()["camera"]["connected"])
    assert dev.health()["camera"]["ok"] and dev.health()["camera"]["detail"].startswith("connected")
    assert wait_until(lambda: re.fullmatch(r"connected, \d+ readings, [\d.]+ ms a picture", dev.health()["camera"]["detail"]))
    assert 0 < dev.health()["camera"]["read_ms"] < 10_000 and table.view.data.get("camera_hold") is None

    shutil.rmtree(photos)  # the camera goes away
    assert wait_until(lambda: not dev.health()["camera"]["ok"])
    bad = dev.health()["camera"]
    assert "photos" in bad["detail"] and "retrying" in bad["detail"], bad
    assert wait_until(lambda: table.view.data.get("camera_hold") == "lost")  # (the players are told to enter throws by hand)
    before = table.session.applied
    assert table.submit({"type": "roll", "dice": [4]}, "web").result(5).accepted  # by hand meanwhile
    assert table.session.applied == before + 1

    photos.mkdir()  # plugged back in: the worker's retry finds it
    shutil.copy(ROOT / "samples" / "dice" / "face-4.jpg", photos / "face-4.jpg")
    assert wait_until(lambda: dev.health()["camera"]["ok"], timeout=15), dev.health()
    assert "device camera recovered" in caplog.text


class Switchable:
    """A camera that gives a picture no reader can read (grey, 48×64) while ``bad`` is set, else a
    photo of a die, thrown (three frames of it in shadow first: tests.support.StillCamera)."""

    def __init__(self, bad: threading.Event) -> None:
        self.bad = bad
        self.good = StillCamera(cv2.imread(str(ROOT / "samples" / "dice" / "face-3.jpg")), thrown=3)
        self.grey = np.zeros((48, 64), np.uint8)

    def read(self):
        return self.grey if self.bad.is_set() else self.good.read()

    def close(self) -> None:
        pass


def test_a_picture_the_readers_cannot_read_is_reported_and_the_camera_goes_on(rig, caplog):
    caplog.set_level(logging.INFO, logger="refbox")
    cfg, table, dev = rig(PIG)
    table.start()
    bad = threading.Event()
    bad.set()
    worker = CameraWorker(lambda: Switchable(bad), table, interval=0.01)
    dev.camera = worker
    dev.closers.append(worker.stop)
    worker.start()
    assert wait_until(lambda: worker.status["unreadable"] >= 3)
    health = dev.health()["camera"]
    assert not health["ok"], health
    assert health["detail"].startswith("a picture could not be read: expected a colour picture of 8-bit values, "
                                       "(height, width, 3), got shape (48, 64), uint8 ("), health
    assert worker.status["reading_error"] == "expected a colour picture of 8-bit values, (height, width, 3), got shape (48, 64), uint8"
    assert "so far; going on with the next picture" in health["detail"]
    assert worker.is_alive() and worker.status["connected"] and worker.status["last_error"] is None
    # logged once for the run of failures alike
    assert len([r for r in caplog.records if r.name == "refbox.camera" and "could not be read" in r.getMessage()]) == 1
    assert table.submit({"type": "roll", "dice": [4]}, "web").result(5).accepted  # by hand meanwhile

    bad.clear()  # pictures again: read, and the roll of the photo's three reaches the table
    assert wait_until(lambda: worker.status["last"] is not None, timeout=15), worker.status
    assert dev.health()["camera"]["ok"] and worker.status["reading_error"] is None
    assert worker.status["last"]["seen"] == [3] and worker.status["last"]["accepted"]


def test_a_readers_fault_on_a_picture_is_reported_with_its_traceback_and_the_camera_goes_on(rig, caplog, monkeypatch):
    from vision.settle import Settler

    caplog.set_level(logging.INFO, logger="refbox")
    cfg, table, dev = rig(PIG)
    table.start()
    feed, calls = Settler.feed, []

    def faulty(self, frame, now):
        calls.append(now)
        if len(calls) <= 2:
            raise cv2.error("OpenCV(5.1.0) resize.cpp:4208: error: (-215:Assertion failed)\n> !ssize.empty()\n")
        return feed(self, frame, now)

    monkeypatch.setattr(Settler, "feed", faulty)
    worker = CameraWorker(lambda: Switchable(threading.Event()), table, interval=0.01)
    dev.camera = worker
    dev.closers.append(worker.stop)
    worker.start()
    assert wait_until(lambda: worker.status["readings"] >= 1, timeout=15), worker.status
    assert worker.status["unreadable"] == 2 and worker.status["reading_error"] is None and dev.health()["camera"]["ok"]
    logged = [r for r in caplog.records if r.name == "refbox.camera" and "could not be read" in r.getMessage()]
    assert len(logged) == 1 and logged[0].exc_info is not None
    assert logged[0].getMessage() == ("camera: a picture could not be read: error: !ssize.empty() (on a picture of shape (480, 640, 3)); "
                                      "going on with the next picture")


def test_stuck_button_is_reported_and_the_others_still_work(rig, caplog):
    caplog.set_level(logging.INFO, logger="refbox")
    cfg, table, dev = rig(FUTSAL, {"keypad": {"bounce_ms": 5}})
    dev.stuck_after = 0.5  # 30 s in service; short here
    table.start()
    start_keypad(cfg, table, dev, MockFactory())
    assert dev.health()["keypad"]["ok"]
    stuck = dev.keypad.pin_of("goal_home")
    stuck.drive_low()  # and it stays down
    assert wait_until(lambda: table.view.data["home"]["score"] == 1)  # one press, reported once
    assert wait_until(lambda: not dev.health()["keypad"]["ok"], timeout=3)
    detail = dev.health()["keypad"]["detail"]
    assert "button goal_home on GPIO27 has been held for" in detail and "(stuck?)" in detail, detail
    for _ in range(2):  # the other buttons still work
        foul = dev.keypad.pin_of("foul_away")
        foul.drive_low()
        time.sleep(0.02)
        foul.drive_high()
        time.sleep(0.02)
    assert wait_until(lambda: table.view.data["away"]["fouls"] == 2)
    assert table.view.data["home"]["score"] == 1  # the stuck one did not repeat
    stuck.drive_high()
    assert wait_until(lambda: dev.health()["keypad"]["ok"])
    messages = [r.getMessage() for r in caplog.records if "device keypad" in r.getMessage()]
    assert len(messages) == 2 and "recovered" in messages[1], messages


def test_health_covers_every_started_device_and_the_club_when_present(rig):
    cfg, table, dev = rig(FUTSAL)
    factory = MockFactory()
    start_keypad(cfg, table, dev, factory)
    start_horn(cfg, table, dev, factory)
    start_led(cfg, table, dev, factory, sim=True)
    table.start()
    assert wait_until(lambda: all(h["ok"] for h in dev.health().values()))
    health = dev.health()
    assert set(health) == {"keypad", "horn", "led", "journal"}
    assert health["horn"]["detail"].startswith("relay on GPIO16")
    assert wait_until(lambda: dev.health()["led"]["shown"] >= 1)

    class Broker:  # the club publisher's status() (refbox.club), as the runtime sees it
        state = {"ok": False, "detail": "not connected to 10.0.0.2:1883: connection refused; retrying",
                 "connected": False, "last_error": "broker 10.0.0.2:1883: connection refused"}

        def status(self):
            return dict(self.state)

    dev.club = Broker()
    club = dev.health()["club"]
    assert club["ok"] is False and "connection refused" in club["detail"]
    Broker.state = {"ok": True, "detail": "connected to 10.0.0.2:1883 as table-1", "connected": True, "last_error": None}
    assert dev.health()["club"]["ok"] is True


def test_failing_output_is_not_ok_and_recovers(rig):
    cfg, table, dev = rig(FUTSAL)
    factory = MockFactory()
    start_led(cfg, table, dev, factory, sim=True)
    table.start()
    assert wait_until(lambda: dev.health()["led"]["ok"] and dev.health()["led"]["shown"] >= 1)
    real_write = dev.led.backend.write

    def broken(cells):
        raise OSError("SPI bus error")

    dev.led.backend.write = broken
    assert goal(table).accepted
    assert wait_until(lambda: not dev.health()["led"]["ok"])
    assert "SPI bus error" in dev.health()["led"]["detail"]
    dev.led.backend.write = real_write
    assert goal(table).accepted
    assert wait_until(lambda: dev.health()["led"]["ok"])


def test_web_gets_the_health_and_binds_loopback_by_default(rig):
    cfg, table, dev = rig(FUTSAL)
    assert cfg.web.host == "127.0.0.1"
    start_web(cfg, table, dev, port=0)
    assert dev.web_address is not None and dev.web_address[0] == "127.0.0.1"
    from web import create_app  # noqa: F401  (start_web built the app)

    app = None
    for close in dev.closers:
        server = getattr(close, "__self__", None)
        if server is not None and hasattr(server, "app"):
            app = server.app
    assert app is not None and app.extensions["refbox.health"] == dev.health


def test_button_stuck_down_at_start_is_reported_and_sends_nothing(rig):
    """A button already down when the table starts (a shorted wire, a jammed cap):
    gpiozero sees no press edge, so the keypad counts it as held from the start."""
    from gpiozero.pins.mock import MockPin

    class ShortedPin(MockPin):
        """A wire shorted to ground: the pull-up cannot raise the pin (GOAL HOME, BCM 27)."""

        def _set_pull(self, value):
            super()._set_pull(value)
            if self.info.name == "GPIO27":
                self.drive_low()

    cfg, table, dev = rig(FUTSAL, {"keypad": {"bounce_ms": 5}})
    dev.stuck_after = 0.3
    factory = MockFactory(pin_class=ShortedPin)
    table.start()
    start_keypad(cfg, table, dev, factory)
    assert wait_until(lambda: not dev.health()["keypad"]["ok"], timeout=3)
    assert "button goal_home on GPIO27 has been held for" in dev.health()["keypad"]["detail"]
    dev.keypad.pin_of("goal_home").drive_high()  # freed: no goal for a press nobody made
    assert wait_until(lambda: dev.health()["keypad"]["ok"])
    time.sleep(0.1)
    assert table.view.data["home"]["score"] == 0 and table.session.applied == 0
