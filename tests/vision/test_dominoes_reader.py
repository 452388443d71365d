"""The domino reader on the real photos (fixtures) and on seeded synthetic frames."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.domino_synth import random_scene
from vision.dominoes import Layout, layout_from_tiles, read_dominoes, read_layout
from vision.types import TileReading

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "dominoes"
LABELS = json.loads((FIXTURES / "labels.json").read_text())


def _box_center(box: list[int]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


@pytest.mark.parametrize("name", sorted(LABELS))
def test_every_tile_right_on_the_real_photos(name: str) -> None:
    image = cv2.imread(str(FIXTURES / name))
    readings = read_dominoes(image)
    assert len(readings) == len(LABELS[name])
    for label in LABELS[name]:
        x0, y0, x1, y1 = label["box"]
        inside = [r for r in readings if x0 <= r.center[0] <= x1 and y0 <= r.center[1] <= y1]
        assert len(inside) == 1, label
        # Reading order is the labels' order: left to right, or top to bottom.
        assert list(inside[0].pips) == label["pips"], (label, inside[0])
        vertical = (y1 - y0) > (x1 - x0)
        assert abs(inside[0].angle - (90 if vertical else 0)) < 12


def test_layout_photo_line_spinner_and_open_ends() -> None:
    image = cv2.imread(str(FIXTURES / "layout.jpg"))
    layout = read_layout(image)
    assert len(layout.tiles) == 12 and layout.loose == ()
    assert layout.spinner is not None and layout.tiles[layout.spinner].pips == (5, 5)
    # Open: the 2 of 2-5, the 6 of 3-6, the 1 of 6-1 and the 1 of 1-4.
    assert sorted(layout.open_ends) == [1, 1, 2, 6]
    assert layout.to_dict()["open_sum"] == 10
    chain = [layout.tiles[i].pips for i in layout.chain]
    assert chain[0] in ((6, 1), (3, 6)) and len(chain) == 10
    # Under "four_sides" the spinner's free side counts half its value.
    assert read_layout(image, "four_sides").open_sum == 15
    d = layout.to_dict()
    assert set(d) >= {"tiles", "open_ends", "open_sum"}
    assert d["tiles"][0]["pips"] == [1, 4]


def _halves(readings: list) -> list[tuple[np.ndarray, int | None]]:
    """Each reading's two halves: (centre of the half, its pips)."""
    return [(np.array(c), p) for r in readings for c, p in zip(r.half_centers(), r.pips)]


def _half_accuracy(seeds: range, kind: str) -> tuple[int, int]:
    good = total = 0
    for seed in seeds:
        scene = random_scene(np.random.default_rng(seed), kind=kind)  # type: ignore[arg-type]
        readings = read_dominoes(scene.image)
        halves = _halves(readings)
        for tile in scene.tiles:
            for centre, value in zip(tile.half_centers, tile.pips):
                total += 1
                near = [v for p, v in halves if np.linalg.norm(p - np.array(centre)) < 0.3 * tile.width]
                good += near[:1] == [value]
    return good, total


def test_generated_tiles_are_mostly_read() -> None:
    # A floor that guards against regressions; bench/dominoes_accuracy.py gives the figure.
    good, total = _half_accuracy(range(10, 22), "scatter")
    assert good / total >= 0.9, (good, total)


@pytest.mark.parametrize("kind", ["scatter", "line"])
def test_generated_tiles_are_whole_inside_the_frame(kind: str) -> None:
    # A fair generator: no tile is cut by the frame's edge.
    for seed in range(30):
        scene = random_scene(np.random.default_rng(seed), kind=kind)  # type: ignore[arg-type]
        h, w = scene.image.shape[:2]
        for t in scene.tiles:
            xs, ys = [c[0] for c in t.corners], [c[1] for c in t.corners]
            assert min(xs) >= 0 and min(ys) >= 0 and max(xs) <= w - 1 and max(ys) <= h - 1, (seed, t)


def test_pip_patterns_on_the_grid() -> None:
    from vision.dominoes import PATTERNS, P, _grid_value

    pitch = 0.28 * P
    for value, variants in PATTERNS.items():
        for cells in variants:
            for turned in (cells, frozenset((y, x) for x, y in cells)):
                pips = [(P / 2 + x * pitch, P / 2 + y * pitch, 20.0, 100.0) for x, y in turned]
                assert _grid_value(pips, P)[0] == value, (value, sorted(turned))
    # Two pips side by side, or three in an L, are no domino pattern: unsure.
    side = [(P / 2 - pitch, P / 2, 20.0, 100.0), (P / 2 + pitch, P / 2, 20.0, 100.0)]
    ell = [(P / 2 - pitch, P / 2 - pitch, 20.0, 100.0), (P / 2 - pitch, P / 2 + pitch, 20.0, 100.0),
           (P / 2 + pitch, P / 2 + pitch, 20.0, 100.0)]
    assert _grid_value(side, P)[0] is None and _grid_value(ell, P)[0] is None


def test_a_half_off_the_patterns_reads_unsure_not_a_guess() -> None:
    image = np.full((200, 300, 3), 90, np.uint8)
    cv2.rectangle(image, (70, 60), (230, 140), (235, 240, 240), -1)  # a tile 160 x 80
    cv2.line(image, (150, 70), (150, 130), (20, 20, 20), 3)  # divider
    for x, y in ((88, 78), (132, 78)):  # left half: two pips in a row, no domino pattern
        cv2.circle(image, (x, y), 7, (20, 20, 20), -1, cv2.LINE_AA)
    cv2.circle(image, (190, 100), 7, (20, 20, 20), -1, cv2.LINE_AA)  # right half: a 1
    (tile,) = read_dominoes(image)
    assert tile.pips == (None, 1) and tile.confidence < 1


def test_generator_is_seeded_and_consistent() -> None:
    a = random_scene(np.random.default_rng(7), kind="line")
    b = random_scene(np.random.default_rng(7), kind="line")
    assert np.array_equal(a.image, b.image) and a.tiles == b.tiles
    pairs = [tuple(sorted(t.pips)) for t in a.tiles]
    assert len(pairs) == len(set(pairs))  # a double-six set has each tile once
    assert all(0 <= v <= 12 for v in a.open_ends)


def _tile(a: int, b: int, x: float, y: float, vertical: bool = False) -> TileReading:
    if vertical:
        return TileReading((a, b), (x, y), 90.0, 1.0, ((x + 10, y - 20), (x + 10, y + 20), (x - 10, y + 20), (x - 10, y - 20)))
    return TileReading((a, b), (x, y), 0.0, 1.0, ((x - 20, y - 10), (x + 20, y - 10), (x + 20, y + 10), (x - 10, y + 10)))


def test_layout_worked_example_of_the_rules() -> None:
    # 3-5, 5-5 crosswise (the spinner), 5-0, 0-2: ends 3 and 2 (RULES dom-4).
    tiles = [_tile(3, 5, 0, 0), _tile(5, 5, 31, 0, vertical=True), _tile(5, 0, 62, 0), _tile(0, 2, 103, 0)]
    lay = layout_from_tiles(tiles)
    assert lay.spinner == 1 and lay.chain in ((0, 1, 2, 3), (3, 2, 1, 0))
    assert sorted(lay.open_ends) == [2, 3] and lay.open_sum == 5
    assert layout_from_tiles(tiles, "four_sides").open_sum == 15
    # The spinner alone, then with one side closed: it counts in full.
    assert layout_from_tiles([tiles[1]]).open_sum == 10
    assert layout_from_tiles(tiles[1:3]).open_sum == 10


def test_layout_ignores_mismatched_and_loose_tiles() -> None:
    tiles = [_tile(3, 5, 0, 0), _tile(4, 1, 41, 0), _tile(6, 6, 300, 300)]
    lay = layout_from_tiles(tiles)
    assert isinstance(lay, Layout) and lay.chain == () and lay.loose == (0, 1, 2)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="BGR"):
        read_dominoes(np.zeros((10, 10), np.uint8))


def _black_tile_on_dark_felt() -> np.ndarray:
    # A black 5-2 on dark felt: tile and table differ by about 12 levels (colour distance).
    rng = np.random.default_rng(3)
    image = np.full((200, 300, 3), (32, 31, 35), np.float32) + rng.normal(0, 3, (200, 300, 1))
    cv2.rectangle(image, (100, 70), (200, 120), (24, 23, 29), -1)  # a tile 100 x 50
    cv2.line(image, (150, 78), (150, 112), (200, 200, 200), 3)  # divider
    pitch = 13
    for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)):  # left half: a 5
        cv2.circle(image, (125 + dx * pitch, 95 + dy * pitch), 4, (225, 225, 225), -1, cv2.LINE_AA)
    for dx, dy in ((-1, -1), (1, 1)):  # right half: a 2
        cv2.circle(image, (175 + dx * pitch, 95 + dy * pitch), 4, (225, 225, 225), -1, cv2.LINE_AA)
    return np.clip(cv2.GaussianBlur(image, (0, 0), 0.8), 0, 255).astype(np.uint8)


def test_a_black_tile_on_dark_felt_is_found_by_its_sides() -> None:
    # Its outline shows at few points, but each side's median differs from the table's
    # beyond their noise, and its pips vouch for it.
    (tile,) = read_dominoes(_black_tile_on_dark_felt())
    assert tile.pips == (5, 2) and abs(tile.angle) < 5
    assert math.dist(tile.center, (150, 95)) < 5


def test_black_tiles_on_dark_felt_generated() -> None:
    # Seed 146 (tuning set): eight black tiles on dark felt, three of them missed
    # before the side-wise outline test.
    scene = random_scene(np.random.default_rng(146), kind="scatter")
    readings = read_dominoes(scene.image)
    assert sorted(sorted(r.pips) for r in readings) == sorted(sorted(t.pips) for t in scene.tiles)  # type: ignore[type-var]


def _read_right(scene: object, which: list[int]) -> list[bool]:
    """For each tile of ``which``: is each of its halves read, right, where it lies?"""
    halves = _halves(read_dominoes(scene.image))  # type: ignore[attr-defined]
    out = []
    for i in which:
        tile = scene.tiles[i]  # type: ignore[attr-defined]
        ok = True
        for centre, value in zip(tile.half_centers, tile.pips):
            near = [v for p, v in halves if np.linalg.norm(p - np.array(centre)) < 0.3 * tile.width]
            ok &= near[:1] == [value]
        out.append(ok)
    return out


def test_a_seam_read_as_a_divider_does_not_hide_the_two_tiles() -> None:
    # Seeds 149 and 181 (tuning set): the seam between two touching tiles in a line,
    # with a half of each beside it, reads as one tile that scored a little better
    # than either real one; both real tiles were missed.
    for seed, which in ((149, [5, 6]), (181, [0, 1])):
        scene = random_scene(np.random.default_rng(seed), kind="line")
        assert _read_right(scene, which) == [True, True], seed


def test_settling_keeps_the_readings_that_read_the_most_halves() -> None:
    from vision.dominoes import _settle, _Tile

    def tile(x: float, score: float = 1.2, pips: tuple[int | None, int | None] = (3, 3), conf: float = 1.0,
             long_sides: float = 0.9) -> _Tile:
        return _Tile(pips, np.array([x, 0.0], np.float32), np.array([1.0, 0.0], np.float32), 20.0,
                     score, conf, 40.0, 0.9, long_sides)

    # A line 4-3, 3-1 read by its seam as a 3-3 that scores best: the two real tiles win.
    a, b, seam = tile(0, 1.20, (4, 3)), tile(41, 1.18, (3, 1)), tile(20.5, 1.25)
    assert {id(t) for t in _settle([a, b, seam])} == {id(a), id(b)}
    # Along a line, with a seam read at every joint, the line's end halves decide.
    line = [tile(41 * i, 1.2, (i, i + 1)) for i in range(4)]
    seams = [tile(41 * i + 20.5, 1.25, (i + 1, i + 1), long_sides=1.0) for i in range(3)]
    assert {id(t) for t in _settle(seams + line)} == {id(t) for t in line}
    # Two doubtful readings, or two that hardly stand out, do not outweigh one clear tile.
    for x, y in ((tile(0, 0.6, (3, None), 0.4), tile(41, 0.6, (None, 3), 0.4)),
                 (tile(0, long_sides=0.3), tile(41, long_sides=0.3))):
        assert [id(t) for t in _settle([x, y, seam])] == [id(seam)]


def test_a_faint_divider_cut_by_its_pin_is_followed_to_its_ends() -> None:
    # Seed 3 (tuning set): light blue bars cut by a brass pin; the stroke found was
    # half the bar and the tiles read half their width, as blanks or not at all.
    # Seed 2: the stroke found was a piece off the bar's centre.
    assert _read_right(random_scene(np.random.default_rng(3), kind="line"), [3, 6, 8]) == [True] * 3
    assert _read_right(random_scene(np.random.default_rng(2), kind="scatter"), [4]) == [True]


def test_a_divider_near_the_tile_edge_on_dark_felt_is_found() -> None:
    # Seed 165 (tuning set): the bar ends a pixel or two from the tile's edge and ran,
    # as a dark mark, into the dark felt beyond it.
    assert _read_right(random_scene(np.random.default_rng(165), kind="line"), [5]) == [True]


def test_a_half_whose_pips_are_lost_never_reads_blank() -> None:
    # Seed 23 at 480x360 (tuning set): a 4 in black beside a 6 in orange (one colour
    # per number): the black pips threshold larger and were dropped as the wrong size,
    # so the 4 read 0. Seed 42 at 800x600: a longer tile size put the pips of a 6 out
    # of the patch, and that reading (1-0) was kept.
    scene = random_scene(np.random.default_rng(23), kind="line", size=(480, 360))
    assert _read_right(scene, [2]) == [True]
    scene = random_scene(np.random.default_rng(42), kind="scatter", size=(800, 600))
    readings = read_dominoes(scene.image)
    near = [r for r in readings if math.dist(r.center, scene.tiles[2].center) < 0.3 * scene.tiles[2].width]
    assert len(near) == 1 and sorted(near[0].pips) == [1, 6]  # type: ignore[type-var]


def test_thin_blue_bars_on_ivory_tiles_are_found() -> None:
    # Seed 84 laid as a line (tuning seed): a 1 px light blue bar on ivory tiles is
    # as light as the ivory in the raw darkest channel (the ivory's blue is low), so
    # no tile of the line was found; scaled to the frame's light, the bar is dark in red.
    scene = random_scene(np.random.default_rng(84), kind="line")
    assert _read_right(scene, list(range(len(scene.tiles)))) == [True] * len(scene.tiles)


def test_an_unsure_reading_not_the_shape_of_a_tile_reads_no_value() -> None:
    # Seed 96 at 800x600 (tuning seed): a 6-3 whose patch came out too short (1.45:1)
    # read its 3 as a 2 (the outer pips cut off) beside an unsure 6.
    scene = random_scene(np.random.default_rng(96), kind="scatter", size=(800, 600))
    tile = scene.tiles[7]
    near = [r for r in read_dominoes(scene.image) if math.dist(r.center, tile.center) < 0.3 * tile.width]
    assert all(v is None or v in tile.pips for r in near for v in r.pips), near


def test_a_clear_small_double_with_a_faint_bar_is_kept() -> None:
    # Seed 190 laid as a line (tuning seed): a 4-4 crosswise, 30 px wide, read right at
    # once and standing out all round, was refused because its 1 px bar showed across
    # only half its width beside the pips.
    scene = random_scene(np.random.default_rng(190), kind="line")
    assert _read_right(scene, [2]) == [True]


def test_a_column_of_pips_is_not_taken_for_the_tile_end() -> None:
    # Seed 92 laid as a line (tuning seed): the ends of a 6-5 were measured at a column
    # of the 6's pips on one side and at the tile's end on the other; the nearer was
    # taken, the patch came out 1.3:1 and both halves read unsure. The end nearer a
    # 2:1 tile is the tile's.
    scene = random_scene(np.random.default_rng(92), kind="line")
    assert _read_right(scene, [2]) == [True]


def test_the_tile_colour_is_sampled_clear_of_pips_beside_the_bar() -> None:
    # Seed 153 (tuning set): a black 6-1 30 px wide; the strips beside its light bar,
    # where the tile's colour is sampled, caught the 6's pips and the bar's halo and
    # the tile was dropped as too uneven. The evenest strip alone gives its colour.
    scene = random_scene(np.random.default_rng(153), kind="line")
    assert _read_right(scene, [1]) == [True]


def test_coloured_bars_on_dim_ivory_tiles_get_the_balanced_look() -> None:
    # Seed 3381 laid as a line (development set): light blue bars and pips, one colour
    # per number, on ivory tiles under dim light. The tile read first looked grey-white
    # (its blue, the lowest channel, under 100), so the pass that scales each colour to
    # the frame's light was skipped as if the tiles were black or white; 5 of 7 tiles
    # were missed.
    scene = random_scene(np.random.default_rng(3381), kind="line")
    assert _read_right(scene, list(range(len(scene.tiles)))) == [True] * len(scene.tiles)


def test_a_faint_bar_on_a_small_tile_on_a_darker_table_is_found() -> None:
    # Seed 3014 as a scatter (development set): a faint light blue bar on an ivory
    # tile on dark wood. Against the plain mean of a block wider than the tile, mostly
    # table, the bar was no darker than its surroundings and no stroke was found; a
    # mean weighted towards the pixel finds it.
    scene = random_scene(np.random.default_rng(3014), kind="scatter")
    assert _read_right(scene, [0]) == [True]


def test_blank_readings_far_from_the_size_of_the_tiles_read_are_dropped() -> None:
    from vision.dominoes import _same_set, _Tile

    def tile(x: float, width: float, pips: tuple[int | None, int | None]) -> _Tile:
        return _Tile(pips, np.array([x, 0.0], np.float32), np.array([1.0, 0.0], np.float32), width,
                     1.2, 1.0 if None not in pips else 0.4, 2 * width, 0.9, 0.9)

    # One tile read with pips (2-0, 30 px wide) and strokes on a grained table read as
    # a blank double and an unsure tile twice its size: one set per table, so they go;
    # a blank of the set's size stays, and so does a tile with pips of any size (its
    # pips vouch for it).
    real, small_blank = tile(0, 30.0, (2, 0)), tile(100, 31.0, (0, 0))
    big_blank, unsure, big_pips = tile(200, 60.0, (0, 0)), tile(300, 58.0, (None, 0)), tile(400, 58.0, (1, 0))
    kept = _same_set([real, small_blank, big_blank, unsure])
    assert [id(t) for t in kept] == [id(real), id(small_blank)]
    assert [id(t) for t in _same_set([real, big_pips])] == [id(real), id(big_pips)]


def test_small_light_tiles_on_dark_felt_get_a_second_look() -> None:
    # Seeds 3019 and 3243 laid as lines (development set): ivory tiles about 31 px wide
    # on dark felt, in a line; their thin bars were no darker than the plain mean of a
    # block wider than the tile, mostly felt, and the tiles were missed. A second look
    # at the dark marks where nothing was read, against a mean weighted towards the
    # pixel, finds them.
    assert _read_right(random_scene(np.random.default_rng(3019), kind="line"), [3]) == [True]
    assert _read_right(random_scene(np.random.default_rng(3243), kind="line"), [2]) == [True]


def _phantoms(scene: object) -> list[tuple[int | None, int | None]]:
    """The readings of ``scene`` whose halves lie on no real tile (extra tiles read)."""
    tiles = scene.tiles  # type: ignore[attr-defined]
    out = []
    for r in read_dominoes(scene.image):  # type: ignore[attr-defined]
        if not any(np.linalg.norm(np.array(c) - np.array(centre)) < 0.3 * t.width
                   for c in r.half_centers() for t in tiles for centre in t.half_centers):
            out.append(r.pips)
    return out


def test_grain_and_clutter_darker_than_the_set_are_not_read_as_tiles() -> None:
    # Seed 3005 as a line on wood and seed 3544 as a scatter on a cluttered table
    # (development set): patches of wood grain read as blank doubles, and printed
    # letters and sticks as unsure tiles; their colour was the table's, far darker than
    # the white tiles read, and their long sides did not stand out all along.
    for seed, kind in ((3005, "line"), (3544, "scatter")):
        scene = random_scene(np.random.default_rng(seed), kind=kind)
        assert _phantoms(scene) == [], seed
        assert _read_right(scene, list(range(len(scene.tiles)))) == [True] * len(scene.tiles), seed


def test_weak_readings_off_the_sets_colour_are_dropped() -> None:
    from vision.dominoes import _same_set, _Tile

    def tile(x: float, pips: tuple[int | None, int | None], level: float, long_sides: float = 0.5) -> _Tile:
        return _Tile(pips, np.array([x, 0.0], np.float32), np.array([1.0, 0.0], np.float32), 30.0,
                     1.2, 1.0 if None not in pips else 0.4, 60.0, 0.6, long_sides, (level, level, level))

    # White tiles (level 230) read with pips: a blank, an unsure and a 1-1 reading of
    # the table's colour (level 120) whose long sides hardly show are the table and go;
    # the same readings in the set's colour stay, and so does one whose long sides stand
    # out all along (a tile in shadow) or one with pips that vouch for it (a 3-2).
    sure = [tile(0, (6, 5), 230.0, 1.0), tile(100, (4, 3), 225.0, 1.0)]
    table = [tile(200, (0, 0), 120.0), tile(300, (None, 2), 120.0), tile(400, (1, 1), 120.0)]
    kept_weak = [tile(500, (0, 0), 215.0), tile(600, (None, 0), 200.0), tile(700, (0, 0), 120.0, 0.9),
                 tile(800, (3, 2), 120.0)]
    kept = _same_set(sure + table + kept_weak)
    assert [id(t) for t in kept] == [id(t) for t in sure + kept_weak]
    # Black tiles (level 25): a blank of a light table (level 150) goes, one of a black
    # tile a little lighter than the rest (level 45: only 20 levels off) stays.
    black = [tile(0, (6, 5), 25.0, 1.0), tile(100, (4, 3), 20.0, 1.0)]
    light_blank, dark_blank = tile(200, (0, 0), 150.0), tile(300, (0, 0), 45.0)
    assert [id(t) for t in _same_set(black + [light_blank, dark_blank])] == [id(t) for t in black + [dark_blank]]


def test_a_blank_double_crosswise_in_a_line_is_read_by_its_neighbours() -> None:
    # Development seeds: a blank double laid crosswise in a line (black tiles on wood or
    # cluttered tables, light tiles on a cluttered table, black on felt). Its long sides
    # touch its neighbours, so its outline shows on under 60 % and it was dropped as a
    # stroke on the table; it touches a read tile's end with a matching half (a 0).
    for seed in (3157, 3189, 3201, 3339):
        scene = random_scene(np.random.default_rng(seed), kind="line")
        assert scene.tiles[0].pips == (0, 0), seed
        assert _read_right(scene, [0]) == [True], seed


def test_a_faint_reading_is_kept_only_in_a_line_with_matching_halves() -> None:
    from vision.dominoes import _in_line, _Tile

    x_axis, y_axis = np.array([1.0, 0.0], np.float32), np.array([0.0, 1.0], np.float32)

    def tile(x: float, y: float, pips: tuple[int, int], axis: np.ndarray, line_only: bool = False) -> _Tile:
        return _Tile(pips, np.array([x, y], np.float32), axis, 30.0, 1.2, 1.0, 60.0,
                     0.4 if line_only else 0.8, 0.4 if line_only else 0.8, (30.0, 30.0, 30.0), line_only)

    anchor = tile(100, 100, (3, 0), x_axis)  # its right end at x = 130
    # A blank double crosswise against the 0 end, and a 0-1 end to end: kept.
    crosswise = tile(145, 100, (0, 0), y_axis, True)
    in_line = tile(160, 100, (0, 1), x_axis, True)
    # Faint readings that do not fit: halves that do not match (a 1-1 crosswise at the
    # 0 end), not touching an end, along the wrong axis, of another width.
    mismatch = tile(145, 100, (1, 1), y_axis, True)
    apart = tile(200, 100, (0, 0), y_axis, True)
    skew = tile(160, 100, (0, 1), np.array([0.8, 0.6], np.float32), True)
    wide = tile(160, 100, (0, 1), x_axis, True)
    wide.width = 40.0
    for t, kept in ((crosswise, True), (in_line, True), (mismatch, False), (apart, False), (skew, False),
                    (wide, False)):
        assert [id(k) for k in _in_line([anchor, t])] == [id(anchor)] + ([id(t)] if kept else []), t.center
    # Two faint readings never vouch for each other: only a tile read on its own does.
    assert _in_line([tile(100, 100, (3, 0), x_axis, True), crosswise]) == []


def test_black_tiles_on_dark_felt_whose_outline_hardly_shows_are_read_in_a_line() -> None:
    # Development seed 3317: black tiles on dark felt in a line; the first four (1-1,
    # 1-0, 0-0 crosswise, 0-5) show their edge on under a fifth of their outline, too
    # little alone, but each touches a tile read (or kept so) with a matching half.
    scene = random_scene(np.random.default_rng(3317), kind="line")
    assert _read_right(scene, [0, 1, 2, 3]) == [True] * 4
    assert _phantoms(scene) == []
