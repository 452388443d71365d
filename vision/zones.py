"""Table zones from a calibration: which part of the table each die lies in.

A calibration is a small JSON object, written once per table (by a person
clicking the corners on a camera still, or by hand)::

    {"size": [1280, 720],
     "zones": {"tray": [[100, 80], [900, 80], [900, 650], [100, 650]],
               "kept": [[950, 80], [1250, 80], [1250, 650], [950, 650]]}}

``size`` is the frame size the polygons were drawn on; frames of another size
are matched by scaling. A die whose centre is in no zone gets zone None.

``ignore`` (optional) lists parts of the picture that are not read at all: a
printed board beside the tray, a score sheet, a box lid, where the camera would
otherwise find dozens of pips in the print. :meth:`Zones.leave_out` paints them
over in the colour of the rest of the table before a frame is read, so nothing
there is read, and nothing moving there (a hand moving pieces) holds up a roll::

    {"zones": {"tray": [...]}, "ignore": [[[0, 0], [300, 0], [300, 720], [0, 720]]]}

A calibration may hold only ``ignore`` areas. One that holds neither, ``{"zones": {}}``,
is a table without zones (:attr:`Zones.empty`): the control page saves it when its zones
are cleared. A calibration with neither a ``zones`` key nor ``ignore`` areas is refused (a
file meant to hold zones that says nothing of them is more likely a mistake).

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

from .types import DieReading, Motion


class CalibrationError(ValueError):
    """A calibration that cannot be used; the message names the key and the value."""


CALIBRATION_KEYS = ("size", "zones", "ignore")

MAX_PIXELS = 1e6
"""The farthest from 0 a calibration's point may lie, in pixels (no camera's picture is that wide)."""


def _polygon(what: str, pts: Any) -> np.ndarray:
    """``pts`` as an (n, 2) float32 polygon of at least three points, else CalibrationError naming ``what``."""
    try:
        arr = np.asarray(pts, dtype=np.float64)
    except (TypeError, ValueError):
        raise CalibrationError(f"{what}: polygon must be a list of [x, y] points, got {pts!r}") from None
    if arr.ndim != 2 or arr.shape[1] != 2 or len(arr) < 3:
        raise CalibrationError(f"{what}: polygon needs at least 3 [x, y] points, got {pts!r}")
    if not (np.abs(arr) <= MAX_PIXELS).all():  # (and not NaN)
        raise CalibrationError(f"{what}: every point must be an [x, y] in pixels, at most {MAX_PIXELS:g} from 0, got {pts!r}")
    return arr.astype(np.float32)


@dataclasses.dataclass(frozen=True)
class Zones:
    """Named polygons in frame pixels (first match wins, in calibration order)."""

    polygons: tuple[tuple[str, np.ndarray], ...]
    size: tuple[int, int] | None = None  # (width, height) the polygons were drawn on
    ignore: tuple[np.ndarray, ...] = ()  # areas that are not read at all (:meth:`leave_out`)

    @classmethod
    def from_calibration(cls, calibration: Mapping[str, Any]) -> Zones:
        """Build zones from a calibration object (see the module docs); anything it cannot
        use raises :class:`CalibrationError` naming the key and the value."""
        unknown = sorted(str(k) for k in calibration if k not in CALIBRATION_KEYS)
        if unknown:
            raise CalibrationError(f"calibration: unknown key(s) {unknown}; the keys are {', '.join(CALIBRATION_KEYS)}")
        ignore = calibration.get("ignore", [])
        if not isinstance(ignore, list):
            raise CalibrationError(f"calibration 'ignore' must be a list of polygons (each a list of [x, y] points), got {ignore!r}")
        zones = calibration.get("zones", {} if ignore else None)
        if not isinstance(zones, Mapping):
            raise CalibrationError(f"calibration 'zones' must be an object of name -> polygon ({{}} for none), got {zones!r}")
        polys = [(str(name), _polygon(f"zone {name!r}", pts)) for name, pts in zones.items()]
        left_out = tuple(_polygon(f"calibration 'ignore' [{i}]", pts) for i, pts in enumerate(ignore))
        size = calibration.get("size")
        if size is not None:
            if not (isinstance(size, Sequence) and len(size) == 2 and all(isinstance(v, int) and v > 0 for v in size)):
                raise CalibrationError(f"calibration 'size' must be [width, height] in pixels, got {size!r}")
            size = (int(size[0]), int(size[1]))
        return cls(tuple(polys), size, left_out)

    def to_calibration(self) -> dict[str, Any]:
        out: dict[str, Any] = {"zones": {name: poly.round(1).tolist() for name, poly in self.polygons}}
        if self.ignore:
            out["ignore"] = [poly.round(1).tolist() for poly in self.ignore]
        if self.size is not None:
            out["size"] = list(self.size)
        return out

    def in_frame(self, poly: np.ndarray, frame_size: tuple[int, int]) -> np.ndarray:
        """A polygon of this calibration in the pixels of a frame of ``frame_size`` (width, height), as int32 points."""
        sx, sy = (frame_size[0] / self.size[0], frame_size[1] / self.size[1]) if self.size else (1.0, 1.0)
        return np.round(poly * np.array([sx, sy], np.float32)).astype(np.int32)

    def leave_out(self, frame: np.ndarray) -> np.ndarray:
        """The frame with the ``ignore`` areas painted over in the median colour of the
        rest of it (a flat patch: no pips, no tiles, no motion); the frame itself when
        the calibration ignores nothing.

        >>> z = Zones.from_calibration({"ignore": [[[0, 0], [5, 0], [5, 10], [0, 10]]]})
        >>> f = np.full((10, 10, 3), 200, np.uint8); f[2:4, 2:4] = 0
        >>> bool((z.leave_out(f) == 200).all()), int(f.min())
        (True, 0)
        """
        if not self.ignore:
            return frame
        h, w = frame.shape[:2]
        polys = [self.in_frame(poly, (w, h)) for poly in self.ignore]
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, polys, 255)
        step = max(1, min(h, w) // 90)  # the rest's colour from about 90 x 160 samples
        rest = frame[::step, ::step][mask[::step, ::step] == 0]
        colour = np.median(rest, axis=0) if len(rest) else np.zeros(frame.shape[2:])
        out = frame.copy()
        cv2.fillPoly(out, polys, np.round(colour).tolist())
        return out

    def moved(self, motion: Motion, frame_size: tuple[int, int]) -> Zones:
        """These zones and areas left out moved with the picture by ``motion`` (dx, dy pixels of a frame of
        ``frame_size``, width and height, then a turn about the frame's centre: :class:`~vision.types.Motion`):
        where they lie once the camera was nudged or turned so (``vision.settle.camera_motion``).

        >>> z = Zones.from_calibration({"size": [200, 100], "zones": {"tray": [[0, 0], [10, 0], [10, 10]]}})
        >>> z.moved(Motion(4, -2), (400, 200)).to_calibration()["zones"]["tray"]
        [[2.0, -1.0], [12.0, -1.0], [12.0, 9.0]]
        >>> z.moved(Motion(turn=90.0), (200, 100)).to_calibration()["zones"]["tray"]  # (a quarter turn about (99.5, 49.5))
        [[50.0, 149.0], [50.0, 139.0], [60.0, 139.0]]
        """
        sx, sy = (self.size[0] / frame_size[0], self.size[1] / frame_size[1]) if self.size else (1.0, 1.0)
        m = motion.matrix(frame_size)
        scale = np.array([sx, sy])

        def move(poly: np.ndarray) -> np.ndarray:  # (the calibration's pixels to the frame's, moved, and back)
            return ((poly / scale) @ m[:, :2].T + m[:, 2]) * scale

        return dataclasses.replace(
            self, polygons=tuple((name, move(poly).astype(np.float32)) for name, poly in self.polygons), ignore=tuple(move(poly).astype(np.float32) for poly in self.ignore)
        )

    def boxes_left_out(self, frame_size: tuple[int, int]) -> list[tuple[float, float, float, float]]:
        """The box (x0, y0, x1, y1) round each area left out, in the pixels of a frame of ``frame_size`` (width, height).

        >>> Zones.from_calibration({"size": [200, 100], "ignore": [[[0, 0], [10, 0], [10, 20]]]}).boxes_left_out((400, 200))
        [(0.0, 0.0, 20.0, 40.0)]
        """
        out = []
        for poly in self.ignore:
            pts = self.in_frame(poly, frame_size)
            out.append((float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max())))
        return out

    @property
    def empty(self) -> bool:
        """Does this calibration hold neither a zone nor an area left out (a table without zones)?

        >>> Zones.from_calibration({"zones": {}}).empty, Zones.from_calibration({"ignore": [[[0, 0], [5, 0], [5, 5]]]}).empty
        (True, False)
        """
        return not self.polygons and not self.ignore

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
