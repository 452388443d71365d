"""Domino tables: a camera reading of the tiles becomes a proposed play; one
placement is played at once, several wait in the view for the operator."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from refbox.camera import CameraWorker, open_source, takes_tiles
from refbox.journal import Journal
from refbox.table import Table

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dominoes"
DOMINOES = {"game": "all-fives", "players": ["Ann", "Bob"]}


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def new_hand(tmp_path) -> Table:
    table = Table(Journal(tmp_path / "j.sqlite3"), DOMINOES, clock=Clock())
    assert table.handle({"type": "new_hand"}).accepted
    return table


def test_one_placement_is_played_several_wait_for_the_operator(tmp_path):
    table = new_hand(tmp_path)
    first = table.handle_tiles([[6, 6]])
    assert first.accepted and first.event["tile"] == [6, 6] and first.event["source"] == "camera"
    r = table.handle_tiles([[6, 6], [6, 2]])  # the spinner has open sixes on every arm
    assert not r.accepted and "ambiguous" in r.reason
    ends = sorted(p["end"] for p in table.view.data["proposals"])
    assert len(ends) > 1 and all(p["tile"] == [6, 2] for p in table.view.data["proposals"])
    chosen = table.view.data["proposals"][0]
    assert table.handle(chosen, "web").accepted
    assert "proposals" not in table.view.data  # cleared by the accepted event
    assert [e["tile"] for e in table.journal.events(table.game_id) if e["type"] == "play"] == [[6, 6], [6, 2]]


def test_nothing_new_or_unplayable_is_refused_and_changes_nothing(tmp_path):
    table = new_hand(tmp_path)
    table.handle_tiles([[6, 6]])
    before = table.view.data
    r = table.handle_tiles([[6, 6]])
    assert not r.accepted and "no new tile that can be played now among [[6, 6]]" in r.reason
    r = table.handle_tiles([[1, 2]])  # fits no open end
    assert not r.accepted and table.view.data == before


def test_dice_games_take_no_tiles(tmp_path):
    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["A", "B"]}, clock=Clock())
    assert not takes_tiles(table.session.game)
    assert not table.handle_tiles([[1, 1]]).accepted and table.session.applied == 0


def test_camera_reads_real_tile_photos_into_plays(tmp_path):
    """The real reader on real photos replayed as a camera: a double is the first play;
    the next tile touches the double's arms, so the operator is asked to choose."""
    folder = tmp_path / "cam"
    folder.mkdir()
    shutil.copy(FIXTURES / "IMG_0350.jpg", folder / "a.jpg")  # 1-1
    shutil.copy(FIXTURES / "IMG_0354.jpg", folder / "b.jpg")  # 3-1
    table = Table(Journal(tmp_path / "j.sqlite3"), DOMINOES, tick=0.05)
    table.start()
    try:
        assert table.submit({"type": "new_hand"}).result(5).accepted
        worker = CameraWorker(lambda: open_source(f"folder:{folder}", hold_frames=25), table, interval=0.05)
        worker.start()
        end = time.monotonic() + 60
        while time.monotonic() < end and "proposals" not in table.view.data:
            time.sleep(0.05)
        worker.stop()
        plays = [e for e in table.journal.events(table.game_id) if e["type"] == "play"]
        assert plays and plays[0]["tile"] == [1, 1] and plays[0]["source"] == "camera"
        assert {tuple(sorted(p["tile"])) for p in table.view.data["proposals"]} == {(1, 3)}
    finally:
        table.stop()


def test_a_tile_the_camera_cannot_read_is_in_the_view_until_it_can(tmp_path, monkeypatch):
    """A tile read with a half unsure holds the camera's reading: the view says ``camera_hold: tile`` (the
    players' page and the scoreboard say what to do) until the tile is read, or the camera stops."""
    import vision.dominoes
    from tests.support import StillCamera, wait_until
    from vision.types import TileReading

    tiles = [TileReading((5, None), (300.0, 300.0))]
    monkeypatch.setattr(vision.dominoes, "read_dominoes", lambda frame: tiles)  # (the tile settler's reader)
    table = Table(Journal(tmp_path / "j.sqlite3"), DOMINOES, tick=0.05)
    table.start()
    worker = CameraWorker(lambda: StillCamera(), table, interval=0.02)
    try:
        assert table.submit({"type": "new_hand"}).result(5).accepted
        worker.start()
        assert wait_until(lambda: table.view.data.get("camera_hold") == "tile") and worker.status["settling"] == "a tile is unsure"
        tiles[:] = [TileReading((5, 5), (300.0, 300.0))]
        assert wait_until(lambda: "camera_hold" not in table.view.data)
        tiles[:] = [TileReading((5, None), (300.0, 300.0))]
        assert wait_until(lambda: table.view.data.get("camera_hold") == "tile")
        worker.stop()  # (a camera stopped holds nothing: the play is entered by hand)
        assert wait_until(lambda: "camera_hold" not in table.view.data)
    finally:
        worker.stop()
        table.stop()


def test_a_domino_tables_zones_follow_its_camera_nudged(tmp_path, monkeypatch):
    """A real line of play on a domino table whose seats are zones, reported; the table is bumped and the camera with
    it (6 px right, 3 down): the camera moves the zones with the picture, keeps them in its calibration file and says
    how far they moved (``status["zones_moved"]``). Bumped again, the camera turned a degree: the zones turn with
    the picture, and ``status["zones_turned"]`` says how far."""
    import json

    import cv2
    import numpy as np

    import vision.dominoes
    from tests.support import StillCamera, labelled_tiles, wait_until
    from vision.settle import Motion
    from vision.synth import nudged
    from vision.zones import Zones

    labels = json.loads((FIXTURES / "labels.json").read_text())["layout.jpg"]
    frame = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
    frame[40:680, 320:960] = cv2.imread(str(FIXTURES / "layout.jpg"))  # (the photo, 640 x 640, in a camera's frame)
    read = labelled_tiles(labels, (320, 40))
    monkeypatch.setattr(vision.dominoes, "read_dominoes", lambda picture: read)  # (the tile settler's reader)
    drawn = {"size": [1280, 720], "zones": {"Ann": [[0, 0], [640, 0], [640, 720], [0, 720]], "Bob": [[640, 0], [1280, 0], [1280, 720], [640, 720]]}}
    kept_in = tmp_path / "zones.json"
    kept_in.write_text(json.dumps(drawn))
    table = Table(Journal(tmp_path / "j.sqlite3"), DOMINOES, tick=0.05)
    table.start()
    camera = StillCamera(frame, thrown=3)
    worker = CameraWorker(lambda: camera, table, interval=0.02, zones=Zones.from_calibration(drawn), zones_file=str(kept_in))
    try:
        assert table.submit({"type": "new_hand"}).result(5).accepted
        worker.start()
        assert wait_until(lambda: worker.status["settling"] == "already reported")
        read = labelled_tiles(labels, (326, 43))
        camera.throw(nudged(frame, (6, 3)))
        assert wait_until(lambda: worker.status["zones_moved"] == [6, 3]), worker.status
        moved = {"size": [1280, 720], "zones": {"Ann": [[6, 3], [646, 3], [646, 723], [6, 723]], "Bob": [[646, 3], [1286, 3], [1286, 723], [646, 723]]}}
        assert json.loads(kept_in.read_text()) == moved and worker.calibration is not None and worker.calibration.to_calibration() == moved
        assert worker.zones is worker.calibration and worker.status["zones_turned"] is None
        # (bumped again, the camera turned a degree about the frame's centre: the zones turn with the picture)
        h, w = frame.shape[:2]
        camera.throw(nudged(frame, Motion(6, 3, 1.0)))  # (moved as before, then turned)
        assert wait_until(lambda: worker.status["zones_turned"] is not None), worker.status
        assert abs(worker.status["zones_turned"] - 1.0) <= 0.15 and worker.status["zones_moved"] == [6, 3], worker.status
        turned = Zones.from_calibration(moved).moved(Motion(turn=1.0), (w, h)).to_calibration()
        kept = json.loads(kept_in.read_text())
        assert max(abs(a - b) for name in turned["zones"] for p, q in zip(turned["zones"][name], kept["zones"][name]) for a, b in zip(p, q)) <= 2.0
    finally:
        worker.stop()
        table.stop()


# --- geometry, the end-of-hand count and the keypad's CONFIRM ---------------------------

TWO_FIVES = [{"type": "play", "tile": [5, 1]}, {"type": "play", "tile": [1, 0], "end": "right"},
             {"type": "play", "tile": [0, 5], "end": "right"}]  # open: 5 on 5-1 and 5 on 0-5


def test_the_tile_it_touches_picks_the_end_and_a_contradiction_changes_nothing(tmp_path):
    table = new_hand(tmp_path)
    for e in TWO_FIVES:
        assert table.handle(e).accepted
    before, events = table.view.data, list(table.journal.events(table.game_id))
    r = table.handle_tiles([{"tile": [5, 3], "touches": [[0, 1]]}])  # against the middle tile
    assert not r.accepted and "[5, 3] touches [0, 1], where it is not a legal play" in r.reason
    r = table.handle_tiles([{"tile": [5, 3], "touches": [[9, 9]]}])
    assert not r.accepted and r.reason.startswith("bad camera tiles: expected a tile")
    assert table.view.data == before and list(table.journal.events(table.game_id)) == events
    r = table.handle_tiles([[5, 1], [1, 0], [0, 5], {"tile": [5, 3], "touches": [[0, 5]]}])
    assert r.accepted and r.event["end"] == "right" and r.event["source"] == "camera"


def domino_hand(tmp_path) -> Table:
    """Two players, five tiles each; Ann plays out, Bob keeps one tile."""
    table = Table(Journal(tmp_path / "j.sqlite3"), DOMINOES | {"options": {"hand_size": 5}}, clock=Clock())
    plays = [([6, 6], None), ([6, 1], "right"), ([6, 2], "left"), ([6, 3], "up"), ([6, 4], "down"),
             ([1, 0], "right"), ([2, 2], "left"), ([3, 3], "up"), ([4, 4], "down")]
    assert table.handle({"type": "new_hand"}).accepted
    for tile, end in plays:
        assert table.handle({"type": "play", "tile": tile} | ({"end": end} if end else {})).accepted
    assert table.view.data["phase"] == "count"
    return table


def test_the_count_read_from_the_hands_waits_for_confirm(tmp_path):
    table = domino_hand(tmp_path)
    laid = [p["tile"] for p in table.view.data["layout"]]
    r = table.handle_tiles(laid)
    assert not r.accepted and "0 tile(s) off the line of play, the hands hold 1" in r.reason
    r = table.handle_tiles(laid + [[5, 5]])
    assert not r.accepted and r.reason.startswith('confirm count {"hands": [[], [[5, 5]]]}')
    assert table.view.data["proposals"] == [{"type": "count", "hands": [[], [[5, 5]]], "source": "camera"}]
    assert table.view.data["proposal_selected"] == 0
    r = table.handle_press("confirm")
    assert r.accepted and r.event["source"] == "button" and r.event["hands"] == [[], [[5, 5]]]
    assert table.view.data["last_hand"]["pips"] == [0, 10] and "proposals" not in table.view.data
    r = table.handle_press("confirm")
    assert not r.accepted and r.reason == "button 'confirm': there is no camera proposal to confirm now"


def test_choose_moves_the_selection_and_confirm_plays_it(tmp_path):
    table = new_hand(tmp_path)
    for e in TWO_FIVES:
        assert table.handle(e).accepted
    r = table.handle_tiles([[5, 3]])  # no geometry: both fives
    assert "ambiguous: 2 placements" in r.reason
    assert [p["end"] for p in table.view.data["proposals"]] == ["left", "right"]
    assert not table.handle_press("choose").accepted and table.view.data["proposal_selected"] == 1
    assert not table.handle_press("choose").accepted and table.view.data["proposal_selected"] == 0
    table.handle_press("choose")
    r = table.handle_press("confirm")
    assert r.accepted and r.event["end"] == "right" and table.view.data["open_ends"]["right"] == 3


def test_keypad_confirm_button_on_a_mock_pin_plays_the_proposal(tmp_path):
    from gpiozero.pins.mock import MockFactory

    from refbox.config import from_dict
    from refbox.runtime import Devices, keypad_layout, start_keypad
    from tests.support import wait_until

    cfg = from_dict({"keypad": {"bounce_ms": 5, "hold_ms": 150}})
    table = Table(Journal(tmp_path / "j.sqlite3"), DOMINOES, tick=0.02)
    dev = Devices(table)
    try:
        assert keypad_layout(cfg, table)[22] == ("confirm", "fish")  # auto: the dominoes layout
        table.start()
        start_keypad(cfg, table, dev, MockFactory())
        for e in [{"type": "new_hand"}, *TWO_FIVES]:
            assert table.submit(e).result(5).accepted
        assert not table.tiles([[5, 1], [1, 0], [0, 5], [5, 3]]).result(5).accepted
        choose, confirm = dev.keypad.pin_of("choose"), dev.keypad.pin_of("confirm")
        choose.drive_low()
        time.sleep(0.02)  # past the 5 ms debounce, well short of the 150 ms hold
        choose.drive_high()  # a short press: it has a long action, so it reports at the release
        assert wait_until(lambda: table.view.data.get("proposal_selected") == 1)
        confirm.drive_low()
        time.sleep(0.02)
        confirm.drive_high()
        assert wait_until(lambda: "proposals" not in table.view.data)
        last = list(table.journal.events(table.game_id))[-1]
        assert last["tile"] == [5, 3] and last["end"] == "right" and last["source"] == "button"
    finally:
        dev.close()
        table.stop()


def test_camera_reads_a_real_line_of_play_and_the_contact_picks_the_end(tmp_path):
    """The real photo of a line of play (tests/fixtures/dominoes/layout.jpg) replayed as a
    camera: the engine has every tile but 6-1 (and 1-4, laid against the 4-4 no engine
    end shows). 6-1 fits the right end (0-6) and the down arm (3-6) by its pips; it
    touches 0-6 in the photo, so it is played on the right at once."""
    folder = tmp_path / "cam"
    folder.mkdir()
    shutil.copy(FIXTURES / "layout.jpg", folder / "a.jpg")
    table = Table(Journal(tmp_path / "j.sqlite3"), DOMINOES, tick=0.05)
    plays = [([5, 5], None), ([5, 4], "right"), ([2, 5], "up"), ([5, 3], "down"), ([4, 4], "right"),
             ([4, 0], "right"), ([3, 3], "down"), ([3, 6], "down"), ([0, 0], "right"), ([0, 6], "right")]
    table.start()
    try:
        assert table.submit({"type": "new_hand"}).result(5).accepted
        for tile, end in plays:
            assert table.submit({"type": "play", "tile": tile} | ({"end": end} if end else {})).result(5).accepted
        assert sorted(e for e, v in table.view.data["open_ends"].items() if v == 6) == ["down", "right"]
        worker = CameraWorker(lambda: open_source(f"folder:{folder}", hold_frames=25), table, interval=0.05)
        worker.start()
        end = time.monotonic() + 60
        while time.monotonic() < end and table.view.data["open_ends"]["right"] != 1:
            time.sleep(0.05)
        worker.stop()
        last = list(table.journal.events(table.game_id))[-1]
        assert last["tile"] == [6, 1] and last["end"] == "right" and last["source"] == "camera"
        assert "proposals" not in table.view.data
    finally:
        table.stop()


def test_camera_zones_file_is_loaded_or_refused_naming_the_key(tmp_path):
    import json

    import pytest

    from refbox.config import ConfigError, from_dict
    from refbox.runtime import Devices, load_zones, start_camera

    good = tmp_path / "zones.json"
    good.write_text(json.dumps({"size": [640, 640], "zones": {"Ann": [[0, 0], [640, 0], [640, 300], [0, 300]],
                                                              "Bob": [[0, 340], [640, 340], [640, 640], [0, 640]]}}))
    zones = load_zones(str(good))
    assert zones.names == ("Ann", "Bob") and zones.zone_of((10, 600)) == "Bob"
    bad = tmp_path / "bad.json"
    bad.write_text('{"zones": {"Ann": [[0, 0]]}}')
    for path, why in ((bad, "polygon needs at least 3"), (tmp_path / "none.json", "No such file")):
        cfg = from_dict({"camera": {"zones": str(path)}})
        (tmp_path / path.stem).mkdir()
        table = new_hand(tmp_path / path.stem)
        with pytest.raises(ConfigError, match=rf"camera.zones: cannot use {path}: .*{why}"):
            start_camera(cfg, table, Devices(table), sim=False)
