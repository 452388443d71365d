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
