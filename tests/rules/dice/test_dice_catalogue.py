"""Every dice game of issue 3 (Thousand and dice poker apart) is registered, documented,
has golden playthroughs and answers `refbox odds` with exact fractions."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from rules import Event, get_game

ROOT = Path(__file__).resolve().parents[3]
NAMES = [
    "liars-dice", "game-of-13", "craps", "indian-dice", "martinetti", "pig", "aces", "four-dice",
    "put-dead", "chicago", "sea-dice", "buck-dice", "high-dice", "bank-on-dice", "bluff",
]  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_registered_documented_and_golden(name):
    game = get_game(name)
    info = json.loads(json.dumps(game.info()))
    assert info["family"] == "dice" and info["source"].startswith("000:") and info["native"]
    doc = (ROOT / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")
    assert "```jsonl replay" in doc and "```json view" in doc
    for option in game.options:
        assert f"`{option.name}`" in doc, f"option {option.name} is not documented"
    for kind in game.events:
        assert f"`{kind}`" in doc, f"event {kind} is not documented"
    assert list((ROOT / "tests" / "golden").glob(f"{name}-*.jsonl")), "no golden playthrough"


@pytest.mark.parametrize("name", NAMES)
def test_odds_are_exact_and_unknown_parameters_refused(name):
    game = get_game(name)
    odds = game.odds({})
    assert odds and all(isinstance(v, Fraction) for v in odds.values())
    with pytest.raises(ValueError, match="unknown odds parameter"):
        game.odds({"nonsense": "1"})


@pytest.mark.parametrize("name", NAMES)
def test_reading_proposes_a_roll_only_when_one_is_due(name):
    game = get_game(name)
    players = ["A", "B"]
    state = game.setup(players, game.resolve_options({}))
    chance = game.chance_outcomes(state)
    proposed = game.from_reading(state, [1])
    if chance:
        assert proposed == Event("roll", {"dice": [1]}, source="camera")
        assert "roll" in game.legal_types(state)
    else:
        assert proposed is None
