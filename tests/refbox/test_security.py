"""Nothing but the PIN-guarded control API changes the table: every route of the web
app, every method, without the PIN and with junk, leaves the journal and the view as
they were. The web page binds where configured (127.0.0.1 unless told otherwise)."""

from __future__ import annotations

import json
import re
import socket

import pytest

from refbox.config import from_dict
from refbox.journal import Journal
from refbox.runtime import Devices, start_web
from refbox.table import Table
from web import create_app

PIN = "8642"
SAMPLES = {"button": "stop", "name": "stop", "game": "pig", "id": "1", "path": "x", "filename": "x"}


@pytest.fixture
def table(tmp_path):
    t = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, clock=lambda: 5.0)
    t.start()
    assert t.submit({"type": "roll", "dice": [4]}).result(5).accepted
    yield t
    t.stop()


def _url(rule) -> str:
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", lambda m: SAMPLES.get(m.group(1), "x"), rule.rule)


def test_no_route_changes_the_table_without_the_pin(table):
    app = create_app(table, {"CONTROL_PIN": PIN, "TESTING": True})
    client = app.test_client()
    before = (table.view.text, table.journal.count(table.game_id), table.game_id)
    tried = 0
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            for headers in ({}, {"X-Refbox-Pin": "0000"}, {"X-Refbox-Pin": ""}):
                body = json.dumps({"type": "stop"})
                resp = client.open(_url(rule), method=method, data=body, headers=headers,
                                   content_type="application/json", buffered=False)
                if method != "GET":
                    assert resp.status_code in (400, 401, 403, 404, 405, 429), (rule.rule, method, resp.status_code)
                resp.close()
                tried += 1
    assert tried >= 6
    assert (table.view.text, table.journal.count(table.game_id), table.game_id) == before
    # the address that tried all those wrong PINs is locked out, even with the right one
    locked = client.post("/api/events", json={"type": "stop"}, headers={"X-Refbox-Pin": PIN})
    assert locked.status_code == 429 and table.journal.count(table.game_id) == before[1]
    # from another address the PIN does change it: the guard is what stopped the others
    ok = client.post("/api/events", json={"type": "stop"}, headers={"X-Refbox-Pin": PIN},
                     environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert ok.status_code == 200 and table.journal.count(table.game_id) == before[1] + 1


def test_health_and_views_carry_no_pin(table):
    dev = Devices(table)
    assert PIN not in json.dumps(dev.health()) and PIN not in table.view.text


def test_default_binds_loopback_only(table):
    cfg = from_dict({})
    dev = Devices()
    try:
        start_web(cfg, table, dev, port=0)
        host, port = dev.web_address
        assert host == "127.0.0.1"
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        # not reachable on the machine's other addresses
        others = {a[4][0] for a in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)} - {"127.0.0.1", "127.0.1.1"}
        for addr in others:
            with pytest.raises(OSError):
                socket.create_connection((addr, port), timeout=2).close()
    finally:
        dev.close()


def test_configured_host_is_used(table):
    cfg = from_dict({"web": {"host": "0.0.0.0"}})
    dev = Devices()
    try:
        start_web(cfg, table, dev, port=0)
        assert dev.web_address[0] == "0.0.0.0"
    finally:
        dev.close()
