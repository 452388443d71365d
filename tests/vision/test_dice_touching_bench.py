"""bench/dice_touching.py and the rows it draws (vision.synth.render_touching): dice side by side, each
touching the next, with or without a groove between them; the same rows every run."""

from __future__ import annotations

import numpy as np
import pytest

from bench.dice_touching import main, row
from vision.synth import LAYOUTS, TOUCHING_COLOURS, render_touching


def test_a_row_of_dice_touches_with_a_groove_in_the_dies_colour_between_them() -> None:
    img, truth = render_touching([2, 6, 3], die=60.0, seam=4.0, noise=0.0)
    assert [v for v, _ in truth] == [2, 6, 3]
    (x0, y0), (x1, y1), (x2, _) = (c for _, c in truth)
    assert (x1 - x0, x2 - x1, y1 - y0) == (60.0, 60.0, 0.0) and (x1, y1) == (640.0, 360.0)  # (touching, centred)
    body = TOUCHING_COLOURS[0][0]
    groove = img[360 + 25, round(x0 + 30)]  # (between the first two dice, below the pips)
    face = img[360 + 25, round(x0 + 20)]
    assert np.abs(face.astype(int) - body).max() <= 3 and np.abs(groove.astype(int) - np.multiply(body, 0.6)).max() <= 20
    plain, _ = render_touching([2, 6, 3], die=60.0, seam=0.0, noise=0.0)
    assert np.abs(plain[360 + 25, round(x0 + 30)].astype(int) - body).max() <= 3  # (no groove: one plain block)


def test_dice_touch_in_a_staggered_row_and_in_a_block_with_grooves_where_they_touch() -> None:
    die = 60.0
    _, row = render_touching([1, 2, 3], die=die, noise=0.0)
    _, staggered = render_touching([1, 2, 3], die=die, layout="staggered", noise=0.0)
    assert [round(y - 360) for _, (_, y) in staggered] == [-8, 8, -8]  # (every other die a quarter of a die aside)
    assert [x for _, (x, _) in staggered] == [x for _, (x, _) in row]
    img, block = render_touching([1, 2, 3, 4], die=die, seam=4.0, layout="block", noise=0.0)
    assert [(round(x - 640), round(y - 360)) for _, (x, y) in block] == [(-30, -30), (30, -30), (-30, 30), (30, 30)]
    body = np.array(TOUCHING_COLOURS[0][0])
    for x, y in ((640, 360 - 45), (640, 360 + 45), (640 - 45, 360), (640 + 45, 360)):  # (the grooves between the four, off their pips)
        assert np.abs(img[y, x].astype(int) - 0.6 * body).max() <= 20, (x, y)
    assert np.abs(img[360 - 45, 640 - 45].astype(int) - body).max() <= 3  # (a die's face)
    with pytest.raises(ValueError, match="unknown layout 'heap'"):
        render_touching([1, 2], layout="heap")
    assert LAYOUTS == ("row", "staggered", "block", "scattered")


def test_scattered_dice_each_touch_a_die_set_before_and_overlap_none() -> None:
    from vision.synth import _layout, _overlap, _square

    for seed in range(5):
        spots = _layout(4, "scattered", np.random.default_rng(seed))
        squares = [_square(*spot) for spot in spots]
        assert not any(_overlap(a, b) for i, a in enumerate(squares) for b in squares[i + 1 :])
        for i, (x, y, _) in enumerate(spots[1:], 1):
            grown = (squares[i] - (x, y)) * 1.05 + (x, y)  # (the die a hair larger about its centre)
            assert any(_overlap(grown, sq) for sq in squares[:i])  # (it touches a die set before it)
    img, truth = render_touching([1, 2, 3], layout="scattered", seed=3, noise=0.0)
    again, _ = render_touching([1, 2, 3], layout="scattered", seed=3, noise=0.0)
    assert np.array_equal(img, again) and len(truth) == 3


def test_the_bench_draws_the_same_rows_every_run() -> None:
    a, labels, name = row(5, 0, 4.0)
    b, _, _ = row(5, 0, 4.0)
    assert np.array_equal(a, b) and name == "row5:5426@64px,46deg" and [d["value"] for d in labels] == [5, 4, 2, 6]
    x0, y0, x1, y1 = labels[0]["box"]
    assert x1 - x0 == y1 - y0 == pytest.approx(64.0, abs=0.5)  # (half a die round each centre)


def test_the_bench_prints_each_layouts_and_seams_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--rows", "2", "--seam", "0", "--seam", "4", "--layout", "row", "--layout", "block"]) == 0
    out = capsys.readouterr().out
    assert "touching dice, row / seam 0 px: 2 photos" in out and "touching dice, block / seam 4 px: 2 photos" in out
    assert out.count("per-die accuracy") == 4 and out.count("confusion (rows label, cols read):") == 4
    assert main(["--rows", "1", "--seam", "0", "--seam", "4"]) == 0
    heads = [line.split(":")[0] for line in capsys.readouterr().out.splitlines() if "photos," in line]
    assert heads == [f"touching dice, {layout} / seam {w} px" for layout in LAYOUTS[:3] for w in (0, 4)] + ["touching dice, scattered / turned apart, no groove"]


def test_the_bench_refuses_a_seam_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--seam", "12"])
    assert "--seam 12.0: each 0 to 10 pixels" in capsys.readouterr().err
