"""The web API fuzzed from its own description (``web/openapi.json``) with schemathesis,
in-process against a real table (SQLite journal, loop thread) and a real club watcher
on a real Mosquitto.

Every described operation gets schema-valid (positive) and schema-breaking (negative)
requests, once without credentials and once with the control PIN. Whatever comes:
no 5xx; the status code, content type, headers and body are the described ones; data
the description forbids is refused (4xx); every JSON refusal says why (a non-empty
``reason``). Afterwards: without the PIN nothing changed; with the PIN the table still
answers, its journal replays to the same view, and every journalled event is one the
game accepts on replay.

``/stream`` and ``/club/stream`` are left out: they never end on their own (their
answers are checked in tests/web/test_stream.py and tests/club/test_dashboard.py).
``REFBOX_FUZZ_SCALE`` multiplies the examples per operation (docs/security.md).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from refbox.club import Broker, ClubPublisher, ClubWatcher
from refbox.journal import Journal
from refbox.table import Table
from rules import IllegalEvent, MalformedEvent, Session, all_games
from web import create_app

from ..club.conftest import broker, wait_until  # noqa: F401 (broker: the club tests' fixture)
from .strategies import GOLDEN, examples, golden_lines

PIN = "2468"
ENDLESS = {"/stream", "/club/stream"}  # server-sent events: never end without ?max=
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance, negative_data_rejection]
FUZZ = settings(max_examples=examples(30), deadline=None, database=None, suppress_health_check=list(HealthCheck))


def refusal_says_why(response: Any) -> None:
    """Every 4xx JSON answer names the reason: ``{"reason": "..."}`` (``accepted: false``
    where it is an answer to a change)."""
    if 400 <= response.status_code < 500 and "json" in response.headers.get("content-type", [""])[0]:
        body = json.loads(response.content)
        assert isinstance(body, dict) and isinstance(body.get("reason"), str) and body["reason"].strip(), (
            f"{response.request.method} {response.request.url} -> {response.status_code} without a reason: {body!r}")


def check(case: Any, headers: dict[str, str], seen: dict[str, int]) -> None:
    """Send one case and check the answer; counts ``METHOD /path STATUS`` in ``seen``."""
    response = case.call(headers=headers)
    case.validate_response(response, checks=CHECKS, headers=headers)
    refusal_says_why(response)
    key = f"{case.operation.method.upper()} {case.operation.path} {response.status_code}"
    seen[key] = seen.get(key, 0) + 1


def fuzz(app: Any, headers: dict[str, str]) -> dict[str, int]:
    """Every described operation, positive then negative; returns how often each status came back."""
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    seen: dict[str, int] = {}
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.path in ENDLESS:
            continue
        takes_input = bool(list(operation.iter_parameters())) or bool(operation.body)
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE) if takes_input else (GenerationMode.POSITIVE,):

            @FUZZ
            @given(case=operation.as_strategy(generation_mode=mode))
            def run(case: Any) -> None:
                check(case, headers, seen)

            try:
                run()
            except Unsatisfiable:
                # nothing in the description can be broken (a free-text path parameter):
                # the positive run already sent arbitrary strings
                assert mode is GenerationMode.NEGATIVE, operation.label
                seen[f"{operation.label} unbreakable"] = 0
    return seen


@lru_cache(maxsize=None)
def golden() -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """The golden games' headers, and their events by game (time and source left out)."""
    headers: list[dict[str, Any]] = []
    events: dict[str, list[dict[str, Any]]] = {}
    for path in GOLDEN:
        lines = [json.loads(line) for line in golden_lines(path)]
        headers.append(lines[0])
        events.setdefault(lines[0]["game"], []).extend(
            {k: v for k, v in e.items() if k not in ("t", "source")} for e in lines[1:])
    return headers, events


def play(app: Any, table: Table, headers: dict[str, str]) -> dict[str, int]:
    """The API as a game is played through it: every /api/ operation mixed in one run,
    with bodies and buttons that often fit the game on the table (so the fuzzing gets
    past the first check; the served description already sent the junk): the golden
    games' headers and every game by name for a new game; the current game's golden
    events for an event; its keypad buttons for a press; every tile for proposals."""
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    ops = {(op.method.upper(), op.path): op for op in (r.ok() for r in schema.get_all_operations())
           if op.path.startswith("/api/") and op.path != "/api/openapi.json"}
    weights = {("POST", "/api/events"): 6, ("POST", "/api/press/{button}"): 4, ("POST", "/api/new-game"): 2}
    choices = [key for key in ops for _ in range(weights.get(key, 1))]
    new_games = golden()[0] + [
        {"game": g.name, "players": [f"P{i}" for i in range(1, max(2, g.min_players) + 1)]} for g in all_games()]
    tiles = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
    seen: dict[str, int] = {}

    @settings(FUZZ, max_examples=examples(250))
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        key = data.draw(st.sampled_from(choices))
        # what is drawn never depends on the table (Hypothesis replays draws): an index,
        # resolved against the game on the table now
        pick = data.draw(st.integers(0, 10**6))
        game = table.session.game
        fixed: dict[str, Any] = {}
        if key == ("POST", "/api/events"):
            known = golden()[1].get(game.name) or [{"type": "undo"}]
            fixed["body"] = known[pick % len(known)]
        elif key == ("POST", "/api/new-game"):
            fixed["body"] = new_games[pick % len(new_games)]
        elif key == ("POST", "/api/press/{button}"):
            buttons = sorted([*game.keypad, "undo"])
            fixed["path_parameters"] = {"button": buttons[pick % len(buttons)]}
        elif key == ("GET", "/api/proposals"):
            fixed["query"] = {"tile": tiles[pick % len(tiles)]}
        check(data.draw(ops[key].as_strategy(**fixed)), headers, seen)

    run()
    return seen


@pytest.fixture
def table(tmp_path):
    t = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.01,
              keep_games=100_000)
    t.start()
    yield t
    t.stop()


@pytest.fixture
def watcher(broker, table):
    """A club watcher that sees the fuzzed table (it publishes its views to the broker)."""
    w = ClubWatcher(Broker("127.0.0.1", broker.port), reconnect_max=1).start()
    publisher = ClubPublisher(Broker("127.0.0.1", broker.port), "table-7", reconnect_max=1).start()
    table.attach("club", publisher)
    assert wait_until(lambda: (w.tables().get("table-7") or {}).get("view") is not None)
    yield w
    publisher.close()
    w.close()


def journal_of(table: Table) -> list[tuple[int, dict[str, Any], list[dict[str, Any]]]]:
    return [(gid, header, list(table.journal.events(gid))) for gid, header in table.journal.games()]


def test_without_the_pin_nothing_changes(table, watcher):
    table.submit({"type": "roll", "dice": [4]}).result(5)  # something to lose
    before_journal, before_view = journal_of(table), table.view.text
    app = create_app(table, {"TESTING": True, "CONTROL_PIN": PIN, "CLUB_WATCHER": watcher})
    seen = fuzz(app, {})
    assert journal_of(table) == before_journal and table.view.text == before_view
    # every change was refused for want of control, and the wrong-PIN limit was reached
    changes = {k: n for k, n in seen.items() if k.startswith("POST /api/") and n}
    print(json.dumps(seen, indent=1, sort_keys=True))
    assert changes and all(k.endswith((" 403", " 429")) for k in changes), changes
    assert seen.get("POST /login 429"), seen  # the fuzzer's wrong PINs reached the limit


def test_with_the_pin_the_table_stays_sound(table, watcher):
    # wrong PINs (POST /login) count against the one test client address: a high limit
    # keeps the PIN header working (the limiter itself: tests/web/test_auth.py)
    app = create_app(table, {"TESTING": True, "CONTROL_PIN": PIN, "CLUB_WATCHER": watcher, "LOGIN_LIMIT": 10**6})
    seen = fuzz(app, {"X-Refbox-Pin": PIN})
    game_like = play(app, table, {"X-Refbox-Pin": PIN})
    print(json.dumps(seen, indent=1, sort_keys=True), json.dumps(game_like, indent=1, sort_keys=True))
    accepted = {k.split()[1] for k, n in game_like.items() if k.startswith("POST /api/") and k.endswith(" 200") and n}
    assert "/api/new-game" in accepted and accepted & {"/api/events", "/api/press/{button}"}, game_like
    client = app.test_client()
    # the table still answers
    assert client.get("/api/view").status_code == 200
    r = client.post("/api/undo", headers={"X-Refbox-Pin": PIN})
    assert r.status_code in (200, 422) and r.json["reason" if r.status_code == 422 else "accepted"]
    table.stop()
    now = table.clock()
    # every journalled event is one its game accepts, and the current game replays to the same view
    for gid, header, events in journal_of(table):
        session = Session.start(header)
        for n, event in enumerate(events, 1):
            try:
                session.submit(event)
            except (MalformedEvent, IllegalEvent) as exc:
                pytest.fail(f"game {gid} ({header}): journalled event {n} {event} is refused on replay: {exc}")
        if gid == table.game_id:
            assert session.view(now) == table.session.view(now)
            assert session.applied == table.session.applied


RAW = st.one_of(
    st.binary(max_size=40),
    st.text(max_size=40).map(str.encode),
    st.sampled_from([b"[" * 100_000, b"NaN", b"-Infinity", b"1e999", b'"\\ud800"', b'{"\\udfff": 1}', b"\xff\xfe{}",
                     b'{"type": "roll", "dice": [NaN]}', b'{"game": "pig", "players": ["A", "\\ud800"]}',
                     b'{"dice": [1e400]}', b"1" * 5000, b"{" * 3000 + b"}" * 3000, b""]),
)


@settings(FUZZ, max_examples=examples(150))
@given(body=RAW, path=st.sampled_from(["/api/events", "/api/new-game", "/api/reading"]),
       content_type=st.sampled_from(["application/json", "text/plain", "application/json; charset=latin-1"]))
def test_hostile_raw_bodies(table_factory, body, path, content_type):
    """What the description cannot say: bodies that are not (standard) JSON at all.
    Refused with a reason in strict JSON, never a 5xx, nothing journalled."""
    table, client = table_factory
    before = table.journal.count(table.game_id)
    r = client.post(path, data=body, headers={"X-Refbox-Pin": PIN, "Content-Type": content_type})
    assert r.status_code < 500, r.get_data(as_text=True)
    answer = json.loads(r.get_data(as_text=True), parse_constant=lambda c: pytest.fail(f"{c} in the answer"))
    if r.status_code >= 400:
        assert answer["reason"] and table.journal.count(table.game_id) == before


@pytest.fixture(scope="module")
def table_factory(tmp_path_factory):
    t = Table(Journal(tmp_path_factory.mktemp("raw") / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]},
              tick=0.01)
    t.start()
    yield t, create_app(t, {"TESTING": True, "CONTROL_PIN": PIN}).test_client()
    t.stop()
