"""Draw readings on a picture, so a person can check what the camera reads.

>>> import numpy as np
>>> from vision.types import DieReading
>>> out = draw_dice(np.zeros((50, 50, 3), np.uint8), [DieReading(3, (25.0, 25.0), 0.9, (15, 15, 35, 35))])
>>> out.shape, bool(out.any())
((50, 50, 3), True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import cv2
import numpy as np

from .types import DieReading

SURE = (40, 220, 40)  # BGR
UNSURE = (30, 30, 230)


def draw_dice(image: np.ndarray, readings: Iterable[DieReading]) -> np.ndarray:
    """A copy of ``image`` with each die boxed and labelled (value and confidence; ``?`` when unsure)."""
    out = image.copy()
    h, w = out.shape[:2]
    scale = max(0.4, min(w, h) / 900)
    thick = max(1, int(round(2 * scale)))
    for r in readings:
        colour = SURE if r.value is not None else UNSURE
        cx, cy = int(round(r.center[0])), int(round(r.center[1]))
        if r.box is not None:
            x0, y0, x1, y1 = r.box
        else:
            x0, y0, x1, y1 = cx - 15, cy - 15, cx + 15, cy + 15
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, thick)
        cv2.drawMarker(out, (cx, cy), colour, cv2.MARKER_CROSS, int(8 * scale), thick)
        text = f"{r.value if r.value is not None else '?'} {r.confidence:.2f}"
        if r.zone:
            text += f" {r.zone}"
        org = (x0, max(int(14 * scale), y0 - 4))
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, colour, thick, cv2.LINE_AA)
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
