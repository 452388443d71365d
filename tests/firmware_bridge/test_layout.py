import pytest

from firmware_bridge.layout import DisplayFields, LayoutConfig, LayoutError
from rules import Session

from .conftest import futsal_view


def test_futsal_view_from_the_real_engine():
    s = Session.start({"game": "futsal", "players": ["Lviv", "Kyiv"]})
    for e in ({"type": "clock_start", "t": 0}, {"type": "goal", "team": "away", "t": 5},
              {"type": "foul", "team": "home", "t": 6}, {"type": "clock_stop", "t": 75.5}):
        s.submit(e)
    f = DisplayFields.from_view(s.view(80.0))
    assert (f.clock, f.home_score, f.away_score, f.home_fouls, f.period, f.period_number) == ("01:15", 0, 1, 1, "1", 1)
    assert f.home_name == "Lviv" and not f.clock_running and not f.horn


def test_futsal_last_minute_tenths_and_half_time():
    s = Session.start({"game": "futsal", "players": ["A", "B"], "options": {"half_minutes": 1}})
    s.submit({"type": "clock_start", "t": 0})
    assert DisplayFields.from_view(s.view(10.15)).clock == "49.9"
    s.submit({"type": "period_end", "t": 60})
    f = DisplayFields.from_view(s.view(60.5))
    assert f.period == "H" and f.horn


def test_pig_keeps_seats_and_shows_the_turn_total():
    s = Session.start({"game": "pig", "players": ["Ann", "Bob"]})
    s.submit({"type": "roll", "dice": [6]})
    f = DisplayFields.from_view(s.view())
    assert (f.home_score, f.away_score, f.shot_clock, f.turn, f.clock) == (0, 0, "6", "home", "")


def test_a_throw_the_camera_holds_is_a_status_word_until_it_is_taken(tmp_path):
    """A die in doubt holds the camera's throw (the table's view says ``camera_hold``): a scoreboard's message
    group says ``FIX DIE`` (in Ukrainian ПОПРАВ, drawn nOnPA8 on seven segments); a tile, ``FIX TILE``; a camera
    lost or paused, ``NO CAMERA`` (БЕЗ КАМЕРИ, bE3 HAnEPU); a won game says WINNER whatever the camera holds."""
    from firmware_bridge import glyphs
    from refbox import i18n
    from refbox.journal import Journal
    from refbox.table import Table

    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]})
    assert DisplayFields.from_view(table.view.data).message == ""
    table.handle_hold("die")
    f = DisplayFields.from_view(table.view.data)
    assert f.message == "FIX DIE" and glyphs.segment_text(i18n.display_text(f.message, "uk")) == "nOnPA8"
    table.handle_hold("tile")
    assert DisplayFields.from_view(table.view.data).message == "FIX TILE"
    table.handle_hold("lost")
    f = DisplayFields.from_view(table.view.data)
    assert f.message == "NO CAMERA" and glyphs.segment_text(i18n.display_text(f.message, "uk")) == "bE3 HAnEPU"
    table.handle_hold("paused")  # (paused by the operator: to the players, as good as none)
    assert DisplayFields.from_view(table.view.data).message == "NO CAMERA"
    assert DisplayFields.from_view({**table.view.data, "winner": "Ann"}).message == "WINNER"
    table.handle_hold(None)
    assert DisplayFields.from_view(table.view.data).message == ""


def test_three_players_show_the_two_leaders_in_seat_order():
    view = {"players": [{"name": "A", "score": 5}, {"name": "B", "score": 50}, {"name": "C", "score": 20}],
            "turn": "A", "turn_total": 12}
    f = DisplayFields.from_view(view)
    assert (f.home_name, f.home_score, f.away_name, f.away_score, f.turn) == ("B", 50, "C", 20, None)


def test_turn_total_placement_is_configurable():
    view = {"players": [{"name": "A", "score": 1}, {"name": "B", "score": 2}], "turn": "B", "turn_total": 17}
    assert DisplayFields.from_view(view, LayoutConfig(turn_total_on="clock")).clock == "17"
    assert DisplayFields.from_view(view, LayoutConfig(turn_total_on="off")).shot_clock == ""


def test_numeric_shot_clock_shows_tenths_at_the_end():
    assert DisplayFields.from_view(futsal_view(shot_clock=23.2)).shot_clock == "24"
    assert DisplayFields.from_view(futsal_view(shot_clock=4.56)).shot_clock == "4.5"
    assert DisplayFields.from_view(futsal_view(shot_clock="14")).shot_clock == "14"


def test_timeouts_when_the_view_has_them():
    v = futsal_view()
    v["home"]["timeouts_left"] = 1
    assert DisplayFields.from_view(v).home_timeouts == 1


@pytest.mark.parametrize(
    "view, key",
    [
        (futsal_view(clock="soon"), "clock"),
        (futsal_view(period="overtime"), "period"),
        (futsal_view(shot_clock=-1), "shot_clock"),
        ({"players": "Ann"}, "players"),
    ],
)
def test_bad_views_name_the_key(view, key):
    with pytest.raises(LayoutError, match=key):
        DisplayFields.from_view(view)


def test_config_is_validated_naming_key_and_allowed_values():
    with pytest.raises(LayoutError, match=r"turn_total_on.*'shot_clock', 'clock', 'off'"):
        LayoutConfig(turn_total_on="scoreboard")
    with pytest.raises(LayoutError, match=r"pairing"):
        LayoutConfig.from_mapping({"pairing": "random"})
    with pytest.raises(LayoutError, match=r"unknown key\(s\) \['colour'\]"):
        LayoutConfig.from_mapping({"colour": "red"})
    cfg = LayoutConfig.from_mapping({"period_labels": {"overtime": ["O", 3]}})
    assert DisplayFields.from_view(futsal_view(period="overtime"), cfg).period == "O"
