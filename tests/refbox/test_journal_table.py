import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from refbox.journal import Journal
from refbox.table import Mailbox, Table, View

ROOT = Path(__file__).resolve().parents[2]
PIG = {"game": "pig", "players": ["Ann", "Bob"]}


class Clock:
    def __init__(self, t=0.0):
        self.t = t

    def __call__(self):
        return self.t


def test_accepted_event_is_journalled_before_outputs_hear(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    table = Table(journal, PIG, clock=Clock(1.0))
    seen = []

    class Spy:
        def show(self, view):
            seen.append(journal.count(table.game_id))

    box = table.subscribe()
    table.listeners.append(lambda r: seen.append(("result", journal.count(table.game_id))))
    result = table.handle({"type": "roll", "dice": [5]}, "button")
    assert result.accepted and result.seq == 1
    assert box.get(0).data["turn_total"] == 5
    assert seen == [("result", 1)]
    stored = list(journal.events(table.game_id))
    assert stored == [{"type": "roll", "dice": [5], "t": 1.0, "source": "button"}]


def test_refused_event_changes_nothing_and_says_why(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    table = Table(journal, PIG, clock=Clock())
    before = table.view
    result = table.handle({"type": "roll", "dice": [9]})
    assert not result.accepted and "expected a number in 1..6, got 9" in result.reason
    assert table.view == before and journal.count(table.game_id) == 0


def test_what_holds_the_cameras_reading_is_in_the_view_while_it_holds_and_nothing_is_journalled(tmp_path):
    """``Table.hold``: the camera says a die in doubt holds its throw; the view carries ``camera_hold`` (the pages
    and the scoreboards tell the players) until it says nothing does. An unknown hold is refused, naming it."""
    journal = Journal(tmp_path / "j.sqlite3")
    table = Table(journal, PIG, clock=Clock())
    box = table.subscribe()
    assert "camera_hold" not in box.get(0).data
    assert table.handle_hold("die").accepted and box.get(0).data["camera_hold"] == "die"
    refused = table.handle_hold("hand")
    assert not refused.accepted and "'hand': expected one of die, tile, lost, paused or None" in refused.reason
    assert table.view.data["camera_hold"] == "die"
    assert table.handle({"type": "roll", "dice": [4]}, "web").accepted and table.view.data["camera_hold"] == "die"
    assert table.handle_hold(None).accepted and "camera_hold" not in table.view.data
    assert journal.count(table.game_id) == 1


def test_undo_is_journalled_and_replay_gives_same_view(tmp_path):
    path = tmp_path / "j.sqlite3"
    table = Table(Journal(path), PIG, clock=Clock(2.0))
    for e in ({"type": "roll", "dice": [4]}, {"type": "roll", "dice": [6]}, {"type": "undo"}, {"type": "stop"}):
        assert table.handle(e).accepted
    view = table.view.data
    assert [e["type"] for e in table.journal.events(table.game_id)] == ["roll", "roll", "undo", "stop"]
    table.journal.close()
    again = Table(Journal(path), None, clock=Clock(2.0))
    assert again.view.data == view
    assert view["players"][0]["score"] == 4


def test_restart_brings_a_running_clock_back_stopped_at_its_last_journalled_value(tmp_path):
    path = tmp_path / "j.sqlite3"
    clock = Clock(100.0)
    table = Table(Journal(path), {"game": "futsal", "players": ["Home", "Away"]}, clock=clock)
    table.handle({"type": "clock_start"})
    clock.t = 130.0
    table.handle({"type": "goal", "team": "home"})
    table.journal.close()
    clock.t = 500.0  # power was off for a while
    again = Table(Journal(path), None, clock=clock)
    v = again.view.data
    assert v["clock"] == "00:30" and v["clock_running"] is False and v["home"]["score"] == 1
    assert list(again.journal.events(again.game_id))[-1]["source"] == "restore"


def test_timer_injects_period_end(tmp_path):
    clock = Clock(0.0)
    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "futsal", "players": ["H", "A"], "options": {"half_minutes": 1}}, clock=clock)
    table.handle({"type": "clock_start"})
    clock.t = 61.0
    table.tick()
    v = table.view.data
    # the half ended at exactly 60 s of running time; the 15-minute break counts down
    assert v["period"] == "half-time" and v["clock"] == "14:59" and v["horn_count"] == 1
    last = list(table.journal.events(table.game_id))[-1]
    assert last == {"type": "period_end", "t": 60.0, "source": "timer"}


def test_press_unknown_button_is_refused_with_the_known_ones(tmp_path):
    table = Table(Journal(tmp_path / "j.sqlite3"), PIG, clock=Clock())
    r = table.handle_press("goal_home")
    assert not r.accepted and "buttons: stop, undo" in r.reason


def test_damaged_journal_row_is_reported_and_not_applied(tmp_path, caplog):
    path = tmp_path / "j.sqlite3"
    table = Table(Journal(path), PIG, clock=Clock())
    table.handle({"type": "roll", "dice": [4]})
    table.handle({"type": "roll", "dice": [5]})
    table.journal._db.execute("UPDATE events SET body = replace(body, '5', '6') WHERE seq = 2")
    table.journal.close()
    again = Table(Journal(path), None, clock=Clock())
    assert again.view.data["turn_total"] == 4
    assert "damaged" in caplog.text


def test_slow_output_does_not_block_the_loop(tmp_path):
    table = Table(Journal(tmp_path / "j.sqlite3"), PIG, clock=Clock())
    release = threading.Event()
    shown = []

    class Slow:
        def show(self, view):
            release.wait(5)
            shown.append(view["turn_total"])

    table.attach("slow", Slow())
    for v in (2, 3, 4, 5, 6):
        assert table.handle({"type": "roll", "dice": [v]}).accepted  # returns at once
    release.set()
    table.stop()
    assert shown[-1] == 20 and len(shown) <= 3  # latest value only, stale views skipped


def test_mailbox_keeps_only_the_latest():
    box = Mailbox()
    for i in range(1, 4):
        box.put(View.of(i, {"n": i}))
    assert box.get(0).data == {"n": 3}
    assert box.get(0) is None


def test_threaded_loop_answers_through_futures(tmp_path):
    table = Table(Journal(tmp_path / "j.sqlite3"), PIG, tick=0.01)
    table.start()
    try:
        assert table.submit({"type": "roll", "dice": [3]}, "web").result(5).accepted
        r = table.press("stop").result(5)
        assert r.accepted and r.event["source"] == "button"
        assert table.view.data["players"][0]["score"] == 3
    finally:
        table.stop()


ACKER = textwrap.dedent(
    """
    import json, sys
    from refbox.journal import Journal
    from refbox.table import Table
    table = Table(Journal(sys.argv[1]), {"game": "pig", "players": ["Ann", "Bob"], "options": {"target": 1000}})
    for line in sys.stdin:
        r = table.handle(json.loads(line))
        print(json.dumps({"ok": r.accepted, "seq": r.seq}), flush=True)
    """
)


@pytest.mark.parametrize("kill_after", [0, 1, 7, 23, 60])
def test_sigkill_loses_no_acknowledged_event(tmp_path, kill_after):
    path = tmp_path / "j.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", ACKER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    acked = []
    events = [{"type": "roll", "dice": [2 + i % 5]} if i % 4 else {"type": "stop"} for i in range(1, 200)]
    sent = 0
    for e in events:
        proc.stdin.write(json.dumps(e) + "\n")
        proc.stdin.flush()
        sent += 1
        if len(acked) >= kill_after:
            break
        line = proc.stdout.readline()
        assert json.loads(line)["ok"], line
        acked.append(e)
    proc.send_signal(signal.SIGKILL)  # maybe mid-way through the last, unacknowledged event
    proc.wait()
    journal = Journal(path)
    latest = journal.latest_game()
    rows = [] if latest is None else list(journal.events(latest[0]))
    stored = [{k: v for k, v in e.items() if k in ("type", "dice")} for e in rows]
    assert stored[: len(acked)] == acked
    assert len(stored) in (len(acked), len(acked) + 1)  # the one in flight may or may not have landed


def test_new_games_compact_old_ones_keeping_their_final_view(tmp_path):
    table = Table(Journal(tmp_path / "j.sqlite3"), PIG, clock=Clock(), keep_games=2)
    first = table.game_id
    table.handle({"type": "roll", "dice": [6]})
    table.handle({"type": "stop"})
    for _ in range(3):
        assert table.handle_new_game(PIG).accepted
        table.handle({"type": "roll", "dice": [2]})
    j = table.journal
    assert j.count(first) == 0 and j.result(first)["players"][0]["score"] == 6
    assert j.count(table.game_id) == 1 and j.result(table.game_id) is None
    assert len(j.games()) == 4


POWER = textwrap.dedent(
    """
    import json, sys
    from refbox.journal import Journal
    from refbox.table import Table
    table = Table(Journal(sys.argv[1]), {"game": "pig", "players": ["Ann", "Bob", "Cy"], "options": {"target": 1000}})
    print(json.dumps({"start": table.session.applied}), flush=True)
    for line in sys.stdin:
        r = table.handle(json.loads(line))
        print(json.dumps({"ok": r.accepted}), flush=True)
    """
)


def test_power_cuts_at_random_points_lose_nothing_acknowledged(tmp_path):
    """SIGKILL a real process many times during bursts of events: after each restart the
    journal holds every acknowledged event, in order, plus at most the ones in flight,
    and the resumed state is exactly the replay of what it holds."""
    import random

    from rules import Session

    rng = random.Random(2026)
    path = tmp_path / "j.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    history = []  # every event ever acknowledged, in order
    for round_ in range(12):
        proc = subprocess.Popen([sys.executable, "-c", POWER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        start = json.loads(proc.stdout.readline())["start"]
        journal = Journal(path)
        before = list(journal.events(journal.latest_game()[0]))
        journal.close()
        assert len(before) == start
        burst = [{"type": "roll", "dice": [rng.randint(2, 6)]} if rng.random() < 0.7 else {"type": "stop"} for _ in range(40)]
        burst = [e for i, e in enumerate(burst) if not (e["type"] == "stop" and (i == 0 or burst[i - 1]["type"] == "stop"))]
        kill_after = rng.randint(0, len(burst))
        proc.stdin.write("".join(json.dumps(e) + "\n" for e in burst))
        proc.stdin.flush()
        acked = 0
        while acked < kill_after:
            line = proc.stdout.readline()
            if not line:
                break
            acked += 1
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        journal = Journal(path)
        gid = journal.latest_game()[0]
        stored = [{k: v for k, v in e.items() if k in ("type", "dice")} for e in journal.events(gid)]
        journal.close()
        new = stored[len(before):]
        assert new[:acked] == burst[:acked], f"round {round_}: an acknowledged event was lost"
        assert new == burst[: len(new)], f"round {round_}: the journal holds events that were never sent"
        history = stored
        resumed = Table(Journal(path), None, clock=Clock())
        expected = Session.start({"game": "pig", "players": ["Ann", "Bob", "Cy"], "options": {"target": 1000}})
        for e in history:
            expected.submit(e)
        got = resumed.session.view(0.0)
        assert {k: got[k] for k in ("players", "turn", "turn_total")} == {k: expected.view(0.0)[k] for k in ("players", "turn", "turn_total")}
        resumed.journal.close()
