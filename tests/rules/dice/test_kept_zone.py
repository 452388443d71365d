"""Camera readings with the kept zone (``Game.read_dice``): the dice set aside in the
zone become the game's ``keep``, the others its ``roll``; dice only carried to the
kept zone are no throw."""

from __future__ import annotations

import pytest

from rules import Session
from rules.game import seen_die


def kept(*values: int) -> list[dict]:
    return [{"value": v, "zone": "kept", "moved": False} for v in values]


def tray(*values: int, moved: bool = True) -> list[dict]:
    return [{"value": v, "zone": "tray", "moved": moved} for v in values]


def as_dicts(events) -> list[dict]:
    return [{k: v for k, v in e.to_dict().items() if k != "source"} for e in events]


def poker_after_first_throw() -> Session:
    s = Session.start({"game": "poker", "players": ["Ann", "Bob"]})
    return s.submit({"type": "roll", "dice": [6, 6, 2, 3, 6]})


def test_dice_carried_to_the_kept_zone_are_a_keep_not_a_throw():
    s = poker_after_first_throw()
    events = s.game.read_dice(s.state, kept(6, 6, 6) + tray(2, 3, moved=False))
    assert as_dicts(events) == [{"type": "keep", "dice": [6, 6, 6]}]
    assert all(e.source == "camera" for e in events)


def test_a_throw_beside_the_kept_dice_is_the_keep_then_the_roll_of_the_thrown_dice():
    s = poker_after_first_throw()
    events = s.game.read_dice(s.state, kept(6, 6, 6) + tray(1, 4))
    assert as_dicts(events) == [{"type": "keep", "dice": [6, 6, 6]}, {"type": "roll", "dice": [1, 4]}]
    for e in events:
        s.submit(e)
    assert sorted(s.state.hand) == [1, 4, 6, 6, 6]
    # poker asks again which dice are kept before each throw: the zone says it again
    assert s.state.held is None
    events = s.game.read_dice(s.state, kept(6, 6, 6) + tray(2, 6))
    assert as_dicts(events) == [{"type": "keep", "dice": [6, 6, 6]}, {"type": "roll", "dice": [2, 6]}]
    for e in events:
        s.submit(e)
    assert sorted(s.state.hands[0]) == [2, 6, 6, 6, 6]  # the third throw ends Ann's hand


def test_nothing_moved_and_nothing_newly_kept_proposes_nothing():
    s = poker_after_first_throw()
    s.submit({"type": "keep", "dice": [6, 6, 6]})
    assert s.game.read_dice(s.state, kept(6, 6, 6) + tray(2, 3, moved=False)) == ()
    # with the kept dice the game already has, a throw is the roll alone
    assert as_dicts(s.game.read_dice(s.state, kept(6, 6, 6) + tray(5, 1))) == [{"type": "roll", "dice": [5, 1]}]


def test_thousand_keeps_only_the_dice_newly_set_aside():
    s = Session.start({"game": "thousand-v2", "players": ["Ann", "Bob"]})
    s.submit({"type": "roll", "dice": [1, 5, 3, 3, 4]})
    events = s.game.read_dice(s.state, kept(1, 5) + tray(5, 5, 2))
    assert as_dicts(events) == [{"type": "keep", "dice": [1, 5]}, {"type": "roll", "dice": [5, 5, 2]}]
    for e in events:
        s.submit(e)
    v = s.view()
    assert (v["turn_total"], v["set_aside"], v["pending"]) == (25, [1, 5], [5, 5, 2])
    # two fives more set aside beside the 1 and 5: the keep names the new ones only
    events = s.game.read_dice(s.state, kept(1, 5, 5, 5) + tray(2, moved=False))
    assert as_dicts(events) == [{"type": "keep", "dice": [5, 5]}]


def test_classic_thousand_sets_aside_by_its_rules_so_the_zone_only_tells_the_thrown_dice():
    s = Session.start({"game": "thousand", "players": ["Ann", "Bob"]})
    s.submit({"type": "roll", "dice": [1, 5, 3, 3, 4]})  # 1 and 5 set aside by the rules
    events = s.game.read_dice(s.state, kept(1, 5) + tray(2, 2, 6))
    assert as_dicts(events) == [{"type": "roll", "dice": [2, 2, 6]}]


def test_a_game_without_keep_ignores_the_dice_in_the_kept_zone():
    s = Session.start({"game": "pig", "players": ["Ann", "Bob"]})
    assert as_dicts(s.game.read_dice(s.state, kept(3) + tray(4))) == [{"type": "roll", "dice": [4]}]


def test_an_illegal_keep_is_proposed_alone_so_the_table_refuses_it_with_the_games_reason():
    s = Session.start({"game": "thousand-v2", "players": ["Ann", "Bob"]})
    s.submit({"type": "roll", "dice": [1, 5, 3, 3, 4]})
    events = s.game.read_dice(s.state, kept(3) + tray(6, 6, 2, 2))
    assert as_dicts(events) == [{"type": "keep", "dice": [3]}]
    with pytest.raises(Exception, match=r"\[3\] does not all score"):
        s.submit(events[0])


def test_plain_values_keep_the_held_dice_rule():
    s = poker_after_first_throw()
    assert as_dicts(s.game.read_dice(s.state, [6, 6, 2, 3, 6])) == [{"type": "roll", "dice": [6, 6, 2, 3, 6]}]


@pytest.mark.parametrize(
    "entry, reason",
    [
        ({"value": 7}, "'value' must be a number 1..6, got 7"),
        ({"value": 3, "zone": 5}, "'zone' must be a name, got 5"),
        ({"value": 3, "moved": "yes"}, "'moved' must be true or false, got 'yes'"),
        ({"value": 3, "colour": "red"}, "unknown field(s) ['colour']"),
        ("six", "expected a value 1..6 or an object with 'value'"),
        (True, "expected a value 1..6 or an object with 'value'"),
    ],
)
def test_malformed_dice_are_refused_naming_the_entry(entry, reason):
    with pytest.raises(ValueError) as err:
        seen_die(entry)
    assert reason in str(err.value) and str(err.value).startswith("camera die ")
    s = poker_after_first_throw()
    with pytest.raises(ValueError):
        s.game.read_dice(s.state, [*tray(1, 2), entry])
