"""Turn a set of labelled single-die crops into a labelled photo set as bench/dice_accuracy.py and the trainer read it.

Usage: ``python tools/crop_dice_labels.py SRC_DIR OUT_DIR --origin "github.com/OWNER/REPO @COMMIT PATH, LICENCE" [--part a|b] [--photo REGEX]``

``SRC_DIR`` holds crops of one die each, sorted into folders named by the die's
value (``1/`` to ``6/``), at any depth (``train/3/x.jpg``, ``3/x.jpg``): a
classification export. The reader needs a die on a table, not a die filling
the picture (it models the table round the dice), so each crop is centred on a
plain canvas three times its size, of the median colour of the crop's border
(the table round the die), and labelled with the crop's box: one die, its
centre in that box.

Crops cut from one photo share its lighting and dice, so a set is parted by
photo, not by crop: ``--photo REGEX`` (default ``(.*)_detection_\\d+$``, as
github.com/chaseelliottpatterson/dice-reader names its crops; a name it does not
match is its own photo) takes the photo's name from the crop's file name, and
``--part a`` or ``b`` keeps the photos whose name's SHA-1 starts with an even or
an odd hexadecimal digit (about half each): one part to train on
(``tools/train_dice_classifier.py --extra``), the other to measure on.

``OUT_DIR`` gets ``images/`` (PNG, named ``<split>_<crop name>.png`` after the
folder above the value's, if any), ``labels.json``
(``{"file.png": [{"value": 1..6, "box": [x0, y0, x1, y1]}]}``) and ``ORIGIN.md``,
whose first line is ``--origin`` and says how the pictures were made. A crop
that cannot be read is refused with its path named.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.dice_accuracy import origin_line, write_set  # noqa: E402  (the labelled set's format, as the benches read it)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
PHOTO = r"(.*)_detection_\d+$"


def on_canvas(crop: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """The crop centred on a canvas three times its size, of its border's median colour, and the crop's box there."""
    h, w = crop.shape[:2]
    border = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    canvas = np.empty((3 * h, 3 * w, 3), np.uint8)
    canvas[:] = np.median(border, axis=0).round().astype(np.uint8)
    canvas[h : 2 * h, w : 2 * w] = crop
    return canvas, [w, h, 2 * w, 2 * h]


def photo_of(stem: str, pattern: str = PHOTO) -> str:
    """The name of the photo a crop was cut from (the first group of ``pattern``; the crop's own name if it does not match)."""
    m = re.match(pattern, stem)
    return m.group(1) if m else stem


def part_of(photo: str) -> str:
    """``"a"`` or ``"b"``: the parity of the first hexadecimal digit of the photo name's SHA-1."""
    return "ab"[int(hashlib.sha1(photo.encode()).hexdigest()[0], 16) % 2]


def crops_in(src: Path) -> list[tuple[Path, int]]:
    """Every crop under ``src`` in a folder named by a die value, with that value, in path order."""
    found = [(p, int(p.parent.name)) for p in sorted(src.rglob("*")) if p.suffix.lower() in IMAGE_SUFFIXES and p.parent.name in {"1", "2", "3", "4", "5", "6"}]
    if not found:
        raise SystemExit(f"{src}: no crops in folders named 1 to 6")
    return found


def convert(src: Path, out: Path, origin: str, part: str | None = None, photo: str = PHOTO) -> int:
    """Write the set to ``out`` (see the module's doc); the number of crops written."""
    try:
        origin_line(origin)  # (refused before anything is written)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    labels: dict[str, list[dict]] = {}
    (out / "images").mkdir(parents=True, exist_ok=True)
    for path, value in crops_in(src):
        if part is not None and part_of(photo_of(path.stem, photo)) != part:
            continue
        crop = cv2.imread(str(path))
        if crop is None or crop.ndim != 3:
            raise SystemExit(f"{path}: not a colour picture OpenCV can read")
        canvas, box = on_canvas(crop)
        split = path.parent.parent.name if path.parent.parent != src else ""
        name = f"{split}_{path.stem}.png" if split else f"{path.stem}.png"
        if name in labels:
            raise SystemExit(f"{path}: a second crop named {name}")
        cv2.imwrite(str(out / "images" / name), canvas)
        labels[name] = [{"value": value, "box": box}]
    how = f"each crop centred on a canvas three times its size, of its border's median colour (tools/crop_dice_labels.py{' --part ' + part if part else ''})"
    write_set(out, labels, origin, how, "tools/crop_dice_labels.py", src)
    return len(labels)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--origin", required=True, help="where the crops come from: repository, commit, folder, licence (ORIGIN.md's first line)")
    ap.add_argument("--part", choices=("a", "b"), help="only the photos of this part (by the SHA-1 of the photo's name)")
    ap.add_argument("--photo", default=PHOTO, help=f"regular expression whose first group is a crop's photo (default {PHOTO!r})")
    args = ap.parse_args(argv)
    try:
        re.compile(args.photo)
    except re.error as e:
        ap.error(f"--photo {args.photo!r}: {e}")
    n = convert(args.src, args.out, args.origin, args.part, args.photo)
    print(f"wrote {n} crops to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
