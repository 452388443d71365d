"""The club dashboard: the page and its event stream (Flask test client), the page in
a real headless Chromium, and ``refbox club`` as a real process."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from refbox.club import Broker, ClubPublisher, ClubWatcher
from refbox.journal import Journal
from refbox.table import Table
from web import create_app

from .conftest import wait_until

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture
def club(broker):
    """Two tables publishing (a Pig table and a futsal court) and a watcher seeing both."""
    watcher = ClubWatcher(Broker("127.0.0.1", broker.port), reconnect_max=1).start()
    pubs = {tid: ClubPublisher(Broker("127.0.0.1", broker.port), tid, reconnect_max=1).start()
            for tid in ("table-1", "court-2")}
    tables = {"table-1": Table(Journal(":memory:"), {"game": "pig", "players": ["Ann", "Bob"]}, clock=lambda: 1.0),
              "court-2": Table(Journal(":memory:"), {"game": "futsal", "players": ["Lions", "Tigers"]}, clock=lambda: 1.0)}
    for tid, table in tables.items():
        table.attach("club", pubs[tid])
    assert wait_until(lambda: len([e for e in watcher.tables().values() if e["view"] and e["status"] == "online"]) == 2)
    yield watcher, pubs, tables
    for table in tables.values():
        table.stop()
    for pub in pubs.values():
        pub.close()
    watcher.close()


def sse_events(chunks) -> list[tuple[str, dict]]:
    text = b"".join(chunks).decode()
    out = []
    for block in text.split("\n\n"):
        kind = re.search(r"^event: (.*)$", block, re.M)
        data = re.search(r"^data: (.*)$", block, re.M)
        if kind and data:
            out.append((kind.group(1), json.loads(data.group(1))))
    return out


def test_the_page_shows_every_table(club):
    watcher, _, _ = club
    client = create_app(None, {"TESTING": True, "CLUB_WATCHER": watcher}).test_client()
    page = client.get("/club").get_data(as_text=True)
    assert page.count('class="tile online"') == 2
    for text in ("table-1", "court-2", "pig", "futsal", "Lions", "Tigers", "00:00", "1st half", "Ann to play",
                 "broker connected"):
        assert text in page, text
    assert client.get("/").headers["Location"].endswith("/club")  # no table here: / leads to the dashboard
    tables = client.get("/club/api/tables").json
    assert [t["table"] for t in tables["tables"]] == ["court-2", "table-1"] and tables["broker"]["ok"]


def test_the_stream_sends_all_tables_then_each_change(club):
    watcher, pubs, tables = club
    client = create_app(None, {"TESTING": True, "CLUB_WATCHER": watcher}).test_client()
    first = sse_events(client.get("/club/stream?max=1").response)
    assert first[0][0] == "broker" and first[0][1]["connected"] is True
    kind, tiles = first[1]
    assert kind == "tables" and {t["table"]: t["status"] for t in tiles} == {"table-1": "online", "court-2": "online"}
    assert {t["table"]: t["summary"]["game"] for t in tiles} == {"table-1": "pig", "court-2": "futsal"}

    def later():
        time.sleep(0.3)
        tables["court-2"].handle({"type": "goal", "team": "home"})
        tables["court-2"].handle({"type": "goal", "team": "away"})

    threading.Thread(target=later).start()
    events = sse_events(client.get("/club/stream?max=2").response)
    changes = [data for kind, data in events if kind == "table"]
    assert changes and changes[-1]["table"] == "court-2"
    assert changes[-1]["summary"]["score"] in ("Lions 1 · Tigers 0", "Lions 1 · Tigers 1")
    assert "view" not in changes[-1]  # tiles get the summary, not the whole view


def test_a_table_without_a_club_watcher_has_no_dashboard(tmp_path):
    table = Table(Journal(":memory:"), {"game": "pig", "players": ["A", "B"]})
    client = create_app(table, {"TESTING": True}).test_client()
    assert client.get("/club").status_code == 404 and client.get("/").status_code == 200


def test_the_dashboard_in_a_real_browser(club):
    from playwright.sync_api import expect, sync_playwright
    from werkzeug.serving import make_server

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: the browser tests need Debian's chromium (scripts/setup.sh test)")
    watcher, pubs, tables = club
    server = make_server("127.0.0.1", 0, create_app(None, {"CLUB_WATCHER": watcher, "SSE_KEEPALIVE": 1.0}), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"])
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{server.server_port}/club")
            court = page.locator('article[data-table="court-2"]')
            expect(page.locator("article.tile")).to_have_count(2)
            expect(court.locator(".clock")).to_have_text("00:00")
            tables["court-2"].handle({"type": "goal", "team": "away"})
            expect(court.locator(".pts").nth(1)).to_have_text("1", timeout=10_000)  # live, through MQTT and SSE
            pig = page.locator('article[data-table="table-1"]')
            tables["table-1"].handle_hold("die")  # (a die in doubt holds table-1's camera: the club sees which table waits)
            expect(pig.locator(".hold")).to_have_text("a die in doubt holds the throw", timeout=10_000)
            tables["table-1"].handle_hold("lost")  # (its camera lost: throws are entered by hand there)
            expect(pig.locator(".hold")).to_have_text("camera lost: throws entered by hand", timeout=10_000)
            tables["table-1"].handle_hold("paused")
            expect(pig.locator(".hold")).to_have_text("camera paused: throws entered by hand", timeout=10_000)
            tables["table-1"].handle_hold(None)
            expect(pig.locator(".hold")).to_have_count(0, timeout=10_000)
            pubs["table-1"].close()
            expect(pig).to_have_class(re.compile(r"\boffline\b"), timeout=10_000)
            expect(pig.locator(".state")).to_have_text("offline")
            browser.close()
    finally:
        server.shutdown()


def test_refbox_club_runs_the_dashboard_alone(broker):
    pub = ClubPublisher(Broker("127.0.0.1", broker.port), "table-5", reconnect_max=1).start()
    pub.show({"game": "pig", "players": [{"name": "Ann", "score": 40}, {"name": "Bob", "score": 12}], "turn": "Bob", "camera_hold": "die"})
    proc = subprocess.Popen([sys.executable, "-m", "refbox", "club", "--broker", "127.0.0.1", "--port", str(broker.port),
                             "--web-port", "0"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "REFBOX_CLUB_PASSWORD": "unused-here"})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        url = re.search(r"http://\S+/club", line)
        assert url, line

        def shown() -> bool:
            data = json.load(urllib.request.urlopen(url.group(0) + "/api/tables", timeout=5))
            return [t["summary"]["score"] for t in data["tables"]] == ["Ann 40 · Bob 12"]

        assert wait_until(shown, 10)
        page = urllib.request.urlopen(url.group(0), timeout=5).read().decode()
        assert "table-5" in page and "Bob to play" in page and "a die in doubt holds the throw" in page
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
        pub.close()
    assert "unused-here" not in proc.stderr.read()


def test_refbox_club_refuses_a_bad_prefix():
    out = subprocess.run([sys.executable, "-m", "refbox", "club", "--broker", "b", "--prefix", "a/+"], cwd=ROOT,
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 2 and "--prefix 'a/+' is not a usable MQTT topic prefix" in out.stderr
