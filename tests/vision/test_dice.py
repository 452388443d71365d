"""The dice reader on synthetic pictures and on real fixture photos."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.dice_accuracy import drawn_labels, in_frame, match, read_in_frame
from tests.support import printed_tray, table_coloured_dice
from vision.dice import (
    AUTO, CONFIDENCE_THRESHOLD, DEFAULT, STEADY, ChoosingReader, DiceReader, Face, Look, Params, better_scale, big_dice, changed_parts, die_size, first_scale, look_at, outline_size, read_dice,
    Regions, table_model, touching_again, touching_groups,
)
from vision.dice_model import network_path
from vision.synth import TOUCHING_COLOURS, draw_die, render_dice, render_touching
from vision.types import DieReading

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dice"


def values(readings: list[DieReading]) -> list[int | None]:
    return sorted((r.value for r in readings), key=lambda v: (v is None, v))


def rounded(readings: list[DieReading]) -> list[tuple[object, ...]]:
    """Readings to compare across the whole picture and its parts read alone (a face found in a part
    is moved back by whole pixels: its centre agrees to far below a pixel, not to the last bit)."""
    return [(r.value, r.box, round(r.center[0], 6), round(r.center[1], 6), round(r.confidence, 6)) for r in readings]


@pytest.mark.parametrize("n", [1, 3, 6, 10])
def test_reads_synthetic_table(n: int) -> None:
    vals = [1 + (i * 5) % 6 for i in range(n)]
    img, truth = render_dice(vals, seed=n)
    got = read_dice(img)
    assert values(got) == sorted(vals)
    for v, (x, y) in truth:
        assert any(r.value == v and np.hypot(r.center[0] - x, r.center[1] - y) < 20 for r in got)


@pytest.mark.parametrize("angle", [0, 17, 33, 45, 71])
@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_any_rotation_light_pips_on_dark_die(value: int, angle: float) -> None:
    img = np.full((240, 320, 3), (200, 200, 205), np.uint8)
    draw_die(img, value, (160, 120), 70, angle, body=(30, 30, 170), pip=(245, 245, 245))
    got = read_dice(img)
    assert [r.value for r in got] == [value]
    assert got[0].confidence >= CONFIDENCE_THRESHOLD


@pytest.mark.parametrize("size", [36, 60, 110])
def test_several_sizes(size: int) -> None:
    img, _ = render_dice([4, 5, 6], die=size, seed=size, size=(960, 540))
    assert values(read_dice(img)) == [4, 5, 6]


def test_touching_dice_are_two_dice() -> None:
    img = np.full((200, 300, 3), (60, 120, 60), np.uint8)
    draw_die(img, 6, (110, 100), 70)
    draw_die(img, 3, (182, 100), 70)
    assert values(read_dice(img)) == [3, 6]


def test_no_face_spreads_wider_than_its_pips_allow() -> None:
    """A four and two fives side by side (drawn as points): their 14 pips lie on a grid, and without
    a bound the best face is a six whose pips span all three dice. A face's pips lie at most
    ``max_face_spread`` pip lengths from its centre (a die's corner pip lies about two away)."""
    from math import pi

    from vision.dice import Pip, best_face
    from vision.synth import PIP_RADIUS, face_geometry

    die, diam = 40.0, 2 * PIP_RADIUS * 40.0
    pips = [Pip(float(x), float(y), area=pi * diam * diam / 4, strength=30.0) for i, v in enumerate([4, 5, 5]) for x, y in face_geometry(v, (100 + i * die, 100), die)[1]]
    spread = lambda face: max(np.hypot(p.x - np.mean([q.x for q in face]), p.y - np.mean([q.y for q in face])) for p in face)  # noqa: E731
    unbounded, _ = best_face(pips, diam, replace(DEFAULT, max_face_spread=1e9))
    assert len(unbounded) == 6 and max(p.x for p in unbounded) - min(p.x for p in unbounded) > 1.5 * die  # (from the first die to the third)
    face, rest = best_face(pips, diam)
    assert len(face) + len(rest) == 14 and spread(face) <= DEFAULT.max_face_spread * diam < spread(unbounded)


def test_three_touching_dice_with_no_seam_between_them_are_read() -> None:
    """Three white dice side by side with no groove between them (render_touching, seam 0): their pips
    link into one group, and without the bound on a face's spread (nor the cut of a row into
    squares, which reads them too) a five stretched over all three set the picture's die size, so
    that no crop showed a die and none was read."""
    img, truth = render_touching([5, 3, 1], die=58.0, angle=64.0, seam=0.0, seed=21)
    assert [r.value for r in sorted(read_dice(img), key=lambda r: r.center[0])] == [v for v, _ in truth] == [5, 3, 1]
    assert read_dice(img, replace(AUTO, max_face_spread=1e9, region_row=1)) == []
    assert [r.value for r in sorted(read_dice(img, replace(AUTO, region_row=1)), key=lambda r: r.center[0])] == [5, 3, 1]


def test_the_seam_between_touching_dice_parts_their_pips() -> None:
    """A five and a three side by side with a groove 4 px wide between them: the path between their
    nearest pips is short, and the groove fills most of it, so the path's median colour is the
    groove's and the path test alone saw no edge. The five's right pips and the three's then made
    one six. Measured against the face round each pip, the groove is an edge (as is, here, the
    line between two squares of the row the pair makes)."""
    img, _ = render_touching([5, 3], die=53.0, seam=4.0, seed=42)
    assert [r.value for r in sorted(read_dice(img), key=lambda r: r.center[0])] == [5, 3]
    assert [r.value for r in sorted(read_dice(img, replace(AUTO, region_row=1)), key=lambda r: r.center[0])] == [5, 3]
    assert [r.value for r in read_dice(img, replace(AUTO, seam_colour=1e9, region_row=1))] == [6]


def by_truth(readings: list[DieReading], truth: list[tuple[int, tuple[float, float]]], die: float) -> list[int | None]:
    """The value read of each drawn die (None: unsure, or no reading matched to it as the benches match them)."""
    return [None if j is None else readings[j].value for j in match(drawn_labels(truth, die), readings)]


def test_touching_dice_in_doubt_are_read_again_twice_as_large() -> None:
    """Four black dice at turns of their own, touching (render_touching, scattered), 70 px wide: in the
    copy half as large that a 1280 x 720 frame is read at, the pips of two of them run into their
    neighbours' and neither is read, though their pips are found. The group is in doubt, so it is read
    again from the frame itself, cut round it, and all four are read; without that, two are lost."""
    img, truth = render_touching([2, 2, 2, 4], die=69.6, layout="scattered", colours=TOUCHING_COLOURS[2], seed=8)
    look = look_at(img)
    assert look.scale == 0.5 and len(look.again) == 1
    x0, y0, x1, y1 = look.again[0]
    assert all(x0 < x < x1 and y0 < y < y1 for _, (x, y) in truth)
    assert by_truth(look.readings, truth, 69.6) == [v for v, _ in truth] and len(look.readings) == 4
    first = read_dice(img, replace(AUTO, touching_scale=1.0))
    assert by_truth(first, truth, 69.6).count(None) == 2


def test_a_group_of_touching_dice_is_read_again_only_when_in_doubt() -> None:
    """touching_groups: dice read closer than 1.5 die sizes touch; their group is read again when a die of it
    was read unsure, or a candidate seen squarely lies off every die read (a die the look missed), not
    when a side face's pips (less round) do, nor when no two dice read touch; a die read more than 1.8
    die sizes wide is read again on its own, unless it is a lone pip read as a one."""

    def face(x: float, y: float, confidence: float = 0.95, roundness: float = 1.0) -> Face:
        return Face(x, y, 40.0, 3, confidence, roundness, (x - 20, y - 20, x + 20, y + 20), 3)

    a, b, far = face(100, 100), face(140, 100), face(400, 100)
    missed = face(120, 140)  # (45 px from each: over 0.75 of a die)
    assert touching_groups([a, b, far], [a, b, far]) == []
    assert touching_groups([a, b, far], [a, b, far, missed]) == [(40, 40, 200, 200)]  # (the centres, 1.5 die sizes round)
    assert touching_groups([a, b, far], [a, b, far, replace(missed, roundness=0.6)]) == []
    unsure = replace(b, confidence=0.3)
    assert touching_groups([a, unsure, far], [a, b, far]) == [(40, 40, 200, 160)]
    assert touching_groups([a, replace(far, confidence=0.3)], [a, far]) == []  # (the unsure die touches none)
    assert touching_groups([a, far], [a, far, missed]) == []  # (one die read beside the candidate: no two dice touch)
    wide = replace(far, size=80.0)  # (twice the die size the clear faces give: the pips of several dice)
    assert touching_groups([a, wide], [a, b, wide]) == [(340, 40, 460, 160)]
    assert touching_groups([a, replace(far, size=70.0)], [a, b, far]) == []
    assert touching_groups([a, replace(wide, pips=1, value=1)], [a, b, wide]) == []  # (a big lone pip read as a one: a big pip, a token)
    assert touching_groups([a, replace(wide, pips=1, value=6)], [a, b, wide]) != []  # (a lone blob read as a six: a six's pips run together)


def test_a_second_look_is_kept_only_where_it_reads_more_dice_surely() -> None:
    """touching_again: a row of three dice read surely at half size and again in full, reading the same
    three, keeps the first look's readings; where the first look read one of them, the second look's
    three are kept, in the picture's pixels; where it read none, three dice more than the first look
    saw are what a cut of clutter read larger gives (``touching_new``), and are not kept unless read
    clearly (``touching_clear``)."""
    img, truth = render_touching([5, 3, 1], die=58.0, seam=4.0, seed=42)
    readings = read_dice(img)
    assert by_truth(readings, truth, 58.0) == [5, 3, 1]
    xs, ys = [x for _, (x, _) in truth], [y for _, (_, y) in truth]
    group = (int(min(xs) / 2 - 45), int(min(ys) / 2 - 45), int(max(xs) / 2 + 45), int(max(ys) / 2 + 45))  # (working pixels at 0.5)
    assert touching_again(img, 0.5, readings, [group]) == (readings, [])
    out, kept = touching_again(img, 0.5, readings[:1], [group])
    assert by_truth(out, truth, 58.0) == [5, 3, 1] and len(out) == 3 and kept == [tuple(2 * v for v in group)]
    unclear = replace(AUTO, touching_clear=1.01)
    assert touching_again(img, 0.5, [], [group], unclear) == ([], [])
    out, _ = touching_again(img, 0.5, [], [group], replace(unclear, touching_new=3))
    assert by_truth(out, truth, 58.0) == [5, 3, 1]
    out, _ = touching_again(img, 0.5, [], [group], replace(AUTO, touching_clear=0.5))
    assert by_truth(out, truth, 58.0) == [5, 3, 1]


def test_dice_side_by_side_in_a_row_are_cut_into_one_square_each() -> None:
    """die_regions: a blob as long as a whole number of its widths, filling its box, is that many dice
    in a row, one square outline each (in_row); a lone die stays one outline of its own."""
    from vision.dice import die_regions, table_background, working_copy

    img, truth = render_touching([6, 6, 6, 6], die=56.0, seam=0.0, colours=TOUCHING_COLOURS[2])
    draw_die(img, 3, (200.0, 150.0), 56.0, 20.0)
    work, scale = working_copy(img)
    regions = die_regions(work, table_background(work))
    assert sorted(regions.in_row.tolist()) == [False] * 2 + [True] * 4  # (no outline, the lone die, four squares)
    rows = [label for label in range(1, 6) if regions.in_row[label]]
    assert [round(float(regions.sizes[label])) for label in rows] == [28] * 4  # (56 px dice at a working scale of a half)
    at = [int(regions.labels[round(y * scale), round(x * scale)]) for _, (x, y) in truth]
    assert sorted(at) == rows  # (each die in a square of its own)
    lone = int(regions.labels[round(150 * scale), round(200 * scale)])
    assert lone and not regions.in_row[lone]


def test_a_row_of_black_dice_with_no_groove_is_read_die_by_die() -> None:
    """Four black sixes side by side, no groove between them: their 24 pips make an even grid. Pips in
    two squares of the row never link, so each die's pips make its own six; without the cut
    (region_row 1) one die of the four is lost."""
    img, _ = render_touching([6, 6, 6, 6], die=56.0, seam=0.0, colours=TOUCHING_COLOURS[2])
    assert [r.value for r in read_dice(img)] == [6, 6, 6, 6]
    assert [r.value for r in read_dice(img, replace(AUTO, region_row=1))] == [6, 6, 6]


def test_two_dice_in_two_squares_of_a_row_are_two_dice_however_close(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two threes side by side lie a die apart, within the reach one candidate of a die claims round
    it (0.85 of its size, its own size up to twice the picture's when it agrees): the second three
    was taken for the first's. In two squares of a row (die_regions) they are two dice."""
    from vision.dice import _Dice

    img, _ = render_touching([3, 3], die=50.0, seam=0.0)
    assert [r.value for r in read_dice(img)] == [3, 3]
    real = _Dice.__init__

    def without_squares(self: _Dice, *args: object) -> None:
        real(self, *args)  # type: ignore[arg-type]
        self.squares = frozenset()

    monkeypatch.setattr(_Dice, "__init__", without_squares)
    assert [r.value for r in read_dice(img)] == [3]


def test_a_one_in_a_row_is_read_from_a_crop_of_its_own_die() -> None:
    """A one between two fours, and a one beside a two: the usual crop, 1.5 die sizes wide, takes in
    the nearest pips of its neighbours and the one is read unsure, or as a two; a lone pip in a
    square of a row is read from a crop one die wide (row_one_crop)."""
    img, _ = render_touching([4, 1, 4], die=50.0, seam=0.0)
    assert [r.value for r in read_dice(img)] == [4, 1, 4]
    assert [r.value for r in read_dice(img, replace(AUTO, row_one_crop=1.5))] == [4, None, 4]
    img, _ = render_touching([1, 2, 3], die=50.0, seam=0.0, colours=TOUCHING_COLOURS[2])
    assert [r.value for r in sorted(read_dice(img), key=lambda r: r.center[0])] == [1, 2, 3]
    assert [r.value for r in sorted(read_dice(img, replace(AUTO, row_one_crop=1.5)), key=lambda r: r.center[0])] == [2, 2, 3]


def test_the_face_round_groups_of_one_size_is_the_same_without_padding() -> None:
    """_ring_colours sorts groups all of one size (the lone pips _edges_along asks about) in one block
    instead of padded rows: the same medians as among groups of other sizes."""
    from vision.dice import Pip, _ring_colours

    rng = np.random.default_rng(2)
    smooth = rng.integers(0, 256, (120, 160, 3)).astype(np.uint8)
    pips = [Pip(float(rng.uniform(10, 150)), float(rng.uniform(10, 110)), 30.0, 30.0) for _ in range(5)]
    alone = _ring_colours([[p] for p in pips[:3]], smooth)
    mixed = _ring_colours([[p] for p in pips[:3]] + [pips[3:]], smooth)
    assert alone.dtype == np.float32 and np.array_equal(alone, mixed[:3])
    pairs = _ring_colours([pips[:2], pips[2:4]], smooth)
    assert np.array_equal(pairs, _ring_colours([pips[:2], pips[2:4], pips[4:]], smooth)[:2])


def test_a_seam_is_an_edge_on_a_short_path_only() -> None:
    """_edges_along told the pips: a groove across a short path is an edge even where it takes in the
    path's median; a long path keeps the median test alone (the face of a marbled or translucent die
    can differ along it from the face round its pips)."""
    from vision.dice import Pip, _edges_along, _path_ends

    smooth = np.full((60, 200, 3), 230, np.uint8)
    groove = 230 - 40 * np.clip(1 - np.abs(np.arange(96, 105) - 100) / 4, 0, 1)
    smooth[:30, 96:105] = groove.astype(np.uint8)[None, :, None]  # (blurred, across the short path)
    smooth[43:48, 44:167] = 190  # (a darker band all along the long path, not round its pips)
    pips = [Pip(x, y, area=28.3, strength=30.0) for x, y in ((91.0, 15.0), (109.0, 15.0), (40.0, 45.0), (170.0, 45.0))]
    ends = _path_ends(np.array([[p.x, p.y] for p in pips]), np.array([p.diameter for p in pips]))
    ia, ib = np.array([0, 2]), np.array([1, 3])
    assert _edges_along(ends[ia], ends[ib], smooth, DEFAULT).tolist() == [False, False]  # (each path's median is like its samples)
    assert _edges_along(ends[ia], ends[ib], smooth, DEFAULT, pips=(pips, ia, ib)).tolist() == [True, False]
    assert _edges_along(ends[ia], ends[ib], smooth, replace(DEFAULT, seam_path=50.0), pips=(pips, ia, ib)).tolist() == [True, True]


def test_empty_and_plain_pictures_have_no_dice() -> None:
    assert read_dice(np.zeros((480, 640, 3), np.uint8)) == []
    rng = np.random.default_rng(0)
    noise = np.clip(rng.normal(128, 4, (480, 640, 3)), 0, 255).astype(np.uint8)
    assert read_dice(noise) == []


def test_unsure_readings_have_no_value() -> None:
    # a cluster of many pips is no face: reported, but unsure
    img = np.full((240, 320, 3), (60, 120, 60), np.uint8)
    cv2.rectangle(img, (100, 60), (220, 180), (235, 235, 235), -1)
    for x in range(115, 215, 16):
        for y in range(75, 175, 16):
            cv2.circle(img, (x, y), 5, (20, 20, 20), -1)
    for r in read_dice(img):
        assert (r.value is None) == (r.confidence < CONFIDENCE_THRESHOLD)
        assert r.value is None or r.confidence >= CONFIDENCE_THRESHOLD


def test_rejects_non_bgr() -> None:
    with pytest.raises(ValueError, match="BGR"):
        read_dice(np.zeros((10, 10), np.uint8))


@pytest.mark.parametrize("scale", [0.0, -1.0, float("nan"), float("inf")])
def test_a_bad_working_scale_is_refused_naming_it(scale: float) -> None:
    with pytest.raises(ValueError, match="working scale"):
        read_dice(np.zeros((100, 100, 3), np.uint8), scale=scale)


def test_a_picture_is_made_smaller_by_the_mean_of_the_pixels_each_new_one_covers() -> None:
    """shrunk: OpenCV's area resize by a whole number of pixels (or by more than 3); by any other
    share a Gaussian blur and sampling that stay within a grey level of it on a photo."""
    from vision.dice import shrunk

    photo, _, _, _ = in_frame(cv2.imread(str(FIXTURES / "byler-IMG_20191208_111833.jpg")), (1280, 720))
    for size in [(640, 360), (320, 180), (300, 169)]:  # (a half, a quarter, and by more than 3)
        assert np.array_equal(shrunk(photo, size), cv2.resize(photo, size, interpolation=cv2.INTER_AREA))
    for size in [(1216, 684), (1024, 576), (768, 432), (480, 270)]:  # (scales 0.95, 0.8, 0.6, 0.375)
        area = cv2.resize(photo, size, interpolation=cv2.INTER_AREA).astype(int)
        off = np.abs(shrunk(photo, size).astype(int) - area)
        assert off.mean() < 0.2 and np.percentile(off, 99) <= 1, size
    plain = np.full((90, 160, 3), (30, 140, 220), np.uint8)
    assert (shrunk(plain, (100, 56)) == plain[0, 0]).all()  # (a plain picture stays its colour to the edges)


def test_a_blur_too_slight_to_change_a_pixel_is_left_out_and_changes_nothing() -> None:
    """shrunk skips the blur below _IDENTITY_SIGMA (scales above 0.72) because OpenCV's blur leaves
    bytes as they are there: the same pixels as blurred, on noise (the finest pattern there is)."""
    from vision.dice import _IDENTITY_SIGMA, shrunk

    noise = np.random.default_rng(3).integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    for size in [(1216, 684), (1024, 576), (960, 540), (930, 523)]:  # (scales 0.95, 0.8, 0.75, 0.727)
        sigma_x, sigma_y = (np.sqrt(((n / m) ** 2 - 1) / 12) for n, m in zip(noise.shape[1::-1], size))
        assert max(sigma_x, sigma_y) < _IDENTITY_SIGMA
        blurred = cv2.GaussianBlur(noise, (0, 0), sigma_x, sigmaY=sigma_y)
        assert np.array_equal(blurred, noise), size
        assert np.array_equal(shrunk(noise, size), cv2.resize(blurred, size, interpolation=cv2.INTER_LINEAR)), size
    # (just above it the blur changes pixels, and is made)
    sigma = np.sqrt(((1280 / 880) ** 2 - 1) / 12)
    assert sigma > _IDENTITY_SIGMA and not np.array_equal(cv2.GaussianBlur(noise, (0, 0), sigma), noise)


def test_json_shape() -> None:
    img, _ = render_dice([2], seed=5)
    (r,) = read_dice(img)
    d = r.to_dict()
    assert set(d) == {"value", "center", "confidence", "box"}
    assert d["value"] == 2 and len(d["center"]) == 2 and len(d["box"]) == 4


def _score(labels: list[dict], readings: list[DieReading]) -> tuple[int, int, int]:
    """(found, right, extra confident readings) of one photo's readings against its labels."""
    used: set[int] = set()
    found = right = 0
    for lab in labels:
        x0, y0, x1, y1 = lab["box"]
        for j, r in enumerate(readings):
            if j not in used and x0 <= r.center[0] <= x1 and y0 <= r.center[1] <= y1:
                used.add(j)
                found += 1
                right += r.value == lab["value"]
                break
    extra = sum(1 for j, r in enumerate(readings) if j not in used and r.value is not None)
    return found, right, extra


def _photo(path: Path) -> np.ndarray:
    img = cv2.imread(str(path))
    assert img is not None, path
    return img


def test_ten_real_dice_close_together_read_again_larger() -> None:
    """A real photo of ten dice, most touching a neighbour (tests/fixtures/dice-crowded), in a 1280 x 720
    frame read alone: the first look, half as large, takes the pips of the ten for two big faces and
    reads no die right. Kept at that scale, a second look at the group they make, from the frame
    itself, reads all ten clearly: more dice than touching_new allows a cut of clutter to add, kept
    since it reads them at a mean confidence of touching_clear and more. As shipped, the outlines of
    the lone dice among them show that they are small (better_scale), and the whole frame is read
    again larger: all ten right too."""
    folder = FIXTURES.parent / "dice-crowded"
    (name, labels), = json.loads((folder / "labels.json").read_text()).items()
    photo = _photo(folder / name)
    looks: list[Look] = []
    half = replace(AUTO, min_work_die=0.0)  # (never read again larger as a whole)

    def read(frame: np.ndarray) -> list[DieReading]:
        looks.append(look_at(frame, half))
        return looks[-1].readings

    readings = read_in_frame(photo, (1280, 720), read)
    assert looks[0].scale == 0.5 and len(looks[0].again) == 1
    assert _score(labels, readings) == (10, 10, 0)
    first = read_in_frame(photo, (1280, 720), lambda frame: read_dice(frame, replace(half, touching_clear=1.01)))
    assert len(first) == 2 and _score(labels, first)[1] == 0
    shipped = read_in_frame(photo, (1280, 720), lambda frame: look_at(frame).readings)
    assert _score(labels, shipped) == (10, 10, 0)
    assert 0.5 < look_at(in_frame(photo, (1280, 720))[0]).scale < 1.0


@pytest.mark.parametrize("prefix", ["byler", "matteo"])
def test_real_photos(prefix: str) -> None:
    """Floors measured on the fixtures (see bench/dice_accuracy.py for the full sets)."""
    labels = json.loads((FIXTURES / "labels.json").read_text())
    total = found = right = extra = 0
    for name, labs in labels.items():
        if name.startswith(prefix):
            f, r, e = _score(labs, read_dice(_photo(FIXTURES / name)))
            total += len(labs)
            found, right, extra = found + f, right + r, extra + e
    assert total > 0
    floors = FLOORS[prefix]
    assert found / total >= floors["recall"], (found, total)
    assert right / total >= floors["accuracy"], (right, total)
    assert extra <= floors["extra"], extra


def test_clear_casino_dice_with_the_clear_network() -> None:
    """37 photos of translucent casino dice (tests/fixtures/dice-clear, part b: never trained on).
    When it shipped the clear network read 37 found, 36 right, 2 extra; the standard one 35, 25, 0.
    Since the box filters of the pip evidence (61675b9): 37, 34, 3 and 35, 22, 1."""
    folder = FIXTURES.parent / "dice-clear"
    labels = json.loads((folder / "labels.json").read_text())
    params = Params(network=network_path("clear"))
    found = right = extra = 0
    for name, labs in labels.items():
        f, r, e = _score(labs, read_dice(_photo(folder / name), params))
        found, right, extra = found + f, right + r, extra + e
    assert len(labels) == 37
    assert found >= 36 and right >= 34 and extra <= 3, (found, right, extra)


def test_a_picture_is_read_by_the_network_that_reads_its_dice_surer() -> None:
    """read_dice by default (AUTO): the candidates are read by the standard and the clear network, and
    the clear network's dice are kept when they are surer by more than 0.1 (Look.network says whose).
    The casino fixtures, when this was built: standard 35 found, 22 right, 1 extra; auto 35, 31, 3
    (24 of 37 pictures by the clear network). The opaque fixtures: one picture by the clear
    network, matteo's dice_23, where the standard network reads a speck as a die; the rest as the
    standard network reads them."""
    casino = FIXTURES.parent / "dice-clear"
    tally = {"standard": [0, 0, 0], "auto": [0, 0, 0]}
    by_clear = 0
    for name, labs in json.loads((casino / "labels.json").read_text()).items():
        image = _photo(casino / name)
        look = look_at(image)
        by_clear += look.network == network_path("clear")
        for kind, readings in (("standard", read_dice(image, DEFAULT)), ("auto", look.readings)):
            tally[kind] = [a + b for a, b in zip(tally[kind], _score(labs, readings))]
    assert tally["auto"][1] >= 30 and tally["auto"][1] >= tally["standard"][1] + 7 and tally["auto"][2] <= 4, tally
    assert by_clear >= 20
    for name, labs in json.loads((FIXTURES / "labels.json").read_text()).items():
        image = _photo(FIXTURES / name)
        look, standard = look_at(image), look_at(image, DEFAULT)
        if look.network is None:
            assert look.readings == standard.readings, name
        else:
            found, right, extra = _score(labs, look.readings)
            was = _score(labs, standard.readings)
            assert found >= was[0] and right >= was[1] and extra <= was[2], (name, was, (found, right, extra))
    assert read_dice(np.zeros((100, 100, 3), np.uint8)) == []


def test_a_picture_read_surely_by_the_standard_network_is_not_read_by_the_other(monkeypatch) -> None:
    """The other network's dice are kept only when surer by more than other_margin (0.1): dice read at a
    mean confidence of 0.9 and more cannot be beaten, so the other network does not read them."""
    import vision.dice

    networks: list[object] = []
    real = vision.dice.learned_faces
    monkeypatch.setattr(vision.dice, "learned_faces", lambda work, faces, params=DEFAULT, regions=None: networks.append(params.network) or real(work, faces, params, regions))
    img, _ = render_dice([1, 3, 5, 6], seed=2)
    look = look_at(img)
    assert values(look.readings) == [1, 3, 5, 6] and min(r.confidence for r in look.readings) >= 0.9
    assert networks == [None] and look.network is None  # (the standard network alone)
    casino = FIXTURES.parent / "dice-clear"
    networks.clear()
    look = look_at(_photo(casino / sorted(json.loads((casino / "labels.json").read_text()))[0]))
    assert networks == [None, network_path("clear")]  # (an unsure reading: both networks read it)


def test_a_choosing_reader_reads_the_candidates_it_found_again_with_the_other_network(monkeypatch) -> None:
    """On the frames it compares, a ChoosingReader does not search the frame again, nor a copy of it half as
    large for big dice: the candidates the chosen network's look found are read by the other network
    (learned_faces), once a frame."""
    import vision.dice

    looks, faces_read, reads = [], [], []
    real_look, real_faces, real_read = vision.dice.look_at, vision.dice.read_faces, vision.dice.learned_faces
    monkeypatch.setattr(vision.dice, "look_at", lambda *a, **k: looks.append(1) or real_look(*a, **k))
    monkeypatch.setattr(vision.dice, "read_faces", lambda *a, **k: faces_read.append(a[-1].network) or real_faces(*a, **k))
    monkeypatch.setattr(vision.dice, "learned_faces", lambda *a, **k: reads.append(a[2].network) or real_read(*a, **k))
    reader = ChoosingReader()
    frames = [_photo(FIXTURES / name) for name in sorted(json.loads((FIXTURES / "labels.json").read_text()))]
    for frame in frames:
        reader(frame)
    assert len(looks) == len(frames) and len(reader.surer) == len(frames)  # (every frame compared: fewer than at_least)
    # read_faces (which searches a half-size copy when a reading is unsure) only in the chosen network's looks
    assert faces_read == [None] * len(frames)
    assert reads.count(network_path("clear")) == len(frames)


def test_a_choosing_reader_takes_the_clear_network_for_translucent_dice_and_keeps_the_standard_one_for_opaque_dice() -> None:
    """camera.dice_network auto: the casino dice's frames are read surer by the clear network
    (it switches at the 10th of the 37, once it has compared enough frames), the opaque
    dice's by neither (the standard network stays)."""
    folder = FIXTURES.parent / "dice-clear"
    casino = ChoosingReader()
    chosen = []
    for name in sorted(json.loads((folder / "labels.json").read_text())):
        casino(_photo(folder / name))
        chosen.append(casino.chosen)
    assert chosen[: casino.at_least - 1] == ["standard"] * (casino.at_least - 1) and chosen[-10:] == ["clear"] * 10
    opaque = ChoosingReader()
    frames = [_photo(FIXTURES / name) for name in sorted(json.loads((FIXTURES / "labels.json").read_text()))] * 3
    for frame in frames:
        opaque(frame)
    assert opaque.chosen == "standard"
    # the first frames are all compared, then every tenth
    assert opaque.at_least <= len(opaque.surer) <= opaque.at_least + len(frames) // opaque.compare_every
    with pytest.raises(ValueError, match="memory at least at_least"):
        ChoosingReader(at_least=9, memory=5)
    with pytest.raises(ValueError, match="params.learned False: a ChoosingReader chooses between networks"):
        ChoosingReader(replace(DEFAULT, learned=False))


# Regression floors, a little under what the reader does on these eight photos
# today (byler, measured at 2c21f0f: 27/27 found, 26/27 right, 1 extra, a speck read as a
# one; matteo, when the floors were set: 16/17, 16/17, 1).
# They are below the targets (99 %), which the reader does not reach yet.
FLOORS = {
    "byler": {"recall": 0.95, "accuracy": 0.7, "extra": 2},
    "matteo": {"recall": 0.9, "accuracy": 0.9, "extra": 3},
}


def test_small_pips_inside_a_face_seen_as_one_light_blob() -> None:
    # small light dice on a grey tray: the whole face is a light blob at the coarse level, its pips
    # only come apart at a finer one; they must not be taken for that blob seen again
    img = np.full((240, 320, 3), (160, 160, 158), np.uint8)
    draw_die(img, 6, (110, 120), 20, 12.0, body=(235, 235, 235), pip=(25, 25, 25))
    draw_die(img, 4, (210, 120), 20, 30.0, body=(235, 235, 235), pip=(25, 25, 25))
    assert values(read_dice(img)) == [4, 6]


def test_big_die_the_colour_of_the_table() -> None:
    # a white die filling much of the picture on pale wood: the wide-median table model takes the
    # die's own colour there, so the table is looked for just outside the die
    img = np.full((480, 640, 3), (188, 190, 186), np.uint8)
    draw_die(img, 1, (300, 260), 120, 8.0, body=(214, 211, 204), pip=(30, 30, 30))
    img = np.clip(img + np.random.default_rng(1).normal(0, 2, img.shape), 0, 255).astype(np.uint8)
    assert values(read_dice(img)) == [1]


@pytest.mark.parametrize("value", [4, 5, 6])
def test_a_white_die_on_a_white_tray_is_read_by_its_square_pattern(value: int) -> None:
    # the face hardly differs from the table, which alone would make its pips a printed pattern;
    # four or more pips in a die's square pattern are a die all the same (a byler tray photo)
    img, truth = render_dice([value, value], table=(235, 235, 235), seed=value)
    assert values(read_dice(img)) == [value, value]
    assert values(read_dice(img, replace(DEFAULT, contrast_pips=7))) == []  # the contrast test alone refuses them


def test_two_dots_on_a_plain_table_still_need_a_die_round_them() -> None:
    img, _ = render_dice([2, 2], table=(235, 235, 235), seed=2)
    assert read_dice(img) == []


def test_a_candidate_with_an_outsized_die_size_does_not_swallow_its_neighbours() -> None:
    # a lone big blob taken for a pip gets a die size of six pip sizes; the dice round it must stay
    from dataclasses import replace

    from vision.dice import candidate_faces, learned_faces

    img = np.full((200, 400, 3), (60, 120, 60), np.uint8)
    for value, x in ((2, 120), (4, 180), (6, 240)):
        draw_die(img, value, (x, 100), 40, 0.0)
    faces = candidate_faces(img)
    middle = min(range(len(faces)), key=lambda i: abs(faces[i].x - 180) + abs(faces[i].y - 100))
    # (a lone blob: one pip, so it is no clear face that agrees with the network, whose own size would count)
    faces[middle] = replace(faces[middle], size=200.0, pips=1)
    kept = learned_faces(img, faces)
    assert sorted((round(f.x / 60), f.value) for f in kept) == [(2, 2), (3, 4), (4, 6)]


def test_two_candidates_in_the_outline_of_one_lone_die_are_one_die() -> None:
    # a top face and a tall side face can lie further apart than `same_die`; when both are in
    # the outline of one lone die (die_regions) only the surer one is kept
    from dataclasses import replace

    from vision.dice import Regions, candidate_faces, learned_faces

    img = np.full((240, 320, 3), (150, 150, 148), np.uint8)
    draw_die(img, 5, (160, 100), 40, 0.0, body=(40, 40, 190), pip=(240, 240, 240))
    (face,) = candidate_faces(img)
    draw_die(img, 5, (198, 100), 40, 0.0, body=(40, 40, 190), pip=(240, 240, 240))
    other = replace(face, x=face.x + 38)
    outline = np.zeros(img.shape[:2], np.int32)
    assert len(learned_faces(img, [face, other], regions=Regions(outline, np.array([0.0]), np.array([False])))) == 2
    outline[80:120, 140:220] = 1
    assert len(learned_faces(img, [face, other], regions=Regions(outline, np.array([0.0, 75.0]), np.array([False, False])))) == 1


@pytest.mark.parametrize("light_lines", [False, True])
def test_pip_blobs_searched_band_by_band_are_those_of_the_whole_picture(light_lines: bool) -> None:
    # the pip search skips empty bands of rows; it must find the blobs, in the order, that one
    # search of the whole picture finds (dice far apart, so there are several bands; bands that
    # start on an odd row were once labelled in another order)
    from vision.dice import DEFAULT, _blobs, _blobs_in, pip_evidence, working_copy

    img, _ = render_dice([1, 3, 5, 6, 2, 4], seed=3)
    img[::97, :] = 0  # dark lines: more bands, components at their edges
    if light_lines:
        img[40::83, :] = 255
    work, _ = working_copy(img)
    evidence = pip_evidence(work)
    found = 0
    for ch, threshold in enumerate((DEFAULT.pip_threshold, DEFAULT.chroma_threshold, DEFAULT.chroma_threshold)):
        for sign in (-1.0, 1.0):
            values = np.ascontiguousarray(sign * evidence[ch])
            levels = [threshold * f for f in DEFAULT.levels]
            peak = DEFAULT.min_peak * threshold / DEFAULT.pip_threshold
            banded = _blobs(values, levels, DEFAULT, peak)
            whole = _blobs_in(values, levels, DEFAULT, peak)
            # (a band's corner is added to the coordinates in another order: equal but for the last digit)
            assert np.array(banded).reshape(-1, 7) == pytest.approx(np.array(whole).reshape(-1, 7), rel=1e-12, abs=1e-12)
            found += len(banded)
    assert found >= 21  # the pips of the six dice at least



_TOP_SIX = Face(100.0, 100.0, 30.0, 6, 0.9, 0.92, (85.0, 85.0, 115.0, 115.0), 6)
_LONE_ONE = Face(100.0, 100.0, 30.0, 1, 0.965, 0.99, (85.0, 85.0, 115.0, 115.0), 1)


@pytest.mark.parametrize(
    "die, agreed, strays, size, not_the_die",
    [
        # crops round two stray pips of one die (a corner, a side face's pip) on either side of its
        # top face read the die surely too, and lie further apart than `same_die`; the top face
        # between them, a clear face whose six pips the network reads as a six, is the die; without
        # a clear face that agrees, the surest stray pips stand (both, too far apart for one die)
        (_TOP_SIX, True, [(86.0, 100.0, 0.5, 0.99), (114.0, 100.0, 0.5, 0.99)], 30.0, [(_TOP_SIX, False)]),
        # a die showing a one (byler IMG_20191208_112714): crops round two of its dark corners,
        # diagonally across it, read it as a one a little more surely (0.974, 0.867) than the crop
        # round its round pip (0.965); the pip between them is the die; a pip seen askew, or a one
        # read unsurely (a pip of a two read as a one at 0.59), is no such face
        (_LONE_ONE, False, [(88.0, 88.0, 0.44, 0.974), (112.0, 113.0, 0.61, 0.867)], 24.0,
         [(replace(_LONE_ONE, roundness=0.6), False), (replace(_LONE_ONE, confidence=0.59), False)]),
    ],
)
def test_a_dies_own_face_is_the_die_before_surer_stray_crops(
    die: Face, agreed: bool, strays: list[tuple[float, float, float, float]], size: float, not_the_die: list[tuple[Face, bool]]
) -> None:
    from vision.dice import one_per_die

    stray = [replace(die, x=x, y=y, pips=1, roundness=r, confidence=c) for x, y, r, c in strays]
    cands = [(stray[0], stray[0].confidence, False), (die, die.confidence, agreed), (stray[1], stray[1].confidence, False)]
    assert [(f.x, f.y) for f in one_per_die(cands, size)] == [(die.x, die.y)]
    for odd, odd_agreed in not_the_die:
        cands[1] = (odd, odd.confidence, odd_agreed)
        assert sorted((f.x, f.y) for f in one_per_die(cands, size)) == [(s.x, s.y) for s in stray]


def test_a_face_agrees_with_the_network_when_its_round_pips_are_the_count_read() -> None:
    # a top face seen a little askew (pips 0.8 round) agrees; a side face (flat pips), a lone pip,
    # a loose pattern, another count or an unsure reading do not
    from dataclasses import replace

    from vision.dice import Face, agrees

    face = Face(100.0, 100.0, 30.0, 4, 0.95, 0.8, (85.0, 85.0, 115.0, 115.0), 4)
    assert agrees(face, 4, 0.9)
    assert not agrees(replace(face, roundness=0.5), 4, 0.9)
    assert not agrees(replace(face, confidence=0.7), 4, 0.9)
    assert not agrees(face, 5, 0.9)
    assert not agrees(face, 4, 0.4)
    assert not agrees(replace(face, pips=1, value=1), 1, 0.9)


def test_a_face_that_agrees_claims_its_own_size_however_big_the_die_is_in_the_picture() -> None:
    # a die near an oblique camera is twice the picture's die size (set by the far dice); its
    # side face, 1.5 picture die sizes below its top face, is that die, not a die of its own
    # (a face that agrees claims up to two picture die sizes)
    from dataclasses import replace

    from vision.dice import Face, one_per_die

    top = Face(100.0, 100.0, 60.0, 6, 0.95, 0.9, (70.0, 70.0, 130.0, 130.0), 6)
    side = replace(top, y=145.0, value=2, pips=2, roundness=0.45)
    far = replace(top, x=300.0, size=30.0)
    cands = [(top, 0.9, True), (side, 0.85, False), (far, 0.9, True)]
    assert [(f.x, f.y) for f in one_per_die(cands, 30.0)] == [(100.0, 100.0), (300.0, 100.0)]
    # a lone big blob (no face that agrees) still claims at most 1.5 picture die sizes
    cands[0] = (top, 0.9, False)
    assert len(one_per_die(cands, 30.0)) == 3


def test_face_colours_of_all_faces_at_once_are_those_of_each_face() -> None:
    # the learned reader reads the colour round every face's pips in one pass; it must be the
    # colour the classical reader reads face by face (groups of one to six pips, and more)
    import cv2 as _cv2

    from vision.dice import DEFAULT, _face_ring, _ring_colours, find_pips, link_pips, pip_evidence, working_copy

    img, _ = render_dice([1, 2, 3, 4, 5, 6, 6, 5], seed=5)
    work, _ = working_copy(img)
    smooth = _cv2.GaussianBlur(work, (0, 0), 1.0)
    groups = link_pips(find_pips(pip_evidence(work), work), work, DEFAULT, smooth)
    groups.append([p for g in groups for p in g][:9])  # a group bigger than a face
    assert {len(g) for g in groups} >= {1, 2, 3, 4, 5, 6}
    each = np.array([_face_ring(g, smooth)[1] for g in groups])
    assert np.array_equal(_ring_colours(groups, smooth), each)


def test_face_patterns_are_searched_in_mirror_image_only_when_that_differs() -> None:
    # the faces of a die are their own mirror images (a mirror search would find the same
    # rotations again); a pattern that is not is searched in its mirror image too
    from vision.dice import _FACES, _white_faces, pattern_error

    assert all(len(_white_faces(model)[0]) == 1 for model in _FACES.values())
    slanted = np.array([[0, 0], [2, 0], [3, 1], [0, 2]], float)
    assert len(_white_faces(slanted)[0]) == 2
    rng = np.random.default_rng(4)
    for n, model in _FACES.items():
        turn = rng.uniform(0, 2 * np.pi)
        rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        seen = model @ rot.T * [1.0, 0.6] * 9.0 + 50.0  # turned and seen at a slant
        assert pattern_error(seen, 3.0) < 1e-6
        assert pattern_error(seen * [-1.0, 1.0], 3.0) < 1e-6  # its mirror image fits as well


def test_the_pattern_errors_of_many_sets_at_once_are_each_sets_own() -> None:
    """_best_face scores every subset of a group's pips at once (_pattern_errors): for 2 to 6 points,
    face patterns seen askew and noisy, and random points, each error is pattern_error's; and the
    subsets come in the order of itertools.combinations, whose first best the search keeps."""
    from itertools import combinations

    from vision.dice import _FACES, _pattern_errors, _subsets, pattern_error

    rng = np.random.default_rng(7)
    for n in range(2, 7):
        model = _FACES.get(n, rng.normal(size=(n, 2)))
        sets = np.stack([(model if k % 2 else rng.normal(size=(n, 2))) @ rng.normal(size=(2, 2)) * 10 + rng.normal(size=(n, 2)) * rng.uniform(0, 2)
                         for k in range(40)])
        one_by_one = np.array([pattern_error(pts, 4.0) for pts in sets])
        assert np.allclose(_pattern_errors(sets, 4.0), one_by_one, rtol=0, atol=1e-12), n
        assert (one_by_one < 0.35).any() and (one_by_one >= 0.35).any()  # (sets that fit, and sets that do not)
    assert _subsets(5, 3).tolist() == [list(c) for c in combinations(range(5), 3)]


def test_small_dice_are_read_again_from_a_larger_copy() -> None:
    """Dice 24 pixels wide in a 1280 x 720 frame are 12 at the first working scale: one of five is
    lost there; read again from a copy where they are ``work_die`` wide, all five are right."""
    # (the table of seed 1: at seed 0 the first look sees no clear face, so nothing asks for a second)
    img, truth = render_dice([4, 5, 6, 2, 3], die=24, seed=1)
    once = replace(DEFAULT, min_work_die=0.0)  # (no second reading)
    assert len(read_dice(img, once)) == 4
    assert sorted(v or 0 for v in values(read_dice(img))) == [2, 3, 4, 5, 6]
    look = look_at(img)
    assert look.scale > first_scale(img.shape)
    assert DEFAULT.min_work_die <= die_size(look.faces)
    for (value, (x, y)), r in zip(sorted(truth, key=lambda t: (t[1][1], t[1][0])), look.readings):
        assert r.value == value and abs(r.center[0] - x) < 4 and abs(r.center[1] - y) < 4  # in the frame's pixels


@pytest.mark.parametrize("name", ["byler-IMG_20191208_111833.jpg", "byler-IMG_20191208_112116.jpg", "byler-IMG_20191208_112219.jpg"])
def test_the_crops_left_unread_would_change_no_reading(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """learned_faces reads the clear faces first and leaves unread the candidates that a face that agrees
    claims; its answer is one_per_die's of every candidate read, and it reads fewer crops."""
    from vision import dice_model
    from vision.dice import _at_the_one, die_regions, learned_faces, one_per_die, read_candidates, table_background

    photo = _photo(FIXTURES / name)
    look = look_at(photo)
    work, faces = look.work, look.faces
    regions = die_regions(work, table_background(work))
    size = die_size(faces)
    every = read_candidates(work, faces, list(range(len(faces))), size)
    reference = [_at_the_one(f) for f in one_per_die(list(every.values()), size, regions)]
    crops: list[int] = []
    classify = dice_model.classify

    def counted(work: np.ndarray, centres: np.ndarray, *args: object, **kwargs: object) -> np.ndarray:
        crops.append(len(centres))
        return classify(work, centres, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(dice_model, "classify", counted)
    got = learned_faces(work, faces, regions=regions)
    assert [(f.value, f.x, f.y, f.box) for f in got] == [(f.value, f.x, f.y, f.box) for f in reference]
    assert [f.confidence for f in got] == pytest.approx([f.confidence for f in reference], abs=1e-6)
    assert sum(crops) < len(faces) and len(got) >= 4


def test_an_unsure_crop_that_another_candidate_of_its_die_claims_is_not_turned() -> None:
    from vision.dice import _worth_turning

    def face(x: float, y: float, pips: int) -> Face:
        return Face(x, y, 30.0, None, 0.0, 0.5, (x - 15, y - 15, x + 15, y + 15), pips)

    # a die's top face; a stray blob of it; a lone pip far off; a speck far off; a speck on the die
    faces = [face(100, 100, 3), face(110, 105, 1), face(300, 300, 1), face(500, 100, 1), face(95, 95, 1)]
    sure_three = [0.01, 0.0, 0.0, 0.97, 0.01, 0.01, 0.0]
    unsure_die = [0.02, 0.3, 0.3, 0.2, 0.1, 0.05, 0.03]  # a die, its value unsure: kept unless claimed
    unsure_speck = [0.45, 0.1, 0.1, 0.1, 0.1, 0.1, 0.05]  # no die at the first look (below min_die)
    probs = np.array([sure_three, unsure_die, unsure_die, unsure_speck, unsure_speck], np.float32)
    unsure = np.array([1, 2, 3, 4])
    chosen = [0, 1, 2, 3, 4]
    turned = _worth_turning(faces, chosen, probs, unsure, {}, 30.0, None, DEFAULT)
    # the blob and the speck on the die are the three's, whatever their turns read; the lone pip is a die
    # of its own, and the speck far off may read as a die turned
    assert turned.tolist() == [2, 3]
    # the die's top face read before (the clear faces are read first) claims the same
    turned = _worth_turning(faces, chosen[1:], probs[1:], unsure - 1, {0: (replace(faces[0], value=3, confidence=0.97), 0.97, True)}, 30.0, None, DEFAULT)
    assert turned.tolist() == [1, 2]
    # a die read less surely (a three at 0.7) keeps nothing out: its stray blob, turned, might outread it
    probs[0] = [0.05, 0.05, 0.05, 0.7, 0.05, 0.05, 0.05]
    assert _worth_turning(faces, chosen, probs, unsure, {}, 30.0, None, DEFAULT).tolist() == [1, 2, 3, 4]


def test_a_one_seen_obliquely_is_read_at_its_pip() -> None:
    """Three white dice seen obliquely, each a one on top (tests/fixtures/dice-oblique), in a 1280 x 720
    frame read by a camera's reader: a one's pip and a side face's pip form one group, which the
    network reads as a one; the reading lies at the one's pip (the group's roundest), in its label box."""
    folder = FIXTURES.parent / "dice-oblique"
    name = "matteo-dice_21.jpg"
    labels = json.loads((folder / "labels.json").read_text())[name]
    photo = _photo(folder / name)
    assert photo.shape == (480, 640, 3)
    frame, s, left, top = in_frame(photo, (1280, 720))  # (enlarged 1.5 times, as bench/dice_accuracy.py --frame places it)
    reader = DiceReader()
    reader(frame)  # (the first frame finds the dice's size)
    look = reader.look(frame)
    back = [replace(r, center=((r.center[0] - left) / s, (r.center[1] - top) / s)) for r in look.readings]
    assert [r.value for r in back] == [1, 1, 1]
    for lab in labels:
        x0, y0, x1, y1 = lab["box"]
        assert sum(x0 <= r.center[0] <= x1 and y0 <= r.center[1] <= y1 for r in back) == 1, (lab, back)
    # one of them was read from a group of two pips: its centre is that group's roundest pip, not the group's middle
    at_a_pip = [
        (f.x, f.y, *f.roundest)
        for f in look.faces
        if f.pips == 2 and f.roundest is not None and any(np.hypot(f.roundest[0] / look.scale - r.center[0], f.roundest[1] / look.scale - r.center[1]) < 0.5 for r in look.readings)
    ]
    assert at_a_pip and all(np.hypot(x - px, y - py) > 5 for x, y, px, py in at_a_pip)


def test_only_a_one_read_from_several_pips_moves_to_its_roundest_pip() -> None:
    from vision.dice import Face, _at_the_one

    group = Face(100.0, 100.0, 30.0, 1, 0.9, 0.8, (85.0, 85.0, 115.0, 115.0), 2, roundest=(96.0, 92.0))
    assert (_at_the_one(group).x, _at_the_one(group).y, _at_the_one(group).box) == (96.0, 92.0, group.box)
    assert _at_the_one(replace(group, value=2)) == replace(group, value=2)  # read as its own count: it stays
    assert _at_the_one(replace(group, pips=1)) == replace(group, pips=1)  # a lone pip is where it is
    assert _at_the_one(replace(group, value=None)) == replace(group, value=None)


def test_a_real_photo_in_a_wide_camera_frame_is_read_as_the_photo_alone() -> None:
    """A byler fixture photo (dice about 40 pixels in 640) centred in a 1280 x 720 frame: its dice are
    small at the first working scale and one is misread there; read again larger, all seven are right."""
    name = "byler-IMG_20191208_112219.jpg"
    labels = json.loads((FIXTURES / "labels.json").read_text())[name]
    photo = _photo(FIXTURES / name)
    frame, s, left, top = in_frame(photo, (1280, 720))  # (enlarged to 720 x 720, centred)

    def right(readings: list[DieReading], framed: bool = True) -> int:
        back = [replace(r, center=((r.center[0] - left) / s, (r.center[1] - top) / s)) for r in readings] if framed else readings
        return sum(
            any(lab["box"][0] <= r.center[0] <= lab["box"][2] and lab["box"][1] <= r.center[1] <= lab["box"][3] and r.value == lab["value"] for r in back)
            for lab in labels
        )

    assert right(read_dice(frame, replace(DEFAULT, min_work_die=0.0))) == len(labels) - 1
    assert right(read_dice(frame)) == len(labels) == 7
    assert right(read_dice(photo), framed=False) == 7  # (the photo alone is read at its own scale, once)
    alone = look_at(photo)
    assert better_scale(alone.faces, alone.scale) is None


def test_a_picture_is_read_again_at_most_at_its_own_size_and_only_for_small_dice() -> None:
    img, _ = render_dice([4, 5, 6], die=16, seed=0, size=(320, 180))  # a small picture: read at its own size
    look = look_at(img)
    assert look.scale == 1.0 and 0 < die_size(look.faces) < DEFAULT.min_work_die
    assert better_scale(look.faces, look.scale) is None  # (never enlarged)
    photo = _photo(FIXTURES / "byler-IMG_20191208_112116.jpg")
    frame = np.empty((720, 1280, 3), np.uint8)
    frame[:] = photo[0, 0]
    frame[40:680, 320:960] = photo  # dice about 40 pixels wide in a 1280 x 720 frame
    first = look_at(frame, replace(DEFAULT, min_work_die=0.0))
    assert first.scale == 0.5 and 0 < die_size(first.faces) < DEFAULT.min_work_die
    assert 0.5 < (better_scale(first.faces, first.scale) or 0) < 1.0
    bigger = replace(DEFAULT, work_die=3 * die_size(first.faces))  # would want them three times as big ...
    assert better_scale(first.faces, first.scale, bigger) == 1.0  # ... but the frame is read at its own size, no larger
    big, _ = render_dice([4, 5, 6], die=80, seed=0)
    seen = look_at(big)
    assert better_scale(seen.faces, seen.scale) is None


def _framed_right(name: str, side: int) -> tuple[np.ndarray, Callable[[list[DieReading]], int]]:
    """A fixture photo scaled to ``side`` pixels high and centred in a 1280 x 720 frame, and a count of the
    readings of that frame that are right (:func:`_score`, in the photo's pixels)."""
    labels = json.loads((FIXTURES / "labels.json").read_text())[name]
    photo = _photo(FIXTURES / name)
    k = side / photo.shape[0]
    small = cv2.resize(photo, (round(photo.shape[1] * k), side), interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    frame = np.empty((720, 1280, 3), np.uint8)
    frame[:] = small[0, 0]
    top, left = (720 - small.shape[0]) // 2, (1280 - small.shape[1]) // 2
    frame[top : top + small.shape[0], left : left + small.shape[1]] = small

    def right(readings: list[DieReading]) -> int:
        return _score(labels, [replace(r, center=((r.center[0] - left) / k, (r.center[1] - top) / k)) for r in readings])[1]

    return frame, right


@pytest.mark.parametrize(("name", "side"), [("byler-IMG_20191208_111947.jpg", 520), ("byler-IMG_20191208_112116.jpg", 480)])
def test_dice_too_small_for_their_pips_at_the_first_scale_are_measured_by_their_outlines(name: str, side: int) -> None:
    """Seven byler dice about 36 pixels wide in a 1280 x 720 frame, 18 at the first scale: their pips are
    not found there, each die is one blob, and the faces show no clear face (or two dice read as one
    "two", twice a die wide). The lone dice's outlines show how small they are: read again larger, all
    seven are right."""
    frame, right = _framed_right(name, side)
    first = look_at(frame, replace(DEFAULT, min_work_die=0.0))  # (one look, at the first scale)
    assert first.scale == 0.5 and right(first.readings) <= 2
    assert not [f for f in first.faces if f.pips >= 3 and f.confidence >= 0.9]
    assert die_size(first.faces) == 0.0 or die_size(first.faces) > 2 * DEFAULT.min_work_die
    assert better_scale(first.faces, first.scale) is None  # (the faces alone keep the first scale)
    assert first.regions is not None and 14 <= outline_size(first.faces, first.regions) < DEFAULT.min_work_die
    assert 0.8 <= (better_scale(first.faces, first.scale, DEFAULT, first.regions) or 0) <= 1.0
    assert right(read_dice(frame, DEFAULT)) == right(read_dice(frame)) == 7


def test_a_two_wider_than_the_faces_of_three_pips_does_not_set_the_scale() -> None:
    """Six byler dice about 47 pixels wide in a 1280 x 720 frame: at the first scale a "two" made of two
    dice widens the clear faces' median over ``min_work_die``; the faces of three pips and more are
    smaller, and set the scale."""
    frame, right = _framed_right("byler-IMG_20191208_111833.jpg", 680)
    first = look_at(frame, replace(DEFAULT, min_work_die=0.0))
    many = [f.size for f in first.faces if f.pips >= 3 and f.confidence >= 0.9]
    assert first.scale == 0.5 and die_size(first.faces) >= DEFAULT.min_work_die > max(many)
    assert better_scale(first.faces, first.scale, DEFAULT, first.regions) == pytest.approx(DEFAULT.work_die / (float(np.median(many)) / 0.5))
    assert right(read_dice(frame, DEFAULT)) > right(first.readings)


def test_a_camera_remembers_the_outline_of_a_lone_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A drawn one 30 pixels wide in a 1280 x 720 frame: no clear face to measure it by, at any scale. Its
    outline, 16 pixels at the first scale, has it read again larger; a camera's reader remembers that
    size, and reads the next frames at that scale at once: one look a frame, not two."""
    import vision.dice as dice_module

    img, _ = render_dice([1], die=30, seed=0)
    look = look_at(img)
    assert 0.9 <= look.scale < 1.0 and look.die_px == 0.0 and 30 <= look.outline_px <= 36
    assert [r.value for r in look.readings] == [1]
    looks = []
    candidates = dice_module._candidates

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        looks.append(args[2])  # (the scale)
        return candidates(*args, **kwargs)

    monkeypatch.setattr(dice_module, "_candidates", counted)
    reader = DiceReader()
    per_frame = []
    for _ in range(4):
        looks.clear()
        assert [r.value for r in reader(img)] == [1]
        per_frame.append(len(looks))
    assert per_frame == [2, 1, 1, 1] and looks == [pytest.approx(DEFAULT.work_die / look.outline_px)]  # (its size, remembered)
    sizes = list(reader.frames[(720, 1280)].sizes)
    assert len(sizes) == 4 and all(30 <= v <= 36 for v in sizes)  # (one a frame: the outline, at the scale it was read at)


def test_an_outline_counts_as_a_die_when_it_is_more_than_three_pips_wide() -> None:
    regions = Regions(np.zeros((4, 4), np.int32), np.array([0.0, 7.0, 18.0, 20.0, 40.0, 20.0]), np.array([False, False, False, False, False, True]))
    face = Face(50.0, 50.0, 30.0, 2, 0.95, 0.9, (35.0, 35.0, 65.0, 65.0), 2, diameter=2.5)
    assert outline_size([face], regions) == 20.0  # 18, 20, 40: the 7 is a pip, the last a square of a row
    assert outline_size([replace(face, diameter=7.0), face, face, face], regions) == 20.0  # (the pips' lower quartile)
    assert outline_size([replace(face, diameter=7.0)], regions) == 40.0  # pips of 7: only the 40 is a die
    assert outline_size([], regions) == 0.0
    assert outline_size([face], Regions(np.zeros((4, 4), np.int32), np.array([0.0]), np.array([False]))) == 0.0


@pytest.mark.parametrize("die", [200, 260])
@pytest.mark.parametrize("pair", [(1, 5), (2, 6), (3, 4)])
def test_dice_too_big_for_their_pips_to_be_found_are_read_from_a_smaller_copy(die: int, pair: tuple[int, int]) -> None:
    img = np.full((640, 640, 3), (40, 110, 40), np.uint8)  # dice a third of the picture and more: a close-up
    at = [(170.0, 190.0), (470.0, 450.0)]
    for v, centre, angle in zip(pair, at, (20.0, -35.0)):
        draw_die(img, v, centre, die, angle)
    assert read_dice(img, replace(DEFAULT, big_die=1e9)) == []  # (their pips are wider than a pip can be)
    got = read_dice(img)
    assert [(r.value, round(r.center[0] / 10), round(r.center[1] / 10)) for r in got] == [(v, round(x / 10), round(y / 10)) for v, (x, y) in zip(pair, at)]
    assert all(r.confidence >= CONFIDENCE_THRESHOLD for r in got)


def test_a_camera_close_over_its_tray_reads_its_big_dice() -> None:
    frame = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
    draw_die(frame, 4, (500.0, 340.0), 400, 10.0)  # read first at 640 x 360, where the die is 200 wide
    draw_die(frame, 1, (960.0, 380.0), 400, -30.0)
    reader = DiceReader()
    for _ in range(2):  # (the second frame at the scale the reader remembers)
        look = reader.look(frame)
        assert [(r.value, round(r.center[0] / 20), round(r.center[1] / 20)) for r in look.readings] == [(4, 25, 17), (1, 48, 19)]
        assert 250 < look.die_px < 450  # (measured on the four, found in the copy half as large)
    assert reader.scale(frame.shape) is None  # big dice: read at the first scale


def test_a_big_die_does_not_replace_a_sure_reading_in_its_box() -> None:
    img, truth = render_dice([5], size=(640, 640), die=220, seed=3)
    (x, y) = truth[0][1]
    look = look_at(img, replace(DEFAULT, big_die=1e9))
    work, scale = look.work, look.scale
    speck = Face(x, y, 20.0, 3, 0.3, 1.0, (x - 10, y - 10, x + 10, y + 10), 3)  # an unsure reading on the die ...
    read, found = big_dice(img, work, scale, [speck], None)
    assert [(f.value, f.pips) for f in read] == [(5, 5)] and found == read  # ... gives way to the die
    sure = replace(speck, confidence=0.9)  # a sure one stands: the "big die" may be dice taken for pips
    assert big_dice(img, work, scale, [sure], None) == ([sure], [])
    assert big_dice(img, work, scale, [], None, replace(DEFAULT, big_die=400.0)) == ([], [])  # (only dice at least big_die wide are looked for)


def test_a_camera_reader_remembers_the_scale_its_small_dice_are_read_at() -> None:
    small, _ = render_dice([4, 5, 6, 2, 3], die=24, seed=1)
    reader = DiceReader()
    assert reader.scale(small.shape) is None
    assert rounded(reader(small)) == rounded(read_dice(small))  # (a whole frame; read_dice searches its parts at the second look)
    scale = reader.scale(small.shape)
    assert scale is not None and scale > first_scale(small.shape)
    assert look_at(small, scale=scale).scale == scale  # the next frame is read at once at that scale ...
    assert rounded(reader(small)) == rounded(read_dice(small, scale=scale))
    scale = reader.scale(small.shape)
    assert reader(np.full((720, 1280, 3), 90, np.uint8)) == []
    assert reader.scale(small.shape) == scale  # ... also after a frame without dice
    big, _ = render_dice([1, 2, 3], die=80, seed=1)
    assert values(reader(big)) == values(read_dice(big))
    again = reader.scale(small.shape)  # one frame of big dice (or clutter) does not undo it ...
    assert again is not None and scale is not None and abs(again - scale) < 0.05 * scale
    for _ in range(DiceReader().memory):
        reader(big)
    assert reader.scale(small.shape) is None  # ... but frames that keep showing them do


def test_a_camera_reader_remembers_each_frame_size_apart() -> None:
    reader = DiceReader()
    small, _ = render_dice([4, 5, 6, 2, 3], die=24, seed=1)
    reader(small)
    assert reader.scale(small.shape) is not None and reader.scale((480, 640, 3)) is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_parts_that_differ_from_the_table_read_as_the_whole_frame(seed: int) -> None:
    img, _ = render_dice([1 + (seed + i) % 6 for i in range(3)], seed=seed)
    whole, parts = look_at(img), look_at(img, changed_only=True)
    assert parts.parts  # (read in parts, not whole)
    assert len(whole.readings) == 3 and rounded(parts.readings) == rounded(whole.readings)


@pytest.mark.parametrize("name", ["byler-IMG_20191208_111833.jpg", "matteo-dice_23.jpg"])
def test_real_photos_in_a_camera_frame_read_alike_in_parts(name: str) -> None:
    frame = in_frame(_photo(FIXTURES / name), (1280, 720))[0]
    assert values(look_at(frame, changed_only=True).readings) == values(look_at(frame).readings)


def test_a_picture_looked_at_again_larger_is_searched_again_only_where_it_differs_from_the_table() -> None:
    frame = in_frame(_photo(FIXTURES / "byler-IMG_20191208_111833.jpg"), (1280, 720))[0]
    lone, whole = look_at(frame), look_at(frame, search_whole=True)
    assert 0.5 < lone.scale == whole.scale < 1.0  # (dice too small at the first scale: a second look)
    assert lone.in_parts and lone.parts and not whole.in_parts
    share = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in lone.parts) / (lone.work.shape[0] * lone.work.shape[1])
    assert share < 0.5  # (the frame's bare table, round the photo, is not searched)
    assert len(lone.readings) == 6 and rounded(lone.readings) == rounded(whole.readings)


def test_dice_the_colour_of_the_table_keep_a_picture_searched_whole_at_the_second_look() -> None:
    # dice 40 px wide, 20 at the first scale: looked at again larger; their candidates lie outside the
    # parts that differ from the table (there are none), so the second look searches the whole picture
    img, _ = render_dice([2, 4, 5, 6, 3], die=40, seed=0, table=(170, 70, 120), body=(180, 80, 130), pip=(140, 40, 90))
    look = look_at(img)
    assert look.scale > first_scale(img.shape) and not look.in_parts and look.parts == []
    assert values(look.readings) == [2, 4] and rounded(look.readings) == rounded(look_at(img, search_whole=True).readings)


def test_the_table_model_is_made_of_whole_blocks_of_8_pixels_and_scaled_back_onto_them() -> None:
    from vision.dice import table_background

    work = np.random.default_rng(0).integers(0, 256, (45, 70, 3), dtype=np.uint8)  # (sides no multiple of 8)
    small, _ = table_model(work)
    blocks = work[:40, :64].reshape(5, 8, 8, 8, 3).mean(axis=(1, 3))
    assert small.shape == (5, 8, 3) and np.abs(small - blocks).max() <= 1.5  # (halved three times, each rounded by at most half a level)
    # a table dark left of x = 32 and light from there on: the background changes where the table does
    plain = np.zeros((45, 70, 3), np.uint8)
    plain[:, 32:] = 200
    back = table_background(plain).astype(int)
    assert back.shape == plain.shape
    assert back[0, 27, 0] == 0 and back[0, 31, 0] < 100 < back[0, 32, 0] and back[0, 36, 0] == 200
    # the rows and columns past the last whole block repeat the edge
    assert (back[40:] == back[39]).all() and (back[:, 64:] == back[:, 63:64]).all()
    assert changed_parts(*table_model(plain), plain.shape) == []


def test_changed_parts_are_boxes_round_what_differs_from_the_table() -> None:
    plain = np.full((720, 1280, 3), 90, np.uint8)
    assert changed_parts(*table_model(plain), plain.shape) == []
    img = plain.copy()
    draw_die(img, 5, (300.0, 200.0), 60.0)
    draw_die(img, 3, (340.0, 240.0), 60.0)  # (overlapping boxes are merged)
    draw_die(img, 2, (1000.0, 600.0), 60.0)
    parts = changed_parts(*table_model(img), img.shape)
    assert parts is not None and len(parts) == 2
    near, far = sorted(parts)
    assert near[0] < 300 - 30 - 16 and near[2] > 340 + 30 + 16 and near[1] < 200 - 30 and near[3] > 240 + 30
    assert far[0] < 1000 - 30 < 1000 + 30 < far[2] and far[1] < 600 - 30 < 600 + 30 < far[3]
    # parts that would cover more than part_share of the picture: the whole is read
    assert changed_parts(*table_model(img), img.shape, replace(DEFAULT, part_share=0.01)) is None
    from vision.dice import _merged

    # a box grown by a merge can overlap one it was clear of
    assert _merged([(0, 0, 10, 10), (20, 0, 30, 10), (5, 0, 25, 10), (40, 40, 50, 50)]) == [(0, 0, 30, 10), (40, 40, 50, 50)]


def test_a_camera_reader_reads_the_changed_parts_and_checks_them_on_a_whole_frame_every_tenth(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.dice

    img, _ = render_dice([3, 1, 6], seed=4)
    looks: list[bool] = []
    real = vision.dice.look_at

    def spy(*args: object, changed_only: bool = False, **kw: object) -> object:
        looks.append(changed_only)
        return real(*args, changed_only=changed_only, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(vision.dice, "look_at", spy)
    reader = DiceReader(check_every=10)
    for _ in range(23):
        assert values(reader(img)) == [1, 3, 6]
    assert looks == [False] + [True] * 10 + [False] + [True] * 10 + [False]
    assert list(reader.frames) == [(720, 1280)] and reader.reads_in_parts(img.shape) is True
    with pytest.raises(ValueError, match="check_every 0"):
        DiceReader(check_every=0)


def test_a_camera_reader_finds_the_parts_against_the_table_of_its_last_whole_look() -> None:
    """The table does not change from frame to frame: frames read in parts are read against the
    table the last whole look saw (not their own median, a millisecond and more), and read as
    each frame alone reads. A frame of another table differs from it everywhere: it is read
    against its own table, which the reader keeps from then on. (Each frame shows other dice: with
    ``rest_frames`` 1 the parts round the dice of the frames before are not searched again.)"""
    reader = DiceReader(check_every=4, rest_frames=1)
    key = (720, 1280)
    for k in range(7):
        frame, _ = render_dice([1 + (k + i) % 6 for i in range(3)], seed=10 + k)
        kept = reader.frames[key].table if key in reader.frames else None
        look = reader.look(frame)
        assert values(look.readings) == values(read_dice(frame, DEFAULT)), k
        if k in (0, 5):  # (a whole look: the first, and after four in parts, check_every)
            assert look.table is not kept and reader.frames[key].table.background is look.table.background, k  # (its own, kept from now on)
        else:
            assert look.parts is not None and look.table is kept, k
    red, _ = render_dice([2, 5], seed=3, table=(40, 40, 150))
    kept = reader.frames[key].table
    look = reader.look(red)
    assert values(look.readings) == [2, 5] and look.table is not kept and reader.frames[key].table.background is look.table.background


def test_a_camera_reader_learns_what_stays_of_its_table_and_searches_only_the_dice() -> None:
    """A tray's printed rim differs from the table's median all round: every part frame searched it
    (the bench's real 10-dice frames: about 40 of 60 candidates). Blocks that stay as they were for
    ``rest_frames`` frames, with no die read on them or beside them, become the table the parts are
    found against; blocks where a die was read are searched whatever they show. The dice read the
    same, and dice thrown elsewhere on the learnt table are found."""
    from vision.dice import in_changed_parts

    key = (720, 1280)
    first = printed_tray(render_dice([2, 4, 6], seed=21)[0])
    alone = rounded(read_dice(first, DEFAULT))
    reader = DiceReader(rest_frames=3)
    looks = [reader.look(first) for _ in range(9)]
    searched = [1.0 if look.parts is None else sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in look.parts) / look.work[:, :, 0].size for look in looks]
    assert all(rounded(look.readings) == alone for look in looks) and all(in_changed_parts(look) for look in looks)
    assert searched[:4] == [1.0] * 4 and max(searched[4:]) < 0.3, searched  # (the rim, learnt after three quiet frames)
    table = reader.frames[key].table
    k = looks[-1].scale / 8  # (the frame's pixels to reduced working pixels)
    assert table.watch is not None and all(table.watch[int(r.center[1] * k), int(r.center[0] * k)] for r in looks[-1].readings)
    second = printed_tray(render_dice([1, 3, 5, 5], seed=22)[0])
    assert [rounded(reader(second)) for _ in range(4)] == [rounded(read_dice(second, DEFAULT))] * 4
    assert reader.rest_frames == 3 and DiceReader().rest_frames == 5
    # a camera's frames are never twice the same: sensor noise of 4 grey levels moves no block of 8 x 8 pixels
    rng = np.random.default_rng(5)
    noisy = DiceReader(rest_frames=3)
    frames = [np.clip(first + rng.normal(0.0, 4.0, first.shape), 0, 255).astype(np.uint8) for _ in range(8)]
    looks = [noisy.look(frame) for frame in frames]
    assert all(values(look.readings) == values(read_dice(first, DEFAULT)) for look in looks)
    assert looks[-1].parts is not None and sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in looks[-1].parts) < 0.3 * looks[-1].work[:, :, 0].size
    for bad in (0, 256):
        with pytest.raises(ValueError, match=f"rest_frames {bad}"):
            DiceReader(rest_frames=bad)


def test_a_camera_reader_reads_a_table_at_rest_again_without_searching_it_but_searches_what_changed() -> None:
    """A table at rest through a camera's noise: a frame read in the same parts as the frame before, which
    differs from it by no more than ``Params.same_picture`` in any block of 8 x 8 working pixels, keeps that
    frame's candidates and readings instead of being searched (``Look.reused``), once its last three
    looks have read the same dice (the looks a settler's agreement is made of are each searched). It reads
    what a reader searching every frame reads. The whole look of every tenth frame, and the frame after it,
    are read as the last whole look and the look in parts before it were, the picture being as it was then;
    a frame where a die was turned to another face, or pushed three pixels aside, is searched."""
    rng = np.random.default_rng(7)
    base, truth = render_dice([2, 4, 6], seed=31, noise=0)

    def shot(picture: np.ndarray) -> np.ndarray:
        return np.clip(picture + rng.normal(0.0, 2.0, picture.shape), 0, 255).astype(np.uint8)

    frames = [shot(base) for _ in range(14)]
    reader, searching = DiceReader(), DiceReader(replace(DEFAULT, same_picture=-1.0))
    looks, searched = [reader.look(f) for f in frames], [searching.look(f) for f in frames]
    for look, other in zip(looks, searched):  # (the same dice; a search of each frame moves centres by its noise, a fraction of a pixel)
        assert values(look.readings) == values(other.readings)
        assert all(np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) < 1.0 for a, b in zip(look.readings, other.readings))
    assert values(looks[-1].readings) == [2, 4, 6] and not any(look.reused for look in searched)
    reused = [look.reused for look in looks]
    assert [look.in_parts for look in looks] == [False] + [True] * 10 + [False] + [True] * 2  # (check_every 10)
    assert reused == [False] * 3 + [True] * 11  # (its first three looks read alike, each searched)
    assert looks[11].candidates is looks[0].candidates and looks[12].candidates is looks[10].candidates  # (the check, and the frame after it)
    turned = shot(render_dice([2, 5, 6], seed=31, noise=0)[0])  # (the four turned to a five where it lay)
    look = reader.look(turned)
    assert not look.reused and values(look.readings) == [2, 5, 6]
    five = render_dice([2, 5, 6], seed=31, noise=0)[0]
    assert [reader.look(shot(five)).reused for _ in range(3)] == [False, False, True]  # (the dice read changed: three searched looks again)
    x, y = (round(c) for c in truth[0][1])
    pushed = base.copy()
    pushed[y - 45 : y + 45, x - 42 : x + 48] = base[y - 45 : y + 45, x - 45 : x + 45]  # (the two, three pixels to the right)
    for _ in range(2):
        reader.look(shot(base))
    look = reader.look(shot(pushed))
    assert not look.reused and values(look.readings) == [2, 4, 6]
    assert min(abs(r.center[0] - x - 3) for r in look.readings) < 1.5
    later = [reader.look(shot(pushed)) for _ in range(4)]
    check = next(look for look in later if not look.in_parts)  # (every tenth frame: the whole, against the last whole look's picture)
    assert not check.reused and values(check.readings) == [2, 4, 6]  # (the two was pushed since that one)
    with pytest.raises(ValueError, match="steady_reads 0"):
        DiceReader(steady_reads=0)


def test_a_camera_reader_at_rest_keeps_the_readings_of_the_picture_it_read_and_runs_no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once its last three looks read the same dice, a frame that shows the picture the last look read but
    for a camera's noise keeps that look's readings: the same candidates in the same pixels but for that
    noise, read by the same network, read the same (the network is not run). Each frame is compared with
    the picture those readings were read from, not with the frame before it: a light that grows a grey level
    a frame is searched again once it is ``Params.same_picture`` (6) levels from it, and reads the same dice."""
    import vision.dice_model

    rng = np.random.default_rng(11)
    base, _ = render_dice([1, 3, 5], seed=12, noise=0)

    def shot(picture: np.ndarray, lighter: int = 0) -> np.ndarray:
        return np.clip(picture + lighter + rng.normal(0.0, 2.0, picture.shape), 0, 255).astype(np.uint8)

    reader = DiceReader()
    read = [reader.look(shot(base)) for _ in range(3)]
    assert not any(look.reused for look in read) and values(read[-1].readings) == [1, 3, 5]
    crops = []
    real_classify = vision.dice_model.classify
    monkeypatch.setattr(vision.dice_model, "classify", lambda work, centres, *a, **k: crops.append(len(centres)) or real_classify(work, centres, *a, **k))
    rest = [reader.look(shot(base)) for _ in range(6)]
    assert all(look.reused and look.readings is read[-1].readings for look in rest) and crops == []
    assert all(look.work is not read[-1].work for look in rest)  # (each look's own pixels, for a network that reads its candidates: ChoosingReader)
    lighter = [reader.look(shot(base, k)) for k in range(1, 10)]  # (a grey level lighter each frame)
    searched = [k for k, look in enumerate(lighter, 1) if not look.reused]
    assert searched and searched[0] in (6, 7, 8) and crops  # (6 levels from the picture read, give or take the noise)
    assert all(values(look.readings) == [1, 3, 5] for look in lighter)


def test_a_camera_reader_reads_a_table_at_rest_at_one_scale_and_so_the_same_each_time() -> None:
    """Each look measures the dice's size a little differently at the scale it was read at, which moved
    the scale the next frame is read at (0.835 to 0.861 for this photo in a 1280 x 720 frame, from
    the ninth look on) and with it the readings of the same still picture (four different ones in
    twelve looks: confidences and centres): the settler waits for readings that agree. The camera
    keeps its scale while its dice ask for one within STEADY (a tenth) of it."""
    frame = in_frame(_photo(FIXTURES / "byler-IMG_20191208_112116.jpg"), (1280, 720))[0]
    reader = DiceReader()
    looks = [reader.look(frame) for _ in range(20)]
    assert len({look.scale for look in looks[8:]}) == 1 and 0.5 < looks[-1].scale < 1.0
    assert len({tuple(rounded(look.readings)) for look in looks[8:]}) == 1
    assert reader.scale_margin == STEADY == 0.1
    unsteady = DiceReader(scale_margin=0.0)
    looks = [unsteady.look(frame) for _ in range(20)]
    assert len({look.scale for look in looks[8:]}) > 1 and len({tuple(rounded(look.readings)) for look in looks[8:]}) > 1


def test_dice_the_colour_of_the_table_keep_a_camera_reading_whole_frames() -> None:
    img = table_coloured_dice()
    whole = look_at(img)
    assert values(whole.readings) == [2, 4, 5] and look_at(img, changed_only=True).readings == []
    reader = DiceReader()
    assert reader.reads_in_parts(img.shape) is None  # (not checked yet)
    for _ in range(12):
        assert rounded(reader(img)) == rounded(whole.readings)  # every frame read whole: the first check failed
    assert list(reader.frames) == [(720, 1280)] and reader.reads_in_parts(img.shape) is False
    # the same picture, searched whole the frame before: its candidates are read again, not searched
    looks = [reader.look(img) for _ in range(3)]
    assert all(look.reused and not look.in_parts and rounded(look.readings) == rounded(whole.readings) for look in looks)
