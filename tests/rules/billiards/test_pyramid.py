import pytest
from helpers_billiards import play, scores, start

from rules import IllegalEvent

POT = {"type": "pot"}
MISS = {"type": "miss"}
FOUL = {"type": "foul"}


def test_free_pyramid_defaults():
    v = start("pyramid").view()
    assert v["variant"] == "free" and v["target"] == 8 and v["balls_on_table"] == 16 and v["ball_in_hand"] == "kitchen"


def test_foul_gives_opponent_a_ball_and_can_win():
    s = start("pyramid")
    v = play(s, MISS, {"type": "pot", "balls": 7}, MISS, FOUL)
    assert scores(v) == [0, 8] and v["winner"] == "Bob" and v["last"] == "Ann foul, Bob takes a ball +1"


def test_cue_ball_only_in_dynamic_and_combined():
    s = start("pyramid")
    with pytest.raises(IllegalEvent, match="in the free pyramid any ball may be struck"):
        s.submit({"type": "pot", "balls": 0, "cue": True})
    d = start("pyramid", variant="dynamic")
    v = play(d, {"type": "pot", "balls": 1, "cue": True})
    assert scores(v) == [2, 0] and v["ball_in_hand"] == "table" and v["balls_on_table"] == 13
    c = start("pyramid", variant="combined")
    assert play(c, {"type": "pot", "balls": 0, "cue": True})["ball_in_hand"] == "kitchen"


def test_empty_pot_and_too_many_refused():
    s = start("pyramid", variant="combined")
    with pytest.raises(IllegalEvent, match="at least one ball"):
        s.submit({"type": "pot", "balls": 0})
    play(s, {"type": "pot", "balls": 7}, MISS, {"type": "pot", "balls": 7})
    with pytest.raises(IllegalEvent, match="2 balls scored but only 1 left"):
        s.submit({"type": "pot", "balls": 1, "cue": True})


def test_return_penalty_and_debt():
    s = start("pyramid", foul_penalty="return")
    v = play(s, FOUL)
    assert v["players"][0]["owed"] == 1 and scores(v) == [0, 0] and v["balls_on_table"] == 16
    v = play(s, MISS, {"type": "pot", "balls": 2})
    assert scores(v) == [1, 0] and v["players"][0]["owed"] == 0 and v["balls_on_table"] == 15


def test_three_fouls_lose_house_rule():
    s = start("pyramid", three_fouls_lose=True)
    v = play(s, FOUL, MISS, FOUL, MISS)
    assert v["players"][0]["fouls"] == 2
    v = play(s, FOUL)
    assert v["winner"] == "Bob" and "three fouls in a row" in v["last"]
    t = start("pyramid")
    assert play(t, FOUL, MISS, FOUL, MISS, FOUL)["winner"] is None


def test_frames_alternate_break():
    s = start("pyramid", frames=3)
    v = play(s, {"type": "pot", "balls": 8})
    assert v["phase"] == "frame_over" and v["turn"] is None
    with pytest.raises(IllegalEvent, match="expected next_frame"):
        s.submit(POT)
    v = play(s, {"type": "next_frame"})
    assert v["turn"] == "Bob" and v["frame"] == 2 and v["balls_on_table"] == 16
    v = play(s, {"type": "concede", "player": "Bob"})
    assert v["winner"] == "Ann" and [p["frames"] for p in v["players"]] == [2, 0]
