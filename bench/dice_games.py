"""Dice-game engines: events applied per second and journal replay time.

    python bench/dice_games.py [DATA_DIR]

For each dice game, random games are generated from the engine's own chance
outcomes and decisions, written as ``refbox replay`` journals, and replayed with
``rules.replay.replay_lines`` (parse + validate + apply, as at start-up); the
figure is events per second of replay. Then one long journal per game (as close
to 10,000 events as the game allows in one session) is replayed and timed against
the 0.5 s start-up budget of DESIGN.md. DATA_DIR is unused (dice games need no data).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import Session, get_game  # noqa: E402
from rules.dice._dicekit import DiceGame  # noqa: E402
from rules.replay import replay_lines  # noqa: E402

GAMES: dict[str, tuple[list[str], dict[str, Any], dict[str, Any]]] = {
    # name: (players, options for ordinary games, options for a long game)
    "pig": (["A", "B", "C"], {}, {"target": 1000}),
    "craps": (["A", "B", "C"], {}, {"rounds": 100}),
    "game-of-13": (["A", "B"], {"target_points": 3}, {"target_points": 100}),
    "indian-dice": (["A", "B", "C", "D"], {}, {"rounds": 9}),
    "martinetti": (["A", "B", "C"], {}, {"fields": 18}),
    "aces": (["A", "B", "C", "D"], {}, {"dice_each": 10}),
    "four-dice": (["A", "B"], {"best_of": 3}, {"best_of": 99}),
    "put-dead": (["A", "B", "C"], {}, {"turns_per_player": 20}),
    "chicago": (["A", "B", "C"], {}, {}),
    "sea-dice": (["A", "B"], {}, {}),
    "buck-dice": (["A", "B", "C"], {}, {"exact_15": True}),
    "high-dice": (["A", "B"], {"games": 5}, {"games": 5000, "extra_throws": 2}),
    "bank-on-dice": (["A", "B", "C"], {"rounds": 5}, {"rounds": 5000}),
    "liars-dice": (["A", "B", "C"], {}, {"stakes_per_player": 100}),
    "bluff": (["A", "B"], {"best_of": 3}, {"best_of": 99, "max_throws": 3}),
}


def random_journal(name: str, players: list[str], options: dict[str, Any], seed: int, limit: int) -> list[str]:
    rng = random.Random(seed)
    header = {"game": name, "players": players, "options": options}
    s = Session.start(header)
    game = s.game
    assert isinstance(game, DiceGame), name
    lines = [json.dumps(header)]
    while not game.is_over(s.state) and len(lines) <= limit:
        chance = game.chance_outcomes(s.state)
        decisions = game.decisions(s.state)
        if chance and (not decisions or rng.random() < 0.6):
            x = rng.random()
            acc = 0.0
            event = chance[-1][0]
            for e, p in chance:
                acc += float(p)
                if x < acc:
                    event = e
                    break
        else:
            event = rng.choice(decisions)
        s.submit(event)
        lines.append(json.dumps(event))
    return lines


def timed_replay(lines: list[str], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        replay_lines(lines)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    print(f"{'game':14} {'events/s':>10} {'long game':>10} {'replay s':>9} {'per 10k s':>9}")
    for name, (players, options, long_options) in GAMES.items():
        get_game(name)
        journals = [random_journal(name, players, options, seed, 5000) for seed in range(20)]
        events = sum(len(j) - 1 for j in journals)
        t = sum(timed_replay(j, 1) for j in journals)
        long = random_journal(name, players, long_options, 1, 10_000)
        n = len(long) - 1
        lt = timed_replay(long)
        print(f"{name:14} {events / t:10.0f} {n:10d} {lt:9.3f} {lt * 10_000 / n:9.3f}")


if __name__ == "__main__":
    main()
