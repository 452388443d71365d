import random
from fractions import Fraction

import pytest

from rules import IllegalEvent, Session


def play(session, *events):
    for e in events:
        session.submit(e)
    return session.view()


R = lambda v: {"type": "roll", "dice": [v]}  # noqa: E731
STOP = {"type": "stop"}


def test_worked_example_pig_1(pig):
    # RULES.md TV pig-1: 4, 6, 3, stop -> +13; then 5, 1 -> +0 and the turn ends
    v = play(pig, R(4), R(6), R(3), STOP)
    assert v["players"][0] == {"name": "Ann", "score": 13}
    assert v["turn"] == "Bob"
    v = play(pig, R(5), R(1))
    assert v["players"][1]["score"] == 0 and v["turn"] == "Ann" and v["turn_total"] == 0


def test_stop_without_throw_refused(pig):
    with pytest.raises(IllegalEvent, match=r"illegal stop \(pig, turn Ann, series 0\): throw at least once"):
        pig.submit(STOP)


def test_round_is_completed_and_highest_wins():
    s = Session.start({"game": "pig", "players": ["Ann", "Bob"], "options": {"target": 20}})
    v = play(s, R(6), R(6), R(6), R(2), STOP)  # Ann 20: Bob still gets his series
    assert v["winner"] is None and v["final_round"] and v["turn"] == "Bob"
    v = play(s, R(6), R(6), R(6), R(6), STOP)  # Bob 24 wins
    assert v["winner"] == "Bob" and v["turn"] is None
    with pytest.raises(IllegalEvent, match="game is over, Bob won"):
        s.submit(R(3))


def test_tie_plays_a_further_round():
    s = Session.start({"game": "pig", "players": ["Ann", "Bob"], "options": {"target": 20}})
    v = play(s, R(5), R(5), R(5), R(5), STOP, R(5), R(5), R(5), R(5), STOP)
    assert v["winner"] is None and v["round"] == 2
    v = play(s, R(2), STOP, R(1))
    assert v["winner"] == "Ann"


def test_first_to_target_option():
    s = Session.start({"game": "pig", "players": ["Ann", "Bob"], "options": {"target": 10, "finish_round": False}})
    assert play(s, R(6), R(4), STOP)["winner"] == "Ann"


def test_random_playthroughs_undo_to_every_prefix():
    rng = random.Random(7)
    for _ in range(20):
        s = Session.start({"game": "pig", "players": ["A", "B", "C"], "options": {"target": 30}})
        views = [s.view()]
        while s.view()["winner"] is None:
            e = STOP if s.state.rolls and rng.random() < 0.3 else R(rng.randint(1, 6))
            s.submit(e)
            views.append(s.view())
        for expected in reversed(views[:-1]):
            s.submit({"type": "undo"})
            assert s.view() == expected


def test_odds_series_reaches_hold():
    from rules import get_game

    odds = get_game("pig").odds({"hold": "2"})
    assert odds["series_reaches_2"] == Fraction(5, 6)
    assert odds["next_throw_is_1"] == Fraction(1, 6)
