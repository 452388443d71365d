import pytest
from tests.rules.dice.dice_props import check_properties

from rules import IllegalEvent, Session


def test_worked_example_aces_1():
    s = Session.start({"game": "aces", "players": ["Ann", "Bob", "Cid"]})
    v = s.submit({"type": "roll", "dice": [1, 2, 5, 3, 6]}).view()
    assert v["last_move"] == {"centre": 1, "left": 1, "right": 1, "kept": 2}
    assert [p["dice"] for p in v["players"]] == [2, 6, 6] and v["centre"] == 1 and v["turn"] == "Bob"


def test_empty_hands_are_skipped_and_the_last_ace_loses():
    s = Session.start({"game": "aces", "players": ["Ann", "Bob"], "options": {"dice_each": 1}})
    v = s.submit({"type": "roll", "dice": [1]}).view()  # Ann is empty: Bob throws again and again
    assert v["turn"] == "Bob" and v["players"][0]["dice"] == 0
    v = s.submit({"type": "roll", "dice": [2]}).view()  # Bob passes his die to Ann
    assert v["turn"] == "Ann"
    with pytest.raises(IllegalEvent, match=r"\(aces, turn Ann with 1 dice, 1 in the centre\): throw all 1 dice"):
        s.submit({"type": "roll", "dice": [3, 3]})
    v = s.submit({"type": "roll", "dice": [1]}).view()
    assert v["over"] and v["loser"] == "Ann" and v["winner"] == "Bob" and v["turn"] is None


@pytest.mark.parametrize("players", [["A", "B"], ["A", "B", "C", "D"]])
def test_properties(players):
    check_properties({"game": "aces", "players": players}, seeds=range(4))


def test_starting_draw_first_of_the_lowest_starts():
    s = Session.start({"game": "aces", "players": ["Ann", "Bob", "Cid"], "options": {"draw_order": True}})
    for d in (5, 2, 2):
        s.submit({"type": "roll", "dice": [d]})
    v = s.view()
    assert v["phase"] == "play" and v["turn"] == "Bob" and v["draw"] == [5, 2, 2]
    v = s.submit({"type": "roll", "dice": [2, 2, 3, 3, 3]}).view()  # Bob's 2s go left, to Cid
    assert [p["dice"] for p in v["players"]] == [5, 3, 7] and v["turn"] == "Cid"


def test_properties_with_draw():
    check_properties({"game": "aces", "players": ["A", "B", "C"], "options": {"draw_order": True}}, seeds=range(2))
