"""Speed of the dice reader on 1280x720 frames with 1, 5 and 10 dice, on one core.

Usage: ``python bench/dice_speed.py [DATA_DIR] [--repeat N] [--model FILE.onnx] [--against REV]``

Always measures synthetic frames (``vision.synth``: dice 60 px wide on a green
table). With ``DATA_DIR`` (the labelled photo sets, see bench/dice_accuracy.py)
it also measures real photos with 1, 5 and 10 labelled dice, scaled to 720 px
high and centred on a 1280x720 canvas, and (as a camera) ``ZOOM`` times as large,
cropped to 1280x720 (only photos whose dice all stay in it). Prints median and p95 milliseconds of
``read_dice`` per frame; OpenCV and numpy's BLAS are limited to one thread.

The dice of the real photos are small in such a frame (about 45 pixels), so
``read_dice`` of a lone frame looks at most of them twice, the second time at a
larger scale (``vision.dice.better_scale``), and reads the second look's
candidates. ``read_dice`` reads the candidates with two networks, the standard and
the clear one, and keeps the clear one's dice where they are surer by over 0.1
(``vision.dice.AUTO``). A camera's reader
(``vision.dice.DiceReader``) remembers that scale after its first frame, and
searches only the parts of a frame that differ from the table once a whole
frame has shown that they hold its dice (every tenth frame is looked at whole
again); a camera's default reader (``vision.dice.ChoosingReader``,
``camera.dice_network`` auto) reads with one network and has the other read the
candidates of one frame in ten. The lines "as a camera" time that steady state:
each frame read by a ``ChoosingReader`` that has read it before as often as it
compares frames before it chooses, by when it has also learnt what stays of the
table (a tray's rim) and searches only round the dice. Each time, it reads a copy
of the frame with a camera's noise of its own (``bench.dice_accuracy.noisy``, 2 grey levels):
once three looks have read the same dice, a frame that shows the same parts as
the frame before, alike but for such noise, keeps that frame's readings instead
of being searched and read (``vision.dice.look_at``'s ``before``;
the frames whose readings differ from one noisy copy to the next are each
searched). The lines "as a camera, each frame
searched" time the reader searching every frame, as it does the first frame at
rest after a throw (``Params.same_picture`` negative).

With ``--against REV`` (a git revision of this repository) the reader of that
revision (its ``vision`` package and network, extracted to a temporary folder)
is timed too, frame by frame in turns with today's, so that both figures come
from the same minutes of this shared machine; on the "as a camera" lines it
reads as its own ``ChoosingReader`` or, without one, its ``DiceReader`` does (a
revision without either reads as ``read_dice`` did). Each frame is then timed
just after the other reader has read it: the reader against itself, in turns,
gave 16.4 and 14.8 ms for the real 10-dice frames as a camera, and runs alone
made right after each 17.0 and 16.0 (docs/vision.md, At a glance), so compare
figures of runs of the same kind.

It first prints the machine (its CPU, the instruction sets that decide how fast
a network runs, OpenCV's version) and how long each shipped network and its
8-bit copy take a crop here: the copies were faster on the machine of the
thirteenth session and twice as slow on the twenty-third's (AVX2 alone), so a
machine where they are faster can run one (``camera.dice_network`` given its
path; docs/configuration.md).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: numpy's matrix products too (before numpy loads)
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.dice_accuracy import in_frame, noisy, photo  # noqa: E402
from vision import dice_model  # noqa: E402
from vision.dice import read_dice  # noqa: E402
from vision.synth import render_dice  # noqa: E402

W, H = 1280, 720
ZOOM = 1.3
"""The real photos are also timed ``ZOOM`` times as large (their dice about 58 px wide in the frame, where
they are about 45 px at 1): a camera nearer its table, which reads its frames reduced by a fraction."""


def real_frames(data_dir: Path, count: int, limit: int = 5, zoom: float = 1.0) -> list[np.ndarray]:
    """Frames of the first photos with ``count`` labelled dice (``limit`` * 2 at most), each scaled to fit
    a frame ``zoom`` times as large as W x H and centred, of which the middle W x H is the frame
    (``zoom`` above 1: the dice larger, as a camera nearer the table sees them); with a zoom, only
    photos whose labelled dice all lie inside that middle."""
    frames: list[np.ndarray] = []
    for folder in sorted(p for p in data_dir.iterdir() if (p / "labels.json").exists()):
        labels = json.loads((folder / "labels.json").read_text())
        for name in sorted(labels):
            if len(labels[name]) != count or len(frames) >= limit * 2:
                continue
            big, s, x, y = in_frame(photo(folder, name), (round(W * zoom), round(H * zoom)))
            left, top = (big.shape[1] - W) // 2, (big.shape[0] - H) // 2
            boxes = np.array([d["box"] for d in labels[name]], float) * s + [x - left, y - top, x - left, y - top]
            if np.all((boxes[:, :2] >= 0) & (boxes[:, 2:] <= [W, H])):
                frames.append(np.ascontiguousarray(big[top : top + H, left : left + W]))
    return frames


MODELS = Path(dice_model.__file__).resolve().parent / "models"
"""The shipped networks' folder (``--model`` swaps ``dice_model.MODEL_PATH``, not this)."""

CPU_FEATURES = ("avx2", "fma", "avx512f", "avx512_vnni", "avx_vnni", "amx_int8", "neon", "asimd", "asimddp", "i8mm")
"""Instruction sets of the CPU that decide how fast the networks run: wide vectors, and 8-bit dot products
(x86 VNNI, AMX; ARM's dot-product and matrix extensions), which make the 8-bit copies pay."""


def machine_line(cpuinfo: str, cores: int | None, opencv: str = cv2.__version__) -> str:
    r"""The machine as ``/proc/cpuinfo`` (its text) shows it: the CPU's model, its cores, which of
    :data:`CPU_FEATURES` it has (x86 ``flags``, ARM ``Features``), and OpenCV's version.

    >>> machine_line("model name\t: AMD EPYC\nflags\t\t: fpu sse4_2 avx2 fma\n", 2, "5.1.0")
    'machine: AMD EPYC, 2 cores; avx2 fma; OpenCV 5.1.0'
    """
    fields: dict[str, str] = {}
    for row in cpuinfo.splitlines():
        key, sep, value = row.partition(":")
        if sep:
            fields.setdefault(key.strip().lower(), value.strip())
    model = fields.get("model name") or fields.get("hardware") or fields.get("cpu model") or "unknown CPU"
    has = set((fields.get("flags") or fields.get("features") or "").split())
    sets = " ".join(f for f in CPU_FEATURES if f in has) or "none of " + ", ".join(CPU_FEATURES)
    return f"machine: {model}, {cores or '?'} cores; {sets}; OpenCV {opencv}"


def network_line(repeat: int = 30, batch: int = 20) -> str:
    """Milliseconds a crop (median of ``repeat`` batches of ``batch`` crops of noise, one thread) of each
    shipped network (``vision.dice_model.NETWORKS``) and of its 8-bit copy (``EIGHT_BIT``)."""
    rng = np.random.default_rng(0)
    figures = []
    for name in dice_model.NETWORKS:
        for label, file in ((name, dice_model.NETWORKS[name]), ("its 8-bit copy", dice_model.EIGHT_BIT[name])):
            net = dice_model.load_model(MODELS / file)
            feats = rng.standard_normal((batch, 3 * net.crop * net.crop)).astype(np.float32)
            net.predict(feats)  # (warm up)
            times = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                net.predict(feats)
                times.append(1000 * (time.perf_counter() - t0) / batch)
            figures.append(f"{label} {statistics.median(times):.3f}")
    return f"network, ms a crop in batches of {batch}: " + ", ".join(figures)


Reader = Callable[[np.ndarray], object]


def reader_at(rev: str, into: Path) -> Reader:
    """``read_dice`` of git revision ``rev``: its ``vision`` package (code and network) copied into ``into`` under another name."""
    return importlib.import_module(f"{vision_at(rev, into)}.dice").read_dice


def vision_at(rev: str, into: Path) -> str:
    """The name under which git revision ``rev``'s ``vision`` package (code and network) is copied into ``into``, which
    is put first on the path: its modules are ``NAME.dice``, ``NAME.settle``, ..."""
    try:
        files = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "-r", "--name-only", rev, "vision/"], capture_output=True, text=True, check=True).stdout.split()
    except subprocess.CalledProcessError as e:
        raise SystemExit(f"--against {rev!r}: not a revision of {ROOT} ({e.stderr.strip()})") from e
    name = "vision_" + "".join(c if c.isalnum() else "_" for c in rev)
    for f in files:
        dest = into / name / Path(f).relative_to("vision")
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{f}"], capture_output=True, check=True).stdout)
    sys.path.insert(0, str(into))
    return name


def measure(frames: list[np.ndarray], repeat: int, readers: list[Reader]) -> list[tuple[float, float]]:
    """Median and p95 milliseconds per frame of each reader, the readers taking turns on every frame."""
    times: list[list[float]] = [[] for _ in readers]
    for read in readers:
        read(frames[0])  # warm up
    for r in range(repeat):
        for f in frames:
            for k in range(len(readers)) if r % 2 == 0 else reversed(range(len(readers))):
                t0 = time.perf_counter()
                readers[k](f)
                times[k].append(1000 * (time.perf_counter() - t0))
    out = []
    for t in times:
        t.sort()
        out.append((statistics.median(t), t[min(len(t) - 1, int(0.95 * len(t)))]))
    return out


SETTLING_READS = 30
"""How often a camera's reader has read a frame before it is timed (:func:`as_camera`)."""

NOISY_COPIES = 4
"""Noisy copies of each frame a camera's reader reads in turn (made before the timing)."""


def as_camera(frames: list[np.ndarray], read: Reader = read_dice, search_each: bool = False) -> Reader:
    """``read`` (``read_dice``, or another revision's) as that revision's camera reader reads each of
    ``frames`` once it has seen that frame before: one reader per frame. That reader is the
    module's ``ChoosingReader`` (a camera's default, ``camera.dice_network`` auto), or for a revision
    without one its ``DiceReader``, and it has read the frame ``SETTLING_READS`` times (at least as
    often as a ``ChoosingReader`` compares frames before it chooses, ``at_least``), so that it is
    in its steady state, as a camera over a table is: it compares one frame in ``compare_every``,
    reads the frame at the scale it settled on, in the parts that differ from the table it has
    learnt from the readings before (what stays for ``DiceReader.rest_frames``, 5), and whole every
    ``check_every``-th time. The scale settles once the reader's memory of the dice's size (its
    last 9 frames) holds only looks at that scale: one of the bench's real 10-dice frames went from
    0.95 to 1.0 of the frame on its 14th read and had learnt its table again by its 20th (the
    twenty-first session; until then the frames were timed after ``at_least``, 9, reads). A revision
    without either (before cameras remembered a scale) reads as ``read`` does.

    Each time the camera's reader is given one of ``frames`` it reads the next of
    ``NOISY_COPIES`` copies of it, each with a camera's noise (:func:`noisy`): a table at rest
    as a camera sees it, never twice the same picture. A reader that reads a frame showing
    the same parts as the frame before as that one was read (``vision.dice.DiceReader``, once
    three looks read the same dice) does so here; with ``search_each`` (today's reader, ``Params.same_picture`` negative) it
    searches every frame, as it does the first frame at rest after a throw."""
    module = sys.modules[getattr(read, "__module__", "")]
    camera = getattr(module, "ChoosingReader", None) or getattr(module, "DiceReader", None)
    if camera is None:
        return read
    default: Any = getattr(module, "DEFAULT", None)
    if search_each and hasattr(default, "same_picture"):
        readers = {id(f): camera(dataclasses.replace(default, same_picture=-1.0)) for f in frames}
    else:  # (a revision that reads no frame as the one before searches each anyway)
        readers = {id(f): camera() for f in frames}
    rng = np.random.default_rng(0)
    copies = {id(f): [noisy(f, rng) for _ in range(NOISY_COPIES)] for f in frames}
    turns = {id(f): 0 for f in frames}

    def read_next(f: np.ndarray) -> object:
        turns[id(f)] += 1
        return readers[id(f)](copies[id(f)][turns[id(f)] % NOISY_COPIES])

    for f in frames:
        for _ in range(max(getattr(readers[id(f)], "at_least", 1), SETTLING_READS)):
            read_next(f)
    return read_next


def _cpuinfo() -> str:
    """The text of ``/proc/cpuinfo`` (empty where there is none)."""
    try:
        return Path("/proc/cpuinfo").read_text()
    except OSError:
        return ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", nargs="?", type=Path)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--model", type=Path, help="another network than the shipped one (an ONNX file from tools/train_dice_classifier.py)")
    ap.add_argument("--against", metavar="REV", help="time the reader of this git revision too, in turns with today's")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if args.model:
        dice_model.MODEL_PATH = args.model
    readers: list[Reader] = [read_dice]
    names = ["now"]
    with tempfile.TemporaryDirectory(prefix="dice_speed_") as tmp:
        if args.against:
            readers.append(reader_at(args.against, Path(tmp)))
            names.append(args.against)
        print(machine_line(_cpuinfo(), os.cpu_count()))
        print(network_line())
        print(f"read_dice on {W}x{H} frames, one thread (median / p95 ms{': ' + ', '.join(names) if len(names) > 1 else ''})")

        def line(label: str, figures: list[tuple[float, float]]) -> str:
            return f"  {label}: " + "   ".join(f"{med:6.1f} / {p95:6.1f}" for med, p95 in figures)

        for n in (1, 5, 10):
            frames = [render_dice([1 + (i + k) % 6 for i in range(n)], seed=k)[0] for k in range(5)]
            print(line(f"synthetic, {n:2d} dice, each alone", measure(frames, args.repeat, readers)))
            print(line(f"synthetic, {n:2d} dice, as a camera", measure(frames, args.repeat, [as_camera(frames, read) for read in readers])))
        if args.data_dir:
            for n in (1, 5, 10):
                frames = real_frames(args.data_dir, n)
                if not frames:
                    print(f"  real photos, {n:2d} dice: none in {args.data_dir}")
                    continue
                print(line(f"real photos, {n:2d} dice ({len(frames)} photos), each alone", measure(frames, max(1, args.repeat // 2), readers)))
                camera = [as_camera(frames, read) for read in readers]
                print(line(f"real photos, {n:2d} dice ({len(frames)} photos), as a camera", measure(frames, max(1, args.repeat // 2), camera)))
                camera = [as_camera(frames, read, search_each=True) for read in readers]
                print(line(f"real photos, {n:2d} dice ({len(frames)} photos), as a camera, each frame searched", measure(frames, max(1, args.repeat // 2), camera)))
            # a camera nearer the table: dice about 58 px wide, mostly read at a scale between 0.75 and 0.93,
            # whose area resize of each frame costs 3.6-6.7 ms (docs/vision-record.md, ninth session)
            for n in (1, 5, 10):
                frames = real_frames(args.data_dir, n, zoom=ZOOM)
                if frames:
                    camera = [as_camera(frames, read) for read in readers]
                    print(line(f"real photos x{ZOOM:g}, {n:2d} dice ({len(frames)} photos), as a camera", measure(frames, max(1, args.repeat // 2), camera)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
