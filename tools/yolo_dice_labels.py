"""Turn a YOLO export of labelled dice photos into a labelled photo set as bench/dice_accuracy.py and the trainer read it.

Usage: ``python tools/yolo_dice_labels.py SRC_DIR OUT_DIR --origin "github.com/OWNER/REPO @COMMIT PATH, LICENCE" [--one-per-photo] [--splits train,valid,test]
[--photos REGEX] [--median K [--specks]]``

``SRC_DIR`` is a YOLO export (as Roboflow writes them): ``data.yaml`` naming the
classes, and ``images/`` with ``labels/`` beside them, either in ``SRC_DIR``
itself or in its ``train/``, ``valid/`` and ``test/`` folders (all are taken
unless ``--splits`` names some: an extra set is trained on whole, see
``tools/train_dice_classifier.py --extra``, so an export's ``valid`` and
``test`` photos can be kept apart as a set to measure the reader on).
Or it is a folder as labelling tools such as labelImg write them: the photos and
their label files side by side, and ``classes.txt``, one class name a line.
Each label line is ``class cx cy w h`` in shares of the picture; a class must be
named by a die value, ``'1'`` to ``'6'`` (``names: ['1', '2', ...]``) or its
English word (``One`` to ``Six``, any case), alone or after a word and an
underscore, a hyphen or a space (``'dice_1'``).

``--one-per-photo`` keeps one of the copies an export made of each photo:
Roboflow names them ``<photo>_jpg.rf.<hash>.jpg`` and augments the training
copies (crops, noise, blur), which the trainer does itself; the first name in
order of each ``<photo>`` is kept.

``--median K`` (odd, 3 or more) writes each photo median-filtered K x K
instead of copying it: Roboflow's training copies often carry salt-and-pepper
noise (Dice-3: on 1 % of the pixels), whose specks the reader takes for pips and
a network trained on them learns; the origin line says so. With ``--specks``
only the specks are replaced by the median (:func:`despeckle`; the share of
the pixels replaced is printed), and the rest of the photo is kept as it was:
a median filter also smooths what is fine in a photo (a granite table's grain,
a pip's edge), which the valid and test copies of such an export, without the
noise, keep. (The shipped networks were
trained on Dice-3's copies median-filtered; trained on them despeckled, they
read fewer of the third set's dice: docs/vision-record.md, "Dice-3's training photos
with only their specks removed".)

``--photos REGEX`` keeps only the photos whose file name it matches (Python's
``re.search``): an export that merged several sources, some of them photos
already in a set measured on, gives the others alone; the origin line names
the expression.

``OUT_DIR`` gets ``images/`` (the photos, copied), ``labels.json``
(``{"file.jpg": [{"value": 1..6, "box": [x0, y0, x1, y1]}, ...]}``, boxes in
pixels) and ``ORIGIN.md``, whose first line is ``--origin``: where the photos
come from and under which licence (the trainer writes it to the network's
record). A photo without a label file, a class that is not a die value, or a
malformed line is refused with the file and line named; label files without a
photo (an export whose larger photos were left out) are counted and skipped.
"""

from __future__ import annotations

import argparse
import ast
import re
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.dice_accuracy import origin_line, write_set  # noqa: E402  (the labelled set's format, as the benches read it)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


_WORDS = ("one", "two", "three", "four", "five", "six")

_DIE_VALUE = re.compile(r"(?:[A-Za-z]+[_\- ])?([1-6]|" + "|".join(_WORDS) + ")", re.IGNORECASE)
"""A class name that is a die value: ``'4'`` or ``'Four'``, or after a word (``'dice_4'``, ``'die-4'``, ``'d 4'``)."""


def class_values(data_yaml: Path) -> list[int]:
    """The die value of each class id, from the ``names:`` of a YOLO ``data.yaml``: a one-line list
    (``names: ['1', '2']``) or a block of ``- '1'`` lines."""
    lines = data_yaml.read_text(encoding="utf-8").splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.startswith("names:")), None)
    if start is None:
        raise ValueError(f"{data_yaml}: no 'names:' list of classes")
    inline = lines[start][len("names:"):].strip()
    try:
        if inline:
            names = ast.literal_eval(inline)
        else:
            block = [ln.strip() for ln in lines[start + 1:]]
            names = [ast.literal_eval(ln[1:].strip()) for ln in block[: next((i for i, ln in enumerate(block) if not ln.startswith("-")), len(block))]]
    except (ValueError, SyntaxError):
        raise ValueError(f"{data_yaml}: its 'names:' is not a list of quoted class names") from None
    return _values_of(names, data_yaml, "'names:'")


def listed_values(classes_txt: Path) -> list[int]:
    """The die value of each class id, from a ``classes.txt``: one class name a line."""
    names = [ln.strip() for ln in classes_txt.read_text(encoding="utf-8").splitlines() if ln.strip()]
    return _values_of(names, classes_txt, "it")


def _values_of(names: Sequence[object], source: Path, listed_in: str) -> list[int]:
    """The die value each class name stands for (:data:`_DIE_VALUE`), refused naming ``source`` when one is none."""
    values = []
    for i, name in enumerate(names):
        value = _DIE_VALUE.fullmatch(str(name))
        if value is None:
            raise ValueError(f"{source}: class {i} is named {name!r}, not a die value 1-6 or one to six (alone or after a word and _, - or a space)")
        values.append(int(value[1]) if value[1].isdigit() else _WORDS.index(value[1].lower()) + 1)
    if not values:
        raise ValueError(f"{source}: {listed_in} lists no classes")
    return values


def dice_of(label_file: Path, values: list[int], width: int, height: int) -> list[dict]:
    """The dice of one YOLO label file, boxes in pixels of a ``width`` x ``height`` picture."""
    dice = []
    for number, line in enumerate(label_file.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        try:
            cls, cx, cy, w, h = int(parts[0]), *(float(v) for v in parts[1:5])
            if len(parts) != 5:
                raise ValueError
        except (ValueError, IndexError):
            raise ValueError(f"{label_file}:{number}: {line!r} is not 'class cx cy w h'") from None
        if not 0 <= cls < len(values):
            raise ValueError(f"{label_file}:{number}: class {cls} is not one of the {len(values)} classes named")
        box = [max(0, round((cx - w / 2) * width)), max(0, round((cy - h / 2) * height)),
               min(width, round((cx + w / 2) * width)), min(height, round((cy + h / 2) * height))]
        dice.append({"value": values[cls], "box": box})
    return dice


def photo_of(name: str) -> str:
    """The photo a Roboflow export's file is a copy of: the name before ``.rf.`` (the whole name if it has none)."""
    return name.split(".rf.", 1)[0]


SPLITS = ("train", "valid", "test")


SPECK_STEP = 40
"""A speck (:func:`despeckle`) lies more than this many grey levels from the median round it, in some channel."""

SPECK_DARK, SPECK_LIGHT = 50, 205
"""... and is near black (every channel at most the first) or near white (every channel at least the second)."""


def despeckle(image: np.ndarray, width: int) -> tuple[np.ndarray, float]:
    """``image`` with its salt-and-pepper specks replaced by the median of the ``width`` x ``width`` pixels
    round them, every other pixel kept; and the share of pixels replaced.

    A speck is a pixel near black or near white (:data:`SPECK_DARK`, :data:`SPECK_LIGHT`) that lies more
    than :data:`SPECK_STEP` from that median: the noise Roboflow adds sets pixels to black or white, and
    JPEG keeps them nearly so. On Dice-3's 872 training copies this replaces 0.78 % of the pixels
    (the export says 1 % were noised; some land on a background of their own colour), on its 132
    valid and test copies, which carry no noise, 0.02 %.

    >>> img = np.full((5, 5, 3), 120, np.uint8); img[2, 2] = 0; img[0, 0] = 90
    >>> out, share = despeckle(img, 3)
    >>> int(out[2, 2, 0]), int(out[0, 0, 0]), share
    (120, 90, 0.04)
    """
    med = cv2.medianBlur(image, width)
    extreme = (image.max(axis=2) <= SPECK_DARK) | (image.min(axis=2) >= SPECK_LIGHT)
    speck = extreme & (cv2.absdiff(image, med).max(axis=2) > SPECK_STEP)
    return np.where(speck[:, :, None], med, image), float(speck.mean())


def convert(src: Path, out: Path, origin: str, one_per_photo: bool = False, splits: Sequence[str] = SPLITS,
            median: int = 0, photos: str | None = None, specks: bool = False) -> dict[str, list[dict]]:
    """Write ``out`` (images/, labels.json, ORIGIN.md) from the YOLO export ``src``; the labels written
    (``median``: each photo median-filtered that many pixels wide instead of copied, 0 for none, with
    ``specks`` only its specks, :func:`despeckle`; ``photos``: only the photos whose file name this
    regular expression matches, None for all)."""
    origin_line(origin)  # (refused before anything is written)
    try:
        chosen = None if photos is None else re.compile(photos)
    except re.error as e:
        raise ValueError(f"--photos {photos!r}: not a regular expression ({e})") from None
    if median and (median < 3 or median % 2 == 0):
        raise ValueError(f"--median {median}: an odd width of 3 or more pixels expected")
    if specks and not median:
        raise ValueError("--specks: the median that replaces them is --median K, which was not given")
    folders: list[tuple[Path, Path]]  # (the photos, their label files)
    if not (src / "data.yaml").is_file() and not (src / "classes.txt").is_file():
        raise ValueError(f"{src}: no data.yaml (a YOLO export) or classes.txt (photos and their label files side by side)")
    if (src / "data.yaml").is_file():
        values = class_values(src / "data.yaml")
        folders = [(d / "images", d / "labels") for d in (src, *(src / name for name in splits)) if (d / "images").is_dir()]
        if not folders:
            raise ValueError(f"{src}: no images/ folder, in it or in its {', '.join(f'{n}/' for n in splits)}")
    else:  # (labelImg's layout: the photos and their label files side by side)
        values = listed_values(src / "classes.txt")
        folders = [(src, src)]
    (out / "images").mkdir(parents=True, exist_ok=True)
    labels: dict[str, list[dict]] = {}
    seen: set[str] = set()
    orphans = copies = left = 0
    replaced = pixels = 0.0  # (--specks: the pixels despeckle replaced, of all the photos')
    for images, label_dir in folders:
        if label_dir.is_dir():
            orphans += sum(1 for p in label_dir.glob("*.txt") if p.name != "classes.txt"
                           and not any((images / (p.stem + s)).is_file() for s in IMAGE_SUFFIXES + (".JPG", ".PNG")))
        for image_file in sorted(p for p in images.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES):
            if chosen is not None and not chosen.search(image_file.name):
                left += 1
                continue
            label_file = label_dir / (image_file.stem + ".txt")
            if not label_file.is_file():
                raise ValueError(f"{image_file}: no label file {label_file}")
            if image_file.name in labels:
                raise ValueError(f"{image_file}: a photo of that name is already in the set")
            if one_per_photo:
                if photo_of(image_file.name) in seen:
                    copies += 1
                    continue
                seen.add(photo_of(image_file.name))
            image = cv2.imread(str(image_file))
            if image is None:
                raise ValueError(f"{image_file}: not a readable picture")
            labels[image_file.name] = dice_of(label_file, values, image.shape[1], image.shape[0])
            if median:
                if specks:
                    clean, share = despeckle(image, median)
                    replaced += share * image.shape[0] * image.shape[1]
                    pixels += image.shape[0] * image.shape[1]
                else:
                    clean = cv2.medianBlur(image, median)
                cv2.imwrite(str(out / "images" / image_file.name), clean, [cv2.IMWRITE_JPEG_QUALITY, 95])
            else:
                shutil.copyfile(image_file, out / "images" / image_file.name)
    how = [f"only the photos whose name matches {photos!r} (tools/yolo_dice_labels.py --photos)"] if photos is not None else []
    if median and specks:
        how += [f"each photo's salt-and-pepper specks replaced by their {median}x{median} median, the rest kept (tools/yolo_dice_labels.py --median {median} --specks)"]
    elif median:
        how += [f"each photo median-filtered {median}x{median} (tools/yolo_dice_labels.py --median {median})"]
    filtered = "; ".join(how)
    write_set(out, labels, origin, filtered, "tools/yolo_dice_labels.py", src)
    if orphans:
        print(f"{orphans} label files without a photo skipped", file=sys.stderr)
    if left:
        print(f"{left} photos whose name --photos does not match left out", file=sys.stderr)
    if copies:
        print(f"{copies} more copies of photos already taken skipped (--one-per-photo)", file=sys.stderr)
    if pixels:
        print(f"specks replaced: {100 * replaced / pixels:.2f} % of the pixels of {len(labels)} photos (--specks)", file=sys.stderr)
    return labels


def _splits(text: str) -> tuple[str, ...]:
    """``--splits``: some of train, valid and test, comma-separated."""
    names = tuple(n.strip() for n in text.split(","))
    if not names or any(n not in SPLITS for n in names):
        raise argparse.ArgumentTypeError(f"{text!r}: names of {', '.join(SPLITS)} expected, comma-separated")
    return names


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", type=Path, help="the YOLO export (data.yaml; images/ and labels/, or train/, valid/, test/ holding them), "
                    "or a folder of photos, their label files and classes.txt")
    ap.add_argument("out", type=Path, help="the labelled photo set to write")
    ap.add_argument("--one-per-photo", action="store_true", help="keep one of an export's copies of each photo (Roboflow: NAME_jpg.rf.HASH.jpg)")
    ap.add_argument("--splits", type=_splits, default=SPLITS, metavar="NAMES",
                    help="the export's folders to take, comma-separated, of train, valid, test (default all)")
    ap.add_argument("--origin", required=True, help="one line: where the photos come from (repository, commit, folder) and their licence")
    ap.add_argument("--photos", metavar="REGEX", help="only the photos whose file name this regular expression matches (re.search)")
    ap.add_argument("--median", type=int, default=0, metavar="K",
                    help="write each photo median-filtered K x K pixels (odd; against an export's salt-and-pepper noise)")
    ap.add_argument("--specks", action="store_true", help="with --median K: replace only the salt-and-pepper specks by that median, keep the rest")
    args = ap.parse_args(argv)
    try:
        labels = convert(args.src, args.out, args.origin, args.one_per_photo, args.splits, args.median, args.photos, args.specks)
    except (ValueError, OSError) as e:
        print(f"yolo_dice_labels: {e}", file=sys.stderr)
        return 2
    count = [0] * 7
    for dice in labels.values():
        for d in dice:
            count[d["value"]] += 1
    print(f"{len(labels)} photos, {sum(count)} dice (" + ", ".join(f"{v}: {count[v]}" for v in range(1, 7)) + f") in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
