"""Draw readings on a picture, so a person can check what the camera reads.

>>> import numpy as np
>>> from vision.types import DieReading
>>> out = draw_dice(np.zeros((50, 50, 3), np.uint8), [DieReading(3, (25.0, 25.0), 0.9, (15, 15, 35, 35))])
>>> out.shape, bool(out.any())
((50, 50, 3), True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import cv2
import numpy as np

from .types import DieReading, TileReading
from .zones import Zones

SURE = (40, 220, 40)  # BGR
UNSURE = (30, 30, 230)


def draw_dice(image: np.ndarray, readings: Iterable[DieReading], sure: Callable[[DieReading], bool] | None = None,
              scale: float = 1.0) -> np.ndarray:
    """A copy of ``image`` with each die boxed and labelled (value and confidence; ``?`` when unsure).

    ``sure``: which dice are read surely enough (a settler's ``sure``, which asks a confidence of each
    die); the others are drawn as unsure ones are, their value marked ``?`` (``3? 0.62``). Default: every
    die read with a value. ``scale``: the size of ``image`` against the picture the dice were read in
    (a copy shrunk to be sent is drawn on after shrinking, so that its labels stay legible).

    >>> d = DieReading(3, (100.0, 100.0), 0.9, (80, 80, 120, 120))
    >>> out = draw_dice(np.zeros((100, 100, 3), np.uint8), [d], scale=0.5)
    >>> bool(out[40, 45:55].any()), bool(out[60, 45:55].any()), bool(out[75:, 75:].any())  # (boxed at 40..60)
    (True, True, False)
    """
    out = image.copy()
    pen, thick = _pen(out)
    for r in readings:
        doubtful = r.value is not None and sure is not None and not sure(r)
        colour = SURE if r.value is not None and not doubtful else UNSURE
        cx, cy = int(round(r.center[0] * scale)), int(round(r.center[1] * scale))
        if r.box is not None:
            x0, y0, x1, y1 = (int(round(v * scale)) for v in r.box)
        else:
            x0, y0, x1, y1 = cx - 15, cy - 15, cx + 15, cy + 15
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, thick)
        cv2.drawMarker(out, (cx, cy), colour, cv2.MARKER_CROSS, int(8 * pen), thick)
        text = f"{r.value if r.value is not None else '?'}{'?' if doubtful else ''} {r.confidence:.2f}"
        if r.zone:
            text += f" {r.zone}"
        _label(out, text, (x0, max(int(14 * pen), y0 - 4)), colour, pen)
    return out


def _pen(image: np.ndarray) -> tuple[float, int]:
    """Text scale and line thickness for drawing on ``image``: larger on larger pictures, and on a picture
    of 900 pixels or less (a camera's, or one shrunk for a screen) text about 11 pixels high."""
    h, w = image.shape[:2]
    scale = max(1.0, min(w, h) / 900)
    return scale, max(1, int(round(2 * scale)))


def _label(out: np.ndarray, text: str, org: tuple[int, int], colour: tuple[int, int, int], scale: float) -> None:
    """``text`` in ``colour`` on a dark box, its baseline's left end at ``org``."""
    thick = max(1, int(round(scale)))
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, thick)
    pad = max(1, int(round(2 * scale)))
    x, y = org
    cv2.rectangle(out, (x - pad, y - h - pad), (x + w + pad, y + base), (20, 20, 20), cv2.FILLED)
    cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, colour, thick, cv2.LINE_AA)


def draw_tiles(image: np.ndarray, tiles: Iterable[TileReading]) -> np.ndarray:
    """A copy of ``image`` with each domino tile outlined and labelled ``a-b`` (``?`` for
    an unsure half; red when a half is unsure).

    >>> t = TileReading((5, None), (25.0, 25.0), corners=((10, 15), (40, 15), (40, 35), (10, 35)))
    >>> bool(draw_tiles(np.zeros((50, 50, 3), np.uint8), [t]).any())
    True
    """
    out = image.copy()
    scale, thick = _pen(out)
    for t in tiles:
        colour = SURE if None not in t.pips else UNSURE
        cx, cy = int(round(t.center[0])), int(round(t.center[1]))
        if t.corners:
            cv2.polylines(out, [np.round(np.array(t.corners, np.float32)).astype(np.int32)], True, colour, thick)
        else:
            cv2.drawMarker(out, (cx, cy), colour, cv2.MARKER_CROSS, int(12 * scale), thick)
        _label(out, "-".join("?" if p is None else str(p) for p in t.pips), (cx, cy), colour, scale)
    return out


ZONE = (230, 160, 40)  # BGR
IGNORED = (128, 128, 128)  # an ignore area of the calibration


def draw_zones(image: np.ndarray, zones: Zones, scale: float = 1.0) -> np.ndarray:
    """A copy of ``image`` with the calibration's zones outlined and named (scaled to the
    image when the calibration gives the size it was drawn on): how a person checks
    a calibration against the camera's picture. ``scale``: the size of ``image`` against the
    camera's picture (a copy shrunk to be sent, as :func:`draw_dice`'s).

    >>> z = Zones.from_calibration({"size": [100, 100], "zones": {"kept": [[50, 0], [100, 0], [100, 100], [50, 100]]}})
    >>> out = draw_zones(np.zeros((50, 50, 3), np.uint8), z)
    >>> bool(out[:, 25:].any()), bool(out[5:45, 5:20].any())
    (True, False)
    >>> z = Zones.from_calibration({"zones": {"kept": [[50, 0], [100, 0], [100, 100], [50, 100]]}})  # (in frame pixels)
    >>> out = draw_zones(np.zeros((50, 50, 3), np.uint8), z, scale=0.5)
    >>> bool(out[:, 25:].any()), bool(out[5:45, 5:20].any())
    (True, False)
    """
    out = image.copy()
    pen, thick = _pen(out)
    h, w = out.shape[:2]
    frame = (round(w / scale), round(h / scale))  # (the camera's picture's size)

    def in_image(poly: np.ndarray) -> np.ndarray:
        return np.round(zones.in_frame(poly, frame) * scale).astype(np.int32)

    for poly in zones.ignore:
        # an ignored area: greyed and crossed out, named
        pts = in_image(poly)
        shade = out.copy()
        cv2.fillPoly(shade, [pts], IGNORED)
        cv2.addWeighted(shade, 0.5, out, 0.5, 0, dst=out)
        x0, y0 = pts.min(axis=0)
        x1, y1 = pts.max(axis=0)
        cv2.polylines(out, [pts], True, IGNORED, thick)
        cv2.line(out, (int(x0), int(y0)), (int(x1), int(y1)), IGNORED, thick)
        _label(out, "ignored", (int(x0) + 4, int(y0) + int(16 * pen)), (255, 255, 255), pen)
    for name, poly in zones.polygons:
        pts = in_image(poly)
        cv2.polylines(out, [pts], True, ZONE, thick)
        x, y = pts.min(axis=0)
        _label(out, name, (int(x) + 4, int(y) + int(16 * pen)), ZONE, pen)
    return out


def annotate_files(paths: Sequence[Path], out_dir: Path) -> list[tuple[Path, list[DieReading]]]:
    """Read each image file, write it annotated to ``out_dir`` (same name, .png); return the readings.

    For ``refbox read dice --annotate DIR``. Unreadable files raise ValueError naming the file.
    """
    from .dice import read_dice

    out_dir.mkdir(parents=True, exist_ok=True)
    results = []
    for p in paths:
        image = cv2.imread(str(p))
        if image is None:
            raise ValueError(f"cannot read image {str(p)!r}")
        readings = read_dice(image)
        cv2.imwrite(str(out_dir / (Path(p).stem + ".png")), draw_dice(image, readings))
        results.append((Path(p), readings))
    return results
