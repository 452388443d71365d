"""Readings the camera pipeline produces (JSON shapes of ``refbox read``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import cv2
import numpy as np


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


class Motion(NamedTuple):
    """How the picture of a camera moved (``vision.settle.camera_motion``): ``dx``, ``dy`` whole pixels, then ``turn``
    degrees about the frame's centre (counter-clockwise as the frame shows it, as OpenCV turns pictures)."""

    dx: int = 0
    dy: int = 0
    turn: float = 0.0

    def matrix(self, size: tuple[int, int]) -> np.ndarray:
        """The 2 x 3 matrix that takes a point (x, y) of the frame before to where it lies in the frame after, for
        frames of ``size`` (width, height) (OpenCV's ``getRotationMatrix2D`` about the centre, after the shift).

        >>> (Motion(4, -2).matrix((100, 50)) + 0.0).tolist()
        [[1.0, 0.0, 4.0], [0.0, 1.0, -2.0]]
        """
        w, h = size
        m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), self.turn, 1.0)
        m[:, 2] = m[:, 2] + m[:, :2] @ np.array([self.dx, self.dy], np.float64)
        return m


def box_moved(box: tuple[float, float, float, float], matrix: np.ndarray) -> tuple[float, float, float, float]:
    """A box (x0, y0, x1, y1) moved by a 2 x 3 ``matrix`` (:meth:`Motion.matrix`, or its inverse to put it back) as a
    die's box moves with the picture: its centre moved, its size kept (a die's box is about square, and a turn of a
    few degrees hardly changes it).

    >>> box_moved((10.0, 20.0, 30.0, 40.0), Motion(4, -2).matrix((100, 50)))
    (14.0, 18.0, 34.0, 38.0)
    """
    x0, y0, x1, y1 = box
    cx, cy = (matrix @ np.array([(x0 + x1) / 2, (y0 + y1) / 2, 1.0])).tolist()
    dx, dy = cx - (x0 + x1) / 2, cy - (y0 + y1) / 2
    return (x0 + dx, y0 + dy, x1 + dx, y1 + dy)


def motions_in_all(first: tuple[float, float, float], then: Motion) -> tuple[float, float, float]:
    """The one motion (dx, dy, turn, as :class:`Motion`'s, the shift not rounded) that moves a picture as ``first``
    (such a motion in all so far) and ``then`` after it do: the turns add up, and the shift is ``first``'s plus
    ``then``'s turned back by ``first``'s turn (a shift made after a turn moves the picture along the turned frame's
    axes). The sums of the shifts are that only while the turns are nought.

    >>> [round(v, 2) for v in motions_in_all((0.0, 0.0, 3.0), Motion(30, 0))]
    [29.96, 1.57, 3.0]
    """
    dx, dy, turn = first
    a = math.radians(turn)
    return (dx + math.cos(a) * then.dx - math.sin(a) * then.dy, dy + math.sin(a) * then.dx + math.cos(a) * then.dy, turn + then.turn)
