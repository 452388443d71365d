from fractions import Fraction

import pytest
from tests.rules.dice.dice_props import check_properties

from rules import IllegalEvent, Session, get_game


def R(*d):
    return {"type": "roll", "dice": list(d)}


def test_worked_examples_mart_1_and_2():
    s = Session.start({"game": "martinetti", "players": ["Ann", "Bob"]})
    v = s.submit(R(1, 1, 1)).view()  # 1 + (1+1): field 2, Ann throws on
    assert v["players"][0]["field"] == 2 and v["turn"] == "Ann"
    s = Session.start({"game": "martinetti", "players": ["Ann", "Bob"]})
    assert s.submit(R(1, 2, 3)).view()["players"][0]["field"] == 3
    # mart-2: need 7, (3,4,6) -> 7; the 6 cannot make 8; the turn ends on 7
    s = Session.start({"game": "martinetti", "players": ["Ann", "Bob"]})
    for d in [(1, 2, 3), (4, 5, 6)]:  # 1-3, then 4-6
        s.submit(R(*d))
    v = s.submit(R(3, 4, 6)).view()
    assert v["players"][0]["field"] == 7 and v["turn"] == "Ann"
    v = s.submit(R(3, 4, 6)).view()  # needs 8: 4+4? no; 6+... no -> turn passes
    assert v["players"][0]["field"] == 7 and v["turn"] == "Bob"


def test_win_on_the_last_field():
    s = Session.start({"game": "martinetti", "players": ["Ann", "Bob"], "options": {"fields": 3}})
    assert s.submit(R(1, 2, 3)).view()["winner"] == "Ann"


def test_declared_reading_overlooked_number_claimed():
    s = Session.start({"game": "martinetti", "players": ["Ann", "Bob", "Cid"], "options": {"reading": "declared"}})
    s.submit(R(5, 6, 6))  # Ann misses, Bob throws
    v = s.submit(R(1, 2, 6)).view()
    assert v["reachable"] == 2 and v["turn"] == "Bob"
    with pytest.raises(IllegalEvent, match=r"\(martinetti, turn Bob, move to 1..2\): the dice allow fields 0..2, got 3"):
        s.submit({"type": "move", "to": 3})
    v = s.submit({"type": "move", "to": 1}).view()  # Bob overlooks the 2: the turn passes
    assert v["players"][1]["field"] == 1 and v["turn"] == "Cid" and v["missed"] == 2 and v["claimants"] == []
    s.submit({"type": "undo"})
    v = s.submit({"type": "move", "to": 0}).view()  # overlooks the 1: Ann and Cid need 1
    assert v["claimants"] == ["Ann", "Cid"]
    v = s.submit({"type": "claim", "player": "Cid"}).view()
    assert v["players"][2]["field"] == 1 and v["turn"] == "Cid" and v["missed"] is None
    with pytest.raises(IllegalEvent, match="Ann cannot claim: no overlooked number is open"):
        s.submit({"type": "claim", "player": "Ann"})


def test_odds():
    odds = get_game("martinetti").odds({"need": "1"})
    assert sum(odds.values()) == 1
    assert odds["advance_0"] == Fraction(125, 216)  # no 1 among three dice


@pytest.mark.parametrize("options", [{}, {"reading": "declared", "fields": 6}])
def test_properties(options):
    check_properties({"game": "martinetti", "players": ["A", "B", "C"], "options": options}, seeds=range(3))
