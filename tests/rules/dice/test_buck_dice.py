from fractions import Fraction

import pytest
from tests.rules.dice.dice_props import check_properties

from rules import IllegalEvent, Session, get_game


def start(players=("Ann", "Bob"), point=3, **options):
    s = Session.start({"game": "buck-dice", "players": list(players), "options": options})
    # draw: Ann 17 (first), Bob 5 (throws the point)
    s.submit({"type": "roll", "dice": [6, 6, 5]}).submit({"type": "roll", "dice": [1, 2, 2]})
    s.submit({"type": "roll", "dice": [point]})
    return s


def roll(s, *throws):
    for d in throws:
        s.submit({"type": "roll", "dice": list(d)})
    return s.view()


def test_worked_example_buck_1():
    s = start()
    v = roll(s, (3, 3, 5))
    assert v["players"][0]["score"] == 2 and v["turn"] == "Ann"
    v = roll(s, (3, 6, 1))
    assert v["players"][0]["score"] == 3
    v = roll(s, (4, 4, 4))  # little buck: +5 and the turn ends
    assert v["players"][0]["score"] == 8 and v["turn"] == "Bob"
    v = roll(s, (1, 2, 4), (3, 3, 3))  # Bob fails; Ann's triple point: 15 at once
    assert v["players"][0]["score"] == 15 and v["players"][0]["triple"] and v["over"]
    assert v["loser"] == "Bob" and v["winner"] == "Ann"
    assert [p["payout"] for p in v["players"]] == [2, -2]  # double for a triple-point buck


def test_draw_ties_throw_again():
    s = Session.start({"game": "buck-dice", "players": ["A", "B", "C"]})
    v = roll(s, (5, 5, 5), (5, 5, 5), (1, 1, 2))
    assert v["phase"] == "draw" and v["turn"] == "A"  # A and B tied at the top
    v = roll(s, (2, 2, 2), (6, 6, 6))
    assert v["phase"] == "point" and v["turn"] == "C"
    with pytest.raises(IllegalEvent, match=r"\(buck-dice, C throws the point number\): throw 1 dice, got 3"):
        s.submit({"type": "roll", "dice": [1, 2, 3]})
    assert roll(s, (4,))["turn"] == "B" and s.view()["point"] == 4


def test_cap_exact_and_little_buck_option():
    s = start(little_buck_continues=True)
    v = roll(s, (4, 4, 4))
    assert v["players"][0]["score"] == 5 and v["turn"] == "Ann"
    s = start(exact_15=True)
    v = roll(s, (4, 4, 4), (1, 1, 2), (5, 5, 5), (1, 1, 2), (2, 2, 2))  # Ann 5, 10, 15: out
    assert v["over"] and v["loser"] == "Bob"
    s = start(exact_15=True)
    v = roll(s, (4, 4, 4), (1, 1, 2), (5, 5, 5), (1, 1, 2), (3, 3, 1), (3, 3, 1))
    assert v["players"][0]["score"] == 14 and v["turn"] == "Ann"
    v = roll(s, (3, 3, 1))  # would be 16: nothing, and the turn passes
    assert v["players"][0]["score"] == 14 and v["turn"] == "Bob" and "would pass 15" in v["last_score"]
    s = start()
    v = roll(s, (4, 4, 4), (1, 1, 2), (5, 5, 5), (1, 1, 2), (3, 3, 1), (3, 3, 1), (3, 3, 1))
    assert v["players"][0]["score"] == 15 and v["over"]  # capped at 15 by default


def test_odds_sum_to_one():
    odds = get_game("buck-dice").odds({})
    assert sum(odds.values()) == 1 and odds["buck"] == Fraction(1, 216)


@pytest.mark.parametrize("options", [{}, {"exact_15": True, "little_buck_continues": True}])
def test_properties(options):
    check_properties({"game": "buck-dice", "players": ["A", "B", "C"], "options": options}, seeds=range(4))
