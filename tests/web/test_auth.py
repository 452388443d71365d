"""Who may change the table: PIN header, login session + CSRF token, the wrong-PIN rate limit."""

import re

import pytest

from web import create_app

from .conftest import PIN, pin

BODIES = {
    "/api/events": {"type": "roll", "dice": [5]},
    "/api/new-game": {"game": "futsal", "players": ["A", "B"]},
    "/api/reading": {"dice": [5]},
    "/api/camera/zones": {"zones": {"kept": [[0, 0], [10, 0], [10, 10]]}},
    "/api/camera/pause": {"paused": True},
}


def post_routes(app):
    """Every POST route of the app, with sample path values."""
    out = []
    for rule in app.url_map.iter_rules():
        if "POST" in rule.methods:
            url = re.sub(r"<(?:\w+:)?(\w+)>", "stop", rule.rule)
            out.append(url)
    return sorted(out)


def snapshot(client, table):
    return client.get("/api/view").json, table.journal.count(table.game_id), table.game_id


def test_every_post_route_is_known(app):
    assert post_routes(app) == ["/api/camera/pause", "/api/camera/zones", "/api/events", "/api/new-game", "/api/press/stop", "/api/reading",
                                "/api/undo", "/login", "/logout"]


@pytest.mark.parametrize("headers", [{}, {"X-Refbox-Pin": ""}, {"X-Refbox-Pin": "1111"}])
def test_every_control_post_without_auth_is_403_and_changes_nothing(app, client, table, headers):
    client.post("/api/events", json={"type": "roll", "dice": [2]}, headers=pin())  # something to undo
    before = snapshot(client, table)
    for url in post_routes(app):
        if url == "/login":
            continue
        r = client.post(url, json=BODIES.get(url), headers=headers)
        assert r.status_code == 403, (url, r.status_code)
        assert r.json["accepted"] is False and r.json["reason"]
        app.extensions["refbox.limiter"].reset("127.0.0.1")  # this test is about refusal, not the limit
    assert snapshot(client, table) == before


def test_wrong_pins_are_counted_and_then_limited(app, client, table, clock):
    before = snapshot(client, table)
    for _ in range(5):
        r = client.post("/api/events", json=BODIES["/api/events"], headers=pin("0000"))
        assert r.status_code == 403 and r.json["reason"] == "wrong PIN"
    r = client.post("/api/events", json=BODIES["/api/events"], headers=pin())  # even the right PIN now
    assert r.status_code == 429 and r.headers["Retry-After"] == "60"
    assert "too many wrong PINs from 127.0.0.1; try again in 60 s" == r.json["reason"]
    clock.now += 45
    assert client.post("/login", data={"pin": PIN}).headers["Retry-After"] == "15"
    assert snapshot(client, table) == before
    clock.now += 15
    assert client.post("/api/events", json=BODIES["/api/events"], headers=pin()).status_code == 200


def test_limit_is_per_client_address(app, client, clock):
    for _ in range(5):
        client.post("/login", data={"pin": "0"}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert client.post("/login", data={"pin": "0"}, environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 429
    assert client.post("/api/undo", headers=pin("0"), environ_base={"REMOTE_ADDR": "10.0.0.8"}).status_code == 403


def test_control_off_without_configured_pin(table):
    client = create_app(table, {"TESTING": True}).test_client()
    r = client.post("/api/events", json={"type": "roll", "dice": [5]}, headers=pin(""))
    assert r.status_code == 403 and "no control PIN is configured" in r.json["reason"]
    assert client.post("/login", data={"pin": ""}).status_code == 403
    assert "Control is off" in client.get("/login").get_data(as_text=True)


def login(client, value=PIN):
    return client.post("/login", data={"pin": value})


def csrf_of(client):
    page = client.get("/control").get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


def test_control_page_needs_login(client):
    r = client.get("/control")
    assert r.status_code == 302 and r.headers["Location"].endswith("/login")
    r = login(client, "9999")
    assert r.status_code == 403 and "wrong PIN" in r.get_data(as_text=True)
    r = login(client)
    assert r.status_code == 302 and r.headers["Location"].endswith("/control")
    assert 'id="buttons"' in client.get("/control").get_data(as_text=True)


def test_session_needs_the_csrf_token(client, table):
    login(client)
    token = csrf_of(client)
    before = snapshot(client, table)
    r = client.post("/api/events", json={"type": "roll", "dice": [5]})
    assert r.status_code == 403 and "CSRF" in r.json["reason"]
    r = client.post("/api/events", json={"type": "roll", "dice": [5]}, headers={"X-CSRF-Token": token + "x"})
    assert r.status_code == 403
    assert snapshot(client, table) == before
    r = client.post("/api/events", json={"type": "roll", "dice": [5]}, headers={"X-CSRF-Token": token})
    assert r.status_code == 200 and client.get("/api/view").json["turn_total"] == 5


def test_session_cookie_is_signed_and_strict(client):
    r = login(client)
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    client.set_cookie("session", "eyJjb250cm9sIjoieCJ9.forged.sig")
    assert client.get("/control").status_code == 302


def test_a_login_from_another_app_key_does_not_work(table, client):
    login(client)
    other = create_app(table, {"TESTING": True, "CONTROL_PIN": PIN}).test_client()  # another process
    other.set_cookie("session", client.get_cookie("session").value)
    assert other.get("/control").status_code == 302


def test_logout_needs_csrf_and_ends_the_session(client):
    login(client)
    token = csrf_of(client)
    assert client.post("/logout").status_code == 403
    assert client.post("/logout", data={"csrf": token}).status_code == 302
    assert client.get("/control").status_code == 302
    assert client.post("/api/undo", headers={"X-CSRF-Token": token}).status_code == 403


def test_pin_header_needs_no_cookie_and_no_token(client):
    assert client.post("/api/events", json={"type": "roll", "dice": [1]}, headers=pin()).status_code == 200
