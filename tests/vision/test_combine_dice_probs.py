"""tools/combine_dice_probs.py: inner-validation figures of dice networks alone and averaged."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "combine_dice_probs.py"


@pytest.fixture(scope="module")
def tool() -> dict:
    return runpy.run_path(str(TOOL))


def _probs(right_of: list[bool], labels: np.ndarray, margin: float) -> np.ndarray:
    """Probabilities over 7 classes: the label's class on top where ``right_of``, class 0 on top elsewhere."""
    p = np.full((len(labels), 7), (1 - margin) / 6, np.float32)
    for i, (ok, lab) in enumerate(zip(right_of, labels)):
        p[i, lab if ok else 0] = margin
    return p


def _save(path: Path, right_of: list[bool], margin: float, labels: np.ndarray) -> Path:
    p = _probs(right_of, labels, margin)
    np.savez(path, byler_one=p, byler_four=p, byler_labels=labels)
    return path


def test_each_network_and_their_average(tool, tmp_path, capsys):
    labels = np.array([1, 2, 3, 4])
    # A is sure and right on dice 0, 1; B is less sure, right on 2, 3 and wrong on 0, 1
    a = _save(tmp_path / "a.npz", [True, True, False, False], 0.9, labels)
    b = _save(tmp_path / "b.npz", [False, False, True, True], 0.6, labels)
    assert tool["main"]([str(a), str(b)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "a.npz: byler 50.0 % (2/4; 50.0 % = 2/4 over 4 turns)"
    assert out[1] == "b.npz: byler 50.0 % (2/4; 50.0 % = 2/4 over 4 turns)"
    # averaged: where A is right its 0.9 outweighs B's 0.6 for "no die", and where A is
    # wrong (0.9 on "no die") B's 0.6 for the right value does not: 2 of 4
    assert out[2] == "average of 2: byler 50.0 % (2/4; 50.0 % = 2/4 over 4 turns)"
    assert "  byler one: average right where a.npz wrong 0, the other way 0" in out
    assert "  byler one: average right where b.npz wrong 2, the other way 2" in out


def test_files_of_different_dice_are_refused(tool, tmp_path):
    a = _save(tmp_path / "a.npz", [True, True], 0.9, np.array([1, 2]))
    b = _save(tmp_path / "b.npz", [True, True], 0.9, np.array([1, 3]))
    with pytest.raises(SystemExit, match="set 'byler': the files do not hold the same validation dice"):
        tool["main"]([str(a), str(b)])


def test_an_unreadable_file_is_named(tool, tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_text("not an npz")
    with pytest.raises(SystemExit, match="cannot read probabilities .*bad.npz"):
        tool["main"]([str(bad)])
