"""Read dice pips in a still image (pure: array in, readings out).

This first reader is a plain classical pipeline (dice by colour contrast, pips by
blob detection); it is replaced by the full reader of issue 4.
"""

from __future__ import annotations

import cv2
import numpy as np

from .types import DieReading


def read_dice(image: np.ndarray) -> list[DieReading]:
    """Read every die in a BGR image.

    >>> read_dice(np.zeros((100, 100, 3), np.uint8))
    []
    """
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected a BGR image of shape (h, w, 3), got {image.shape}")
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    _, bright = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if bright.mean() > 127:
        return []
    contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    h, w = gray.shape
    out: list[DieReading] = []
    for c in contours:
        x, y, bw, bh = cv2.boundingRect(c)
        if bw < 0.02 * w or bh < 0.02 * h or not 0.6 < bw / bh < 1.6:
            continue
        face = 255 - bright[y : y + bh, x : x + bw]
        n, _, stats, _ = cv2.connectedComponentsWithStats(face[2:-2, 2:-2])
        pips = [s for s in stats[1:] if 0.002 * bw * bh < s[cv2.CC_STAT_AREA] < 0.05 * bw * bh]
        value = len(pips) if 1 <= len(pips) <= 6 else None
        out.append(DieReading(value, (x + bw / 2, y + bh / 2), 0.5 if value else 0.0, (x, y, x + bw, y + bh)))
    return out
