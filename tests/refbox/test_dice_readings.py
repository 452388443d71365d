"""Dice tables: a settled camera reading becomes the game's events, taken whole or
refused whole; with a ``kept`` zone the camera tells kept dice from thrown ones."""

from __future__ import annotations

import json
import logging
import re
import shutil
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from refbox.camera import CHOOSE_NETWORK, CameraWorker, open_source
from refbox.config import ConfigError, from_dict
from refbox.journal import Journal
from refbox.runtime import Devices, load_dice_network, start_camera
from refbox.table import Table
from tests.support import SetDiceReader, StillCamera, table_coloured_dice, thrown_onto, wait_until
from vision.dice import AUTO, CHOOSE, Params
from vision.dice_model import network_path
from vision.synth import draw_die, render_dice
from vision.types import DieReading
from vision.zones import Zones

POKER = {"game": "poker", "players": ["Ann", "Bob"]}
CALIBRATION = {"size": [1280, 720], "zones": {"tray": [[0, 0], [900, 0], [900, 720], [0, 720]],
                                               "kept": [[900, 0], [1280, 0], [1280, 720], [900, 720]]}}


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def kept(*values: int) -> list[dict]:
    return [{"value": v, "zone": "kept"} for v in values]


def tray(*values: int) -> list[dict]:
    return [{"value": v, "zone": "tray"} for v in values]


def journal_types(table: Table) -> list[tuple[str, list[int] | None]]:
    return [(e["type"], e.get("dice")) for e in table.journal.events(table.game_id)]


def test_keep_and_roll_from_one_reading_are_journaled_in_order(tmp_path):
    table = Table(Journal(tmp_path / "j.sqlite3"), POKER, clock=Clock())
    assert table.handle_reading([6, 6, 2, 3, 6]).accepted
    r = table.handle_reading(kept(6, 6, 6) + tray(1, 4))
    assert r.accepted and r.event["type"] == "roll"
    assert journal_types(table) == [("roll", [6, 6, 2, 3, 6]), ("keep", [6, 6, 6]), ("roll", [1, 4])]
    assert all(e["source"] == "camera" for e in table.journal.events(table.game_id))


def test_a_reading_whose_second_event_is_illegal_is_refused_whole(tmp_path):
    table = Table(Journal(tmp_path / "j.sqlite3"), POKER, clock=Clock())
    table.handle_reading([6, 6, 2, 3, 6])
    before, journal = table.view.data, journal_types(table)
    r = table.handle_reading(kept(6, 6, 6) + tray(1, 4, 5))  # three thrown beside three kept
    assert not r.accepted and "[6, 6, 6] kept: throw 2 dice, got 3" in r.reason
    assert table.view.data == before and journal_types(table) == journal
    assert r.event == {"dice": kept(6, 6, 6) + tray(1, 4, 5)}


def test_malformed_or_unusable_readings_are_refused_naming_them(tmp_path):
    table = Table(Journal(tmp_path / "j.sqlite3"), POKER, clock=Clock())
    before = table.view.data
    r = table.handle_reading([{"value": 9, "zone": "kept"}])
    assert not r.accepted and r.reason == "bad camera dice: camera die {'value': 9, 'zone': 'kept'}: 'value' must be a number 1..6, got 9"
    dominoes = Table(Journal(tmp_path / "d.sqlite3"), {"game": "all-fives", "players": ["A", "B"]}, clock=Clock())
    r = dominoes.handle_reading([3, 4])
    assert not r.accepted and r.reason == "all-fives expects no throw now; the camera's dice [3, 4] are not used"
    assert table.view.data == before and table.session.applied == 0


def table_picture(tray_dice: list[tuple[int, tuple[int, int]]], kept_dice: list[tuple[int, tuple[int, int]]]) -> np.ndarray:
    img = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
    for value, centre in tray_dice + kept_dice:
        draw_die(img, value, centre, 60)
    return img


def test_camera_with_a_kept_zone_reads_throw_keep_and_rethrow(tmp_path):
    """Synthetic photos replayed as a camera: five dice thrown, three sixes carried to the
    kept zone (the two others untouched: no throw), then the two thrown again."""
    folder = tmp_path / "cam"
    folder.mkdir()
    first = [(6, (200, 200)), (6, (420, 260)), (2, (300, 500)), (3, (620, 420)), (6, (760, 180))]
    carried = [(2, (300, 500)), (3, (620, 420))]
    in_kept = [(6, (1000, 150)), (6, (1150, 350)), (6, (1020, 560))]
    frames = [table_picture(first, []), table_picture(carried, in_kept), table_picture([(1, (250, 330)), (4, (560, 600))], in_kept)]
    for i, img in enumerate(frames):
        cv2.imwrite(str(folder / f"{i}.png"), img)
    zones = Zones.from_calibration(json.loads(json.dumps(CALIBRATION)))
    table = Table(Journal(tmp_path / "j.sqlite3"), POKER, tick=0.05)
    table.start()
    try:
        worker = CameraWorker(lambda: open_source(f"folder:{folder}", hold_frames=25), table, interval=0.02, zones=zones)
        worker.start()
        end = time.monotonic() + 60
        while time.monotonic() < end and len(list(table.journal.events(table.game_id))) < 3:
            time.sleep(0.05)
        worker.stop()
        got = [(kind, sorted(dice or [])) for kind, dice in journal_types(table)[:3]]
        assert got == [("roll", [2, 3, 6, 6, 6]), ("keep", [6, 6, 6]), ("roll", [1, 4])]
    finally:
        table.stop()


def test_camera_reads_with_the_configured_dice_network(tmp_path):
    """A clear casino one replayed as a camera over a Pig table: the ``clear`` network
    (``camera.dice_network``) reads it (the standard one leaves it unsure: test_cli)."""
    folder = tmp_path / "cam"
    folder.mkdir()
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "dice-clear" / "chase-train_DJI_20241005233608_0177_D_detection_1.png"
    thrown_onto(folder, cv2.imread(str(fixture)))
    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.05)
    table.start()
    try:
        worker = CameraWorker(lambda: open_source(f"folder:{folder}", hold_frames=25), table, interval=0.02,
                              dice_network="clear")
        assert worker.network_file == network_path("clear") and worker.status["dice_network"] == "clear"
        worker.start()
        end = time.monotonic() + 60
        while time.monotonic() < end and not list(table.journal.events(table.game_id)):
            time.sleep(0.05)
        worker.stop()
        assert journal_types(table)[:1] == [("roll", [1])]
    finally:
        table.stop()


def test_a_camera_told_auto_chooses_the_clear_network_for_casino_dice(tmp_path):
    """``camera.dice_network: auto``: a camera over translucent casino dice (the fixtures' first
    twelve, replayed) reads them with the clear network once it has compared enough frames, and
    says which it reads with."""
    folder = tmp_path / "cam"
    folder.mkdir()
    for fixture in sorted((Path(__file__).resolve().parents[1] / "fixtures" / "dice-clear").glob("*.png"))[:12]:
        shutil.copy(fixture, folder)
    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.05)
    table.start()
    try:
        worker = CameraWorker(lambda: open_source(f"folder:{folder}", hold_frames=30), table, interval=0.02, dice_network="auto")
        assert worker.network_file is None and worker.status["dice_network"] == "auto"
        worker.start()
        assert wait_until(lambda: worker.status["dice_network"] == "auto (clear)", 60), worker.status["dice_network"]
        worker.stop()
    finally:
        table.stop()


def test_the_cameras_name_for_choosing_is_the_readers():
    """``refbox.camera`` names the choosing network without loading the reader; the reader must take that name."""
    assert CHOOSE_NETWORK == CHOOSE


@pytest.mark.parametrize("purple", [False, True])
def test_the_camera_says_whether_it_reads_only_what_differs_from_the_table(tmp_path, caplog, purple):
    """Dice on green felt: the reader looks only at the parts that differ from the table
    (``dice_parts`` true). Purple dice on purple felt lie in no such part: the camera reads
    whole frames from then on (``dice_parts`` false), and says so once in the log."""
    caplog.set_level(logging.WARNING, logger="refbox")
    folder = tmp_path / "cam"
    folder.mkdir()
    thrown_onto(folder, table_coloured_dice() if purple else render_dice([2, 4, 5], seed=0)[0])
    frames = []

    def opener():
        source = open_source(f"folder:{folder}", hold_frames=25)
        read = source.read

        def counted():  # (the frames the camera took)
            frames.append(1)
            return read()

        source.read = counted
        return source

    table = Table(Journal(tmp_path / "j.sqlite3"), POKER, tick=0.05)
    table.start()
    try:
        worker = CameraWorker(opener, table, interval=0.02)
        assert worker.status["dice_parts"] is None
        worker.start()
        assert wait_until(lambda: worker.status["readings"] >= 1 and worker.status["dice_parts"] is not None, 60)
        seen = len(frames)
        assert wait_until(lambda: len(frames) >= seen + 20, 60)  # (more frames: the warning is not repeated)
        worker.stop()
        assert worker.status["dice_parts"] is (not purple)
        warned = [r for r in caplog.records if "every frame is read whole" in r.getMessage()]
        assert len(warned) == (1 if purple else 0)
    finally:
        table.stop()


def test_frames_are_asked_for_every_interval_the_time_a_frame_takes_included(tmp_path):
    """``camera.interval_ms`` is the time between frames: a frame that takes 0.04 s to come
    (a USB camera's read waits for a fresh one) and be read is followed by a wait of 0.06 s, not
    0.1 s; one that takes longer than the interval by none."""
    clock = Clock()
    took = iter([0.04, 0.04, 0.15, 0.1, 0.0])

    class Slow:
        def read(self) -> np.ndarray:
            clock.t += next(took)
            return np.zeros((720, 1280, 3), np.uint8)  # (an empty table: nothing to submit)

        def close(self) -> None:
            pass

    class Waits(threading.Event):  # the worker's halt: records each wait, and halts after five
        def __init__(self) -> None:
            super().__init__()
            self.waited: list[float] = []

        def wait(self, timeout: float | None = None) -> bool:
            self.waited.append(round(timeout or 0.0, 9))
            if len(self.waited) == 5:
                self.set()
            return self.is_set()

    table = Table(Journal(tmp_path / "j.sqlite3"), POKER, clock=Clock())
    worker = CameraWorker(Slow, table, interval=0.1, clock=clock)
    worker._halt = halt = Waits()
    worker.run()  # (in this thread: it returns once halted)
    assert halt.waited == [0.06, 0.06, 0.0, 0.0, 0.1]
    assert worker.status["connected"] and worker.status["unreadable"] == 0


def test_the_camera_says_when_an_unsure_die_holds_the_throw(tmp_path):
    """A die the reader cannot read surely (cocked against the tray's wall) holds the roll: no
    reading reaches the table, and ``status["settling"]`` says why. Once the die is settled and
    read, the roll is taken."""
    reader = SetDiceReader([DieReading(None, (300.0, 300.0), 0.3, (270, 270, 330, 330))])
    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.05)
    table.start()
    worker = CameraWorker(lambda: StillCamera(render_dice([5], seed=1)[0], thrown=3), table, interval=0.01, dice_reader=lambda: reader)
    try:
        worker.start()
        assert wait_until(lambda: worker.status["settling"] == "a die is unsure (cocked?)")
        looked = reader.looks
        assert wait_until(lambda: reader.looks >= looked + 10)  # (at rest long since: still held)
        assert worker.status["readings"] == 0 and worker.status["settling"] == "a die is unsure (cocked?)"
        assert worker.status["in_view"] == [{"value": None, "confidence": 0.3, "sure": False}]  # (which die: the control page shows it)
        frame, seen, sure = worker.picture  # (and the picture it was read in, for GET /api/camera/picture)
        assert frame.shape == (720, 1280, 3) and seen == tuple(reader.readings) and not sure(seen[0])
        assert table.session.applied == 0
        reader.readings = [DieReading(5, (300.0, 300.0), 0.9, (270, 270, 330, 330))]  # (settled, and read)
        assert wait_until(lambda: worker.status["last"] is not None and worker.status["last"]["accepted"])
        assert worker.status["last"]["seen"] == [5] and worker.status["settling"] in ("settled", "already reported")
        assert worker.status["in_view"] == []
    finally:
        worker.stop()
        table.stop()


def enter_by_the_control_pages_reading(worker, table, values):
    worker.entered_by_hand(values)  # (what POST /api/reading does once the table takes its reading)


def enter_by_an_event(worker, table, values):
    assert table.submit({"type": "roll", "dice": values}, "web").result(5).accepted  # (POST /api/events)


def enter_by_a_key_of_the_sim_terminal(worker, table, values):
    from refbox.terminal import TerminalUI, key_map

    class Devices:
        camera, presser = worker, None

    ui = TerminalUI(table, Devices(), keyboard=False)
    assert ui.key(str(values[0]), key_map(ui._buttons())).result(5).accepted


@pytest.mark.parametrize("enter", [enter_by_the_control_pages_reading, enter_by_an_event, enter_by_a_key_of_the_sim_terminal])
def test_a_throw_held_and_entered_by_hand_is_no_second_roll_once_the_die_is_settled_in_place(tmp_path, enter):
    """A die in doubt holds the throw; the operator enters it by hand: on the control page's dice read (which
    tells the worker), as an event of the page or the API, or with a key of ``refbox run --sim`` (which the
    worker hears from the table). The settler takes it as that throw: the die pushed flat where it lay and
    read as entered, the picture moving meanwhile, reaches the table as no reading; the next throw does."""
    reader = SetDiceReader([DieReading(None, (300.0, 300.0), 0.3, (270, 270, 330, 330))])
    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.05)
    table.start()
    camera = StillCamera(render_dice([5], seed=1)[0], thrown=3)
    worker = CameraWorker(lambda: camera, table, interval=0.01, dice_reader=lambda: reader)
    try:
        worker.start()
        assert wait_until(lambda: worker.status["settling"] == "a die is unsure (cocked?)")
        assert wait_until(lambda: table.view.data.get("camera_hold") == "die")  # (the pages and the scoreboards say so)
        enter(worker, table, [5])
        assert wait_until(lambda: worker.status["settling"] == "entered by hand") and worker.status["in_view"] == []
        assert wait_until(lambda: "camera_hold" not in table.view.data)
        reader.readings = [DieReading(5, (301.0, 300.0), 0.9, (271, 270, 331, 330))]  # (pushed flat in place, read as entered)
        camera.throw(camera.picture)
        assert wait_until(lambda: camera.thrown == 0)
        assert wait_until(lambda: worker.status["settling"] == "already reported")  # (at rest, the throw entered: nothing more)
        assert worker.status["readings"] == 0 and table.session.applied == (0 if enter is enter_by_the_control_pages_reading else 1)
        reader.readings = [DieReading(2, (600.0, 200.0), 0.9, (570, 170, 630, 230))]  # (the next throw)
        camera.throw(render_dice([2], seed=2)[0])
        assert wait_until(lambda: worker.status["last"] is not None and worker.status["last"]["accepted"])
        assert worker.status["last"]["seen"] == [2] and worker.status["readings"] == 1
    finally:
        worker.stop()
        table.stop()


def test_a_calibration_saved_while_the_camera_runs_is_used_from_the_next_picture(tmp_path):
    """``CameraWorker.save_zones`` (the control page's zones): kept in the table's calibration file, and the next
    throw's dice are read with it: a die in the ``kept`` zone drawn on a 960 x 540 picture of the 1280 x 720 frames."""
    reader = SetDiceReader([DieReading(5, (300.0, 300.0), 0.9, (270, 270, 330, 330))])
    table = Table(Journal(tmp_path / "j.sqlite3"), POKER, tick=0.05)
    table.start()
    camera = StillCamera(render_dice([5], seed=1)[0], thrown=3)
    worker = CameraWorker(lambda: camera, table, interval=0.01, dice_reader=lambda: reader, zones_file=str(tmp_path / "zones.json"))
    try:
        worker.start()
        assert wait_until(lambda: worker.status["last"] is not None)
        assert worker.status["last"]["seen"] == [5]  # (no calibration: values alone)
        worker.save_zones({"size": [960, 540], "zones": {"kept": [[675, 0], [960, 0], [960, 540], [675, 540]]}})
        assert json.loads((tmp_path / "zones.json").read_text())["zones"]["kept"][0] == [675.0, 0.0]
        reader.readings = [DieReading(5, (300.0, 300.0), 0.9, (270, 270, 330, 330)), DieReading(6, (1100.0, 300.0), 0.9, (1070, 270, 1130, 330))]
        camera.throw(render_dice([5, 6], seed=3)[0])
        assert wait_until(lambda: worker.status["last"]["n"] == 2)  # (the table's answer kept: not only the reading counted)
        assert worker.status["last"]["seen"] == [{"value": 5, "zone": None, "moved": False}, {"value": 6, "zone": "kept", "moved": True}]
        assert worker.zones is worker.calibration
        assert worker.save_zones({"size": [960, 540], "zones": {}}) is None and worker.calibration is None  # (the zones cleared)
        reader.readings = [DieReading(3, (300.0, 300.0), 0.9, (270, 270, 330, 330)), DieReading(4, (1100.0, 300.0), 0.9, (1070, 270, 1130, 330))]
        camera.throw(render_dice([3, 4], seed=4)[0])
        assert wait_until(lambda: worker.status["last"]["n"] == 3)
        assert worker.status["last"]["seen"] == [3, 4] and worker.zones is None  # (values alone again)
    finally:
        worker.stop()
        table.stop()



def test_the_zones_motion_in_all_is_that_of_the_bumps_one_after_another(tmp_path):
    """A camera turned 3 degrees by one bump, then moved 30 px right by another: the zones moved with each picture
    (the settler's ``zones``, ``zones_moved`` and ``zones_turned``), and the status says the one motion that moves
    them so: turned 3 degrees, moved (30, 2) px, the second bump's shift along the turned frame's axes (its sum, (30,
    0), was said before); a calibration saved then counts from nought again. Nothing runs: the worker's settlers are
    stand-ins that have moved their zones."""
    from types import SimpleNamespace

    drawn = {"size": [1280, 720], "zones": {"kept": [[0, 0], [640, 0], [640, 720], [0, 720]]}}
    zones = Zones.from_calibration(drawn)
    worker = CameraWorker(lambda: None, None, zones=zones, zones_file=str(tmp_path / "zones.json"))
    other = SimpleNamespace(zones=zones)
    for moved, (shift, turn) in enumerate((((0, 0), 3.0), ((30, 0), 0.0)), start=1):
        fed = SimpleNamespace(zones=Zones.from_calibration(drawn), zones_moved=shift, zones_turned=turn)  # (zones of their own: moved)
        worker._zones_followed(fed, other)
        assert worker.zones is fed.zones is other.zones and (tmp_path / "zones.json").is_file(), moved
    assert worker.status["zones_moved"] == [30, 2] and worker.status["zones_turned"] == 3.0
    worker.save_zones(drawn)
    assert worker.status["zones_moved"] is None and worker.status["zones_turned"] is None
    worker.zones = worker._new_zones.get_nowait()  # (as the next picture takes the calibration saved)
    worker._zones_followed(SimpleNamespace(zones=Zones.from_calibration(drawn), zones_moved=(4, -1), zones_turned=0.0), other)
    assert worker.status["zones_moved"] == [4, -1] and worker.status["zones_turned"] is None

def started_camera(journal) -> CameraWorker:
    """The camera a Pig table with ``journal`` starts (``start_camera``, the sample photos as its source), stopped
    again at once: what it read at start from the files beside the journal."""
    cfg = from_dict({"camera": {"source": f"folder:{Path(__file__).resolve().parents[2] / 'samples' / 'dice'}"}})
    table = Table(Journal(journal), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.05)
    devices = Devices(table)
    start_camera(cfg, table, devices, sim=False)
    devices.camera.stop()
    return devices.camera


def test_a_table_keeps_the_calibration_drawn_on_its_control_page_beside_its_journal(tmp_path):
    """Without ``camera.zones`` the calibration file is ``zones.json`` beside the journal: none at first, read at the
    next start once saved, refused at start naming the key and the file when it cannot be used."""
    def started():
        return started_camera(tmp_path / "j.sqlite3")

    worker = started()
    assert worker.zones is None and worker.zones_file == str(tmp_path / "zones.json")
    worker.save_zones({"zones": {"kept": [[900, 0], [1280, 0], [1280, 720], [900, 720]]}})
    assert started().zones.names == ("kept",)
    worker.save_zones({"size": [1280, 720], "zones": {}})  # (the zones cleared on the control page)
    assert started().zones is None and json.loads((tmp_path / "zones.json").read_text()) == {"size": [1280, 720], "zones": {}}
    (tmp_path / "zones.json").write_text('{"zones": []}')
    with pytest.raises(ConfigError, match=r"camera.zones: cannot use .*zones.json: calibration 'zones' must be an object"):
        started()


def test_a_camera_lost_while_a_die_in_doubt_holds_the_throw_says_it_is_lost_until_it_is_back(tmp_path):
    """The view's ``camera_hold`` says a die in doubt holds the throw; once the camera is lost it says ``lost``
    (throws are entered by hand meanwhile), and the camera says why it is gone; once it is back, its pictures
    say what holds the reading again."""
    from vision.sources import CameraLost

    class Losable(StillCamera):
        lost = False

        def read(self):
            if self.lost:
                raise CameraLost("unplugged")
            return super().read()

    camera = Losable(render_dice([5], seed=1)[0], thrown=3)
    reader = SetDiceReader([DieReading(None, (300.0, 300.0), 0.3, (270, 270, 330, 330))])
    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.05)
    table.start()

    def opener():
        if camera.lost:
            raise CameraLost("unplugged")
        return camera

    worker = CameraWorker(opener, table, interval=0.01, dice_reader=lambda: reader)
    try:
        worker.start()
        assert wait_until(lambda: table.view.data.get("camera_hold") == "die")
        camera.lost = True
        assert wait_until(lambda: table.view.data.get("camera_hold") == "lost")
        assert wait_until(lambda: worker.status["last_error"] == "cannot open the camera: unplugged") and not worker.status["connected"]
        reader.readings = [DieReading(4, (300.0, 300.0), 0.9, (270, 270, 330, 330))]  # (settled while it was away)
        camera.lost = False
        assert wait_until(lambda: worker.status["connected"], 5)  # (retried after a second)
        assert wait_until(lambda: "camera_hold" not in table.view.data)
    finally:
        worker.stop()
        table.stop()


def test_what_holds_the_camera_is_in_the_view_of_games_that_take_its_readings_only(tmp_path):
    """A table whose camera is lost while it plays futsal (the camera set up for its dice games): the futsal view says
    nothing of it (its pages and scoreboards would tell the players to enter throws by hand); once the table plays a
    dice game, or dominoes, its view says so."""
    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "futsal", "players": ["Home", "Away"]})
    assert table.handle_hold("lost").accepted and table.camera_hold == "lost"
    assert "camera_hold" not in table.view.data
    assert table.handle_new_game({"game": "pig", "players": ["Ann", "Bob"]}).accepted
    assert table.view.data["camera_hold"] == "lost"
    assert table.handle_new_game({"game": "all-fives", "players": ["Ann", "Bob"]}).accepted
    assert table.view.data["camera_hold"] == "lost"
    assert table.handle_new_game({"game": "snooker", "players": ["Ann", "Bob"]}).accepted
    assert "camera_hold" not in table.view.data


def test_a_paused_camera_reads_but_sends_nothing_and_once_resumed_takes_the_next_throw(tmp_path):
    """``CameraWorker.pause``: the throw it settles while paused is shown (``status["last"]``, refused as paused) and
    not sent; the view says ``paused`` (the players enter throws by hand). Resumed, the dice lying as it read them are
    no throw; the next throw is."""
    reader = SetDiceReader([DieReading(5, (300.0, 300.0), 0.9, (270, 270, 330, 330))])
    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.05)
    table.start()
    camera = StillCamera(render_dice([5], seed=1)[0])
    worker = CameraWorker(lambda: camera, table, interval=0.01, dice_reader=lambda: reader)
    try:
        worker.start()
        worker.pause(True)
        assert wait_until(lambda: table.view.data.get("camera_hold") == "paused") and worker.status["paused"]
        camera.throw(render_dice([5], seed=2)[0])
        assert wait_until(lambda: worker.status["last"] is not None)
        assert worker.status["last"] == {"n": 1, "kind": "dice", "seen": [5], "accepted": False,
                                         "reason": "the camera is paused: not sent to the table"}
        assert table.session.applied == 0
        worker.pause(False)
        assert wait_until(lambda: "camera_hold" not in table.view.data)
        assert wait_until(lambda: worker.status["settling"] == "already reported") and table.session.applied == 0
        reader.readings = [DieReading(3, (600.0, 200.0), 0.9, (570, 170, 630, 230))]  # (the next throw)
        camera.throw(render_dice([3], seed=3)[0])
        assert wait_until(lambda: worker.status["last"]["n"] == 2 and worker.status["last"]["accepted"])
        assert table.session.applied == 1 and table.view.data["turn_total"] == 3
    finally:
        worker.stop()
        table.stop()


def test_a_pause_is_kept_beside_the_journal_and_a_restarted_table_starts_paused(tmp_path, caplog):
    """The table's camera keeps a pause in ``camera-paused`` beside the journal (a power cut does not resume it):
    started again, it is paused, and says so; resumed, the file is gone and the next start is not paused. A
    journal in memory keeps none."""
    def started(journal=tmp_path / "j.sqlite3"):
        return started_camera(journal)

    worker = started()
    assert not worker.status["paused"] and worker.pause_file == str(tmp_path / "camera-paused")
    worker.pause(True)
    assert (tmp_path / "camera-paused").exists()
    caplog.set_level(logging.WARNING, logger="refbox")
    again = started()
    assert again.status["paused"] and "camera: paused, as it was before the table started" in caplog.text
    again.pause(False)
    assert not (tmp_path / "camera-paused").exists() and not started().status["paused"]
    assert started(":memory:").pause_file is None


def test_a_running_camera_hears_the_rolls_the_table_takes_from_anyone_but_itself(tmp_path):
    """While it runs, the worker hears the table (``CameraWorker.heard``): a roll taken from the page, the sim
    terminal or a button is a throw entered by hand, with its dice; a refused roll, a roll of the camera's own
    (its readings, and the control page's dice read, which tells it itself) and other events are not; once it
    stops it hears nothing more. (Its camera is missing here, so nothing it is told is taken yet.)"""

    def missing():
        raise OSError("no such camera")

    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, clock=Clock())
    worker = CameraWorker(missing, table, interval=0.01)

    def told() -> list:
        out = []
        while not worker._by_hand.empty():
            out.append(worker._by_hand.get())
        return out

    worker.start()
    try:
        assert table.handle({"type": "roll", "dice": [4]}, "web").accepted
        assert not table.handle({"type": "roll", "dice": [4, 4]}, "cli").accepted  # (pig: one die)
        assert table.handle({"type": "roll", "dice": [3]}, "cli").accepted
        assert table.handle({"type": "stop"}, "button").accepted
        assert table.handle_reading([6]).accepted
        assert table.handle({"type": "undo"}, "web").accepted
        assert told() == [[4], [3]]
    finally:
        worker.stop()
    assert table.listeners == []
    assert table.handle({"type": "roll", "dice": [2]}, "web").accepted and told() == []


def test_a_die_read_less_surely_than_camera_dice_confidence_holds_the_throw(tmp_path):
    """``camera.dice_confidence`` reaches the camera's settler: a die read at 0.75 holds the throw
    of a camera asking 0.8, as an unsure one does; read at 0.9, the throw is taken."""
    cfg = from_dict({"camera": {"source": f"folder:{Path(__file__).resolve().parents[2] / 'samples' / 'dice'}", "dice_confidence": 0.8}})
    configured = Table(Journal(tmp_path / "configured.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.05)
    devices = Devices(configured)
    start_camera(cfg, configured, devices, sim=False)
    try:
        assert devices.camera is not None and devices.camera.dice_confidence == 0.8
    finally:
        devices.camera.stop()
    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.05)
    reader = SetDiceReader([DieReading(5, (300.0, 300.0), 0.75, (270, 270, 330, 330))])
    table.start()
    worker = CameraWorker(lambda: StillCamera(render_dice([5], seed=1)[0], thrown=3), table, interval=0.01, dice_reader=lambda: reader,
                          dice_confidence=cfg.camera.dice_confidence)
    try:
        worker.start()
        assert wait_until(lambda: worker.status["settling"] == "a die is unsure (cocked?)")
        looked = reader.looks
        assert wait_until(lambda: reader.looks >= looked + 10)  # (at rest long since: still held)
        assert worker.status["readings"] == 0 and table.session.applied == 0
        assert worker.status["in_view"] == [{"value": 5, "confidence": 0.75, "sure": False}]  # (read a five, not surely enough)
        reader.readings = [DieReading(5, (300.0, 300.0), 0.9, (270, 270, 330, 330))]
        assert wait_until(lambda: worker.status["last"] is not None and worker.status["last"]["accepted"])
        assert worker.status["last"]["seen"] == [5]
    finally:
        worker.stop()
        table.stop()


def test_an_unusable_dice_network_is_refused_at_start_naming_the_key(tmp_path):
    assert load_dice_network("standard") == Params() and load_dice_network("clear") == Params(network=network_path("clear")) and load_dice_network("auto") == AUTO
    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.05)
    for network, why in (("Clear", "expected standard or clear"), (str(tmp_path / "mine.onnx"), "no such file")):
        cfg = from_dict({"camera": {"source": "usb:0", "dice_network": network}})
        with pytest.raises(ConfigError, match=re.escape(f"camera.dice_network: dice network '{network}': {why}")):
            start_camera(cfg, table, Devices(table), sim=False)


def test_dice_lying_still_when_the_camera_starts_or_comes_back_are_no_new_roll(tmp_path):
    """Dice that lie still when the table starts (after a restart, the last roll, already scored)
    are not read as a throw; dice thrown are. A camera lost and back over dice that lie as they
    did gives no second roll; dice thrown while it was away are read."""
    from vision.sources import CameraLost

    samples = Path(__file__).resolve().parents[2] / "samples" / "dice"
    three, two, five = (cv2.imread(str(samples / f"face-{n}.jpg")) for n in (3, 2, 5))
    connections = [
        (StillCamera(three), 40),  # lying there when the table starts: no roll
        (StillCamera(two, thrown=3), 40),  # thrown: read
        (StillCamera(two), 40),  # back, the die as it lay: no second roll
        (StillCamera(five), None),  # back, thrown while the camera was away: read
    ]

    class Connection:
        def __init__(self) -> None:
            self.camera, self.frames = connections.pop(0) if len(connections) > 1 else connections[0]

        def read(self) -> np.ndarray:
            if self.frames is not None:
                self.frames -= 1
                if self.frames < 0:
                    raise CameraLost("unplugged")
            return self.camera.read()

        def close(self) -> None:
            pass

    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.05)
    table.start()
    worker = CameraWorker(Connection, table, interval=0.01)
    statuses = []
    try:
        worker.start()
        assert wait_until(lambda: statuses.append(worker.status["settling"]) or worker.status["readings"] >= 2, 60), worker.status
        assert wait_until(lambda: len(connections) == 1 and worker.status["settling"] == "already reported")
    finally:
        worker.stop()
        table.stop()
    assert "at rest since the camera started: waiting for a throw" in statuses
    assert [dice for kind, dice in journal_types(table)] == [[2], [5]]
