"""Dominoes: the double-six set and All Fives / Muggins (П'ятірка / Пятёрка).

``proposals`` turns a tile the camera newly sees on the table into the ``play``
events it could be (one: a proposed play; several: the operator confirms).

>>> from rules.dominoes import AllFives, proposals
>>> AllFives.name
'all-fives'
"""

from .all_fives import (
    AllFives,
    AllFivesState,
    HandResult,
    IllegalPlay,
    Placement,
    SeenTile,
    count_proposals,
    legal_plays,
    new_tile_proposals,
    proposals,
    read_table,
    seen_tile,
    tile_accounts,
)
from .layout import ENDS, Layout
from .tiles import FULL_SET, Tile, canonical, round_to_five, tile_field

__all__ = [
    "ENDS",
    "FULL_SET",
    "AllFives",
    "AllFivesState",
    "HandResult",
    "IllegalPlay",
    "Layout",
    "Placement",
    "SeenTile",
    "Tile",
    "canonical",
    "count_proposals",
    "legal_plays",
    "new_tile_proposals",
    "proposals",
    "read_table",
    "round_to_five",
    "seen_tile",
    "tile_accounts",
    "tile_field",
]
