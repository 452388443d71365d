"""Train the die-candidate classifier of ``vision.dice_model`` (PyTorch for training; the shipped network runs on OpenCV's DNN module).

Usage: ``python tools/train_dice_classifier.py DATA_DIR [--out vision/models/dice_cnn.onnx] [--epochs N]
[--dropout P] [--weight-decay W] [--warp S] [--blur SIGMA] [--synthetic N] [--contrast C] [--solid P] [--isoluminant P] [--dots P] [--channels C1,C2,C3]
[--crop N] [--features lightness|each] [--seed N]
[--validate [--save-probs FILE.npz] [--save-model FILE.onnx]]``

Training needs PyTorch (CPU build; not a dependency of Refbox: the reader runs
the exported ONNX file with OpenCV alone). On the development machine:
``python -m venv /tmp/train && /tmp/train/bin/pip install torch==2.13.0 onnx numpy opencv-python-headless``,
then run this script with that interpreter.

``DATA_DIR`` holds the labelled photo sets (``byler/``, ``matteo/``: see
/work/shared/data/dice/README.md and docs/vision.md for their origin and
licences). Only the *tune* part of each set is used (``part_of`` in
bench/dice_accuracy.py, a hash of the file name); the held-out part is never
read here, so bench/dice_accuracy.py --split gives an honest figure for it.
The shipped network is also trained on every photo of a third set
(``--extra``: Dice-3's train split, made with tools/yolo_dice_labels.py
``--median 3``; vision/models/README.md).

Drawn tables (``synthetic_scene``: ``vision.synth.draw_die`` dice of random
colours, sizes and turns on a shaded table, blurred, noisy, JPEG-compressed) are
added, so the network learns the faces themselves and not only the dice and
cameras of the two photo sets.

Samples are the classical reader's candidate faces (``vision.dice.candidate_faces``):
a candidate whose centre lies in a labelled box takes that die's value, any
other candidate is class 0 ("no die": clutter, specks, a die's side face far
from its box); the centre of every labelled die is a sample too (a die the
candidates missed still teaches its face). Each sample is cut ``AUGMENT`` times
at a random rotation, mirror, scale and shift (``vision.dice_model.crops``);
while training, each crop's colours are changed at random (channel order,
inversion, gain, offset, noise) before :func:`vision.dice_model.features`, so
the network learns pip patterns, not the colours of these dice. The network
(three 3x3 convolutions with batch normalisation,
ReLU and 2x2 max pooling, then two dense layers with dropout) is trained by
AdamW on class-balanced cross-entropy with a cosine learning rate; batch
normalisation is folded into the convolutions when OpenCV loads the ONNX file.
The network is written as ONNX, and the data sets used and their digest to a
JSON record beside it. The reader runs an 8-bit copy of it, made next by
tools/quantize_dice_model.py (``dice_cnn.onnx`` → ``dice_cnn_int8.onnx``, the
file ``vision.dice_model.MODEL_PATH`` names): a network trained anew reaches
the reader only once its copy is made.

Settings to try for a network that generalises better: ``--dropout`` (before
each dense layer, default 0.3), ``--weight-decay`` (AdamW, default 1e-3),
``--warp S`` (while training, each crop squeezed along a random direction by up
to the share S and scaled by up to S/2: a die seen at a slant or a die size
misjudged; default 0) and ``--blur SIGMA`` (a random Gaussian blur of up to
SIGMA crop pixels on half the crops; default 0), ``--synthetic N`` (drawn
tables, default 300) and ``--contrast C`` (the least colour difference, summed
over B, G and R, between a drawn die's body and its pips, default 200; lower
draws fainter pips), ``--solid P`` (the share of drawn dice drawn as solids by
:func:`draw_solid_die`: side faces with their own pips showing beside the top
face, marbled or translucent bodies, like the dice of a tray photo; default 0),
``--isoluminant P`` (the share of drawn dice whose pips have about the body's
lightness and differ from it in colour, as red pips on a smoky die; default 0),
``--dots P`` (the share of drawn tables strewn with dots before their dice are
drawn, :func:`strew_dots`: specks and pip-sized spots, or the fine grain of a
granite worktop, which the classical reader takes for pips and which must read
as "no die"; of such a table at most ``EXTRA_NEGATIVES`` "no die" samples per
die sample are kept; default 0; both networks trained with 0.5 read more of
the third set's specks as dice, not fewer, and with the "no die" class weighed
as without the dots, as many specks and fewer dice: docs/vision-record.md,
"Drawn tables strewn with dots" and the fifteenth session),
``--channels C1,C2,C3`` (the channels of the three convolutions, default
24,48,64; fewer make a faster network; written to the record's ``"layers"``),
``--crop N`` (the side of the network's square crop in
pixels, a multiple of 8, default ``vision.dice_model.CROP`` = 32; the crop
still covers ``CROP_FACTOR`` die sizes, so a larger side sees the die at a
higher resolution; the reader takes the side from the record's ``"crop"``),
``--features each`` (each crop's colour channels standardised by their own
spread instead of the lightness's, :func:`vision.dice_model.features`: pips
that differ from their die in colour only; the record's ``"features"``, which
the reader follows). Settings other than the defaults are written to the record.

``--validate`` chooses settings honestly: the tune photos are split again by
another part of the file name's SHA-1 (``inner_part_of``: about 80 % inner
*train*, 20 % inner *validate*), the network is trained on the inner train part
(and the drawn tables) only, and after each epoch the script prints, per photo
set, the share of the inner validation photos' labelled dice that a crop
centred on the die (as the reader cuts it: ``CROP_FACTOR`` picture die sizes
wide, not turned) reads right (most likely of the 7 classes), at one look and
averaged over four quarter turns, and how the reader would report them at one
look (:func:`as_read`: right, unsure, wrong, no die; the most likely value is
reported only when it holds ``CONFIDENCE_THRESHOLD`` of the die probability). No
model is written unless ``--save-model FILE.onnx`` asks for the inner network:
``bench/dice_accuracy.py DATA_DIR --part inner --model FILE.onnx`` then runs the
whole reader on the inner validation photos, which that network has not seen,
so the reader's own settings (thresholds, second looks) are chosen on photos
as new to it as the held-out ones. Compare settings by these figures only, above all by the dice
reported right (a network that reads more dice right at its most likely value
but less surely gains nothing at the table), then train the chosen ones on the
whole tune part; the
held-out part stays unseen until bench/dice_accuracy.py --split measures the
result. PyTorch runs on one thread (``torch.set_num_threads(1)``).

``--seed N`` (default ``SEED`` = 7) seeds everything random: the augmented
crops, the drawn tables, the network's initial weights and the batch order and
colour changes; it is written to the record. With ``--validate``,
``--save-probs FILE.npz`` also writes the trained network's class probabilities
on each set's inner validation crops, so runs of different seeds or settings
can be combined afterwards: ``<set>_one`` (n, 7; one look), ``<set>_four``
(n, 7; the average over four quarter turns) and ``<set>_labels`` (n,).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from dice_accuracy import part_photos, photo  # noqa: E402

from vision.dice import CONFIDENCE_THRESHOLD, DEFAULT, candidate_faces, die_size, network_readings, working_copy  # noqa: E402
from vision.synth import PIP_RADIUS, PIP_STEP, PIPS, draw_die, face_geometry  # noqa: E402
from vision.dice_model import CROP, CROP_FACTOR, NORMS, OPPONENT, DiceNet, crops, features  # noqa: E402

AUGMENT = 16
NEGATIVE_SHARE = 0.6  # keep this share of the "no die" samples (there are many)
EXTRA_CUTS = 4  # an extra set's samples are cut this many times (the tune photos' AUGMENT)
EXTRA_NEGATIVES = 2  # of an extra set's photo, at most this many "no die" samples per die sample
CHANNELS = (24, 48, 64)  # of the three convolutions
HIDDEN = 128
EPOCHS = 24  # the shipped network's (6, 12 and 24 compared in docs/vision.md)
LABEL_SMOOTHING = 0.05
MAX_RATE = 3e-3
SYNTHETIC = 300  # drawn tables added to the photos
SEED = 7
CONTRAST = 200  # least sum of absolute BGR differences between a drawn die's body and pips
DROPOUT = 0.3
WEIGHT_DECAY = 1e-3


def extra_origin(folder: Path) -> str:
    """The first line of an extra set's ``ORIGIN.md`` (where its photos and labels come from, and their licence), which must exist."""
    origin = folder / "ORIGIN.md"
    lines = origin.read_text(encoding="utf-8").splitlines() if origin.is_file() else []
    first = next((ln.lstrip("# ").strip() for ln in lines if ln.strip()), "")
    if not first:
        raise SystemExit(f"--extra {str(folder)!r}: no ORIGIN.md saying where its photos come from (first line: source, commit, licence)")
    if not (folder / "labels.json").is_file():
        raise SystemExit(f"--extra {str(folder)!r}: no labels.json")
    return first


def samples_of(image: np.ndarray, labels: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(work image, sample rows (x, y, size), classes) of one photo: its candidates and its labelled dice."""
    work, scale = working_copy(image)
    rows, classes = [], []
    faces = candidate_faces(work, DEFAULT)
    size = die_size(faces)
    for f in faces:
        best, cls = np.inf, 0
        for lab in labels:
            x0, y0, x1, y1 = (v * scale for v in lab["box"])
            if x0 <= f.x <= x1 and y0 <= f.y <= y1:
                d = float(np.hypot(f.x - (x0 + x1) / 2, f.y - (y0 + y1) / 2))
                if d < best:
                    best, cls = d, int(lab["value"])
        rows.append((f.x, f.y, size or f.size))
        classes.append(cls)
    if size:
        for lab in labels:
            x0, y0, x1, y1 = (v * scale for v in lab["box"])
            rows.append(((x0 + x1) / 2, (y0 + y1) / 2, size))
            classes.append(int(lab["value"]))
    return work, np.array(rows, np.float32).reshape(-1, 3), np.array(classes, np.int64)


def synthetic_scene(rng: np.random.Generator, contrast: int = CONTRAST, solid: float = 0.0, isoluminant: float = 0.0,
                    dots: float = 0.0) -> tuple[np.ndarray, list[dict], bool]:
    """A drawn table (``vision.synth.draw_die``) with 3-9 dice of random colours, sizes and turns, blurred, noisy and JPEG-compressed;
    its labels; and whether it was strewn with dots.

    Drawn dice teach the clean idea of each face (the photo sets have few dice
    colours and one camera each); the labels are exact. A share ``solid`` of the
    dice is drawn by :func:`draw_solid_die`, its box round the whole die as in
    the tray photos. A share ``isoluminant`` has pips of about the body's
    lightness that differ from it in colour (:func:`isoluminant_pip`: red pips
    on a smoky die, gold on red). A share ``dots`` of the tables is strewn
    with dots first (:func:`strew_dots`), under and between the dice. (With
    ``dots`` 0 the draws are those of a table without the option.)
    """
    h, w = 480, 640
    base = rng.integers(40, 230, 3)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = base
    # low-frequency shading and texture of a table
    shade = cv2.resize(rng.normal(0, 10, (6, 8, 3)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img = np.clip(img + shade, 0, 255).astype(np.uint8)
    size = float(rng.uniform(22, 60))
    strewn = bool(dots) and bool(rng.random() < dots)
    if strewn:
        strew_dots(img, rng, size)
    labels: list[dict] = []
    placed: list[tuple[float, float]] = []
    for _ in range(int(rng.integers(3, 10))):
        for _ in range(200):
            x, y = float(rng.uniform(size, w - size)), float(rng.uniform(size, h - size))
            if all(np.hypot(x - a, y - b) > 1.5 * size for a, b in placed):
                break
        else:
            continue
        placed.append((x, y))
        body = rng.integers(0, 256, 3)
        pip = rng.integers(0, 256, 3)
        while np.abs(body.astype(int) - pip).sum() < contrast:
            pip = rng.integers(0, 256, 3)
        if isoluminant and rng.random() < isoluminant:
            pip = isoluminant_pip(body, rng)
        value = int(rng.integers(1, 7))
        s = size * float(rng.uniform(0.9, 1.1))
        if solid and rng.random() < solid:
            box = draw_solid_die(img, value, (x, y), s, float(rng.uniform(0, 90)), body.astype(np.float32), pip.astype(np.float32), rng)
        else:
            draw_die(img, value, (x, y), s, float(rng.uniform(0, 90)), tuple(int(c) for c in body), tuple(int(c) for c in pip))  # type: ignore[arg-type]
            box = [x - s / 2, y - s / 2, x + s / 2, y + s / 2]
        labels.append({"value": value, "box": box})
    sigma = float(rng.uniform(0.0, 1.3))
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = np.clip(img + rng.normal(0, rng.uniform(1, 6), img.shape), 0, 255).astype(np.uint8)
    _, jpg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
    return np.asarray(cv2.imdecode(jpg, cv2.IMREAD_COLOR), np.uint8), labels, strewn


def strew_dots(img: np.ndarray, rng: np.random.Generator, size: float) -> None:
    """Strew a drawn table ``img`` (in place) with dots, for dice ``size`` wide: on half the tables 20 to 200
    specks and spots of 0.3 to 1.2 times a pip's radius (``vision.synth.PIP_RADIUS``), each dark, light or
    of any colour; on the other half 300 to 2000 grains of 0.5 to 2 pixels, a granite worktop's.

    >>> img = np.full((120, 160, 3), 128, np.uint8)
    >>> strew_dots(img, np.random.default_rng(0), 30.0)
    >>> bool((np.abs(img.astype(int) - 128).sum(axis=2) > 60).any()), img.shape
    (True, (120, 160, 3))
    """
    h, w = img.shape[:2]
    base = img[h // 2, w // 2].astype(int)
    grain = rng.random() < 0.5
    n = int(rng.integers(300, 2001)) if grain else int(rng.integers(20, 201))
    for _ in range(n):
        r = float(rng.uniform(0.5, 2.0)) if grain else size * PIP_RADIUS * float(rng.uniform(0.3, 1.2))
        kind = rng.random()
        if kind < 0.4:
            colour = base * rng.uniform(0.05, 0.5)  # darker than the table
        elif kind < 0.7:
            colour = base + (255 - base) * rng.uniform(0.5, 1.0)  # lighter
        else:
            colour = rng.integers(0, 256, 3).astype(float)
        centre = (int(round(float(rng.uniform(0, w)) * 16)), int(round(float(rng.uniform(0, h)) * 16)))
        cv2.circle(img, centre, max(int(round(r * 16)), 8), tuple(int(c) for c in colour), -1, cv2.LINE_AA, shift=4)


ISO_LIGHTNESS = 12.0
"""An isoluminant drawn pip's lightness differs from its body's by at most this (0..255, ``vision.dice_model.OPPONENT``'s lightness)."""

ISO_COLOUR = 90
"""... and its colour by at least this (sum over B, G, R)."""


def isoluminant_pip(body: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A pip colour (B, G, R) of about the lightness of ``body`` (``ISO_LIGHTNESS``) that differs from it in
    colour (``ISO_COLOUR``), drawn at random; a body so dark or so light that 2000 draws find none gets
    any random colour."""
    weights = OPPONENT[0].astype(np.float64)  # (the lightness the network's features read)
    light = float(weights @ body)
    for _ in range(2000):
        pip = rng.integers(0, 256, 3)
        if abs(float(weights @ pip) - light) <= ISO_LIGHTNESS and np.abs(body.astype(int) - pip).sum() >= ISO_COLOUR:
            return pip
    return rng.integers(0, 256, 3)  # (no such colour: a very dark or very light body)


def draw_solid_die(image: np.ndarray, value: int, center: tuple[float, float], size: float, angle: float,
                   body: np.ndarray, pip: np.ndarray, rng: np.random.Generator) -> list[float]:
    """A die drawn as a solid (in place; returns its box x0, y0, x1, y1): its top face and the side faces a camera off-centre sees.

    Harder than :func:`vision.synth.draw_die`, like the dice of a tray photo: the
    side faces (darker, with pips of their own, foreshortened) show beside the top
    face on a random side by up to 0.4 die sizes; half the dice are marbled
    (bands of a second colour through the body), a third translucent (the table
    shows through the body, the pips are fainter).
    """
    top, top_pips = face_geometry(value, center, size, angle)
    half = size / 2
    lean = float(rng.uniform(0.0, 0.4)) * size
    theta = float(rng.uniform(0, 2 * np.pi))
    shift = np.array([np.cos(theta), np.sin(theta)]) * lean  # the bottom of the die lies this way
    h, w = image.shape[:2]

    def mask(draw: Any) -> np.ndarray:
        m = np.zeros((h, w), np.uint8)
        draw(m)
        return m.astype(np.float32)[..., None] / 255.0

    def poly(points: np.ndarray) -> Any:
        return lambda m: cv2.fillConvexPoly(m, np.round(points * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)

    silhouette = mask(poly(cv2.convexHull(np.vstack([top, top + shift]).astype(np.float32)).reshape(-1, 2)))
    top_face = mask(poly(top))
    pips = np.zeros((h, w), np.uint8)
    radius = size * PIP_RADIUS
    for x, y in top_pips:
        cv2.circle(pips, (int(round(x * 16)), int(round(y * 16))), int(round(radius * 16)), 255, -1, cv2.LINE_AA, shift=4)
    centre = np.asarray(center, np.float64)
    for i in range(4):
        a, b = top[i], top[(i + 1) % 4]
        normal = ((a + b) / 2 - centre) / half
        depth = float(np.dot(shift, normal))  # how far this side face shows
        if depth <= 0:  # it faces away from the camera
            continue
        along, down = (b - a) / 2, shift / 2
        mid = (a + b) / 2 + down
        side_value = int(rng.integers(1, 7))
        swap = bool(rng.integers(0, 2))
        for px, py in PIPS[side_value]:
            u, v = (py, px) if swap else (px, py)
            x, y = mid + u * 2 * PIP_STEP * along + v * 2 * PIP_STEP * down  # (along, down: half the side face's edges)
            axes = (int(round(radius * 16)), int(round(radius * depth / size * 16)))
            if axes[1] < 8:
                continue
            cv2.ellipse(pips, (int(round(x * 16)), int(round(y * 16))), axes, float(np.degrees(np.arctan2(along[1], along[0]))),
                        0, 360, 255, -1, cv2.LINE_AA, shift=4)
    colour: np.ndarray = np.empty((h, w, 3), np.float32)
    colour[:] = body
    if rng.random() < 0.5:  # marbled: bands of a second colour
        field = cv2.resize(rng.random((max(2, h // 24), max(2, w // 24))).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        bands = (0.5 + 0.5 * np.sin(2 * np.pi * float(rng.uniform(2, 6)) * field)) ** float(rng.uniform(1, 4))
        colour += (rng.integers(0, 256, 3).astype(np.float32) - body) * bands[..., None]
    shade = 1.0 - (silhouette - top_face) * float(rng.uniform(0.15, 0.5))  # side faces are darker
    pip_alpha = pips.astype(np.float32)[..., None] / 255.0
    see_through = float(rng.uniform(0.2, 0.5)) if rng.random() < 0.33 else 0.0
    if see_through:
        colour = colour * (1 - see_through) + image * see_through
        pip_alpha *= float(rng.uniform(0.5, 0.9))
    colour = colour * shade * (1 - pip_alpha) + pip * pip_alpha * shade
    out = image * (1 - silhouette) + colour * silhouette
    image[:] = np.clip(out, 0, 255).astype(np.uint8)
    corners = np.vstack([top, top + shift])
    return [float(v) for v in (*corners.min(axis=0), *corners.max(axis=0))]


def augmented(work: np.ndarray, rows: np.ndarray, rng: np.random.Generator, times: int, crop: int = CROP) -> np.ndarray:
    """``times`` crops of each row at a random shift, scale, turn and mirror: (times * n, crop, crop, 3) uint8."""
    n = len(rows)
    boxes = np.zeros((n * times, 5), np.float32)
    for k in range(times):
        b = boxes[k * n : (k + 1) * n]
        side = CROP_FACTOR * rows[:, 2] * rng.uniform(0.85, 1.15, n)
        b[:, 0] = rows[:, 0] + rng.uniform(-0.08, 0.08, n) * side
        b[:, 1] = rows[:, 1] + rng.uniform(-0.08, 0.08, n) * side
        b[:, 2] = side
        b[:, 3] = rng.uniform(0, 360, n)
        b[:, 4] = rng.integers(0, 2, n)
    return crops(work, boxes, crop)


def cap_negatives(keep: np.ndarray, cls: np.ndarray, cap: int, rng: np.random.Generator) -> None:
    """Of the samples ``keep`` marks, leave at most ``cap`` "no die" ones (class 0) per die sample of ``cls``
    (one at least), drawn at random: ``keep`` is changed in place."""
    negatives = np.flatnonzero(keep & (cls == 0))
    keep[rng.permutation(negatives)[cap * max(int(np.sum(cls > 0)), 1):]] = False


def collect(data_dir: Path, rng: np.random.Generator, part: str = "tune", synthetic: int = SYNTHETIC, contrast: int = CONTRAST,
            crop: int = CROP, seed: int = SEED, solid: float = 0.0, extra: Sequence[Path] = (),
            extra_negatives: int = EXTRA_NEGATIVES, isoluminant: float = 0.0, dots: float = 0.0) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Augmented crops and classes of the ``part`` photos (``"tune"``, or ``"train"`` for ``--validate``:
    ``part_photos`` of bench/dice_accuracy.py), of every photo of the ``extra``
    sets (cut ``EXTRA_CUTS`` times, at most ``extra_negatives`` "no die" samples per die sample of a photo),
    and of the drawn tables, and what was used.

    ``rng`` draws everything random; ``seed`` (the one ``rng`` was made from) is only named in what was used.
    """
    images, classes, used = [], [], []
    t0 = time.perf_counter()
    # (folder, its part, cuts per sample, at most this many "no die" samples per die sample of a photo or None)
    sets: list[tuple[Path, str, int, int | None]] = [(p, part, AUGMENT, None) for p in sorted(p for p in data_dir.iterdir() if (p / "labels.json").exists())]
    sets += [(p, "all", EXTRA_CUTS, extra_negatives) for p in extra]
    for folder, which, cuts, cap in sets:
        labels = json.loads((folder / "labels.json").read_text())
        names = part_photos(labels, which)
        for name in names:
            image = photo(folder, name)
            work, rows, cls = samples_of(image, labels[name])
            keep = (cls > 0) | (rng.random(len(cls)) < NEGATIVE_SHARE)
            if cap is not None:  # an extra set's busy backgrounds (boards, stone, cloth) give hundreds of "no die" blobs a photo
                cap_negatives(keep, cls, cap, rng)
            rows, cls = rows[keep], cls[keep]
            if not len(rows):
                continue
            images.append(augmented(work, rows, rng, cuts, crop))
            classes.append(np.tile(cls, cuts))
        what = f"{len(names)} {which} photos" if cap is None else f"all {len(names)} photos of an extra set ({extra_origin(folder)})"
        used.append(f"{folder.name}: {what}")
        print(f"{folder.name}: {what} ({time.perf_counter() - t0:.0f} s)", flush=True)
    for _ in range(synthetic):
        image, labs, strewn = synthetic_scene(rng, contrast, solid, isoluminant, dots)
        work, rows, cls = samples_of(image, labs)
        if strewn:  # (hundreds of dots: at most extra_negatives "no die" samples per die sample, as of an extra set's photo)
            keep = np.ones(len(cls), bool)
            cap_negatives(keep, cls, extra_negatives, rng)
            rows, cls = rows[keep], cls[keep]
        if len(rows):
            images.append(augmented(work, rows, rng, AUGMENT // 2, crop))
            classes.append(np.tile(cls, AUGMENT // 2))
    faint = f", pip contrast at least {contrast}" if contrast != CONTRAST else ""
    faint += f", {solid:g} of the dice drawn as solids (draw_solid_die)" if solid else ""
    faint += f", {isoluminant:g} of the dice with pips of the body's lightness (isoluminant_pip)" if isoluminant else ""
    faint += f", {dots:g} of the tables strewn with dots (strew_dots)" if dots else ""
    used.append(f"synthetic: {synthetic} drawn tables (vision.synth.draw_die, seed {seed}{faint})")
    print(f"synthetic: {synthetic} drawn tables ({time.perf_counter() - t0:.0f} s)", flush=True)
    return np.concatenate(images), np.concatenate(classes), used


def validation_set(data_dir: Path, crop: int = CROP) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """For each photo set, crops centred on the labelled dice of its inner validation photos, as the reader cuts them, and their values.

    The crop is ``CROP_FACTOR`` picture die sizes wide (``die_size``, or the
    labelled box's size when the picture has no clear face), not turned.
    """
    out = {}
    for folder in sorted(p for p in data_dir.iterdir() if (p / "labels.json").exists()):
        labels = json.loads((folder / "labels.json").read_text())
        images, values = [], []
        for name in part_photos(labels, "inner"):
            image = photo(folder, name)
            work, scale = working_copy(image)
            size = die_size(candidate_faces(work, DEFAULT))
            boxes = []
            for lab in labels[name]:
                x0, y0, x1, y1 = (v * scale for v in lab["box"])
                side = size or float(np.sqrt((x1 - x0) * (y1 - y0)))
                boxes.append(((x0 + x1) / 2, (y0 + y1) / 2, CROP_FACTOR * side, 0.0))
                values.append(int(lab["value"]))
            if boxes:
                images.append(crops(work, np.array(boxes, np.float32), crop))
        out[folder.name] = (np.concatenate(images), np.array(values, np.int64))
        print(f"{folder.name}: {len(values)} dice on {len(part_photos(labels, 'inner'))} inner validation photos", flush=True)
    return out


def validation_probs(net: Any, val: dict[str, tuple[np.ndarray, np.ndarray]], norm: str = "lightness") -> dict[str, np.ndarray]:
    """Per set ``s`` of ``val``: ``s_one`` the class probabilities (n, 7) at one look, ``s_four`` their average over four quarter turns, ``s_labels`` the values."""
    import torch

    out = {}
    with torch.no_grad():
        for name, (x, y) in val.items():
            f = torch.from_numpy(features(x, norm)).reshape(len(x), 3, x.shape[1], x.shape[2])
            p = [torch.softmax(net(torch.rot90(f, k, dims=(2, 3))), dim=1).numpy() for k in range(4)]
            out[f"{name}_one"] = p[0]
            out[f"{name}_four"] = sum(p) / 4
            out[f"{name}_labels"] = y
    return out


def as_read(p: np.ndarray, y: np.ndarray) -> tuple[int, int, int, int]:
    """How the reader would report dice of values ``y`` from class probabilities ``p`` (n, 7): (right, unsure, wrong, no die).

    As :func:`vision.dice.learned_faces` reads a candidate (:func:`vision.dice.network_readings`):
    "no die" when the probability of a die is under ``min_die``, else the most
    likely value, unsure when its share of the die probability is under
    ``CONFIDENCE_THRESHOLD`` (and then "no die" when the probability of a die
    is under ``unsure_die``).
    """
    die, value, confidence = network_readings(p)
    no_die = (die < DEFAULT.min_die) | ((confidence < CONFIDENCE_THRESHOLD) & (die < DEFAULT.unsure_die))
    unsure = ~no_die & (confidence < CONFIDENCE_THRESHOLD)
    sure = ~no_die & ~unsure
    return int((sure & (value == y)).sum()), int(unsure.sum()), int((sure & (value != y)).sum()), int(no_die.sum())


def figures_of(probs: dict[str, np.ndarray]) -> str:
    """Per set of ``probs`` (:func:`validation_probs`): the share of dice whose most likely class (of 7) is their value, at one look and over
    four turns, and how the reader would report them at one look (:func:`as_read`: a die's most likely value can be too unsure to report)."""
    parts = []
    for key in probs:
        if key.endswith("_labels"):
            name, y = key[: -len("_labels")], probs[key]
            one = float((probs[f"{name}_one"].argmax(axis=1) == y).mean())
            four = float((probs[f"{name}_four"].argmax(axis=1) == y).mean())
            right, unsure, wrong, no_die = as_read(probs[f"{name}_one"], y)
            parts.append(f"{name} {100 * one:.1f} % ({100 * four:.1f} % over 4 turns) of {len(y)}, "
                         f"as read: {right} right, {unsure} unsure, {wrong} wrong, {no_die} no die")
    return "; ".join(parts)


def validation_figures(net: Any, val: dict[str, tuple[np.ndarray, np.ndarray]], norm: str = "lightness") -> str:
    """Per set: the share of validation dice whose most likely class (of 7) is their value, at one look and averaged over four quarter turns."""
    return figures_of(validation_probs(net, val, norm))


def train(x: np.ndarray, y: np.ndarray, epochs: int, seed: int = SEED, dropout: float = DROPOUT, weight_decay: float = WEIGHT_DECAY,
          warp: float = 0.0, blur: float = 0.0, val: dict[str, tuple[np.ndarray, np.ndarray]] | None = None,
          channels: tuple[int, int, int] = CHANNELS, norm: str = "lightness") -> Any:
    """Train on uint8 crops ``x`` (n, crop, crop, 3; crop a multiple of 8) and classes ``y``; the trained torch network (in eval mode).

    ``warp`` > 0: each crop is also squeezed along a random direction by up to
    that share and scaled by up to half of it at random (a die seen at a slant,
    a die size misjudged); ``blur`` > 0: a random Gaussian blur of up to that
    sigma (pixels of the crop) on half the crops. ``norm``: how the crops'
    channels are standardised (:func:`vision.dice_model.features`). With ``val``
    (:func:`validation_set`) the validation figures are printed after each epoch.
    """
    import torch
    from torch import nn

    side = int(x.shape[1])  # the crop side of these crops
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    opp = torch.tensor(OPPONENT)

    def feats(batch: torch.Tensor) -> torch.Tensor:
        """The same as vision.dice_model.features, on a float (n, side, side, 3) BGR batch."""
        o = (batch.reshape(len(batch), -1, 3) @ opp.T)
        o = o - o.mean(dim=1, keepdim=True)
        if norm == "each":
            o = o / (o.std(dim=1, unbiased=False)[:, None, :] + 8.0)
        else:
            o = o / (o[:, :, 0].std(dim=1, unbiased=False)[:, None, None] + 8.0)
        return o.transpose(1, 2).reshape(len(batch), 3, side, side)

    def colour(batch: torch.Tensor) -> torch.Tensor:
        """Random colour changes of a uint8 batch, as float."""
        n = len(batch)
        b = batch.float()
        perm = torch.stack([torch.randperm(3, generator=gen) for _ in range(n)])
        b = torch.gather(b, 3, perm[:, None, None, :].expand(-1, side, side, 3))
        inv = torch.rand(n, generator=gen) < 0.25
        b[inv] = 255.0 - b[inv]
        gain = 0.6 + 0.8 * torch.rand(n, 1, 1, 3, generator=gen)
        b = b * gain + 40.0 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
        b = b + torch.randn(b.shape, generator=gen) * 4.0 * torch.rand(n, 1, 1, 1, generator=gen)
        return b.clamp(0.0, 255.0)

    def distort(f: torch.Tensor) -> torch.Tensor:
        """Random squeeze, scale and blur of a feature batch (n, 3, side, side)."""
        n = len(f)
        if warp > 0:
            theta = torch.rand(n, generator=gen) * np.pi
            c, s_ = torch.cos(theta), torch.sin(theta)
            squeeze = 1.0 + warp * torch.rand(n, generator=gen)  # >1 samples wider: the die looks narrower
            scale = 1.0 + warp * (torch.rand(n, generator=gen) - 0.5)
            # R diag(squeeze, 1) R^T * scale, the sampling grid's matrix
            a = torch.zeros(n, 2, 3)
            a[:, 0, 0] = (c * c * squeeze + s_ * s_) * scale
            a[:, 0, 1] = a[:, 1, 0] = c * s_ * (squeeze - 1.0) * scale
            a[:, 1, 1] = (s_ * s_ * squeeze + c * c) * scale
            grid = nn.functional.affine_grid(a, list(f.shape), align_corners=False)
            f = nn.functional.grid_sample(f, grid, mode="bilinear", padding_mode="border", align_corners=False)
        if blur > 0:
            sigma = blur * torch.rand(n, generator=gen) * (torch.rand(n, generator=gen) < 0.5)
            t = torch.arange(-2, 3, dtype=torch.float32)
            k = torch.exp(-t[None, :] ** 2 / (2 * sigma[:, None].clamp(min=1e-3) ** 2))
            k = k / k.sum(dim=1, keepdim=True)  # (n, 5); sigma 0 gives (0, 0, 1, 0, 0)
            k = k.repeat_interleave(3, dim=0)  # one kernel per channel of each crop
            g = nn.functional.pad(f.reshape(1, n * 3, side, side), (2, 2, 2, 2), mode="replicate")
            g = nn.functional.conv2d(g, k[:, None, None, :], groups=n * 3)
            f = nn.functional.conv2d(g, k[:, None, :, None], groups=n * 3).reshape(n, 3, side, side)
        return f

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(), nn.MaxPool2d(2)]

    net = nn.Sequential(
        *block(3, channels[0]), *block(channels[0], channels[1]), *block(channels[1], channels[2]),
        nn.Flatten(), nn.Dropout(dropout), nn.Linear(channels[2] * (side // 8) ** 2, HIDDEN), nn.ReLU(), nn.Dropout(dropout), nn.Linear(HIDDEN, 7),
    )
    xt = torch.from_numpy(x)
    yt = torch.from_numpy(y)
    counts = torch.bincount(yt, minlength=7).float()
    weight = counts.sum() / (7 * counts.clamp(min=1))
    loss_fn = nn.CrossEntropyLoss(weight=weight, label_smoothing=LABEL_SMOOTHING)
    batch = 256
    steps = epochs * ((len(x) + batch - 1) // batch)
    opt = torch.optim.AdamW(net.parameters(), lr=MAX_RATE, weight_decay=weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=MAX_RATE, total_steps=steps, pct_start=0.15)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(x), generator=gen)
        total, right, t0 = 0.0, 0, time.perf_counter()
        for s in range(0, len(order), batch):
            idx = order[s : s + batch]
            out = net(distort(feats(colour(xt[idx]))))
            loss = loss_fn(out, yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((out.argmax(dim=1) == yt[idx]).sum())
        line = f"  epoch {epoch + 1:2d}: loss {total / len(x):.4f}, right {100 * right / len(x):.1f} % ({time.perf_counter() - t0:.0f} s)"
        if val:
            net.eval()
            line += "; validation: " + validation_figures(net, val, norm)
        print(line, flush=True)
    net.eval()
    return net


def export(net: Any, out: Path, used: list[str], epochs: int, settings: str = "", crop: int = CROP, seed: int = SEED,
           channels: tuple[int, int, int] = CHANNELS, part: str = "tune", norm: str = "lightness") -> None:
    """Write the network with a softmax as ONNX (read by ``cv2.dnn``) and its record (data used, digest) beside it."""
    import torch
    from torch import nn

    out.parent.mkdir(parents=True, exist_ok=True)
    full = nn.Sequential(net, nn.Softmax(dim=1)).eval()
    torch.onnx.export(full, (torch.zeros(1, 3, crop, crop),), str(out), dynamo=False, opset_version=13,
                      input_names=["crops"], output_names=["probabilities"], dynamic_axes={"crops": {0: "n"}, "probabilities": {0: "n"}})
    record = {
        "origin": PART_ORIGIN[part] + "; ".join(used),
        "digest": hashlib.sha1("\n".join(used).encode()).hexdigest(),
        "layers": f"3x3 convolutions {'-'.join(map(str, channels))} (batch norm, ReLU, 2x2 max pool), dense {HIDDEN}, softmax over 7 classes",
        "training": f"{epochs} epochs, AdamW, one-cycle learning rate up to {MAX_RATE:g}, label smoothing {LABEL_SMOOTHING:g}, seed {seed}" + settings,
        "crop": crop,
        "features": norm,
        "trainer": "tools/train_dice_classifier.py",
    }
    out.with_suffix(".json").write_text(json.dumps(record, indent=2) + "\n")


PART_ORIGIN = {
    "tune": "tune part (bench/dice_accuracy.py part_of) of ",
    "train": "(--validate --save-model: a network to measure the reader on the inner validation photos, not to ship) "
             "inner train part (inner_part_of) of the tune part (bench/dice_accuracy.py part_of) of ",
}


def _channels(text: str) -> tuple[int, int, int]:
    """``--channels``: three positive whole numbers, comma-separated."""
    try:
        c = tuple(int(v) for v in text.split(","))
    except ValueError:
        c = ()
    if len(c) != 3 or min(c) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: three channel counts expected, e.g. 24,48,64")
    return c


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--out", type=Path, default=ROOT / "vision" / "models" / "dice_cnn.onnx")
    ap.add_argument("--epochs", type=int, default=EPOCHS)
    ap.add_argument("--dropout", type=float, default=DROPOUT, help=f"dropout before each dense layer (default {DROPOUT:g})")
    ap.add_argument("--weight-decay", type=float, default=WEIGHT_DECAY, help=f"AdamW weight decay (default {WEIGHT_DECAY:g})")
    ap.add_argument("--warp", type=float, default=0.0, help="random squeeze (up to this share) and scale of the crops while training (default 0: none)")
    ap.add_argument("--blur", type=float, default=0.0, help="random Gaussian blur of up to this sigma (crop pixels) on half the crops while training (default 0: none)")
    ap.add_argument("--synthetic", type=int, default=SYNTHETIC, help=f"drawn tables added (default {SYNTHETIC})")
    ap.add_argument("--contrast", type=int, default=CONTRAST,
                    help=f"least colour difference (sum over B, G, R) between a drawn die's body and pips (default {CONTRAST}; lower: fainter pips)")
    ap.add_argument("--solid", type=float, default=0.0,
                    help="share of the drawn dice drawn as solids: side faces showing, marbled or translucent bodies (draw_solid_die; default 0)")
    ap.add_argument("--isoluminant", type=float, default=0.0,
                    help="share of the drawn dice whose pips have about the body's lightness and differ from it in colour (default 0)")
    ap.add_argument("--dots", type=float, default=0.0,
                    help="share of the drawn tables strewn with specks, spots or granite grain before their dice are drawn (strew_dots; default 0)")
    ap.add_argument("--channels", type=_channels, default=CHANNELS, metavar="C1,C2,C3",
                    help=f"channels of the three convolutions (default {','.join(map(str, CHANNELS))}; fewer: a faster network)")
    ap.add_argument("--features", choices=NORMS, default="lightness",
                    help="standardise each crop's lightness and colour channels by the lightness spread (default) or each by its own (written to the record)")
    ap.add_argument("--crop", type=int, default=CROP, help=f"side of the network's square crop, pixels, a multiple of 8 from 16 to 128 (default {CROP})")
    ap.add_argument("--seed", type=int, default=SEED, help=f"seed of everything random: crops, drawn tables, initial weights, batches (default {SEED})")
    ap.add_argument("--extra", type=Path, action="append", default=[], metavar="DIR",
                    help="another labelled photo set (images/, labels.json as in DATA_DIR, and ORIGIN.md) whose photos are all trained on, "
                         f"cut {EXTRA_CUTS} times instead of {AUGMENT} (repeatable)")
    ap.add_argument("--extra-negatives", type=int, default=EXTRA_NEGATIVES, metavar="N",
                    help=f"of each photo of an --extra set, at most N 'no die' samples per die sample (default {EXTRA_NEGATIVES})")
    ap.add_argument("--validate", action="store_true",
                    help="train on the inner train part of the tune photos and print the accuracy on the inner validation part after each epoch; "
                         "writes no model (but see --save-model)")
    ap.add_argument("--save-probs", type=Path, metavar="FILE.npz",
                    help="with --validate: write the inner validation class probabilities (one look, four-turn average) and labels per set")
    ap.add_argument("--save-model", type=Path, metavar="FILE.onnx",
                    help="with --validate: also write the network trained on the inner train part, to run the whole reader on the inner "
                         "validation photos (bench/dice_accuracy.py --part inner --model FILE.onnx)")
    args = ap.parse_args(argv)
    for opt in ("save_probs", "save_model"):
        if getattr(args, opt) is not None and not args.validate:
            raise SystemExit(f"--{opt.replace('_', '-')} needs --validate (it saves the inner part's results)")
    if args.seed < 0:
        raise SystemExit(f"--seed {args.seed}: out of range (a seed is >= 0)")
    for opt in ("epochs", "dropout", "weight_decay", "warp", "blur", "synthetic", "contrast", "solid", "isoluminant", "dots", "extra_negatives"):
        v = getattr(args, opt)
        if v < 0 or (opt == "epochs" and v < 1) or (opt == "dropout" and v >= 1) or (opt in ("solid", "isoluminant", "dots") and v > 1):
            raise SystemExit(f"--{opt.replace('_', '-')} {v}: out of range")
    if args.crop % 8 or not 16 <= args.crop <= 128:
        raise SystemExit(f"--crop {args.crop}: must be a multiple of 8 from 16 to 128 (three 2x2 poolings)")
    cv2.setNumThreads(1)
    import torch

    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    print(f"crop {args.crop} px, seed {args.seed}", flush=True)
    val = validation_set(args.data_dir, args.crop) if args.validate else None
    for folder in args.extra:
        extra_origin(folder)  # before the long work: every extra set says where it comes from
    x, y, used = collect(args.data_dir, rng, "train" if args.validate else "tune", args.synthetic, args.contrast, args.crop, args.seed, args.solid,
                         args.extra, args.extra_negatives, args.isoluminant, args.dots)
    print("samples per class (0 = no die):", np.bincount(y, minlength=7).tolist(), flush=True)
    net = train(x, y, args.epochs, seed=args.seed, dropout=args.dropout, weight_decay=args.weight_decay, warp=args.warp, blur=args.blur, val=val,
                channels=args.channels, norm=args.features)
    print(f"trained in {time.perf_counter() - t0:.0f} s", flush=True)
    settings = "".join(f", {name} {v:g}" for name, v, d in (("dropout", args.dropout, DROPOUT), ("weight decay", args.weight_decay, WEIGHT_DECAY),
                                                          ("warp", args.warp, 0.0), ("blur", args.blur, 0.0)) if v != d)
    if val is not None:
        probs = validation_probs(net, val, args.features)
        print("inner validation: " + figures_of(probs))
        if args.save_probs is not None:
            args.save_probs.parent.mkdir(parents=True, exist_ok=True)
            np.savez(args.save_probs, **probs)  # type: ignore[arg-type]  # (numpy's stubs take ** for its own keywords)
            print(f"wrote {args.save_probs}")
        if args.save_model is not None:
            export(net, args.save_model, used, args.epochs, settings, args.crop, args.seed, args.channels, part="train", norm=args.features)
            print(f"wrote {args.save_model} and its record {args.save_model.with_suffix('.json')}")
        return 0
    export(net, args.out, used, args.epochs, settings, args.crop, args.seed, args.channels, norm=args.features)
    # the exported network, as the reader runs it, must give what the trained one learnt
    model = DiceNet(args.out)
    pred = np.concatenate([model.predict(features(x[i : i + 2048], model.norm)).argmax(axis=1) for i in range(0, len(x), 2048)])
    print(f"training accuracy (exported network, original colours) {100 * float(np.mean(pred == y)):.1f} %")
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB) and its record {args.out.with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
