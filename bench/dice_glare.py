"""Glare: drawn dice with a highlight of glossy plastic under a lamp, in 1280x720 frames, read by ``read_dice``.

Usage: ``python bench/dice_glare.py [--photos N] [--strength S ...] [--where W ...] [--seed S] [--errors]``

No photo set says which of its dice shine, so this bench draws them
(``vision.synth.render_glare``): pictures of 5 dice lying apart, 40 to 70 px
wide, at turns of their own; white dice with black pips, red with white and
black with white, a picture each in turn; the values at random. Each die has
one highlight, a soft spot that brightens the picture ``--strength`` of the
way to white at its centre (repeatable; default 0.6 and 0.9). ``--where``
(repeatable; default both): ``pip``, in one of its pips, smaller than the pip
(a glossy pip); ``face``, anywhere on its face, as big as a pip and up to half
as big again (a glossy face: on a dark die, a light spot the size of a pip).
The same pictures without highlights are read first, as the figures to
compare with. Picture ``k`` is drawn from seed ``SEED * 1000 + k``, so a run
is the same every time.

The figures are those of ``bench/dice_accuracy.py`` (a die is matched by a
reading whose centre lies within half a die of its centre), and a line of
the dice right per colour. OpenCV and numpy's BLAS are limited to one thread.
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

from bench.dice_accuracy import Tally, drawn_labels, report, score, timed_score  # noqa: E402
from vision.dice import read_dice  # noqa: E402
from vision.synth import GLARE, TOUCHING_COLOURS, render_glare  # noqa: E402

COLOUR_NAMES = ("white, black pips", "red, white pips", "black, white pips")
"""The names of ``TOUCHING_COLOURS``' die and pip colours, in its order."""


def picture(k: int, seed: int, where: str, strength: float) -> tuple[np.ndarray, list[dict], str]:
    """Picture ``k`` of a run: the frame, its dice as labels (value, box half a die round the centre), and its name."""
    rng = np.random.default_rng(seed * 1000 + k)
    die = float(rng.uniform(40.0, 70.0))
    values = rng.integers(1, 7, 5).tolist()
    colours = TOUCHING_COLOURS[k % len(TOUCHING_COLOURS)]
    img, truth = render_glare(values, where=where, strength=strength, die=die, colours=colours, seed=seed * 1000 + k)
    labels = drawn_labels(truth, die)
    return img, labels, f"glare{k}:{''.join(map(str, values))}@{die:.0f}px"


def run(photos: int, seed: int, where: str, strength: float) -> tuple[Tally, list[Tally]]:
    """Read ``photos`` pictures with highlights ``where`` of ``strength``: the figures, in all and per colour."""
    tally, by_colour = Tally(), [Tally() for _ in TOUCHING_COLOURS]
    for k in range(photos):
        img, labels, name = picture(k, seed, where, strength)
        readings = timed_score(tally, name, labels, lambda: read_dice(img))
        score(by_colour[k % len(TOUCHING_COLOURS)], name, labels, readings)
    return tally, by_colour


def colour_line(by_colour: list[Tally]) -> str:
    return "  dice right per colour: " + ", ".join(f"{name} {t.right}/{t.labelled}" for name, t in zip(COLOUR_NAMES, by_colour))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=int, default=60, help="pictures of 5 dice per kind of glare (default 60)")
    ap.add_argument("--strength", type=float, action="append", metavar="S", help="how far to white a highlight brightens, 0 to 1 (repeatable; default 0.6 and 0.9)")
    ap.add_argument("--where", action="append", choices=GLARE, help="where the highlight lies (repeatable; default both)")
    ap.add_argument("--seed", type=int, default=0, help="which pictures (default 0)")
    ap.add_argument("--errors", action="store_true", help="list the pictures that were not read exactly")
    args = ap.parse_args(argv)
    if args.photos < 1:
        ap.error(f"--photos {args.photos}: at least 1")
    strengths = args.strength if args.strength else [0.6, 0.9]
    if any(not 0 < s <= 1 for s in strengths):
        ap.error(f"--strength {' '.join(map(str, strengths))}: each above 0 and at most 1")
    cv2.setNumThreads(1)
    tally, by_colour = run(args.photos, args.seed, GLARE[0], 0.0)
    print(report("glare", "none (the same pictures)", tally, args.errors))
    print(colour_line(by_colour))
    for where in args.where or GLARE:
        for s in strengths:
            tally, by_colour = run(args.photos, args.seed, where, s)
            print(report("glare", f"on a {where}, {s:g} of the way to white", tally, args.errors))
            print(colour_line(by_colour))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
