from fractions import Fraction

import pytest
from tests.rules.dice.dice_props import check_properties

from rules import Session, get_game


def test_six_wins_for_the_first_and_roles_alternate():
    s = Session.start({"game": "four-dice", "players": ["Ann", "Bob"], "options": {"best_of": 3}})
    v = s.submit({"type": "roll", "dice": [1, 2, 3, 4]}).view()  # no six: the other (Bob) wins
    assert [p["score"] for p in v["players"]] == [0, 1] and v["first"] == "Bob"
    v = s.submit({"type": "roll", "dice": [6, 2, 3, 4]}).view()  # Bob is first now
    assert [p["score"] for p in v["players"]] == [0, 2] and v["winner"] == "Bob"


def test_odds_match_the_text():
    odds = get_game("four-dice").odds({})
    assert odds["first_player_wins"] == Fraction(671, 1296)  # the text's 51.8%
    assert round(float(odds["first_player_wins"]) * 100, 1) == 51.8
    assert odds["other_player_wins"] == Fraction(625, 1296)


@pytest.mark.parametrize("options", [{}, {"best_of": 5, "alternate_first": False}])
def test_properties(options):
    check_properties({"game": "four-dice", "players": ["A", "B"], "options": options})
