"""A small learned check of die candidates: crop features and a CNN run by OpenCV's DNN module (pure: arrays in, probabilities out).

The classical reader (:mod:`vision.dice`) proposes candidate faces; this
module cuts a square crop round each candidate, normalises it, and a small
convolutional network gives the probability of "no die" (class 0) and of each
top value 1..6. The network is made by ``tools/train_dice_classifier.py``
(``vision/models/dice_cnn.onnx``, with ``dice_cnn.json`` beside it: the data
it was trained on and that data's digest) from the *tune* part of the
labelled photo sets and the photos of a third set (see vision/models/README.md
and docs/vision.md for the data's origin). It runs on the CPU through
``cv2.dnn``, nothing else is needed at run time. A second network, ``clear``
(:data:`NETWORKS`), is trained also on translucent casino dice. Beside each
lies its copy with the second and third convolutions in 8 bits
(:data:`EIGHT_BIT`), made by ``tools/quantize_dice_model.py``.

>>> crop_features(np.zeros((50, 50, 3), np.uint8), np.array([[25.0, 25.0, 20.0, 0.0]])).shape
(1, 3072)
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

CROP = 32
"""Default side of the normalised crop, pixels (the trainer's default; a loaded network reads crops of the side its record names: :attr:`DiceNet.crop`)."""

CROP_FACTOR = 1.5
"""The crop is this many estimated die sizes wide (the whole die, also when the candidate is a side face)."""

MODEL_PATH = Path(__file__).resolve().parent / "models" / "dice_cnn.onnx"

NETWORKS: dict[str, str] = {
    "standard": MODEL_PATH.name,
    "clear": "dice_cnn_clear.onnx",
}
"""The shipped networks by name (files in ``vision/models``, made by ``tools/train_dice_classifier.py``):
``standard`` (opaque dice of any colour: ``Params.network`` unless told otherwise) and ``clear``,
trained also on translucent casino dice whose hidden pips show through (it reads those far better
and opaque dice a little worse: docs/vision.md). By default the reader chooses between the two
(``vision.dice.AUTO``, ``vision.dice.ChoosingReader``)."""

EIGHT_BIT: dict[str, str] = {
    "standard": "dice_cnn_int8.onnx",
    "clear": "dice_cnn_clear_int8.onnx",
}
"""The 8-bit copy (``tools/quantize_dice_model.py``) of each network of :data:`NETWORKS`, in ``vision/models``:
a network given by path (:func:`network_path`). The reader ran them from the thirteenth to the
twenty-second session. On that session's machine they took 0.162 ms a crop against 0.177 (its CPU's
instructions were not recorded); on a CPU with AVX2 alone and no 8-bit dot products, 0.43 against 0.22 (docs/vision-record.md, "Back to the
floating-point networks")."""


def network_path(network: str) -> Path | None:
    """The ONNX file of a network named in :data:`NETWORKS` or given as a path to an ``.onnx`` file
    made by tools/train_dice_classifier.py (its record, the ``.json`` beside it, is read when it is
    loaded); ``standard`` gives None: :data:`MODEL_PATH`, looked up at call time. Anything else is
    refused with a ValueError naming it.

    >>> network_path("clear").name
    'dice_cnn_clear.onnx'
    >>> network_path("standard") is None
    True
    """
    if network == "standard":
        return None
    if network in NETWORKS:
        return MODEL_PATH.parent / NETWORKS[network]
    path = Path(network)
    if path.suffix != ".onnx":
        raise ValueError(f"dice network {network!r}: expected {' or '.join(NETWORKS)}, or the path of an .onnx file made by tools/train_dice_classifier.py")
    if not path.is_file():
        raise ValueError(f"dice network {network!r}: no such file")
    return path


def network_name(path: Path | None) -> str:
    """The name :func:`network_path` gives ``path`` (a shipped network's name, or the file).

    >>> network_name(None), network_name(network_path("clear"))
    ('standard', 'clear')
    """
    if path is None or path == MODEL_PATH:
        return "standard"
    return next((name for name, file in NETWORKS.items() if path == MODEL_PATH.parent / file), str(path))


OPPONENT = np.array(
    [
        [0.114, 0.587, 0.299],
        [0.0, -0.5, 0.5],
        [-0.5, 0.25, 0.25],
    ],
    np.float32,
)
"""BGR to lightness and two opponent colours (red - green, yellow - blue)."""


def crop_features(work: np.ndarray, boxes: np.ndarray, crop: int = CROP, norm: str = "lightness") -> np.ndarray:
    """Features of square crops of a BGR image: (n, 3 * crop * crop) float32 (:func:`features` of :func:`crops`)."""
    return features(crops(work, boxes, crop), norm)


def crops(work: np.ndarray, boxes: np.ndarray, crop: int = CROP) -> np.ndarray:
    """Square crops of a BGR image, resampled to ``crop`` x ``crop`` pixels: (n, crop, crop, 3) uint8.

    ``boxes`` rows are (x, y, side, angle degrees, [flip 0/1]): centre, side of
    the square and its rotation (and a mirror).
    """
    n = len(boxes)
    out = np.empty((n, crop, crop, 3), np.uint8)
    half = crop / 2.0
    for i in range(n):
        x, y, side, ang = (float(v) for v in boxes[i, :4])
        s = crop / max(side, 1.0)
        m = cv2.getRotationMatrix2D((x, y), ang, s)
        m[0, 2] += half - x
        m[1, 2] += half - y
        if boxes.shape[1] > 4 and boxes[i, 4] > 0.5:
            m[0] = -m[0]
            m[0, 2] += crop
        out[i] = cv2.warpAffine(work, m, (crop, crop), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


NORMS = ("lightness", "each")
"""How :func:`features` standardises a crop's channels: all three by the lightness spread, or each by its own."""


def features(crop: np.ndarray, norm: str = "lightness") -> np.ndarray:
    """The network's input for (n, side, side, 3) BGR crops: (n, 3 * side * side) float32, channels first.

    Each crop is turned into lightness and two opponent colours, each centred
    on its mean and divided by a spread (plus 8, so a plain crop's noise stays
    small): with ``norm`` "lightness" (the networks before the record named a
    norm) all three by the lightness spread, so the colour of dice and light do
    not matter, only the pattern; with "each" each channel by its own, so pips
    that differ from their die in colour only (red pips on a smoky black die)
    stand out as much as dark pips on a white one.
    """
    n, side = len(crop), crop.shape[1]
    o: np.ndarray = np.ascontiguousarray(  # channels first: each channel of each crop one contiguous row
        cv2.transform(crop.reshape(n * side, side, 3).astype(np.float32), OPPONENT).reshape(n, side * side, 3).transpose(0, 2, 1), np.float32
    )
    o -= o.mean(axis=2, keepdims=True)
    # (the channels are centred: a spread is the root of the mean square)
    if norm == "each":
        o /= (np.sqrt(np.square(o).mean(axis=2)) + 8.0)[:, :, None]
    elif norm == "lightness":
        o /= (np.sqrt(np.square(o[:, 0]).mean(axis=1)) + 8.0)[:, None, None]
    else:
        raise ValueError(f"unknown feature norm {norm!r}, expected one of {', '.join(NORMS)}")
    return o.reshape(n, -1)


class DiceNet:
    """The shipped network, loaded once: :meth:`predict` gives class probabilities (n, 7) for features (n, 3 * crop * crop).

    The side of its crops, :attr:`crop`, is the ``"crop"`` of the record
    beside the model (``dice_cnn.json``); loading checks that the network
    takes crops of that side. How its crops are standardised, :attr:`norm`
    (:func:`features`), is the record's ``"features"`` (``"lightness"`` when
    the record names none). An OpenCV DNN net holds its buffers, so calls
    from several threads (a camera worker and a command line reading) take turns.
    """

    def __init__(self, path: Path = MODEL_PATH) -> None:
        self.path = path
        try:
            self.net = cv2.dnn.readNetFromONNX(str(path))
        except cv2.error as e:
            raise ValueError(f"cannot load dice model {str(path)!r}: {_last_line(e)}") from e
        self._lock = threading.Lock()
        meta = str(path.with_suffix(".json"))
        record = self.origin()
        crop = record.get("crop")
        if isinstance(crop, bool) or not isinstance(crop, int) or not 8 <= crop <= 512:
            raise ValueError(f"the dice model's record {meta!r} gives crop {crop!r}, expected the side of the network's crops in pixels (8..512)")
        self.crop: int = crop
        norm = record.get("features", "lightness")
        if norm not in NORMS:
            raise ValueError(f"the dice model's record {meta!r} gives features {norm!r}, expected one of {', '.join(NORMS)} (how the crops are standardised)")
        self.norm: str = norm
        try:
            out = self.predict(np.zeros((1, 3 * crop * crop), np.float32))
        except cv2.error as e:
            raise ValueError(f"dice model {str(path)!r} does not take the {crop} x {crop} pixel crops its record {meta!r} names: {_last_line(e)}") from e
        if out.shape != (1, 7):
            raise ValueError(f"dice model {str(path)!r} gives {out.shape[1:]} outputs per crop, expected 7 (no die, 1..6)")

    def predict(self, feats: np.ndarray) -> np.ndarray:
        n, c = len(feats), self.crop
        if feats.ndim != 2 or feats.shape[1] != 3 * c * c:
            raise ValueError(f"dice model {str(self.path)!r} takes features of {c} x {c} pixel crops, (n, {3 * c * c}); got shape {feats.shape}")
        if n == 0:
            return np.zeros((0, 7), np.float32)
        blob = np.ascontiguousarray(feats.reshape(n, 3, c, c), np.float32)
        with self._lock:
            self.net.setInput(blob)
            out = self.net.forward()
        return np.asarray(out, np.float32).reshape(n, -1)

    def origin(self) -> dict[str, Any]:
        """What the network was trained on (the ``.json`` beside the model: ``dice_cnn.json``)."""
        meta = self.path.with_suffix(".json")
        try:
            return dict(json.loads(meta.read_text()))
        except (OSError, ValueError) as e:
            raise ValueError(f"cannot read the dice model's record {str(meta)!r}: {e}") from e


def _last_line(e: Exception) -> str:
    return str(e).strip().splitlines()[-1].strip()


def load_model(path: Path | None = None) -> DiceNet:
    """The network at ``path`` (default: :data:`MODEL_PATH`, looked up at call time), loaded once per path;
    a missing or bad file raises ValueError naming it."""
    return _load(MODEL_PATH if path is None else path)


@lru_cache(maxsize=4)
def _load(path: Path) -> DiceNet:
    if not path.is_file():
        raise ValueError(f"cannot load dice model {str(path)!r}: no such file")
    return DiceNet(path)


def candidate_features(work: np.ndarray, rows: np.ndarray, crop: int = CROP, norm: str = "lightness", quarters: np.ndarray | None = None) -> np.ndarray:
    """Features (:func:`crop_features`) of the crops the reader cuts round ``rows`` (x, y, die size):
    ``CROP_FACTOR`` die sizes wide, turned by ``quarters`` quarter turns each (None: not turned)."""
    boxes = np.zeros((len(rows), 4), np.float32)
    boxes[:, 0:2] = rows[:, 0:2]
    boxes[:, 2] = CROP_FACTOR * rows[:, 2]
    if quarters is not None:
        boxes[:, 3] = 90.0 * quarters
    return crop_features(work, boxes, crop, norm)


def classify(
    work: np.ndarray,
    centres: np.ndarray,
    model: DiceNet | None = None,
    turns: int = 4,
    sure: float = 0.5,
    again: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    """Probabilities (n, 7) for crops round ``centres`` rows (x, y, die size).

    A die face looks the same turned by a quarter, so the crops the network is
    unsure of (top probability below ``sure``) are looked at again turned by
    one to ``turns - 1`` quarters and the answers averaged; this steadies the
    answer where it matters and costs little where the first look is clear.
    ``again(p, unsure)``, given the first look's probabilities and the indices of
    the unsure crops, picks those of them worth looking at again (default: all).
    """
    model = load_model() if model is None else model
    n = len(centres)
    if n == 0:
        return np.zeros((0, 7), np.float32)

    def look(rows: np.ndarray, quarters: np.ndarray) -> np.ndarray:
        return model.predict(candidate_features(work, rows, model.crop, model.norm, quarters))

    p = look(centres, np.zeros(n))
    unsure = np.nonzero(p.max(axis=1) < sure)[0]
    if turns > 1 and len(unsure) and again is not None:
        unsure = np.asarray(again(p, unsure), np.intp)
    if turns > 1 and len(unsure):
        # the unsure crops turned by 1 .. turns - 1 quarters, all in one pass of the network
        m = len(unsure)
        extra = look(np.repeat(centres[unsure], turns - 1, axis=0), np.tile(np.arange(1, turns), m)).reshape(m, turns - 1, 7)
        p[unsure] = (p[unsure] + extra.sum(axis=1)) / turns
    return p
