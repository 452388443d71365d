"""What the table needs to know about the tiles' positions, as plain data.

The rules engine knows which tiles are in the line of play; the camera knows where
each tile lies. :func:`tile_contacts` turns one settled reading into entries the
table passes to the game (``rules.dominoes.read_table``): each tile's pips, the
tiles it touches with matching halves (``touches``, from the reader's corners: the
same side-to-side contact test as ``layout_from_tiles``) and, with a calibration,
the table zone it lies in (``zone``: a player's name or seat for the end-of-hand
count). The contact is read in the settled frame itself rather than by comparing it
with the frame before: the engine already knows which tile is new, and a hand that
hid part of the line in the earlier frame does not matter.

>>> from vision.types import TileReading
>>> def tile(a, b, x):
...     return TileReading((a, b), (x, 0.0), 0.0, 1.0, ((x - 20, -10), (x + 20, -10), (x + 20, 10), (x - 20, 10)))
>>> tile_contacts([tile(3, 5, 0), tile(5, 0, 41), tile(6, 6, 300)])
[{'tile': [3, 5], 'touches': [[5, 0]]}, {'tile': [5, 0], 'touches': [[3, 5]]}, {'tile': [6, 6], 'touches': []}]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .types import TileReading
from .zones import Zones


def tile_contacts(
    readings: Sequence[TileReading], zones: Zones | None = None, frame_size: tuple[int, int] | None = None
) -> list[dict[str, Any]]:
    """One entry per sure tile (both halves read): ``tile``, ``touches`` (omitted when
    the reader gave no corners, so the game falls back to the tile set alone) and
    ``zone`` (with ``zones``; None when outside every zone)."""
    from .dominoes import touching  # the contact test of layout_from_tiles

    sure = [r for r in readings if None not in r.pips]
    out: list[dict[str, Any]] = []
    for i, r in enumerate(sure):
        entry: dict[str, Any] = {"tile": [int(r.pips[0]), int(r.pips[1])]}  # type: ignore[arg-type]
        if len(r.corners) == 4:
            entry["touches"] = [
                [int(o.pips[0]), int(o.pips[1])]  # type: ignore[arg-type]
                for j, o in enumerate(sure)
                if j != i and len(o.corners) == 4 and touching(r, o) is not None
            ]
        if zones is not None:
            entry["zone"] = zones.zone_of(r.center, frame_size)
        out.append(entry)
    return out
