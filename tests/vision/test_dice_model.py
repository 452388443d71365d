"""The learned candidate check of the dice reader: crops, the shipped network, its errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.dice_model import CROP, MODEL_PATH, classify, crop_features, load_model
from vision.synth import draw_die


def test_crop_of_a_plain_picture_is_flat() -> None:
    img = np.full((60, 80, 3), (30, 140, 200), np.uint8)
    f = crop_features(img, np.array([[40.0, 30.0, 20.0, 0.0]]))
    assert f.shape == (1, 3 * CROP * CROP)
    assert np.abs(f).max() < 1e-4


def test_crop_turns_with_the_box() -> None:
    yy, xx = np.mgrid[0:64, 0:64]
    blob = 200 * np.exp(-((xx - 42) ** 2 + (yy - 24) ** 2) / 18.0)  # a soft bright spot right of and above the centre
    img = np.repeat(blob[:, :, None], 3, axis=2).astype(np.uint8)
    a = crop_features(img, np.array([[32.0, 32.0, 40.0, 0.0]])).reshape(3, CROP, CROP)[0]
    b = crop_features(img, np.array([[32.0, 32.0, 40.0, 90.0]])).reshape(3, CROP, CROP)[0]
    # turning the box by a quarter turns the crop by a quarter (one way, not the others)
    corr = [float(np.corrcoef(np.rot90(a, k).ravel(), b.ravel())[0, 1]) for k in range(4)]
    best = int(np.argmax(corr))
    assert corr[best] > 0.95 and best in (1, 3)
    assert max(c for k, c in enumerate(corr) if k != best) < 0.5


def test_shipped_model_loads_and_records_its_data() -> None:
    model = load_model()
    assert MODEL_PATH.stat().st_size <= 5 * 1024 * 1024
    origin = model.origin()
    assert "tune part" in origin["origin"] and "byler" in origin["origin"] and "matteo" in origin["origin"]
    assert origin["trainer"] == "tools/train_dice_classifier.py"
    p = model.predict(np.zeros((2, 3 * CROP * CROP), np.float32))
    assert p.shape == (2, 7) and np.allclose(p.sum(axis=1), 1.0, atol=1e-5)
    assert model.predict(np.zeros((0, 3 * CROP * CROP), np.float32)).shape == (0, 7)


def test_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="nothing.onnx.*no such file"):
        load_model(tmp_path / "nothing.onnx")


def test_damaged_model_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "damaged.onnx"
    bad.write_bytes(MODEL_PATH.read_bytes()[:5000])
    with pytest.raises(ValueError, match="damaged.onnx"):
        load_model(bad)


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_classifies_a_drawn_die(value: int) -> None:
    img = np.full((200, 200, 3), (175, 180, 185), np.uint8)
    draw_die(img, value, (100, 100), 34, 20.0, body=(40, 40, 190), pip=(240, 240, 240))
    p = classify(img, np.array([[100.0, 100.0, 34.0]], np.float32))
    assert int(np.argmax(p[0])) == value


def test_table_without_a_die_is_no_die() -> None:
    img = np.full((200, 200, 3), (175, 180, 185), np.uint8)
    p = classify(img, np.array([[100.0, 100.0, 34.0]], np.float32))
    assert int(np.argmax(p[0])) == 0
