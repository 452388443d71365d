from fractions import Fraction

import pytest
from tests.rules.dice.dice_props import check_properties

from rules import IllegalEvent, Session, get_game


def play(options, *sums):
    s = Session.start({"game": "high-dice", "players": ["Bank", "Pat"], "options": options})
    for t in sums:
        s.submit({"type": "roll", "dice": [t - t // 2, t // 2]})
    return s


def test_worked_example_high_1():
    v = play({}, 8, 8).view()  # equal totals: the punter pays 1
    assert [p["balance"] for p in v["players"]] == [1, -1] and v["winner"] == "Bank"
    v = play({"extra_throws": 2}, 8, 5, 7, 6).view()  # fails three times: pays 3
    assert [p["balance"] for p in v["players"]] == [3, -3]
    assert v["last_result"] == "Pat lost after 3 throw(s): -3"


def test_extra_throws_win_and_give_up():
    assert play({"extra_throws": 1}, 8, 5, 9).view()["players"][1]["balance"] == 1
    assert play({"extra_throws": 1, "win_pays": "throws"}, 8, 5, 9).view()["players"][1]["balance"] == 2
    s = play({"extra_throws": 2, "games": 2}, 8, 5)
    v = s.submit({"type": "stop"}).view()
    assert v["players"][1]["balance"] == -1 and v["game_no"] == 2 and v["turn"] == "Bank"
    s.submit({"type": "bet", "amount": 5})
    s.submit({"type": "roll", "dice": [1, 1]})
    with pytest.raises(IllegalEvent, match="agreed before the banker throws"):
        s.submit({"type": "bet", "amount": 2})
    v = s.submit({"type": "roll", "dice": [1, 2]}).view()
    assert [p["balance"] for p in v["players"]] == [-4, 4] and v["winner"] == "Pat"


def test_odds():
    assert get_game("high-dice").odds({})["punter_wins"] == Fraction(575, 1296)
    assert get_game("high-dice").odds({"throws": "3"})["punter_wins"] > Fraction(1, 2)


@pytest.mark.parametrize("options", [{"games": 3}, {"extra_throws": 2, "games": 4, "win_pays": "throws"}])
def test_properties(options):
    check_properties({"game": "high-dice", "players": ["B", "P"], "options": options})
