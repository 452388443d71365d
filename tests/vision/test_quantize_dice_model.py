"""tools/quantize_dice_model.py: what it refuses and the crops it calibrates on (ONNX Runtime, which only the
quantizing itself needs, is not needed for these)."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

from tests.support import drawn_photo_set
from vision.dice_model import EIGHT_BIT, MODEL_PATH

TOOL = Path(__file__).resolve().parents[2] / "tools" / "quantize_dice_model.py"
TRAINED = MODEL_PATH  # the trained network the shipped copy was made from


@pytest.fixture(scope="module")
def quantizer() -> dict:
    return runpy.run_path(str(TOOL))


def test_too_few_calibration_crops_are_refused(quantizer: dict, tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="--crops 99: out of range"):
        quantizer["main"]([str(tmp_path), "--crops", "99"])


def test_the_copy_is_not_written_over_its_network(quantizer: dict, tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="the model itself"):
        quantizer["main"]([str(tmp_path), "--model", str(TRAINED), "--out", str(TRAINED)])


def test_a_copy_is_not_copied_again(quantizer: dict, tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"dice_cnn_int8.onnx' is an 8-bit copy already \(the second and third convolutions in 8 bits"):
        quantizer["main"]([str(tmp_path), "--model", str(MODEL_PATH.parent / EIGHT_BIT["standard"])])


def test_calibration_crops_are_cut_from_the_tune_photos_and_every_extra_photo(quantizer: dict, tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(TOOL.parents[1] / "bench"))
    from dice_accuracy import part_photos

    names = drawn_photo_set(tmp_path / "data" / "a", 12, 0)
    extra = tmp_path / "extra"
    drawn_photo_set(extra, 3, 100)
    x, used = quantizer["calibration_crops"](tmp_path / "data", [extra], 32, "lightness", 10_000, 7)
    assert used == [f"a: {len(part_photos(names, 'tune'))} tune photos", "extra: all 3 photos"]
    assert x.shape[1] == 3 * 32 * 32 and x.dtype == np.float32
    few, _ = quantizer["calibration_crops"](tmp_path / "data", [extra], 32, "lightness", 5, 7)
    assert len(few) == 5 < len(x)
    # the draw is the seed's: the same seed draws the same crops
    again, _ = quantizer["calibration_crops"](tmp_path / "data", [extra], 32, "lightness", 5, 7)
    assert np.array_equal(few, again)


def test_a_folder_without_a_labelled_set_is_refused_naming_it(quantizer: dict, tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no labelled photo set"):
        quantizer["calibration_crops"](tmp_path, [], 32, "lightness", 100, 7)
