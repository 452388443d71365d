"""tools/crop_dice_labels.py: single-die crops sorted by value become a labelled photo set, parted by photo."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import cv2
import numpy as np
import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "crop_dice_labels.py"
ORIGIN = "github.com/x/y @abc data/, MIT"


@pytest.fixture(scope="module")
def tool() -> dict:
    return runpy.run_path(str(TOOL))


def crop(path: Path, h: int = 20, w: int = 30) -> np.ndarray:
    """A crop: a green table border round a white square (the die)."""
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = (40, 120, 20)
    img[4:-4, 6:-6] = 255
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), img)
    return img


def test_each_crop_is_centred_on_a_canvas_of_its_border_colour_and_labelled_with_its_box(tool: dict, tmp_path: Path) -> None:
    src = tmp_path / "src"
    a = crop(src / "train" / "3" / "P1_detection_1.png")
    crop(src / "test" / "6" / "P1_detection_2.png", 24, 24)
    crop(src / "5" / "loose.png")  # no split folder
    assert tool["main"]([str(src), str(tmp_path / "out"), "--origin", ORIGIN]) == 0
    labels = json.loads((tmp_path / "out" / "labels.json").read_text())
    assert labels == {
        "loose.png": [{"value": 5, "box": [30, 20, 60, 40]}],
        "test_P1_detection_2.png": [{"value": 6, "box": [24, 24, 48, 48]}],
        "train_P1_detection_1.png": [{"value": 3, "box": [30, 20, 60, 40]}],
    }
    canvas = cv2.imread(str(tmp_path / "out" / "images" / "train_P1_detection_1.png"))
    assert canvas.shape == (60, 90, 3)
    assert (canvas[20:40, 30:60] == a).all()  # the crop itself, unchanged (PNG)
    assert (canvas[:20] == (40, 120, 20)).all() and (canvas[:, :30] == (40, 120, 20)).all()  # the table round it
    origin = (tmp_path / "out" / "ORIGIN.md").read_text().splitlines()[0]
    assert origin.startswith(f"# {ORIGIN} — each crop centred on a canvas three times its size")


def test_the_parts_split_by_photo_so_crops_of_one_photo_stay_together(tool: dict, tmp_path: Path) -> None:
    src = tmp_path / "src"
    photos = [f"DJI_{i:04d}_D" for i in range(40)]
    for i, p in enumerate(photos):
        crop(src / "train" / str(1 + i % 6) / f"{p}_detection_1.png")
        crop(src / "test" / str(1 + (i + 1) % 6) / f"{p}_detection_2.png")
    assert tool["main"]([str(src), str(tmp_path / "a"), "--origin", ORIGIN, "--part", "a"]) == 0
    assert tool["main"]([str(src), str(tmp_path / "b"), "--origin", ORIGIN, "--part", "b"]) == 0
    a = json.loads((tmp_path / "a" / "labels.json").read_text())
    b = json.loads((tmp_path / "b" / "labels.json").read_text())
    assert len(a) + len(b) == 80 and 20 <= len(a) <= 60
    of = tool["photo_of"]
    photos_a = {of(Path(n).stem.split("_", 1)[1]) for n in a}
    photos_b = {of(Path(n).stem.split("_", 1)[1]) for n in b}
    assert not photos_a & photos_b  # no photo on both sides
    assert all(f"train_{p}_detection_1.png" in a and f"test_{p}_detection_2.png" in a for p in photos_a)
    assert "--part a" in (tmp_path / "a" / "ORIGIN.md").read_text()


def test_a_name_the_photo_pattern_does_not_match_is_its_own_photo(tool: dict) -> None:
    assert tool["photo_of"]("DJI_1_D_detection_12") == "DJI_1_D"
    assert tool["photo_of"]("IMG_7") == "IMG_7"
    assert tool["photo_of"]("a-b-3", r"(.*)-\d+$") == "a-b"


@pytest.mark.parametrize(
    "setup, args, message",
    [
        (lambda src: crop(src / "x" / "a.png"), [], "no crops in folders named 1 to 6"),
        (lambda src: (src / "4").mkdir(parents=True) or (src / "4" / "a.jpg").write_bytes(b"not a picture"), [], "a.jpg: not a colour picture"),
        (lambda src: (crop(src / "train" / "4" / "a.png"), crop(src / "train" / "2" / "a.png")), [], "a second crop named train_a.png"),
    ],
)
def test_bad_input_is_refused_with_the_file_named(tool: dict, tmp_path: Path, setup, args: list[str], message: str) -> None:
    src = tmp_path / "src"
    src.mkdir()
    setup(src)
    with pytest.raises(SystemExit, match=message):
        tool["main"]([str(src), str(tmp_path / "out"), "--origin", ORIGIN, *args])


@pytest.mark.parametrize("origin", ["", "  ", "github.com/x/y\nMIT"])
def test_an_origin_that_is_not_one_line_is_refused(tool: dict, tmp_path: Path, origin: str) -> None:
    crop(tmp_path / "src" / "4" / "a.png")
    with pytest.raises(SystemExit, match="--origin: one line naming where the photos come from"):
        tool["main"]([str(tmp_path / "src"), str(tmp_path / "out"), "--origin", origin])
    assert not (tmp_path / "out").exists()  # refused before anything is written


def test_a_bad_photo_pattern_is_refused(tool: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        tool["main"]([str(tmp_path), str(tmp_path / "out"), "--origin", ORIGIN, "--photo", "(unclosed"])
    assert "--photo '(unclosed'" in capsys.readouterr().err
