import pytest
from helpers_billiards import play, scores, start

from rules import IllegalEvent

POT = {"type": "pot"}
MISS = {"type": "miss"}
FOUL = {"type": "foul"}


def foul(kind):
    return {"type": "foul", "kind": kind}


def test_opening_state():
    v = start("straight-pool").view()
    assert v["phase"] == "break" and v["turn"] == "Ann" and v["balls_on_table"] == 15
    assert scores(v) == [0, 0] and v["target"] == 150 and v["winner"] is None


def test_third_foul_literal_fifteen_option():
    # TV 141-3 with the text read literally: -1, -1, -15 = -17
    s = start("straight-pool", third_foul_total=15)
    v = play(s, FOUL, MISS, FOUL, MISS, FOUL)
    assert scores(v) == [-17, 0] and v["phase"] == "break" and v["turn"] == "Ann"
    assert v["players"][0]["fouls"] == 0 and v["rack"] == 2


def test_two_fouls_warning_then_legal_shot_clears():
    s = start("straight-pool")
    v = play(s, FOUL, MISS, FOUL, MISS)
    assert v["warning"] == "Ann is on two fouls" and v["players"][0]["fouls"] == 2
    v = play(s, {"type": "safety"}, MISS)
    assert v["players"][0]["fouls"] == 0 and v["warning"] is None
    v = play(s, FOUL)
    assert scores(v) == [-3, 0]  # no fifteen-point penalty: the count was cleared


def test_intentional_foul_accept_gives_ball_in_hand():
    s = start("straight-pool")
    v = play(s, MISS, foul("intentional"))
    assert scores(v) == [0, -16] and v["choice"] == {"by": "Ann", "after": "intentional", "options": ["accept", "rerack"]}
    assert v["turn"] == "Bob" and v["phase"] == "choice"
    v = play(s, {"type": "choice", "option": "accept"})
    assert v["turn"] == "Ann" and v["ball_in_hand"] and v["phase"] == "play"


def test_intentional_foul_rerack_makes_offender_break():
    s = start("straight-pool")
    play(s, MISS, {"type": "pot", "balls": 4})
    v = play(s, foul("intentional"), {"type": "choice", "option": "rerack"})
    assert v["turn"] == "Bob" and v["phase"] == "break" and v["balls_on_table"] == 15 and v["rack"] == 2


def test_intentional_third_foul_costs_both_penalties():
    s = start("straight-pool")
    v = play(s, FOUL, MISS, FOUL, MISS, foul("intentional"))
    assert scores(v) == [-1 - 1 - 16 - 15, 0] and v["phase"] == "break" and v["choice"] is None


def test_rail_foul_is_a_third_foul():
    s = start("straight-pool")
    v = play(s, MISS, foul("rail"))
    assert scores(v) == [0, -16] and v["turn"] == "Bob" and v["phase"] == "break"


def test_events_during_choice_are_refused_naming_the_chooser():
    s = start("straight-pool")
    play(s, foul("illegal_break"))
    with pytest.raises(IllegalEvent, match=r"illegal pot .*Bob to choose after the illegal break.*waiting for Bob's choice"):
        s.submit(POT)


def test_illegal_break_only_on_a_break():
    s = start("straight-pool")
    play(s, MISS)
    with pytest.raises(IllegalEvent, match="only possible on an opening break"):
        s.submit(foul("illegal_break"))
    with pytest.raises(IllegalEvent, match="no choice to make"):
        s.submit({"type": "choice", "option": "accept"})


def test_scratch_on_break_counts_for_the_three_foul_rule():
    s = start("straight-pool")
    v = play(s, foul("scratch"))
    assert scores(v) == [-1, 0] and v["players"][0]["fouls"] == 1
    assert v["turn"] == "Bob" and v["ball_in_hand"] and v["phase"] == "play" and v["balls_on_table"] == 15


def test_rerack_of_fourteen_and_fifteenth_ball_together():
    s = start("straight-pool")
    v = play(s, {"type": "pot", "balls": 14})
    assert v["balls_on_table"] == 15 and v["rack"] == 2 and v["run"] == 14
    v = play(s, {"type": "pot", "balls": 13})
    assert v["balls_on_table"] == 2
    v = play(s, {"type": "pot", "balls": 2})  # the 14th and the 15th on one shot: both count
    assert v["balls_on_table"] == 15 and v["rack"] == 3 and scores(v) == [29, 0]
    assert v["players"][0]["high_run"] == 29


def test_more_balls_than_on_table_refused():
    s = start("straight-pool")
    play(s, {"type": "pot", "balls": 10})
    with pytest.raises(IllegalEvent, match="6 balls pocketed but only 5 on the table"):
        s.submit({"type": "pot", "balls": 6})


def test_call_is_shown_then_used():
    s = start("straight-pool")
    v = play(s, {"type": "call", "ball": 9, "pocket": "foot_left"})
    assert v["call"] == {"ball": 9, "pocket": "foot_left"}
    v = play(s, POT)
    assert v["call"] is None and "called 9 in foot_left" in v["last"]


def test_race_to_agreed_total_and_game_over():
    s = start("straight-pool", target=20)
    v = play(s, {"type": "pot", "balls": 14}, {"type": "pot", "balls": 6})
    assert v["winner"] == "Ann" and v["turn"] is None and v["phase"] == "over"
    with pytest.raises(IllegalEvent, match="the game is over"):
        s.submit(MISS)


def test_concession():
    s = start("straight-pool")
    with pytest.raises(IllegalEvent, match=r"no player 'Cy'; players: \['Ann', 'Bob'\]"):
        s.submit({"type": "concede", "player": "Cy"})
    assert play(s, {"type": "concede", "player": "Ann"})["winner"] == "Bob"


def test_legal_types_follow_the_phase():
    from rules import get_game

    g = get_game("straight-pool")
    s = start("straight-pool")
    assert "pot" in g.legal_types(s.state)
    play(s, foul("illegal_break"))
    assert g.legal_types(s.state) == ("choice", "concede")
