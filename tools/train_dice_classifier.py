"""Train the die-candidate classifier of ``vision.dice_model`` (numpy only, deterministic).

Usage: ``python tools/train_dice_classifier.py DATA_DIR [--out vision/models/dice_cnn.npz]``

``DATA_DIR`` holds the labelled photo sets (``byler/``, ``matteo/``: see
/work/shared/data/dice/README.md and docs/vision.md for their origin and
licences). Only the *tune* part of each set is used (``part_of`` in
bench/dice_accuracy.py, a hash of the file name); the held-out part is never
read here, so bench/dice_accuracy.py --split gives an honest figure for it.

Drawn tables (``synthetic_scene``: ``vision.synth.draw_die`` dice of random
colours, sizes and turns on a shaded table, blurred, noisy, JPEG-compressed) are
added, so the network learns the faces themselves and not only the dice and
cameras of the two photo sets.

Samples are the classical reader's candidate faces (``vision.dice.candidate_faces``):
a candidate whose centre lies in a labelled box takes that die's value, any
other candidate is class 0 ("no die": clutter, specks, a die's side face far
from its box). Each sample is cut several times at a random rotation, mirror,
scale and shift; a small convolutional network is trained by Adam on
class-balanced cross-entropy with weight decay (a small CNN, see
``vision.dice_model.LAYERS``). The weights, the data sets used
and the file lists' digest are written to the output file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from dice_accuracy import part_of  # noqa: E402

from vision.dice import DEFAULT, candidate_faces, die_size, working_copy  # noqa: E402
from vision.synth import draw_die  # noqa: E402
from vision.dice_model import CROP, CROP_FACTOR, LAYERS, crop_features, forward  # noqa: E402

AUGMENT = 8
NEGATIVE_SHARE = 0.5  # keep this share of the "no die" samples (there are many)
C1, C2, C3, HIDDEN = 12, 24, 32, 64
EPOCHS = 12
SYNTHETIC = 250  # drawn tables added to the photos
SEED = 7


def samples_of(image: np.ndarray, labels: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(work image, candidate rows (x, y, size), classes) of one photo."""
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
    return work, np.array(rows, np.float32).reshape(-1, 3), np.array(classes, np.int64)


def synthetic_scene(rng: np.random.Generator) -> tuple[np.ndarray, list[dict]]:
    """A drawn table (``vision.synth.draw_die``) with 3-9 dice of random colours, sizes and turns, blurred, noisy and JPEG-compressed.

    Drawn dice teach the clean idea of each face (the photo sets have few dice
    colours and one camera each); the labels are exact.
    """
    h, w = 480, 640
    base = rng.integers(40, 230, 3)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = base
    # low-frequency shading and texture of a table
    shade = cv2.resize(rng.normal(0, 10, (6, 8, 3)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img = np.clip(img + shade, 0, 255).astype(np.uint8)
    size = float(rng.uniform(22, 60))
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
        while np.abs(body.astype(int) - pip).sum() < 200:
            pip = rng.integers(0, 256, 3)
        value = int(rng.integers(1, 7))
        s = size * float(rng.uniform(0.9, 1.1))
        draw_die(img, value, (x, y), s, float(rng.uniform(0, 90)), tuple(int(c) for c in body), tuple(int(c) for c in pip))  # type: ignore[arg-type]
        labels.append({"value": value, "box": [x - s / 2, y - s / 2, x + s / 2, y + s / 2]})
    sigma = float(rng.uniform(0.0, 1.3))
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = np.clip(img + rng.normal(0, rng.uniform(1, 6), img.shape), 0, 255).astype(np.uint8)
    _, jpg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
    return np.asarray(cv2.imdecode(jpg, cv2.IMREAD_COLOR), np.uint8), labels


def augmented(work: np.ndarray, rows: np.ndarray, rng: np.random.Generator, times: int) -> np.ndarray:
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
    return crop_features(work, boxes)


def loss_and_grads(model: dict[str, np.ndarray], xb: np.ndarray, yb: np.ndarray, cw: np.ndarray) -> tuple[float, dict[str, np.ndarray]]:
    """Class-weighted cross-entropy of a batch and its gradient for every weight (backpropagation by hand)."""
    n = len(xb)
    cache: list[np.ndarray] = []
    p = forward(model, xb, cache)
    wb = cw[yb]
    loss = float(-(wb * np.log(p[np.arange(n), yb] + 1e-9)).sum() / wb.sum())
    g = p.copy()
    g[np.arange(n), yb] -= 1
    g *= (wb / wb.sum())[:, None]
    flat, hid = cache[-2], cache[-1]
    grads = {"f2w": hid.T @ g, "f2b": g.sum(axis=0)}
    gh = (g @ model["f2w"].T) * (hid > 0)
    grads["f1w"] = flat.T @ gh
    grads["f1b"] = gh.sum(axis=0)
    gx = (gh @ model["f1w"].T).reshape(cache[-3].shape)
    for li in range(len(LAYERS) - 1, -1, -1):
        k = LAYERS[li]
        cols, act, out = cache[3 * li : 3 * li + 3]
        nb, h, w, c = act.shape
        # max pooling: the gradient goes to the maximum of each 2x2 cell
        up = np.repeat(np.repeat(out, 2, axis=1), 2, axis=2)
        gup = np.repeat(np.repeat(gx, 2, axis=1), 2, axis=2)
        gact = np.where((act == up) & (act > 0), gup, 0.0).astype(np.float32).reshape(-1, c)
        grads[k + "w"] = cols.T @ gact
        grads[k + "b"] = gact.sum(axis=0)
        if li == 0:
            break
        gcols = (gact @ model[k + "w"].T).reshape(nb, h, w, 3, 3, -1)  # im2col order: row, column, channel
        gxp = np.zeros((nb, h + 2, w + 2, gcols.shape[5]), gcols.dtype)
        for di in range(3):
            for dj in range(3):
                gxp[:, di : di + h, dj : dj + w, :] += gcols[:, :, :, di, dj, :]
        gx = gxp[:, 1:-1, 1:-1, :]
    return loss, grads


def train(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, log: bool = True) -> dict[str, np.ndarray]:
    """Adam on class-balanced cross-entropy; the layout is :data:`vision.dice_model.LAYERS`."""
    shapes = {"c1w": (27, C1), "c2w": (9 * C1, C2), "c3w": (9 * C2, C3), "f1w": ((CROP // 8) ** 2 * C3, HIDDEN), "f2w": (HIDDEN, 7)}
    model: dict[str, np.ndarray] = {}
    for k, (fan_in, fan_out) in shapes.items():
        model[k] = (rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        model[k[:-1] + "b"] = np.zeros(fan_out, np.float32)
    keys = list(model)
    m = {k: np.zeros_like(v) for k, v in model.items()}
    v2 = {k: np.zeros_like(v) for k, v in model.items()}
    counts = np.bincount(y, minlength=7).astype(np.float32)
    cw = (counts.sum() / (7 * np.maximum(counts, 1))).astype(np.float32)
    lr, decay, batch, t = 2e-3, 1e-4, 128, 0
    for epoch in range(EPOCHS):
        order = rng.permutation(len(x))
        total = 0.0
        t0 = time.perf_counter()
        for s in range(0, len(order), batch):
            idx = order[s : s + batch]
            xb, yb = x[idx], y[idx]
            loss, grads = loss_and_grads(model, xb, yb, cw)
            total += loss * len(idx)
            t += 1
            rate = lr * 0.5 * (1 + np.cos(np.pi * (epoch + s / len(order)) / EPOCHS))
            for k in keys:
                gr = grads[k] + (decay * model[k] if k.endswith("w") else 0.0)
                m[k] = 0.9 * m[k] + 0.1 * gr
                v2[k] = 0.999 * v2[k] + 0.001 * gr * gr
                model[k] -= (rate * (m[k] / (1 - 0.9**t)) / (np.sqrt(v2[k] / (1 - 0.999**t)) + 1e-8)).astype(np.float32)
        if log:
            print(f"  epoch {epoch + 1:2d}: loss {total / len(x):.4f} ({time.perf_counter() - t0:.0f} s)", flush=True)
    return model


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--out", type=Path, default=ROOT / "vision" / "models" / "dice_cnn.npz")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(SEED)
    feats, classes, used = [], [], []
    t0 = time.perf_counter()
    for folder in sorted(p for p in args.data_dir.iterdir() if (p / "labels.json").exists()):
        labels = json.loads((folder / "labels.json").read_text())
        names = [n for n in sorted(labels) if part_of(n) == "tune"]
        for name in names:
            image = cv2.imread(str(folder / "images" / name))
            if image is None:
                raise ValueError(f"cannot read image {str(folder / 'images' / name)!r}")
            work, rows, cls = samples_of(image, labels[name])
            keep = (cls > 0) | (rng.random(len(cls)) < NEGATIVE_SHARE)
            rows, cls = rows[keep], cls[keep]
            if not len(rows):
                continue
            feats.append(augmented(work, rows, rng, AUGMENT))
            classes.append(np.tile(cls, AUGMENT))
        used.append(f"{folder.name}: {len(names)} tune photos")
        print(f"{folder.name}: {len(names)} tune photos ({time.perf_counter() - t0:.0f} s)", flush=True)
    for _ in range(SYNTHETIC):
        image, labs = synthetic_scene(rng)
        work, rows, cls = samples_of(image, labs)
        if len(rows):
            feats.append(augmented(work, rows, rng, AUGMENT // 2))
            classes.append(np.tile(cls, AUGMENT // 2))
    used.append(f"synthetic: {SYNTHETIC} drawn tables (vision.synth.draw_die, seed {SEED})")
    print(f"synthetic: {SYNTHETIC} drawn tables ({time.perf_counter() - t0:.0f} s)", flush=True)
    x = np.concatenate(feats)
    y = np.concatenate(classes)
    print("samples per class (0 = no die):", np.bincount(y, minlength=7).tolist(), flush=True)
    model = train(x, y, rng)
    acc = float(np.mean([(forward(model, x[i : i + 1024]).argmax(axis=1) == y[i : i + 1024]).mean() for i in range(0, len(x), 1024)]))
    print(f"training accuracy {100 * acc:.1f} %")
    digest = hashlib.sha1("\n".join(used).encode()).hexdigest()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = dict(model)
    arrays["origin"] = np.array("tune part (bench/dice_accuracy.py part_of) of " + "; ".join(used))
    arrays["digest"] = np.array(digest)
    np.savez_compressed(args.out, **arrays)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
