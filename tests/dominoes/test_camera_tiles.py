"""The camera's tiles with geometry (which layout tile a new tile touches picks the
open end) and the end-of-hand count read from the tiles off the line of play."""

from __future__ import annotations

from typing import Any

import pytest

from rules import Event, Session
from rules.dominoes import SeenTile, count_proposals, proposals, read_table, seen_tile

NEW = {"type": "new_hand"}


def P(a: int, b: int, end: str | None = None) -> dict[str, Any]:
    e: dict[str, Any] = {"type": "play", "tile": [a, b]}
    if end is not None:
        e["end"] = end
    return e


def start(players: int = 2, **options: Any) -> Session:
    s = Session.start({"game": "all-fives", "players": ["Ann", "Bob", "Cat"][:players], "options": options})
    s.submit(NEW)
    return s


def two_fives() -> Session:
    """Open ends 5 (on the lead 5-1) and 5 (on 0-5): a 5-3 fits both."""
    s = start()
    for e in (P(5, 1), P(1, 0, "right"), P(0, 5, "right")):
        s.submit(e)
    assert s.state.layout.open_ends() == {"left": 5, "right": 5}
    return s


def ends(answer) -> list[str]:
    return [e["end"] for e in answer.events]


def test_the_touched_tile_picks_between_two_fitting_ends():
    s = two_fives()
    assert ends(read_table(s.state, [[5, 3]])) == ["left", "right"]  # the set alone: ambiguous
    right = read_table(s.state, [{"tile": [5, 3], "touches": [[0, 5]]}])
    left = read_table(s.state, [{"tile": [3, 5], "touches": [[1, 5]]}])
    assert ends(right) == ["right"] and ends(left) == ["left"]
    s.check(right.events[0])  # the engine accepts it as it is
    assert s.check(left.events[0])[1].layout.line[0] == (3, 5)


def test_no_contact_with_the_layout_leaves_the_set_alone_to_decide():
    s = two_fives()
    for touches in ([], [[6, 6]], None):  # nothing, a tile not in the layout, no geometry
        assert ends(read_table(s.state, [{"tile": [5, 3], "touches": touches}])) == ["left", "right"]
    both = read_table(s.state, [{"tile": [5, 3], "touches": [[0, 5], [1, 5]]}])
    assert ends(both) == ["left", "right"]


def test_a_contact_that_contradicts_every_legal_end_is_refused_with_the_reason():
    s = two_fives()
    answer = read_table(s.state, [{"tile": [5, 3], "touches": [[0, 1]]}])  # the middle tile
    assert answer.events == ()
    assert answer.reason == (
        "[5, 3] touches [0, 1], where it is not a legal play; it could go on left (on [1, 5]),"
        " right (on [0, 5]): confirm on the control page or move the tile"
    )


def test_the_spinner_sides_stay_ambiguous_and_a_tile_on_an_arm_is_placed():
    s = start()
    for e in (P(5, 5), P(5, 0, "right"), P(0, 2, "right"), P(5, 1, "up")):
        s.submit(e)
    assert ends(read_table(s.state, [{"tile": [5, 3], "touches": [[5, 5]]}])) == ["left", "down"]
    assert ends(read_table(s.state, [{"tile": [1, 3], "touches": [[1, 5]]}])) == ["up"]
    assert ends(read_table(s.state, [{"tile": [2, 6], "touches": [[0, 2]]}])) == ["right"]


def test_geometry_never_adds_an_illegal_play():
    s = two_fives()
    for tile, touches in (([6, 6], [[0, 5]]), ([1, 5], [[1, 5]]), ([4, 4], [[1, 5], [0, 5]])):
        answer = read_table(s.state, [{"tile": tile, "touches": touches}])
        assert answer.events == () and answer.reason
    for tile in ([5, 3], [5, 6], [5, 5]):
        for e in read_table(s.state, [{"tile": tile, "touches": [[0, 5]]}]).events:
            assert e in proposals(s.state, tile)


def test_bad_camera_entries_name_the_field():
    with pytest.raises(ValueError, match=r"unknown field\(s\) \['where'\]"):
        seen_tile({"tile": [1, 2], "where": 3})
    with pytest.raises(ValueError, match="'touches' must be a list"):
        seen_tile({"tile": [1, 2], "touches": 5})
    with pytest.raises(ValueError, match="expected a tile"):
        seen_tile({"tile": [1, 9]})


# --- the count at the end of a hand ----------------------------------------------------

# Three players, five tiles each: Ann plays out ("domino"), Bob and Cat keep one each.
THREE_DOMINO = [P(6, 6), P(6, 1, "right"), P(6, 2, "left"), P(6, 3, "up"), P(6, 4, "down"), P(1, 0, "right"),
                P(2, 2, "left"), P(3, 3, "up"), P(4, 4, "down"), P(0, 5, "right"), P(2, 5, "left"),
                P(3, 5, "up"), P(4, 0, "down")]
# Two players, five tiles each: Ann plays out, only Bob holds a tile.
TWO_DOMINO = [P(6, 6), P(6, 1, "right"), P(6, 2, "left"), P(6, 3, "up"), P(6, 4, "down"), P(1, 0, "right"),
              P(2, 2, "left"), P(3, 3, "up"), P(4, 4, "down")]


def counting(players: int, plays: list[dict[str, Any]]) -> Session:
    s = start(players, hand_size=5)
    for e in plays:
        s.submit(e)
    assert s.state.phase == "count" and s.state.hand_end == "domino"
    return s


def table_tiles(s: Session) -> list[list[int]]:
    return [list(t) for t in s.state.layout.tiles()]


def test_only_one_player_holds_tiles_so_the_hands_are_known():
    s = counting(2, TWO_DOMINO)
    assert s.state.counts == (0, 1)
    answer = read_table(s.state, table_tiles(s) + [[5, 5]])
    assert answer.confirm and [e.to_dict() for e in answer.events] == [
        {"type": "count", "hands": [[], [[5, 5]]], "source": "camera"}]
    s.submit(answer.events[0])
    assert s.view()["last_hand"]["pips"] == [0, 10] and s.view()["last_hand"]["winner"] == "Ann"


def test_zones_named_after_players_or_seats_tell_the_hands_apart():
    s = counting(3, THREE_DOMINO)
    seen = [{"tile": t, "zone": None} for t in table_tiles(s)]
    for zones in (("Bob", "Cat"), ("seat 2", "3")):
        answer = read_table(s.state, seen + [{"tile": [1, 2], "zone": zones[0]}, {"tile": [6, 5], "zone": zones[1]}])
        assert [e.to_dict()["hands"] for e in answer.events] == [[[], [[1, 2]], [[5, 6]]]]


def test_without_zones_every_split_the_tile_counts_allow_is_proposed():
    s = counting(3, THREE_DOMINO)
    answer = read_table(s.state, table_tiles(s) + [[1, 2], [6, 5]])
    assert answer.confirm and [list(e["pips"]) for e in answer.events] == [[0, 3, 11], [0, 11, 3]]
    for e in answer.events:
        s.check(e)
    # equal pips: one split
    assert [list(e["pips"]) for e in read_table(s.state, table_tiles(s) + [[1, 2], [0, 3]]).events] == [[0, 3, 3]]


def test_a_partial_or_wrong_reading_proposes_no_count():
    s = counting(3, THREE_DOMINO)
    partial = read_table(s.state, [[1, 2]])
    assert partial.events == () and partial.reason.startswith("1 tile(s) off the line of play, the hands hold 2")
    # a zone that is no player: the split by counts is proposed instead
    answer = read_table(s.state, [{"tile": [1, 2], "zone": "Bob"}, {"tile": [6, 5], "zone": "bar"}])
    assert [list(e["pips"]) for e in answer.events] == [[0, 3, 11], [0, 11, 3]]
    # two tiles in Bob's zone: he holds one, so the zones are refused and the counts decide
    answer = read_table(s.state, [{"tile": [1, 2], "zone": "Bob"}, {"tile": [6, 5], "zone": "Bob"}])
    assert [list(e["pips"]) for e in answer.events] == [[0, 3, 11], [0, 11, 3]]


def test_too_many_splits_give_the_total_for_the_operator():
    s = start(2)  # seven tiles each; a fish once the boneyard is down to the stop tile
    s.submit(P(6, 6))
    s.submit({"type": "draw", "count": 13})
    s.submit({"type": "fish"})
    off = [t for t in ([a, b] for a in range(7) for b in range(a, 7)) if (t[0], t[1]) != (6, 6)][:26]
    answer = count_proposals(s.state, [SeenTile((a, b)) for a, b in off])
    assert answer.events == () and answer.confirm
    total = sum(a + b for a, b in off)
    assert f"26 tile(s) with {total} pips in all off the line of play" in answer.reason


def test_no_count_outside_the_count_phase_and_no_play_in_it():
    s = two_fives()
    assert all(e.type == "play" for e in read_table(s.state, [[5, 3]]).events)
    s = counting(2, TWO_DOMINO)
    assert all(e.type == "count" for e in read_table(s.state, [[5, 5]]).events)
    s.submit(Event("count", {"pips": [0, 10]}))
    answer = read_table(s.state, [[5, 3]])
    assert answer.events == () and "not used now" in answer.reason
