"""Accuracy of the dice reader on labelled photos, per data set, whole or split into tune and held-out parts.

Usage: ``python bench/dice_accuracy.py DATA_DIR [--set NAME] [--split] [--part tune|held|inner] [--errors] [--network auto|standard|clear | --model FILE.onnx] [--frame WxH] [--camera [--still N]] [--jitter N]``

``DATA_DIR`` holds one folder per data set, each with ``images/`` and ``labels.json``
(``{"file.jpg": [{"value": 1..6, "box": [x0, y0, x1, y1]}, ...]}``): the shared
sets, or sets made by tools/yolo_dice_labels.py (a YOLO export) and
tools/crop_dice_labels.py (crops of single dice sorted by value). With
``--split`` each set is split deterministically by a hash of the file name
(:func:`part_of`): about 60 % *tune* (the only photos looked at while developing
the reader) and 40 % *held*-out (never looked at; the honest figure for photos the
reader has not seen), printed separately. ``--part`` runs one part only (and
implies ``--split``). Without either the whole set is one tally. A labelled die is *found*
when a reading's centre lies inside its box (one reading per label, greedily by
distance); it is *right* when that reading's value equals the label. Readings
reported unsure (value None) count as found but not right.

Printed per set and part: per-die accuracy (right / labelled), accuracy of the
found dice (right / found), recall (found / labelled), exact-photo rate (every
labelled die right and no extra confident reading), the rate of photos a table
would score right (exact, and no unsure reading anywhere: the settler,
``vision.settle``, holds a roll while any reading is unsure, also one off every
die), extra confident readings, unsure readings (and of them, those matched to
no labelled die), and the confusion matrix (rows: label 1-6; columns: read 1-6,
``?`` unsure, ``-`` missed).

With ``--frame 1280x720`` each photo is first scaled to fit such a camera frame
and centred on it (the rest filled with the photo's corner colour), as
bench/dice_speed.py times them: the dice as a camera of that size would see
them (the labelled sets' dice come out about 45 pixels wide, where the photos
have them about 40 pixels wide in a 640-pixel picture). With ``--camera`` each
part's photos are read in name order by one camera's reader
(``vision.dice.DiceReader``, which remembers the scale its dice are read at
over its last frames), as one camera over one table would read them; without
it each photo is read alone (``read_dice``). ``--still N`` has that reader read
each photo N times in a row, as a camera sees a table at rest, and scores the
last reading: the reader in its steady state, which reads the parts of a frame
that differ from the table against the table of its last whole look (about
when the settler takes a roll: N = 6).

``--network`` names the network that reads the dice, as ``camera.dice_network``
does: ``auto`` (the default) has each photo read alone by the standard or the
clear network, whichever reads its dice surer (``vision.dice.AUTO``), and a
camera's reader choose one from the photos it has read
(``vision.dice.ChoosingReader``); ``standard`` or ``clear`` reads with that one.
``--model FILE.onnx`` reads with a network made by tools/train_dice_classifier.py alone.

``--jitter N`` reads each part N times more, every picture the reader reads
with 5 % of its pixels one grey level lighter or darker (:func:`jittered`),
and prints the mean and range of the per-die accuracy and exact photos over
those draws. The reader's choices turn on thresholds, so such a change no eye
sees moves some readings: byler's held photos in 1280 x 720 frames, as a
camera, read 92.89 % by the reader of the twentieth session, and 91.93 to
92.20 % over three jittered draws. A change to the reader that moves the
figures less than that range has not been shown to be better or worse.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.dice import AUTO, Params, camera_reader, params_for, read_dice  # noqa: E402
from vision.types import DieReading  # noqa: E402

Frame = tuple[int, int]
"""A camera frame's width and height, pixels."""


@dataclass
class Tally:
    labelled: int = 0
    found: int = 0
    right: int = 0
    photos: int = 0
    exact: int = 0
    settles: int = 0  # exact, and no unsure reading at all (what the settler would let through)
    extra: int = 0
    unsure: int = 0
    unsure_off: int = 0  # unsure readings matched to no labelled die
    seconds: float = 0.0
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((6, 8), int))
    wrong_photos: list[str] = field(default_factory=list)


def drawn_labels(truth: list[tuple[int, tuple[float, float]]], die: float) -> list[dict]:
    """Labels, as :func:`score` takes them, of dice drawn ``die`` pixels wide (``vision.synth``'s (value, centre)
    pairs): each box half a die round its centre.

    >>> drawn_labels([(3, (100.0, 50.0))], 40.0)
    [{'value': 3, 'box': [80.0, 30.0, 120.0, 70.0]}]
    """
    return [{"value": v, "box": [x - die / 2, y - die / 2, x + die / 2, y + die / 2]} for v, (x, y) in truth]


def match(labels: list[dict], readings: list[DieReading]) -> list[int | None]:
    """For each label, the index of the reading matched to it (centre inside box), or None."""
    pairs = []
    for i, lab in enumerate(labels):
        x0, y0, x1, y1 = lab["box"]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        for j, r in enumerate(readings):
            x, y = r.center
            if x0 <= x <= x1 and y0 <= y <= y1:
                pairs.append((float(np.hypot(x - cx, y - cy)), i, j))
    pairs.sort()
    out: list[int | None] = [None] * len(labels)
    used: set[int] = set()
    for _, i, j in pairs:
        if out[i] is None and j not in used:
            out[i] = j
            used.add(j)
    return out


def score(tally: Tally, name: str, labels: list[dict], readings: list[DieReading]) -> None:
    m = match(labels, readings)
    ok = True
    for lab, j in zip(labels, m):
        tally.labelled += 1
        row = lab["value"] - 1
        if j is None:
            tally.confusion[row, 7] += 1
            ok = False
            continue
        tally.found += 1
        v = readings[j].value
        if v is None:
            tally.confusion[row, 6] += 1
            ok = False
        else:
            tally.confusion[row, v - 1] += 1
            if v == lab["value"]:
                tally.right += 1
            else:
                ok = False
    matched = {j for j in m if j is not None}
    for j, r in enumerate(readings):
        if r.value is None:
            tally.unsure += 1
            tally.unsure_off += j not in matched
        elif j not in matched:
            tally.extra += 1
            ok = False
    tally.photos += 1
    tally.exact += ok
    tally.settles += ok and all(r.value is not None for r in readings)
    if not ok:
        tally.wrong_photos.append(name)


TUNE_SHARE = 0.6


def part_of(name: str) -> str:
    """``"tune"`` or ``"held"`` for a file name, fixed by its SHA-1 (no order, no randomness).

    >>> part_of("IMG_20191208_111228.jpg") in ("tune", "held")
    True
    """
    h = int.from_bytes(hashlib.sha1(name.encode("utf-8")).digest()[:4], "big")
    return "tune" if h < TUNE_SHARE * 2**32 else "held"


VALIDATE_SHARE = 0.2  # this share of the tune photos is the inner validation part


def inner_part_of(name: str) -> str:
    """``"train"`` or ``"validate"`` for a tune photo's file name (the trainer's ``--validate``), fixed by its SHA-1.

    Bytes 4-8 of the digest, so the inner split is independent of ``part_of``
    (which uses bytes 0-4).

    >>> inner_part_of("IMG_20191208_111228.jpg") in ("train", "validate")
    True
    """
    h = int.from_bytes(hashlib.sha1(name.encode("utf-8")).digest()[4:8], "big")
    return "validate" if h < VALIDATE_SHARE * 2**32 else "train"


PARTS = ("all", "tune", "held", "inner", "train")


def part_photos(names: Iterable[str], part: str) -> list[str]:
    """The sorted names of one part of a photo set: ``"all"``; ``"tune"`` or ``"held"``
    (:func:`part_of`); or of the tune photos, ``"inner"``, the ones the trainer's
    ``--validate`` keeps back, or ``"train"``, the rest, which it trains on (:func:`inner_part_of`).

    >>> part_photos(["b.jpg", "a.jpg"], "all")
    ['a.jpg', 'b.jpg']
    """
    names = sorted(names)
    if part == "all":
        return names
    if part in ("tune", "held"):
        return [n for n in names if part_of(n) == part]
    if part in ("inner", "train"):
        inner = "validate" if part == "inner" else "train"
        return [n for n in names if part_of(n) == "tune" and inner_part_of(n) == inner]
    raise ValueError(f"unknown part {part!r}; the parts are {', '.join(PARTS)}")


def parts(names: list[str], split: bool) -> dict[str, list[str]]:
    """The photos of each part, sorted: ``{"all": ...}`` or ``{"tune": ..., "held": ..., "inner": ...}`` (:func:`part_photos`)."""
    return {p: part_photos(names, p) for p in (("tune", "held", "inner") if split else ("all",))}


def photo(folder: Path, name: str) -> np.ndarray:
    """The labelled photo ``name`` of the set in ``folder`` (its ``images/``), BGR; a clear error when it cannot be read."""
    image = cv2.imread(str(folder / "images" / name))
    if image is None:
        raise ValueError(f"cannot read image {str(folder / 'images' / name)!r}")
    return image


def origin_line(origin: str) -> str:
    """``--origin`` of a tool that writes a labelled set, stripped: where the photos come from and their
    licence, on one line (the first of the set's ``ORIGIN.md``, which the trainer's ``--extra``
    records). A blank one, or one of several lines, is refused with a ValueError.

    >>> origin_line(" github.com/x/y @abc, MIT ")
    'github.com/x/y @abc, MIT'
    """
    if not origin.strip() or "\n" in origin:
        raise ValueError("--origin: one line naming where the photos come from and their licence")
    return origin.strip()


def write_set(out: Path, labels: dict[str, list[dict]], origin: str, how: str, tool: str, src: Path) -> None:
    """Write a labelled set's ``labels.json`` and ``ORIGIN.md`` to ``out`` (its ``images/`` written
    already, as :func:`photo` reads them): ORIGIN.md's first line is the :func:`origin_line` and
    ``how`` the photos were changed ("" for not at all), then the ``tool`` that converted them from
    ``src``."""
    (out / "labels.json").write_text(json.dumps(labels, indent=1) + "\n", encoding="utf-8")
    (out / "ORIGIN.md").write_text(f"# {origin_line(origin)}{' — ' + how if how else ''}\n\nConverted by {tool} from {src}.\n", encoding="utf-8")


def in_frame(img: np.ndarray, frame: Frame) -> tuple[np.ndarray, float, int, int]:
    """``img`` scaled to fit a ``frame`` (width, height) and centred on it, the rest its corner colour:
    the frame, the scale, and the photo's left and top offsets in it."""
    w, h = frame
    s = min(w / img.shape[1], h / img.shape[0])
    small = cv2.resize(img, (round(img.shape[1] * s), round(img.shape[0] * s)), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    out = np.empty((h, w, 3), np.uint8)
    out[:] = small[0, 0]
    x, y = (w - small.shape[1]) // 2, (h - small.shape[0]) // 2
    out[y : y + small.shape[0], x : x + small.shape[1]] = small
    return out, s, x, y


def read_in_frame(img: np.ndarray, frame: Frame | None, reader: Callable[[np.ndarray], list[DieReading]] = read_dice) -> list[DieReading]:
    """``reader`` (default ``read_dice``) of the photo, or of the photo placed in a camera ``frame``
    (:func:`in_frame`), in the photo's pixels."""
    if frame is None:
        return reader(img)
    big, s, x, y = in_frame(img, frame)
    return to_photo(reader(big), s, x, y)


def to_photo(readings: Iterable[DieReading], s: float, x: int, y: int) -> list[DieReading]:
    """``readings`` of a frame that holds a photo scaled by ``s`` at ``x``, ``y`` (:func:`in_frame`), in the photo's pixels."""
    out = []
    for r in readings:
        box = None if r.box is None else (int((r.box[0] - x) / s), int((r.box[1] - y) / s), int(np.ceil((r.box[2] - x) / s)), int(np.ceil((r.box[3] - y) / s)))
        out.append(replace(r, center=((r.center[0] - x) / s, (r.center[1] - y) / s), box=box))
    return out


def parse_frame(text: str) -> Frame:
    """``"1280x720"`` as (1280, 720); anything else is an argparse error naming it."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"frame {text!r}: expected WIDTHxHEIGHT in pixels, e.g. 1280x720") from None
    if not (16 <= w <= 10000 and 16 <= h <= 10000):
        raise argparse.ArgumentTypeError(f"frame {text!r}: width and height must be 16 to 10000 pixels")
    return w, h


JITTER = 0.05
"""The share of a picture's pixels :func:`jittered` moves one grey level up or down."""

CAMERA_NOISE = 2.0
"""A camera's noise, grey levels: the standard deviation of each pixel's channels from one frame to the
next (:func:`noisy`), as in the settler's tests of a table at rest (a webcam in a lit room; a dim one has more)."""


def noisy(frame: np.ndarray, rng: np.random.Generator, sigma: float = CAMERA_NOISE) -> np.ndarray:
    """A copy of ``frame`` as a camera would see it in the next frame: Gaussian noise of ``sigma`` grey
    levels in every channel of every pixel."""
    return np.clip(frame + rng.normal(0.0, sigma, frame.shape), 0, 255).astype(np.uint8)


def jittered(image: np.ndarray, rng: np.random.Generator, share: float = JITTER) -> np.ndarray:
    """A copy of ``image`` with ``share`` of its pixels (each chosen with that chance) one grey level
    lighter or darker in every channel, at random: a change no eye sees, less than a camera's own
    noise from one frame to the next."""
    out = image.copy()
    moved = rng.random(image.shape[:2]) < share
    step = rng.choice(np.array([-1, 1], np.int16), size=(int(moved.sum()), 1))
    out[moved] = np.clip(out[moved].astype(np.int16) + step, 0, 255).astype(np.uint8)
    return out


def run_set(folder: Path, split: bool, only: str | None = None, frame: Frame | None = None, camera: bool = False, params: Params = AUTO,
            still: int = 1, jitter: int | None = None) -> dict[str, Tally]:
    """The tally of each part of a set, read by ``read_dice`` with ``params``; with ``camera``, each part's
    photos are read in name order by one camera's reader (:class:`vision.dice.DiceReader`, which
    remembers the scale their dice are read at; for :data:`vision.dice.AUTO` a
    :class:`vision.dice.ChoosingReader`, which also chooses its network from the photos), each photo
    ``still`` times in a row (a table at rest for that many frames) and the last reading scored.
    With ``jitter`` (a seed), every picture the reader reads is :func:`jittered` first."""
    labels = json.loads((folder / "labels.json").read_text())
    out: dict[str, Tally] = {}
    for half, names in parts(list(labels), split).items():
        if only != half and (only is not None or half == "inner"):
            continue
        t = Tally()
        reader: Callable[[np.ndarray], list[DieReading]] = camera_reader(params) if camera else lambda image: read_dice(image, params)
        if jitter is not None:
            rng, plain = np.random.default_rng(jitter), reader
            reader = lambda image: plain(jittered(image, rng))  # noqa: E731
        for name in names:
            image = photo(folder, name)
            if camera and still > 1:
                framed = in_frame(image, frame)[0] if frame is not None else image
                for _ in range(still - 1):  # (the frames before the one scored, as the settler waits for them)
                    reader(framed)
            timed_score(t, name, labels[name], lambda: read_in_frame(image, frame, reader))
        out[half] = t
    return out


def timed_score(t: Tally, name: str, labels: list[dict], read: Callable[[], list[DieReading]]) -> list[DieReading]:
    """``read()`` the picture ``name``, its time added to ``t.seconds``, and :func:`score` its readings
    against ``labels`` in ``t``: the readings."""
    start = time.perf_counter()
    readings = read()
    t.seconds += time.perf_counter() - start
    score(t, name, labels, readings)
    return readings


def report(set_name: str, half: str, t: Tally, errors: bool) -> str:
    pct = lambda a, b: f"{100 * a / b:6.2f} %" if b else "   n/a"  # noqa: E731
    lines = [
        f"{set_name} / {half}: {t.photos} photos, {t.labelled} dice, {1000 * t.seconds / max(t.photos, 1):.1f} ms/photo",
        f"  per-die accuracy {pct(t.right, t.labelled)}   (of found dice {pct(t.right, t.found)})",
        f"  recall           {pct(t.found, t.labelled)}",
        f"  exact photos     {pct(t.exact, t.photos)}   (a table would score right {pct(t.settles, t.photos)}: exact, no unsure reading)",
        f"  extra confident readings {t.extra}, unsure readings {t.unsure} ({t.unsure_off} off every labelled die)",
        "  confusion (rows label, cols read):",
        "        1    2    3    4    5    6    ?    -",
    ]
    for i in range(6):
        lines.append(f"    {i + 1} " + " ".join(f"{n:4d}" for n in t.confusion[i]))
    if errors:
        lines.append("  photos not exact: " + " ".join(t.wrong_photos))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--set", dest="sets", action="append", help="only this data set (repeatable)")
    ap.add_argument("--split", action="store_true", help="print the tune and held-out parts separately")
    ap.add_argument("--part", choices=("tune", "held", "inner"),
                    help="only this part (implies --split); inner: the tune photos the trainer's --validate keeps back, for a network "
                         "trained without them (--save-model)")
    ap.add_argument("--errors", action="store_true", help="list the photos that were not read exactly")
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--network", choices=("auto", "standard", "clear"), default="auto",
                       help="the network that reads the dice, as camera.dice_network (default auto: the standard or the clear one, whichever reads them surer)")
    which.add_argument("--model", type=Path, help="read with this network alone (an ONNX file from tools/train_dice_classifier.py)")
    ap.add_argument("--frame", type=parse_frame, metavar="WxH", help="read each photo placed in a camera frame of this size (e.g. 1280x720)")
    ap.add_argument("--camera", action="store_true",
                    help="read each part's photos in name order by one camera's reader (vision.dice.DiceReader: it remembers the scale of the dice; "
                         "with --network auto a ChoosingReader, which chooses its network from them)")
    ap.add_argument("--still", type=int, default=1, metavar="N",
                    help="with --camera: each photo is a table at rest for N frames, read N times in a row by the camera's reader, "
                         "the last reading scored (6: about when the settler takes a roll; default 1)")
    ap.add_argument("--jitter", type=int, default=0, metavar="N",
                    help="read each part N times more, every picture with 5 %% of its pixels a grey level up or down, "
                         "and print the mean and range of those figures: how far chance alone moves them (default 0)")
    args = ap.parse_args(argv)
    if args.still < 1 or (args.still > 1 and not args.camera):
        ap.error(f"--still {args.still}: 1 or more frames, and more than 1 only with --camera")
    if not 0 <= args.jitter <= 20:
        ap.error(f"--jitter {args.jitter}: 0 to 20 draws")
    try:
        params = params_for(str(args.model) if args.model else args.network)
    except ValueError as exc:  # (no such file, or not an .onnx file)
        ap.error(f"--model: {exc}")
    cv2.setNumThreads(1)
    folders = sorted(p for p in args.data_dir.iterdir() if (p / "labels.json").exists())
    for folder in folders:
        if args.sets and folder.name not in args.sets:
            continue
        split = args.split or args.part is not None
        for half, t in run_set(folder, split, args.part, args.frame, args.camera, params, args.still).items():
            print(report(folder.name, half, t, args.errors))
            if args.jitter:
                draws = [run_set(folder, split, half if split else None, args.frame, args.camera, params, args.still, jitter=d)[half] for d in range(1, args.jitter + 1)]
                print(jitter_line(draws))
    return 0


def jitter_line(draws: list[Tally]) -> str:
    """The per-die accuracy and exact photos of the same photos read ``len(draws)`` times :func:`jittered`:
    their mean and range, the spread that a change to the reader must beat to be more than chance."""
    def spread(values: list[float]) -> str:
        return f"{sum(values) / len(values):.2f} % ({min(values):.2f} to {max(values):.2f})"

    acc = [100 * t.right / t.labelled if t.labelled else 0.0 for t in draws]
    exact = [100 * t.exact / t.photos if t.photos else 0.0 for t in draws]
    return (f"  jittered, {len(draws)} draws ({100 * JITTER:.0f} % of pixels a grey level up or down): "
            f"per-die accuracy {spread(acc)}, exact photos {spread(exact)}")


if __name__ == "__main__":
    raise SystemExit(main())
