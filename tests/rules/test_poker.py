"""Five-dice poker (001:2-32, RULES.md §1.16)."""

import json
import random
from fractions import Fraction

import pytest

from rules import Event, IllegalEvent, Session, get_game
from rules.dice.poker import CATEGORIES, hand_odds, rank, throw_probabilities
from rules.replay import replay_lines


def R(*dice):
    return {"type": "roll", "dice": list(dice)}


def K(*dice):
    return {"type": "keep", "dice": list(dice)}


STOP = {"type": "stop"}


def session(players=("Ann", "Bob"), **options):
    return Session.start({"game": "poker", "players": list(players), "options": options})


def play(s, *events):
    for e in events:
        s.submit(e)
    return s.view()


def test_combinations_in_the_order_of_the_text():
    hands = [(2, 2, 2, 2, 2), (3, 3, 3, 3, 1), (4, 4, 4, 1, 1), (6, 6, 6, 2, 1), (5, 5, 2, 2, 1), (6, 6, 1, 2, 3),
             (6, 5, 4, 3, 1)]
    ranks = [rank(h) for h in hands]
    assert [CATEGORIES[r.category] for r in ranks] == [
        "poker", "four_of_a_kind", "full_house", "three_of_a_kind", "two_pairs", "pair", "nothing"]
    assert ranks == sorted(ranks, reverse=True)


def test_higher_faces_win_within_a_combination():
    # "four queens beat four tens" (001:30): in poker dice Q = 4, 10 = 2
    assert rank((4, 4, 4, 4, 1)) > rank((2, 2, 2, 2, 6))
    assert rank((4, 4, 4, 4, 1), faces="poker").name == "four queens"
    assert rank((2, 2, 2, 2, 6), faces="poker").name == "four tens"
    assert rank((5, 5, 3, 3, 1)) > rank((5, 5, 2, 2, 6))  # two pairs: the second pair
    assert rank((6, 6, 5, 4, 2)) > rank((6, 6, 5, 4, 1))  # [REC] then the other dice


def test_no_combination_highest_pip_sum():
    assert rank((6, 5, 4, 3, 1)) > rank((6, 5, 4, 2, 1))
    assert rank((1, 2, 3, 4, 6)).name == "nothing (16)"


def test_straights_option():
    assert rank((2, 3, 4, 5, 6)).category == 0
    big = rank((2, 3, 4, 5, 6), straights=True)
    assert rank((6, 6, 6, 1, 2), straights=True) < rank((1, 2, 3, 4, 5), straights=True) < big
    assert big < rank((2, 2, 3, 3, 3), straights=True)


def test_three_throws_with_holds():
    s = session()
    v = play(s, R(6, 6, 2, 3, 1))
    assert v["throws"] == 1 and v["throws_left"] == 2 and v["dice_name"] == "pair of sixes"
    v = play(s, K(6, 6), R(6, 2, 2))
    assert v["dice"] == [6, 6, 6, 2, 2] and v["dice_name"] == "full house, sixes over twos"
    assert v["must_keep"] == [6, 6]
    v = play(s, K(6, 6, 6), R(6, 6))  # the third throw ends the turn
    assert v["turn"] == "Bob" and v["players"][0]["hand_name"] == "poker of sixes"


def test_third_throw_only_dice_rethrown_on_the_second():
    s = session()
    play(s, R(6, 6, 2, 3, 1), K(6, 6), R(5, 4, 1))
    with pytest.raises(IllegalEvent, match=r"illegal keep \[5, 4\] \(poker, turn Ann, throw 2 of 3, dice .*\): "
                                           r"only dice thrown on the second throw may be thrown again: keep \[6, 6\]"):
        s.submit(K(5, 4))
    with pytest.raises(IllegalEvent, match="only dice thrown on the second throw"):
        s.submit(R(1, 2, 3, 4, 5))
    v = play(s, K(6, 6, 5), R(6, 6))
    assert v["players"][0]["hand"] == [6, 6, 5, 6, 6]


def test_third_throw_rule_off():
    s = session(third_throw_only_rethrown=False)
    v = play(s, R(6, 6, 2, 3, 1), K(6, 6), R(5, 4, 1), K(5), R(5, 5, 5, 5))
    assert v["players"][0]["category"] == "poker"


def test_bad_throws_refused():
    s = session()
    with pytest.raises(IllegalEvent, match="throw the five dice first"):
        s.submit(STOP)
    with pytest.raises(IllegalEvent, match="the first throw is of all five dice, got 3"):
        s.submit(R(1, 2, 3))
    play(s, R(1, 2, 3, 4, 6))
    with pytest.raises(IllegalEvent, match=r"\[5\] is not among the dice"):
        s.submit(K(5))
    with pytest.raises(IllegalEvent, match=r"say which dice are kept first"):
        s.submit(R(1, 2))
    play(s, K(6))
    with pytest.raises(IllegalEvent, match=r"\[6\] kept: throw 4 dice, got 5"):
        s.submit(R(1, 2, 3, 4, 5))


def test_winner_takes_the_bank():
    s = session(players=("Ann", "Bob", "Cid"), ante=2)
    v = play(s, R(6, 6, 2, 3, 1), STOP, R(5, 5, 5, 1, 2), STOP, R(1, 2, 3, 4, 6), STOP)
    assert v["winner"] == "Bob" and v["ranking"] == ["Bob", "Ann", "Cid"] and v["bank"] == 6
    assert [p["balance"] for p in v["players"]] == [-2, 4, -2]
    with pytest.raises(IllegalEvent, match="the game is over, Bob won"):
        s.submit(R(1, 2, 3, 4, 5))


def test_nobody_has_a_combination_highest_sum_wins():
    s = session()
    v = play(s, R(1, 2, 3, 4, 6), STOP, R(6, 5, 4, 3, 1), STOP)
    assert v["winner"] == "Bob"


def test_equal_hands_play_off_among_themselves():
    s = session(players=("Ann", "Bob", "Cid"))
    v = play(s, R(4, 4, 4, 4, 1), STOP, R(1, 4, 4, 4, 4), STOP, R(2, 2, 2, 2, 2), STOP)
    assert v["winner"] == "Cid"
    s = session(players=("Ann", "Bob", "Cid"))
    v = play(s, R(4, 4, 4, 4, 1), STOP, R(1, 4, 4, 4, 4), STOP, R(2, 2, 3, 3, 1), STOP)
    assert v["winner"] is None and v["playoff"] and v["round"] == 2 and v["turn"] == "Ann"
    assert [p["in_play"] for p in v["players"]] == [True, True, False]
    v = play(s, R(1, 2, 3, 4, 6), STOP, R(2, 2, 3, 4, 5), STOP)
    assert v["winner"] == "Bob"


def test_odds_one_throw():
    odds = get_game("poker").odds({})
    assert sum(odds.values()) == 1
    in_7776 = {k: v * 7776 for k, v in odds.items()}
    assert in_7776 == {"nothing": 720, "pair": 3600, "two_pairs": 1800, "three_of_a_kind": 1200,
                       "full_house": 300, "four_of_a_kind": 150, "poker": 6}
    with_straights = get_game("poker").odds({"straights": "true"})
    assert with_straights["small_straight"] == with_straights["large_straight"] == Fraction(120, 7776)
    assert with_straights["nothing"] == Fraction(480, 7776)
    no_trips = get_game("poker").odds({"three_of_a_kind": "false"})
    assert no_trips["pair"] == Fraction(4800, 7776) and "three_of_a_kind" not in no_trips


def test_odds_with_held_dice():
    odds = get_game("poker").odds({"held": "6,6,6"})
    assert odds["poker"] == Fraction(1, 36) and odds["full_house"] == Fraction(5, 36)
    assert odds["four_of_a_kind"] == Fraction(10, 36) and sum(odds.values()) == 1
    with pytest.raises(ValueError, match="--held takes 0..4 dice"):
        get_game("poker").odds({"held": "6,6,6,6,6"})
    with pytest.raises(ValueError, match="unknown odds parameter"):
        get_game("poker").odds({"dice": "5"})


def test_chance_probabilities_sum_to_one():
    for n in range(1, 6):
        assert sum(throw_probabilities(n).values()) == 1
    assert sum(hand_odds((1, 2)).values()) == 1


def random_event(game, state, rng):
    if state.throws and rng.random() < 0.3:
        return STOP
    if state.throws and state.held is None:
        hand = list(state.hand)
        must = list(state.kept_at_second or ()) if state.throws == 2 else []
        rest = list(hand)
        for d in must:
            rest.remove(d)
        extra = rng.sample(rest, rng.randint(0, max(0, 4 - len(must))))
        keep = must + extra
        if len(keep) <= 4:
            return K(*keep)
        return STOP
    probs = game.chance_outcomes(state)
    outcome = list(rng.choices(list(probs), weights=list(probs.values()))[0])
    rng.shuffle(outcome)
    return R(*outcome)


@pytest.mark.parametrize("options", [{}, {"straights": True, "three_of_a_kind": False, "faces": "poker"}])
def test_random_playthroughs_serialise_and_undo(options):
    rng = random.Random(11)
    game = get_game("poker")
    for _ in range(15):
        s = session(players=("A", "B", "C", "D"), **options)
        views = [s.view()]
        while s.view()["winner"] is None:
            s.submit(random_event(game, s.state, rng))
            views.append(s.view())
            assert len(s.events) < 2000
        lines = [json.dumps(s.header.to_dict())] + [json.dumps(e.to_dict()) for e in s.events]
        again = replay_lines(lines)
        assert again.state == s.state and again.view() == s.view()
        assert [Event.from_dict(json.loads(x)) for x in lines[1:]] == s.events
        for expected in reversed(views[:-1]):
            s.submit({"type": "undo"})
            assert s.view() == expected
