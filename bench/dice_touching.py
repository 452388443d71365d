"""Dice touching each other: groups of drawn dice side by side in 1280x720 frames, read by ``read_dice``.

Usage: ``python bench/dice_touching.py [--rows N] [--seam W ...] [--layout L ...] [--seed S] [--errors]``

No photo set holds many dice that touch, so this bench draws them
(``vision.synth.render_touching``): groups ("rows") of 2 to 5 dice, 40 to 70 px
wide, each touching the next, half of them square to the frame and half turned
by up to 90 degrees; white dice with black pips, red with white and black with
white, a group each in turn; the values at random. ``--layout`` sets how they
touch (repeatable; default all four): ``row``, side by side in a straight
line; ``staggered``, the same with every other die moved a quarter of a die
aside; ``block``, two dice wide; ``scattered``, each at a turn of its own,
touching a die set before it, as dice come to rest after a throw (run once:
dice turned apart share no edge for a groove). Group ``k`` is drawn from seed
``SEED * 1000 + k``, so a run is the same every time.

Drawn dice have sharp edges: two of one colour side by side are one plain
block, and the pips of a row lie on one even grid, so that only the seam
between them tells where one die ends. Real dice have rounded edges that leave
a darker groove where they touch. ``--seam`` sets its width in pixels (drawn in
the die's colour at 60 %; 0: none, the hardest case; default: 0 and 4, each
its own run: about a tenth of a die, as a rounded edge leaves).

A die is matched by a reading whose centre lies within half a die of its
centre; the figures are those of ``bench/dice_accuracy.py`` (a "photo" is a
row). OpenCV and numpy's BLAS are limited to one thread.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: numpy's matrix products too (before numpy loads)
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.dice_accuracy import Tally, drawn_labels, report, timed_score  # noqa: E402
from vision.dice import read_dice  # noqa: E402
from vision.synth import LAYOUTS, TOUCHING_COLOURS, render_touching  # noqa: E402


def row(k: int, seed: int, seam: float, layout: str = "row") -> tuple[np.ndarray, list[dict], str]:
    """Group ``k`` of a run: the frame, its dice as labels (value, box half a die round the centre), and its name."""
    rng = np.random.default_rng(seed * 1000 + k)
    n = int(rng.integers(2, 6))
    die = float(rng.uniform(40.0, 70.0))
    angle = float(rng.uniform(0.0, 90.0)) if k % 2 else 0.0
    values = rng.integers(1, 7, n).tolist()
    img, truth = render_touching(values, die=die, angle=angle, seam=seam, layout=layout, colours=TOUCHING_COLOURS[k % len(TOUCHING_COLOURS)], seed=k)
    labels = drawn_labels(truth, die)
    return img, labels, f"row{k}:{''.join(map(str, values))}@{die:.0f}px,{angle:.0f}deg"


def run(rows: int, seed: int, seam: float, layout: str = "row") -> Tally:
    """Read ``rows`` groups of touching dice set as ``layout``, with grooves ``seam`` px wide."""
    tally = Tally()
    for k in range(rows):
        img, labels, name = row(k, seed, seam, layout)
        timed_score(tally, name, labels, lambda: read_dice(img))
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=90, help="rows of dice per seam width (default 90)")
    ap.add_argument("--seam", type=float, action="append", metavar="W", help="width of the groove between touching dice, px (repeatable; default 0 and 4)")
    ap.add_argument("--layout", action="append", choices=LAYOUTS, help="how the dice touch (repeatable; default all)")
    ap.add_argument("--seed", type=int, default=0, help="which rows (default 0)")
    ap.add_argument("--errors", action="store_true", help="list the rows that were not read exactly")
    args = ap.parse_args(argv)
    if args.rows < 1:
        ap.error(f"--rows {args.rows}: at least 1")
    seams = args.seam if args.seam else [0.0, 4.0]
    if any(not 0 <= w <= 10 for w in seams):
        ap.error(f"--seam {' '.join(map(str, seams))}: each 0 to 10 pixels")
    cv2.setNumThreads(1)
    for layout in args.layout or LAYOUTS:
        if layout == "scattered":  # (dice turned apart share no edge to draw a groove along: one run)
            print(report(f"touching dice, {layout}", "turned apart, no groove", run(args.rows, args.seed, 0.0, layout), args.errors))
            continue
        for w in seams:
            print(report(f"touching dice, {layout}", f"seam {w:g} px", run(args.rows, args.seed, w, layout), args.errors))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
