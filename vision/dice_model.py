"""A small learned check of die candidates: crop features and a numpy CNN (pure: arrays in, probabilities out).

The classical reader (:mod:`vision.dice`) proposes candidate faces; this
module cuts a square crop round each candidate, normalises it, and a small
convolutional network gives the probability of "no die" (class 0) and of each top value
1..6. The weights ship in ``vision/models/dice_cnn.npz`` and are made by
``tools/train_dice_classifier.py`` from the *tune* part of the labelled photo
sets (see docs/vision.md for the data's origin); inference is numpy only
(convolutions as matrix products).

>>> crop_features(np.zeros((50, 50, 3), np.uint8), np.array([[25.0, 25.0, 20.0, 0.0]])).shape
(1, 3072)
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

CROP = 32
"""Side of the normalised crop, pixels."""

CROP_FACTOR = 1.5
"""The crop is this many estimated die sizes wide (the whole die, also when the candidate is a side face)."""

MODEL_PATH = Path(__file__).resolve().parent / "models" / "dice_cnn.npz"

_OPP = np.array(
    [
        [0.114, 0.587, 0.299],
        [0.0, -0.5, 0.5],
        [-0.5, 0.25, 0.25],
    ],
    np.float32,
)


def crop_features(work: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Features of square crops of a BGR image: (n, 3 * CROP * CROP) float32.

    ``boxes`` rows are (x, y, side, angle degrees, [flip 0/1]): centre, side of
    the square and its rotation. Each crop is resampled to CROP x CROP, turned
    into lightness and two opponent colours, and standardised by the crop's own
    lightness mean and spread (so the colour of dice and light do not matter,
    only the pattern).
    """
    n = len(boxes)
    crops = np.empty((n, CROP, CROP, 3), np.uint8)
    half = CROP / 2.0
    for i in range(n):
        x, y, side, ang = (float(v) for v in boxes[i, :4])
        s = CROP / max(side, 1.0)
        m = cv2.getRotationMatrix2D((x, y), ang, s)
        m[0, 2] += half - x
        m[1, 2] += half - y
        if boxes.shape[1] > 4 and boxes[i, 4] > 0.5:
            m[0] = -m[0]
            m[0, 2] += CROP
        crops[i] = cv2.warpAffine(work, m, (CROP, CROP), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    o = np.asarray(cv2.transform(crops.reshape(n * CROP, CROP, 3).astype(np.float32), _OPP), np.float32).reshape(n, CROP * CROP, 3)
    o = o - o.mean(axis=1, keepdims=True)
    o = o / (o[:, :, 0].std(axis=1)[:, None, None] + 8.0)
    out = o.transpose(0, 2, 1).astype(np.float32)
    return out.reshape(n, -1)


LAYERS = ("c1", "c2", "c3")
"""Three 3x3 convolutions (each ReLU and 2x2 max pooling), then two dense layers (``f1`` ReLU, ``f2`` softmax)."""


@lru_cache(maxsize=2)
def load_model(path: Path = MODEL_PATH) -> dict[str, np.ndarray]:
    """The network's weights; a missing or bad file raises ValueError naming it."""
    keys = [f"{k}{t}" for k in (*LAYERS, "f1", "f2") for t in ("w", "b")]
    try:
        with np.load(path) as z:
            model = {k: z[k].astype(np.float32) for k in keys}
    except (OSError, KeyError, ValueError) as e:
        raise ValueError(f"cannot load dice model {str(path)!r}: {e}") from e
    if model["c1w"].shape[0] != 27:
        raise ValueError(f"dice model {str(path)!r} expects {model['c1w'].shape[0] // 9} channels, crops give 3")
    return model


def im2col(x: np.ndarray) -> np.ndarray:
    """3x3 neighbourhoods (zero padded) of an NHWC array: (N*H*W, 9*C), ordered row, column, channel."""
    n, h, w, c = x.shape
    xp = np.zeros((n, h + 2, w + 2, c), x.dtype)
    xp[:, 1:-1, 1:-1] = x
    cols = np.empty((n, h, w, 9 * c), x.dtype)
    for i in range(3):
        for j in range(3):
            k = 3 * i + j
            cols[..., k * c : (k + 1) * c] = xp[:, i : i + h, j : j + w]
    return cols.reshape(n * h * w, 9 * c)


def pool(x: np.ndarray) -> np.ndarray:
    """2x2 max pooling of an NHWC array."""
    return np.maximum(np.maximum(x[:, 0::2, 0::2], x[:, 0::2, 1::2]), np.maximum(x[:, 1::2, 0::2], x[:, 1::2, 1::2]))


def predict(model: dict[str, np.ndarray], feats: np.ndarray) -> np.ndarray:
    """The same as :func:`forward` (without a cache), laid out for speed: channels first, one matrix product per crop.

    Channels-first rows of ``w`` contiguous values copy much faster than
    channels-last runs of a few values, which matters for the first layers.
    """
    n = len(feats)
    x = feats.reshape(n, 3, CROP, CROP)
    for k in LAYERS:
        _, c, h, w = x.shape
        xp = np.zeros((n, c, h + 2, w + 2), np.float32)
        xp[:, :, 1:-1, 1:-1] = x
        cols = np.empty((n, 9 * c, h, w), np.float32)
        for i in range(3):
            for j in range(3):
                q = 3 * i + j
                cols[:, q * c : (q + 1) * c] = xp[:, :, i : i + h, j : j + w]
        wt = model[k + "w"].T  # (filters, 9 c)
        act = np.matmul(wt, cols.reshape(n, 9 * c, h * w))
        act += model[k + "b"][None, :, None]
        np.maximum(act, 0.0, out=act)
        a = act.reshape(n, -1, h, w)
        x = np.maximum(np.maximum(a[:, :, 0::2, 0::2], a[:, :, 0::2, 1::2]), np.maximum(a[:, :, 1::2, 0::2], a[:, :, 1::2, 1::2]))
    flat = x.transpose(0, 2, 3, 1).reshape(n, -1)
    hid = np.maximum(flat @ model["f1w"] + model["f1b"], 0.0)
    z = hid @ model["f2w"] + model["f2b"]
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return np.asarray(e / e.sum(axis=1, keepdims=True))


def forward(model: dict[str, np.ndarray], feats: np.ndarray, cache: list[np.ndarray] | None = None) -> np.ndarray:
    """Class probabilities (n, 7): column 0 "no die", columns 1..6 the top value.

    ``cache``, when given, receives the intermediate arrays (for training).
    """
    n = len(feats)
    x = feats.reshape(n, 3, CROP, CROP).transpose(0, 2, 3, 1)
    for k in LAYERS:
        _, h, w, _ = x.shape
        cols = im2col(x)
        pre = cols @ model[k + "w"] + model[k + "b"]
        act = np.maximum(pre, 0.0).reshape(n, h, w, -1)
        out = pool(act)
        if cache is not None:
            cache += [cols, act, out]
        x = out
    flat = x.reshape(n, -1)
    hid = np.maximum(flat @ model["f1w"] + model["f1b"], 0.0)
    z = hid @ model["f2w"] + model["f2b"]
    if cache is not None:
        cache += [flat, hid]
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return np.asarray(e / e.sum(axis=1, keepdims=True))


def classify(work: np.ndarray, centres: np.ndarray, model: dict[str, np.ndarray] | None = None, turns: int = 4, sure: float = 0.95) -> np.ndarray:
    """Probabilities (n, 7) for crops round ``centres`` rows (x, y, die size).

    A die face looks the same turned by a quarter, so the crops the network is
    unsure of (top probability below ``sure``) are looked at again turned by
    one to ``turns - 1`` quarters and the answers averaged; this steadies the
    answer where it matters and costs little where the first look is clear.
    """
    model = load_model() if model is None else model
    n = len(centres)
    if n == 0:
        return np.zeros((0, 7), np.float32)

    def look(rows: np.ndarray, quarter: int) -> np.ndarray:
        boxes = np.zeros((len(rows), 4), np.float32)
        boxes[:, 0:2] = rows[:, 0:2]
        boxes[:, 2] = CROP_FACTOR * rows[:, 2]
        boxes[:, 3] = 90.0 * quarter
        return predict(model, crop_features(work, boxes))

    p = look(centres, 0)
    again = np.nonzero(p.max(axis=1) < sure)[0]
    if turns > 1 and len(again):
        more = np.repeat(centres[again], turns - 1, axis=0).reshape(len(again), turns - 1, -1)
        extra = np.stack([look(more[:, k], k + 1) for k in range(turns - 1)])  # (turns - 1, m, 7)
        p[again] = (p[again] + extra.sum(axis=0)) / turns
    return p
