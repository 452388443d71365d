"""Draw what `refbox read dice --annotate DIR` shows, with the real reader (no hand-made pictures):
the real photos the tests ship (tests/fixtures/dice, with their licences) as read, translucent
casino dice (tests/fixtures/dice-clear) read by the standard and the clear network, single dice
of those photos that read well and that read badly, and a calibration with an ignored area
(`--zones FILE`) on drawn dice.

    .venv/bin/python docs/img/make_vision_images.py     # writes docs/img/read-dice.jpg, clear-dice.jpg, dice-kinds.jpg and zones-ignore.png
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.annotate import draw_dice, draw_zones  # noqa: E402
from vision.dice import Params, read_dice  # noqa: E402
from vision.dice_model import network_path  # noqa: E402
from vision.synth import draw_die  # noqa: E402
from vision.zones import Zones  # noqa: E402

CALIBRATION = {
    "size": [1280, 720],
    "zones": {"tray": [[20, 20], [700, 20], [700, 700], [20, 700]], "kept": [[720, 20], [900, 20], [900, 700], [720, 700]]},
    "ignore": [[[930, 0], [1280, 0], [1280, 720], [930, 720]]],
}


def table() -> np.ndarray:
    """Three dice thrown in the tray, two kept aside, and a score sheet printed with die faces beside them."""
    img = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
    for value, centre, turn in ((3, (200, 250), 10), (5, (420, 430), -25), (6, (560, 220), 40), (6, (810, 200), 0), (6, (810, 420), 5)):
        draw_die(img, value, centre, 64, angle=turn)
    cv2.rectangle(img, (960, 40), (1250, 680), (235, 235, 235), -1)
    for k in range(8):
        draw_die(img, k % 6 + 1, (1030 + 150 * (k % 2), 110 + 150 * (k // 2)), 56)
    return img


FIXTURES = HERE.parents[1] / "tests" / "fixtures" / "dice"
PHOTOS = ("byler-IMG_20191208_111833.jpg", "byler-IMG_20191208_112219.jpg", "matteo-dice_23.jpg", "matteo-dice_42.jpg")


def read_photo(path: Path) -> np.ndarray:
    """A shipped photo; one that cannot be read stops the script naming it."""
    img = cv2.imread(str(path))
    if img is None:
        raise SystemExit(f"{path}: cannot read the photo")
    return img


def read_photos(side: int = 400) -> np.ndarray:
    """Four of the shipped photos, each read and drawn as `--annotate` draws it, scaled to ``side`` px high, two by two."""
    tiles = []
    for name in PHOTOS:
        img = read_photo(FIXTURES / name)
        readings = read_dice(img)
        out = draw_dice(img, readings)
        tiles.append(cv2.resize(out, (round(out.shape[1] * side / out.shape[0]), side), interpolation=cv2.INTER_AREA))
        print(f"{name}:", [r.value for r in readings])
    width = max(t.shape[1] for t in tiles)
    tiles = [cv2.copyMakeBorder(t, 0, 0, 0, width - t.shape[1], cv2.BORDER_CONSTANT, value=(255, 255, 255)) for t in tiles]
    return np.vstack([np.hstack(tiles[:2]), np.hstack(tiles[2:])])


CLEAR = HERE.parents[1] / "tests" / "fixtures" / "dice-clear"


def read_clear_dice(per_row: int = 10, side: int = 110) -> np.ndarray:
    """The translucent casino dice the tests ship (tests/fixtures/dice-clear, in name order) read by
    the standard network (above) and the clear one (below): each photo cut to the middle of its
    canvas, scaled to ``side`` px, ``per_row`` to a row, with what was read written under it (green:
    its die and value alone; red: another value, unsure "?", nothing "-", or more readings than one)."""
    names = sorted(p.name for p in CLEAR.glob("*.png"))
    labels = json.loads((CLEAR / "labels.json").read_text())
    blank = np.full((side + 24, side, 3), 255, np.uint8)
    parts = []
    for network in ("standard", "clear"):
        params = Params(network=network_path(network))
        tiles = []
        exact = 0
        for name in names:
            img = read_photo(CLEAR / name)
            truth = labels[name][0]["value"]
            read = ["?" if r.value is None else str(r.value) for r in read_dice(img, params)]
            ok = read == [str(truth)]
            exact += ok
            h, w = img.shape[:2]
            tile = cv2.resize(img[h // 5 : h - h // 5, w // 5 : w - w // 5], (side, side), interpolation=cv2.INTER_AREA)
            text = (", ".join(read) or "-") + ("" if str(truth) in read else f" (is {truth})")
            strip = np.full((24, side, 3), 255, np.uint8)
            cv2.putText(strip, text, (6, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 140, 0) if ok else (0, 0, 210), 1, cv2.LINE_AA)
            tiles.append(np.vstack([tile, strip]))
        tiles += [blank] * (-len(tiles) % per_row)
        title = f"{network} network: {exact} of {len(names)} photos read exactly (their die, its value, nothing else)"
        head = np.full((34, side * per_row, 3), 255, np.uint8)
        cv2.putText(head, title, (6, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 1, cv2.LINE_AA)
        print(title)
        parts += [head] + [np.hstack(tiles[i : i + per_row]) for i in range(0, len(tiles), per_row)]
    return np.vstack(parts)


KINDS = (
    # (fixture folder, photo, label index, network): opaque dice whose pips differ from the die in lightness ...
    ("dice", "byler-IMG_20191208_111833.jpg", 0, "standard"),
    ("dice", "byler-IMG_20191208_111833.jpg", 4, "standard"),
    ("dice", "byler-IMG_20191208_112116.jpg", 1, "standard"),
    ("dice", "byler-IMG_20191208_112219.jpg", 3, "standard"),
    ("dice", "byler-IMG_20191208_111947.jpg", 3, "standard"),
    ("dice", "matteo-dice_36.jpg", 2, "standard"),
    # ... and the hard kinds: red pips on smoky dice (they differ in colour, hardly in lightness), and
    # translucent casino dice, with the standard network and with the clear one
    ("dice", "byler-IMG_20191208_111833.jpg", 3, "standard"),
    ("dice", "byler-IMG_20191208_112116.jpg", 5, "standard"),
    ("dice-clear", "chase-train_DJI_20241005233608_0177_D_detection_1.png", 0, "standard"),
    ("dice-clear", "chase-train_DJI_20241005233608_0177_D_detection_1.png", 0, "clear"),
)


def dice_kinds(side: int = 120, per_row: int = 6) -> np.ndarray:
    """Single dice of the shipped photos (``KINDS``), each cut round its labelled box (twice its size, at
    least 80 px) from the photo as the reader read it with the given network, with its label and what was
    read written under it: green when right, red when read as another value, unsure (?) or not found (-)."""
    tiles = []
    for folder, name, index, network in KINDS:
        path = HERE.parents[1] / "tests" / "fixtures" / folder / name
        img = read_photo(path)
        label = json.loads((path.parent / "labels.json").read_text())[name][index]
        x0, y0, x1, y1 = label["box"]
        read = [r for r in read_dice(img, Params(network=network_path(network))) if x0 <= r.center[0] <= x1 and y0 <= r.center[1] <= y1]
        half = max(x1 - x0, y1 - y0, 40)
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        crop = cv2.copyMakeBorder(img, half, half, half, half, cv2.BORDER_REPLICATE)[cy : cy + 2 * half, cx : cx + 2 * half]
        tile = cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA if crop.shape[0] > side else cv2.INTER_LINEAR)
        got = ", ".join("?" if r.value is None else f"{r.value} ({r.confidence:.2f})" for r in read) or "-"
        ok = [r.value for r in read] == [label["value"]]
        strip = np.full((40, side, 3), 255, np.uint8)
        colour = (0, 140, 0) if ok else (0, 0, 210)
        cv2.putText(strip, f"is {label['value']}: {got}", (4, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1, cv2.LINE_AA)
        cv2.putText(strip, f"{network} network", (4, 33), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (90, 90, 90), 1, cv2.LINE_AA)
        tiles.append(np.vstack([tile, strip]))
        print(f"{name} #{index}, {network} network: is {label['value']}, read {got}")
    tiles += [np.full_like(tiles[0], 255)] * (-len(tiles) % per_row)
    return np.vstack([np.hstack(tiles[i : i + per_row]) for i in range(0, len(tiles), per_row)])


def main() -> None:
    cv2.imwrite(str(HERE / "read-dice.jpg"), read_photos(), [cv2.IMWRITE_JPEG_QUALITY, 85])
    cv2.imwrite(str(HERE / "clear-dice.jpg"), read_clear_dice(), [cv2.IMWRITE_JPEG_QUALITY, 85])
    cv2.imwrite(str(HERE / "dice-kinds.jpg"), dice_kinds(), [cv2.IMWRITE_JPEG_QUALITY, 85])
    zones = Zones.from_calibration(CALIBRATION)
    img = table()
    readings = zones.assign(read_dice(zones.leave_out(img)), (img.shape[1], img.shape[0]))
    k = 800 / img.shape[1]  # (drawn on the copy shown, as the control page's picture is)
    small = cv2.resize(img, (800, round(img.shape[0] * k)), interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(HERE / "zones-ignore.png"), draw_dice(draw_zones(small, zones, k), readings, scale=k))
    print("zones-ignore.png:", [(r.value, r.zone) for r in readings])


if __name__ == "__main__":
    main()
