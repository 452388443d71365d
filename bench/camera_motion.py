"""How long a settler takes to tell how a bumped camera moved its picture: median and p95 milliseconds.

Usage: ``python bench/camera_motion.py DATA_DIR [--repeat N] [--against REV]``

A settler looks for a bump of its camera (``vision.settle``) in two places:

- on a throw's answer frame (``_Relighting``): the picture put back by a shift alone
  (``camera_shift``) is not the answer's when the dice moved, which they do on every
  throw, so it then looks for a turn as well (``camera_motion``); today both are one
  ``MotionSearch``, asked for a shift and then for a turn. The line "shift, then turn";
- at rest with zones, every ``FOLLOW_SECONDS`` (``ZonesFollower``): one ``camera_motion``.
  The line "motion alone".

The frames are the real photos of ``bench/dice_speed.py`` (``real_frames``: 1, 5 and
10 labelled dice, 1280x720), the frame after each one moved as the camera moved it
(``vision.synth.nudged``), each with a camera's noise (``bench.dice_accuracy.noisy``), the
dice read in the photo (``vision.dice.read_dice``) left out where they lie: "unmoved" is
a throw's case (the camera still), then a nudge of (8, 4), turns of 0.3 and 1 degree, and
a move of (10, -5) with a turn of 2.5 degrees. "put back" counts the answers that put every
corner of the frame within 1.5 pixels of where the motion put it. OpenCV and numpy run
on one thread. ``--against REV`` times that git revision's ``vision.settle`` too, in
turns with today's (one before ``camera_motion``, the thirty-third session, looks
for a shift alone).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import importlib  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from types import ModuleType  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.dice_accuracy import noisy  # noqa: E402
from bench.dice_speed import W, H, real_frames, vision_at  # noqa: E402
from vision import settle  # noqa: E402
from vision.dice import read_dice  # noqa: E402
from vision.synth import nudged  # noqa: E402
from vision.types import Motion, box_moved  # noqa: E402

MOTIONS = (("unmoved (a throw)", Motion()), ("nudged (8, 4)", Motion(8, 4)), ("turned 0.3 degree", Motion(0, 0, 0.3)),
           ("turned 1 degree", Motion(0, 0, 1.0)), ("moved (10, -5), turned 2.5 degrees", Motion(10, -5, 2.5)))
"""The camera's motions timed, by name."""

Box = tuple[float, float, float, float]
Look = Callable[[np.ndarray, np.ndarray, Sequence[Box]], object]


def looks(module: ModuleType) -> dict[str, Look]:
    """A revision's ``vision.settle`` ``module``'s two looks for a bump, by line: a throw's (a shift, then a turn:
    one ``MotionSearch`` where it has one, else ``camera_shift`` then ``camera_motion``, else a shift alone) and
    the zones' (``camera_motion``, else ``camera_shift``). Each gives a ``Motion`` or a shift (dx, dy)."""
    search = getattr(module, "MotionSearch", None)
    shift, motion = module.camera_shift, getattr(module, "camera_motion", None)

    def throw(before: np.ndarray, after: np.ndarray, hide: Sequence[Box]) -> object:
        if search is not None:
            s = search(before, after, hide)
            s(turn=0.0)
            return s(turn=module.NUDGE_TURN)
        found = shift(before, after, hide)
        return motion(before, after, hide) if motion is not None else found

    def zones(before: np.ndarray, after: np.ndarray, hide: Sequence[Box]) -> object:
        return motion(before, after, hide) if motion is not None else shift(before, after, hide)

    return {"shift, then turn": throw, "motion alone": zones}


def corner_off(got: object, want: Motion, size: tuple[int, int]) -> float:
    """How far (pixels) ``got`` (a ``Motion``, or a shift) puts a corner of a frame of ``size`` from where ``want`` puts it."""
    found = Motion(got.dx, got.dy, got.turn) if hasattr(got, "turn") else Motion(*got)  # type: ignore[attr-defined,misc]  # (a revision's own Motion, or a shift)
    w, h = size
    corners = np.array([[0, 0, 1], [w - 1, 0, 1], [0, h - 1, 1], [w - 1, h - 1, 1]], np.float64)
    return float(np.abs(corners @ found.matrix(size).T - corners @ want.matrix(size).T).max())


def cases(frames: Sequence[np.ndarray], motion: Motion, rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray, list[Box]]]:
    """(frame before, frame after the camera moved by ``motion``, the dice to leave out) for each of ``frames``."""
    out = []
    for f in frames:
        boxes: list[Box] = [tuple(float(v) for v in r.box) for r in read_dice(f) if r.box is not None]  # type: ignore[misc]
        m = motion.matrix((W, H))
        out.append((noisy(f, rng), noisy(nudged(f, motion), rng), boxes + [box_moved(box, m) for box in boxes]))
    return out


def measure(todo: Sequence[tuple[np.ndarray, np.ndarray, list[Box]]], motion: Motion, repeat: int, ways: Sequence[Look]) -> list[tuple[float, float, int]]:
    """Median and p95 milliseconds of each way, taking turns on every case, and how many of its answers put the frame back."""
    times: list[list[float]] = [[] for _ in ways]
    right = [0 for _ in ways]
    for r in range(repeat):
        for before, after, hide in todo:
            for k in range(len(ways)) if r % 2 == 0 else reversed(range(len(ways))):
                t0 = time.perf_counter()
                got = ways[k](before, after, hide)
                times[k].append(1000 * (time.perf_counter() - t0))
                right[k] += r == 0 and corner_off(got, motion, (W, H)) <= 1.5
    out = []
    for t, n in zip(times, right):
        t.sort()
        out.append((statistics.median(t), t[min(len(t) - 1, int(0.95 * len(t)))], n))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--against", metavar="REV", help="time this git revision's vision.settle too, in turns with today's")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error(f"--repeat {args.repeat}: expected 1 or more")
    cv2.setNumThreads(1)
    frames = [f for n in (1, 5, 10) for f in real_frames(args.data_dir, n)]
    if not frames:
        ap.error(f"no photos with 1, 5 or 10 labelled dice in {args.data_dir}")
    modules, names = [settle], ["now"]
    with tempfile.TemporaryDirectory(prefix="camera_motion_") as tmp:
        if args.against:
            modules.append(importlib.import_module(f"{vision_at(args.against, Path(tmp))}.settle"))
            names.append(args.against)
        print(f"a settler's look for a bumped camera, {len(frames)} real frames {W}x{H}, one thread "
              f"(median / p95 ms, put back{': ' + ', '.join(names) if len(names) > 1 else ''})")
        rng = np.random.default_rng(0)
        for label, motion in MOTIONS:
            todo = cases(frames, motion, rng)
            for line in ("shift, then turn", "motion alone"):
                figures = measure(todo, motion, args.repeat, [looks(m)[line] for m in modules])
                print(f"  {label}, {line}: " + "   ".join(f"{med:5.1f} / {p95:5.1f}, {n:2d} of {len(todo)}" for med, p95, n in figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
