from fractions import Fraction

import pytest
from tests.rules.dice.dice_props import check_properties

from rules import Session, get_game


def test_worked_example_chicago_1():
    # TV chicago-1: round 1, A throws 3, B throws 1+1 -> B +2; round 2 (target 3) begins
    s = Session.start({"game": "chicago", "players": ["A", "B"]})
    v = s.submit({"type": "roll", "dice": [1, 2]}).submit({"type": "roll", "dice": [1, 1]}).view()
    assert [p["score"] for p in v["players"]] == [0, 2]
    assert v["round"] == 2 and v["target"] == 3 and v["turn"] == "B"  # the starter rotates


def test_each_player_one_throw_scores_every_hit():
    s = Session.start({"game": "chicago", "players": ["A", "B"], "options": {"mode": "each_player_one_throw"}})
    v = s.submit({"type": "roll", "dice": [1, 1]}).view()
    assert v["round"] == 1 and v["turn"] == "B"  # B still throws in round 1
    v = s.submit({"type": "roll", "dice": [1, 1]}).view()
    assert [p["score"] for p in v["players"]] == [2, 2] and v["round"] == 2 and v["turn"] == "B"


def test_a_tie_is_shared():
    s = Session.start({"game": "chicago", "players": ["A", "B"], "options": {"mode": "each_player_one_throw"}})
    for r in range(1, 12):
        t = r + 1
        d = [1, t - 1] if t <= 7 else [6, t - 6]
        s.submit({"type": "roll", "dice": d}).submit({"type": "roll", "dice": d})
    v = s.view()
    assert v["over"] and v["winner"] is None and v["tied"] == ["A", "B"] and v["players"][0]["score"] == 77


def test_odds():
    assert get_game("chicago").odds({"round": "6"}) == {"hit": Fraction(1, 6), "expected_throws": 6}


@pytest.mark.parametrize("options", [{}, {"mode": "each_player_one_throw"}])
def test_properties(options):
    check_properties({"game": "chicago", "players": ["A", "B", "C"], "options": options}, seeds=range(3))


def test_fixed_starting_player():
    s = Session.start({"game": "chicago", "players": ["A", "B"], "options": {"rotate_start": False}})
    v = s.submit({"type": "roll", "dice": [1, 1]}).view()
    assert v["round"] == 2 and v["turn"] == "A"
