"""diff_layout: a tile newly laid on the line becomes a proposed play on the end it touches."""

from __future__ import annotations

import numpy as np
import pytest

from vision.domino_synth import SynthTile, random_scene
from vision.dominoes import LayoutChangeError, diff_layout, layout_from_tiles
from vision.types import TileReading


def _reading(t: SynthTile) -> TileReading:
    (x0, y0), (x1, y1) = t.half_centers
    angle = float(np.degrees(np.arctan2(y1 - y0, x1 - x0)))
    return TileReading(t.pips, t.center, angle, 1.0, t.corners)


def _tile(a: int, b: int, x: float, y: float = 0.0, vertical: bool = False) -> TileReading:
    if vertical:  # a double crosswise: 20 wide (x), 40 long (y)
        return TileReading((a, b), (x, y), 90.0, 1.0, ((x + 10, y - 20), (x + 10, y + 20), (x - 10, y + 20), (x - 10, y - 20)))
    return TileReading((a, b), (x, y), 0.0, 1.0, ((x - 20, y - 10), (x + 20, y - 10), (x + 20, y + 10), (x - 20, y + 10)))


@pytest.mark.parametrize("seed", range(40))
def test_last_tile_of_a_generated_line_is_proposed_on_its_end(seed: int) -> None:
    scene = random_scene(np.random.default_rng(seed), kind="line")
    line = [_reading(scene.tiles[i]) for i in scene.chain]
    checked = 0
    for k in range(len(line)):
        rest = line[:k] + line[k + 1 :]
        before = layout_from_tiles(rest)
        if len(rest) > 1 and (before.loose or len(before.chain) + sum(map(len, before.branches)) != len(rest)):
            continue  # taking tile k away splits the line: it was not laid last
        prop = diff_layout(before, layout_from_tiles(line))
        assert prop is not None, (seed, k)
        assert sorted(prop.tile) == sorted(line[k].pips)
        assert prop.index == k
        if rest:
            # The half laid on the end shows the end's value, and it touches that tile.
            assert prop.onto is not None and prop.end_pips == prop.tile[0]
            assert prop.end_pips in before.tiles[prop.onto].pips
        checked += 1
    assert checked >= 1


def test_worked_example_spinner_and_first_tile() -> None:
    t35, t55, t50 = _tile(3, 5, 0), _tile(5, 5, 31, vertical=True), _tile(5, 0, 62)
    empty = layout_from_tiles([])
    first = diff_layout(empty, layout_from_tiles([t55]))
    assert first is not None and first.tile == (5, 5) and first.end_pips is None and first.onto is None
    # 5-0 laid on the right of the 5-5 spinner: the 5 half goes on the end.
    prop = diff_layout(layout_from_tiles([t35, t55]), layout_from_tiles([t35, t55, t50]))
    assert prop is not None and prop.tile == (5, 0) and prop.end_pips == 5 and prop.onto == 1
    # 0-2 on the 0 end; 1-3 on the 3 end (left): the half on the end comes first.
    prop = diff_layout(layout_from_tiles([t35, t55, t50]), layout_from_tiles([t35, t55, t50, _tile(0, 2, 103)]))
    assert prop is not None and prop.tile == (0, 2) and prop.end_pips == 0 and prop.onto == 2
    prop = diff_layout(layout_from_tiles([t35, t55, t50]), layout_from_tiles([_tile(1, 3, -41), t35, t55, t50]))
    assert prop is not None and prop.tile == (3, 1) and prop.end_pips == 3 and prop.onto == 0 and prop.index == 0
    # A tile laid on the spinner's side (an arm going up).
    up = TileReading((1, 5), (31, -40), 90.0, 1.0, ((41, -60), (41, -20), (21, -20), (21, -60)))
    prop = diff_layout(layout_from_tiles([t35, t55, t50]), layout_from_tiles([t35, t55, t50, up]))
    assert prop is not None and prop.tile == (5, 1) and prop.onto == 1
    assert prop.to_dict()["tile"] == [5, 1]


def test_no_change_and_shifted_tiles_give_no_proposal() -> None:
    before = layout_from_tiles([_tile(3, 5, 0), _tile(5, 0, 41)])
    assert diff_layout(before, before) is None
    shifted = layout_from_tiles([_tile(3, 5, 2, 1), _tile(5, 0, 43, 1)])
    assert diff_layout(before, shifted) is None
    # A tile put down away from the line is not a play.
    assert diff_layout(before, layout_from_tiles([_tile(3, 5, 0), _tile(5, 0, 41), _tile(6, 6, 300, 300)])) is None


def test_changes_that_are_not_one_play_are_refused_with_a_reason() -> None:
    before = layout_from_tiles([_tile(3, 5, 0), _tile(5, 0, 41)])
    with pytest.raises(LayoutChangeError, match="3-5 of the line is not seen"):
        diff_layout(before, layout_from_tiles([_tile(5, 0, 41), _tile(0, 2, 82)]))
    with pytest.raises(LayoutChangeError, match="2 new tiles"):
        diff_layout(before, layout_from_tiles([_tile(3, 5, 0), _tile(5, 0, 41), _tile(0, 2, 82), _tile(1, 3, -41)]))
    with pytest.raises(LayoutChangeError, match="no half matches"):
        diff_layout(before, layout_from_tiles([_tile(3, 5, 0), _tile(5, 0, 41), _tile(4, 2, 82)]))
    with pytest.raises(LayoutChangeError, match="cannot be read"):
        diff_layout(before, layout_from_tiles([_tile(3, 5, 0), _tile(5, 0, 41), TileReading((0, None), (82, 0), 0.0, 0.4, ((62, -10), (102, -10), (102, 10), (62, 10)))]))
