"""Replay a 10,000-event futsal journal (start-up after a power cut) and time the views.

Budget (DESIGN.md): replaying a 10,000-event journal <= 0.5 s.

    python bench/sports_replay.py [EVENTS]
"""

from __future__ import annotations

import json
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import Session  # noqa: E402
from rules.replay import replay_lines  # noqa: E402


def journal(n: int) -> list[str]:
    """A long timekeeping session: many clock stops, fouls, goals, cards, 4 s counts."""
    s = Session.start({"game": "futsal", "players": ["Home", "Away"], "options": {"half_minutes": 45}})
    lines = [json.dumps(s.header.to_dict())]
    t, i = 0.0, 0
    cycle = [
        {"type": "clock_start"}, {"type": "foul", "team": "home"}, {"type": "four_seconds"},
        {"type": "clock_stop", "reason": "kick-in"}, {"type": "clock_start"}, {"type": "goal", "team": "away"},
        {"type": "clock_stop", "reason": "goal"}, {"type": "card", "team": "home", "color": "yellow"},
    ]
    while len(lines) <= n:
        e = {**cycle[i % len(cycle)], "t": round(t, 3)}
        i += 1
        t += 0.05
        try:
            s.submit(e)
        except ValueError:
            continue
        lines.append(json.dumps(e))
    return lines


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    lines = journal(n)
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        session = replay_lines(lines)
        times.append(time.perf_counter() - t0)
    now = session.last_t or 0.0
    t0 = time.perf_counter()
    for k in range(1000):
        session.view(now + k * 0.01)
    view_us = (time.perf_counter() - t0) / 1000 * 1e6
    print(f"futsal journal: {len(lines) - 1} events")
    print(f"replay: median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms (budget 500 ms)")
    print(f"view: {view_us:.0f} us per view")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this process (journal + 5 replays kept alive one at a time): {rss:.0f} MB")


if __name__ == "__main__":
    main()
