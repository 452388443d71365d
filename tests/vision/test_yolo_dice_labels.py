"""tools/yolo_dice_labels.py: a YOLO export of dice photos becomes a labelled photo set."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import cv2
import numpy as np
import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "yolo_dice_labels.py"


@pytest.fixture(scope="module")
def tool() -> dict:
    return runpy.run_path(str(TOOL))


def export(root: Path, names: str, labels: dict[str, str | None], split: str = "train") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "data.yaml").write_text(names)
    for name, text in labels.items():
        for sub in ("images", "labels"):
            (root / split / sub).mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(root / split / "images" / f"{name}.jpg"), np.zeros((100, 200, 3), np.uint8))
        if text is not None:
            (root / split / "labels" / f"{name}.txt").write_text(text)
    return root


def test_boxes_are_turned_into_pixels_and_classes_into_die_values(tool: dict, tmp_path: Path) -> None:
    src = export(tmp_path / "src", "train: x\nnames:\n- '1'\n- '2'\n- '3'\n- '4'\n- '5'\n- '6'\nnc: 6\n",
                 {"a": "4 0.5 0.5 0.1 0.2\n0 0.05 0.05 0.2 0.2\n", "b": ""})
    export(src, "train: x\nnames:\n- '1'\n- '2'\n- '3'\n- '4'\n- '5'\n- '6'\nnc: 6\n", {"c": "5 0.25 0.75 0.1 0.1\n"}, split="valid")
    assert tool["main"]([str(src), str(tmp_path / "out"), "--origin", "github.com/x/y @abc, CC BY 4.0"]) == 0
    labels = json.loads((tmp_path / "out" / "labels.json").read_text())
    assert labels == {
        "a.jpg": [{"value": 5, "box": [90, 40, 110, 60]}, {"value": 1, "box": [0, 0, 30, 15]}],  # clipped to the picture
        "b.jpg": [],
        "c.jpg": [{"value": 6, "box": [40, 70, 60, 80]}],
    }
    assert sorted(p.name for p in (tmp_path / "out" / "images").iterdir()) == ["a.jpg", "b.jpg", "c.jpg"]
    assert (tmp_path / "out" / "ORIGIN.md").read_text().splitlines()[0] == "# github.com/x/y @abc, CC BY 4.0"


def test_a_one_line_names_list_is_read_too(tool: dict, tmp_path: Path) -> None:
    (tmp_path / "data.yaml").write_text("nc: 2\nnames: ['6', '1']\n")
    assert tool["class_values"](tmp_path / "data.yaml") == [6, 1]


def test_a_die_value_may_follow_a_word(tool: dict, tmp_path: Path) -> None:
    (tmp_path / "data.yaml").write_text("nc: 4\nnames: ['dice_3', 'die-1', 'd 6', 'Dice_2']\n")
    assert tool["class_values"](tmp_path / "data.yaml") == [3, 1, 6, 2]


def test_a_folder_of_photos_label_files_and_classes_txt_is_read_too(tool: dict, tmp_path: Path) -> None:
    """labelImg's layout (github.com/matteop65/Dice_Detection_Recognition's Data/Training_Images/Valid):
    the photos and their label files side by side, the classes named One to Six in classes.txt."""
    src = tmp_path / "Valid"
    src.mkdir()
    (src / "classes.txt").write_text("One\nTwo\nThree\nFour\nFive\nSix\n")
    cv2.imwrite(str(src / "valid_1.jpg"), np.zeros((100, 200, 3), np.uint8))
    (src / "valid_1.txt").write_text("3 0.5 0.5 0.1 0.2\n0 0.25 0.25 0.1 0.1\n")
    (src / "valid_2.txt").write_text("1 0.5 0.5 0.1 0.2\n")  # (a label file without its photo: skipped)
    assert tool["main"]([str(src), str(tmp_path / "out"), "--origin", "here, MIT"]) == 0
    assert json.loads((tmp_path / "out" / "labels.json").read_text()) == {
        "valid_1.jpg": [{"value": 4, "box": [90, 40, 110, 60]}, {"value": 1, "box": [40, 20, 60, 30]}]}
    assert tool["listed_values"](src / "classes.txt") == [1, 2, 3, 4, 5, 6]
    (src / "classes.txt").write_text("\n")
    with pytest.raises(ValueError, match="classes.txt: it lists no classes"):
        tool["listed_values"](src / "classes.txt")


def test_die_values_may_be_english_words(tool: dict, tmp_path: Path) -> None:
    (tmp_path / "data.yaml").write_text("names: ['SIX', 'dice_two', 'one']\n")
    assert tool["class_values"](tmp_path / "data.yaml") == [6, 2, 1]


def test_a_folder_without_classes_is_refused(tool: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert tool["main"]([str(tmp_path), str(tmp_path / "out"), "--origin", "here, MIT"]) == 2
    assert "no data.yaml (a YOLO export) or classes.txt" in capsys.readouterr().err


@pytest.mark.parametrize(
    "names, label, message",
    [
        ("names: ['1', 'd20']\n", "0 0.5 0.5 0.1 0.1\n", "class 1 is named 'd20', not a die value 1-6"),
        ("names: ['dice_1', 'dice_7']\n", "0 0.5 0.5 0.1 0.1\n", "class 1 is named 'dice_7', not a die value 1-6"),
        ("names: ['One', 'Seven']\n", "0 0.5 0.5 0.1 0.1\n", "class 1 is named 'Seven', not a die value 1-6 or one to six"),
        ("names: ['1', '_2']\n", "0 0.5 0.5 0.1 0.1\n", "class 1 is named '_2', not a die value 1-6"),
        ("names: ['1', '2']\n", "2 0.5 0.5 0.1 0.1\n", "a.txt:1: class 2 is not one of the 2 classes"),
        ("names: ['1', '2']\n", "1 0.5 0.5 0.1\n", "a.txt:1: '1 0.5 0.5 0.1' is not 'class cx cy w h'"),
        ("names: ['1', '2']\n", "\n1 0.5 0.5 0.1 x\n", "a.txt:2: '1 0.5 0.5 0.1 x' is not 'class cx cy w h'"),
        ("nc: 2\n", "1 0.5 0.5 0.1 0.1\n", "no 'names:' list"),
        ("names: [1, 2\n", "1 0.5 0.5 0.1 0.1\n", "not a list of quoted class names"),
        ("names: ['1']\n", None, "a.jpg: no label file"),
    ],
)
def test_bad_exports_are_refused_naming_the_file_and_line(tool: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         names: str, label: str | None, message: str) -> None:
    src = export(tmp_path / "src", names, {"a": label})
    assert tool["main"]([str(src), str(tmp_path / "out"), "--origin", "somewhere"]) == 2
    assert message in capsys.readouterr().err


def test_the_origin_is_one_line(tool: dict, tmp_path: Path) -> None:
    src = export(tmp_path / "src", "names: ['1']\n", {"a": ""})
    with pytest.raises(ValueError, match="--origin: one line"):
        tool["convert"](src, tmp_path / "out", "two\nlines")


def test_splits_and_one_copy_of_each_photo_can_be_chosen(tool: dict, tmp_path: Path) -> None:
    names = "names: ['1', '2']\n"
    src = export(tmp_path / "src", names, {"d1_jpg.rf.aa": "0 0.5 0.5 0.1 0.1\n", "d1_jpg.rf.bb": "1 0.5 0.5 0.1 0.1\n", "d2_jpg.rf.cc": ""})
    export(src, names, {"d3_jpg.rf.dd": ""}, split="valid")
    export(src, names, {"d4_jpg.rf.ee": ""}, split="test")
    train = tool["convert"](src, tmp_path / "train", "o", one_per_photo=True, splits=("train",))
    assert sorted(train) == ["d1_jpg.rf.aa.jpg", "d2_jpg.rf.cc.jpg"]  # the first copy of d1 only
    assert sorted(tool["convert"](src, tmp_path / "check", "o", splits=("valid", "test"))) == ["d3_jpg.rf.dd.jpg", "d4_jpg.rf.ee.jpg"]
    assert len(tool["convert"](src, tmp_path / "all", "o")) == 5
    import argparse

    assert tool["_splits"]("valid,test") == ("valid", "test")
    with pytest.raises(argparse.ArgumentTypeError, match="'val': names of train, valid, test expected"):
        tool["_splits"]("val")


def test_only_the_photos_a_pattern_matches_can_be_taken(tool: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = "names: ['1', '2']\n"
    src = export(tmp_path / "src", names, {"PXL_1_jpg.rf.aa": "0 0.5 0.5 0.1 0.1\n", "00001_jpg.rf.bb": "1 0.5 0.5 0.1 0.1\n", "IMG_2019_jpg.rf.cc": ""})
    assert tool["main"]([str(src), str(tmp_path / "out"), "--origin", "github.com/x/y @abc, CC BY 4.0", "--photos", "^(PXL_|[0-9]{5}_jpg)"]) == 0
    assert sorted(json.loads((tmp_path / "out" / "labels.json").read_text())) == ["00001_jpg.rf.bb.jpg", "PXL_1_jpg.rf.aa.jpg"]
    assert sorted(p.name for p in (tmp_path / "out" / "images").iterdir()) == ["00001_jpg.rf.bb.jpg", "PXL_1_jpg.rf.aa.jpg"]
    assert "1 photos whose name --photos does not match left out" in capsys.readouterr().err
    first = (tmp_path / "out" / "ORIGIN.md").read_text().splitlines()[0]
    assert first == "# github.com/x/y @abc, CC BY 4.0 — only the photos whose name matches '^(PXL_|[0-9]{5}_jpg)' (tools/yolo_dice_labels.py --photos)"
    assert tool["main"]([str(src), str(tmp_path / "bad"), "--origin", "x, MIT", "--photos", "(PXL"]) == 2
    assert "--photos '(PXL': not a regular expression (missing ), unterminated subpattern" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()


def test_photos_can_be_median_filtered_against_salt_and_pepper_noise(tool: dict, tmp_path: Path) -> None:
    src = export(tmp_path / "src", "names: ['1']\n", {"a": "0 0.5 0.5 0.2 0.2\n"})
    noisy = np.full((100, 200, 3), 128, np.uint8)
    specks = np.random.default_rng(0).random((100, 200)) < 0.01
    noisy[specks] = 255
    cv2.imwrite(str(src / "train" / "images" / "a.jpg"), noisy)
    assert tool["main"]([str(src), str(tmp_path / "out"), "--origin", "github.com/x/y @abc, CC BY 4.0", "--median", "3"]) == 0
    written = cv2.imread(str(tmp_path / "out" / "images" / "a.jpg"))
    assert int(np.abs(written.astype(int) - 128).max()) <= 3 and specks.sum() > 100  # the specks are gone
    first = (tmp_path / "out" / "ORIGIN.md").read_text().splitlines()[0]
    assert first == "# github.com/x/y @abc, CC BY 4.0 — each photo median-filtered 3x3 (tools/yolo_dice_labels.py --median 3)"
    assert json.loads((tmp_path / "out" / "labels.json").read_text())["a.jpg"] == [{"value": 1, "box": [80, 40, 120, 60]}]


def test_only_the_specks_can_be_replaced_and_the_grain_kept(tool: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = export(tmp_path / "src", "names: ['1']\n", {"a": "0 0.5 0.5 0.2 0.2\n"})
    rng = np.random.default_rng(0)
    grain = np.repeat(rng.integers(60, 190, (100, 200, 1)), 3, axis=2).astype(np.uint8)  # a granite table: every pixel its own grey
    specks = rng.random((100, 200)) < 0.01
    noisy = grain.copy()
    noisy[specks] = np.where(rng.random(int(specks.sum())) < 0.5, 0, 255)[:, None]
    cv2.imwrite(str(src / "train" / "images" / "a.png"), noisy)
    (src / "train" / "images" / "a.jpg").unlink()  # (the export's own photo of it)
    assert tool["main"]([str(src), str(tmp_path / "out"), "--origin", "github.com/x/y @abc, CC BY 4.0", "--median", "3", "--specks"]) == 0
    written = cv2.imread(str(tmp_path / "out" / "images" / "a.png")).astype(int)
    speck_px = specks & (np.abs(noisy[:, :, 0].astype(int) - cv2.medianBlur(noisy, 3)[:, :, 0]) > 40)
    assert speck_px.sum() > 100 and np.array_equal(written[speck_px], cv2.medianBlur(noisy, 3)[speck_px])  # the specks replaced
    assert np.array_equal(written[~specks], grain[~specks])  # every other pixel as it was, where a median filter smooths the grain
    assert f"specks replaced: {100 * speck_px.mean():.2f} % of the pixels of 1 photos (--specks)" in capsys.readouterr().err  # (the share it says)
    assert np.abs(cv2.medianBlur(noisy, 3).astype(int) - grain)[~specks].mean() > 20
    first = (tmp_path / "out" / "ORIGIN.md").read_text().splitlines()[0]
    assert first == "# github.com/x/y @abc, CC BY 4.0 — each photo's salt-and-pepper specks replaced by their 3x3 median, the rest kept (tools/yolo_dice_labels.py --median 3 --specks)"


def test_specks_without_a_median_are_refused(tool: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = export(tmp_path / "src", "names: ['1']\n", {"a": ""})
    assert tool["main"]([str(src), str(tmp_path / "out"), "--origin", "x, MIT", "--specks"]) == 2
    assert "--specks: the median that replaces them is --median K, which was not given" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("width", ["2", "1", "-3"])
def test_a_median_width_must_be_odd_and_at_least_three(tool: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str], width: str) -> None:
    src = export(tmp_path / "src", "names: ['1']\n", {"a": ""})
    assert tool["main"]([str(src), str(tmp_path / "out"), "--origin", "x, MIT", "--median", width]) == 2
    assert f"--median {width}: an odd width of 3 or more pixels expected" in capsys.readouterr().err
