from fractions import Fraction

import pytest
from tests.rules.dice.dice_props import check_properties

from rules import IllegalEvent, Session, get_game


def R(*d):
    return {"type": "roll", "dice": list(d)}


STOP = {"type": "stop"}


def K(*d):
    return {"type": "keep", "dice": list(d)}


def play(s, *events):
    for e in events:
        s.submit(e)
    return s.view()


def test_others_throw_as_often_as_the_first_and_keep_dice():
    s = Session.start({"game": "indian-dice", "players": ["Ann", "Bob", "Cid"]})
    v = play(s, R(1, 2, 3, 4, 6), K(6), R(6, 6, 2, 3))
    assert v["held"] == [6] and v["dice"] == [6, 6, 6, 2, 3] and v["combination"] == "three of a kind"
    v = play(s, STOP)
    assert v["turn"] == "Bob" and v["throws_allowed"] == 2
    with pytest.raises(IllegalEvent, match=r"\(indian-dice, round 1, turn Bob, throw 0/2\): throw first"):
        s.submit(STOP)
    v = play(s, R(1, 1, 2, 2, 5), R(1, 1, 2, 2, 6))  # second throw ends the turn (the limit)
    assert v["turn"] == "Cid" and v["players"][1]["hand"] == "two pairs"
    # a straight is nothing in Indian dice
    v = play(s, R(1, 2, 3, 4, 5), STOP)
    assert v["round_winners"] == ["Ann"] and v["round"] == 2 and v["turn"] == "Bob"  # the first player rotates


def test_exact_tie_plays_off_and_the_last_round_is_for_the_two_strongest():
    s = Session.start({"game": "indian-dice", "players": ["Ann", "Bob", "Cid"], "options": {"max_throws": 1}})
    v = play(s, R(5, 5, 1, 2, 3), R(5, 5, 3, 2, 1), R(4, 4, 6, 1, 2))
    assert v["playoff"] and v["turn"] == "Ann" and v["players"][2]["playing"] is False
    v = play(s, R(6, 6, 1, 2, 3), R(1, 2, 3, 4, 6))
    assert v["round_winners"] == ["Ann"] and v["round"] == 2
    v = play(s, R(1, 1, 1, 2, 3), R(2, 2, 2, 3, 4), R(1, 2, 3, 4, 6))  # Bob, Cid, Ann
    assert v["round_winners"] == ["Ann", "Cid"] and v["round"] == 3
    assert [p["playing"] for p in v["players"]] == [True, False, True]  # Ann 1 win; Cid 1 win, Bob 0
    v = play(s, R(6, 6, 6, 6, 1), R(2, 2, 2, 2, 2))
    assert v["over"] and v["winner"] == "Cid" and v["turn"] is None


def test_weakest_variant_names_the_loser():
    s = Session.start(
        {"game": "indian-dice", "players": ["Ann", "Bob", "Cid"], "options": {"max_throws": 1, "third_round": "weakest"}}
    )
    play(s, R(6, 6, 1, 2, 3), R(5, 5, 1, 2, 3), R(4, 4, 1, 2, 3))  # Ann
    v = play(s, R(6, 6, 6, 2, 3), R(5, 5, 1, 2, 3), R(1, 1, 4, 2, 3))  # Bob, Cid, Ann: Bob wins
    # the two weakest: Cid (no round) and Ann (one round, best a pair) rather than Bob (three of a kind)
    assert [p["playing"] for p in v["players"]] == [True, False, True] and v["round_winners"] == ["Ann", "Bob"]
    v = play(s, R(3, 3, 1, 2, 4), R(2, 2, 1, 3, 4))  # Ann vs Cid in seat order
    assert v["over"] and v["loser"] == "Cid" and v["winner"] == "Ann"  # two rounds won


def test_odds_sum_to_one():
    odds = get_game("indian-dice").odds({})
    assert sum(odds.values()) == 1 and odds["five_of_a_kind"] == Fraction(6, 7776)


@pytest.mark.parametrize(
    "options", [{}, {"third_round": "weakest", "max_throws": 2}, {"third_round": "all", "rounds": 2}]
)
def test_properties(options):
    check_properties({"game": "indian-dice", "players": ["A", "B", "C", "D"], "options": options}, seeds=range(3))
