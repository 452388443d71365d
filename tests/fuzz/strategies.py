"""Hypothesis strategies shared by the fuzz tests: JSON-like values, and events that
look like a game's own (its event types and field names, values seen in the golden
games) so the fuzzing gets past the first check."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from rules.registry import get_game

#: REFBOX_FUZZ_SCALE=20 for a long hunt; the suite's default keeps the whole fuzz set
#: well under a minute on one core
SCALE = float(os.environ.get("REFBOX_FUZZ_SCALE", "1"))


def examples(n: int) -> int:
    return max(1, int(n * SCALE))


ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.jsonl"))

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.integers(min_value=-3, max_value=30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
json_like = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)


def golden_lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]


@lru_cache(maxsize=None)
def seen_strings() -> tuple[str, ...]:
    """Every string value in the golden games' events and headers (team names, balls, ends, ...)."""
    out: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)

    for path in GOLDEN:
        for line in golden_lines(path):
            walk(json.loads(line))
    return tuple(sorted(out))


def field_values() -> st.SearchStrategy[Any]:
    small = st.integers(min_value=-2, max_value=25)
    return st.one_of(
        small,
        st.lists(st.integers(min_value=0, max_value=7), max_size=11),
        st.lists(st.lists(st.integers(min_value=0, max_value=7), max_size=3), max_size=3),
        st.sampled_from(seen_strings()),
        st.sampled_from(["\ud800", "x\udfff", "\x00", "a" * 200]),
        st.booleans(),
        st.none(),
        st.floats(min_value=-5, max_value=5000) | st.sampled_from([float("nan"), float("inf"), -0.0, 1e308]),
        json_like,
    )


def game_events(game_name: str) -> st.SearchStrategy[dict[str, Any]]:
    """Dicts shaped like ``game_name``'s events (known type, known and unknown fields)."""
    game = get_game(game_name)
    types = sorted([*game.events, "undo"])

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        kind = draw(st.sampled_from(types))
        names = sorted(game.events.get(kind, {}))
        event: dict[str, Any] = {"type": kind}
        for name in names:
            if draw(st.integers(0, 4)):  # usually present
                event[name] = draw(field_values())
        if draw(st.integers(0, 9)) == 0:
            event[draw(st.text(max_size=6))] = draw(field_values())
        if draw(st.integers(0, 3)) == 0:
            event["t"] = draw(st.one_of(st.floats(allow_nan=True), st.integers(-5, 10**6), st.text(max_size=3)))
        if draw(st.integers(0, 5)) == 0:
            event["source"] = draw(st.sampled_from(["button", "camera", "web", "timer", "nobody", 3]))
        return event

    return build()


def any_event(game_name: str) -> st.SearchStrategy[Any]:
    return st.one_of(game_events(game_name), game_events(game_name), json_like,
                     st.dictionaries(st.sampled_from(["type", "t", "source", "dice"]), json_like, max_size=4))
