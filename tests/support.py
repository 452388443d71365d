"""Small helpers shared by the test packages."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable


def wait_until(predicate: Callable[[], object], timeout: float = 10.0, step: float = 0.01) -> bool:
    """Poll ``predicate`` until it is true or ``timeout`` seconds pass (for threads and
    processes that answer asynchronously; the answer, not the waiting, is the test)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())


def table_coloured_dice():
    """Dice 2, 4 and 5, 60 px wide, on purple felt in a 1280 x 720 frame, their bodies 10 lighter than the
    felt and their pips 30 darker: read from the whole frame, but nothing in them differs enough from
    the table for a part of its own (``vision.dice.changed_parts``), so a camera reads whole frames."""
    from vision.synth import render_dice

    return render_dice([2, 4, 5], seed=0, table=(170, 70, 120), body=(180, 80, 130), pip=(140, 40, 90))[0]


def printed_tray(frame):
    """``frame`` (1280 x 720) with a tray's printed rim round it: a thin line and a row of dots 40 px
    apart, which the table's median leaves out, so that they differ from it in every frame."""
    import cv2

    out = frame.copy()
    cv2.rectangle(out, (40, 40), (1240, 680), (200, 200, 60), 3)
    for x in range(60, 1240, 40):
        for y in (56, 664):
            cv2.circle(out, (x, y), 3, (20, 20, 20), -1)
    return out


def drawn_photo_set(folder: Path, count: int, seed: int) -> list[str]:
    """``count`` drawn tables of two dice as a labelled photo set (images/, labels.json); their names."""
    import json

    import cv2

    from vision.synth import render_dice

    (folder / "images").mkdir(parents=True)
    labels = {}
    for i in range(count):
        image, dice = render_dice([1 + i % 6, 6 - i % 6], size=(320, 240), die=40.0, seed=seed + i)
        name = f"t{seed}_{i}.png"
        cv2.imwrite(str(folder / "images" / name), image)
        labels[name] = [{"value": v, "box": [x - 20, y - 20, x + 20, y + 20]} for v, (x, y) in dice]
    (folder / "labels.json").write_text(json.dumps(labels))
    return sorted(labels)


class StillCamera:
    """A camera source filming one picture at rest (an empty green table, 1280 x 720, unless given).

    ``thrown``: that many frames of the picture in shadow (:func:`in_shadow`) come first, so
    that it comes to rest after a motion, as dice thrown onto the table a moment after the camera
    starts do. Without one a table's camera answers nothing: dice lying still since it started
    are no throw (``vision.settle.Settler``'s ``armed``)."""

    def __init__(self, picture=None, thrown: int = 0) -> None:
        import numpy as np

        self.picture = np.full((720, 1280, 3), (40, 110, 40), np.uint8) if picture is None else picture
        self.shadow = in_shadow(self.picture)
        self.thrown = thrown

    def read(self):
        if self.thrown > 0:
            self.thrown -= 1
            return self.shadow
        return self.picture

    def throw(self, picture, frames: int = 3) -> None:
        """Dice thrown while it films: ``picture`` comes to rest after ``frames`` frames of it in shadow."""
        self.shadow, self.thrown = in_shadow(picture), frames
        self.picture = picture

    def close(self) -> None:
        pass


def in_shadow(picture):
    """``picture`` at half its light: the table under the hand that throws, a motion to the settler."""
    return picture // 2


def thrown_onto(folder, picture) -> None:
    """Write ``picture`` into a camera's replay ``folder`` after the same picture in shadow
    (:func:`in_shadow`): replayed, it comes to rest after a motion, as dice thrown onto the table
    do (:class:`StillCamera`'s ``thrown``)."""
    import cv2

    cv2.imwrite(str(folder / "0-throw.png"), in_shadow(picture))
    cv2.imwrite(str(folder / "1-rest.png"), picture)


class SetDiceReader:
    """A camera's dice reader that reads what a test sets in ``readings`` (``vision.types.DieReading``s),
    for ``refbox.camera.CameraWorker(dice_reader=...)``: a die the real reader would read unsure
    (cocked) without a picture of one."""

    def __init__(self, readings=()) -> None:
        self.readings = list(readings)
        self.looks = 0  # (the pictures it has read)

    def __call__(self, frame):
        self.looks += 1
        return list(self.readings)

    def reads_in_parts(self, shape) -> None:
        return None


def labelled_dice(labels, shift=(0, 0), misread=None):
    """The dice of a labelled photo (``labels``: its entries of a labels.json, each a box and a value) as a
    reader reads them surely (0.95), their boxes moved by ``shift`` (dx, dy: where they lie in a frame, or
    a camera nudged); ``misread`` (index, value): that die read as that value instead."""
    from vision.types import DieReading

    dx, dy = shift
    out = []
    for i, d in enumerate(labels):
        x0, y0, x1, y1 = (v + o for v, o in zip(d["box"], (dx, dy, dx, dy)))
        value = misread[1] if misread is not None and misread[0] == i else d["value"]
        out.append(DieReading(value, ((x0 + x1) / 2, (y0 + y1) / 2), 0.95, (x0, y0, x1, y1)))
    return out


def labelled_tiles(labels, shift=(0, 0)):
    """The domino tiles of a labelled photo (``labels``: its entries of a labels.json, each a box and its pips) as a
    reader reads them, their corners those of their boxes moved by ``shift`` (dx, dy: where they lie in a frame, or
    a camera nudged)."""
    from vision.types import TileReading

    dx, dy = shift
    out = []
    for t in labels:
        x0, y0, x1, y1 = (v + o for v, o in zip(t["box"], (dx, dy, dx, dy)))
        out.append(TileReading(tuple(t["pips"]), ((x0 + x1) / 2, (y0 + y1) / 2), corners=((x0, y0), (x1, y0), (x1, y1), (x0, y1))))
    return out
