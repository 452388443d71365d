"""Readings the camera pipeline produces (JSON shapes of ``refbox read``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class DieReading:
    """One die: ``value`` 1..6 (None when the reader is unsure), centre in pixels, confidence 0..1."""

    value: int | None
    center: tuple[float, float]
    confidence: float
    box: tuple[int, int, int, int] | None = None  # x0, y0, x1, y1
    zone: str | None = None  # table zone from a calibration ("tray", "kept", ...), if any

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "value": self.value,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "confidence": round(self.confidence, 3),
        }
        if self.box is not None:
            out["box"] = list(self.box)
        if self.zone is not None:
            out["zone"] = self.zone
        return out


@dataclass(frozen=True)
class TileReading:
    """One domino tile: the two halves' pips (None where unsure), centre, angle in degrees."""

    pips: tuple[int | None, int | None]
    center: tuple[float, float]
    angle: float = 0.0
    confidence: float = 1.0
    corners: tuple[tuple[float, float], ...] = field(default=())

    def half_centers(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The centres of the two halves, ``pips[0]``'s first: a quarter of the tile's
        length (from ``corners``) either side of the centre along ``angle``.

        >>> TileReading((6, 2), (50.0, 20.0), 0.0, corners=((30, 10), (70, 10), (70, 30), (30, 30))).half_centers()
        ((40.0, 20.0), (60.0, 20.0))
        """
        a = math.radians(self.angle)
        quarter = math.dist(self.corners[0], self.corners[1]) / 4
        dx, dy = math.cos(a) * quarter, math.sin(a) * quarter
        x, y = self.center
        return (x - dx, y - dy), (x + dx, y + dy)

    def to_dict(self) -> dict[str, Any]:
        return {
            "pips": list(self.pips),
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "angle": round(self.angle, 1),
            "confidence": round(self.confidence, 3),
        }
