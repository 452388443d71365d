"""Train the die-candidate classifier of ``vision.dice_model`` (PyTorch for training; the shipped network runs on numpy).

Usage: ``python tools/train_dice_classifier.py DATA_DIR [--out vision/models/dice_cnn.onnx] [--epochs N]``

Training needs PyTorch (CPU build; not a dependency of Refbox: the reader runs
the exported weights with numpy alone). On the development machine:
``python -m venv /tmp/train && /tmp/train/bin/pip install torch==2.13.0 onnx numpy opencv-python-headless``,
then run this script with that interpreter.

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
from its box); the centre of every labelled die is a sample too (a die the
candidates missed still teaches its face). Each sample is cut ``AUGMENT`` times
at a random rotation, mirror, scale and shift (``vision.dice_model.crops``);
while training, each crop's colours are changed at random (channel order,
inversion, gain, offset, noise) before :func:`vision.dice_model.features`, so
the network learns pip patterns, not the colours of these dice. The network
(``vision.dice_model.LAYERS``: three 3x3 convolutions with batch normalisation,
ReLU and 2x2 max pooling, then two dense layers with dropout) is trained by
AdamW on class-balanced cross-entropy with a cosine learning rate; batch
normalisation is folded into the convolutions when OpenCV loads the ONNX file.
The network is written as ONNX, and the data sets used and their digest to a
JSON record beside it.
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
from vision.dice_model import CROP, CROP_FACTOR, OPPONENT, DiceNet, crops, features  # noqa: E402

AUGMENT = 16
NEGATIVE_SHARE = 0.6  # keep this share of the "no die" samples (there are many)
C1, C2, C3, HIDDEN = 24, 48, 64, 128
EPOCHS = 12
LABEL_SMOOTHING = 0.05
MAX_RATE = 3e-3
SYNTHETIC = 300  # drawn tables added to the photos
SEED = 7


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
    """``times`` crops of each row at a random shift, scale, turn and mirror: (times * n, CROP, CROP, 3) uint8."""
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
    return crops(work, boxes)


def collect(data_dir: Path, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Augmented crops and classes of the tune photos and the drawn tables, and what was used."""
    images, classes, used = [], [], []
    t0 = time.perf_counter()
    for folder in sorted(p for p in data_dir.iterdir() if (p / "labels.json").exists()):
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
            images.append(augmented(work, rows, rng, AUGMENT))
            classes.append(np.tile(cls, AUGMENT))
        used.append(f"{folder.name}: {len(names)} tune photos")
        print(f"{folder.name}: {len(names)} tune photos ({time.perf_counter() - t0:.0f} s)", flush=True)
    for _ in range(SYNTHETIC):
        image, labs = synthetic_scene(rng)
        work, rows, cls = samples_of(image, labs)
        if len(rows):
            images.append(augmented(work, rows, rng, AUGMENT // 2))
            classes.append(np.tile(cls, AUGMENT // 2))
    used.append(f"synthetic: {SYNTHETIC} drawn tables (vision.synth.draw_die, seed {SEED})")
    print(f"synthetic: {SYNTHETIC} drawn tables ({time.perf_counter() - t0:.0f} s)", flush=True)
    return np.concatenate(images), np.concatenate(classes), used


def train(x: np.ndarray, y: np.ndarray, epochs: int, seed: int = SEED) -> Any:
    """Train on uint8 crops ``x`` (n, CROP, CROP, 3) and classes ``y``; the trained torch network (in eval mode)."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    opp = torch.tensor(OPPONENT)

    def feats(batch: torch.Tensor) -> torch.Tensor:
        """The same as vision.dice_model.features, on a float (n, CROP, CROP, 3) BGR batch."""
        o = (batch.reshape(len(batch), -1, 3) @ opp.T)
        o = o - o.mean(dim=1, keepdim=True)
        o = o / (o[:, :, 0].std(dim=1, unbiased=False)[:, None, None] + 8.0)
        return o.transpose(1, 2).reshape(len(batch), 3, CROP, CROP)

    def colour(batch: torch.Tensor) -> torch.Tensor:
        """Random colour changes of a uint8 batch, as float."""
        n = len(batch)
        b = batch.float()
        perm = torch.stack([torch.randperm(3, generator=gen) for _ in range(n)])
        b = torch.gather(b, 3, perm[:, None, None, :].expand(-1, CROP, CROP, 3))
        inv = torch.rand(n, generator=gen) < 0.25
        b[inv] = 255.0 - b[inv]
        gain = 0.6 + 0.8 * torch.rand(n, 1, 1, 3, generator=gen)
        b = b * gain + 40.0 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
        b = b + torch.randn(b.shape, generator=gen) * 4.0 * torch.rand(n, 1, 1, 1, generator=gen)
        return b.clamp(0.0, 255.0)

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(), nn.MaxPool2d(2)]

    net = nn.Sequential(
        *block(3, C1), *block(C1, C2), *block(C2, C3),
        nn.Flatten(), nn.Dropout(0.3), nn.Linear(C3 * (CROP // 8) ** 2, HIDDEN), nn.ReLU(), nn.Dropout(0.3), nn.Linear(HIDDEN, 7),
    )
    xt = torch.from_numpy(x)
    yt = torch.from_numpy(y)
    counts = torch.bincount(yt, minlength=7).float()
    weight = counts.sum() / (7 * counts.clamp(min=1))
    loss_fn = nn.CrossEntropyLoss(weight=weight, label_smoothing=LABEL_SMOOTHING)
    batch = 256
    steps = epochs * ((len(x) + batch - 1) // batch)
    opt = torch.optim.AdamW(net.parameters(), lr=MAX_RATE, weight_decay=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=MAX_RATE, total_steps=steps, pct_start=0.15)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(x), generator=gen)
        total, right, t0 = 0.0, 0, time.perf_counter()
        for s in range(0, len(order), batch):
            idx = order[s : s + batch]
            out = net(feats(colour(xt[idx])))
            loss = loss_fn(out, yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((out.argmax(dim=1) == yt[idx]).sum())
        print(f"  epoch {epoch + 1:2d}: loss {total / len(x):.4f}, right {100 * right / len(x):.1f} % ({time.perf_counter() - t0:.0f} s)", flush=True)
    net.eval()
    return net


def export(net: Any, out: Path, used: list[str], epochs: int) -> None:
    """Write the network with a softmax as ONNX (read by ``cv2.dnn``) and its record (data used, digest) beside it."""
    import torch
    from torch import nn

    out.parent.mkdir(parents=True, exist_ok=True)
    full = nn.Sequential(net, nn.Softmax(dim=1)).eval()
    torch.onnx.export(full, (torch.zeros(1, 3, CROP, CROP),), str(out), dynamo=False, opset_version=13,
                      input_names=["crops"], output_names=["probabilities"], dynamic_axes={"crops": {0: "n"}, "probabilities": {0: "n"}})
    record = {
        "origin": "tune part (bench/dice_accuracy.py part_of) of " + "; ".join(used),
        "digest": hashlib.sha1("\n".join(used).encode()).hexdigest(),
        "layers": f"3x3 convolutions {C1}-{C2}-{C3} (batch norm, ReLU, 2x2 max pool), dense {HIDDEN}, softmax over 7 classes",
        "training": f"{epochs} epochs, AdamW, one-cycle learning rate up to {MAX_RATE:g}, label smoothing {LABEL_SMOOTHING:g}, seed {SEED}",
        "crop": CROP,
        "trainer": "tools/train_dice_classifier.py",
    }
    out.with_suffix(".json").write_text(json.dumps(record, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--out", type=Path, default=ROOT / "vision" / "models" / "dice_cnn.onnx")
    ap.add_argument("--epochs", type=int, default=EPOCHS)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(SEED)
    x, y, used = collect(args.data_dir, rng)
    print("samples per class (0 = no die):", np.bincount(y, minlength=7).tolist(), flush=True)
    net = train(x, y, args.epochs)
    export(net, args.out, used, args.epochs)
    # the exported network, as the reader runs it, must give what the trained one learnt
    model = DiceNet(args.out)
    pred = np.concatenate([model.predict(features(x[i : i + 2048])).argmax(axis=1) for i in range(0, len(x), 2048)])
    print(f"training accuracy (exported network, original colours) {100 * float(np.mean(pred == y)):.1f} %")
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB) and its record {args.out.with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
