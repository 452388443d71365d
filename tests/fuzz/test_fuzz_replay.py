"""Hostile replay files: any text lines give a session or a ReplayError that names
the line (1-based, a line that exists), never another exception."""

from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rules.replay import ReplayError, replay_lines

from .strategies import examples, GOLDEN, game_events, golden_lines, json_like

FUZZ = settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def mangled_files(draw: st.DrawFn) -> list[str]:
    """A golden game with lines dropped, swapped, cut, or replaced by junk."""
    lines = golden_lines(GOLDEN[draw(st.integers(0, len(GOLDEN) - 1))])
    header = json.loads(lines[0])
    junk = st.one_of(
        st.text(max_size=40),
        json_like.map(lambda v: json.dumps(v)),
        game_events(header["game"]).map(lambda e: json.dumps(e)),
        st.sampled_from(["[" * 5000, "{" * 3000 + "}" * 3000, '{"type": "roll", "dice": [NaN]}', "\x00", "# comment",
                         '{"type": "roll", "dice": [1e999]}', '"\\ud800"', '{"game": "pig", "players": ["\\ud800", "B"]}']),
    )
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["drop", "junk", "cut", "swap", "insert"]))
        if action == "drop":
            del lines[i]
        elif action == "junk":
            lines[i] = draw(junk)
        elif action == "cut":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif action == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines.insert(i, draw(junk))
    return lines


def check(lines: list[str]) -> None:
    try:
        session = replay_lines(lines)
    except ReplayError as exc:
        m = re.match(r"line (\d+): .+", str(exc), re.S)
        assert m, str(exc)
        assert 1 <= exc.line == int(m.group(1)) <= max(1, len(lines))
    else:
        json.dumps(session.view(session.last_t or 0.0), allow_nan=False)


@FUZZ
@given(st.lists(st.text(max_size=60), max_size=8))
@example(["[" * 100_000])
@example(['{"game": "pig", "players": ["A", "B"]}', "[" * 100_000])
@example(['{"game": "pig", "players": ["A", "B"], "options": {"target": 1e999}}'])
def test_arbitrary_text_lines(lines):
    check(lines)


@FUZZ
@given(mangled_files())
def test_mangled_golden_games(lines):
    check(lines)
