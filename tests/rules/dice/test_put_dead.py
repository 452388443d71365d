from fractions import Fraction

import pytest
from tests.rules.dice.dice_props import check_properties

from rules import IllegalEvent, Session, get_game


def test_worked_example_dead_1():
    s = Session.start({"game": "put-dead", "players": ["Ann", "Bob"]})
    v = s.submit({"type": "roll", "dice": [1, 3, 4, 6, 6]}).view()
    assert v["players"][0]["score"] == 20 and v["live"] == 5
    v = s.submit({"type": "roll", "dice": [2, 3, 3, 5, 6]}).view()
    assert v["players"][0]["score"] == 20 and v["live"] == 3
    v = s.submit({"type": "roll", "dice": [1, 4, 6]}).view()
    assert v["players"][0]["score"] == 31 and v["turn_total"] == 31
    v = s.submit({"type": "roll", "dice": [2, 2, 5]}).view()
    assert v["players"][0]["score"] == 31 and v["turn"] == "Bob" and v["live"] == 5
    with pytest.raises(IllegalEvent, match=r"\(put-dead, turn Bob, 5 live dice\): throw all 5 live dice, got 3"):
        s.submit({"type": "roll", "dice": [1, 4, 6]})
    v = s.submit({"type": "roll", "dice": [2, 2, 5, 5, 2]}).view()
    assert v["over"] and v["winner"] == "Ann"


def test_odds_exact_expectation():
    odds = get_game("put-dead").odds({"live": "1"})
    assert odds["throw_scores"] == Fraction(2, 3)
    # one live die: geometric number of clean throws (mean 2) of 3.5 each
    assert odds["expected_turn_points"] == 7


@pytest.mark.parametrize("options", [{}, {"turns_per_player": 3}])
def test_properties(options):
    check_properties({"game": "put-dead", "players": ["A", "B", "C"], "options": options})


def test_expected_turn_matches_brute_force_enumeration():
    from itertools import product

    from rules.dice.put_dead import expected_turn

    E = {0: Fraction(0)}
    for n in range(1, 4):
        a = b = Fraction(0)  # E(n) = a + b E(n)
        for throw in product(range(1, 7), repeat=n):
            p = Fraction(1, 6**n)
            dead = sum(d in (2, 5) for d in throw)
            if dead:
                a += p * E[n - dead]
            else:
                a += p * sum(throw)
                b += p
        E[n] = a / (1 - b)
        assert expected_turn(n) == E[n]
