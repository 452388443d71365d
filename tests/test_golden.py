"""Golden playthroughs: every tests/golden/**/*.jsonl replays, and where a
``NAME.expected.json`` sits beside it, each of its keys equals the final view's."""

import json
from pathlib import Path

import pytest

from rules.replay import final_view, replay_lines

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.rglob("*.jsonl"))


def subset_mismatches(expected, actual, path="view"):
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        out = []
        for k, v in expected.items():
            if k not in actual:
                out.append(f"{path}.{k}: missing")
            else:
                out += subset_mismatches(v, actual[k], f"{path}.{k}")
        return out
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(GOLDEN)) for p in FILES])
def test_golden_playthrough(path):
    session = replay_lines(path.read_text(encoding="utf-8").splitlines())
    view = json.loads(json.dumps(final_view(session)))
    expected_path = path.with_suffix(".expected.json")
    if expected_path.exists():
        expected = json.loads(expected_path.read_text(encoding="utf-8"))
        assert subset_mismatches(expected, view) == []
    else:
        assert view["events"] > 0
