"""Make an 8-bit copy of a dice network that the reader can run: convolutions in whole numbers, faster on some CPUs.

Usage: ``python tools/quantize_dice_model.py DATA_DIR [--model vision/models/dice_cnn.onnx]
[--out vision/models/dice_cnn_int8.onnx] [--extra DIR ...] [--crops N] [--seed N] [--round-first]``

``--model`` is a network made by tools/train_dice_classifier.py (its record, the
``.json`` beside it, says what it was trained on). The copy computes its second
and third convolutions (with their ReLU and max pooling) in 8-bit integers:
weights signed, one scale per output channel; activations unsigned, their
ranges measured on calibration crops (the least and greatest value each
layer gives on them). The first convolution, the dense layers and the
softmax stay in floating point: the crop's standardised features are not
rounded, and the probabilities the reader compares with its thresholds keep
their precision. OpenCV's DNN module runs such a file (QLinearConv) in 0.16
ms a crop against 0.18 for the floating-point one on the machine of the
thirteenth session, but in 0.43 against 0.22 on one with AVX2 alone (one
core each), and the reader needs nothing else at run time. With ``--round-first`` the first
convolution is in 8 bits too (0.12 ms a crop), which rounds the features:
most of what such a copy reads otherwise comes from that rounding, and it
reads seven fewer of the third set's dice (docs/vision-record.md, "Training the
network for its 8-bit copy"). The default copies of the two shipped networks,
``dice_cnn_int8.onnx`` and ``dice_cnn_clear_int8.onnx``, ship beside them
(``vision.dice_model.EIGHT_BIT``); the reader ran them from the thirteenth
session to the twenty-second, and runs the networks themselves since
(docs/vision-record.md, "Back to the floating-point networks").

The calibration crops are cut as the reader cuts them
(:func:`vision.dice_model.candidate_features`: ``CROP_FACTOR`` die sizes wide,
not turned) round the classical reader's candidates and the
labelled dice of the photos the network was trained on: the *tune* part of the
sets in ``DATA_DIR`` (``part_of`` in bench/dice_accuracy.py; the held-out part is
never read here) and every photo of each ``--extra`` set (as given to the
trainer); ``--crops`` of them (default 3000) drawn at random (``--seed``).

The copy's record is the network's, with ``"quantized"`` saying how, from which
file (its SHA-1) and with what. The script then reads the calibration crops with
both networks as the reader would (:func:`vision.dice.network_readings`: no die,
unsure, or a value) and prints how many readings differ.

Quantizing needs ONNX Runtime's tools (not a dependency of Refbox: the reader
runs the written file with OpenCV alone). On the development machine:
``python -m venv /tmp/quant && /tmp/quant/bin/pip install onnxruntime onnx numpy opencv-python-headless``,
then run this script with that interpreter.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tools"))

from dice_accuracy import part_photos, photo  # noqa: E402
from train_dice_classifier import extra_origin, samples_of  # noqa: E402

from vision.dice import CONFIDENCE_THRESHOLD, DEFAULT, network_readings  # noqa: E402
from vision.dice_model import DiceNet, candidate_features  # noqa: E402

CALIBRATION_CROPS = 3000
SEED = 7
MODELS = ROOT / "vision" / "models"


def calibration_crops(data_dir: Path, extra: list[Path], crop: int, norm: str, count: int, seed: int) -> tuple[np.ndarray, list[str]]:
    """Features of ``count`` crops (at most) round the candidates and labelled dice of the tune photos of
    ``data_dir``'s sets and every photo of the ``extra`` sets, cut as the reader cuts them; and what was used."""
    sets = [(p, "tune") for p in sorted(p for p in data_dir.iterdir() if (p / "labels.json").exists())] + [(p, "all") for p in extra]
    if not sets:
        raise SystemExit(f"{str(data_dir)!r}: no labelled photo set (a folder with labels.json) in it")
    feats, used = [], []
    for folder, part in sets:
        labels = json.loads((folder / "labels.json").read_text())
        names = part_photos(labels, part)
        for name in names:
            work, rows, _ = samples_of(photo(folder, name), labels[name])
            if len(rows):
                feats.append(candidate_features(work, rows, crop, norm))
        used.append(f"{folder.name}: {len(names)} tune photos" if part == "tune" else f"{folder.name}: all {len(names)} photos")
    x = np.concatenate(feats)
    return x[np.random.default_rng(seed).permutation(len(x))[:count]], used


def quantize(model: Path, out: Path, x: np.ndarray, crop: int, round_first: bool = False) -> str:
    """Write the 8-bit copy of ``model`` to ``out``, calibrated on features ``x`` (its first convolution
    in floating point unless ``round_first``); the tools' versions."""
    import onnx
    import onnxruntime
    from onnxruntime.quantization import CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Crops(CalibrationDataReader):
        def __init__(self, name: str) -> None:
            self.batches = iter([{name: x[i : i + 100].reshape(-1, 3, crop, crop)} for i in range(0, len(x), 100)])

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.batches, None)

    with tempfile.TemporaryDirectory(prefix="quantize_") as tmp:
        ready = Path(tmp) / "ready.onnx"
        quant_pre_process(str(model), str(ready), skip_symbolic_shape=True)  # (shapes inferred, constants folded)
        graph = onnx.load(str(ready)).graph
        name = graph.input[0].name
        first = [] if round_first else [n.name for n in graph.node if n.op_type == "Conv"][:1]
        quantize_static(
            str(ready), str(out), Crops(name), quant_format=QuantFormat.QOperator, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
            per_channel=True, op_types_to_quantize=["Conv", "Relu", "MaxPool"], nodes_to_exclude=first, calibrate_method=CalibrationMethod.MinMax,
        )
    return f"onnxruntime {onnxruntime.__version__}, onnx {onnx.__version__}"


def readings(net: DiceNet, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each crop's reading by the network (:func:`vision.dice.network_readings`: -1 no die, below ``min_die``; 0 unsure, below
    ``CONFIDENCE_THRESHOLD``; else the value) and its probabilities. (The reader also drops an unsure crop that is not
    surely a die, ``unsure_die``; counted here as unsure, as the figures in docs/vision-record.md were.)"""
    p = np.concatenate([net.predict(x[i : i + 512]) for i in range(0, len(x), 512)])
    die, value, confidence = network_readings(p)
    return np.where(die < DEFAULT.min_die, -1, np.where(confidence < CONFIDENCE_THRESHOLD, 0, value)), p


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--model", type=Path, default=MODELS / "dice_cnn.onnx", help="the network made by tools/train_dice_classifier.py")
    ap.add_argument("--out", type=Path, help="the 8-bit copy (default: the model's name with _int8)")
    ap.add_argument("--extra", type=Path, action="append", default=[], metavar="DIR", help="an extra photo set the network was trained on (repeatable)")
    ap.add_argument("--crops", type=int, default=CALIBRATION_CROPS, help=f"calibration crops drawn at random (default {CALIBRATION_CROPS})")
    ap.add_argument("--seed", type=int, default=SEED, help=f"seed of that draw (default {SEED})")
    ap.add_argument("--round-first", action="store_true", help="the first convolution in 8 bits too (faster; rounds the crop's features)")
    args = ap.parse_args(argv)
    if args.crops < 100:
        raise SystemExit(f"--crops {args.crops}: out of range (at least 100 calibration crops)")
    out = args.out or args.model.with_name(args.model.stem + "_int8.onnx")
    if out.resolve() == args.model.resolve():
        raise SystemExit(f"--out {str(out)!r}: the model itself (the copy is written beside it)")
    cv2.setNumThreads(1)
    try:
        source = DiceNet(args.model)
    except ValueError as e:
        raise SystemExit(str(e)) from e
    record = source.origin()
    if "quantized" in record:
        raise SystemExit(f"{str(args.model)!r} is an 8-bit copy already ({record['quantized']})")
    for folder in args.extra:
        extra_origin(folder)
    x, used = calibration_crops(args.data_dir, args.extra, source.crop, source.norm, args.crops, args.seed)
    tools = quantize(args.model, out, x, source.crop, args.round_first)
    digest = hashlib.sha1(args.model.read_bytes()).hexdigest()
    record["quantized"] = (
        f"{'all three' if args.round_first else 'the second and third'} convolutions in 8 bits (weights per output channel, activations by min-max calibration on {len(x)} crops, seed {args.seed}, "
        f"of {'; '.join(used)}) of {args.model.name} (SHA-1 {digest}), by tools/quantize_dice_model.py with {tools}"
    )
    out.with_suffix(".json").write_text(json.dumps(record, indent=2) + "\n")
    copy = DiceNet(out)
    a, pa = readings(source, x)
    b, pb = readings(copy, x)
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB) and its record {out.with_suffix('.json')}")
    print(f"calibration crops read otherwise than by {args.model.name}: {int(np.sum(a != b))} of {len(x)} "
          f"(mean probability difference {float(np.abs(pa - pb).mean()):.4f}, largest {float(np.abs(pa - pb).max()):.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
