from fractions import Fraction

import pytest
from tests.rules.dice.dice_props import check_properties

from rules import IllegalEvent, Session, get_game


def roll(s, *pairs):
    for a, b in pairs:
        s.submit({"type": "roll", "dice": [a, b]})
    return s.view()


def new(**options):
    return Session.start({"game": "craps", "players": ["Ann", "Bob"], "options": options})


def test_worked_examples_craps_1():
    # TV craps-1: (3,4) wins, (1,1) loses
    v = roll(new(), (3, 4))
    assert v["players"][0]["score"] == 1 and v["turn"] == "Bob"
    assert v["last_result"] == "Ann won with 7 on the come-out"
    v = roll(new(), (1, 1))
    assert v["players"][0]["score"] == 0 and "lost with 2" in v["last_result"]
    # (4,4): point 8 by default, a loss under the text's 2-8-12
    assert roll(new(), (4, 4))["point"] == 8
    v = roll(new(losing_sums="2-8-12"), (4, 4))
    assert v["point"] is None and "lost with 8" in v["last_result"]
    assert roll(new(losing_sums="2-8-12"), (1, 2))["point"] == 3
    # point 6, then 5, 9, 6 wins; point 6 then 7 loses
    v = roll(new(), (3, 3), (4, 1), (5, 4), (2, 4))
    assert v["players"][0]["score"] == 1 and v["last_result"] == "Ann won on the point 6"
    v = roll(new(), (3, 3), (3, 4))
    assert v["players"][0]["score"] == 0 and v["turn"] == "Bob"


def test_most_won_rounds_wins_and_a_tie_replays():
    s = new()
    v = roll(s, (3, 4), (5, 6))  # both win: tie, both shoot again
    assert v["winner"] is None and v["playoff"] and v["turn"] == "Ann"
    v = roll(s, (1, 1), (6, 5))
    assert v["winner"] == "Bob" and v["over"] and v["turn"] is None
    with pytest.raises(IllegalEvent, match=r"illegal roll \[3, 4\] \(craps, won by Bob\): the game is over"):
        s.submit({"type": "roll", "dice": [3, 4]})


def test_odds():
    game = get_game("craps")
    assert game.odds({})["pass_line_win"] == Fraction(244, 495)
    assert game.odds({"point": "4"})["make_point"] == Fraction(1, 3)
    text = game.odds({"losing_sums": "2-8-12"})["pass_line_win"]
    assert text == Fraction(8, 36) + sum(
        Fraction(w, 36) * Fraction(w, w + 6) for w in (2, 3, 4, 5, 4, 3)  # points 3,4,5,6,9,10
    ) - 0  # 8 loses at once; 2 and 12 lose
    with pytest.raises(ValueError, match="unknown odds parameter"):
        game.odds({"dice": "2"})


@pytest.mark.parametrize("options", [{}, {"losing_sums": "2-8-12", "rounds": 3}])
def test_properties(options):
    check_properties({"game": "craps", "players": ["A", "B", "C"], "options": options})
