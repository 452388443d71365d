"""All Fives engine figures: replaying journals, applying events, camera proposals.

    python bench/dominoes_engine.py [GAMES]

Simulated tables (real shuffled tiles, rule-following players) produce the
journals; the figures are medians over repeats on this machine.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.dominoes import FULL_SET, proposals  # noqa: E402
from rules.replay import replay_lines  # noqa: E402
from tests.dominoes.sim import new_table, play_game  # noqa: E402


def main(games: int = 40) -> None:
    setups = [(["A", "B"], {}), (["A", "B", "C", "D"], {"teams": True}), (["A", "B", "C"], {})]
    journals = []
    total = 0
    seed = 0
    while total < 10_000 or len(journals) < games:
        players, options = setups[seed % len(setups)]
        table = play_game(new_table(seed, players, {**options, "target": 250}))
        header = json.dumps({"game": "all-fives", "players": players, "options": {**options, "target": 250}})
        journals.append([header] + [json.dumps(e) for e in table.events])
        total += len(table.events)
        seed += 1
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        states = []
        for lines in journals:
            states.append(replay_lines(lines).state)
        runs.append(time.perf_counter() - t0)
    per_10k = statistics.median(runs) / total * 10_000
    print(f"journals: {len(journals)} games to 250, {total} events")
    print(f"replay: {statistics.median(runs) * 1000:.0f} ms for all, {per_10k * 1000:.0f} ms per 10,000 events"
          f" (budget 500 ms), {total / statistics.median(runs):,.0f} events/s")
    mid = [s for s in states if s.layout.line]
    t0 = time.perf_counter()
    calls = 0
    for s in mid:
        for tile in FULL_SET:
            proposals(s, tile)
            calls += 1
    dt = time.perf_counter() - t0
    print(f"proposals: {dt / calls * 1e6:.1f} µs per tile ({calls} calls)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
