"""ClubPublisher and ClubWatcher against a real Mosquitto: retained views, the last
will, a broker outage and restart, two tables, Home Assistant discovery."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest

from refbox.club import Broker, ClubError, ClubPublisher, ClubWatcher, discovery_messages, topics
from refbox.journal import Journal
from refbox.table import Table

from .conftest import wait_until
from .mqtt_tools import Recorder

ROOT = Path(__file__).resolve().parents[2]
PIG = {"game": "pig", "players": ["Ann", "Bob"]}
FUTSAL = {"game": "futsal", "players": ["Home", "Away"]}


@pytest.fixture
def closing():
    things = []
    yield things.append
    for thing in reversed(things):
        try:
            thing.close()
        except Exception:
            pass


def publisher(broker, table_id="table-1", **kw) -> ClubPublisher:
    return ClubPublisher(Broker("127.0.0.1", broker.port, keepalive=5), table_id, reconnect_max=1, **kw)


def envelope(payload: bytes) -> dict:
    return json.loads(payload)


def test_a_late_subscriber_gets_the_latest_view_retained(broker, closing):
    table = Table(Journal(":memory:"), PIG, clock=lambda: 10.0)
    pub = publisher(broker).start()
    closing(pub)
    table.attach("club", pub)
    for dice in ([3], [5], [4]):
        assert table.handle({"type": "roll", "dice": dice}).accepted
    # the table's feeder hands views over on its own thread: wait for the last one too
    last = json.loads(table.view.text)
    assert wait_until(lambda: pub._latest is not None and json.loads(pub._latest[1])["view"] == last
                      and pub.status()["connected"] and not pub.status()["pending"])
    table.stop()

    late = Recorder(broker.port, ["refbox/table-1/#"])
    closing(late)
    got = envelope(late.wait_for("refbox/table-1/view"))
    assert got["table"] == "table-1"
    assert got["view"] == json.loads(table.view.text)
    assert got["view"]["turn_total"] == 12
    assert got["summary"]["game"] == "pig" and got["summary"]["score"] == "Ann 0 · Bob 0"
    assert late.on("refbox/table-1/view")[-1][1] is True  # delivered as a retained message
    assert late.wait_for("refbox/table-1/status") == b"online"
    assert pub.status()["ok"] and pub.status()["published"] >= 1


def test_the_will_says_offline_when_the_table_process_dies(broker, closing):
    script = (
        "import sys, time\n"
        "from refbox.club import Broker, ClubPublisher\n"
        f"p = ClubPublisher(Broker('127.0.0.1', {broker.port}, keepalive=5), 'table-9').start()\n"
        "p.show({'game': 'pig', 'players': [{'name': 'Ann', 'score': 7}]})\n"
        "while not p.status()['published']: time.sleep(0.01)\n"
        "print('published', flush=True)\n"
        "time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "published"
        rec = Recorder(broker.port, ["refbox/table-9/#"])
        closing(rec)
        assert rec.wait_for("refbox/table-9/status") == b"online"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)
        assert rec.wait_for("refbox/table-9/status", lambda p: p == b"offline") == b"offline"
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(5)
        if proc.stdout:
            proc.stdout.close()
    # the will is retained: a dashboard that starts later still sees the table offline
    later = Recorder(broker.port, ["refbox/table-9/#"])
    closing(later)
    assert later.wait_for("refbox/table-9/status") == b"offline"
    assert envelope(later.wait_for("refbox/table-9/view"))["view"]["players"][0]["score"] == 7


def test_the_table_goes_on_while_the_broker_is_away_and_catches_up(broker, closing, tmp_path):
    table = Table(Journal(tmp_path / "j.sqlite3"), PIG, tick=0.02)
    closing(type("Stop", (), {"close": lambda self: table.stop()})())
    pub = publisher(broker)
    closing(pub)
    table.attach("club", pub)
    pub.start()
    table.start()
    assert table.submit({"type": "roll", "dice": [2]}).result(2).accepted
    assert wait_until(lambda: pub.status()["connected"] and not pub.status()["pending"])

    broker.stop()
    assert wait_until(lambda: not pub.status()["connected"])
    for dice in ([6], [6], [5], [4]):  # the loop answers at once: no output waits for the broker
        result = table.submit({"type": "roll", "dice": dice}).result(1.0)
        assert result.accepted, result.reason
    assert table.view.data["turn_total"] == 23
    assert wait_until(lambda: pub.status()["pending"])
    down = pub.status()
    assert not down["ok"] and "retrying" in down["detail"] and down["last_error"]

    broker.start()  # same port; persistence is off, so the broker lost the retained view
    assert wait_until(lambda: pub.status()["connected"] and not pub.status()["pending"], 15)
    rec = Recorder(broker.port, ["refbox/table-1/#"])
    closing(rec)
    got = envelope(rec.wait_for("refbox/table-1/view"))
    assert got["view"]["turn_total"] == 23 and got["view"] == json.loads(table.view.text)
    assert rec.wait_for("refbox/table-1/status") == b"online"
    assert pub.connects == 2


def test_the_watcher_sees_every_table(broker, closing):
    watcher = ClubWatcher(Broker("127.0.0.1", broker.port, keepalive=5), reconnect_max=1).start()
    closing(watcher)
    pig, futsal = publisher(broker, "table-1").start(), publisher(broker, "court-2").start()
    closing(pig)
    closing(futsal)
    pig_table = Table(Journal(":memory:"), PIG, clock=lambda: 1.0)
    court = Table(Journal(":memory:"), FUTSAL, clock=lambda: 1.0)
    pig.show(pig_table.view.data)
    futsal.show(court.view.data)
    assert pig_table.handle({"type": "roll", "dice": [5]}).accepted
    pig.show(pig_table.view.data)

    def both_online() -> bool:
        t = watcher.tables()
        return (set(t) == {"table-1", "court-2"} and all(e["status"] == "online" and e["view"] for e in t.values())
                and t["table-1"]["view"]["turn_total"] == 5)

    assert wait_until(both_online)
    tables = watcher.tables()
    assert tables["court-2"]["summary"]["clock"] == "00:00"
    assert tables["court-2"]["summary"]["scores"] == [{"name": "Home", "score": 0}, {"name": "Away", "score": 0}]
    assert tables["table-1"]["summary"]["turn"] == "Ann"
    assert watcher.status()["ok"] and watcher.status()["tables"] == 2

    version = watcher.version
    futsal.close()  # a clean close says offline too
    assert watcher.wait(version, 5) > version
    assert wait_until(lambda: watcher.tables()["court-2"]["status"] == "offline")
    assert watcher.tables()["table-1"]["status"] == "online"


def test_the_watcher_ignores_malformed_messages(broker, closing):
    watcher = ClubWatcher(Broker("127.0.0.1", broker.port), reconnect_max=1).start()
    closing(watcher)
    assert wait_until(lambda: watcher.connected)
    rec = Recorder(broker.port, ["refbox/#"])
    closing(rec)
    rec.client.publish("refbox/odd/view", b"not json", qos=1, retain=True).wait_for_publish(5)
    rec.client.publish("refbox/odd/status", b"maybe", qos=1, retain=True).wait_for_publish(5)
    assert wait_until(lambda: watcher.errors == 2)
    assert "odd" not in watcher.tables()


def test_home_assistant_discovery_is_well_formed(broker, closing):
    rec = Recorder(broker.port, ["homeassistant/#", "refbox/#"])
    closing(rec)
    pub = publisher(broker, "table-1", homeassistant=True).start()
    closing(pub)
    court = Table(Journal(":memory:"), FUTSAL, clock=lambda: 1.0)
    pub.show(court.view.data)
    assert wait_until(lambda: pub.status()["published"] >= 1)
    view = envelope(rec.wait_for("refbox/table-1/view"))
    env = jinja2.Environment()
    seen = {}
    for field in ("game", "score", "clock", "turn"):
        topic = f"homeassistant/sensor/table-1_{field}/config"
        config = json.loads(rec.wait_for(topic))
        assert config["availability_topic"] == "refbox/table-1/status"
        assert (config["payload_available"], config["payload_not_available"]) == ("online", "offline")
        assert config["state_topic"] == "refbox/table-1/view"
        assert config["device"]["identifiers"] == ["refbox_table-1"]
        # Home Assistant renders value_template with Jinja over the JSON payload
        seen[field] = env.from_string(config["value_template"]).render(value_json=view)
    assert seen == {"game": "futsal", "score": "Home 0 · Away 0", "clock": "00:00", "turn": ""}
    late = Recorder(broker.port, ["homeassistant/#"])  # the configs are retained for a later Home Assistant
    closing(late)
    assert wait_until(lambda: len({t for t, _, r in late.messages if r}) == 4)
    ids = [json.loads(p)["unique_id"] for _, p, _ in late.messages]
    assert sorted(set(ids)) == ["refbox_table-1_clock", "refbox_table-1_game", "refbox_table-1_score", "refbox_table-1_turn"]


def test_table_ids_and_prefixes_are_checked():
    with pytest.raises(ClubError, match="table id 'a/b' may hold only"):
        topics("refbox", "a/b")
    with pytest.raises(ClubError, match="table id '#' may hold only"):
        ClubPublisher(Broker("127.0.0.1"), "#")
    with pytest.raises(ClubError, match="an empty level"):
        topics("refbox//x", "t1")
    with pytest.raises(ClubError, match="level '\\+'"):
        discovery_messages("homeassistant", "+", "t1")
    assert topics("club/refbox", "court_2").view == "club/refbox/court_2/view"


def test_tls_to_a_broker_with_a_private_ca(tls_broker, closing):
    tls = Broker("127.0.0.1", tls_broker.port, tls=True, ca_file=str(tls_broker.certs["ca"]), keepalive=5)
    watcher = ClubWatcher(tls, reconnect_max=1).start()
    closing(watcher)
    pub = ClubPublisher(tls, "table-1", reconnect_max=1).start()
    closing(pub)
    pub.show({"game": "pig", "players": [{"name": "Ann", "score": 9}]})
    assert wait_until(lambda: (watcher.tables().get("table-1") or {}).get("summary") is not None)
    assert watcher.tables()["table-1"]["summary"]["score"] == "Ann 9"
    assert pub.status()["detail"] == f"connected to mqtts://127.0.0.1:{tls_broker.port} as table-1"

    # the system's CAs do not vouch for the private certificate: no connection, and the table goes on
    untrusted = ClubPublisher(Broker("127.0.0.1", tls_broker.port, tls=True), "table-2", reconnect_max=1).start()
    closing(untrusted)
    untrusted.show({"game": "pig"})
    assert wait_until(lambda: untrusted.status()["last_error"] is not None)
    assert not untrusted.status()["connected"] and "table-2" not in watcher.tables()
