"""How long after the dice come to rest a USB camera's roll is answered: median and max milliseconds.

Usage: ``python bench/camera_latency.py [--rolls N] [--interval SECONDS] [--fps F] [--buffers B]``

A camera is modelled as OpenCV's V4L2 backend sees it (``vision.sources.FakeCapture``):
it films ``--fps`` frames a second (30) into ``--buffers`` driver buffers (4, what
OpenCV asks V4L2 for), dropping what it films while they are all full. It films
``--rolls`` rolls of five drawn dice 60 px wide (``vision.synth``) in 1280×720
frames: each roll 1 s of dice in motion (a new picture every frame), then 2.5 s at
rest. The loop is the camera worker's (``refbox.camera.CameraWorker``): read a
frame, feed it to the settler (``vision.settle.Settler`` with the camera's default
reader, ``vision.dice.camera_reader``), wait what is left of ``--interval``
(``camera.interval_ms``, 0.1 s) since the frame was asked for
(``refbox.camera.next_frame_wait``). For each roll it times the roll event from the moment the dice came to rest,
on real time, with two ways to read the camera:

- ``UsbCamera``: :class:`vision.sources.UsbCamera`, whose thread takes every frame from the
  driver as it comes and decodes the first one after a read asks (what a table uses);
- ``VideoCapture.read``: the capture read directly, which gives the oldest frame waiting
  in the buffers (what ``UsbCamera`` did before the seventeenth session).

The settler reads every still frame and answers once three still frames span 0.2 s and
its last three readings agree: the fourth frame filmed at rest (the first differs from
the last one in motion), so at a frame every 0.1 s a roll cannot be answered much before
0.3 s.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, as the other benches (before numpy loads)
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from refbox.camera import next_frame_wait  # noqa: E402
from vision.dice import camera_reader  # noqa: E402
from vision.settle import Settler  # noqa: E402
from vision.sources import FakeCapture, UsbCamera  # noqa: E402
from vision.synth import render_dice  # noqa: E402

MOVING, RESTING = 1.0, 2.5
"""Seconds of each roll with the dice in motion, then at rest."""


class Rolls:
    """The scene the camera films: frame k's picture, and when the dice of each roll came to rest."""

    def __init__(self, rolls: int, fps: float) -> None:
        self.fps = fps
        self.per_roll = round((MOVING + RESTING) * fps)
        self.moving = round(MOVING * fps)
        rng = np.random.default_rng(7)
        self.motion = [render_dice(rng.integers(1, 7, 5).tolist(), seed=100 + i)[0] for i in range(7)]
        self.rest = [render_dice(rng.integers(1, 7, 5).tolist(), seed=i)[0] for i in range(rolls)]

    def __call__(self, k: int) -> np.ndarray:
        roll, i = divmod(k, self.per_roll)
        if roll >= len(self.rest):
            return self.rest[-1]
        return self.motion[k % len(self.motion)] if i < self.moving else self.rest[roll]

    def at_rest(self, roll: int) -> int:
        """The first frame of ``roll`` at rest."""
        return roll * self.per_roll + self.moving


class Oldest:
    """The capture read directly: ``VideoCapture.read``, the oldest frame in the buffers."""

    def __init__(self, cap: FakeCapture) -> None:
        self.cap = cap

    def read(self) -> np.ndarray:
        ok, frame = self.cap.read()
        if not ok or frame is None:
            raise RuntimeError("the modelled camera gave no frame")
        return frame

    def close(self) -> None:
        self.cap.release()


def run(kind: str, rolls: int, interval: float, fps: float, buffers: int) -> tuple[list[float], int]:
    """Latencies (s) of the rolls answered, and the frames read."""
    scene = Rolls(rolls, fps)
    cap = FakeCapture(scene, period=1 / fps, buffers=buffers)
    source: Any = UsbCamera(0, capture=lambda _: cap) if kind == "UsbCamera" else Oldest(cap)
    settler = Settler(camera_reader())
    latencies: list[float] = []
    answered: set[int] = set()
    reads = 0
    end = cap.filmed_at(rolls * scene.per_roll)
    try:
        while time.monotonic() < end:
            asked = time.monotonic()
            frame = source.read()
            reads += 1
            dice = settler.feed(frame, time.monotonic())
            now = time.monotonic()
            if dice:
                roll = int((now - cap.start) * fps) // scene.per_roll
                if roll not in answered and now >= cap.filmed_at(scene.at_rest(roll)):
                    answered.add(roll)
                    latencies.append(now - cap.filmed_at(scene.at_rest(roll)))
            time.sleep(next_frame_wait(interval, asked, time.monotonic()))
    finally:
        source.close()
    return latencies, reads


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=8)
    ap.add_argument("--interval", type=float, default=0.1, help="seconds between frames (camera.interval_ms / 1000)")
    ap.add_argument("--fps", type=float, default=30.0)
    ap.add_argument("--buffers", type=int, default=4)
    args = ap.parse_args(argv)
    if args.rolls < 1 or args.interval < 0 or args.fps <= 0 or args.buffers < 1:
        ap.error("--rolls and --buffers: 1 or more; --interval: 0 or more; --fps: above 0")
    cv2.setNumThreads(1)
    print(f"{args.rolls} rolls of 5 drawn dice, 1280x720, a camera of {args.fps:g} fps with {args.buffers} buffers, "
          f"a frame asked for every {args.interval:g} s")
    print(f"{'camera read by':<20} {'answered':>9} {'median ms':>10} {'max ms':>8} {'reads/s':>8}")
    for kind in ("UsbCamera", "VideoCapture.read"):
        t0 = time.monotonic()
        lat, reads = run(kind, args.rolls, args.interval, args.fps, args.buffers)
        took = time.monotonic() - t0
        med = f"{1000 * statistics.median(lat):.0f}" if lat else "-"
        worst = f"{1000 * max(lat):.0f}" if lat else "-"
        print(f"{kind:<20} {len(lat):>5} / {args.rolls:<2} {med:>10} {worst:>8} {reads / took:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
