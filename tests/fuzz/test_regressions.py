"""The bugs the fuzzing found, one plain example each (they stay fixed)."""

from __future__ import annotations

import pytest

from refbox.config import ConfigError, load
from refbox.journal import Journal
from refbox.table import Table
from rules import IllegalEvent, MalformedEvent, Session
from rules.replay import ReplayError, replay_lines


def test_bluff_challenge_or_accept_before_any_claim_is_illegal():
    # was: IndexError in hand_key (challenge compared the cup with an empty claim),
    # and accept moved to the reply with no claim at all
    s = Session.start({"game": "bluff", "players": ["Ann", "Bob"]})
    s.submit({"type": "roll", "dice": [2, 2, 5, 1, 3]})
    for kind in ("challenge", "accept"):
        with pytest.raises(IllegalEvent, match=f"nothing to {kind}: the leader has not claimed"):
            s.submit({"type": kind})
    assert s.view()["phase"] == "lead"


def test_lone_surrogate_text_is_malformed_not_a_journal_crash():
    # was: UnicodeEncodeError from the journal (JSON "\ud800" from the web page)
    table = Table(Journal(":memory:"), {"game": "futsal", "players": ["A", "B"]}, clock=lambda: 5.0)
    assert table.handle({"type": "clock_start"}).accepted
    r = table.handle({"type": "clock_stop", "reason": "\ud800"})
    assert not r.accepted and "not valid Unicode" in r.reason
    assert table.view.data["clock_running"] is True and table.journal.count(table.game_id) == 1
    r.reason.encode("utf-8")  # the reason itself can be logged and sent


def test_non_object_event_is_refused_by_the_table():
    # was: TypeError building the refusal (dict(None))
    table = Table(Journal(":memory:"), {"game": "pig", "players": ["A", "B"]})
    for junk in (None, [], "roll", 3):
        r = table.handle(junk)  # type: ignore[arg-type]
        assert not r.accepted and "an event must be a JSON object" in r.reason


def test_deeply_nested_replay_line_names_the_line():
    # was: RecursionError from json.loads
    with pytest.raises(ReplayError, match="line 2: not valid JSON"):
        replay_lines(['{"game": "pig", "players": ["A", "B"]}', "[" * 100_000])


@pytest.mark.parametrize("raw, says", [
    (b"\xff\xfe[table]\n", "is not UTF-8 text"),
    (b"a = " + b"[" * 5000, "nested too deeply"),
])
def test_config_file_that_is_not_text_or_too_deep(tmp_path, raw, says):
    # was: UnicodeDecodeError / RecursionError out of refbox.config.load
    path = tmp_path / "refbox.toml"
    path.write_bytes(raw)
    with pytest.raises(ConfigError, match=says) as err:
        load(path)
    assert str(path) in str(err.value)


def test_config_path_that_is_a_directory(tmp_path):
    # was: IsADirectoryError out of refbox.config.load
    with pytest.raises(ConfigError, match="cannot be read"):
        load(tmp_path)


def test_malformed_event_keeps_its_type():
    with pytest.raises(MalformedEvent):
        Session.start({"game": "pig", "players": ["A", "B"]}).submit({"type": "roll", "dice": ["\udfff"]})


@pytest.mark.parametrize("options", [[1, 2], "target", 3])
def test_header_options_that_are_not_an_object_are_a_bad_header(options):
    # was: TypeError/ValueError out of Game.resolve_options (dict(options))
    from rules.session import BadHeader

    with pytest.raises(BadHeader, match="options of pig must be a JSON object"):
        Session.start({"game": "pig", "players": ["A", "B"], "options": options})
    with pytest.raises(ReplayError, match="line 1: bad header"):
        replay_lines([f'{{"game": "pig", "players": ["A", "B"], "options": {options!r}}}'.replace("'", '"')])


def test_new_game_with_a_header_that_is_not_an_object_is_refused():
    # was: TypeError building the refusal (dict(None)) in Table.handle_new_game
    table = Table(Journal(":memory:"), {"game": "pig", "players": ["A", "B"]})
    r = table.handle_new_game(None)  # type: ignore[arg-type]
    assert not r.accepted and "header must be a JSON object" in r.reason


@pytest.mark.parametrize("query", ["after=true", "after=1.5", "after=--5", "limit=", "limit=ten", "after=%D9%A3",
                                   "limit=99999999999999999999999", "after=-1", "limit=0", "limit=501"])
def test_history_refuses_a_query_that_is_not_an_integer_in_range(query):
    # was (schemathesis, tests/fuzz/test_web_api.py): GET /api/history?after=true answered
    # 200 as if no after had been given (Flask's type=int falls back to the default)
    from web import create_app

    table = Table(Journal(":memory:"), {"game": "pig", "players": ["A", "B"]})
    table.handle({"type": "roll", "dice": [3]})
    r = create_app(table, {"TESTING": True}).test_client().get(f"/api/history?{query}")
    assert r.status_code == 400 and "after must be an integer >= 0" in r.json["reason"]
    assert query.split("=")[0] in r.json["reason"]  # it says what it got


def test_history_still_takes_plain_integers():
    from web import create_app

    table = Table(Journal(":memory:"), {"game": "pig", "players": ["A", "B"]})
    for d in (3, 4, 6):
        table.handle({"type": "roll", "dice": [d]})
    client = create_app(table, {"TESTING": True}).test_client()
    assert [e["seq"] for e in client.get("/api/history?after=1&limit=1").json["events"]] == [3]
    assert client.get("/api/history?after=+1").status_code == 400  # only plain digits


def test_logout_with_the_pin_header_is_described():
    # was (schemathesis): POST /logout with X-Refbox-Pin logs out (302), but the description
    # named only the session + CSRF way in, and no 429
    from web import create_app

    table = Table(Journal(":memory:"), {"game": "pig", "players": ["A", "B"]})
    app = create_app(table, {"TESTING": True, "CONTROL_PIN": "2468"})
    client = app.test_client()
    assert client.post("/logout", headers={"X-Refbox-Pin": "2468"}).status_code == 302
    op = client.get("/api/openapi.json").json["paths"]["/logout"]["post"]
    assert {"pin": []} in op["security"] and {"302", "403", "429"} <= set(op["responses"])


@pytest.mark.parametrize("method, path, status", [("GET", "/api/events", 405), ("GET", "/api/nothing", 404),
                                                  ("DELETE", "/api/view", 405), ("GET", "/club/api/nothing", 404)])
def test_flask_refusals_under_the_api_are_json_with_a_reason(method, path, status):
    # was: Flask's HTML error page, so an API client got no {"reason"} (every refusal says why)
    from web import create_app

    table = Table(Journal(":memory:"), {"game": "pig", "players": ["A", "B"]})
    client = create_app(table, {"TESTING": True}).test_client()
    r = client.open(path, method=method)
    assert r.status_code == status and r.is_json and r.json["accepted"] is False and r.json["reason"]
    if status == 405:
        assert "GET" in r.headers["Allow"] or "POST" in r.headers["Allow"]
    assert "<html" in client.get("/no-such-page").get_data(as_text=True).lower()  # pages stay pages


@pytest.mark.parametrize("body, says", [
    (b"[" * 30_000, "nested too deeply"),  # under the 64 KB limit; was: RecursionError, 500
    (b'{"type": "roll", "dice": [4], "\\ud800": 1}', "lone surrogate"),  # was: UnicodeEncodeError echoing it, 500
    (b'{"type": "roll", "dice": [NaN]}', "NaN is not a JSON number"),   # was: 422 answered with invalid JSON (NaN)
    (b'{"type": "roll", "dice": [1e999]}', "too large for a number"),   # was: 422 answered with Infinity
    (b'{"type": "roll", "\xff": 1}', "not UTF-8"),
])
@pytest.mark.parametrize("path", ["/api/events", "/api/new-game", "/api/reading"])
def test_hostile_json_bodies_are_refused_with_a_reason(path, body, says):
    import json

    from web import create_app

    table = Table(Journal(":memory:"), {"game": "pig", "players": ["A", "B"]})
    table.start()
    try:
        client = create_app(table, {"TESTING": True, "CONTROL_PIN": "2468"}).test_client()
        r = client.post(path, data=body, headers={"X-Refbox-Pin": "2468", "Content-Type": "application/json"})
        assert r.status_code == 400 and says in r.json["reason"]
        json.loads(r.get_data(as_text=True), parse_constant=lambda c: pytest.fail(f"{c} in the answer"))
        assert table.journal.count(table.game_id) == 0
    finally:
        table.stop()
