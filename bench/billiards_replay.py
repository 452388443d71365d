"""Replay speed of the billiards engines (budget: a 10,000-event journal replays in
<= 0.5 s at start-up, DESIGN.md). One long random match per game is journalled
(a match ends before 10,000 events, so the figure is scaled per event).
Usage: python bench/billiards_replay.py"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "rules" / "billiards"))

from rules import IllegalEvent, Session, get_game  # noqa: E402
from rules.replay import replay_lines  # noqa: E402
from test_billiards_properties import OPTIONS, candidates  # noqa: E402

N = 10_000
LONG = {  # long matches so that one journal holds N events
    "straight-pool": {"target": 1000},
    "snooker": {"frames": 35},
    "pyramid": {"frames": 35, "foul_penalty": "return"},
    "five-pins": {"set_points": 1000, "sets": 15},
}


def journal(game: str, seed: int = 1) -> list[str]:
    """Header and N accepted events of random play (new games started when one ends)."""
    rng = random.Random(seed)
    options = dict(OPTIONS[game][0])
    options.update(LONG[game])
    header = {"game": game, "players": ["Ann", "Bob"], "options": options}
    s = Session.start(header)
    lines = []
    while len(lines) < N:
        if not get_game(game).legal_types(s.state):
            break
        event = candidates(game, rng, s.state)
        if event["type"] == "concede":
            continue
        try:
            ev, new = s.check(event)
        except IllegalEvent:
            continue
        s.commit(ev, new)
        lines.append(json.dumps(ev.to_dict()))
    return [json.dumps(header)] + lines


def main() -> None:
    for game in ("straight-pool", "snooker", "pyramid", "five-pins"):
        lines = journal(game)
        n = len(lines) - 1
        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            replay_lines(lines)
            runs.append(time.perf_counter() - t0)
        dt = sorted(runs)[2]
        per = dt / n
        # the engine's share: folding the already parsed events through _apply
        s = replay_lines(lines)
        g = s.game
        engine = []
        for _ in range(5):
            state = s.states[0]
            t0 = time.perf_counter()
            for ev in s.events:
                state = g._apply(state, ev)
            engine.append(time.perf_counter() - t0)
        eng = sorted(engine)[2] / n
        print(
            f"{game:14s} {n:6d} events (one match) replayed in {dt * 1000:7.1f} ms median of 5:"
            f" {per * 1e6:5.1f} us/event, {per * N:5.3f} s per {N:,} events;"
            f" engine alone {eng * 1e6:5.1f} us/event"
        )


if __name__ == "__main__":
    main()
