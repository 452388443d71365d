"""bench/dice_speed.py's camera lines: every reader, today's or an older revision's, reads a frame as its
own camera reader (the DiceReader of its module) does once it has seen that frame; a revision without
one reads as its read_dice did."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

from bench.dice_speed import SETTLING_READS, as_camera
from vision.dice import DiceReader, read_dice
from vision.synth import render_dice
from vision.types import DieReading


def frame_with_small_dice() -> np.ndarray:
    """A 1280 x 720 table with dice 24 px wide: small at the first scale, so a camera's reader settles on a larger one."""
    return render_dice([2, 5, 6], die=24.0, seed=3)[0]


def test_todays_reader_reads_as_a_camera_that_has_seen_the_frame() -> None:
    frame = frame_with_small_dice()
    camera = DiceReader()
    camera(frame)
    assert camera.scale(frame.shape) is not None  # (it settled on a larger scale ...)
    assert camera.reads_in_parts(frame.shape) is True  # (... and reads the parts that differ from the table)
    assert as_camera([frame], read_dice)(frame) == camera(frame)


def _revision(monkeypatch: pytest.MonkeyPatch, camera: type | None) -> types.FunctionType:
    """The read_dice of a fake older revision's module, with ``camera`` as its DiceReader (None: it has none)."""
    module = types.ModuleType("vision_old.dice")

    def read(image: np.ndarray) -> list[DieReading]:
        return []

    read.__module__ = module.__name__
    if camera is not None:
        module.DiceReader = camera  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return read


def test_another_revision_reads_as_its_own_camera_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []

    class OldReader:
        def __call__(self, image: np.ndarray) -> list[DieReading]:
            seen.append(id(self))
            return [DieReading(3, (1.0, 2.0), 0.9)]

    frames = [frame_with_small_dice(), np.zeros((720, 1280, 3), np.uint8)]
    read = as_camera(frames, _revision(monkeypatch, OldReader))
    assert len(set(seen)) == 2 and len(seen) == 2 * SETTLING_READS  # one reader per frame, which has read it SETTLING_READS times
    assert read(frames[1]) == [DieReading(3, (1.0, 2.0), 0.9)]
    assert seen[-1] == seen[-2] != seen[0]


def test_a_revision_without_a_camera_reader_reads_as_it_did(monkeypatch: pytest.MonkeyPatch) -> None:
    read = _revision(monkeypatch, None)
    assert as_camera([frame_with_small_dice()], read) is read
