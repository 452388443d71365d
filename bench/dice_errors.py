"""Where the dice reader loses dice on the *tune* part: every error sorted by kind, counted, and listed.

Usage: ``python bench/dice_errors.py DATA_DIR [--set NAME] [--list] [--part tune|inner] [--model FILE.onnx] [--frame WxH] [--camera]``

Runs only the tune part of each set (``bench/dice_accuracy.py``'s ``part_of``):
the held-out part is for whole-set figures only, never looked at photo by photo.
The shipped network was trained on the tune photos, so there it is surer and
righter than on new ones; ``--part inner --model FILE.onnx`` sorts the errors
on the inner validation photos with a network trained without them (the
trainer's ``--validate --save-model FILE.onnx``), which are errors as a new
photo would show them.
Each labelled die is sorted into one kind (a reading matched to it: its centre
inside the labelled box, as in ``bench/dice_accuracy.py``):

- ``missed, no candidate``: no reading, and no candidate face (:func:`vision.dice.candidate_faces`) in its box;
- ``missed, candidate``: no reading, but a candidate in its box (dropped as no die, or another die's reading chosen);
- ``wrong, centred right``: read wrong, while a crop centred on the labelled box (the picture's die size,
  as the trainer's validation cuts it) reads it right: the pipeline's crop is at fault;
- ``wrong, centred wrong``: read wrong, and wrong on the centred crop too: the network;
- ``unsure, centred right`` / ``unsure, centred wrong``: reported unsure;
- ``right`` (and ``right, centred wrong``).

Readings matched to no label are ``extra, near`` (within 1.5 die sizes of a labelled die:
mostly a second reading of it) or ``extra, far``; unsure ones matched to nothing are counted
apart (they cost nothing). ``--list`` prints each error: photo, kind, label, reading, centre
(pixels of the picture read), the centred crop's value and probability.

``--frame WxH`` and ``--camera`` read each photo as ``bench/dice_accuracy.py`` does with them:
placed in a camera frame of that size (its labels moved with it, centres listed in the frame's
pixels), and with ``--camera`` each set's photos read in name order by one camera's reader
(:class:`vision.dice.DiceReader`, which remembers the scale of the dice): the table's scale and
reader, though a frame's pixels are the photo enlarged. A change can help photos alone and not frames.

The dice are read by one network, the standard one or ``--model``'s (``vision.dice.DEFAULT``; not
the choice of two a table makes by default), so that the errors sorted are that network's.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.dice_accuracy import in_frame, match, parse_frame, part_photos, photo  # noqa: E402
from vision import dice_model  # noqa: E402
from vision.dice import CONFIDENCE_THRESHOLD, DEFAULT, DiceReader, Look, die_size, look_at, network_readings  # noqa: E402
from vision.dice_model import classify  # noqa: E402

Row = tuple[str, str, object, object, int, int, str]


def errors_of(name: str, look: Look, labels: list[dict]) -> tuple[Counter[str], list[Row]]:
    """The kinds of one photo's labelled dice and readings (``look``: what the reader saw, :func:`vision.dice.look_at`), and a row per error."""
    readings, work, scale, faces = look.readings, look.work, look.scale, look.faces
    size = die_size(faces)
    centres = []
    for lab in labels:
        x0, y0, x1, y1 = (v * scale for v in lab["box"])
        centres.append(((x0 + x1) / 2, (y0 + y1) / 2, size or float(np.sqrt((x1 - x0) * (y1 - y0)))))
    probs = classify(work, np.array(centres, np.float32)) if centres else np.zeros((0, 7), np.float32)
    kinds: Counter[str] = Counter()
    rows: list[Row] = []
    matched = match(labels, readings)
    for lab, j, die, v, conf, (cx, cy, _) in zip(labels, matched, *(a.tolist() for a in network_readings(probs)), centres):
        centred_right = die >= DEFAULT.min_die and v == lab["value"] and conf >= CONFIDENCE_THRESHOLD
        centred = "centred right" if centred_right else "centred wrong"
        x0, y0, x1, y1 = lab["box"]
        if j is None:
            inside = any(x0 <= f.x / scale <= x1 and y0 <= f.y / scale <= y1 for f in faces)
            kind = "missed, candidate" if inside else "missed, no candidate"
            read: object = "-"
        else:
            read = readings[j].value
            kind = "unsure, " + centred if read is None else ("right" if centred_right else "right, centred wrong") if read == lab["value"] else "wrong, " + centred
        kinds[kind] += 1
        if not kind.startswith("right"):
            rows.append((name, kind, lab["value"], read, round(cx / scale), round(cy / scale), f"{v} {conf:.2f}"))
    used = {j for j in matched if j is not None}
    for j, r in enumerate(readings):
        if j in used:
            continue
        if r.value is None:
            kinds["unsure, matched to no label"] += 1
            continue
        near = any(np.hypot(r.center[0] - cx / scale, r.center[1] - cy / scale) < 1.5 * s / scale for cx, cy, s in centres)
        kind = "extra, near" if near else "extra, far"
        kinds[kind] += 1
        rows.append((name, kind, "-", r.value, round(r.center[0]), round(r.center[1]), f"conf {r.confidence:.2f}"))
    return kinds, rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--set", dest="sets", action="append", help="only this data set (repeatable)")
    ap.add_argument("--list", action="store_true", help="print every error, photo by photo")
    ap.add_argument("--part", choices=("tune", "inner"), default="tune",
                    help="the tune photos (default), or only its inner validation photos (with --model: a network trained without them)")
    ap.add_argument("--model", type=Path, help="another network than the shipped one (an ONNX file from tools/train_dice_classifier.py)")
    ap.add_argument("--frame", type=parse_frame, metavar="WxH", help="read each photo placed in a camera frame of this size (e.g. 1280x720)")
    ap.add_argument("--camera", action="store_true",
                    help="read each set's photos in name order by one camera's reader (vision.dice.DiceReader: it remembers the scale of the dice)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if args.model:
        dice_model.MODEL_PATH = args.model
    for folder in sorted(p for p in args.data_dir.iterdir() if (p / "labels.json").exists()):
        if args.sets and folder.name not in args.sets:
            continue
        labels = json.loads((folder / "labels.json").read_text())
        total: Counter[str] = Counter()
        rows: list[Row] = []
        names = part_photos(labels, args.part)
        reader = DiceReader() if args.camera else None  # (one network: the errors are that network's, and its crops centred on the dice are read by it)
        for name in names:
            image, labs = photo(folder, name), labels[name]
            if args.frame:
                image, s, x, y = in_frame(image, args.frame)
                labs = [{**lab, "box": [lab["box"][0] * s + x, lab["box"][1] * s + y, lab["box"][2] * s + x, lab["box"][3] * s + y]} for lab in labs]
            kinds, found = errors_of(name, reader.look(image) if reader else look_at(image, DEFAULT), labs)
            total += kinds
            rows.extend(found)
        dice = sum(n for k, n in total.items() if not k.startswith(("extra", "unsure, matched")))
        how = (f", in {args.frame[0]}x{args.frame[1]} frames" if args.frame else "") + (", one camera's reader" if args.camera else "")
        print(f"{folder.name} / {args.part}: {len(names)} photos, {dice} dice{how}")
        for kind, n in sorted(total.items()):
            print(f"  {kind:32s} {n:4d}")
        if args.list:
            for row in rows:
                print("   ", *row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
