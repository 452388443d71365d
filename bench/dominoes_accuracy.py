"""Domino reader accuracy and speed: generated tiles (seeded) and the real photos.

    python bench/dominoes_accuracy.py [DATA_DIR] [--n SCENES] [--seed S] [--tune-seed T]

DATA_DIR holds ``labels.json`` and ``images/`` (default: ../shared/data/dominoes if it
exists, else the test fixtures). Prints per-half accuracy on generated tiles for two
disjoint seed sets: the tuning set (seeds T.., used while developing the reader) and
the held-out set (seeds S.., the reported figure); a missed tile counts as two wrong
halves and an unsure half (None) as wrong. Also extra tiles read, per-photo results,
the layout photo's line and open ends, and milliseconds per frame (CPU and wall,
median and 95th percentile).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.domino_synth import random_scene  # noqa: E402
from vision.dominoes import read_dominoes, read_layout  # noqa: E402


def synthetic(n: int, seed: int, label: str) -> None:
    good = total = extra = unsure = missed = 0
    wall: list[float] = []
    cpu: list[float] = []
    by_kind: dict[str, list[int]] = {}
    for i in range(n):
        kind = "line" if i % 2 else "scatter"
        scene = random_scene(np.random.default_rng(seed + i), kind=kind)
        t0, c0 = time.perf_counter(), time.process_time()
        readings = read_dominoes(scene.image)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        halves = [(np.array(c), p) for r in readings for c, p in zip(r.half_centers(), r.pips)]
        matched: set[int] = set()
        g = t = 0
        for tile in scene.tiles:
            for centre, value in zip(tile.half_centers, tile.pips):
                t += 1
                dists = [float(np.linalg.norm(p - np.array(centre))) for p, _ in halves]
                if dists and min(dists) < 0.3 * tile.width:
                    k = int(np.argmin(dists))
                    matched.add(k)
                    g += halves[k][1] == value
                    unsure += halves[k][1] is None
                else:
                    missed += 1
        extra += (len(halves) - len(matched)) // 2
        good += g
        total += t
        key = f"{kind}/{scene.style['background']}/{'black' if scene.style['body'][0] < 100 else 'light'}"  # type: ignore[index]
        by_kind.setdefault(key, [0, 0])
        by_kind[key][0] += g
        by_kind[key][1] += t
    print(f"generated, {label}: {n} frames (seeds {seed}-{seed + n - 1}), {total // 2} tiles, {total} halves")
    print(f"  per-half accuracy: {good / total:.2%} ({good}/{total}); halves not found {missed}, "
          f"read unsure (None) {unsure}, misread {total - good - missed - unsure}; extra tiles read: {extra}")
    for key, (g, t) in sorted(by_kind.items()):
        print(f"    {key:24s} {g / t:.2%} ({g}/{t})")
    print(f"  ms per 640x480 frame: CPU median {1000 * statistics.median(cpu):.1f}, p95 {1000 * _p95(cpu):.1f}; "
          f"wall median {1000 * statistics.median(wall):.1f}, p95 {1000 * _p95(wall):.1f}")


def _p95(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, int(0.95 * len(xs)))]


def real(data: Path) -> None:
    labels = json.loads((data / "labels.json").read_text())
    right = total = 0
    for name, tiles in sorted(labels.items()):
        path = data / "images" / name
        if not path.exists():
            path = data / name
        image = cv2.imread(str(path))
        t0 = time.perf_counter()
        readings = read_dominoes(image)
        ms = 1000 * (time.perf_counter() - t0)
        ok = 0
        for label in tiles:
            x0, y0, x1, y1 = label["box"]
            inside = [r for r in readings if x0 <= r.center[0] <= x1 and y0 <= r.center[1] <= y1]
            ok += len(inside) == 1 and list(inside[0].pips) == label["pips"]
        right += ok
        total += len(tiles)
        print(f"  {name:14s} {ok}/{len(tiles)} tiles right, {len(readings)} read, {ms:.1f} ms")
        if name == "layout.jpg":
            lay = read_layout(image)
            spinner = lay.tiles[lay.spinner].pips if lay.spinner is not None else None
            print(f"    line: {[lay.tiles[i].pips for i in lay.chain]}; branches: "
                  f"{[[lay.tiles[i].pips for i in b] for b in lay.branches]}")
            print(f"    spinner: {spinner}; open ends: {list(lay.open_ends)}; sum {lay.open_sum}"
                  f" (four_sides: {read_layout(image, 'four_sides').open_sum})")
    print(f"real: {right}/{total} tiles right")


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    default = root.parent.parent / "shared" / "data" / "dominoes"
    if not default.exists():
        default = Path("/work/shared/data/dominoes")
    if not default.exists():
        default = root / "tests" / "fixtures" / "dominoes"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="?", type=Path, default=default)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1000, help="first seed of the reported (held-out) set")
    ap.add_argument("--tune-seed", type=int, default=0, help="first seed of the tuning set (-1: skip it)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if args.tune_seed >= 0:
        synthetic(args.n, args.tune_seed, "tuning set")
    synthetic(args.n, args.seed, "held-out set (the reported figure)")
    print(f"real photos ({args.data}):")
    real(args.data)


if __name__ == "__main__":
    main()
