"""The SSE protocol: history and views, catch-up after a reconnect, a table restart, health."""

import json

import pytest

from refbox.journal import Journal
from refbox.table import Table
from web import create_app
from web.feed import parse_position

from .conftest import PIN


def messages(client, url="/stream", headers=None, until=lambda ms: False):
    """Read the stream until ``until(messages)``; a keepalive comment also ends it."""
    resp = client.get(url, headers=headers or {}, buffered=False)
    got, buf = [], ""
    try:
        for chunk in resp.response:
            buf += chunk.decode() if isinstance(chunk, bytes) else chunk
            while "\n\n" in buf:
                block, buf = buf.split("\n\n", 1)
                if block.startswith(": keepalive"):
                    return got
                fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
                if "event" in fields:
                    got.append({"id": fields["id"], "event": fields["event"], "data": json.loads(fields["data"])})
            if got and until(got):
                return got
    finally:
        resp.close()
    return got


def has_view(ms):
    return any(m["event"] == "view" for m in ms)


@pytest.fixture
def app(table, clock):
    return create_app(table, {"TESTING": True, "CONTROL_PIN": PIN, "SSE_KEEPALIVE": 0.2, "HEALTH_INTERVAL": 0.05,
                              "RATE_CLOCK": clock})


def roll(table, *dice):
    for d in dice:
        assert table.submit({"type": "roll", "dice": [d]}).result(5).accepted


def test_first_connection_gets_the_history_then_the_view(client, table):
    roll(table, 3, 4)
    ms = messages(client, until=has_view)
    assert [m["event"] for m in ms] == ["history", "view"]
    hist, view = ms[0]["data"], ms[1]["data"]
    assert hist["reset"] is True and hist["game"] == table.game_id
    assert [(e["seq"], e["event"]["dice"]) for e in hist["events"]] == [(1, [3]), (2, [4])]
    assert view["turn_total"] == 7
    pos = parse_position(ms[1]["id"])
    assert (pos.game, pos.jseq, pos.vseq) == (table.game_id, 2, table.view.seq)


def test_reconnect_gets_exactly_what_was_missed(client, table):
    roll(table, 2)
    last = messages(client, until=has_view)[-1]["id"]
    roll(table, 5, 6)  # while the client was away
    for how in ({"headers": {"Last-Event-ID": last}}, {"url": f"/stream?since={last}"}):
        ms = messages(client, until=has_view, **how)
        hist = [m["data"] for m in ms if m["event"] == "history"]
        assert len(hist) == 1 and hist[0]["reset"] is False
        assert [e["event"]["dice"] for e in hist[0]["events"]] == [[5], [6]]
        assert ms[-1]["event"] == "view" and ms[-1]["data"]["turn_total"] == 13


def test_reconnect_with_nothing_missed_sends_nothing_but_keepalives(client, table):
    roll(table, 2)
    last = messages(client, until=has_view)[-1]["id"]
    assert messages(client, headers={"Last-Event-ID": last}) == []


def test_live_events_arrive_in_order(client, table):
    import threading

    def later():
        roll(table, 3)
        table.submit({"type": "stop"}).result(5)

    threading.Timer(0.1, later).start()
    ms = messages(client, url="/stream?max=3", until=lambda ms: sum(m["event"] == "view" for m in ms) == 3)
    views = [m["data"] for m in ms if m["event"] == "view"]
    assert [v["turn_total"] for v in views] == [0, 3, 0] and views[-1]["turn"] == "Bob"
    seqs = [e["seq"] for m in ms if m["event"] == "history" for e in m["data"]["events"]]
    assert seqs == [1, 2]


def test_table_restart_sends_the_view_again_and_the_history_it_missed(tmp_path, clock):
    path = tmp_path / "j.sqlite3"
    t1 = Table(Journal(path), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.01)
    t1.handle({"type": "roll", "dice": [4]})
    app1 = create_app(t1, {"TESTING": True, "SSE_KEEPALIVE": 0.2})
    last = messages(app1.test_client(), until=has_view)[-1]["id"]
    t1.handle({"type": "roll", "dice": [2]})  # journalled just before the "crash"
    t1.journal.close()

    t2 = Table(Journal(path), None, tick=0.01)  # the restarted table: same journal, new process
    t2.handle({"type": "roll", "dice": [6]})
    app2 = create_app(t2, {"TESTING": True, "SSE_KEEPALIVE": 0.2})
    ms = messages(app2.test_client(), headers={"Last-Event-ID": last}, until=has_view)
    hist = [e["event"]["dice"] for m in ms if m["event"] == "history" for e in m["data"]["events"]]
    assert hist == [[2], [6]]
    assert ms[-1]["event"] == "view" and ms[-1]["data"]["turn_total"] == 12
    assert parse_position(ms[-1]["id"]).boot != parse_position(last).boot


def test_new_game_resets_the_history(client, table):
    roll(table, 3)
    last = messages(client, until=has_view)[-1]["id"]
    assert table.new_game({"game": "pig", "players": ["Cid", "Dan"]}).result(5).accepted
    roll(table, 5)
    ms = messages(client, headers={"Last-Event-ID": last}, until=has_view)
    hist = [m["data"] for m in ms if m["event"] == "history"]
    assert hist[0]["reset"] is True and [e["event"]["dice"] for e in hist[0]["events"]] == [[5]]
    assert ms[-1]["data"]["players"][0]["name"] == "Cid"


def test_a_position_beyond_the_journal_is_a_fresh_start(client, table):
    roll(table, 3)
    last = messages(client, until=has_view)[-1]["id"]
    boot, game, _, vseq = last.split(".")
    ms = messages(client, headers={"Last-Event-ID": f"{boot}.{game}.99.{vseq}"}, until=lambda ms: True)
    assert ms[0]["event"] == "history" and ms[0]["data"]["reset"] is True
    assert [e["seq"] for e in ms[0]["data"]["events"]] == [1]


def test_garbage_last_event_id_is_a_fresh_start(client, table):
    roll(table, 3)
    ms = messages(client, headers={"Last-Event-ID": "x.y"}, until=has_view)
    assert ms[0]["event"] == "history" and ms[0]["data"]["reset"] is True


def test_health_changes_are_streamed(app, client):
    import threading

    state = {"camera": {"ok": True, "detail": ""}}
    app.extensions["refbox.health"] = lambda: state

    def unplug():
        nonlocal state
        state = {"camera": {"ok": False, "detail": "unplugged"}}

    threading.Timer(0.1, unplug).start()
    ms = messages(client, until=lambda ms: ms[-1]["event"] == "health" and not ms[-1]["data"]["camera"]["ok"])
    health = [m["data"] for m in ms if m["event"] == "health"]
    assert health == [{"camera": {"ok": True, "detail": ""}}, {"camera": {"ok": False, "detail": "unplugged"}}]


def test_history_of_many_viewers_reads_the_journal_once_per_view(app, table, monkeypatch):
    roll(table, 3)
    calls = []
    real = table.journal.rows
    monkeypatch.setattr(table.journal, "rows", lambda *a, **k: calls.append(a) or real(*a, **k))
    feed = app.extensions["refbox.feed"]
    for _ in range(50):
        assert [e.seq for e in feed.history(table.game_id, 0, table.view.seq)] == [1]
    assert len(calls) <= 1
