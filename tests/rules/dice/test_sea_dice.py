from fractions import Fraction

import pytest
from tests.rules.dice.dice_props import check_properties

from rules import BadHeader, IllegalEvent, Session, get_game


def start(players=("Ann", "Bob"), **options):
    return Session.start({"game": "sea-dice", "players": list(players), "options": options})


def test_keep_and_rethrow_then_score():
    s = start()
    s.submit({"type": "roll", "dice": [6, 6, 2, 3, 6]})
    s.submit({"type": "keep", "dice": [6, 6, 6]})
    v = s.submit({"type": "roll", "dice": [6, 1]}).view()
    assert v["dice"] == [6, 6, 6, 6, 1] and v["held"] == [6, 6, 6] and v["throws"] == 2
    assert v["can_score"] == {"pair": 12, "three": 18, "four": 24, "none": 0}
    s.submit({"type": "keep", "dice": [6, 6, 6, 6]})
    v = s.submit({"type": "roll", "dice": [6]}).view()
    assert v["can_score"]["yacht"] == 50 and "four" not in v["can_score"]  # four = four and one other
    with pytest.raises(IllegalEvent, match=r"\(sea-dice, round 1, turn Ann, throw 3/3\): no throws left"):
        s.submit({"type": "roll", "dice": [6]})
    v = s.submit({"type": "score", "category": "yacht"}).view()
    assert v["players"][0]["score"] == 50 and v["turn"] == "Bob" and v["held"] == []


def test_refusals():
    s = start()
    with pytest.raises(IllegalEvent, match="throw first"):
        s.submit({"type": "score", "category": "none"})
    s.submit({"type": "roll", "dice": [1, 2, 3, 4, 6]})
    with pytest.raises(IllegalEvent, match=r"cannot score full: the dice \[1, 2, 3, 4, 6\] do not make it"):
        s.submit({"type": "score", "category": "full"})
    with pytest.raises(IllegalEvent, match="keep only dice on the table"):
        s.submit({"type": "keep", "dice": [5]})
    with pytest.raises(IllegalEvent, match="throw the 5 dice not kept, got 2"):
        s.submit({"type": "roll", "dice": [5, 5]})
    with pytest.raises(BadHeader, match="option 'values': unknown combination 'yacht'"):
        start(values="yacht=10")


def test_house_values_and_twelve_rounds():
    s = start(("Ann",), values="pair=5,three=sum,four=sum,full=25,small_straight=20,large_straight=40")
    for _ in range(12):
        s.submit({"type": "roll", "dice": [1, 1, 2, 3, 4]}).submit({"type": "score", "category": "pair"})
    v = s.view()
    assert v["over"] and v["winner"] == "Ann" and v["players"][0]["score"] == 60


def test_yacht_card_each_box_once():
    s = start(("Ann",), scoring_mode="yacht_card")
    s.submit({"type": "roll", "dice": [3, 3, 3, 5, 5]})
    assert s.view()["can_score"]["full_house"] == 19
    s.submit({"type": "score", "category": "threes"})
    s.submit({"type": "roll", "dice": [3, 3, 3, 5, 5]})
    with pytest.raises(IllegalEvent, match="cannot score threes: already filled"):
        s.submit({"type": "score", "category": "threes"})
    v = s.submit({"type": "score", "category": "yacht"}).view()  # a scratch: 0
    assert v["players"][0]["card"] == {"threes": 9, "yacht": 0}


def test_bank_unused_throws():
    s = start(("Ann", "Bob"), bank_unused_throws=True)
    s.submit({"type": "roll", "dice": [2, 3, 4, 5, 6]}).submit({"type": "score", "category": "large_straight"})
    v = s.view()
    assert v["players"][0]["banked_throws"] == 2 and v["throws_allowed"] == 3  # Bob's turn
    s.submit({"type": "roll", "dice": [1, 1, 2, 3, 4]}).submit({"type": "score", "category": "pair"})
    assert s.view()["throws_allowed"] == 5


def test_odds():
    odds = get_game("sea-dice").odds({})
    assert odds["yacht"] == Fraction(6, 7776) and odds["small_straight"] == Fraction(120, 7776)
    assert odds["full"] == Fraction(300, 7776)


@pytest.mark.parametrize(
    "options", [{}, {"scoring_mode": "yacht_card", "max_throws": 2}, {"bank_unused_throws": True}]
)
def test_properties(options):
    check_properties({"game": "sea-dice", "players": ["A", "B"], "options": options}, seeds=range(2))


def test_camera_reading_of_all_five_dice_takes_out_the_kept_ones():
    s = start()
    s.submit({"type": "roll", "dice": [6, 6, 2, 3, 6]}).submit({"type": "keep", "dice": [6, 6, 6]})
    proposed = s.game.from_reading(s.state, [6, 1, 6, 4, 6])
    assert proposed.to_dict() == {"type": "roll", "dice": [1, 4], "source": "camera"}
    assert s.game.from_reading(s.state, [1, 4]).to_dict()["dice"] == [1, 4]
