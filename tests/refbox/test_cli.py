import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from refbox.cli import main

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path, *lines):
    p = tmp_path / "game.jsonl"
    p.write_text("\n".join(json.dumps(x) if not isinstance(x, str) else x for x in lines) + "\n")
    return p


def test_replay_prints_final_view(tmp_path, capsys):
    p = write(tmp_path, {"game": "pig", "players": ["Ann", "Bob"]}, {"type": "roll", "dice": [4]}, {"type": "stop"})
    assert main(["replay", str(p)]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["players"][0] == {"name": "Ann", "score": 4} and view["turn"] == "Bob"


@pytest.mark.parametrize(
    "lines, message",
    [
        (({"game": "pig", "players": ["Ann", "Bob"]}, {"type": "stop"}), "line 2: illegal stop"),
        (({"game": "pig", "players": ["Ann", "Bob"]}, "{not json"), "line 2: not valid JSON"),
        (({"game": "pig", "players": ["Ann", "Bob"]}, {"type": "roll", "dice": [4]}, {"type": "roll"}), "line 3: malformed event"),
        (({"game": "golf", "players": ["Ann", "Bob"]},), "line 1: bad header: unknown game 'golf'"),
    ],
)
def test_replay_bad_line_exits_2_naming_the_line(tmp_path, capsys, lines, message):
    p = write(tmp_path, *lines)
    assert main(["replay", str(p)]) == 2
    err = capsys.readouterr().err
    assert message in err


def test_replay_missing_file(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_games_lists_options(capsys):
    assert main(["games", "--json"]) == 0
    games = {g["name"]: g for g in json.loads(capsys.readouterr().out)}
    assert {"pig", "futsal"} <= set(games)
    assert any(o["name"] == "target" and o["default"] == 100 for o in games["pig"]["options"])


def test_odds_prints_fractions(capsys):
    assert main(["odds", "pig", "--hold", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["series_reaches_2"]["fraction"] == "5/6"


def test_odds_bad_parameter(capsys):
    assert main(["odds", "pig", "--colour", "red"]) == 2
    assert "unknown odds parameter" in capsys.readouterr().err


def test_read_dice_json_shape(capsys):
    images = sorted((ROOT / "tests" / "fixtures" / "dice").glob("*.jpg"))[:2]
    assert main(["read", "dice", *map(str, images), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [o["image"] for o in out] == list(map(str, images))
    for o in out:
        for d in o["dice"]:
            assert set(d) >= {"value", "center", "confidence"}
        assert 25 < o["die_px"] < 60 and o["read_scale"] == 1.0  # (640-pixel photos: read at their own size)


def test_read_dice_says_how_big_the_dice_are_and_the_scale_it_read_them_at(tmp_path, capsys):
    import cv2
    import numpy as np

    photo = cv2.imread(str(ROOT / "tests" / "fixtures" / "dice" / "byler-IMG_20191208_112219.jpg"))
    frame = np.empty((720, 1280, 3), np.uint8)
    frame[:] = photo[0, 0]
    frame[40:680, 320:960] = photo  # dice about 40 pixels wide in a 1280 x 720 frame
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), frame)
    assert main(["read", "dice", str(path), "--json"]) == 0
    (o,) = json.loads(capsys.readouterr().out)
    assert len(o["dice"]) >= 6
    assert 20 < o["die_px"] < 45  # (the size of the clear faces: less than a die's box, which holds its sides)
    assert 0.5 < o["read_scale"] <= 1.0  # looked at again less reduced than 640 pixels wide


def zones_file(tmp_path):
    p = tmp_path / "zones.json"
    p.write_text(json.dumps({"size": [1280, 720], "zones": {
        "tray": [[0, 0], [900, 0], [900, 720], [0, 720]], "kept": [[900, 0], [1280, 0], [1280, 720], [900, 720]]}}))
    return p


def test_read_dice_with_zones_says_where_each_die_lies_and_draws_them(tmp_path, capsys):
    import cv2
    import numpy as np

    from vision.synth import draw_die

    img = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
    draw_die(img, 2, (300, 360), 60)
    draw_die(img, 6, (1100, 360), 60)
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), img)
    out_dir = tmp_path / "out"
    assert main(["read", "dice", str(photo), "--zones", str(zones_file(tmp_path)), "--annotate", str(out_dir), "--json"]) == 0
    dice = json.loads(capsys.readouterr().out)[0]["dice"]
    assert {d["value"]: d["zone"] for d in dice} == {2: "tray", 6: "kept"}
    drawn = cv2.imread(str(out_dir / "table.png"))
    assert drawn is not None and (drawn[10:700, 898:903] != img[10:700, 898:903]).any()  # the zones' border


def test_read_dice_leaves_out_the_calibrations_ignore_areas(tmp_path, capsys):
    import cv2
    import numpy as np

    from vision.synth import draw_die

    img = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
    draw_die(img, 2, (300, 360), 60)
    draw_die(img, 6, (1100, 360), 60)  # on a printed board the calibration leaves out
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), img)
    cal = tmp_path / "zones.json"
    cal.write_text(json.dumps({"size": [1280, 720], "zones": {"tray": [[0, 0], [900, 0], [900, 720], [0, 720]]},
                               "ignore": [[[950, 0], [1280, 0], [1280, 720], [950, 720]]]}))
    assert main(["read", "dice", str(photo), "--zones", str(cal), "--json"]) == 0
    assert [(d["value"], d["zone"]) for d in json.loads(capsys.readouterr().out)[0]["dice"]] == [(2, "tray")]
    cal.write_text(json.dumps({"zones": {"tray": [[0, 0], [900, 0], [900, 720]]}, "ignroe": []}))
    assert main(["read", "dice", str(photo), "--zones", str(cal)]) == 2
    assert "unknown key(s) ['ignroe']" in capsys.readouterr().err


def test_read_from_a_camera_source_and_bad_zones(tmp_path, capsys):
    folder = tmp_path / "cam"
    folder.mkdir()
    shutil.copy(ROOT / "samples" / "dice" / "face-4.jpg", folder)
    assert main(["read", "dice", "--camera", f"folder:{folder}", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out[0]["image"].startswith("camera-folder-") and [d["value"] for d in out[0]["dice"]] == [4]
    assert main(["read", "dice", "--camera", f"folder:{tmp_path / 'none'}"]) == 2
    assert "--camera folder:" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"zones": {"kept": [[0, 0]]}}')
    assert main(["read", "dice", str(folder / "face-4.jpg"), "--zones", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "--zones: cannot use" in err and "needs at least 3 [x, y] points" in err
    assert main(["read", "dice"]) == 2
    assert "give IMAGE files, or --camera SOURCE" in capsys.readouterr().err


CLEAR_ONE = ROOT / "tests" / "fixtures" / "dice-clear" / "chase-train_DJI_20241005233608_0177_D_detection_1.png"


def test_read_dice_with_another_network(tmp_path, capsys):
    # a clear casino one: the standard network cannot read it (unsure), the clear one reads it;
    # by default (auto) the reader keeps the clear network's reading, which is far surer, and says so
    assert main(["read", "dice", str(CLEAR_ONE), "--network", "standard", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)[0]
    assert [d["value"] for d in out["dice"]] == [None] and out["network"] == "standard"
    for network in ("clear", "auto", None):
        assert main(["read", "dice", str(CLEAR_ONE), "--json"] + (["--network", network] if network else [])) == 0
        out = json.loads(capsys.readouterr().out)[0]
        assert [d["value"] for d in out["dice"]] == [1] and out["network"] == "clear", network
    # the same network given as a file (a table that trained its own names its file so)
    own = tmp_path / "own.onnx"
    shutil.copy(ROOT / "vision" / "models" / "dice_cnn_clear.onnx", own)
    shutil.copy(ROOT / "vision" / "models" / "dice_cnn_clear.json", tmp_path / "own.json")
    assert main(["read", "dice", str(CLEAR_ONE), "--network", str(own), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)[0]
    assert [d["value"] for d in out["dice"]] == [1] and out["network"] == str(own)
    bare = tmp_path / "bare.onnx"  # a network without its record
    shutil.copy(own, bare)
    for network, why in (("glass", "dice network 'glass': expected standard or clear, or the path of an .onnx file"),
                         (str(tmp_path / "none.onnx"), "none.onnx': no such file"),
                         (str(bare), "cannot read the dice model's record")):
        assert main(["read", "dice", str(CLEAR_ONE), "--network", network]) == 2
        err = capsys.readouterr().err
        assert "refbox read: --network: " in err and why in err, err
    photo = ROOT / "tests" / "fixtures" / "dominoes" / "IMG_0350.jpg"
    assert main(["read", "dominoes", str(photo), "--network", "clear"]) == 2
    assert "--network clear: the network reads dice, not dominoes" in capsys.readouterr().err


def test_read_dominoes_annotates_the_tiles(tmp_path, capsys):
    photo = ROOT / "tests" / "fixtures" / "dominoes" / "IMG_0350.jpg"
    assert main(["read", "dominoes", str(photo), "--annotate", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [t["pips"] for t in out[0]["tiles"]] == [[1, 1]]
    assert (tmp_path / "IMG_0350.jpg").is_file()


def test_read_unreadable_image(tmp_path, capsys):
    bad = tmp_path / "x.jpg"
    bad.write_text("not an image")
    assert main(["read", "dice", str(bad), "--json"]) == 2
    assert f"cannot read image {bad}: not an image OpenCV can read" in capsys.readouterr().err


def test_read_says_why_each_picture_cannot_be_read_and_reads_the_others(tmp_path, capsys):
    """A missing file, a folder and a file that is no image are each refused with why; the photo among them is read."""
    photo = ROOT / "tests" / "fixtures" / "dice" / "matteo-dice_42.jpg"
    bad = tmp_path / "x.jpg"
    bad.write_text("not an image")
    assert main(["read", "dice", str(tmp_path / "gone.jpg"), str(tmp_path), str(photo), str(bad), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"refbox read: cannot read image {tmp_path / 'gone.jpg'}: no such file",
        f"refbox read: cannot read image {tmp_path}: a folder, not an image",
        f"refbox read: cannot read image {bad}: not an image OpenCV can read (another format, or a damaged or unreadable file)",
    ]
    out = json.loads(captured.out)
    assert [entry["image"] for entry in out] == [str(photo)] and len(out[0]["dice"]) == 5


def test_read_annotates_each_picture_under_a_name_of_its_own(tmp_path, capsys):
    """Two folders' 1.jpg are written as 1.jpg and 1-2.jpg, a picture without an extension as PNG: none overwrites another."""
    photo = ROOT / "tests" / "fixtures" / "dice" / "matteo-dice_42.jpg"
    for place in ("a/1.jpg", "b/1.jpg", "c/frame"):
        (tmp_path / place).parent.mkdir()
        (tmp_path / place).write_bytes(photo.read_bytes())
    out = tmp_path / "out"
    assert main(["read", "dice", *(str(tmp_path / p) for p in ("a/1.jpg", "b/1.jpg", "c/frame")), "--annotate", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["1-2.jpg", "1.jpg", "frame.png"]
    assert all(cv2.imread(str(p)).shape == cv2.imread(str(photo)).shape for p in out.iterdir())


def test_read_refuses_an_annotate_folder_it_cannot_make_or_write_in(tmp_path, capsys):
    photo = ROOT / "tests" / "fixtures" / "dice" / "matteo-dice_42.jpg"
    taken = tmp_path / "file"
    taken.write_text("")
    assert main(["read", "dice", str(photo), "--annotate", str(taken)]) == 2
    assert capsys.readouterr().err == f"refbox read: --annotate {taken}: cannot make that folder (File exists)\n"
    out = tmp_path / "out"
    (out / "matteo-dice_42.jpg").mkdir(parents=True)  # (a folder where the annotated picture would go)
    assert main(["read", "dice", str(photo), "--annotate", str(out), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"refbox read: --annotate: cannot write {out / 'matteo-dice_42.jpg'}: ")
    assert len(json.loads(captured.out)[0]["dice"]) == 5  # (the readings are printed all the same)


def test_console_script_help_lists_commands():
    out = subprocess.run([sys.executable, "-m", "refbox", "--help"], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    for cmd in ("run", "replay", "read", "games", "odds"):
        assert cmd in out


def test_report_of_a_futsal_match_as_json_and_printable_page(capsys):
    golden = ROOT / "tests" / "golden" / "futsal-final.jsonl"
    assert main(["report", str(golden)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "futsal" and report["goals"] and report["goals"][0]["player"] == 10
    assert main(["report", str(golden), "--html"]) == 0
    page = capsys.readouterr().out
    assert page.lstrip().lower().startswith("<!doctype html") and report["home"] in page


def test_report_of_a_game_without_one_says_so(tmp_path, capsys):
    p = write(tmp_path, {"game": "pig", "players": ["Ann", "Bob"]}, {"type": "roll", "dice": [4]})
    assert main(["report", str(p)]) == 2
    assert "pig has no match report" in capsys.readouterr().err


@pytest.mark.parametrize("setting, why", [
    ('zones = "missing.json"', "camera.zones: cannot use missing.json: "),
    ('dice_network = "glass"', "camera.dice_network: dice network 'glass': expected standard or clear, or the path of an .onnx file "
                               "made by tools/train_dice_classifier.py (or auto: the reader chooses)"),
])
def test_run_refuses_a_camera_setting_it_cannot_use_at_start(tmp_path, setting, why):
    # found only when the camera starts: a clean refusal naming the key, not a traceback
    config = tmp_path / "table.toml"
    config.write_text(f'[camera]\nsource = "usb:0"\n{setting}\n')
    out = subprocess.run([sys.executable, "-m", "refbox", "run", "--sim", "--no-keyboard", "--port", "0",
                          "--config", str(config), "--journal", str(tmp_path / "j.sqlite3")],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 2 and f"refbox run: {why}" in out.stderr and "Traceback" not in out.stderr, out.stderr[-2000:]
