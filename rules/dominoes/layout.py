"""The tiles on the table in All Fives: a line of play with at most one spinner.

The line runs from its ``left`` end to its ``right`` end. The first double placed
(whether it leads or comes later) is the spinner ("основа хреста"): tiles may
also be joined to its two other sides, the ``up`` and ``down`` arms. So at most
four ends are open: ``left`` and ``right`` always, ``up`` and ``down`` once the
spinner is down (000:1359-1361, 000:1383).

Counting the open ends (RULES.md §3, the [REC] spinner model, which reproduces
every number of the worked example 000:1385-1393 / 001:780-786):

- an ordinary tile at an end counts its outer half; an ordinary double at an end
  counts both halves (``end_double="full"``) or one (``"half"``);
- the spinner, while fewer than two of its sides are covered, counts its full
  value once (5x5 -> 10), whichever of its free sides are open;
- once two of its sides are covered: under ``two_sides`` ("as a rule", the text)
  it no longer counts; under ``four_sides`` each still-free side counts one half
  (5 for 5x5) until covered.

The source speaks of the spinner "closed from two sides" in the line
(3x5-5x5-5x0); it does not say which two sides. The engine counts covered sides
of any arm alike (a decision recorded in docs/games/all-fives.md).

>>> lay = Layout().place((5, 5), None)
>>> lay.open_ends(), lay.terms("two_sides")
({'left': 5, 'right': 5, 'up': 5, 'down': 5}, (10,))
>>> lay = lay.place((5, 0), "right").place((3, 5), "left")
>>> lay.terms("two_sides"), lay.terms("four_sides")
((3, 0), (3, 5, 5, 0))
>>> lay.place((0, 2), "right").terms("four_sides")
(3, 5, 5, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import Tile, canonical, is_double

ENDS = ("left", "right", "up", "down")
# The order the source reads the ends in ("3+5+5+0": left, the spinner's sides, right).
TERM_ORDER = ("left", "up", "down", "right")


@dataclass(frozen=True)
class Layout:
    """Placed tiles, oriented: ``line`` left to right, ``up``/``down`` from the spinner outwards."""

    line: tuple[Tile, ...] = ()
    spinner: int | None = None  # index of the spinner in ``line``
    up: tuple[Tile, ...] = ()
    down: tuple[Tile, ...] = ()

    # --- reading ---------------------------------------------------------------

    @property
    def empty(self) -> bool:
        return not self.line

    @property
    def spinner_tile(self) -> Tile | None:
        return None if self.spinner is None else self.line[self.spinner]

    def tiles(self) -> frozenset[Tile]:
        """Every placed tile, canonical."""
        return frozenset(canonical(t) for t in self.line + self.up + self.down)

    def pips_on_table(self) -> int:
        return sum(a + b for a, b in self.line + self.up + self.down)

    def open_ends(self) -> dict[str, int]:
        """End name -> the pip a tile must show to join it (empty before the lead)."""
        if not self.line:
            return {}
        ends = {"left": self.line[0][0], "right": self.line[-1][1]}
        if self.spinner is not None:
            s = self.line[self.spinner][0]
            ends["up"] = self.up[-1][1] if self.up else s
            ends["down"] = self.down[-1][1] if self.down else s
        return ends

    def free_spinner_sides(self) -> tuple[str, ...]:
        """The ends whose outermost tile is the spinner itself."""
        if self.spinner is None:
            return ()
        free = []
        if self.spinner == 0:
            free.append("left")
        if self.spinner == len(self.line) - 1:
            free.append("right")
        if not self.up:
            free.append("up")
        if not self.down:
            free.append("down")
        return tuple(free)

    def outer_tile(self, end: str) -> Tile:
        """The outermost tile at ``end``, oriented inner half first."""
        if end == "left":
            a, b = self.line[0]
            return (b, a)
        if end == "right":
            return self.line[-1]
        arm = self.up if end == "up" else self.down
        return arm[-1]

    def terms(self, closing: str, end_double: str = "full") -> tuple[int, ...]:
        """What each open end counts, in the source's reading order; their sum is scored."""
        ends = self.open_ends()
        free = self.free_spinner_sides()
        covered = 4 - len(free)
        spinner_counted = False
        out: list[int] = []
        for end in TERM_ORDER:
            if end not in ends:
                continue
            if end in free:
                if covered <= 1:
                    if not spinner_counted:
                        out.append(2 * ends[end])
                        spinner_counted = True
                elif closing == "four_sides":
                    out.append(ends[end])
                continue
            tile = self.outer_tile(end)
            if is_double(tile):
                out.append(2 * tile[1] if end_double == "full" else tile[1])
            else:
                out.append(tile[1])
        return tuple(out)

    # --- placing ---------------------------------------------------------------

    def place(self, tile: Tile, end: str | None) -> "Layout":
        """The layout with ``tile`` joined to ``end`` (``None`` for the lead).

        The caller has checked that the end exists and the tile matches it.
        """
        a, b = tile
        if not self.line:
            return Layout(line=((a, b),), spinner=0 if a == b else None)
        value = self.open_ends()[end or ""]
        other = b if a == value else a
        becomes_spinner = self.spinner is None and a == b
        if end == "left":
            spinner = 0 if becomes_spinner else (None if self.spinner is None else self.spinner + 1)
            return Layout(((other, value),) + self.line, spinner, self.up, self.down)
        if end == "right":
            spinner = len(self.line) if becomes_spinner else self.spinner
            return Layout(self.line + ((value, other),), spinner, self.up, self.down)
        if end == "up":
            return Layout(self.line, self.spinner, self.up + ((value, other),), self.down)
        return Layout(self.line, self.spinner, self.up, self.down + ((value, other),))
