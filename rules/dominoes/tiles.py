"""Double-six domino tiles: the 28-tile set, the ``tile`` event field, rounding.

A tile is a pair of pip counts 0..6. Where identity matters (which tiles are on
the table, which are still hidden) a tile is written canonically, low half first;
where orientation matters (a tile in the line of play) the pair is ordered.

>>> len(FULL_SET), sum(pips(t) for t in FULL_SET)
(28, 168)
>>> canonical((5, 3)), is_double((4, 4))
((3, 5), True)
>>> tile_field([6, 2])
(6, 2)
>>> round_to_five(27), round_to_five(28), round_to_five(17)
(25, 30, 15)
"""

from __future__ import annotations

from typing import Any, Iterable

Tile = tuple[int, int]
MAX_PIP = 6

FULL_SET: tuple[Tile, ...] = tuple((a, b) for a in range(MAX_PIP + 1) for b in range(a, MAX_PIP + 1))


def canonical(tile: Tile) -> Tile:
    """The tile's identity: low half first."""
    a, b = tile
    return (a, b) if a <= b else (b, a)


def is_double(tile: Tile) -> bool:
    return tile[0] == tile[1]


def pips(tile: Tile) -> int:
    return tile[0] + tile[1]


def fmt_tile(tile: Tile) -> str:
    """``[3, 5]``: the JSON spelling, used in messages."""
    return f"[{tile[0]}, {tile[1]}]"


def fmt_tiles(tiles: Iterable[Tile]) -> str:
    return ", ".join(fmt_tile(t) for t in sorted(tiles))


def tile_field(value: Any) -> Tile:
    """Event field validator: ``[a, b]`` with both halves in 0..6 (order kept)."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"expected a tile [a, b] with pips 0..{MAX_PIP}, got {value!r}")
    out = []
    for half in value:
        if isinstance(half, bool) or not isinstance(half, int) or not 0 <= half <= MAX_PIP:
            raise ValueError(f"expected a tile [a, b] with pips 0..{MAX_PIP}, got {value!r}")
        out.append(half)
    return (out[0], out[1])


def round_to_five(points: int) -> int:
    """Nearest multiple of five; a remainder of 0-2 rounds down, 3-4 up (RULES.md §3 amb. 2)."""
    return 5 * ((points + 2) // 5)
