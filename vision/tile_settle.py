"""Settling for domino tables: one reading of the tiles each time the table changes
and comes to rest.

A :class:`TileSettler` is fed every camera frame with the table's clock. While the
picture moves (a hand placing a tile) nothing is read. Every frame without motion
is read; once the picture has been still for ``still_frames`` frames spanning
``still_seconds`` and the last ``agree`` readings (all of frames without motion
since the last motion) give the same set of tiles, every tile sure (both halves
read), that set is reported, once. A tile with an unsure half blocks the report:
it is better to wait for the hand to leave or for the operator than to guess.

With ``zones`` (a calibration: the seats whose tiles are counted at the end of a
hand, and the ``ignore`` areas left out of every frame), the zones follow a camera
nudged when its table is bumped, as a dice settler's do
(:class:`vision.settle.ZonesFollower`): the tiles read in either frame are hidden
from the comparison, as the dice are there.

Pure and deterministic: the clock is an argument, the reader is injected (default
:func:`vision.dominoes.read_dominoes`).

>>> seen = iter([[(6, 2)], [(6, 2)], [(6, 2)], [(6, 2)], [(6, 2), (2, 3)], [(6, 2), (2, 3)], [(6, 2), (2, 3)]])
>>> import numpy as np
>>> from vision.types import TileReading
>>> reader = lambda frame: [TileReading(t, (0.0, 0.0)) for t in next(seen)]
>>> s = TileSettler(reader, still_frames=1, still_seconds=0.0, agree=3)
>>> still = np.zeros((20, 20, 3), np.uint8)
>>> [s.feed(still, t) for t in range(8)]  # the first frame only sets the picture to compare
[None, None, None, ((2, 6),), None, None, None, ((2, 3), (2, 6))]
>>> [r.pips for r in s.readings]  # the reported frame's readings, with their positions
[(6, 2), (2, 3)]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

import numpy as np

from .settle import ZONES_MOVED, Stillness, ZonesFollower
from .types import TileReading
from .zones import Zones

TileReader = Callable[[np.ndarray], Sequence[TileReading]]
Tiles = tuple[tuple[int, int], ...]

TILE_IN_DOUBT = "a tile is unsure"
"""The :class:`TileSettler`'s reason while a tile it cannot read holds the reading."""


class TileSettler:
    """Feed frames; get the set of tiles on the table once each time it changes."""

    def __init__(
        self,
        reader: TileReader | None = None,
        *,
        zones: Zones | None = None,
        still_frames: int = 3,
        still_seconds: float = 0.3,
        agree: int = 3,
        motion_threshold: float = 0.002,
        pixel_threshold: int = 18,
        work_width: int = 160,
    ) -> None:
        if reader is None:
            from .dominoes import read_dominoes

            reader = read_dominoes
        if still_frames < 1 or agree < 1:
            raise ValueError(f"still_frames and agree must be at least 1, got {still_frames} and {agree}")
        self.reader = reader
        self.zones = zones  # its ``ignore`` areas are left out of every frame; it follows a nudged camera
        self.zones_moved = (0, 0)  # how far (dx, dy, frame pixels) the zones were last moved with the picture ...
        self.zones_turned = 0.0  # ... and turned then (degrees, counter-clockwise: vision.settle.Motion)
        self._follower = ZonesFollower()
        self.agree = agree
        self.stillness = Stillness(still_frames=still_frames, still_seconds=still_seconds,
                                   motion_threshold=motion_threshold, pixel_threshold=pixel_threshold,
                                   work_width=work_width)
        self._history: deque[Tiles | None] = deque(maxlen=agree)
        self._last: Tiles | None = None
        self.readings: tuple[TileReading, ...] = ()  # the last reported frame's tiles, with positions
        self.reason = "starting"

    def feed(self, frame: np.ndarray, now: float) -> Tiles | None:
        """One frame at time ``now``; the tiles (each as (low, high), sorted) when the
        settled set differs from the last one reported, else None. When it reports,
        ``readings`` holds that frame's readings (centre, angle, corners) for the
        geometry (``vision.tile_contacts``). With ``zones``, the calibration's
        ``ignore`` areas are left out of the frame first (:meth:`Zones.leave_out`), and the
        zones follow a nudged camera (``zones_moved``; the reason :data:`~vision.settle.ZONES_MOVED`
        on the frame where they moved, whose readings do not count towards agreement)."""
        given = frame
        if self.zones is not None:
            frame = self.zones.leave_out(frame)
        still = self.stillness
        still.update(frame, now)
        if still.moving:
            self._history.clear()
            self._follower.moving()
            self.reason = "moving"
            return None
        readings = list(self.reader(frame))
        sure = [(a, b) for a, b in (r.pips for r in readings) if a is not None and b is not None]
        tiles: Tiles | None = None
        if len(sure) == len(readings):
            tiles = tuple(sorted((min(a, b), max(a, b)) for a, b in sure))
        self._history.append(tiles)
        if not still.settled:  # (read already: the readings of the frames it settles over count towards agreement)
            self.reason = "settling"
            return None
        if self.zones is not None and self._follower.due(now):
            followed = self._follower.follow(given, self.zones, [tile_box(r) for r in readings], now)
            if followed is not None:
                self.zones, bump = followed
                self.zones_moved, self.zones_turned = (bump.dx, bump.dy), bump.turn
                self._history.clear()  # (read with the areas left out where they were)
                self.reason = ZONES_MOVED
                return None
        if tiles is None:
            self.reason = TILE_IN_DOUBT
            return None
        if len(self._history) < self.agree or any(h != tiles for h in self._history):
            self.reason = "waiting for agreement"
            return None
        if tiles == self._last:
            self.reason = "already reported"
            return None
        self._last = tiles
        self.readings = tuple(readings)
        self.reason = "settled"
        return tiles


def tile_box(tile: TileReading) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) round a tile's corners; a tile read without them: 40 pixels wide about its centre.

    >>> tile_box(TileReading((6, 2), (50.0, 20.0), corners=((30, 10), (70, 10), (70, 30), (30, 30))))
    (30, 10, 70, 30)
    """
    if tile.corners:
        xs, ys = [x for x, _ in tile.corners], [y for _, y in tile.corners]
        return (min(xs), min(ys), max(xs), max(ys))
    x, y = tile.center
    return (x - 20, y - 20, x + 20, y + 20)
