import json

import pytest

from rules import BadHeader, Event, IllegalEvent, MalformedEvent, Session, all_games, get_game


def test_every_game_has_catalogue_fields():
    for game in all_games():
        info = game.info()
        assert info["name"] and info["title"] and info["events"], info
        json.dumps(info)


def test_unknown_field_is_refused_with_its_name(pig):
    with pytest.raises(MalformedEvent, match="unknown field.*'colour'"):
        pig.submit({"type": "roll", "dice": [3], "colour": "red"})
    assert pig.view()["turn_total"] == 0


def test_unknown_type_names_known_types(pig):
    with pytest.raises(MalformedEvent, match="unknown event type 'jump'.*roll"):
        pig.submit({"type": "jump"})


def test_bad_value_names_field_and_reason(pig):
    with pytest.raises(MalformedEvent, match=r"field 'dice': item 0: expected a number in 1..6, got 7"):
        pig.submit({"type": "roll", "dice": [7]})


def test_event_round_trip():
    e = Event.from_dict({"type": "roll", "dice": [4, 5], "t": 3, "source": "camera"})
    assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e


@pytest.mark.parametrize(
    "bad, reason",
    [
        ([], "JSON object"),
        ({"dice": [1]}, "'type'"),
        ({"type": "Roll"}, "snake_case"),
        ({"type": "roll", "t": -1}, "'t'"),
        ({"type": "roll", "t": "soon"}, "'t'"),
        ({"type": "roll", "source": "telepathy"}, "'source'"),
        # a source that is no string (a list or an object cannot be looked up in a set) is refused the same way
        ({"type": "roll", "source": ["camera"]}, r"'source' must be one of .*, got \['camera'\]"),
        ({"type": "roll", "source": {"camera": 1}}, "'source' must be one of"),
    ],
)
def test_malformed_shapes(bad, reason):
    with pytest.raises(MalformedEvent, match=reason):
        Event.from_dict(bad)


def test_undo_restores_previous_state_and_is_counted(pig):
    pig.submit({"type": "roll", "dice": [5]})
    before = pig.view()
    pig.submit({"type": "roll", "dice": [6]})
    pig.submit({"type": "undo"})
    assert pig.view() == before
    assert pig.applied == 3


def test_nothing_to_undo(pig):
    with pytest.raises(IllegalEvent, match="nothing to undo"):
        pig.submit({"type": "undo"})


def test_time_cannot_go_backwards(pig):
    pig.submit({"type": "roll", "dice": [5], "t": 10})
    with pytest.raises(IllegalEvent, match="before the last event"):
        pig.submit({"type": "roll", "dice": [5], "t": 9})


@pytest.mark.parametrize(
    "header, reason",
    [
        ({"game": "chess", "players": ["a", "b"]}, "unknown game 'chess'"),
        ({"game": "pig", "players": ["a"]}, "2..12 players"),
        ({"game": "pig", "players": ["a", "a"]}, "must differ"),
        ({"game": "pig", "players": ["a", "b"], "options": {"goal": 5}}, r"unknown option\(s\) \['goal'\]"),
        ({"game": "pig", "players": ["a", "b"], "options": {"target": "x"}}, "option 'target'"),
        ({"game": "pig", "players": ["a", "b"], "colour": 1}, "unknown header field"),
    ],
)
def test_bad_headers(header, reason):
    with pytest.raises(BadHeader, match=reason):
        Session.start(header)


def test_get_game_unknown_lists_known():
    with pytest.raises(ValueError, match="known: .*pig"):
        get_game("nope")
