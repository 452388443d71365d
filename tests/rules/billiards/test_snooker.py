import pytest
from helpers_billiards import play, scores, start

from rules import BadOptions, IllegalEvent


def pot(ball, **k):
    return {"type": "pot", "ball": ball, **k}


MISS = {"type": "miss"}
PLAY = {"type": "choice", "option": "play"}
PUT_BACK = {"type": "choice", "option": "put_back"}


def clear_reds(s, reds=15):
    """Ann pots every red with a black in one visit (no miss)."""
    for _ in range(reds):
        play(s, pot("red"), pot("black"))


def test_start_of_frame():
    v = start("snooker").view()
    assert v["ball_on"] == "red" and v["reds"] == 15 and v["points_remaining"] == 147
    assert v["colours"] == ["yellow", "green", "brown", "blue", "pink", "black"] and v["turn"] == "Ann"


def test_colour_out_of_order_refused_with_ball_on():
    s = start("snooker")
    with pytest.raises(IllegalEvent, match=r"illegal pot .*\(snooker, Ann on red, frame 1 0-0\): yellow is not on; the ball on is red"):
        s.submit(pot("yellow"))
    play(s, pot("red"))
    with pytest.raises(IllegalEvent, match="red is not on; the ball on is colour"):
        s.submit(pot("red"))


def test_colours_respotted_while_reds_remain():
    s = start("snooker")
    v = play(s, pot("red", count=2), pot("blue"))
    assert scores(v) == [7, 0] and v["break"] == 7 and v["reds"] == 13
    assert len(v["colours"]) == 6 and v["ball_on"] == "red" and v["points_remaining"] == 13 * 8 + 27


def test_clearance_in_ascending_order():
    s = start("snooker")
    clear_reds(s)
    v = s.view()
    assert v["ball_on"] == "yellow" and v["points_remaining"] == 27 and scores(v) == [120, 0]
    with pytest.raises(IllegalEvent, match="green is not on; the ball on is yellow"):
        s.submit(pot("green"))
    v = play(s, pot("yellow"), pot("green"))
    assert v["colours"] == ["brown", "blue", "pink", "black"] and v["points_remaining"] == 22


def test_last_red_then_colour_then_yellow():
    s = start("snooker")
    v = play(s, pot("red", count=15))
    assert v["ball_on"] == "colour" and v["points_remaining"] == 34
    v = play(s, MISS)  # the colour after the last red is missed: the next player is on yellow
    assert v["ball_on"] == "yellow" and v["turn"] == "Bob" and v["points_remaining"] == 27


@pytest.mark.parametrize(
    "setup, foul, expected",
    [
        ([], {}, 4),  # red on: at least 4
        ([], {"ball": "pink"}, 6),  # pink hit first with red on
        ([pot("red")], {}, 4),  # any colour on: by the ball involved, at least 4
        ([pot("red")], {"ball": "black"}, 7),
        ([], {"value": 5}, 5),  # the referee's value, above the least
    ],
)
def test_foul_values(setup, foul, expected):
    s = start("snooker")
    v = play(s, *setup, {"type": "foul", **foul})
    assert v["players"][1]["score"] == expected and v["choice"]["penalty"] == expected
    assert v["choice"]["by"] == "Bob" and v["turn"] == "Bob"


def test_foul_value_with_colour_on_in_clearance_and_limits():
    s = start("snooker")
    clear_reds(s)
    play(s, pot("yellow"), pot("green"), pot("brown"))
    with pytest.raises(IllegalEvent, match="a foul with blue on costs at least 5, not 4"):
        s.submit({"type": "foul", "value": 4})
    v = play(s, {"type": "foul"})
    assert v["players"][1]["score"] == 5


def test_text_bare_rule_option_gives_ball_on_value():
    # TV snk-1 with foul_min 1: a miss with a red on gives the opponent the red's 1
    s = start("snooker", foul_min=1)
    v = play(s, pot("red"), pot("black"), pot("red"), pot("pink"), {"type": "foul"})
    assert scores(v) == [15, 1]


def test_put_back_makes_the_offender_play_again():
    s = start("snooker")
    v = play(s, {"type": "foul"}, PUT_BACK)
    assert v["turn"] == "Ann" and v["ball_on"] == "red" and scores(v) == [0, 4]
    with pytest.raises(IllegalEvent, match=r"pot is not possible now; expected a choice"):
        play(s, {"type": "foul"}, pot("red"))


def test_free_ball_as_red_then_colour():
    s = start("snooker")
    v = play(s, {"type": "foul"}, {"type": "choice", "option": "play", "free_ball": True})
    assert v["free_ball"] and v["turn"] == "Bob"
    v = play(s, pot("green", free=True))
    assert scores(v) == [0, 5] and v["ball_on"] == "colour" and v["reds"] == 15 and not v["free_ball"]
    v = play(s, pot("pink"))
    assert scores(v) == [0, 11]


def test_free_ball_in_clearance_scores_the_ball_on():
    s = start("snooker")
    clear_reds(s)
    play(s, pot("yellow"), {"type": "foul"}, {"type": "choice", "option": "play", "free_ball": True})
    v = play(s, pot("pink", free=True))
    assert v["players"][1]["score"] == 4 + 3 and v["ball_on"] == "green" and v["points_remaining"] == 25


def test_free_ball_refusals():
    s = start("snooker")
    with pytest.raises(IllegalEvent, match="no free ball"):
        s.submit(pot("green", free=True))
    play(s, {"type": "foul"})
    with pytest.raises(IllegalEvent, match="void when the offender is put back"):
        s.submit({"type": "choice", "option": "put_back", "free_ball": True})
    off = start("snooker", free_ball=False)
    play(off, {"type": "foul"})
    with pytest.raises(IllegalEvent, match="free ball rule is off"):
        off.submit({"type": "choice", "option": "play", "free_ball": True})


def test_reds_down_on_a_foul_stay_down():
    s = start("snooker")
    v = play(s, {"type": "foul", "reds": 2})
    assert v["reds"] == 13 and v["points_remaining"] == 13 * 8 + 27


def test_claim_with_black_only_and_lead_over_seven():
    s = start("snooker")
    with pytest.raises(IllegalEvent, match="only when the black is the last ball"):
        s.submit({"type": "claim"})
    clear_reds(s)
    v = play(s, *(pot(c) for c in ("yellow", "green", "brown", "blue", "pink")))
    assert v["ball_on"] == "black" and v["behind"] == {"player": "Bob", "points": 140, "snookers_required": True}
    v = play(s, {"type": "claim"})
    assert v["winner"] == "Ann" and v["frames_played"][0]["scores"] == [140, 0]


def test_foul_on_last_black_ends_frame():
    s = start("snooker", frames=3)
    clear_reds(s)
    v = play(s, *(pot(c) for c in ("yellow", "green", "brown", "blue", "pink")), {"type": "foul"})
    assert v["phase"] == "frame_over" and scores(v) == [140, 7] and v["players"][0]["frames"] == 1


def test_concession_only_in_own_turn_and_match_of_frames():
    s = start("snooker", frames=3)
    with pytest.raises(IllegalEvent, match="during one's own turn; it is Ann's"):
        s.submit({"type": "concede", "player": "Bob"})
    v = play(s, pot("red"), {"type": "concede", "player": "Ann"})
    assert v["phase"] == "frame_over" and v["frames_played"] == [{"frame": 1, "winner": "Bob", "scores": [1, 0]}]
    with pytest.raises(IllegalEvent, match="expected next_frame"):
        s.submit(pot("red"))
    v = play(s, {"type": "next_frame"})
    assert v["frame"] == 2 and v["turn"] == "Bob" and scores(v) == [0, 0] and v["reds"] == 15
    v = play(s, {"type": "concede", "player": "Bob"}, {"type": "next_frame"})
    assert v["turn"] == "Ann" and [p["frames"] for p in v["players"]] == [1, 1]
    v = play(s, {"type": "concede", "player": "Ann"})
    assert v["winner"] == "Bob" and v["phase"] == "over"


def test_concede_match():
    s = start("snooker", frames=5)
    assert play(s, {"type": "concede", "player": "Ann", "match": True})["winner"] == "Bob"


def test_aggregate_frames_are_all_played():
    s = start("snooker", frames=2, aggregate=True)
    v = play(s, pot("red"), {"type": "concede", "player": "Ann"})
    assert v["phase"] == "frame_over" and v["aggregate"] == [1, 0]
    v = play(s, {"type": "next_frame"}, pot("red"), pot("black"), {"type": "concede", "player": "Bob"})
    # Bob conceded the last frame but has the higher aggregate: he wins the match
    assert v["winner"] == "Bob" and v["aggregate"] == [1, 8] and v["phase"] == "over"
    assert [p["frames"] for p in v["players"]] == [1, 1]


def test_bad_option_pair_refused():
    with pytest.raises(BadOptions, match="foul_max"):
        start("snooker", foul_min=7, foul_max=5)
