"""The other field sports on the same clock engine: football, mini-football, rugby-5/7;
and the match report."""

import json

import pytest

from rules import BadHeader, IllegalEvent, Session, get_game
from rules.sports.report import match_report, report_html


def start(game, **options):
    return Session.start({"game": game, "players": ["Home", "Away"], "options": options})


def run(s, *events):
    for e in events:
        while due := s.due_events(e["t"]):
            s.submit(due[0])
        s.submit(e)
    return s


def test_catalogue_lists_the_field_sports_with_sources():
    for name, source in (("futsal", "000:111"), ("mini-football", "003:"), ("football", "001:"),
                         ("rugby-5", "000:117"), ("rugby-7", "000:117")):
        game = get_game(name)
        assert game.family == "sports" and game.source.startswith(source)
        assert "clock_toggle" in game.events and "start_stop" in game.keypad


# --- football ----------------------------------------------------------------------------


def test_football_runs_past_45_minutes_with_added_time_until_the_referee_ends_the_half():
    s = run(start("football"), {"type": "clock_start", "t": 0})
    assert not s.due_events(5000)  # running time: no automatic end
    with pytest.raises(IllegalEvent, match="is 45:00 long; the clock shows 44:59"):
        s.submit({"type": "period_end", "t": 2699.5})
    run(s, {"type": "added_time", "minutes": 3, "t": 2700})
    v = s.view(2790.0)
    assert v["clock"] == "46:30" and v["added_time"] == "+3" and v["clock_running"]
    run(s, {"type": "period_end", "t": 2881})
    v = s.view(2881)
    assert v["period"] == "half-time" and v["clock"] == "15:00" and v["added_time"] is None
    run(s, {"type": "next_period", "t": 3700}, {"type": "clock_start", "t": 3710})
    assert s.view(3770)["clock"] == "01:00"


def test_football_substitutions_are_limited_and_final():
    s = run(start("football", max_substitutions=2), {"type": "clock_start", "t": 0},
            {"type": "substitution", "team": "home", "off": 7, "on": 14, "t": 100})
    with pytest.raises(IllegalEvent, match="player 7 was substituted and may not return"):
        s.submit({"type": "substitution", "team": "home", "off": 14, "on": 7, "t": 200})
    run(s, {"type": "substitution", "team": "home", "off": 9, "on": 15, "t": 200})
    with pytest.raises(IllegalEvent, match="Home has made all 2 substitutions"):
        s.submit({"type": "substitution", "team": "home", "off": 10, "on": 16, "t": 300})
    assert s.view(300)["home"]["substitutions"] == 2


def test_football_send_off_is_permanent_and_below_seven_players_the_match_is_abandoned():
    s = run(start("football"), {"type": "clock_start", "t": 0},
            {"type": "card", "team": "away", "color": "yellow", "player": 4, "t": 10},
            {"type": "card", "team": "away", "color": "yellow", "player": 4, "t": 20})
    v = s.view(3000)
    assert v["away"]["on_pitch"] == 10 and v["away"]["penalties"] == [] and v["away"]["red_cards"] == 1
    for i in range(3):
        run(s, {"type": "send_off", "team": "away", "player": 5 + i, "t": 30 + i})
    assert s.view(40)["away"]["on_pitch"] == 7 and not s.view(40)["abandoned"]
    run(s, {"type": "send_off", "team": "away", "player": 9, "t": 41})
    assert s.view(41)["result"] == "abandoned"


def test_football_extra_time_has_a_five_minute_break_before_it_and_none_between_its_halves():
    s = run(start("football", half_minutes=1, extra_time=True, et_half_minutes=1),
            {"type": "clock_start", "t": 0}, {"type": "period_end", "t": 60},
            {"type": "next_period", "t": 70}, {"type": "clock_start", "t": 70}, {"type": "period_end", "t": 130})
    v = s.view(130)
    assert v["period"] == "full time" and v["clock"] == "05:00" and v["result"] is None
    run(s, {"type": "next_period", "t": 430}, {"type": "clock_start", "t": 430}, {"type": "period_end", "t": 490})
    assert s.view(490)["period"] == "extra time interval" and s.view(490)["clock"] == "01:00"
    run(s, {"type": "next_period", "t": 491}, {"type": "clock_start", "t": 491}, {"type": "period_end", "t": 551})
    assert s.view(551)["result"] == "draw"


def test_football_has_no_fouls_board_or_time_outs():
    s = start("football")
    with pytest.raises(ValueError, match="unknown event type 'foul'"):
        s.submit({"type": "foul", "team": "home", "t": 0})
    with pytest.raises(ValueError, match="unknown event type 'timeout'"):
        s.submit({"type": "timeout", "team": "home", "t": 0})


# --- mini-football (003) ------------------------------------------------------------------


def test_mini_football_is_the_futsal_clock_without_ten_metre_kicks():
    s = run(start("mini-football"), {"type": "clock_start", "t": 0})
    for i in range(7):
        run(s, {"type": "foul", "team": "home", "t": 1 + i})
    v = s.view(10)
    assert v["home"]["fouls"] == 7 and not v["home"]["tenth_foul_kick"] and v["signal"] is None
    assert s.due_events(1200.0)[0].type == "period_end"
    assert start("mini-football", free_fouls=5).state.rules.free_fouls == 5


# --- rugby ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game, half, brk", [("rugby-5", 600.0, 300.0), ("rugby-7", 900.0, 600.0)])
def test_rugby_halves_and_breaks_as_given(game, half, brk):
    s = run(start(game), {"type": "clock_start", "t": 0}, {"type": "score", "team": "away", "points": 5, "t": 10})
    (end,) = s.due_events(10_000)
    assert end.type == "period_end" and end.t == half
    s.submit(end)
    (brk_end,) = s.due_events(10_000)
    assert brk_end.type == "break_end" and brk_end.t == half + brk
    run(s, {"type": "next_period", "t": half + brk}, {"type": "clock_start", "t": half + brk + 1})
    (end2,) = s.due_events(10_000)
    s.submit(end2)
    v = s.view(end2.t)
    assert v["period"] == "full time" and v["winner"] == "Away" and v["away"]["score"] == 5
    with pytest.raises(ValueError, match="unknown event type 'goal'"):
        s.submit({"type": "goal", "team": "home", "t": end2.t + 1})


def test_bad_options_are_refused_by_name():
    with pytest.raises(BadHeader, match="option 'count'"):
        start("futsal", count="sideways")
    with pytest.raises(BadHeader, match="unknown option"):
        start("rugby-5", extra_time=True)


# --- the match report -----------------------------------------------------------------------


def test_match_report_json_and_html():
    s = run(start("futsal"), {"type": "clock_start", "t": 0},
            {"type": "goal", "team": "home", "player": 10, "t": 65},
            {"type": "clock_stop", "reason": "goal", "t": 66},
            {"type": "clock_start", "t": 80},
            {"type": "foul", "team": "away", "player": 4, "t": 90},
            {"type": "card", "team": "away", "color": "yellow", "player": 4, "reason": "dissent", "t": 91},
            {"type": "send_off", "team": "away", "player": 5, "reason": "spitting", "t": 100},
            {"type": "timeout", "team": "away", "t": 110},
            {"type": "clock_set", "elapsed": 85, "reason": "late stop", "t": 115})
    r = match_report(s.game, s.state)
    json.dumps(r)
    assert r["score"] == "1-0" and r["home"] == "Home"
    assert [(g["clock"], g["team"], g["player"]) for g in r["goals"]] == [("01:05", "home", 10)]
    assert [c["kind"] for c in r["cards"]] == ["yellow", "red"] and r["cards"][1]["reason"] == "spitting"
    assert [x["reason"] for x in r["stoppages"]] == ["goal", "time-out"]
    assert r["fouls_by_half"] == {"1st half": {"home": 0, "away": 1}}
    assert r["send_offs"][0]["player"] == 5 and r["send_offs"][0]["from"] == "01:25"  # moved by the edit
    assert r["clock_edits"][0]["before"] == 96.0 and r["clock_edits"][0]["after"] == 85.0
    assert r["timeouts"][0]["team"] == "away"
    assert s.game.report(s.state) == r
    page = report_html(r)
    assert page.startswith("<!doctype html>") and "spitting" in page and "Home 1-0 Away" in page
    evil = run(Session.start({"game": "futsal", "players": ["<b>x</b>", "Away"]}),
               {"type": "horn", "t": 0})
    assert "<b>x</b>" not in report_html(match_report(evil.game, evil.state))
