"""What a table does with each labelled photo: a real settler fed frames of it, for each confidence it may ask of a die.

Usage: ``python bench/dice_table.py DATA_DIR [--set NAME] [--part tune|held|all] [--frame WxH] [--frames N] [--confidence T ...] [--seed N] [--search-each]``

``bench/dice_accuracy.py`` scores readings die by die. A table takes whole throws:
its settler (:class:`vision.settle.Settler`) answers the dice of a throw once they
rest, and holds the throw while a die is unsure; a game then takes the throw, or
refuses one of the wrong number of dice (``rules/dice``: a poker throw of four
dice when five were thrown is an illegal event, named so). What costs a table
most is a throw taken with a die read wrong: it is scored, and nothing tells the
players.

Each part's photos are read in name order by one camera's reader
(:func:`vision.dice.camera_reader`, as ``bench/dice_accuracy.py --camera``). Each
photo is a table at rest for ``--frames`` frames (default 8), each with a
camera's noise of its own (:func:`~bench.dice_accuracy.noisy`, 2 grey levels),
so that the settler's agreement of three readings is tested as at a table: a die
the reader is in doubt about may be read differently frame to frame. The reader
reads a frame that shows what the frame before showed as that one was read, not
searching it again, once three looks have read the same dice
(``vision.dice.DiceReader``); with ``--search-each`` it searches every frame
(``Params.same_picture`` negative). ``--seed`` draws other noise. The frames are
fed, 0.1 s apart, to one armed settler (as just after a throw) for each
``--confidence`` (its
``min_confidence``, ``camera.dice_confidence``: a die read less surely holds the
throw, as an unsure one does); all of them see the same readings. Each photo is,
for each:

- *scored right*: the settler answered, and its dice are the labelled ones (each
  label matched by a die's centre in its box, as ``bench/dice_accuracy.py``
  matches them, every value right, no die more);
- *scored wrong*: it answered with as many dice as are labelled, not all of them
  right: a game takes the throw, wrongly;
- *refused*: it answered with another number of dice: a game that knows how
  many were thrown refuses it, and the throw is entered by hand;
- *held*: no answer in the frames (the settler's last reason: a die unsure, the
  readings not agreeing); the throw waits for a die to be settled, or is entered
  by hand.

Printed per set and part and confidence: those four counts, the dice read wrong in
the throws scored wrong, and why the throws held were held.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.dice_accuracy import Frame, in_frame, match, noisy, parse_frame, part_photos, photo, to_photo  # noqa: E402
from vision.dice import AUTO, DEFAULT, ChoosingReader, camera_reader  # noqa: E402
from vision.settle import Settler  # noqa: E402
from vision.types import DieReading  # noqa: E402

CONFIDENCES = (0.0, 0.6, 0.7, 0.8, 0.9)
"""The confidences compared by default (0.0: any die the reader reports sure, as a settler asks by default)."""


@dataclass
class Outcomes:
    """What a table did with the photos of one part at one confidence."""

    photos: int = 0
    right: int = 0
    wrong: int = 0
    refused: int = 0
    held: Counter[str] = field(default_factory=Counter)  # the settler's last reason
    dice_wrong: int = 0  # dice read wrong in the throws scored wrong

    def line(self, confidence: float) -> str:
        pct = f"{100 * self.right / self.photos:.1f} %" if self.photos else "n/a"
        why = ", ".join(f"{reason}: {n}" for reason, n in self.held.most_common())
        return (f"  confidence {confidence:.2f}: scored right {self.right} ({pct}), scored WRONG {self.wrong} "
                f"({self.dice_wrong} dice), refused {self.refused}, held {sum(self.held.values())}" + (f" ({why})" if why else ""))


def outcome(labels: list[dict], answer: Sequence[DieReading] | None, reason: str, into: Outcomes) -> None:
    """Count one photo's ``answer`` (None: no answer, the settler's last ``reason``) against its ``labels``."""
    into.photos += 1
    if answer is None:
        into.held[reason] += 1
        return
    if len(answer) != len(labels):
        into.refused += 1
        return
    m = match(labels, list(answer))
    wrong = sum(1 for lab, j in zip(labels, m) if j is None or answer[j].value != lab["value"])
    if wrong:
        into.wrong += 1
        into.dice_wrong += wrong
    else:
        into.right += 1


class SharedReader:
    """One reading of each frame for several settlers fed the same frames (the first to ask reads it)."""

    def __init__(self, read: Callable[[np.ndarray], Sequence[DieReading]]) -> None:
        self.read = read
        self.frame: np.ndarray | None = None
        self.readings: list[DieReading] = []

    def __call__(self, frame: np.ndarray) -> list[DieReading]:
        if frame is not self.frame:
            self.frame, self.readings = frame, list(self.read(frame))
        return self.readings


def settle_photo(frames: list[np.ndarray], reader: SharedReader, confidences: Sequence[float]) -> list[tuple[tuple[DieReading, ...] | None, str]]:
    """Each confidence's settler's answer to ``frames`` (fed 0.1 s apart; None: none) and its last reason."""
    settlers = [Settler(reader, min_confidence=c) for c in confidences]
    answers: list[tuple[DieReading, ...] | None] = [None] * len(settlers)
    for i, frame in enumerate(frames):
        for k, s in enumerate(settlers):
            if answers[k] is None:
                answers[k] = s.feed(frame, 0.1 * i)
        if all(a is not None for a in answers):
            break
    return [(a, s.status.reason) for a, s in zip(answers, settlers)]


def run_part(folder: Path, names: list[str], labels: dict[str, list[dict]], confidences: Sequence[float],
             frame: Frame | None, count: int, seed: int = 1, search_each: bool = False) -> list[Outcomes]:
    """Each confidence's :class:`Outcomes` for the photos ``names`` of the set in ``folder`` (``search_each``: read
    by a camera's reader that searches every frame)."""
    out = [Outcomes() for _ in confidences]
    reader = SharedReader(ChoosingReader(replace(DEFAULT, same_picture=-1.0)) if search_each else camera_reader(AUTO))
    rng = np.random.default_rng(seed)
    for name in names:
        image = photo(folder, name)
        placed, s, x, y = in_frame(image, frame) if frame is not None else (image, 1.0, 0, 0)
        frames = [noisy(placed, rng) for _ in range(count)]
        for (answer, reason), into in zip(settle_photo(frames, reader, confidences), out):
            outcome(labels[name], None if answer is None else to_photo(answer, s, x, y), reason, into)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--set", dest="sets", action="append", help="only this data set (repeatable)")
    ap.add_argument("--part", choices=("tune", "held", "all"), action="append",
                    help="this part only (repeatable; default tune and held, bench/dice_accuracy.py's split)")
    ap.add_argument("--frame", type=parse_frame, metavar="WxH", help="each photo placed in a camera frame of this size (e.g. 1280x720)")
    ap.add_argument("--frames", type=int, default=8, metavar="N", help="frames of each photo fed to the settlers (default 8; 3 to 50)")
    ap.add_argument("--confidence", type=float, action="append", metavar="T",
                    help=f"a settler asking this confidence of each die, 0 to under 1 (repeatable; default {', '.join(map(str, CONFIDENCES))})")
    ap.add_argument("--seed", type=int, default=1, help="the seed of the frames' noise (default 1): another draws other noise, how far chance moves the counts")
    ap.add_argument("--search-each", action="store_true",
                    help="the camera's reader searches every frame, also one that shows what the frame before showed (Params.same_picture negative)")
    args = ap.parse_args(argv)
    if not 3 <= args.frames <= 50:
        ap.error(f"--frames {args.frames}: 3 to 50 (the settler answers on the fourth frame at the earliest)")
    confidences = args.confidence or list(CONFIDENCES)
    bad = [c for c in confidences if not 0.0 <= c < 1.0]
    if bad:
        ap.error(f"--confidence {bad[0]}: at least 0 and under 1")
    cv2.setNumThreads(1)
    for folder in sorted(p for p in args.data_dir.iterdir() if (p / "labels.json").exists()):
        if args.sets and folder.name not in args.sets:
            continue
        labels = json.loads((folder / "labels.json").read_text())
        for part in args.part or ["tune", "held"]:
            names = part_photos(labels, part)
            print(f"{folder.name} / {part}: {len(names)} photos, {sum(len(labels[n]) for n in names)} dice, {args.frames} frames each")
            for c, o in zip(confidences, run_part(folder, names, labels, confidences, args.frame, args.frames, args.seed, args.search_each)):
                print(o.line(c))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
