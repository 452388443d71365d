"""web/openapi.json describes exactly the app's routes."""

import re

from .conftest import pin


def app_routes(app):
    out = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue  # files, not API
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            out.add((path, method.lower()))
    return out


def test_every_route_is_described_and_every_described_route_exists(app, client):
    spec = client.get("/api/openapi.json").json
    assert spec["openapi"].startswith("3.1")
    described = {(path, method) for path, ops in spec["paths"].items() for method in ops}
    assert described == app_routes(app)


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
