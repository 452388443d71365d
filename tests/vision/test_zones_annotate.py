"""Zones from a calibration; annotated pictures."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.annotate import annotate_files, draw_dice
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
    [({}, "zones"), ({"zones": {"tray": [[0, 0], [1, 1]]}}, "tray"), ({"zones": {"a": "x"}}, "'a'"), ({**CAL, "size": [0, 5]}, "size")],
)
def test_bad_calibrations_name_the_key(bad: dict, word: str) -> None:
    with pytest.raises(CalibrationError, match=word):
        Zones.from_calibration(bad)


def test_draw_dice_marks_sure_and_unsure() -> None:
    img = np.zeros((100, 200, 3), np.uint8)
    out = draw_dice(img, [DieReading(4, (50.0, 50.0), 0.9, (30, 30, 70, 70)), DieReading(None, (150.0, 50.0), 0.1, (130, 30, 170, 70))])
    assert not img.any()  # input untouched
    assert out[30, 50, 1] > 150 and out[30, 50, 2] < 100  # green box round the sure die
    assert out[30, 150, 2] > 150  # red box round the unsure one


def test_annotate_files_writes_pictures(tmp_path: Path) -> None:
    results = annotate_files([SAMPLES / "face-3.jpg"], tmp_path)
    assert (tmp_path / "face-3.png").exists()
    assert [r.value for r in results[0][1]] == [3]
    assert cv2.imread(str(tmp_path / "face-3.png")).shape == (480, 640, 3)
