"""bench/dice_touching.py and the rows it draws (vision.synth.render_touching): dice side by side, each
touching the next, with or without a groove between them; the same rows every run."""

from __future__ import annotations

import numpy as np
import pytest

from bench.dice_touching import main, row
from vision.synth import TOUCHING_COLOURS, render_touching


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


def test_the_bench_draws_the_same_rows_every_run() -> None:
    a, labels, name = row(5, 0, 4.0)
    b, _, _ = row(5, 0, 4.0)
    assert np.array_equal(a, b) and name == "row5:5426@64px,46deg" and [d["value"] for d in labels] == [5, 4, 2, 6]
    x0, y0, x1, y1 = labels[0]["box"]
    assert x1 - x0 == y1 - y0 == pytest.approx(64.0, abs=0.5)  # (half a die round each centre)


def test_the_bench_prints_each_seams_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--rows", "2", "--seam", "0", "--seam", "4"]) == 0
    out = capsys.readouterr().out
    assert "touching dice / seam 0 px: 2 photos" in out and "touching dice / seam 4 px: 2 photos" in out
    assert out.count("per-die accuracy") == 2 and out.count("confusion (rows label, cols read):") == 2


def test_the_bench_refuses_a_seam_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--seam", "12"])
    assert "--seam 12.0: each 0 to 10 pixels" in capsys.readouterr().err
