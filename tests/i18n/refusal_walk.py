"""Collect the refusals the game engines actually write.

Every game of the registry is walked through random playthroughs (its own
``decisions``/``chance_outcomes`` where it has them, else random events the game
accepts) and through the golden journals of ``tests/golden``; at the states on the
way, events of every type of the game's schema are submitted with random good
values, missing fields, wrong values, out-of-turn players, unknown types and
fields, times before the last event, and ``undo`` at the start. Every
``MalformedEvent``/``IllegalEvent`` message is kept.

``python -m tests.i18n.refusal_walk`` prints the messages no pattern covers.
"""

from __future__ import annotations

import ast
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from rules import IllegalEvent, MalformedEvent, Session
from rules.events import Opt
from rules.game import Game
from rules.registry import all_games
from tests.rules.dice.dice_props import sample_chance

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
NAMES = ("Ann", "Bob", "Cy", "Dan")
_NOT_A_CHOICE = "\x01?"

_INTS: tuple[Any, ...] = (*range(-2, 31), 36, 50, 100, 120, 200, 300, 500, 1000, 1200, 2400, 0.5, 12.5, True, False)
_STRINGS: tuple[str, ...] = ("", "nobody", "home", "away", "x" * 70, "Ann", "Bob", "Cy", "Dan")


def _tiles(rng: random.Random, n: int) -> list[list[int]]:
    return [[rng.randint(0, 6), rng.randint(0, 6)] for _ in range(n)]


def _list_candidates(rng: random.Random, players: int) -> Iterator[Any]:
    for n in range(0, 8):
        for _ in range(3):
            yield [rng.randint(1, 6) for _ in range(n)]
        yield [rng.randint(1, 7) for _ in range(n)]
        yield [rng.randint(0, 30) for _ in range(n)]
        yield _tiles(rng, n)
    for _ in range(6):
        yield [rng.randint(0, 6), rng.randint(0, 6)]  # one tile
        yield [rng.randint(0, 60) for _ in range(players)]  # pips per player
        yield [_tiles(rng, rng.randint(0, 7)) for _ in range(players)]  # hands per player
        yield [_tiles(rng, rng.randint(0, 7)) for _ in range(players + 1)]
    yield ["x", "y"]
    yield list(NAMES)


def _validator(spec: Any) -> Callable[[Any], Any]:
    return spec.validator if isinstance(spec, Opt) else spec


def _choices(check: Callable[[Any], Any]) -> list[Any]:
    """The allowed words of a field, read from its validator's refusal
    (``expected one of [...]``, ``expected foul codes from [...]``)."""
    for probe in (_NOT_A_CHOICE, [_NOT_A_CHOICE]):
        try:
            check(probe)
        except ValueError as exc:
            m = re.search(r"(?:one of|from) (\[.*?\]), got ", str(exc))
            if m:
                try:
                    return list(ast.literal_eval(m.group(1)))
                except (ValueError, SyntaxError):
                    pass
    return []


class Pools:
    """For each field of each event type: values its validator accepts and refuses."""

    def __init__(self, game: Game[Any], players: int, rng: random.Random) -> None:
        self.good: dict[tuple[str, str], list[Any]] = {}
        self.bad: dict[tuple[str, str], list[Any]] = {}
        lists = list(_list_candidates(rng, players))
        for kind, fields in game.events.items():
            for name, spec in fields.items():
                check = _validator(spec)
                good, bad = [], []
                words = _choices(check)
                word_lists = [rng.sample(words, k) for k in range(1, len(words) + 1)] + [words[:1] * 2]
                for value in [*_INTS, *_STRINGS, *words, *lists, *word_lists, None, {"a": 1}]:
                    try:
                        check(value)
                    except ValueError:
                        bad.append(value)
                    else:
                        good.append(value)
                self.good[kind, name] = good
                self.bad[kind, name] = bad


def probes(game: Game[Any], session: Session, pools: Pools, rng: random.Random, t: float) -> list[dict[str, Any]]:
    """Events to try at the session's state: mostly well formed with random values."""
    out: list[dict[str, Any]] = []
    for kind, fields in game.events.items():
        for _ in range(3):
            e: dict[str, Any] = {"type": kind}
            for name, spec in fields.items():
                good = pools.good[kind, name]
                if good and (not isinstance(spec, Opt) or rng.random() < 0.5):
                    e[name] = rng.choice(good)
            if rng.random() < 0.7:
                e["t"] = t
            out.append(e)
        required = [n for n, s in fields.items() if not isinstance(s, Opt)]
        if required:  # a field missing
            e = {"type": kind, **{n: rng.choice(pools.good[kind, n] or [1]) for n in required}}
            del e[rng.choice(required)]
            out.append(e)
        if fields:  # a field of the wrong kind
            name = rng.choice(list(fields))
            if pools.bad[kind, name]:
                out.append({"type": kind, name: rng.choice(pools.bad[kind, name])})
    out += [
        {"type": "no_such_event"},
        {"type": rng.choice(list(game.events) or ["roll"]), "colour": "red"},
        {"type": "Roll"},
        {"type": "roll", "t": -1},
        {"type": "roll", "source": "moon"},
        {"type": "roll", "note": "\ud800"},
        {"type": "undo", "x": 1},
        {"type": "undo"},
    ]
    if session.last_t:
        out.append({"type": rng.choice(list(game.events)), "t": max(0.0, session.last_t - 1)})
    return out


def _planned(game: Game[Any], state: Any, rng: random.Random) -> dict[str, Any] | None:
    """The next event of a playthrough by the game's own chances and decisions."""
    try:
        chance = list(game.chance_outcomes(state))  # type: ignore[attr-defined]
        decisions = list(game.decisions(state))  # type: ignore[attr-defined]
    except (AttributeError, NotImplementedError):
        return None
    if chance and (not decisions or rng.random() < 0.6):
        return dict(sample_chance(rng, chance))
    return dict(rng.choice(decisions)) if decisions else None


def _over(game: Game[Any], state: Any) -> bool:
    is_over = getattr(game, "is_over", None)
    if is_over is not None:
        return bool(is_over(state))
    return not game.legal_types(state)


class Collector:
    def __init__(self) -> None:
        self.messages: dict[str, str] = {}  # message -> the first game that wrote it
        self.refused: Counter[str] = Counter()  # game -> refusals
        self.accepted: Counter[str] = Counter()  # game -> accepted events

    def submit(self, session: Session, event: Any) -> bool:
        try:
            session.check(event)
        except (MalformedEvent, IllegalEvent) as exc:
            self.messages.setdefault(str(exc), session.game.name)
            self.refused[session.game.name] += 1
            return False
        self.accepted[session.game.name] += 1
        return True


def _start(header: Mapping[str, Any]) -> Session | None:
    """A session of ``header``, with 2 or 4 players when the options need them."""
    for players in (header["players"], list(NAMES[:4]), list(NAMES[:2])):
        try:
            return Session.start({**header, "players": players})
        except ValueError:
            continue
    return None


def walk(collector: Collector, header: Mapping[str, Any], seed: int, steps: int,
         before: list[dict[str, Any]] = ()) -> None:  # type: ignore[assignment]
    rng = random.Random(seed)
    session = _start(header)
    if session is None:
        return
    game = session.game
    pools = Pools(game, len(session.header.players), rng)
    t = 0.0
    for e in before:
        session.submit(e)
        t = session.last_t or t
    for _ in range(steps):
        t = (session.last_t or 0.0) + rng.choice((0, 1, 3, 5, 30, 61, 300, 1300, 3000))
        tried = probes(game, session, pools, rng, t)
        accepted = [e for e in tried if collector.submit(session, e) and e["type"] != "undo"]
        if _over(game, session.state):
            break
        due = list(session.due_events(t))
        nxt = _planned(game, session.state, rng)
        if due and rng.random() < 0.5:
            nxt = due[0].to_dict()
        elif nxt is None and accepted:
            nxt = rng.choice(accepted)
        if nxt is None:
            break
        try:
            session.submit(nxt)
        except (MalformedEvent, IllegalEvent):
            break


def golden(collector: Collector, path: Path, seed: int, every: int = 1) -> None:
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    header = json.loads(lines[0])
    events = [json.loads(ln) for ln in lines[1:]]
    rng = random.Random(seed)
    session = Session.start(header)
    pools = Pools(session.game, len(session.header.players), rng)
    for i, e in enumerate([*events, None]):
        if i % every == 0 or e is None:
            t = (session.last_t or 0.0) + 1
            for p in probes(session.game, session, pools, rng, t):
                collector.submit(session, p)
        if e is None:
            break
        try:
            session.submit(e)
        except (MalformedEvent, IllegalEvent):  # a golden file that shows a refusal
            collector.submit(session, e)


def headers(game: Game[Any]) -> list[dict[str, Any]]:
    """The default header and one per option choice (and flipped flag)."""
    n = max(game.min_players, min(3, game.max_players))
    base = {"game": game.name, "players": list(NAMES[:n])}
    out = [base, {**base, "players": list(NAMES[:max(game.min_players, 2)])}]
    for o in game.options:
        values: list[Any] = []
        if o.choices is not None:
            values = [c for c in o.choices if c != o.default]
        elif isinstance(o.default, bool):
            values = [not o.default]
        else:
            values = [v for v in (o.lo, o.hi) if v is not None and v != o.default]
            values = [type(o.default)(v) for v in values]
        for v in values:
            out.append({**base, "options": {o.name: v}})
    return out


def collect(seed: int = 1, steps: int = 80) -> Collector:
    collector = Collector()
    for game in all_games():
        for i, header in enumerate(headers(game)):
            walk(collector, header, seed + i, steps if i < 2 else steps // 3)
    for path in sorted(GOLDEN.glob("*.jsonl")):
        golden(collector, path, seed)
    return collector


if __name__ == "__main__":  # pragma: no cover - a tool
    import sys
    import time

    from refbox import i18n

    t0 = time.perf_counter()
    c = collect()
    took = time.perf_counter() - t0
    bad = sorted((g, m) for m, g in c.messages.items() if not i18n.is_translated_reason(m))
    for g, m in bad:
        print(f"{g}: {m}")
    print(f"{len(c.messages)} refusals, {sum(c.accepted.values())} accepted, {len(bad)} not covered, {took:.1f} s", file=sys.stderr)
