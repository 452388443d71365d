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
    legal_plays,
    new_tile_proposals,
    proposals,
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
    "Tile",
    "canonical",
    "legal_plays",
    "new_tile_proposals",
    "proposals",
    "round_to_five",
    "tile_accounts",
    "tile_field",
]
