"""Documented examples keep replaying: every ```jsonl replay block in docs/ and the
README replays, and a ```json view block right after it is a subset of the final view."""

import json
import re
from pathlib import Path

import pytest

from rules.replay import final_view, replay_lines
from tests.test_golden import subset_mismatches

ROOT = Path(__file__).parent.parent
BLOCK = re.compile(r"```jsonl replay\n(.*?)```\s*(?:```json view\n(.*?)```)?", re.S)
DOCS = sorted(ROOT.glob("docs/**/*.md")) + [ROOT / "README.md"]
EXAMPLES = [
    (doc, i, m.group(1), m.group(2))
    for doc in DOCS
    if doc.exists()
    for i, m in enumerate(BLOCK.finditer(doc.read_text(encoding="utf-8")))
]


@pytest.mark.parametrize(
    "doc, index, events, view", EXAMPLES, ids=[f"{d.relative_to(ROOT)}#{i}" for d, i, _, _ in EXAMPLES]
)
def test_documented_example_replays(doc, index, events, view):
    session = replay_lines(events.splitlines())
    actual = json.loads(json.dumps(final_view(session)))
    if view:
        assert subset_mismatches(json.loads(view), actual) == []


def test_docs_have_examples():
    assert EXAMPLES, "docs/ should show at least one replayable example"
