"""tools/train_dice_classifier.py: the drawn dice it trains on (no PyTorch needed for these)."""

from __future__ import annotations

import runpy
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.support import drawn_photo_set
from vision.synth import face_geometry

TOOL = Path(__file__).resolve().parents[2] / "tools" / "train_dice_classifier.py"


@pytest.fixture(scope="module")
def trainer() -> dict:
    return runpy.run_path(str(TOOL))


TABLE = (0, 128, 0)


def test_solid_dice_are_drawn_inside_their_boxes_with_side_faces_beside_the_top_face(trainer: dict) -> None:
    size, centre, angle = 50.0, (100.0, 100.0), 20.0
    top, _ = face_geometry(5, centre, size, angle)
    inside_top = np.zeros((200, 200), np.uint8)
    cv2.fillConvexPoly(inside_top, np.round(top).astype(np.int32), 1)
    inside_top = cv2.dilate(inside_top, np.ones((3, 3), np.uint8)).astype(bool)
    beside = 0
    for seed in range(12):
        image = np.empty((200, 200, 3), np.uint8)
        image[:] = TABLE
        x0, y0, x1, y1 = trainer["draw_solid_die"](image, 5, centre, size, angle, np.array([255.0, 255.0, 255.0]),
                                                   np.array([0.0, 0.0, 200.0]), np.random.default_rng(seed))
        changed = np.any(image != TABLE, axis=2)
        ys, xs = np.nonzero(changed)
        # nothing drawn outside the box (anti-aliased edges within a pixel); the box holds the top face
        assert xs.min() >= np.floor(x0) - 1 and xs.max() <= np.ceil(x1) + 1
        assert ys.min() >= np.floor(y0) - 1 and ys.max() <= np.ceil(y1) + 1
        assert x0 <= top[:, 0].min() and x1 >= top[:, 0].max() and y0 <= top[:, 1].min() and y1 >= top[:, 1].max()
        # side faces at most 0.4 die sizes wide
        assert x1 - x0 <= np.ptp(top[:, 0]) + 0.4 * size + 1 and y1 - y0 <= np.ptp(top[:, 1]) + 0.4 * size + 1
        # the top face is drawn over (body or pips: no table colour left in it)
        assert changed[inside_top].mean() > 0.97
        beside += int((changed & ~inside_top).sum() > 0.02 * size * size)
    assert beside >= 9, f"side faces showed on {beside} of 12 dice"


def test_solid_share_zero_draws_the_plain_tables_and_one_draws_solids(trainer: dict) -> None:
    scene = trainer["synthetic_scene"]
    plain, labels, _ = scene(np.random.default_rng(1), 200, 0.0)
    plain_again, labels_again, _ = scene(np.random.default_rng(1), 200)
    assert labels == labels_again and np.array_equal(plain, plain_again)
    solid, solid_labels, _ = scene(np.random.default_rng(1), 200, 1.0)
    assert not np.array_equal(solid, plain)
    assert solid_labels and all(1 <= d["value"] <= 6 for d in solid_labels)


def test_validation_dice_are_counted_as_the_reader_would_report_them(trainer: dict) -> None:
    # a sure three; a die whose best value (a five) holds only 0.4 of the die probability: unsure;
    # a sure two where a six lies; a crop taken for no die; a sure four, but not clearly a die (0.7);
    # no value in particular, and not clearly enough a die for an unsure one (0.85)
    p = np.array(
        [
            [0.05, 0.0, 0.0, 0.9, 0.05, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0, 0.3, 0.4, 0.3],
            [0.1, 0.0, 0.8, 0.0, 0.0, 0.0, 0.1],
            [0.7, 0.1, 0.1, 0.1, 0.0, 0.0, 0.0],
            [0.3, 0.0, 0.0, 0.0, 0.7, 0.0, 0.0],
            [0.15, 0.2, 0.2, 0.15, 0.1, 0.1, 0.1],
        ],
        np.float32,
    )
    y = np.array([3, 5, 6, 1, 4, 2])
    assert trainer["as_read"](p, y) == (1, 1, 1, 3)
    line = trainer["figures_of"]({"byler_one": p, "byler_four": p, "byler_labels": y})
    assert line == "byler 50.0 % (50.0 % over 4 turns) of 6, as read: 1 right, 1 unsure, 1 wrong, 3 no die"


def test_channels_are_three_positive_counts(trainer: dict) -> None:
    import argparse

    assert trainer["_channels"]("16,32,48") == (16, 32, 48)
    for bad in ("16,32", "a,b,c", "0,32,48", "16,32,48,64", ""):
        with pytest.raises(argparse.ArgumentTypeError, match="three channel counts"):
            trainer["_channels"](bad)


def test_the_bench_inner_part_is_the_tune_photos_the_trainer_validates_on(trainer: dict) -> None:
    import sys

    sys.path.insert(0, str(TOOL.parents[1] / "bench"))
    from dice_accuracy import part_photos, parts

    names = [f"IMG_{i:04d}.jpg" for i in range(400)]
    split = parts(names, True)
    assert set(split["inner"]) < set(split["tune"])
    assert set(part_photos(names, "train")) == set(split["tune"]) - set(split["inner"])
    assert set(split["tune"]) | set(split["held"]) == set(names) and not set(split["tune"]) & set(split["held"])
    with pytest.raises(ValueError, match="unknown part 'validate'"):
        part_photos(names, "validate")
    assert 0.1 < len(split["inner"]) / len(split["tune"]) < 0.3  # about VALIDATE_SHARE
    assert set(parts(names, False)) == {"all"}


@pytest.mark.parametrize("option", ["--save-model", "--save-probs"])
def test_saving_the_inner_parts_results_needs_validate(trainer: dict, option: str, tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=f"{option} needs --validate"):
        trainer["main"]([str(tmp_path), option, str(tmp_path / "x")])


def test_an_extra_set_must_say_where_its_photos_come_from(trainer: dict, tmp_path: Path) -> None:
    (tmp_path / "labels.json").write_text("{}")
    with pytest.raises(SystemExit, match="no ORIGIN.md"):
        trainer["extra_origin"](tmp_path)
    (tmp_path / "ORIGIN.md").write_text("\n# github.com/someone/dice @abc123, CC BY 4.0\n\nmore about the photos\n")
    assert trainer["extra_origin"](tmp_path) == "github.com/someone/dice @abc123, CC BY 4.0"
    (tmp_path / "labels.json").unlink()
    with pytest.raises(SystemExit, match="no labels.json"):
        trainer["extra_origin"](tmp_path)


def test_every_photo_of_an_extra_set_is_trained_on_and_of_the_photo_sets_only_the_part(trainer: dict, tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(TOOL.parents[1] / "bench"))
    from dice_accuracy import part_photos

    names = drawn_photo_set(tmp_path / "data" / "a", 12, 0)
    extra = tmp_path / "extra"
    drawn_photo_set(extra, 3, 100)
    (extra / "ORIGIN.md").write_text("# drawn for this test, no licence needed\n")
    x, y, used = trainer["collect"](tmp_path / "data", np.random.default_rng(0), "tune", synthetic=0, extra=[extra])
    tune = part_photos(names, "tune")
    assert 0 < len(tune) < len(names)
    assert used == [f"a: {len(tune)} tune photos", "extra: all 3 photos of an extra set (drawn for this test, no licence needed)",
                    "synthetic: 0 drawn tables (vision.synth.draw_die, seed 7)"]
    assert len(x) == len(y) and set(np.unique(y)) >= {1, 6}


def test_isoluminant_pips_have_the_bodys_lightness_and_another_colour(trainer: dict) -> None:
    rng = np.random.default_rng(3)
    weights = np.array([0.114, 0.587, 0.299])
    for body in ([60, 60, 60], [30, 40, 170], [200, 180, 40], [128, 128, 128]):
        b = np.array(body)
        for _ in range(20):
            pip = trainer["isoluminant_pip"](b, rng)
            assert abs(float(weights @ pip) - float(weights @ b)) <= trainer["ISO_LIGHTNESS"]
            assert np.abs(b - pip).sum() >= trainer["ISO_COLOUR"]


def test_isoluminant_share_zero_draws_the_plain_tables(trainer: dict) -> None:
    scene = trainer["synthetic_scene"]
    plain, labels, _ = scene(np.random.default_rng(4), 200)
    same, same_labels, _ = scene(np.random.default_rng(4), 200, 0.0, 0.0)
    assert labels == same_labels and np.array_equal(plain, same)
    iso, iso_labels, _ = scene(np.random.default_rng(4), 200, 0.0, 1.0)
    assert iso_labels and not np.array_equal(iso, plain)
    # every drawn die's pips are about as light as its body: the lightness barely changes across a die
    grey = cv2.cvtColor(iso, cv2.COLOR_BGR2GRAY).astype(float)
    for d in iso_labels:
        x0, y0, x1, y1 = (int(round(v)) for v in d["box"])
        w = (x1 - x0) // 4
        inner = grey[y0 + w : y1 - w, x0 + w : x1 - w]
        assert np.percentile(inner, 95) - np.percentile(inner, 5) < 40


def test_dots_share_zero_draws_the_plain_tables_and_one_strews_what_the_reader_takes_for_pips(trainer: dict) -> None:
    # with --dots 0 the tables are drawn as without the option (the shipped network's data); with 1 every
    # table is strewn, and its dots give the classical reader many more "no die" candidates (class 0)
    scene, samples_of = trainer["synthetic_scene"], trainer["samples_of"]
    plain, labels, strewn = scene(np.random.default_rng(5), 200)
    same, same_labels, same_strewn = scene(np.random.default_rng(5), 200, 0.0, 0.0, 0.0)
    assert not strewn and not same_strewn and labels == same_labels and np.array_equal(plain, same)
    negatives = {0.0: 0, 1.0: 0}
    for dots in negatives:
        for seed in range(6):
            img, labs, strewn = scene(np.random.default_rng(seed), 200, 0.0, 0.0, dots)
            assert strewn == (dots == 1.0) and labs and all(1 <= d["value"] <= 6 for d in labs)
            negatives[dots] += int(np.sum(samples_of(img, labs)[2] == 0))
    assert negatives[1.0] > 3 * negatives[0.0] + 20, negatives


def test_a_strewn_tables_no_die_samples_are_capped_as_an_extra_sets(trainer: dict, tmp_path: Path) -> None:
    # of each strewn table at most extra_negatives "no die" samples per die sample are kept
    (tmp_path / "data").mkdir()
    x, y, used = trainer["collect"](tmp_path / "data", np.random.default_rng(0), "tune", synthetic=4, dots=1.0, extra_negatives=1)
    assert len(x) == len(y) and np.sum(y == 0) <= np.sum(y > 0)
    assert used == ["synthetic: 4 drawn tables (vision.synth.draw_die, seed 7, 1 of the tables strewn with dots (strew_dots))"]
