"""bench/dice_errors.py on the fixture photos: every labelled die sorted into one kind, on the part asked for, with the network asked for."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bench import dice_errors
from bench.dice_accuracy import Tally, in_frame, inner_part_of, part_of, read_in_frame, score
from vision import dice_model
from vision.dice import DiceReader

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dice"


def names_in(part: str, count: int) -> list[str]:
    """``count`` file names that fall in ``part`` (``"inner"``: tune photos the trainer validates on; ``"train"``: the other tune photos)."""
    out, i = [], 0
    while len(out) < count:
        name = f"photo_{i:04d}.jpg"
        if part_of(name) == "tune" and (inner_part_of(name) == "validate") == (part == "inner"):
            out.append(name)
        i += 1
    return out


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A data folder with one set: two fixture photos in the inner part, one in the rest of the tune part."""
    labels = json.loads((FIXTURES / "labels.json").read_text())
    photos = sorted(n for n in labels if n.startswith("byler-"))[:3]
    folder = tmp_path / "byler"
    (folder / "images").mkdir(parents=True)
    out = {}
    for src, dest in zip(photos, names_in("inner", 2) + names_in("train", 1)):
        shutil.copy(FIXTURES / src, folder / "images" / dest)
        out[dest] = labels[src]
    (folder / "labels.json").write_text(json.dumps(out))
    return tmp_path


def kinds(text: str) -> dict[str, int]:
    out = {}
    for line in text.splitlines():
        if line.startswith("  ") and not line.startswith("    "):
            kind, n = line.strip().rsplit(None, 1)
            out[kind] = int(n)
    return out


def dice_in(counts: dict[str, int]) -> int:
    return sum(n for k, n in counts.items() if not k.startswith(("extra", "unsure, matched")))


def test_every_labelled_die_of_the_part_is_sorted_once(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    labels = json.loads((data_dir / "byler" / "labels.json").read_text())
    inner = [n for n in labels if inner_part_of(n) == "validate"]
    assert dice_errors.main([str(data_dir), "--part", "inner", "--list"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"byler / inner: 2 photos, {sum(len(labels[n]) for n in inner)} dice")
    assert dice_in(kinds(out)) == sum(len(labels[n]) for n in inner)
    listed = [line.split()[0] for line in out.splitlines() if line.startswith("    ")]
    assert set(listed) <= set(inner)  # errors of the inner photos only
    assert dice_errors.main([str(data_dir)]) == 0  # the whole tune part by default
    assert dice_in(kinds(capsys.readouterr().out)) == sum(len(v) for v in labels.values())


def test_another_network_is_used_when_named(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dice_model, "MODEL_PATH", dice_model.MODEL_PATH)  # restored after the test
    with pytest.raises(ValueError, match="no such file"):
        dice_errors.main([str(data_dir), "--model", str(tmp_path / "none.onnx")])


def test_photos_read_in_camera_frames_keep_their_labels(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # placed in a 1280x720 frame (labels moved with the photo) and read by one camera's reader:
    # every die still sorted once, and the listed centres are the frame's pixels
    labels = json.loads((data_dir / "byler" / "labels.json").read_text())
    assert dice_errors.main([str(data_dir), "--frame", "1280x720", "--camera", "--list"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"byler / tune: 3 photos, {sum(len(v) for v in labels.values())} dice, in 1280x720 frames, one camera's reader")
    counts = kinds(out)
    assert dice_in(counts) == sum(len(v) for v in labels.values())
    # the same dice right as bench/dice_accuracy.py's camera reads
    reader = DiceReader()
    tally = Tally()
    for name in sorted(labels):
        score(tally, name, labels[name], read_in_frame(dice_errors.photo(data_dir / "byler", name), (1280, 720), reader))
    assert counts.get("right", 0) + counts.get("right, centred wrong", 0) == tally.right
    # each error's centre (row: photo, kind, label, reading, x, y, then the centred crop's value and
    # probability or "conf" and the reading's) lies on its photo as placed in the frame
    listed = [line.split() for line in out.splitlines() if line.startswith("    ")]
    assert listed
    for row in listed:
        image = dice_errors.photo(data_dir / "byler", row[0])
        _, scale, left, top = in_frame(image, (1280, 720))
        assert left <= int(row[-4]) <= left + scale * image.shape[1] and top <= int(row[-3]) <= top + scale * image.shape[0], row
    assert any(left > 0 or top > 0 for left, top in [in_frame(dice_errors.photo(data_dir / "byler", n), (1280, 720))[2:] for n in labels])
