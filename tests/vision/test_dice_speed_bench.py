"""bench/dice_speed.py's camera lines: every reader, today's or an older revision's, reads a frame as its
own camera reader (the DiceReader of its module) does once it has seen that frame; a revision without
one reads as its read_dice did."""

from __future__ import annotations

import re
import sys
import types

import numpy as np
import pytest

from bench.dice_accuracy import CAMERA_NOISE, noisy
from bench.dice_speed import SETTLING_READS, as_camera, machine_line, network_line
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
    # (it reads a copy of the frame with a camera's noise of its own: the same dice, a pixel apart at most)
    seen, plain = as_camera([frame], read_dice)(frame), camera(frame)
    assert [r.value for r in seen] == [r.value for r in plain] == [5, 6, 2]  # (top to bottom)
    assert all(max(abs(a - b) for a, b in zip(r.box, q.box)) <= 1 for r, q in zip(seen, plain))


def test_a_camera_reads_frames_noisy_as_a_cameras_and_searches_them_only_when_told_to_search_each(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each frame a camera's reader is timed on is a copy with noise of CAMERA_NOISE grey levels: at rest, the
    reader reads most frames as the frame before (no search of its parts); with ``search_each`` every frame
    read in parts is searched, as the first frame at rest after a throw is."""
    import vision.dice

    frame = frame_with_small_dice()
    copy = noisy(frame, np.random.default_rng(1))
    assert abs(float(np.std(copy.astype(float) - frame)) - CAMERA_NOISE) < 0.1
    searches: list[int] = []
    real = vision.dice._in_parts
    monkeypatch.setattr(vision.dice, "_in_parts", lambda *a, **k: searches.append(1) or real(*a, **k))
    for each, most in ((False, 2), (True, 9)):
        read = as_camera([frame], read_dice, search_each=each)
        searches.clear()
        for _ in range(10):
            assert [r.value for r in read(frame)] == [5, 6, 2]
        assert (len(searches) <= most) if not each else len(searches) >= most, (each, searches)


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


def test_the_machine_line_names_the_cpu_its_vector_and_8_bit_instructions_and_opencv() -> None:
    x86 = "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Gold 6252\nflags\t\t: fpu avx2 fma avx512f avx512_vnni\n\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R) Gold 6252\n"
    assert machine_line(x86, 2, "4.14.0") == "machine: Intel(R) Xeon(R) Gold 6252, 2 cores; avx2 fma avx512f avx512_vnni; OpenCV 4.14.0"
    pi = "processor\t: 0\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\nCPU part\t: 0xd08\n\nHardware\t: BCM2835\n"
    assert machine_line(pi, 4, "5.1.0") == "machine: BCM2835, 4 cores; asimd; OpenCV 5.1.0"
    assert machine_line("", None, "5.1.0") == "machine: unknown CPU, ? cores; none of avx2, fma, avx512f, avx512_vnni, avx_vnni, amx_int8, neon, asimd, asimddp, i8mm; OpenCV 5.1.0"


def test_the_network_line_times_each_shipped_network_and_its_8_bit_copy() -> None:
    line = network_line(repeat=2, batch=3)
    figures = re.fullmatch(r"network, ms a crop in batches of 3: standard ([0-9.]+), its 8-bit copy ([0-9.]+), clear ([0-9.]+), its 8-bit copy ([0-9.]+)", line)
    assert figures and all(float(f) > 0 for f in figures.groups())
