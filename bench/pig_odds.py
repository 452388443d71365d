"""Pig: time of the dynamic-programming solver and the published figures.

    python bench/pig_odds.py [DATA_DIR]

Prints the first player's winning chance to 100 with optimal play on both sides
(Neller & Presser: 0.5306) and with both holding at 20 (0.5347), and the solve
time of each in pure Python. DATA_DIR is unused.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.dice.pig import _pig_table, first_player_wins  # noqa: E402


def main() -> None:
    for label, hold in (("optimal", None), ("hold at 20", 20)):
        _pig_table.cache_clear()
        t0 = time.perf_counter()
        p = first_player_wins(100, hold)
        dt = time.perf_counter() - t0
        print(f"pig to 100, {label:10}: first player wins {p:.6f}  (solved in {dt:.2f} s)")


if __name__ == "__main__":
    main()
