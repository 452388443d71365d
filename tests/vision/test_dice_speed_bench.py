"""bench/dice_speed.py's camera line: every reader, today's or an older revision's, reads a frame at the
scale today's DiceReader settles on for it; a revision whose read_dice takes no scale reads as it did."""

from __future__ import annotations

import numpy as np

from bench.dice_speed import as_camera
from vision.dice import DiceReader
from vision.synth import render_dice
from vision.types import DieReading


def frame_with_small_dice() -> np.ndarray:
    """A 1280 x 720 table with dice 24 px wide: small at the first scale, so a camera's reader settles on a larger one."""
    return render_dice([2, 5, 6], die=24.0, seed=3)[0]


def test_a_reader_that_takes_a_scale_reads_at_the_cameras() -> None:
    frame = frame_with_small_dice()
    reader = DiceReader()
    reader(frame)
    assert reader.scale(frame.shape) is not None
    seen: list[float | None] = []

    def read(image: np.ndarray, scale: float | None = None) -> list[DieReading]:
        seen.append(scale)
        return []

    as_camera([frame], read)(frame)
    assert seen == [reader.scale(frame.shape)]


def test_a_reader_without_a_scale_reads_as_it_did() -> None:
    def read(image: np.ndarray) -> list[DieReading]:
        return []

    assert as_camera([frame_with_small_dice()], read) is read
