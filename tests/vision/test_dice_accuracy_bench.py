"""bench/dice_accuracy.py's tally of one photo: what counts as found, right, exact, and scored right at a table."""

from __future__ import annotations

from bench.dice_accuracy import Tally, score
from vision.types import DieReading

LABELS = [{"value": 3, "box": [0, 0, 10, 10]}, {"value": 5, "box": [20, 0, 30, 10]}]


def reading(value: int | None, x: float, y: float = 5.0) -> DieReading:
    return DieReading(value, (x, y), 0.9 if value else 0.3, (int(x) - 4, int(y) - 4, int(x) + 4, int(y) + 4))


def tally(readings: list[DieReading]) -> Tally:
    t = Tally()
    score(t, "photo.jpg", LABELS, readings)
    return t


def test_every_die_right_is_exact_and_a_table_scores_it() -> None:
    t = tally([reading(3, 5), reading(5, 25)])
    assert (t.labelled, t.found, t.right, t.exact, t.settles, t.extra, t.unsure, t.unsure_off) == (2, 2, 2, 1, 1, 0, 0, 0)


def test_an_unsure_reading_off_every_die_leaves_the_photo_exact_but_holds_the_roll_at_a_table() -> None:
    t = tally([reading(3, 5), reading(5, 25), reading(None, 60)])
    assert (t.right, t.exact, t.settles, t.unsure, t.unsure_off, t.extra) == (2, 1, 0, 1, 1, 0)


def test_an_unsure_die_is_found_not_right_and_neither_exact_nor_scored() -> None:
    t = tally([reading(3, 5), reading(None, 25)])
    assert (t.found, t.right, t.exact, t.settles, t.unsure, t.unsure_off) == (2, 1, 0, 0, 1, 0)
    assert t.confusion[4, 6] == 1  # label 5, read unsure


def test_an_extra_confident_reading_spoils_the_photo() -> None:
    t = tally([reading(3, 5), reading(5, 25), reading(2, 60)])
    assert (t.right, t.exact, t.settles, t.extra) == (2, 0, 0, 1)
    assert t.wrong_photos == ["photo.jpg"]


def test_a_photo_read_in_a_camera_frame_is_scored_in_the_photos_pixels() -> None:
    from bench.dice_accuracy import in_frame, read_in_frame
    from vision.synth import render_dice

    img, truth = render_dice([3, 6], die=50, seed=2, size=(640, 480))
    frame, s, x, y = in_frame(img, (1280, 720))
    assert frame.shape == (720, 1280, 3) and s == 1.5 and (x, y) == (160, 0)
    got = sorted(read_in_frame(img, (1280, 720)), key=lambda r: r.value or 0)
    for (value, (cx, cy)), r in zip(sorted(truth), got):
        assert r.value == value and abs(r.center[0] - cx) < 3 and abs(r.center[1] - cy) < 3
        assert r.box is not None and r.box[0] <= cx <= r.box[2] and r.box[1] <= cy <= r.box[3]


def test_a_bad_frame_size_is_refused_naming_it() -> None:
    import argparse

    import pytest

    from bench.dice_accuracy import parse_frame

    assert parse_frame("1280x720") == (1280, 720)
    for bad in ("1280", "1280x", "wide x720", "8x8"):
        with pytest.raises(argparse.ArgumentTypeError, match=repr(bad)):
            parse_frame(bad)


def test_a_camera_reads_the_photos_of_one_table_in_frames_as_well_as_alone(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Byler's fixture photos in 1280 x 720 frames (dice about 45 px): read by one camera's reader, which
    remembers the scale of the dice, as many dice are right as in the photos alone; never fewer than
    each frame read by itself."""
    import json
    import shutil
    from pathlib import Path

    from bench.dice_accuracy import run_set

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "dice"
    labels = {k: v for k, v in json.loads((fixtures / "labels.json").read_text()).items() if k.startswith("byler")}
    (tmp_path / "images").mkdir()
    for name in labels:
        shutil.copy(fixtures / name, tmp_path / "images" / name)
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    alone = run_set(tmp_path, split=False)["all"]
    framed = run_set(tmp_path, split=False, frame=(1280, 720))["all"]
    camera = run_set(tmp_path, split=False, frame=(1280, 720), camera=True)["all"]
    assert alone.labelled == camera.labelled == 27
    assert camera.right >= alone.right - 1 and camera.right >= framed.right
    # each photo a table at rest for six frames, the last reading scored: the reader in its steady state
    still = run_set(tmp_path, split=False, frame=(1280, 720), camera=True, still=6)["all"]
    assert still.labelled == 27 and still.photos == 4 and still.right >= camera.right - 1


def test_a_jittered_picture_differs_by_a_grey_level_in_about_one_pixel_in_twenty() -> None:
    import numpy as np

    from bench.dice_accuracy import JITTER, jittered

    image = np.random.default_rng(0).integers(1, 255, (200, 300, 3), dtype=np.uint8)
    out = jittered(image, np.random.default_rng(1))
    moved = np.any(out != image, axis=2)
    assert abs(moved.mean() - JITTER) < 0.01
    step = out.astype(int) - image
    assert set(np.unique(step[moved])) == {-1, 1} and (step[moved].min(axis=1) == step[moved].max(axis=1)).all()  # (every channel the same way)
    assert np.array_equal(jittered(image, np.random.default_rng(1)), out) and image.max() < 255  # (a seed draws the same; the image is left as it was)
    white = np.full((10, 10, 3), 255, np.uint8)
    assert jittered(white, np.random.default_rng(2), share=1.0).min() >= 254  # (clipped at white)


def test_the_bench_prints_the_spread_of_jittered_draws(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """--jitter N: the photos read N times more, jittered, and the mean and range of their figures printed
    under the plain report; the same every run."""
    import json
    import re
    import shutil
    from pathlib import Path

    import pytest

    from bench.dice_accuracy import main

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "dice"
    labels = {k: v for k, v in json.loads((fixtures / "labels.json").read_text()).items() if k.startswith("byler")}
    (tmp_path / "byler" / "images").mkdir(parents=True)
    for name in labels:
        shutil.copy(fixtures / name, tmp_path / "byler" / "images" / name)
    (tmp_path / "byler" / "labels.json").write_text(json.dumps(labels))
    assert main([str(tmp_path), "--jitter", "2"]) == 0
    out = capsys.readouterr().out
    line = re.search(r"jittered, 2 draws \(5 % of pixels a grey level up or down\): per-die accuracy ([\d.]+) % \(([\d.]+) to ([\d.]+)\), "
                     r"exact photos ([\d.]+) % \(([\d.]+) to ([\d.]+)\)", out)
    assert line is not None, out
    mean, low, high = (float(v) for v in line.groups()[:3])
    assert 80 <= low <= mean <= high <= 100  # (27 dice, most read right either way)
    assert main([str(tmp_path), "--jitter", "2"]) == 0 and capsys.readouterr().out.splitlines()[-1] == out.splitlines()[-1]
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--jitter", "-1"])
    assert "--jitter -1: 0 to 20 draws" in capsys.readouterr().err
