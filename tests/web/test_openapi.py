"""web/openapi.json describes exactly the app's routes."""

import re

import pytest

from refbox.club import Broker, ClubWatcher
from web import create_app

from .conftest import PIN, pin


def app_routes(app):
    out = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue  # files, not API
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            out.add((path, method.lower()))
    return out


@pytest.fixture
def club_app(table):
    """The table's app with the club dashboard too (a watcher that is never started:
    only its routes are looked at here; tests/fuzz/test_web_api.py runs one on a real broker)."""
    watcher = ClubWatcher(Broker("127.0.0.1", 1))
    return create_app(table, {"TESTING": True, "CONTROL_PIN": PIN, "CLUB_WATCHER": watcher})


def test_every_route_is_described_and_every_described_route_exists(club_app):
    spec = club_app.test_client().get("/api/openapi.json").json
    assert spec["openapi"].startswith("3.1")
    described = {(path, method) for path, ops in spec["paths"].items() for method in ops}
    assert described == app_routes(club_app)


def test_without_a_club_watcher_only_the_club_routes_are_missing(app, client):
    spec = client.get("/api/openapi.json").json
    described = {(path, method) for path, ops in spec["paths"].items() for method in ops}
    assert described - app_routes(app) == {("/club", "get"), ("/club/api/tables", "get"), ("/club/stream", "get")}


def test_every_control_route_declares_its_security_and_refusals(client):
    spec = client.get("/api/openapi.json").json
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            if method == "post" and path.startswith("/api/"):
                assert op["security"] and {"403", "429"} <= set(op["responses"]), path


def test_every_schema_reference_resolves(client):
    spec = client.get("/api/openapi.json").json
    refs = set(re.findall(r'"\$ref": "#/components/schemas/(\w+)"', client.get("/api/openapi.json").get_data(as_text=True)))
    assert refs and refs <= set(spec["components"]["schemas"])


def test_described_answers_match_real_ones(client):
    """A few responses checked against the required keys the description names."""
    spec = client.get("/api/openapi.json").json
    schemas = spec["components"]["schemas"]
    r = client.post("/api/events", json={"type": "roll", "dice": [2]}, headers=pin())
    assert set(schemas["Result"]["required"]) <= set(r.json)
    g = client.get("/api/game").json
    req = spec["paths"]["/api/game"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["required"]
    assert set(req) <= set(g) and set(schemas["GameInfo"]["required"]) <= set(g["info"])
    h = client.get("/api/history").json
    assert set(schemas["Entry"]["required"]) <= set(h["events"][0])


def test_described_club_answer_matches_the_real_one(club_app):
    client = club_app.test_client()
    schemas = client.get("/api/openapi.json").json["components"]["schemas"]
    body = client.get("/club/api/tables").json
    assert set(schemas["BrokerStatus"]["required"]) <= set(body["broker"]) and body["tables"] == []
