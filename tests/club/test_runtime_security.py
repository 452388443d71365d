"""The [club] section and start_club: wiring from the configuration, a broker with
passwords, and no secret (broker password, control PIN) ever on the wire or in the log."""

from __future__ import annotations

import json
import logging

import pytest

from refbox.club import Broker, ClubPublisher, ClubWatcher
from refbox.config import ConfigError, from_dict
from refbox.journal import Journal
from refbox.runtime import Devices, start_club
from refbox.table import Table

from .conftest import wait_until
from .mqtt_tools import Recorder

PASSWORD, PIN = "s3cret-Pa55word", "424242"


@pytest.fixture
def devices():
    d = Devices()
    yield d
    d.close()


def test_no_club_host_means_no_club_and_says_so(caplog, devices):
    caplog.set_level(logging.INFO, logger="refbox")
    cfg = from_dict({})
    table = Table(Journal(":memory:"), {"game": "pig", "players": ["A", "B"]})
    start_club(cfg, table, devices)
    assert devices.club is None
    assert "club: off (no club.host configured)" in caplog.text


def test_a_configured_table_publishes_with_a_password_and_leaks_no_secret(auth_broker, caplog, devices):
    caplog.set_level(logging.DEBUG)
    cfg = from_dict({
        "table": {"name": "table-1", "game": "pig", "players": ["Ann", "Bob"]},
        "web": {"pin": PIN},
        "club": {"host": "127.0.0.1", "port": auth_broker.port, "username": "table-1", "password": PASSWORD,
                 "homeassistant": True, "keepalive": 5},
    })
    assert PASSWORD not in repr(cfg)
    spy = Recorder(auth_broker.port, ["#"], username="club", password="club-pw-XYZ")
    try:
        table = Table(Journal(":memory:"), {"game": "pig", "players": ["Ann", "Bob"]}, clock=lambda: 3.0)
        start_club(cfg, table, devices, reconnect_max=1)
        assert isinstance(devices.club, ClubPublisher)
        assert table.handle({"type": "roll", "dice": [4]}).accepted
        assert wait_until(lambda: devices.club.status()["connected"] and not devices.club.status()["pending"])
        spy.wait_for("refbox/table-1/view", lambda p: json.loads(p)["view"]["turn_total"] == 4)
        spy.wait_for("homeassistant/sensor/table-1_score/config")
        status = devices.club.status()
        table.stop()
        devices.close()
        spy.wait_for("refbox/table-1/status", lambda p: p == b"offline")
        with spy.lock:
            wire = [(t, p) for t, p, _ in spy.messages]
    finally:
        spy.close()
    assert len(wire) >= 7  # status, 4 discovery configs, view, offline
    for topic, payload in wire:
        for secret in (PASSWORD, PIN):
            assert secret not in topic and secret.encode() not in payload, (topic, payload)
    assert PASSWORD not in json.dumps(status) and PASSWORD not in repr(devices.club.broker)
    assert PASSWORD not in caplog.text and PIN not in caplog.text


def test_a_wrong_password_is_reported_without_the_password(auth_broker, caplog):
    caplog.set_level(logging.DEBUG)
    pub = ClubPublisher(Broker("127.0.0.1", auth_broker.port, "table-1", "wrong-Pa55"), "table-1", reconnect_max=1)
    watcher = ClubWatcher(Broker("127.0.0.1", auth_broker.port, "club", "club-pw-XYZ"), reconnect_max=1)
    try:
        pub.start()
        watcher.start()
        pub.show({"game": "pig"})
        assert wait_until(lambda: pub.last_error is not None and "refused" in pub.last_error)
        status = pub.status()
        assert not status["ok"] and "Not authorized" in status["detail"]
        assert "wrong-Pa55" not in json.dumps(status) and "wrong-Pa55" not in caplog.text
        assert wait_until(lambda: watcher.connected)  # the right password gets in
        assert watcher.tables() == {}
    finally:
        pub.close()
        watcher.close()


@pytest.mark.parametrize("club, message", [
    ({"host": "b", "port": 0}, "club.port must be in 1..65535, got 0"),
    ({"host": "b", "prefix": "refbox/#"}, "club.prefix 'refbox/#' is not a usable MQTT topic prefix"),
    ({"host": "b", "table_id": "court 2"}, "club.table_id must hold only letters, digits"),
    ({"host": "b", "ca_file": "/etc/ca.pem"}, "club.ca_file is only used with club.tls = true"),
    ({"host": "b", "passwd": "x"}, "unknown key 'club.passwd'; allowed: club.ca_file"),
    ({"host": "b", "tls": "yes"}, "club.tls must be true or false"),
])
def test_bad_club_settings_are_refused_by_name(club, message):
    with pytest.raises(ConfigError, match=message.replace(".", "\\.").replace("(", "\\(")):
        from_dict({"club": club})


def test_the_table_name_is_the_default_table_id():
    from refbox.config import club_table_id

    assert club_table_id(from_dict({"table": {"name": "court-3"}, "club": {"host": "b"}})) == "court-3"
    assert club_table_id(from_dict({"table": {"name": "Court 3"}, "club": {"host": "b", "table_id": "c3"}})) == "c3"
    with pytest.raises(ConfigError, match="table.name 'Court 3' cannot name the table in MQTT topics"):
        from_dict({"table": {"name": "Court 3"}, "club": {"host": "b"}})


def test_refbox_run_publishes_to_the_club_and_goes_offline_when_killed(broker, tmp_path):
    """The real program with a [club] section: the view reaches the broker; SIGKILL
    leaves the will's offline behind."""
    import os
    import re
    import signal
    import subprocess
    import sys
    import urllib.request
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    (tmp_path / "club.toml").write_text(
        '[table]\nname = "court-4"\ngame = "futsal"\nplayers = ["Lions", "Tigers"]\n'
        f'[web]\npin = "{PIN}"\n[camera]\nsource = "none"\n'
        f'[club]\nhost = "127.0.0.1"\nport = {broker.port}\nkeepalive = 5\n')
    log_path = tmp_path / "run.log"
    rec = Recorder(broker.port, ["refbox/#"])
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "refbox", "run", "--sim", "--no-keyboard", "--port", "0", "--config", "club.toml",
             "--journal", str(tmp_path / "j.sqlite3")], cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": str(root), "PYTHONUNBUFFERED": "1"}, start_new_session=True)
    try:
        assert wait_until(lambda: "refbox: ready" in log_path.read_text() or proc.poll() is not None, 60)
        text = log_path.read_text()
        assert proc.poll() is None, text
        port = int(re.findall(r"web page on http://127\.0\.0\.1:(\d+)", text)[-1])
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/events", method="POST",
                                     data=json.dumps({"type": "goal", "team": "away"}).encode(),
                                     headers={"X-Refbox-Pin": PIN, "Content-Type": "application/json"})
        assert json.load(urllib.request.urlopen(req, timeout=5))["accepted"]
        got = json.loads(rec.wait_for("refbox/court-4/view", lambda p: json.loads(p)["view"]["away"]["score"] == 1))
        assert got["summary"]["score"] == "Lions 0 · Tigers 1"
        assert rec.wait_for("refbox/court-4/status") == b"online"
        assert wait_until(lambda: "club: connected to mqtt://127.0.0.1" in log_path.read_text())
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        assert rec.wait_for("refbox/court-4/status", lambda p: p == b"offline") == b"offline"
        with rec.lock:
            assert all(PIN.encode() not in p for _, p, _ in rec.messages)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
        rec.close()
