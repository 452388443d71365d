"""Hostile events: whatever JSON-like data reaches a game (from the web, a replay file,
the club), it is refused with MalformedEvent or IllegalEvent and changes nothing, or it
is accepted, shows as a JSON view and replays the same from the journal."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from refbox.journal import Journal
from refbox.table import Table
from rules import IllegalEvent, MalformedEvent, Session
from rules.session import BadHeader, Header

from .strategies import GOLDEN, any_event, examples, golden_lines, json_like

FUZZ = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def started(path_index: int, prefix: int) -> tuple[dict, list[dict]]:
    lines = golden_lines(GOLDEN[path_index % len(GOLDEN)])
    header = json.loads(lines[0])
    events = [json.loads(x) for x in lines[1:]]
    return header, events[: prefix % (len(events) + 1)]


@st.composite
def situations(draw: st.DrawFn) -> tuple[dict, list[dict], list]:
    header, prefix = started(draw(st.integers(0, len(GOLDEN) - 1)), draw(st.integers(0, 400)))
    fuzz = draw(st.lists(any_event(header["game"]), min_size=1, max_size=4))
    return header, prefix, fuzz


def _same(a: object, b: object) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@FUZZ
@given(situations())
@example(({"game": "pig", "players": ["A", "B"]}, [], [{"type": "roll", "dice": [1e308]}]))
@example(({"game": "pig", "players": ["A", "B"]}, [], [{"type": "roll", "dice": [3], "t": float("nan")}]))
@example(({"game": "futsal", "players": ["A", "B"]}, [], [{"type": "clock_set", "remaining": float("inf")}]))
def test_session_refuses_cleanly_and_changes_nothing(situation):
    header, prefix, fuzz = situation
    session = Session.start(header)
    for e in prefix:
        session.submit(e)
    for event in fuzz:
        now = session.last_t or 0.0
        before = json.dumps(session.view(now), sort_keys=True)
        applied, n_events = session.applied, len(session.events)
        try:
            session.submit(event)
        except (MalformedEvent, IllegalEvent) as exc:
            assert str(exc)  # a reason to show
            assert json.dumps(session.view(now), sort_keys=True) == before
            assert (session.applied, len(session.events)) == (applied, n_events)
        else:
            view = session.view(session.last_t or 0.0)
            json.dumps(view, allow_nan=False)  # a view is strict JSON (the web page, MQTT)


@FUZZ
@given(situations())
@example(({"game": "pig", "players": ["A", "B"]}, [], [{"type": "undo", "t": 3}, {"type": "roll", "dice": [4], "\ud800": 1}]))
@example(({"game": "futsal", "players": ["A", "B"]}, [], [{"type": "goal", "team": "home", "player": "\ud800"}]))
@example(({"game": "futsal", "players": ["A", "B"]}, [], [{"type": "clock_start"}, {"type": "clock_stop", "reason": "\ud800"}]))
@example(({"game": "pig", "players": ["A", "B"]}, [], [None, [], "roll"]))
def test_table_handle_never_raises_and_the_journal_replays_the_same(situation):
    header, prefix, fuzz = situation
    table = Table(Journal(":memory:"), header, clock=lambda: 1000.0)
    for e in prefix:
        assert table.handle(e).accepted, e
    for event in fuzz:
        before = table.view.text
        count = table.journal.count(table.game_id)
        result = table.handle(event, "web")
        if not result.accepted:
            assert result.reason
            assert table.view.text == before and table.journal.count(table.game_id) == count
    # what was journalled replays to the same state (the restart after a power cut)
    again = Session.start(Header.from_dict(table.journal.latest_game()[1]))
    for stored in table.journal.events(table.game_id):
        again.submit(stored)
    assert _same(again.view(1000.0), table.session.view(1000.0))
    assert again.applied == table.session.applied


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1.0, True, "3", None])
def test_event_time_must_be_a_finite_non_negative_number(value):
    session = Session.start({"game": "pig", "players": ["A", "B"]})
    if value is None:
        session.submit({"type": "roll", "dice": [3], "t": value})
        return
    with pytest.raises(MalformedEvent) as err:
        session.submit({"type": "roll", "dice": [3], "t": value})
    assert "'t'" in str(err.value) and not math.isnan(session.view(0.0)["turn_total"])


headers = st.one_of(
    json_like,
    st.fixed_dictionaries(
        {"game": st.sampled_from(["pig", "futsal", "snooker", "all-fives", "bluff", "thousand", "nope"]) | json_like},
        optional={"players": st.lists(st.sampled_from(["Ann", "Bob", "", "Ann", "x" * 41]) | json_like, max_size=9) | json_like,
                  "options": st.dictionaries(st.sampled_from(["target", "half_minutes", "best_of", "extra_time", "x"]),
                                             json_like | st.integers(-5, 2000), max_size=3) | json_like,
                  "extra": json_like},
    ),
)


@FUZZ
@given(headers)
@example({"game": "pig", "players": ["A", "B"], "options": [1, 2]})
@example({"game": "pig", "players": ["A", "B"], "options": "target"})
@example({"game": ["pig"], "players": ["A", "B"]})
@example({"game": "pig", "players": [["A"], ["A"]]})
def test_new_game_header_is_refused_cleanly(header):
    table = Table(Journal(":memory:"), {"game": "pig", "players": ["A", "B"]}, clock=lambda: 1.0)
    before = (table.game_id, table.view.text)
    result = table.handle_new_game(header)
    if not result.accepted:
        assert result.reason and (table.game_id, table.view.text) == before
    try:
        Header.from_dict(header)
    except BadHeader:
        pass


@FUZZ
@given(st.integers(0, len(GOLDEN) - 1), st.integers(0, 400),
       st.lists(st.lists(st.integers(-1, 9), max_size=12), min_size=1, max_size=3),
       st.lists(st.text(max_size=12) | st.sampled_from(["undo", "stop", "goal_home", "start_stop", "horn"]), max_size=3))
def test_camera_readings_and_button_presses_never_raise(index, prefix, readings, buttons):
    header, events = started(index, prefix)
    table = Table(Journal(":memory:"), header, clock=lambda: 10**6)
    for e in events:
        table.handle(e)
    for dice in readings:
        before = table.view.text
        r = table.handle_reading(dice)
        if not r.accepted:
            assert r.reason and table.view.text == before
    for name in buttons:
        before = table.view.text
        r = table.handle_press(name, "web")
        if not r.accepted:
            assert r.reason and table.view.text == before
