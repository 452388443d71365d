from fractions import Fraction

import pytest
from tests.rules.dice.dice_props import check_properties

from rules import IllegalEvent, Session, get_game


def R(a, b):
    return {"type": "roll", "dice": [a, b]}


def C(op):
    return {"type": "call", "op": op}


def example(**options):
    # TV g13-1: 9; 12 "take a third" -> 13; 3 "plus" -> 16; 5 "multiply by 2" -> 26
    s = Session.start({"game": "game-of-13", "players": ["Ann", "Bob"], "options": options})
    for e in (R(4, 5), R(6, 6), C("third"), R(1, 2), C("plus"), R(1, 4), C("double")):
        s.submit(e)
    return s


def test_worked_example_g13_1():
    s = example()
    v = s.view()
    assert v["running_total"] == 26 and v["players"][0]["score"] == 3 and v["turn_points"] == 3
    # only a sum of 13 can score on the fifth throw (26 + 13 = 39)
    v = s.submit(R(6, 7)).submit(C("plus")).view()
    assert v["players"][0]["score"] == 6 and v["turn"] == "Bob" and v["running_total"] == 0


def test_max_only_award():
    s = example(award="max_only")
    assert s.view()["players"][0]["score"] == 0 and s.view()["turn_points"] == 2
    v = s.submit(R(1, 2)).submit(C("minus")).view()
    assert v["players"][0]["score"] == 2 and v["turn"] == "Bob"


def test_fractions_and_order_of_events():
    s = Session.start({"game": "game-of-13", "players": ["Ann"]})
    s.submit(R(1, 2))
    with pytest.raises(IllegalEvent, match="throw first"):
        s.submit(C("plus"))
    s.submit(R(1, 2))
    with pytest.raises(IllegalEvent, match=r"\(game-of-13, turn Ann, throw 2/5, total 3, call for 3\): 3 does not divide by 2"):
        s.submit(C("half"))
    with pytest.raises(IllegalEvent, match="call how 3 is used"):
        s.submit(R(1, 2))
    with pytest.raises(IllegalEvent, match="second die shows 2..7, got 1"):
        Session.start({"game": "game-of-13", "players": ["Ann"]}).submit(R(1, 1))
    s = Session.start({"game": "game-of-13", "players": ["Ann"], "options": {"fractions": "floor", "second_die": "1-6"}})
    v = s.submit(R(1, 1)).submit(R(1, 2)).submit(C("half")).view()
    assert v["running_total"] == 3


def test_modulus_and_win():
    s = Session.start({"game": "game-of-13", "players": ["Ann", "Bob"], "options": {"modulus": 11, "target_points": 1}})
    assert s.submit(R(5, 6)).view()["winner"] == "Ann"


def test_odds():
    odds = get_game("game-of-13").odds({})
    assert odds["sum_13"] == Fraction(1, 36) and sum(odds.values()) == 1 and min(int(k[4:]) for k in odds) == 3
    assert "sum_13" not in get_game("game-of-13").odds({"second_die": "1-6"})


@pytest.mark.parametrize("options", [{"target_points": 3}, {"award": "max_only", "fractions": "floor", "target_points": 2}])
def test_properties(options):
    check_properties({"game": "game-of-13", "players": ["A", "B"], "options": options}, seeds=range(3), max_steps=20000)
