import json

import pytest

from refbox.journal import Journal
from refbox.table import Table
from web import create_app


@pytest.fixture
def table(tmp_path):
    t = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.01)
    t.start()
    yield t
    t.stop()


@pytest.fixture
def client(table):
    app = create_app(table, {"TESTING": True, "CONTROL_PIN": "2468", "TABLE_NAME": "table-7"})
    return app.test_client()


def test_mirror_page_shows_the_view(client):
    page = client.get("/").get_data(as_text=True)
    assert "table-7" in page and '"turn": "Ann"' in page


def test_event_with_pin_is_applied(client, table):
    r = client.post("/api/events", json={"type": "roll", "dice": [5]}, headers={"X-Refbox-Pin": "2468"})
    assert r.status_code == 200 and r.json["accepted"]
    assert client.get("/api/view").json["turn_total"] == 5


@pytest.mark.parametrize("pin", [None, "", "1111"])
def test_wrong_or_missing_pin_is_refused_and_changes_nothing(client, pin):
    headers = {"X-Refbox-Pin": pin} if pin is not None else {}
    r = client.post("/api/events", json={"type": "roll", "dice": [5]}, headers=headers)
    assert r.status_code == 403 and "PIN" in r.json["reason"]
    assert client.get("/api/view").json["turn_total"] == 0


def test_illegal_event_is_refused_with_reason(client):
    r = client.post("/api/events", json={"type": "stop"}, headers={"X-Refbox-Pin": "2468"})
    assert r.status_code == 422 and "throw at least once" in r.json["reason"]


def test_malformed_body(client):
    r = client.post("/api/events", data="nope", headers={"X-Refbox-Pin": "2468", "Content-Type": "application/json"})
    assert r.status_code == 400


def test_press_button(client):
    client.post("/api/events", json={"type": "roll", "dice": [3]}, headers={"X-Refbox-Pin": "2468"})
    r = client.post("/api/press/stop", headers={"X-Refbox-Pin": "2468"})
    assert r.json["accepted"]
    assert client.get("/api/view").json["players"][0]["score"] == 3
    assert "stop" in client.get("/api/buttons").json


def test_control_off_without_configured_pin(table):
    client = create_app(table, {"TESTING": True}).test_client()
    r = client.post("/api/events", json={"type": "roll", "dice": [5]}, headers={"X-Refbox-Pin": ""})
    assert r.status_code == 403 and "no control PIN is configured" in r.json["reason"]


def test_stream_sends_new_views(client, table):
    resp = client.get("/stream?max=2", buffered=False)
    chunks = resp.response
    first = b""
    while b"event: view" not in first:
        first += next(chunks)
    table.submit({"type": "roll", "dice": [6]}).result(5)
    body = first + b"".join(chunks)
    views = [json.loads(line[6:]) for line in body.decode().splitlines() if line.startswith("data: ")]
    assert views[0]["turn_total"] == 0 and views[-1]["turn_total"] == 6
