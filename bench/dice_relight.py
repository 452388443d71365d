"""A change of light over dice at rest, or a camera nudged, with a real settler: phantom rolls it makes, and throws still answered.

Usage: ``python bench/dice_relight.py DATA_DIR [--set NAME] [--part tune|held|all] [--change NAME ...] [--seed N] [--turned N] [--zones]``

A change of light (a lamp switched, one to a side, a spot, a camera's exposure
or white balance) is motion to a settler (:class:`vision.settle.Settler`), so it
looks again once the picture rests, and a die the reader then reads otherwise
(another value, no longer found, a speck read as a die) would be a new roll: a
phantom roll, which a game would score. Each photo of a set's part, in a
1280x720 frame, is a table (a new settler with a camera's reader,
:func:`vision.dice.camera_reader`, asking ``camera.dice_confidence``'s default
0.7 of each die): a hand over it for two frames, then eight frames at rest, each
with a camera's noise of its own (:func:`~bench.dice_accuracy.noisy`), 0.1 s
apart. A table that answered then sees a hand again and eight frames of the
photo changed, for each ``--change`` (default all):

- ``darker``, ``lighter``: every channel times 0.8 or 1.25 (clipped at 255);
- ``lamp to the right``: times 0.7 at the left edge to 1.1 at the right;
- ``spot``: times 1.15 under a lamp left of the centre, 0.4 less a frame's width away;
- ``cooler white balance``: blue times 1.12, red times 0.88;
- ``camera nudged N px`` (N 2, 4, 8, 16, 32): the picture moved N pixels right and N/2 down, as a camera on a
  table that is bumped sees it (what comes in at the edges: the picture's mirror), in the same light;
- ``camera turned 0.4°``, ``camera turned 1°``: the picture turned so counter-clockwise about the frame's centre
  (its corners move 5 and 13 px); ``camera turned 2.5°, 10 px``: moved 10 px right and 5 up, then turned 2.5°
  clockwise.

Printed for each: the tables answered, and how many then took a roll (each one
a phantom: the dice lie where they lay on the table). Then, so that no real throw is taken for a change of light,
consecutive photos of the part as one table's throws (a hand, eight frames of
the one, a hand, eight of the next): after how many answers the next throw was
answered too. Last, drawn dice (:func:`vision.synth.draw_die`, 45 px) where a
hand turns one die to another face where it lay (from each of its first
``--turned`` values, default all six, to the next two), in the same light and a
darker one: how many of those turns were answered as a roll (each should be).
OpenCV and numpy's BLAS are limited to one thread; ``--seed`` draws other noise.

With ``--zones`` each change is also seen by tables with zones (:data:`ZONES`),
whose settler moves them with the picture of a camera nudged (the module
docstring of :mod:`vision.settle`, point 6), the changed picture seen for
``FOLLOW_SECONDS`` longer (a nudge too slight to be motion is looked for so):
printed for each change, of the tables answered, on how many the zones then
lay as the picture did (moved by the nudge; not moved in another light), and
on how many otherwise.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, as the other benches (before numpy loads)
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.dice_accuracy import in_frame, noisy, part_photos, photo  # noqa: E402
from vision.dice import camera_reader  # noqa: E402
from vision.settle import FOLLOW_SECONDS, Motion, Settler  # noqa: E402
from vision.synth import draw_die, nudged  # noqa: E402
from vision.zones import Zones  # noqa: E402

FRAME = (1280, 720)
CONFIDENCE = 0.7
"""What the table's settler asks of each die: ``camera.dice_confidence``'s default."""


def _across(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """x and y from 0 to 1 across a picture of ``shape``, shaped to multiply its pixels."""
    h, w = shape[:2]
    return np.linspace(0.0, 1.0, w)[None, :, None], np.linspace(0.0, 1.0, h)[:, None, None]


LIGHTS: dict[str, Callable[[tuple[int, ...]], np.ndarray]] = {
    "darker": lambda shape: np.full((1, 1, 1), 0.8),
    "lighter": lambda shape: np.full((1, 1, 1), 1.25),
    "lamp to the right": lambda shape: 0.7 + 0.4 * _across(shape)[0],
    "spot": lambda shape: 1.15 - 0.4 * np.hypot(_across(shape)[0] - 0.4, _across(shape)[1] - 0.5),
    "cooler white balance": lambda shape: np.array([1.12, 1.0, 0.88])[None, None, :],
}
"""Each change of light: a factor for each pixel and channel (BGR) of a picture of a shape."""


def in_light(frame: np.ndarray, light: str) -> np.ndarray:
    """``frame`` in the ``light`` (:data:`LIGHTS`), clipped as a camera clips."""
    return np.clip(frame * LIGHTS[light](frame.shape), 0, 255).astype(np.uint8)


NUDGES: dict[str, Motion] = {
    **{f"camera nudged {n} px": Motion(n, n // 2) for n in (2, 4, 8, 16, 32)},
    "camera turned 0.4°": Motion(0, 0, 0.4),
    "camera turned 1°": Motion(0, 0, 1.0),
    "camera turned 2.5°, 10 px": Motion(10, -5, -2.5),
}
"""Each nudge of the camera: how it moves the picture (:class:`vision.types.Motion`: a shift, then a turn about the
frame's centre; :func:`vision.synth.nudged`)."""


CHANGES = (*LIGHTS, *NUDGES)
"""Every change a table at rest sees: the lights, then the nudges."""


def changed(frame: np.ndarray, change: str) -> np.ndarray:
    """``frame`` after the ``change`` (:data:`CHANGES`): in a light, or seen by a camera nudged."""
    return nudged(frame, NUDGES[change]) if change in NUDGES else in_light(frame, change)


def hand(frame: np.ndarray) -> np.ndarray:
    """``frame`` with a hand (a skin-coloured ellipse) over its middle."""
    out = frame.copy()
    cv2.ellipse(out, (FRAME[0] // 2, FRAME[1] // 2), (260, 170), 20, 0, 360, (120, 160, 215), -1)
    return out


ZONES = {"size": list(FRAME), "zones": {"tray": [[0, 0], [853, 0], [853, 720], [0, 720]], "kept": [[853, 0], [1280, 0], [1280, 720], [853, 720]]}}
"""The zones of a table with ``--zones``: the left two thirds of the frame the tray, the rest where kept dice are set aside."""


class Table:
    """A table's settler fed frames 0.1 s apart (with ``zones``: reading in them)."""

    def __init__(self, zones: Zones | None = None) -> None:
        self.settler = Settler(camera_reader(), min_confidence=CONFIDENCE, zones=zones)
        self.now = 0.0

    def throw(self, frame: np.ndarray, rng: np.random.Generator, frames: int = 8) -> int:
        """A hand over the table for two frames, then ``frames`` at rest: how many rolls the settler answered."""
        rolls = 0
        for f in [hand(frame)] * 2 + [noisy(frame, rng) for _ in range(frames)]:
            self.now += 0.1
            rolls += self.settler.feed(f, self.now) is not None
        return rolls


def phantoms(frames: Sequence[np.ndarray], change: str, rng: np.random.Generator) -> tuple[int, int]:
    """Of ``frames`` (each a table), how many were answered, and how many of those then took a roll after the
    ``change`` (:func:`changed`)."""
    answered = phantom = 0
    for frame in frames:
        table = Table()
        if table.throw(frame, rng):
            answered += 1
            phantom += table.throw(changed(frame, change), rng) > 0
    return answered, phantom


def zones_followed(frames: Sequence[np.ndarray], change: str, rng: np.random.Generator) -> tuple[int, int, int]:
    """Of ``frames`` (each a table with :data:`ZONES`), how many were answered, and of those, after the ``change``
    (:func:`changed`), on how many the zones lay as the picture did (moved by the nudge, each corner within 1.5
    pixels; not moved in another light), and on how many otherwise."""
    zones = Zones.from_calibration(ZONES)
    answered = right = wrong = 0
    for frame in frames:
        table = Table(zones)
        if table.throw(frame, rng):
            answered += 1
            table.throw(changed(frame, change), rng, frames=8 + round(FOLLOW_SECONDS / 0.1))  # (a nudge too slight to be motion: looked for after a while)
            motion = NUDGES.get(change, Motion())
            want = zones.moved(motion, FRAME) if motion != Motion() else zones
            got = table.settler.zones
            if (got is zones) if want is zones else _corners_off(got, want) <= 1.5:
                right += 1
            else:
                wrong += 1
    return answered, right, wrong


def _corners_off(a: Zones, b: Zones) -> float:
    """How far (calibration pixels) a corner of a zone or area left out of ``a`` lies from the same one of ``b``, at most."""
    pa, pb = a.to_calibration(), b.to_calibration()
    points = [(p, q) for name in pa["zones"] for p, q in zip(pa["zones"][name], pb["zones"][name])]
    points += [(p, q) for area, other in zip(pa.get("ignore", []), pb.get("ignore", [])) for p, q in zip(area, other)]
    return max(max(abs(p[0] - q[0]), abs(p[1] - q[1])) for p, q in points)


def next_throws(frames: Sequence[np.ndarray], rng: np.random.Generator) -> tuple[int, int]:
    """Consecutive ``frames`` as one table's throws: how many first throws were answered, and how many next ones after them."""
    first = second = 0
    for a, b in zip(frames, frames[1:]):
        table = Table()
        if table.throw(a, rng):
            first += 1
            second += table.throw(b, rng) > 0
    return first, second


def turned(rng: np.random.Generator, befores: Sequence[int] = range(1, 7), die: float = 45.0) -> tuple[int, int]:
    """Drawn dice, a die of each of ``befores`` turned by hand where it lay to the next value and the one after
    that, in the same light and one 0.8 as light: how many turns there were, and how many were answered as a roll."""
    def scene(value: int) -> np.ndarray:
        img = np.full((FRAME[1], FRAME[0], 3), (40, 110, 40), np.uint8)
        draw_die(img, 3, (300, 200), die, 10)
        draw_die(img, 2, (900, 250), die, 0)
        draw_die(img, value, (600, 420), die, 30)
        return img

    turns = answered = 0
    for before in befores:
        for after in (before % 6 + 1, (before + 2) % 6 + 1):
            for light in (1.0, 0.8):
                table = Table()
                if not table.throw(scene(before), rng):
                    continue
                turns += 1
                answered += table.throw((scene(after) * light).astype(np.uint8), rng) > 0
    return turns, answered


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--set", dest="sets", action="append", help="only this data set (repeatable)")
    ap.add_argument("--part", choices=("tune", "held", "all"), default="held", help="the part of each set (default held, bench/dice_accuracy.py's split)")
    ap.add_argument("--change", dest="changes", action="append", choices=CHANGES, metavar="NAME",
                    help=f"only this change (repeatable; default all): {', '.join(CHANGES)}")
    ap.add_argument("--seed", type=int, default=0, help="the seed of the frames' noise (default 0)")
    ap.add_argument("--turned", type=int, default=6, metavar="N", help="the drawn die turned from its first N values (default 6, all; 0: none)")
    ap.add_argument("--zones", action="store_true", help="also tables with zones: whether their zones lie as the picture does after each change")
    args = ap.parse_args(argv)
    if not 0 <= args.turned <= 6:
        ap.error(f"--turned {args.turned}: 0 to 6")
    cv2.setNumThreads(1)
    changes = args.changes or list(CHANGES)
    rng = np.random.default_rng(args.seed)
    for folder in sorted(p for p in args.data_dir.iterdir() if (p / "labels.json").exists()):
        if args.sets and folder.name not in args.sets:
            continue
        names = part_photos(json.loads((folder / "labels.json").read_text()), args.part)
        frames = [in_frame(photo(folder, n), FRAME)[0] for n in names]
        print(f"{folder.name} / {args.part}: {len(names)} photos as tables; tables answered, then a roll taken after a change:")
        for change in changes:
            answered, phantom = phantoms(frames, change, rng)
            print(f"  {change:<26} {answered:4d} answered, {phantom:3d} phantom rolls")
        if args.zones:
            for change in changes:
                answered, right, wrong = zones_followed(frames, change, rng)
                print(f"  with zones, {change:<26} {answered:4d} answered, zones as the picture on {right}, otherwise on {wrong}")
        first, second = next_throws(frames, rng)
        print(f"  the next throw answered after {second} of {first} answers")
    turns, answered = turned(rng, range(1, args.turned + 1))
    print(f"drawn dice: a die turned where it lay answered as a roll {answered} of {turns} times")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
