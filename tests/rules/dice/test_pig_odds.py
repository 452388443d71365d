"""Pig (the engine's own tests are tests/rules/test_pig.py): exact chances and properties."""

import random
from fractions import Fraction

import pytest
from tests.rules.dice.dice_props import check_properties

from rules import get_game
from rules.dice.pig import first_player_wins


def brute_force(target, hold=None, sweeps=2000):
    """Plain value iteration over every (i, j, k) until nothing moves."""
    P = {(i, j, k): 0.0 for i in range(target) for j in range(target) for k in range(target - i)}

    def value(i, j, k):
        return 1.0 if i + k >= target else P[(i, j, k)]

    for _ in range(sweeps):
        delta = 0.0
        for (i, j, k), old in P.items():
            roll = (1 - P[(j, i, 0)] + sum(value(i, j, k + r) for r in range(2, 7))) / 6
            new = roll
            if k:
                bank = 1 - P[(j, i + k, 0)] if i + k < target else 1.0
                new = (max(roll, bank) if hold is None else (bank if k >= hold else roll))
            P[(i, j, k)] = new
            delta = max(delta, abs(new - old))
        if delta < 1e-13:
            break
    return P[(0, 0, 0)]


@pytest.mark.parametrize("target, hold", [(12, None), (15, None), (15, 4), (10, 20)])
def test_dp_matches_value_iteration_on_small_targets(target, hold):
    assert first_player_wins(target, hold) == pytest.approx(brute_force(target, hold), abs=1e-10)


@pytest.mark.slow
def test_published_figures_to_100():
    # Neller & Presser: optimal play 0.5306; both holding at 20: 0.5347
    assert round(first_player_wins(100), 4) == 0.5306
    assert round(first_player_wins(100, 20), 4) == 0.5347
    odds = get_game("pig").odds({"strategy": "optimal"})
    assert odds["first_player_wins"] == Fraction("0.5305927253")


def test_hold_strategy_odds_params():
    pig = get_game("pig")
    assert float(pig.odds({"strategy": "hold", "hold": "5", "target": "20"})["first_player_wins"]) == pytest.approx(
        first_player_wins(20, 5), abs=1e-10
    )
    with pytest.raises(ValueError, match="--strategy must be optimal or hold"):
        pig.odds({"strategy": "greedy"})
    assert pig.odds({"hold": "2"})["series_reaches_2"] == Fraction(5, 6)


def test_hold_at_20_self_play_agrees_with_simulation():
    rng = random.Random(3)
    target, hold, games, first = 30, 10, 3000, 0
    for _ in range(games):
        scores, me = [0, 0], 0
        while True:
            k = 0
            while k < hold and scores[me] + k < target:
                r = rng.randint(1, 6)
                if r == 1:
                    k = 0
                    break
                k += r
            scores[me] += k
            if scores[me] >= target:
                first += me == 0
                break
            me = 1 - me
    assert first / games == pytest.approx(first_player_wins(target, hold), abs=0.03)


@pytest.mark.parametrize("options", [{"target": 30}, {"target": 20, "finish_round": False}])
def test_properties(options):
    check_properties({"game": "pig", "players": ["A", "B", "C"], "options": options})


def test_starting_draw_lowest_starts_ties_throw_again():
    from rules import IllegalEvent, Session

    s = Session.start({"game": "pig", "players": ["Ann", "Bob", "Cid"], "options": {"draw_order": True}})
    for v in (4, 2, 2):
        s.submit({"type": "roll", "dice": [v]})
    v = s.view()
    assert v["phase"] == "draw" and v["turn"] == "Bob"  # Bob and Cid tied lowest
    with pytest.raises(IllegalEvent, match=r"\(pig, starting draw, Bob to throw\): the starting draw"):
        s.submit({"type": "stop"})
    s.submit({"type": "roll", "dice": [5]}).submit({"type": "roll", "dice": [3]})
    v = s.view()
    assert v["phase"] == "play" and v["starter"] == "Cid"
    assert v["turn"] == "Cid" and v["turn_total"] == 0 and v["dice"] == []
    s.submit({"type": "roll", "dice": [6]}).submit({"type": "stop"})  # Cid, then Ann, Bob; round 2 opens with Cid
    s.submit({"type": "roll", "dice": [1]}).submit({"type": "roll", "dice": [1]})
    v = s.view()
    assert v["turn"] == "Cid" and v["round"] == 2


@pytest.mark.parametrize("players", [["A", "B"], ["A", "B", "C"]])
def test_properties_with_draw(players):
    check_properties({"game": "pig", "players": players, "options": {"target": 20, "draw_order": True}}, seeds=range(3))
