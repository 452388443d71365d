"""The composition root: keypad layouts, horn and LED outputs wired to a live table,
and ``refbox run --sim`` as a real process (HTTP, camera replay, SIGKILL, restart)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from refbox.config import ConfigError, from_dict
from refbox.journal import Journal
from refbox.runtime import Devices, keypad_layout, start_horn, start_keypad, start_led
from refbox.table import Table
from tests.support import wait_until

ROOT = Path(__file__).resolve().parents[2]
FUTSAL = {"game": "futsal", "players": ["Home", "Away"]}




@pytest.fixture
def live(tmp_path):
    tables, devices = [], []

    def make(cfg_data, header):
        cfg = from_dict(cfg_data)
        table = Table(Journal(tmp_path / f"j{len(tables)}.sqlite3"), header, tick=0.02)
        dev = Devices(table)
        tables.append(table)
        devices.append(dev)
        return cfg, table, dev

    yield make
    for dev in devices:
        dev.close()
    for table in tables:
        table.stop()


def test_auto_layout_follows_the_game(tmp_path, live):
    cfg, futsal, _ = live({}, FUTSAL)
    assert keypad_layout(cfg, futsal)[17] == ("start_stop", "next_period")
    cfg, pig, _ = live({}, {"game": "pig", "players": ["A", "B"]})
    assert keypad_layout(cfg, pig)[17] == ("stop", None) and keypad_layout(cfg, pig)[21] == (None, "undo")


@pytest.mark.parametrize(
    "data, message",
    [
        ({"keypad": {"pins": {"stop": 17}}}, 'keypad.pins and keypad.long_press are only used with keypad.layout = "custom"'),
        ({"keypad": {"layout": "custom"}}, 'keypad.layout = "custom" needs keypad.pins'),
        ({"keypad": {"layout": "custom", "pins": {"stop": 17}, "long_press": ["undo"]}}, "keypad.long_press names 'undo'"),
        ({"keypad": {"layout": "custom", "pins": {"a": 5, "b": 5}}}, "'a' and 'b' are both short presses of BCM 5"),
        ({"keypad": {"layout": "grid"}}, "keypad.layout must be one of"),
        ({"led": {"backend": "max7219", "settings": {"digits": 12}}}, "led.settings.digits"),
        ({"led": {"backend": "gpio", "settings": {"colour": "red"}}}, "unknown key(s) ['colour']"),
    ],
)
def test_bad_device_config_names_the_key(data, message):
    with pytest.raises(ConfigError) as err:
        from_dict(data)
    assert message in str(err.value)


def test_keypad_buttons_reach_the_table_and_long_press_fires_while_held(live):
    cfg, table, dev = live({"keypad": {"hold_ms": 150, "bounce_ms": 5}}, FUTSAL)
    table.start()
    start_keypad(cfg, table, dev, MockFactory())
    goal = dev.keypad.pin_of("goal_home")
    goal.drive_low()
    goal.drive_high()
    assert wait_until(lambda: table.view.data["home"]["score"] == 1)
    start = dev.keypad.pin_of("start_stop")  # short: clock_toggle; long: next_period
    start.drive_low()
    time.sleep(0.02)
    start.drive_high()
    assert wait_until(lambda: table.view.data["clock_running"])
    undo = dev.keypad.pin_of("undo")  # long press only; the table's tick polls it while held
    undo.drive_low()
    assert wait_until(lambda: not table.view.data["clock_running"], timeout=3)
    undo.drive_high()
    events = [e["type"] for e in table.journal.events(table.game_id)]
    assert events == ["goal", "clock_toggle", "undo"]


def test_auto_keypad_follows_a_new_game_from_the_control_page(live):
    """A club table switched from futsal to pig and to All Fives: the same box's pins
    take the new game's names at once; the timekeeper's other pins fall silent."""
    cfg, table, dev = live({"keypad": {"hold_ms": 150, "bounce_ms": 5}}, FUTSAL)
    table.start()
    start_keypad(cfg, table, dev, MockFactory())
    foul = dev.keypad.pin_of("foul_home")  # BCM 5, a timekeeper-only button
    assert table.new_game({"game": "pig", "players": ["A", "B"]}).result(5).accepted
    assert wait_until(lambda: "stop" in dev.keypad.names)
    assert "start_stop" not in dev.keypad.names and "foul_home" not in dev.keypad.names
    assert table.submit({"type": "roll", "dice": [4]}).result(5).accepted
    stop = dev.keypad.pin_of("stop")
    stop.drive_low()
    time.sleep(0.02)  # past the 5 ms debounce
    stop.drive_high()
    assert wait_until(lambda: table.view.data["players"][0]["score"] == 4)
    foul.drive_low()  # silent now: nothing reaches the table
    time.sleep(0.02)
    foul.drive_high()
    assert table.new_game({"game": "all-fives", "players": ["A", "B"]}).result(5).accepted
    assert wait_until(lambda: "confirm" in dev.keypad.names)
    assert dev.keypad.pin_of("confirm") is dev.keypad.pin_of("fish")  # BCM 22: short and long
    choose = dev.keypad.pin_of("new_hand")  # CHOOSE's long press deals
    choose.drive_low()
    assert wait_until(lambda: table.view.data.get("phase") == "play", timeout=3)
    choose.drive_high()
    types = [(e["type"], e["source"]) for e in table.journal.events(table.game_id)]
    assert types == [("new_hand", "button")]


def test_web_press_goes_through_the_mock_pin_and_unknown_buttons_are_refused(live):
    cfg, table, dev = live({}, FUTSAL)
    table.start()
    start_keypad(cfg, table, dev, MockFactory())
    assert dev.presser("foul_away").result(5).accepted
    refused = dev.presser("serve").result(5)
    assert not refused.accepted and "button 'serve' does nothing in futsal" in refused.reason
    assert table.view.data["away"]["fouls"] == 1


def test_horn_sounds_on_period_end_and_manual_press_not_on_restart(tmp_path):
    factory = MockFactory()
    cfg = from_dict({"table": {"game": "futsal", "players": ["H", "A"], "options": {"half_minutes": 1}}})
    now = [1000.0]
    path = tmp_path / "j.sqlite3"
    table = Table(Journal(path), FUTSAL | {"options": {"half_minutes": 1}}, clock=lambda: now[0], tick=0.02)
    dev = Devices()
    try:
        start_horn(cfg, table, dev, factory)
        table.start()
        assert table.submit({"type": "clock_start"}).result(5).accepted
        now[0] += 61  # the half runs out; the timer injects period_end
        assert wait_until(lambda: dev.horn.played == ["period_end"])
        assert table.press("horn").result(5).accepted
        assert wait_until(lambda: dev.horn.played == ["period_end", "manual"])
    finally:
        dev.close()
        table.stop()
    again = Table(Journal(path), None, clock=lambda: now[0], tick=0.02)
    dev = Devices()
    try:
        start_horn(cfg, again, dev, factory)
        again.start()
        time.sleep(0.2)  # a resumed table shows its view; old signals are not replayed
        assert dev.horn.played == []
    finally:
        dev.close()
        again.stop()


def test_led_emulator_in_simulation_shows_the_clock(live):
    cfg, table, dev = live({}, FUTSAL)
    table.start()
    start_led(cfg, table, dev, MockFactory(), sim=True)
    assert wait_until(lambda: dev.led.backend.text().startswith("00:00"))
    assert "LED" not in dev.led.backend.text()  # digits only


def test_no_led_without_config_on_real_hardware(live):
    cfg, table, dev = live({}, FUTSAL)
    start_led(cfg, table, dev, MockFactory(), sim=False)
    assert dev.led is None


def _http(url, data=None, pin=None):
    req = urllib.request.Request(url, data=data, method="POST" if data is not None else "GET")
    if pin:
        req.add_header("X-Refbox-Pin", pin)
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _start_sim(tmp_path, journal, name="sim.log"):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    path = tmp_path / name
    log = open(path, "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "refbox", "run", "--sim", "--no-keyboard", "--port", "0", "--journal", str(journal)],
        cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
    )
    port = pin = None

    def ready():
        nonlocal port, pin
        text = path.read_text()
        m = re.findall(r"web page on http://127\.0\.0\.1:(\d+)", text)
        p = re.findall(r"control PIN for this run is (\d+)", text)
        if m and p and "refbox: ready" in text:
            port, pin = int(m[-1]), p[-1]
            return True
        return proc.poll() is not None

    assert wait_until(ready, timeout=60), path.read_text()
    assert proc.poll() is None, path.read_text()
    return proc, f"http://127.0.0.1:{port}", pin


def test_refbox_run_sim_end_to_end_survives_sigkill(tmp_path):
    """The real program: simulated devices announced, the camera replays the sample
    photos into rolls, the web page presses a mock button with the PIN, SIGKILL,
    restart: every acknowledged event is still there."""
    journal = tmp_path / "journal.sqlite3"
    proc, url, pin = _start_sim(tmp_path, journal)
    try:
        log = (tmp_path / "sim.log").read_text()
        for loud in ("SIMULATED GPIO", "SIMULATED DISPLAY", "SIMULATED CAMERA", "SIMULATED LED SCOREBOARD"):
            assert loud in log
        assert wait_until(lambda: _http(url + "/api/view")[1]["table_events"] >= 1, timeout=30), "no camera roll"
        assert _http(url + "/api/press/stop", b"")[0] == 403  # no PIN: refused
        status, body = _http(url + "/api/press/stop", b"", pin)
        if not body["accepted"]:  # the last roll was a 1: nothing to bank; wait for the next
            assert "stop" in body["reason"]
        view = _http(url + "/api/view")[1]
        acked = view["table_events"]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    j = Journal(journal)
    assert j.count(j.latest_game()[0]) >= acked
    j.close()
    proc, url, pin = _start_sim(tmp_path, journal, "sim-restarted.log")
    try:
        again = _http(url + "/api/view")[1]
        assert again["table_events"] >= acked
        assert again["players"] == view["players"] or again["table_events"] > acked
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0


def test_led_emulator_message_row_speaks_the_table_language(live):
    cfg, table, dev = live({"table": {"game": "futsal", "players": ["Home", "Away"], "language": "uk"}}, FUTSAL)
    table.start()
    start_led(cfg, table, dev, MockFactory(), sim=True)
    assert table.submit({"type": "timeout", "team": "home"}).result(5).accepted
    # ТАЙМ-АУТ on 7 segments (docs/i18n.md: Т->t, А->A, Й->U, М->n, У->U)
    assert wait_until(lambda: dev.led.backend.text().endswith("/ tAUn-AUt"))
