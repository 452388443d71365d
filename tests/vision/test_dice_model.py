"""The learned candidate check of the dice reader: crops, the shipped network, its errors."""

from __future__ import annotations

import hashlib
import inspect
import json
import re
from pathlib import Path

import numpy as np
import pytest

from vision.dice import CONFIDENCE_THRESHOLD, DEFAULT, Params, network_readings, read_dice
from vision.dice_model import CROP, EIGHT_BIT, MODEL_PATH, NETWORKS, classify, crop_features, crops, features, load_model, network_path
from vision.synth import draw_die


def _key(field: int, wire: int) -> bytes:
    return _varint(field << 3 | wire)


def _varint(v: int) -> bytes:
    out = bytearray()
    while True:
        out.append(v & 0x7F | (0x80 if v > 0x7F else 0))
        v >>= 7
        if not v:
            return bytes(out)


def _int(field: int, v: int) -> bytes:
    return _key(field, 0) + _varint(v)


def _msg(field: int, body: bytes | str) -> bytes:
    b = body.encode() if isinstance(body, str) else body
    return _key(field, 2) + _varint(len(b)) + b


def tiny_onnx(side: int, weights: np.ndarray, bias: np.ndarray | None = None) -> bytes:
    """An ONNX model (protobuf written here, field numbers of onnx.proto) taking (n, 3, side, side) crops:
    flatten, a dense layer ``weights`` (7, 3 * side * side) and ``bias`` (7, default 0) and a softmax, like the shipped network's input and output."""

    def tensor(name: str, a: np.ndarray) -> bytes:
        return b"".join(_int(1, d) for d in a.shape) + _int(2, 1) + _msg(8, name) + _msg(9, a.astype("<f4").tobytes())

    def value(name: str, dims: list[int | str]) -> bytes:
        shape = b"".join(_msg(1, _msg(2, d) if isinstance(d, str) else _int(1, d)) for d in dims)
        return _msg(1, name) + _msg(2, _msg(1, _int(1, 1) + _msg(2, shape)))

    def node(op: str, inputs: list[str], output: str, **ints: int) -> bytes:
        attrs = b"".join(_msg(5, _msg(1, k) + _int(3, v) + _int(20, 2)) for k, v in ints.items())
        return b"".join(_msg(1, i) for i in inputs) + _msg(2, output) + _msg(4, op) + attrs

    graph = (
        _msg(1, node("Flatten", ["crops"], "flat", axis=1))
        + _msg(1, node("Gemm", ["flat", "w", "b"], "logits", transB=1))
        + _msg(1, node("Softmax", ["logits"], "probabilities", axis=1))
        + _msg(2, "tiny")
        + _msg(5, tensor("w", weights))
        + _msg(5, tensor("b", np.zeros(7, np.float32) if bias is None else bias))
        + _msg(11, value("crops", ["n", 3, side, side]))
        + _msg(12, value("probabilities", ["n", 7]))
    )
    return _int(1, 7) + _msg(8, _int(2, 13)) + _msg(7, graph)


def bright_centre_model(tmp_path: Path, side: int, record_crop: object, **record: object) -> Path:
    """A tiny model on ``side`` pixel crops: class 1 when the crop's middle is lighter than its edge, else class 0;
    its record beside it names ``record_crop`` (and whatever else ``record`` holds)."""
    yy, xx = np.mgrid[0:side, 0:side]
    centre = (np.hypot(xx - (side - 1) / 2, yy - (side - 1) / 2) < side / 6).astype(np.float32)
    w = np.zeros((7, 3, side, side), np.float32)
    w[1, 0] = 40.0 * centre / centre.sum()  # the lightness channel
    w[0, 0] = -w[1, 0]
    path = tmp_path / f"tiny{side}.onnx"
    path.write_bytes(tiny_onnx(side, w.reshape(7, -1)))
    path.with_suffix(".json").write_text(json.dumps({"origin": "drawn in a test", "crop": record_crop, **record}))
    return path


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
    assert model.crop == origin["crop"]
    p = model.predict(np.zeros((2, 3 * model.crop * model.crop), np.float32))
    assert p.shape == (2, 7) and np.allclose(p.sum(axis=1), 1.0, atol=1e-5)
    assert model.predict(np.zeros((0, 3 * model.crop * model.crop), np.float32)).shape == (0, 7)


def test_the_clear_network_ships_and_records_the_casino_dice_it_learnt() -> None:
    path = network_path("clear")
    assert path is not None and path.stat().st_size <= 5 * 1024 * 1024
    model = load_model(path)
    origin = model.origin()
    assert "github.com/chaseelliottpatterson/dice-reader" in origin["origin"] and "--part a" in origin["origin"]
    assert origin["trainer"] == "tools/train_dice_classifier.py" and model.crop == origin["crop"]


@pytest.mark.parametrize("name", sorted(NETWORKS))
def test_each_shipped_8_bit_copy_is_the_copy_of_its_network(name: str) -> None:
    assert sorted(EIGHT_BIT) == sorted(NETWORKS)
    copy = load_model(MODEL_PATH.parent / EIGHT_BIT[name])
    record = copy.origin()
    made = re.fullmatch(r"the second and third convolutions in 8 bits .* of (\S+\.onnx) \(SHA-1 ([0-9a-f]{40})\), by tools/quantize_dice_model.py .*", record.pop("quantized"))
    assert made, "the record says how the copy was made, from which file"
    source = MODEL_PATH.parent / made[1]
    assert source.name == NETWORKS[name] and hashlib.sha1(source.read_bytes()).hexdigest() == made[2]
    trained = load_model(source)
    assert record == trained.origin()  # the same data, training and crops
    # and it reads as its network does: drawn dice of every value, and crops of nothing in particular
    img = np.full((200, 1400, 3), (175, 180, 185), np.uint8)  # (the first crop, at x 100, on the bare table)
    for value in range(1, 7):
        draw_die(img, value, (100 + 200 * value, 100), 34, 15.0 * value, body=(40, 40, 190), pip=(240, 240, 240))
    boxes = np.array([[100.0 + 200 * v, 100.0, 34.0] for v in range(7)], np.float32)
    a, b = classify(img, boxes, trained), classify(img, boxes, copy)
    assert list(np.argmax(a[1:], axis=1)) == list(np.argmax(b[1:], axis=1)) == [1, 2, 3, 4, 5, 6]
    assert np.abs(a - b).max() < 0.05


def test_networks_are_named_or_given_as_onnx_files(tmp_path: Path) -> None:
    assert network_path("standard") is None  # MODEL_PATH, looked up when loaded (benches swap it)
    assert network_path("clear") == MODEL_PATH.parent / "dice_cnn_clear.onnx"
    own = tmp_path / "own.onnx"
    own.write_bytes(b"")
    assert network_path(str(own)) == own
    with pytest.raises(ValueError, match=r"dice network 'glass': expected standard or clear, or the path of an .onnx file"):
        network_path("glass")
    with pytest.raises(ValueError, match=r"dice network '.*other.onnx': no such file"):
        network_path(str(tmp_path / "other.onnx"))
    with pytest.raises(ValueError, match=r"dice network '.*own.json': expected"):
        network_path(str(tmp_path / "own.json"))


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


@pytest.mark.parametrize("name", sorted(NETWORKS))
def test_table_without_a_die_is_no_die(name: str) -> None:
    img = np.full((200, 200, 3), (175, 180, 185), np.uint8)
    p = classify(img, np.array([[100.0, 100.0, 34.0]], np.float32), load_model(network_path(name)))
    # a plain crop is no value in particular: the reader drops it, not surely a die and no value sure
    die, _, confidence = network_readings(p)
    assert die[0] < DEFAULT.min_die and confidence[0] < CONFIDENCE_THRESHOLD


def test_a_model_on_larger_crops_reads_crops_of_its_side(tmp_path: Path) -> None:
    model = load_model(bright_centre_model(tmp_path, 48, 48))
    assert model.crop == 48
    img = np.full((200, 200, 3), 60, np.uint8)
    img[94:106, 94:106] = 220  # a light spot in the middle of a die-sized patch at (100, 100)
    p = classify(img, np.array([[100.0, 100.0, 30.0], [100.0, 122.0, 30.0], [40.0, 40.0, 30.0]], np.float32), model)
    assert p.shape == (3, 7) and np.allclose(p.sum(axis=1), 1.0, atol=1e-5)
    # the light spot in the middle is class 1, at the crop's edge class 0; a plain crop is no class in particular
    assert int(np.argmax(p[0])) == 1 and p[0, 1] > 0.9
    assert int(np.argmax(p[1])) == 0 and p[1, 0] > 0.9
    assert np.allclose(p[2], 1 / 7, atol=1e-4)


def test_classify_turns_only_the_unsure_crops_that_again_picks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = load_model(bright_centre_model(tmp_path, 32, 32))
    img = np.full((200, 200, 3), 60, np.uint8)
    img[94:106, 94:106] = 220  # a sure crop (a light spot in the middle) and two plain, unsure ones
    centres = np.array([[100.0, 100.0, 30.0], [40.0, 40.0, 30.0], [160.0, 40.0, 30.0]], np.float32)
    looked: list[int] = []
    predict = model.predict
    monkeypatch.setattr(model, "predict", lambda feats: (looked.append(len(feats)), predict(feats))[1])
    asked: list[list[int]] = []

    def again(p: np.ndarray, unsure: np.ndarray) -> np.ndarray:
        asked.append(unsure.tolist())
        assert p.shape == (3, 7) and p[0, 1] > 0.9
        return unsure[:1]

    p = classify(img, centres, model, turns=4, again=again)
    assert asked == [[1, 2]] and looked == [3, 3]  # the first look at all three, then crop 1 turned three times
    assert np.allclose(p, classify(img, centres, model, turns=1), atol=1e-6)  # (a plain crop reads alike turned)
    looked.clear()
    classify(img, centres, model, turns=4, again=lambda p, unsure: unsure[:0])
    assert looked == [3]
    looked.clear()
    classify(img, centres, model, turns=4)
    assert looked == [3, 6]  # by default every unsure crop is turned


def test_features_of_another_crop_side_are_a_clear_error(tmp_path: Path) -> None:
    model = load_model(bright_centre_model(tmp_path, 48, 48))
    with pytest.raises(ValueError, match=r"tiny48.onnx.*48 x 48.*\(n, 6912\).*\(2, 3072\)"):
        model.predict(np.zeros((2, 3 * 32 * 32), np.float32))


def test_record_and_network_that_disagree_on_the_crop_are_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"tiny48.onnx.*does not take the 32 x 32 pixel crops.*tiny48.json"):
        load_model(bright_centre_model(tmp_path, 48, 32))


@pytest.mark.parametrize("crop", [None, "48", 0, 4.5, True])
def test_record_without_a_sound_crop_is_a_clear_error(tmp_path: Path, crop: object) -> None:
    with pytest.raises(ValueError, match=r"tiny48.json.*gives crop"):
        load_model(bright_centre_model(tmp_path, 48, crop))


def test_model_without_its_record_is_a_clear_error(tmp_path: Path) -> None:
    path = bright_centre_model(tmp_path, 48, 48)
    path.with_suffix(".json").unlink()
    with pytest.raises(ValueError, match=r"cannot read the dice model's record.*tiny48.json"):
        load_model(path)


def test_classify_defaults_are_the_readers():
    # a direct caller of classify gets the same second looks as the reader (Params.turns, Params.sure)
    defaults = {k: p.default for k, p in inspect.signature(classify).parameters.items()}
    assert (defaults["turns"], defaults["sure"]) == (Params().turns, Params().sure)


def smoky_die_with_red_pips() -> np.ndarray:
    img = np.full((64, 64, 3), (200, 202, 205), np.uint8)  # a light tray
    draw_die(img, 5, (32, 32), 36, 10.0, body=(48, 44, 46), pip=(40, 40, 150))  # red pips about as light as the die
    return img


def test_each_channel_by_its_own_spread_shows_pips_that_differ_in_colour_only() -> None:
    box = np.array([[32.0, 32.0, 40.0, 0.0]], np.float32)
    light = crop_features(smoky_die_with_red_pips(), box).reshape(3, -1)
    each = crop_features(smoky_die_with_red_pips(), box, norm="each").reshape(3, -1)
    assert np.allclose(light[0], each[0])  # the lightness is standardised alike
    # by the lightness spread (the dark die on the light tray) the red pips are faint in red - green; by their own they are not
    assert light[1].std() < 0.35 and each[1].std() > 2 * light[1].std()
    with pytest.raises(ValueError, match=r"unknown feature norm 'colour'.*lightness, each"):
        features(crops(smoky_die_with_red_pips(), box), "colour")


def test_a_model_reads_the_crops_standardised_as_its_record_says(tmp_path: Path) -> None:
    assert load_model().norm == load_model(bright_centre_model(tmp_path, 32, 32)).norm == "lightness"  # records before "features"
    (tmp_path / "each").mkdir()
    model = load_model(bright_centre_model(tmp_path / "each", 32, 32, features="each"))
    assert model.norm == "each"
    img = smoky_die_with_red_pips()
    centres = np.array([[32.0, 32.0, 40.0 / 1.5]], np.float32)
    want = model.predict(features(crops(img, np.array([[32.0, 32.0, 40.0, 0.0]], np.float32), 32), "each"))
    assert np.allclose(classify(img, centres, model, turns=1), want, atol=1e-6)


def test_record_with_an_unknown_feature_norm_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"tiny32.json.*gives features 'colour', expected one of lightness, each"):
        load_model(bright_centre_model(tmp_path, 32, 32, features="colour"))


@pytest.mark.parametrize(("probs", "read"), [
    ([0.02, 0.03, 0.05, 0.05, 0.05, 0.75, 0.05], [5]),  # a die, surely a five
    ([0.05, 0.05, 0.35, 0.40, 0.05, 0.05, 0.05], [None]),  # surely a die (0.95), unsure of its value: an unsure die, which holds the roll
    ([0.30, 0.10, 0.15, 0.15, 0.10, 0.10, 0.10], []),  # half a die (0.7) and no value in particular: clutter, not an unsure die
    ([0.60, 0.05, 0.05, 0.05, 0.05, 0.15, 0.05], []),  # no die
    ([0.30, 0.02, 0.02, 0.02, 0.02, 0.60, 0.02], []),  # surely a five, if a die at all: not clearly enough a die (0.7)
])
def test_a_die_the_network_cannot_read_must_be_clearly_a_die(tmp_path: Path, probs: list[float], read: list) -> None:
    path = tmp_path / "fixed.onnx"  # a network that answers ``probs`` whatever the crop
    path.write_bytes(tiny_onnx(32, np.zeros((7, 3 * 32 * 32), np.float32), np.log(np.array(probs, np.float32))))
    path.with_suffix(".json").write_text(json.dumps({"origin": "drawn in a test", "crop": 32}))
    img = np.full((240, 320, 3), (60, 120, 60), np.uint8)
    draw_die(img, 5, (160, 120), 60, 10.0)
    assert (Params().min_die, Params().unsure_die) == (0.8, 0.9)
    assert [r.value for r in read_dice(img, Params(network=path))] == read  # (that network alone)
