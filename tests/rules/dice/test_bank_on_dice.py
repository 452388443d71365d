from fractions import Fraction

import pytest
from tests.rules.dice.dice_props import check_properties

from rules import IllegalEvent, Session, get_game


def bet_and_roll(dice, number=4, amount=10):
    s = Session.start({"game": "bank-on-dice", "players": ["Bank", "Pat"]})
    s.submit({"type": "bet", "player": "Pat", "number": number, "amount": amount})
    return s.submit({"type": "roll", "dice": dice}).view()


def test_worked_example_bank_1():
    # 10 on "4": (4,4,2) -> +20, (4,4,4) -> +30, (1,2,3) -> -10
    assert bet_and_roll([4, 4, 2])["players"][1]["balance"] == 20
    v = bet_and_roll([4, 4, 4])
    assert v["players"][1]["balance"] == 30 and v["players"][0]["balance"] == -30
    assert bet_and_roll([1, 2, 3])["players"][1]["balance"] == -10


def test_several_punters_settled_separately():
    s = Session.start({"game": "bank-on-dice", "players": ["Bank", "Pat", "Kim"], "options": {"rounds": 2, "stake": 5}})
    s.submit({"type": "bet", "player": "Pat", "number": 6})
    s.submit({"type": "bet", "player": "Kim", "number": 1, "amount": 2})
    v = s.submit({"type": "roll", "dice": [6, 3, 3]}).view()
    assert [p["balance"] for p in v["players"]] == [-3, 5, -2] and v["round"] == 2 and v["bets"] == []
    with pytest.raises(IllegalEvent, match="only punters bet"):
        s.submit({"type": "bet", "player": "Bank", "number": 1})
    with pytest.raises(IllegalEvent, match=r"\(bank-on-dice, round 2, 0 bet\(s\)\): no bets yet"):
        s.submit({"type": "roll", "dice": [1, 2, 3]})


def test_expectation():
    odds = get_game("bank-on-dice").odds({})
    assert odds["expectation"] == Fraction(-17, 216)
    assert sum(odds[f"matches_{k}"] for k in range(4)) == 1


@pytest.mark.parametrize("options", [{}, {"rounds": 4}])
def test_properties(options):
    check_properties({"game": "bank-on-dice", "players": ["B", "P", "Q"], "options": options})
