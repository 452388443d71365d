"""All Fives engine figures: replaying journals, applying events, camera proposals
(by the tile set, with the touched tile, and the end-of-hand count read from the hands).

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

from rules.dominoes import FULL_SET, SeenTile, canonical, count_proposals, proposals, read_table  # noqa: E402
from rules.dominoes.all_fives import _evolve  # noqa: E402
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
    t0 = time.perf_counter()
    calls = 0
    during = [replay_lines(lines[:k]).state for lines in journals for k in (6, 12, 20)]
    for s in during:
        if s.phase != "play" or s.layout.empty:
            continue
        laid = [list(t) for t in s.layout.tiles()]
        touched = [list(canonical(s.layout.outer_tile("right")))]
        for tile in FULL_SET:
            read_table(s, [*laid, {"tile": list(tile), "touches": touched}])
            calls += 1
    dt = time.perf_counter() - t0
    if calls:
        print(f"read_table with a contact: {dt / calls * 1e6:.0f} µs per reading of the whole table ({calls} calls)")
    # The count: the tiles off the line split between the hands (worst: many hidden tiles).
    base = next(s for s in states if len(s.players) == 4)
    for counts in ((1, 1, 0, 0), (3, 2, 2, 0), (5, 5, 5, 5)):
        n = len(counts)
        st = _evolve(base, phase="count", hand_end="fish", turn=None, counts=counts, known=(frozenset(),) * n,
                     layout=type(base.layout)().place((6, 6), None), placements=())
        seen = [SeenTile(t) for t in FULL_SET[: sum(counts)]]
        t0 = time.perf_counter()
        answer = count_proposals(st, seen)
        dt = time.perf_counter() - t0
        print(f"count from {sum(counts)} tiles held {counts}: {dt * 1000:.1f} ms,"
              f" {len(answer.events)} proposal(s){'' if answer.events else ' (the total for the operator)'}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
