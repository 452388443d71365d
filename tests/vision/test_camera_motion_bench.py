"""bench/camera_motion.py: a settler's look for a bumped camera, timed on real frames, as each revision looked."""

from __future__ import annotations

import json
import types
from pathlib import Path

import numpy as np
import pytest

from bench.camera_motion import MOTIONS, corner_off, looks, main
from vision import settle
from vision.types import Motion

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dice"


def test_the_bench_times_each_motion_both_ways_and_each_puts_the_frame_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One photo of five dice (the layout of bench/dice_accuracy.py): a line per motion and look, each answer putting
    every corner of the frame back within 1.5 pixels."""
    name = "matteo-dice_42.jpg"
    (tmp_path / "one" / "images").mkdir(parents=True)
    (tmp_path / "one" / "images" / name).write_bytes((FIXTURES / name).read_bytes())
    labels = json.loads((FIXTURES / "labels.json").read_text())
    (tmp_path / "one" / "labels.json").write_text(json.dumps({name: labels[name]}))
    assert main([str(tmp_path), "--repeat", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "a settler's look for a bumped camera, 1 real frames 1280x720, one thread (median / p95 ms, put back)"
    assert len(out) == 1 + 2 * len(MOTIONS)
    for line, (label, look) in zip(out[1:], [(label, look) for label, _ in MOTIONS for look in ("shift, then turn", "motion alone")]):
        head, figures = line.split(": ", 1)
        assert head == f"  {label}, {look}"
        median, p95 = (float(x) for x in figures.split(",")[0].split(" / "))
        assert 0 < median <= p95 and figures.endswith(" 1 of 1"), line


def test_a_revision_is_timed_as_it_looked() -> None:
    """Today's settler asks one MotionSearch for a shift, then a turn; a revision with camera_motion but no search
    asked camera_shift then camera_motion; one before that looked for a shift alone (read as a Motion)."""
    table = np.zeros((200, 300, 3), np.uint8)
    calls: list[str] = []
    old = types.ModuleType("vision_old.settle")
    old.NUDGE_TURN = 3.0  # type: ignore[attr-defined]
    old.camera_shift = lambda before, after, hide: calls.append("shift") or (2, -1)  # type: ignore[attr-defined]
    assert looks(old)["shift, then turn"](table, table, []) == (2, -1) and calls == ["shift"]
    assert corner_off((2, -1), Motion(2, -1), (300, 200)) == 0.0
    calls.clear()
    old.camera_motion = lambda before, after, hide: calls.append("motion") or Motion(0, 0, 1.0)  # type: ignore[attr-defined]
    assert looks(old)["shift, then turn"](table, table, []) == Motion(0, 0, 1.0) and calls == ["shift", "motion"]
    assert looks(old)["motion alone"](table, table, []) == Motion(0, 0, 1.0) and calls == ["shift", "motion", "motion"]
    assert looks(settle)["shift, then turn"](table, table, []) == Motion()
    assert corner_off(Motion(0, 0, 1.0), Motion(), (1280, 720)) > 10  # (a degree moves a corner 13 px)


def test_the_bench_refuses_no_repeat_and_a_folder_without_such_photos(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args, said in ((["--repeat", "0"], "--repeat 0: expected 1 or more"), ([], f"no photos with 1, 5 or 10 labelled dice in {tmp_path}")):
        with pytest.raises(SystemExit):
            main([str(tmp_path), *args])
        assert said in capsys.readouterr().err
