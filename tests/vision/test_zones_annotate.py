"""Zones from a calibration; annotated pictures."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.annotate import IGNORED, annotate_files, draw_dice, draw_zones
from vision.dice import read_dice
from vision.synth import draw_die
from vision.types import DieReading
from vision.zones import CalibrationError, Zones

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "dice"
CAL = {"size": [200, 100], "zones": {"tray": [[0, 0], [100, 0], [100, 100], [0, 100]], "kept": [[100, 0], [200, 0], [200, 100], [100, 100]]}}


def test_zone_of_scales_to_the_frame() -> None:
    z = Zones.from_calibration(CAL)
    assert z.zone_of((50, 50)) == "tray"
    assert z.zone_of((150, 50)) == "kept"
    assert z.zone_of((250, 50)) is None
    assert z.zone_of((300, 100), frame_size=(400, 200)) == "kept"  # same place, twice the size
    assert Zones.from_calibration(z.to_calibration()).names == ("tray", "kept")


def test_split_groups_by_zone() -> None:
    z = Zones.from_calibration(CAL)
    dice = z.assign([DieReading(3, (20.0, 20.0), 0.9), DieReading(5, (150.0, 20.0), 0.9), DieReading(1, (190.0, 90.0), 0.9)])
    parts = z.split(dice)
    assert [d.value for d in parts["tray"]] == [3] and [d.value for d in parts["kept"]] == [5, 1]


@pytest.mark.parametrize(
    "bad, word",
    [
        ({}, "zones"),
        ({"zones": {"tray": [[0, 0], [1, 1]]}}, "tray"),
        ({"zones": {"a": "x"}}, "'a'"),
        ({**CAL, "size": [0, 5]}, "size"),
        ({**CAL, "ignroe": []}, "unknown key.*ignroe"),
        ({**CAL, "ignore": {"board": [[0, 0], [1, 0], [1, 1]]}}, "'ignore' must be a list of polygons"),
        ({**CAL, "ignore": [[[0, 0], [1, 1]]]}, r"'ignore' \[0\]: polygon needs at least 3"),
        ({"size": [1280, 720]}, "'zones' must be an object"),
        ({"zones": [], "ignore": []}, "'zones' must be an object"),
        ({"zones": {"kept": [[0, 0], [1e300, 0], [1, 1]]}}, "zone 'kept': every point must be an \\[x, y\\] in pixels, at most 1e\\+06 from 0"),
    ],
)
def test_bad_calibrations_name_the_key(bad: dict, word: str) -> None:
    with pytest.raises(CalibrationError, match=word):
        Zones.from_calibration(bad)


def test_a_calibration_of_no_zones_is_a_table_without_zones() -> None:
    """``{"zones": {}}`` (the zones cleared on the control page) holds nothing: every die in no zone, nothing left out."""
    z = Zones.from_calibration({"size": [1280, 720], "zones": {}})
    assert z.empty and z.names == () and z.zone_of((5.0, 5.0)) is None
    frame = np.arange(300, dtype=np.uint8).reshape(10, 10, 3)
    assert z.leave_out(frame) is frame
    assert Zones.from_calibration(z.to_calibration()) == z
    assert not Zones.from_calibration(CAL).empty


def test_draw_dice_marks_sure_and_unsure() -> None:
    img = np.zeros((100, 200, 3), np.uint8)
    out = draw_dice(img, [DieReading(4, (50.0, 50.0), 0.9, (30, 30, 70, 70)), DieReading(None, (150.0, 50.0), 0.1, (130, 30, 170, 70))])
    assert not img.any()  # input untouched
    assert out[30, 50, 1] > 150 and out[30, 50, 2] < 100  # green box round the sure die
    assert out[30, 150, 2] > 150  # red box round the unsure one


def test_draw_dice_marks_a_die_read_less_surely_than_asked_as_in_doubt() -> None:
    """With a settler's ``sure``, a die read with a value but not surely enough is drawn red, like an unsure one."""
    img = np.zeros((100, 200, 3), np.uint8)
    dice = [DieReading(4, (50.0, 50.0), 0.9, (30, 30, 70, 70)), DieReading(3, (150.0, 50.0), 0.62, (130, 30, 170, 70))]
    out = draw_dice(img, dice, sure=lambda d: d.confidence >= 0.7)
    assert out[30, 50, 1] > 150 and out[30, 50, 2] < 100  # green: read surely enough
    assert out[30, 150, 2] > 150 and out[30, 150, 1] < 100  # red: in doubt
    plain = draw_dice(img, dice)
    assert plain[30, 150, 1] > 150  # (without one, every die read with a value is sure)


def test_annotate_files_writes_pictures(tmp_path: Path) -> None:
    results = annotate_files([SAMPLES / "face-3.jpg"], tmp_path)
    assert (tmp_path / "face-3.png").exists()
    assert [r.value for r in results[0][1]] == [3]
    assert cv2.imread(str(tmp_path / "face-3.png")).shape == (480, 640, 3)


def board_beside_the_tray() -> np.ndarray:
    """A 1280x720 table: a two in the tray (left), and right of x = 760 a printed board
    covered in die faces (the pips of a printed board are pips to the reader)."""
    img = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
    draw_die(img, 2, (300, 360), 60)
    for k in range(6):
        draw_die(img, k + 1, (870 + 150 * (k % 3), 250 + 220 * (k // 3)), 60)
    return img


def test_ignore_areas_are_painted_over_before_reading() -> None:
    img = board_beside_the_tray()
    # drawn on a still of half the size: scaled to the frame like the zones
    z = Zones.from_calibration({"size": [640, 360], "ignore": [[[380, 0], [640, 0], [640, 360], [380, 360]]]})
    assert sorted(d.value for d in read_dice(img)) == [1, 2, 2, 3, 4, 5, 6]
    left = z.leave_out(img)
    assert [d.value for d in read_dice(left)] == [2]
    assert (left[:, 761:] == (40, 110, 40)).all()  # the table's colour (the median of the rest)
    assert (left[:, :759] == img[:, :759]).all() and (img[:, 761:] != (40, 110, 40)).any()  # the frame itself untouched
    assert z.names == () and z.zone_of((100, 100)) is None
    again = Zones.from_calibration(z.to_calibration())
    assert len(again.ignore) == 1 and (again.ignore[0] == z.ignore[0]).all()
    plain = Zones.from_calibration(CAL)
    assert plain.leave_out(img) is img  # nothing to leave out: no copy


def test_draw_zones_greys_out_the_ignored_areas() -> None:
    img = board_beside_the_tray()
    z = Zones.from_calibration({"zones": {"tray": [[0, 0], [760, 0], [760, 720], [0, 720]]}, "ignore": [[[770, 0], [1280, 0], [1280, 720], [770, 720]]]})
    out = draw_zones(img, z)
    grey = np.array(IGNORED, np.float32)
    # halfway to grey over the board, the tray untouched but for its outline and name
    assert np.abs(out[600, 800].astype(np.float32) - (img[600, 800] + grey) / 2).max() <= 1
    assert (out[300:400, 100:200] == img[300:400, 100:200]).all()
