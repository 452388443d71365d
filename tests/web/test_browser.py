"""The pages in a real browser: Debian's Chromium through Playwright, a real table and
journal, a real HTTP server on a free port. Missing Chromium is a failure, not a skip."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .browser import Served

TIMEOUT = 10_000  # ms



@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path / "j.sqlite3", {"game": "pig", "players": ["Ann", "Bob"]})
    yield s
    s.stop()


def expect():
    from playwright.sync_api import expect as e

    e.set_options(timeout=TIMEOUT)
    return e


def test_page_loads_and_shows_the_view(page, served):
    served.submit({"type": "roll", "dice": [4]})
    page.goto(served.url + "/")
    e = expect()
    e(page.locator("#table-name")).to_have_text("table-7")
    e(page.locator("#players .player.active .name")).to_have_text("Ann")
    e(page.locator("#turn .who")).to_have_text("Ann to play")
    e(page.locator("#turn .turn-total .value")).to_have_text("4")
    e(page.locator("#dice svg.die")).to_have_attribute("aria-label", "die 4")
    e(page.locator("#status")).to_have_class(re.compile("live"))
    e(page.locator("#history-list li .type")).to_have_text(["roll"])
    assert page.locator("#health").is_hidden()


def test_event_arrives_without_reload(page, served):
    page.goto(served.url + "/")
    e = expect()
    e(page.locator("#status")).to_have_class(re.compile("live"))
    page.evaluate("window.__marker = 42")  # gone if the page reloads
    served.submit({"type": "roll", "dice": [6]})
    e(page.locator("#turn .turn-total .value")).to_have_text("6")
    served.submit({"type": "stop"})
    e(page.locator("#players .player").first.locator(".score")).to_have_text("6")
    e(page.locator("#turn .who")).to_have_text("Bob to play")
    e(page.locator("#history-list li .type")).to_have_text(["stop", "roll"])  # newest first
    assert page.evaluate("window.__marker") == 42


def test_undone_events_are_struck_through(page, served):
    served.submit({"type": "roll", "dice": [3]})
    served.submit({"type": "roll", "dice": [4]})
    page.goto(served.url + "/")
    e = expect()
    e(page.locator("#status")).to_have_class(re.compile("live"))
    served.submit({"type": "undo"})
    e(page.locator("#history-list li .type")).to_have_text(["undo", "roll", "roll"])
    e(page.locator("#history-list li.undone .seq")).to_have_text(["2"])
    e(page.locator("#turn .turn-total .value")).to_have_text("3")


def test_health_fault_shows_a_banner(page, served):
    state = {"camera": {"ok": True, "detail": ""}}
    served.app.extensions["refbox.health"] = lambda: state
    page.goto(served.url + "/")
    e = expect()
    e(page.locator("#status")).to_have_class(re.compile("live"))
    assert page.locator("#health").is_hidden()
    state = {"camera": {"ok": False, "detail": "no frames for 5 s"}}
    served.submit({"type": "roll", "dice": [2]})  # any traffic; health is also checked on its own
    e(page.locator("#health")).to_contain_text("camera")
    e(page.locator("#health")).to_contain_text("no frames for 5 s")


def test_control_panel_refuses_without_pin_and_works_with_it(page, served):
    e = expect()
    page.goto(served.url + "/control")
    assert page.url.endswith("/login")
    # the API refuses a browser that has not logged in
    status = page.evaluate("""fetch('/api/press/stop', {method: 'POST'}).then(r => r.status)""")
    assert status == 403
    page.fill("#pin", "1111")
    page.click("#login-button")
    e(page.locator("#login-error")).to_have_text("wrong PIN")
    assert served.table.journal.count(served.table.game_id) == 0

    page.fill("#pin", served.pin)
    page.click("#login-button")
    page.wait_for_url(re.compile(r"/control$"))
    e(page.locator("#buttons button")).to_have_text(["stop", "undo"])
    e(page.locator("#status")).to_have_class(re.compile("live"))
    page.select_option("#event-type", "roll")
    page.fill("#event-fields", "dice=5")
    page.click("#event-form button[type=submit]")
    # the answer names the event and its own fields, as the camera panel does (not its source or time)
    e(page.locator("#answer")).to_have_text(re.compile(r'^accepted: \w+ \{"dice":\[5\]\}$'))
    e(page.locator("#turn .turn-total .value")).to_have_text("5")
    page.click("#buttons button[data-button=stop]")
    e(page.locator("#players .player").first.locator(".score")).to_have_text("5")
    assert served.table.view.data["players"][0]["score"] == 5
    # a POST without the page's CSRF token is refused even with the session cookie
    status = page.evaluate("""fetch('/api/undo', {method: 'POST'}).then(r => r.status)""")
    assert status == 403 and served.table.view.data["players"][0]["score"] == 5


def test_control_panel_new_game_and_clock(page, served):
    e = expect()
    served.log_in(page)
    e(page.locator("#new-game option[value=futsal]")).to_have_count(1)
    page.select_option("#new-game", "futsal")
    page.fill("#new-players", "Lviv, Kyiv")
    page.click("#new-game-button")
    e(page.locator("#home .name")).to_have_text("Lviv")
    e(page.locator("#clock-panel")).to_be_visible()
    page.fill("#clock-input", "12:30")
    page.select_option("#clock-kind", "remaining")  # futsal counts up a 20-minute half
    page.click("#clock-form button[type=submit]")
    e(page.locator("#clock")).to_have_text("07:30")
    page.select_option("#clock-kind", "elapsed")
    page.click("#clock-form button[type=submit]")
    e(page.locator("#clock")).to_have_text("12:30")
    assert served.table.session.header.game == "futsal"


def test_a_rule_of_ours_is_named_so_in_the_options_not_marked_rec(page, served):
    """The options' help keeps RULES.md's markers [REC] and [REC house rule] (a choice of ours where the
    source text leaves the rule open): the players read words, in their language, explained on pointing."""
    e = expect()
    served.log_in(page)
    page.select_option("#new-game", "pyramid")
    target = page.locator("#new-options .option", has=page.locator("[data-option=target]")).locator(".hint")
    e(target).to_have_text("our choice points (balls) to win a frame")
    e(target.locator("abbr.rec")).to_have_attribute("title", re.compile("^the source rules leave this open"))
    e(page.locator("#new-options abbr.rec", has_text="house rule")).to_have_text("our choice · house rule")
    e(page.locator("#new-options")).not_to_contain_text("[REC")
    page.goto(served.url + "/control?lang=uk")
    page.select_option("#new-game", "pyramid")
    e(target).to_have_text("наш вибір очок (куль) для перемоги в партії")
    e(page.locator("#new-options")).not_to_contain_text("[REC")


def test_stream_reconnects_after_a_restart_and_catches_up(page, tmp_path):
    e = expect()
    path = tmp_path / "j.sqlite3"
    first = Served(path, {"game": "pig", "players": ["Ann", "Bob"]})
    port = first.port
    try:
        first.submit({"type": "roll", "dice": [3]})
        page.goto(first.url + "/")
        e(page.locator("#turn .turn-total .value")).to_have_text("3")
        e(page.locator("#status")).to_have_class(re.compile("live"))
    finally:
        first.stop()
    e(page.locator("#status")).to_have_class(re.compile("reconnecting"))

    second = Served(path, None, port=port)  # the restarted table, same journal and port
    try:
        second.submit({"type": "roll", "dice": [5]})  # happened while the page was cut off
        second.submit({"type": "stop"})
        e(page.locator("#status")).to_have_class(re.compile("live"), timeout=20_000)
        e(page.locator("#players .player").first.locator(".score")).to_have_text("8")
        e(page.locator("#turn .who")).to_have_text("Bob to play")
        e(page.locator("#history-list li .type")).to_have_text(["stop", "roll", "roll"])
        e(page.locator("#history-list li .seq")).to_have_text(["3", "2", "1"])
        second.submit({"type": "roll", "dice": [2]})  # and it is live again
        e(page.locator("#turn .turn-total .value")).to_have_text("2")
    finally:
        second.stop()


def test_futsal_mirror_shows_clock_fouls_and_send_off(page, tmp_path):
    s = Served(tmp_path / "j.sqlite3", {"game": "futsal", "players": ["Lviv", "Kyiv"]})
    try:
        s.submit({"type": "clock_start"})
        s.submit({"type": "foul", "team": "home"})
        s.submit({"type": "card", "team": "home", "color": "red"})
        page.goto(s.url + "/")
        e = expect()
        e(page.locator("#home .score")).to_have_text("0")
        e(page.locator("#home .fouls .value")).to_have_text("1")
        e(page.locator("#home .penalties .penalty")).to_have_count(1)
        e(page.locator("#home .card.red")).to_have_count(1)
        e(page.locator("#clock")).to_have_text(re.compile(r"^\d\d:\d\d$"))
        e(page.locator("#period")).not_to_be_empty()
    finally:
        s.stop()


def test_dominoes_tiles_are_drawn(page, tmp_path):
    s = Served(tmp_path / "j.sqlite3", {"game": "all-fives", "players": ["Ann", "Bob"]})
    try:
        s.submit({"type": "new_hand"})
        s.submit({"type": "play", "tile": [6, 2]})
        page.goto(s.url + "/")
        e = expect()
        e(page.locator("#tiles svg.tile")).to_have_count(1)
        e(page.locator("#tiles svg.tile")).to_have_attribute("aria-label", "tile 6-2")
    finally:
        s.stop()


def test_control_panel_confirms_one_of_several_tile_placements(page, tmp_path):
    s = Served(tmp_path / "j.sqlite3", {"game": "all-fives", "players": ["Ann", "Bob"]})
    try:
        s.submit({"type": "new_hand"})
        s.submit({"type": "play", "tile": [6, 2]})
        s.submit({"type": "play", "tile": [2, 2], "end": "right"})  # the spinner: 2-3 fits three ends
        e = expect()
        s.log_in(page)
        e(page.locator("#tile-panel")).to_be_visible()
        assert page.locator("#reading-panel").is_hidden()
        page.fill("#tile-input", "2-3")
        page.click("#tile-form button[type=submit]")
        e(page.locator("#proposals button")).to_have_count(3)
        page.locator("#proposals button", has_text="up").click()
        e(page.locator("#answer")).to_contain_text("accepted")
        e(page.locator("#tiles .arm svg.tile")).to_have_count(1)
        assert s.table.view.data["arms"]["up"] == [[2, 3]]
    finally:
        s.stop()


def confirm_pending(s: Served, page, count: int, text: str) -> None:
    """Log in, see ``count`` confirm buttons for the camera's proposals, click the one
    showing ``text``: it is accepted and the panel goes away."""
    e = expect()
    s.log_in(page)
    e(page.locator("#pending button")).to_have_count(count)
    page.locator("#pending button", has_text=text).click()
    e(page.locator("#answer")).to_contain_text("accepted")
    e(page.locator("#pending-panel")).to_be_hidden()


def test_control_panel_confirms_an_ambiguous_camera_reading(page, tmp_path):
    """The camera sees 2-3 next to the spinner 2-2: three ends fit, so the table holds
    the proposals in the view and the operator confirms one with a click."""
    s = Served(tmp_path / "j.sqlite3", {"game": "all-fives", "players": ["Ann", "Bob"]})
    try:
        s.submit({"type": "new_hand"})
        s.submit({"type": "play", "tile": [6, 2]})
        s.submit({"type": "play", "tile": [2, 2], "end": "right"})
        r = s.table.tiles([[6, 2], [2, 2], [2, 3]]).result(5)
        assert not r.accepted and "ambiguous" in r.reason
        confirm_pending(s, page, 3, "down")
        assert s.table.view.data["arms"]["down"] == [[2, 3]] and "proposals" not in s.table.view.data
    finally:
        s.stop()


def test_control_panel_confirms_the_count_the_camera_read_from_the_hands(page, tmp_path):
    """Three players: Ann plays out; the camera sees the two tiles left (Bob's and
    Cat's, no zones), so both splits are proposed and the operator clicks one."""
    s = Served(tmp_path / "j.sqlite3", {"game": "all-fives", "players": ["Ann", "Bob", "Cat"],
                                        "options": {"hand_size": 5}})
    plays = [([6, 6], None), ([6, 1], "right"), ([6, 2], "left"), ([6, 3], "up"), ([6, 4], "down"),
             ([1, 0], "right"), ([2, 2], "left"), ([3, 3], "up"), ([4, 4], "down"), ([0, 5], "right"),
             ([2, 5], "left"), ([3, 5], "up"), ([4, 0], "down")]
    try:
        s.submit({"type": "new_hand"})
        for tile, end in plays:
            s.submit({"type": "play", "tile": tile} | ({"end": end} if end else {}))
        laid = [p["tile"] for p in s.table.view.data["layout"]]
        assert not s.table.tiles(laid + [[1, 2], [6, 5]]).result(5).accepted
        confirm_pending(s, page, 2, "[0,11,3]")
        assert s.table.view.data["last_hand"]["pips"] == [0, 11, 3]
    finally:
        s.stop()


def test_control_panel_shows_the_camera_and_its_last_reading(page, tmp_path):
    """A real camera worker replays sample photos of one die: craps wants two dice, so
    the operator sees the reading and why the game did not take it; after a new game
    of pig the next photo is a roll, shown as accepted. The table reads with the clear
    network (``camera.dice_network``), which the panel names."""
    import shutil

    from refbox.camera import CameraWorker, open_source

    root = Path(__file__).resolve().parents[2]
    folder = tmp_path / "cam"
    folder.mkdir()
    for name in ("face-5.jpg", "face-2.jpg"):
        shutil.copy(root / "samples" / "dice" / name, folder / name)
    s = Served(tmp_path / "j.sqlite3", {"game": "craps", "players": ["Ann", "Bob"]})
    worker = CameraWorker(lambda: open_source(f"folder:{folder}", hold_frames=15), s.table, interval=0.05, dice_network="clear")
    s.app.extensions["refbox.camera"] = worker
    try:
        e = expect()
        s.log_in(page)
        e(page.locator("#camera-panel")).to_be_visible()
        worker.start()
        e(page.locator("#camera-state")).to_contain_text(re.compile(r"connected; readings: \d+; dice network: clear"))
        # (how long a picture takes here: the real reader, asked every 50 ms, may take longer on a loaded machine)
        e(page.locator("#camera-state")).to_contain_text(re.compile(
            r"; \d+ ms a picture(, longer than camera.interval_ms \(50 ms\): pictures are read one after another)?$"))
        e(page.locator("#camera-last")).to_contain_text(re.compile(r"last reading [25] — .*dice"))
        e(page.locator("#camera-last")).to_have_class(re.compile("refused"))
        assert s.table.session.applied == 0
        assert s.table.new_game({"game": "pig", "players": ["Ann", "Bob"]}).result(5).accepted
        e(page.locator("#camera-last")).to_contain_text(re.compile(r"last reading [25] — accepted: "), timeout=20_000)
        e(page.locator("#camera-last")).to_have_class(re.compile("accepted"))
        assert [ev["source"] for ev in s.table.journal.events(s.table.game_id)][:1] == ["camera"]
    finally:
        worker.stop()
        s.stop()


def test_control_panel_says_when_the_camera_reads_whole_pictures(page, tmp_path):
    """Purple dice on purple felt lie where nothing differs from the table, so the dice
    reader looks at whole pictures (slower): the camera panel says so. The camera chooses
    its network (auto, the default) and keeps the standard one, which the panel does not name."""
    import cv2

    from refbox.camera import CameraWorker, open_source
    from tests.support import table_coloured_dice

    folder = tmp_path / "cam"
    folder.mkdir()
    cv2.imwrite(str(folder / "0.png"), table_coloured_dice())
    s = Served(tmp_path / "j.sqlite3", {"game": "pig", "players": ["Ann", "Bob"]})
    worker = CameraWorker(lambda: open_source(f"folder:{folder}", hold_frames=15), s.table, interval=0.05)
    s.app.extensions["refbox.camera"] = worker
    try:
        s.log_in(page)
        worker.start()
        expect()(page.locator("#camera-state")).to_contain_text("every picture is read whole, slower", timeout=20_000)
        assert worker.status["dice_parts"] is False and worker.status["dice_network"] == "auto (standard)"
        expect()(page.locator("#camera-state")).not_to_contain_text("dice network")
    finally:
        worker.stop()
        s.stop()


def test_control_panel_says_when_a_picture_could_not_be_read(page, tmp_path):
    """A camera that gives grey pictures, which no reader can read: the panel says so, with the
    reason and how many, and the camera goes on."""
    import numpy as np

    from refbox.camera import CameraWorker
    from tests.support import StillCamera

    s = Served(tmp_path / "j.sqlite3", {"game": "pig", "players": ["Ann", "Bob"]})
    worker = CameraWorker(lambda: StillCamera(np.zeros((48, 64), np.uint8)), s.table, interval=0.05)
    s.app.extensions["refbox.camera"] = worker
    try:
        s.log_in(page)
        worker.start()
        expect()(page.locator("#camera-state")).to_contain_text(re.compile(
            r"a picture could not be read \(\d+ so far\): expected a colour picture of 8-bit values, \(height, width, 3\), "
            r"got shape \(48, 64\), uint8; going on with the next one, enter throws by hand meanwhile"))
        assert worker.is_alive() and worker.status["unreadable"] >= 1
    finally:
        worker.stop()
        s.stop()


def test_a_lost_camera_is_said_on_the_control_and_players_pages_until_it_is_back(page, tmp_path):
    """A camera that cannot be opened (unplugged): the control panel says why and that it is retried, the players'
    page that throws are entered by hand; once it opens, both say so no more."""
    from refbox.camera import CameraWorker
    from tests.support import StillCamera
    from vision.synth import render_dice

    plugged = []

    def opener():
        if not plugged:
            raise OSError("no such camera: /dev/video0")
        return StillCamera(render_dice([4], seed=1)[0])

    s = Served(tmp_path / "j.sqlite3", {"game": "pig", "players": ["Ann", "Bob"]})
    worker = CameraWorker(opener, s.table, interval=0.05)
    s.app.extensions["refbox.camera"] = worker
    try:
        s.log_in(page)
        worker.start()
        players = page.context.new_page()
        players.goto(s.url + "/")
        lost = "the camera does not see the table: enter the throws by hand until it is back"
        expect()(players.locator("#camera-hold")).to_have_text(lost)
        expect()(page.locator("#camera-state")).to_contain_text("cannot open the camera: no such camera: /dev/video0")
        assert players.locator("#camera-hold").get_attribute("hidden") is None
        plugged.append(True)  # (retried after a second)
        expect()(players.locator("#camera-hold")).to_be_hidden(timeout=10_000)
        expect()(page.locator("#camera-state")).to_contain_text("connected", timeout=10_000)
    finally:
        worker.stop()
        s.stop()


def test_the_operator_pauses_the_camera_from_the_control_panel_and_resumes_it(page, tmp_path):
    """*Pause the camera*: the panel says it is paused and shows the throw it read, not sent; the players' page
    says to enter throws by hand; *Resume the camera*: the banner goes, and the next throw is taken."""
    from tests.support import SetDiceReader, StillCamera
    from vision.synth import render_dice
    from vision.types import DieReading

    camera = StillCamera(render_dice([5], seed=1)[0])
    reader = SetDiceReader([DieReading(5, (300.0, 300.0), 0.9, (270, 270, 330, 330))])
    panel = CameraPanel(page, tmp_path, camera, reader)
    e = expect()
    try:
        players = page.context.new_page()
        players.goto(panel.served.url + "/")
        e(page.locator("#camera-pause")).to_have_text("Pause the camera")
        page.click("#camera-pause")
        e(page.locator("#camera-pause")).to_have_text("Resume the camera")
        e(page.locator("#camera-pause")).to_have_attribute("aria-pressed", "true")
        e(page.locator("#camera-state")).to_contain_text("paused: what it reads is not sent to the table; throws are entered by hand")
        e(players.locator("#camera-hold")).to_have_text("the camera is paused: enter the throws by hand")
        camera.throw(render_dice([5], seed=2)[0])
        e(page.locator("#camera-last")).to_contain_text("last reading 5 — ", timeout=10_000)
        e(page.locator("#camera-last")).to_contain_text("the camera is paused: not sent to the table")
        assert panel.served.table.session.applied == 0
        page.click("#camera-pause")
        e(page.locator("#camera-pause")).to_have_text("Pause the camera")
        e(players.locator("#camera-hold")).to_be_hidden()
        e(page.locator("#camera-state")).not_to_contain_text("paused")
        reader.readings = [DieReading(3, (600.0, 200.0), 0.9, (570, 170, 630, 230))]
        camera.throw(render_dice([3], seed=3)[0])
        e(page.locator("#camera-last")).to_contain_text("last reading 3 — accepted", timeout=10_000)
        e(players.locator("#turn .turn-total .value")).to_have_text("3")
    finally:
        panel.stop()


def test_control_panel_says_when_the_camera_reads_slower_than_it_is_asked(page, tmp_path):
    """A reader that takes 120 ms a picture, asked for one every 50 ms: the panel says how long a picture takes
    and that pictures are read one after another (a Pi reads slower than a desktop)."""
    import time

    from tests.support import SetDiceReader, StillCamera

    class Slow(SetDiceReader):
        def __call__(self, frame):
            time.sleep(0.12)
            return super().__call__(frame)

    panel = CameraPanel(page, tmp_path, StillCamera(), Slow())
    try:
        expect()(page.locator("#camera-state")).to_contain_text(re.compile(
            r"connected; readings: 0; .*1[2-9]\d ms a picture, longer than camera.interval_ms \(50 ms\): pictures are read one after another$"))
        assert panel.worker.status["read_ms"] >= 120 and panel.worker.status["interval_ms"] == 50
    finally:
        panel.stop()


class CameraPanel:
    """A Pig table served with a camera worker over ``camera`` whose dice reader reads what
    ``reader`` is set to (tests.support.SetDiceReader), logged in on ``page``'s control panel;
    ``stop`` stops both."""

    def __init__(self, page, tmp_path, camera, reader, dice_confidence: float = 0.0, zones_file=None, zones=None) -> None:
        from refbox.camera import CameraWorker

        self.served = Served(tmp_path / "j.sqlite3", {"game": "pig", "players": ["Ann", "Bob"]})
        self.worker = CameraWorker(lambda: camera, self.served.table, interval=0.05, dice_reader=lambda: reader, dice_confidence=dice_confidence,
                                   zones_file=zones_file, zones=zones)
        self.served.app.extensions["refbox.camera"] = self.worker
        self.served.log_in(page)
        self.worker.start()

    def stop(self) -> None:
        self.worker.stop()
        self.served.stop()


def test_control_panel_says_when_an_unsure_die_holds_the_throw(page, tmp_path):
    """A cocked die, which the reader reads unsure: no throw is taken, and the panel says why,
    what to do, and which die (the dice in view, the doubtful one marked); the players' page says
    what to do, until the throw is taken."""
    from tests.support import SetDiceReader, StillCamera
    from vision.synth import render_dice
    from vision.types import DieReading

    reader = SetDiceReader([DieReading(5, (100.0, 100.0), 0.95, (70, 70, 130, 130)), DieReading(None, (300.0, 300.0), 0.3, (270, 270, 330, 330)),
                            DieReading(3, (500.0, 300.0), 0.6, (470, 270, 530, 330))])
    panel = CameraPanel(page, tmp_path, StillCamera(render_dice([5], seed=1)[0], thrown=3), reader, dice_confidence=0.7)
    try:
        expect()(page.locator("#camera-state")).to_contain_text(
            "connected; readings: 0; a die is unsure (cocked?): the throw waits until it is settled, or entered by hand; "
            "in view: 5 ? 3? (? marks a die in doubt)")
        mirror = page.context.new_page()  # (the players' page says so too: the table's view carries camera_hold)
        mirror.goto(panel.served.url + "/")
        hold = "a die is in doubt: settle it where it lies, or enter the throw by hand"
        expect()(mirror.locator("#camera-hold")).to_have_text(hold)
        expect()(page.locator("#camera-hold")).to_have_text(hold)
        reader.readings = [DieReading(4, (300.0, 300.0), 0.9, (270, 270, 330, 330))]
        expect()(page.locator("#camera-last")).to_contain_text("last reading 4", timeout=10_000)
        expect()(page.locator("#camera-state")).not_to_contain_text("unsure")
        expect()(mirror.locator("#camera-hold")).to_be_hidden()
        expect()(mirror.locator("#turn .turn-total .value")).to_have_text("4")
    finally:
        panel.stop()


def test_a_held_throw_is_entered_from_the_dice_in_view_and_the_die_settled_after_is_no_second_roll(page, tmp_path):
    """While a die in doubt holds the throw, a button fills the dice read form with the dice in view, the
    doubtful one's ? selected; a ? left in is refused, saying what to do; the values typed in its place
    go to the game, and the camera's settler takes them as that throw: the die then settled in place
    (the picture moving meanwhile) and read as entered reaches the game as no second roll."""
    from tests.support import SetDiceReader, StillCamera, wait_until
    from vision.synth import render_dice
    from vision.types import DieReading

    camera = StillCamera(render_dice([5], seed=1)[0], thrown=3)
    reader = SetDiceReader([DieReading(3, (300.0, 300.0), 0.6, (270, 270, 330, 330))])
    panel = CameraPanel(page, tmp_path, camera, reader, dice_confidence=0.7)
    e = expect()
    try:
        e(page.locator("#camera-state")).to_contain_text("in view: 3? (? marks a die in doubt)")
        e(page.locator("#in-view-row")).to_be_visible()
        e(page.locator("#camera-picture")).to_be_hidden()
        page.click("#camera-show")  # (the picture the die in doubt was read in, boxed: which die)
        e(page.locator("#camera-picture")).to_be_visible()
        e(page.locator("#camera-show")).to_have_text("Hide the picture")
        page.wait_for_function("document.getElementById('camera-picture').complete && document.getElementById('camera-picture').naturalWidth === 960")
        e(page.locator("#camera-panel")).to_have_class(re.compile(r"\bwide\b"))  # (as wide as the page: the dice legible)
        page.click("#camera-show")
        e(page.locator("#camera-picture")).to_be_hidden()
        e(page.locator("#camera-panel")).not_to_have_class(re.compile(r"\bwide\b"))
        page.click("#reading-from-view")
        e(page.locator("#reading-dice")).to_have_value("3?")
        assert page.evaluate("[document.activeElement.id, document.activeElement.selectionStart, document.activeElement.selectionEnd]") == ["reading-dice", 0, 2]
        page.click("#reading-form button[type=submit]")
        e(page.locator("#answer")).to_have_text("put the value of each die marked ? in place of its ?, then confirm")
        page.fill("#reading-dice", "4")
        page.click("#reading-form button[type=submit]")
        e(page.locator("#answer")).to_contain_text("accepted")
        e(page.locator("#turn .turn-total .value")).to_have_text("4")
        e(page.locator("#in-view-row")).to_be_hidden()
        reader.readings = [DieReading(4, (301.0, 300.0), 0.9, (271, 270, 331, 330))]  # (settled in place, read as entered)
        camera.throw(camera.picture)
        assert wait_until(lambda: panel.worker.status["settling"] == "already reported")
        assert panel.worker.status["readings"] == 0 and panel.served.table.view.data["turn_total"] == 4
    finally:
        panel.stop()


def test_zones_are_drawn_on_the_cameras_picture_saved_and_shown_again(page, tmp_path):
    """The Camera panel, showing the picture: *Draw the zones*; clicks at a zone's corners (in the picture's
    pixels, whatever size it is shown at), a name, *Close the zone* (fewer than 3 corners refused, saying so),
    an ignored area, a corner dragged, *Save the zones*: the calibration file holds them with the picture's size, the camera
    reads with them, and drawing again starts from them. A click on the picture then opens nothing. *Clear all*
    and *Save the zones*: no zones."""
    import json

    from tests.support import SetDiceReader, StillCamera, wait_until

    kept = tmp_path / "zones.json"
    panel = CameraPanel(page, tmp_path, StillCamera(), SetDiceReader([]), zones_file=str(kept))
    e = expect()
    try:
        e(page.locator("#zones-draw")).to_be_hidden()
        page.click("#camera-show")
        page.wait_for_function("document.getElementById('camera-picture').complete && document.getElementById('camera-picture').naturalWidth === 960")
        page.click("#zones-draw")
        e(page.locator("#zones-editor")).to_be_visible()
        e(page.locator("#zones-list")).to_have_text("no zone yet")
        k = page.locator("#camera-picture").bounding_box()["width"] / 960  # (shown at the panel's width)

        def corners(*points):
            for x, y in points:
                page.click("#camera-picture", position={"x": x * k, "y": y * k})

        corners((720, 60), (930, 60))
        page.click("#zone-close")
        e(page.locator("#zones-answer")).to_have_text("a zone needs at least 3 corners: click the picture at each")
        corners((930, 480), (720, 480))
        e(page.locator("#zones-list")).to_have_text("no zone yet; 4 points of the zone being drawn")
        page.click("#zone-close")
        page.fill("#zone-name", "ignore")
        corners((0, 420), (300, 420), (300, 539))
        page.click("#zone-close")
        e(page.locator("#zones-list")).to_have_text("zones: kept, ignore")
        e(page.locator("#zones-overlay")).to_be_visible()  # (drawn over the picture, where they were clicked)
        e(page.locator("#zones-overlay polygon")).to_have_count(2)
        shown, over = page.locator("#camera-picture").bounding_box(), page.locator("#zones-overlay").bounding_box()
        assert all(abs(shown[key] - over[key]) <= 1 for key in ("x", "y", "width", "height")), (shown, over)
        assert page.url.endswith("/control") and len(page.context.pages) == 1  # (no picture opened by the clicks)
        page.evaluate("document.getElementById('camera-picture').scrollIntoView({block: 'end'})")  # (the mouse, unlike a click, does not scroll)
        shown = page.locator("#camera-picture").bounding_box()  # (a corner dragged where it belongs: no new corner)
        page.mouse.move(shown["x"] + 930 * k + 3, shown["y"] + 480 * k - 3)
        page.mouse.down()
        page.mouse.move(shown["x"] + 940 * k, shown["y"] + 500 * k, steps=5)
        page.mouse.up()
        e(page.locator("#zones-list")).to_have_text("zones: kept, ignore")
        page.click("#zones-save")
        e(page.locator("#zones-answer")).to_have_text(f"saved to {kept}: the camera reads with these zones from its next picture on")
        saved = json.loads(kept.read_text())
        assert saved["size"] == [960, 540] and len(saved["ignore"]) == 1
        got = saved["zones"]["kept"]
        assert len(got) == 4 and all(abs(a - b) <= 2 for p, q in zip(got, [[720, 60], [930, 60], [940, 500], [720, 480]]) for a, b in zip(p, q))
        assert wait_until(lambda: panel.worker.zones is not None and panel.worker.zones.names == ("kept",))
        page.click("#zones-draw")  # (stop drawing)
        e(page.locator("#zones-editor")).to_be_hidden()
        page.click("#zones-draw")  # (drawing again starts from the camera's calibration)
        e(page.locator("#zones-list")).to_have_text("zones: kept, ignore")
        page.click("#zones-clear")  # (cleared and saved: no zones)
        e(page.locator("#zones-list")).to_have_text("no zone yet")
        page.click("#zones-save")
        e(page.locator("#zones-answer")).to_have_text(
            f"no zones saved to {kept}: the camera reads the whole picture as one table from its next picture on")
        assert json.loads(kept.read_text()) == {"size": [960, 540], "zones": {}}
        assert wait_until(lambda: panel.worker.zones is None)
    finally:
        panel.stop()


def test_control_panel_says_that_dice_lying_since_the_start_wait_for_a_throw(page, tmp_path):
    """Dice that lay in the tray when the table started are not read (after a restart, the last roll):
    the panel says so, and what to do; once they are thrown, they are read."""
    from tests.support import SetDiceReader, StillCamera
    from vision.synth import render_dice
    from vision.types import DieReading

    camera = StillCamera(render_dice([4], seed=1)[0])
    panel = CameraPanel(page, tmp_path, camera, SetDiceReader([DieReading(4, (300.0, 300.0), 0.9, (270, 270, 330, 330))]))
    try:
        expect()(page.locator("#camera-state")).to_contain_text(
            "connected; readings: 0; dice lying since the table started are not read: throw them")
        camera.throw(render_dice([4], seed=2)[0])
        expect()(page.locator("#camera-last")).to_contain_text("last reading 4", timeout=10_000)
        expect()(page.locator("#camera-state")).not_to_contain_text("throw them")
    finally:
        panel.stop()


def test_control_panel_says_when_the_camera_was_nudged_and_the_zones_move_with_it(page, tmp_path):
    """A real table with zones answered; the table is bumped and the camera with it (the picture moves 6 px right,
    3 down), and a die now reads another value where it lay: no throw is taken, and the panel says the camera was
    nudged and the zones moved with it; the calibration file and the page's zones are the zones moved."""
    import cv2
    import numpy as np

    from tests.support import SetDiceReader, StillCamera, labelled_dice
    from vision.synth import nudged
    from vision.zones import Zones

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "dice"
    name = "byler-IMG_20191208_111833.jpg"
    labels = json.loads((fixtures / "labels.json").read_text())[name]
    table = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
    table[40:680, 320:960] = cv2.imread(str(fixtures / name))  # (the photo, 640 x 640, in a camera's frame)
    reader = SetDiceReader(labelled_dice(labels, (320, 40)))
    camera = StillCamera(table, thrown=3)
    drawn = {"size": [1280, 720], "zones": {"tray": [[0, 0], [900, 0], [900, 720], [0, 720]], "kept": [[900, 0], [1280, 0], [1280, 720], [900, 720]]}}
    kept_in = tmp_path / "zones.json"
    kept_in.write_text(json.dumps(drawn))
    panel = CameraPanel(page, tmp_path, camera, reader, zones_file=str(kept_in), zones=Zones.from_calibration(drawn))
    try:
        expect()(page.locator("#camera-last")).to_contain_text("last reading", timeout=10_000)
        reader.readings = labelled_dice(labels, (326, 43), misread=(2, 4))  # (the five read as a four where it lies)
        camera.throw(nudged(table, (6, 3)))
        expect()(page.locator("#camera-state")).to_contain_text(
            "connected; readings: 1; the camera was nudged (a bump?): the dice lying as they lay are no new throw; "
            "the zones moved with the camera's picture (6, 3 px since they were drawn): after a hard bump, check that they still fit",
            timeout=10_000)
        assert panel.worker.status["settling"] == "unchanged since the last answer but for a nudge of the camera"
        moved = {"size": [1280, 720], "zones": {"tray": [[6, 3], [906, 3], [906, 723], [6, 723]], "kept": [[906, 3], [1286, 3], [1286, 723], [906, 723]]}}
        assert json.loads(kept_in.read_text()) == moved
        assert page.evaluate("fetch('/api/camera/zones').then(r => r.json())")["calibration"] == moved
    finally:
        panel.stop()


def test_control_panel_hides_the_camera_panel_without_a_camera(page, served):
    served.log_in(page)
    expect()(page.locator("#buttons button").first).to_be_visible()
    assert page.locator("#camera-panel").is_hidden()
