"""Thousand and five-dice poker engines: events applied per second and journal
replay time for a long game (10,000 events).

    python bench/dice_thousand.py [EVENTS]

Prints one line per figure. The journals are random but seeded (same every run).
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import Session, get_game  # noqa: E402
from rules.dice._thousand_scoring import scoring_selections  # noqa: E402
from rules.replay import replay_lines  # noqa: E402


def thousand_event(game: Any, state: Any, rng: random.Random) -> dict[str, Any]:
    legal = game.legal_types(state)
    if "stop" in legal and rng.random() < 0.4:
        return {"type": "stop"}
    if "keep" in legal and rng.random() < 0.5:
        return {"type": "keep", "dice": list(rng.choice(scoring_selections(state.pending)))}
    probs = game.chance_outcomes(state)
    dice = list(rng.choices(list(probs), weights=list(probs.values()))[0])
    rng.shuffle(dice)
    return {"type": "roll", "dice": dice}


def poker_event(game: Any, state: Any, rng: random.Random) -> dict[str, Any]:
    if state.throws and rng.random() < 0.3:
        return {"type": "stop"}
    if state.throws and state.held is None:
        must = list(state.kept_at_second or ()) if state.throws == 2 else []
        rest = list(state.hand)
        for d in must:
            rest.remove(d)
        keep = must + rng.sample(rest, rng.randint(0, max(0, 4 - len(must))))
        return {"type": "keep", "dice": keep} if len(keep) <= 4 else {"type": "stop"}
    probs = game.chance_outcomes(state)
    dice = list(rng.choices(list(probs), weights=list(probs.values()))[0])
    rng.shuffle(dice)
    return {"type": "roll", "dice": dice}


def journal(header: dict[str, Any], policy: Any, n: int, seed: int) -> list[str]:
    """A header and ``n`` events; finished games are followed by fresh ones (new journals)."""
    rng = random.Random(seed)
    s = Session.start(header)
    game = get_game(header["game"])
    lines = [json.dumps(header)]
    while len(lines) <= n:
        if s.view()["winner"] is not None:
            break
        e = policy(game, s.state, rng)
        s.submit(e)
        lines.append(json.dumps(e))
    return lines


def measure(label: str, header: dict[str, Any], policy: Any, n: int) -> None:
    lines = journal(header, policy, n, seed=1)
    events = len(lines) - 1
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        replay_lines(lines)
        times.append(time.perf_counter() - t0)
    median = statistics.median(times)
    print(f"{label}: {events} events, replay median {median * 1000:.1f} ms, {events / median:,.0f} events/s")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    players = ["Ann", "Bob", "Cid", "Dan"]
    measure(
        "thousand (classic, target 100000, no barrel)",
        {"game": "thousand", "players": players, "options": {"barrel": "none", "target": 100000}},
        thousand_event,
        n,
    )
    measure(
        "thousand-v2 (barrel 9000, target 10000)",
        {"game": "thousand-v2", "players": players, "options": {"barrel": 9000, "barrel_need": 1000}},
        thousand_event,
        n,
    )
    header = {"game": "poker", "players": [f"P{i}" for i in range(10)]}
    games = []
    while sum(len(g) - 1 for g in games) < n:
        games.append(journal(header, poker_event, n, seed=len(games)))
    events = sum(len(g) - 1 for g in games)
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        for g in games:
            replay_lines(g)
        times.append(time.perf_counter() - t0)
    median = statistics.median(times)
    print(f"poker (10 players): {len(games)} games, {events} events, replay median {median * 1000:.1f} ms,"
          f" {events / median:,.0f} events/s")


if __name__ == "__main__":
    main()
