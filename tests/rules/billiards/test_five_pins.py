import pytest
from helpers_billiards import play, scores, start

from rules import BadOptions, IllegalEvent, MalformedEvent
from rules.billiards.five_pins import stroke_points


@pytest.mark.parametrize(
    "side, centre, carom, points",
    [(0, False, "none", 0), (1, False, "none", 2), (0, True, "none", 8), (1, True, "none", 6),
     (4, True, "none", 12), (2, False, "carom", 8), (0, False, "ricochet", 3), (0, True, "carom", 12)],
)
def test_pin_and_carom_values(side, centre, carom, points):
    assert stroke_points(side, centre, carom) == points


def test_strokes_alternate_and_break_alternates_by_set():
    s = start("five-pins", set_points=10, sets=3)
    v = s.view()
    assert v["break_stroke"] and v["breaker"] == "Ann" and v["turn"] == "Ann"
    v = play(s, {"type": "stroke", "carom": "ricochet"})
    assert v["turn"] == "Bob" and not v["break_stroke"] and scores(v) == [3, 0]
    v = play(s, {"type": "stroke", "centre": True}, {"type": "stroke", "centre": True})
    assert scores(v) == [10, 8] and v["phase"] == "set_over" and v["pause"] is False
    v = play(s, {"type": "next_set"})
    assert v["turn"] == "Bob" and v["breaker"] == "Bob" and v["set"] == 2


def test_type_b_fouls_add_up_with_ball_in_hand():
    s = start("five-pins")
    v = play(s, {"type": "foul", "kind": ["red_first", "off_table"], "side_pins": 1})
    assert scores(v) == [0, 2 + 4 + 2] and v["ball_in_hand"] and v["turn"] == "Bob"
    assert v["stroke_points"] == {"to": "Bob", "points": 8}


def test_type_a_option():
    s = start("five-pins")
    v = play(s, {"type": "foul", "kind": "pins_by_cue", "side_pins": 1, "carom": "carom"})
    assert scores(v) == [0, 6] and not v["ball_in_hand"]
    t = start("five-pins", type_a_extra_2=True)
    assert scores(play(t, {"type": "foul", "kind": "pins_by_cue", "side_pins": 1})) == [0, 4]
    with pytest.raises(IllegalEvent, match="needs the pins the cue ball knocked"):
        t.submit({"type": "foul", "kind": "pins_by_cue"})


def test_literal_foul_reading_option():
    s = start("five-pins", foul_minus_striker=True)
    v = play(s, {"type": "stroke", "centre": True}, {"type": "stroke"}, {"type": "foul", "kind": "missed"})
    assert scores(v) == [6, 2]


def test_foul_points_win_set_capped():
    s = start("five-pins", set_points=10, sets=1)
    v = play(s, {"type": "foul", "kind": "red_first", "side_pins": 4, "centre": True})
    assert scores(v) == [0, 10] and v["winner"] == "Bob"


def test_bad_foul_codes_and_even_sets():
    s = start("five-pins")
    with pytest.raises(MalformedEvent, match="each foul counts once"):
        s.submit({"type": "foul", "kind": ["missed", "missed"]})
    with pytest.raises(MalformedEvent, match="expected foul codes"):
        s.submit({"type": "foul", "kind": "sneeze"})
    with pytest.raises(BadOptions, match="odd number of sets"):
        start("five-pins", sets=4)


def test_pause_after_set_two_and_before_fifth():
    s = start("five-pins", set_points=2, sets=5)
    pauses = []
    for _ in range(4):  # each set's breaker scores a side pin at once: 2:2 in sets
        pauses.append(play(s, {"type": "stroke", "side_pins": 1})["pause"])
        play(s, {"type": "next_set"})
    assert pauses == [False, True, False, True]
    assert [p["sets"] for p in s.view()["players"]] == [2, 2] and s.view()["set"] == 5


def test_concede_loses_the_set():
    s = start("five-pins", sets=1)
    assert play(s, {"type": "concede", "player": "Bob"})["winner"] == "Ann"
