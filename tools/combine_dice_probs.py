"""Inner-validation figures of dice networks alone and averaged, from ``train_dice_classifier.py --validate --save-probs`` files.

Usage: ``python tools/combine_dice_probs.py A.npz B.npz [...]``

For each file, and for the average of all their class probabilities (an
ensemble of the networks, as the reader would run it: the probabilities of
each network averaged), prints per photo set the share of dice read right
(most likely of the 7 classes) at one look and over four quarter turns, and
how many dice the average gets right that each network alone gets wrong and
the other way round. The files must come from the same inner validation crops
(same data, same ``--crop``): their labels must agree.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np


def load(path: Path) -> dict[str, np.ndarray]:
    try:
        with np.load(path) as f:
            return {k: f[k] for k in f.files}
    except (OSError, ValueError) as e:
        raise SystemExit(f"cannot read probabilities {str(path)!r}: {e}") from e


def sets_of(probs: dict[str, np.ndarray]) -> list[str]:
    return sorted(k[: -len("_labels")] for k in probs if k.endswith("_labels"))


def right(probs: dict[str, np.ndarray], name: str, look: str) -> np.ndarray:
    return np.asarray(probs[f"{name}_{look}"].argmax(axis=1) == probs[f"{name}_labels"])


def average(runs: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The mean class probabilities of ``runs`` (labels checked to agree)."""
    out: dict[str, np.ndarray] = {}
    for name in sets_of(runs[0]):
        labels = runs[0][f"{name}_labels"]
        for r in runs[1:]:
            if f"{name}_labels" not in r or not np.array_equal(r[f"{name}_labels"], labels):
                raise SystemExit(f"set {name!r}: the files do not hold the same validation dice (labels differ)")
        out[f"{name}_labels"] = labels
        for look in ("one", "four"):
            out[f"{name}_{look}"] = np.mean([r[f"{name}_{look}"] for r in runs], axis=0)
    return out


def line(probs: dict[str, np.ndarray]) -> str:
    parts = []
    for name in sets_of(probs):
        n = len(probs[f"{name}_labels"])
        one, four = int(right(probs, name, "one").sum()), int(right(probs, name, "four").sum())
        parts.append(f"{name} {100 * one / n:.1f} % ({one}/{n}; {100 * four / n:.1f} % = {four}/{n} over 4 turns)")
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", type=Path, nargs="+", help="--save-probs files of train_dice_classifier.py --validate")
    args = ap.parse_args(argv)
    runs = [load(p) for p in args.files]
    for p, r in zip(args.files, runs):
        print(f"{p.name}: {line(r)}")
    if len(runs) < 2:
        return 0
    avg = average(runs)
    print(f"average of {len(runs)}: {line(avg)}")
    for p, r in zip(args.files, runs):
        for name in sets_of(avg):
            for look in ("one", "four"):
                a, s = right(avg, name, look), right(r, name, look)
                print(f"  {name} {look}: average right where {p.name} wrong {int((a & ~s).sum())}, the other way {int((~a & s).sum())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
