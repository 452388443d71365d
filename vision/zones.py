"""Table zones from a calibration: which part of the table each die lies in.

A calibration is a small JSON object, written once per table (by a person
clicking the corners on a camera still, or by hand)::

    {"size": [1280, 720],
     "zones": {"tray": [[100, 80], [900, 80], [900, 650], [100, 650]],
               "kept": [[950, 80], [1250, 80], [1250, 650], [950, 650]]}}

``size`` is the frame size the polygons were drawn on; frames of another size
are matched by scaling. A die whose centre is in no zone gets zone None.

>>> z = Zones.from_calibration({"zones": {"tray": [[0, 0], [10, 0], [10, 10], [0, 10]]}})
>>> z.zone_of((5, 5)), z.zone_of((20, 5))
('tray', None)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import cv2
import numpy as np

from .types import DieReading


class CalibrationError(ValueError):
    """A calibration that cannot be used; the message names the key and the value."""


@dataclasses.dataclass(frozen=True)
class Zones:
    """Named polygons in frame pixels (first match wins, in calibration order)."""

    polygons: tuple[tuple[str, np.ndarray], ...]
    size: tuple[int, int] | None = None  # (width, height) the polygons were drawn on

    @classmethod
    def from_calibration(cls, calibration: Mapping[str, Any]) -> Zones:
        """Build zones from a calibration object (see the module docs)."""
        zones = calibration.get("zones")
        if not isinstance(zones, Mapping) or not zones:
            raise CalibrationError(f"calibration 'zones' must be a non-empty object of name -> polygon, got {zones!r}")
        polys: list[tuple[str, np.ndarray]] = []
        for name, pts in zones.items():
            try:
                arr = np.asarray(pts, dtype=np.float32)
            except (TypeError, ValueError):
                raise CalibrationError(f"zone {name!r}: polygon must be a list of [x, y] points, got {pts!r}") from None
            if arr.ndim != 2 or arr.shape[1] != 2 or len(arr) < 3:
                raise CalibrationError(f"zone {name!r}: polygon needs at least 3 [x, y] points, got {pts!r}")
            polys.append((str(name), arr))
        size = calibration.get("size")
        if size is not None:
            if not (isinstance(size, Sequence) and len(size) == 2 and all(isinstance(v, int) and v > 0 for v in size)):
                raise CalibrationError(f"calibration 'size' must be [width, height] in pixels, got {size!r}")
            size = (int(size[0]), int(size[1]))
        return cls(tuple(polys), size)

    def to_calibration(self) -> dict[str, Any]:
        out: dict[str, Any] = {"zones": {name: poly.round(1).tolist() for name, poly in self.polygons}}
        if self.size is not None:
            out["size"] = list(self.size)
        return out

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.polygons)

    def zone_of(self, point: tuple[float, float], frame_size: tuple[int, int] | None = None) -> str | None:
        """The zone containing ``point`` (frame pixels), or None."""
        x, y = point
        if frame_size is not None and self.size is not None:
            x *= self.size[0] / frame_size[0]
            y *= self.size[1] / frame_size[1]
        for name, poly in self.polygons:
            if cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0:
                return name
        return None

    def assign(self, readings: Iterable[DieReading], frame_size: tuple[int, int] | None = None) -> tuple[DieReading, ...]:
        """The readings with their ``zone`` filled in."""
        return tuple(dataclasses.replace(r, zone=self.zone_of(r.center, frame_size)) for r in readings)

    def split(self, readings: Iterable[DieReading]) -> dict[str | None, list[DieReading]]:
        """Readings grouped by zone (already assigned); every zone name is a key."""
        out: dict[str | None, list[DieReading]] = {name: [] for name in self.names}
        for r in readings:
            out.setdefault(r.zone, []).append(r)
        return out
