"""All Fives / П'ятірка (000:1345-1393, 001:758-786): the rules, one by one."""

from __future__ import annotations

from typing import Any

from fractions import Fraction

import pytest

from rules import BadHeader, BadOptions, BadPlayers, Event, IllegalEvent, MalformedEvent, Session, get_game
from rules.dominoes import IllegalPlay, Layout, new_tile_proposals, proposals, round_to_five

NEW = {"type": "new_hand"}


def P(a: int, b: int, end: str | None = None, **extra: Any) -> dict[str, Any]:
    e: dict[str, Any] = {"type": "play", "tile": [a, b]}
    if end is not None:
        e["end"] = end
    e.update(extra)
    return e


def table(players: int = 2, **options: Any) -> Session:
    names = ["Ann", "Bob", "Cat", "Dan"][:players]
    return Session.start({"game": "all-fives", "players": names, "options": options})


def run(s: Session, *events: dict[str, Any]) -> dict[str, Any]:
    for e in events:
        s.submit(e)
    return s.view()


def scores(v: dict[str, Any]) -> list[int]:
    return [p["score"] for p in v["players"]]


# --- the worked example of the texts (000:1385-1393, 001:780-786) --------------------


@pytest.mark.parametrize(
    "closing, sums, points",
    [
        ("two_sides", [10, 10, 3, 5], [10, 10, 0, 5]),
        ("four_sides", [10, 10, 13, 15], [10, 10, 0, 15]),
    ],
)
def test_worked_example_both_conventions(closing, sums, points):
    s = table(double_closing=closing)
    run(s, NEW)
    moves = [P(5, 5), P(5, 0, "right"), P(3, 5, "left"), P(0, 2, "right")]
    for move, total, got in zip(moves, sums, points):
        v = run(s, move)
        assert v["ends_sum"] == total
        assert v["layout"][-1]["points"] == got
    assert v["line"] == [[3, 5], [5, 5], [5, 0], [0, 2]]
    assert v["spinner"] == [5, 5]
    # "the top and bottom of the 5x5 cross stay playable, as do the open 3 and 2"
    assert v["open_ends"] == {"left": 3, "right": 2, "up": 5, "down": 5}
    assert v["ends_terms"] == ([3, 2] if closing == "two_sides" else [3, 5, 5, 2])
    assert scores(v) == [10, 10 + points[3]]


def test_after_the_second_move_three_directions_from_the_double_one_from_the_blank():
    # 001:782 (Russian only): three ways from the 5x5, one from the blank
    s = table()
    v = run(s, NEW, P(5, 5), P(5, 0, "right"))
    assert v["ends_terms"] == [10, 0]
    free = [end for end, pip in v["open_ends"].items() if pip == 5]
    assert sorted(free) == ["down", "left", "up"] and v["open_ends"]["right"] == 0


def test_double_six_lead_is_the_cross_but_scores_nothing():
    v = run(table(), NEW, P(6, 6))
    assert v["spinner"] == [6, 6] and v["ends_sum"] == 12 and scores(v) == [0, 0]
    assert set(v["open_ends"]) == {"left", "right", "up", "down"}


def test_any_tile_may_lead_and_the_first_double_later_becomes_the_spinner():
    s = table()
    v = run(s, NEW, P(1, 4))
    assert v["spinner"] is None and v["ends_sum"] == 5 and scores(v) == [5, 0]
    assert set(v["open_ends"]) == {"left", "right"}
    with pytest.raises(IllegalPlay, match=r"there is no up end"):
        s.submit(P(4, 0, "up"))
    v = run(s, P(4, 4, "right"))  # first double: the spinner, at the right of the line
    assert v["spinner"] == [4, 4] and v["ends_terms"] == [1, 8] and v["open_ends"]["up"] == 4
    v = run(s, P(4, 2, "up"), P(1, 1, "left"))  # a later double is ordinary: full value at its end
    assert v["spinner"] == [4, 4]
    assert v["ends_terms"] == [2, 2]  # 1x1 at the left (2); the 4x4 is covered twice (two_sides)
    assert v["layout"][-1] == {"tile": [1, 1], "end": "left", "player": "Bob", "points": 0}


def test_ordinary_double_at_an_end_half_value_option():
    s = table(end_double_value="half")
    v = run(s, NEW, P(5, 5), P(5, 3, "left"), P(5, 2, "right"), P(2, 2, "right"))
    assert v["ends_terms"] == [3, 2]


def test_four_sides_counts_each_free_side_until_covered():
    s = table(double_closing="four_sides")
    v = run(s, NEW, P(5, 5), P(5, 0, "right"), P(3, 5, "left"), P(5, 1, "up"))
    assert v["ends_terms"] == [3, 1, 5, 0]
    v = run(s, P(5, 6, "down"))
    assert v["ends_terms"] == [3, 1, 6, 0] and v["ends_sum"] == 10


# --- illegal placements name the tile and the open ends ------------------------------


def test_illegal_play_names_the_open_ends():
    s = table()
    run(s, NEW, P(6, 2))
    with pytest.raises(IllegalPlay, match=r"^illegal play \[3, 5\] on open ends \(6, 2\) .*: no open end shows 3 or 5"):
        s.submit(P(3, 5))
    with pytest.raises(IllegalPlay, match=r"illegal play \[2, 3\] on open ends \(6, 2\) .*the left end shows 6"):
        s.submit(P(2, 3, "left"))
    assert s.view()["events"] == 2


def test_ambiguous_play_must_name_the_end():
    s = table()
    run(s, NEW, P(5, 5))
    with pytest.raises(IllegalPlay, match=r"fits several ends, name one: left \(5\), right \(5\), up \(5\), down \(5\)"):
        s.submit(P(5, 1))
    assert run(s, P(5, 1, "down"))["arms"]["down"] == [[5, 1]]


def test_a_tile_on_the_table_cannot_be_played_again():
    s = table()
    run(s, NEW, P(6, 2))
    with pytest.raises(IllegalEvent, match=r"\[2, 6\] is already on the table"):
        s.submit(P(2, 6, "right"))


def test_only_the_player_on_turn_plays():
    s = table()
    run(s, NEW)
    with pytest.raises(IllegalEvent, match="it is Ann's turn, not Bob's"):
        s.submit(P(6, 2, player="Bob"))
    with pytest.raises(IllegalEvent, match="no player 'Zed'"):
        s.submit(P(6, 2, player="Zed"))


def test_unknown_end_and_bad_tile_are_malformed():
    s = table()
    run(s, NEW)
    with pytest.raises(MalformedEvent, match="field 'end'"):
        s.submit(P(6, 2, "north"))
    with pytest.raises(MalformedEvent, match=r"field 'tile': expected a tile \[a, b\] with pips 0..6"):
        s.submit({"type": "play", "tile": [7, 1]})


def test_play_before_the_hand_is_dealt_is_refused():
    with pytest.raises(IllegalEvent, match=r"start a hand first \(new_hand\)"):
        table().submit(P(6, 2))


# --- the boneyard and the stop tile ---------------------------------------------------


def test_draws_keep_the_stop_tile():
    s = table()  # 2 players, 7 each: 14 in the boneyard, 13 drawable
    v = run(s, NEW, P(6, 6))
    assert v["boneyard"] == 14 and v["drawable"] == 13 and v["players"][0]["tiles"] == 6
    with pytest.raises(IllegalEvent, match="draw first: 13 tile"):
        s.submit({"type": "pass"})
    with pytest.raises(IllegalEvent, match=r"only 13 can be drawn \(14 left, 1 stop tile stays\)"):
        s.submit({"type": "draw", "count": 14})
    v = run(s, {"type": "draw", "count": 13})
    assert v["boneyard"] == 1 and v["drawable"] == 0 and v["players"][1]["tiles"] == 20
    assert v["turn"] == "Bob"  # drawing does not end the turn
    with pytest.raises(IllegalEvent, match="down to the stop tile"):
        s.submit({"type": "draw"})
    v = run(s, {"type": "pass"})
    assert v["turn"] == "Ann" and v["passes"] == 1


def test_the_leader_cannot_draw_or_pass():
    s = table()
    run(s, NEW)
    for e in ({"type": "draw"}, {"type": "pass"}, {"type": "fish"}):
        with pytest.raises(IllegalEvent):
            s.submit(e)
    with pytest.raises(IllegalEvent, match="Ann leads: any tile may be played"):
        s.submit({"type": "draw"})


def test_stop_tiles_option_zero_lets_the_boneyard_empty():
    s = table(stop_tiles=0)
    v = run(s, NEW, P(6, 6), {"type": "draw", "count": 14})
    assert v["boneyard"] == 0


def test_a_named_drawn_tile_is_tracked_and_must_be_played_if_it_fits():
    s = table()
    run(s, NEW, P(6, 6), {"type": "draw", "tile": [1, 2]})
    with pytest.raises(IllegalEvent, match=r"\[1, 2\] is already in Bob's hand"):
        s.submit({"type": "draw", "tile": [2, 1]})
    v = run(s, {"type": "draw", "tile": [6, 3]})
    assert v["players"][1]["tiles"] == 9
    with pytest.raises(IllegalEvent, match=r"Bob holds \[3, 6\], which can be played"):
        s.submit({"type": "draw"})
    run(s, P(6, 3, "up"))
    with pytest.raises(IllegalEvent, match=r"\[1, 2\] is known to be in Bob's hand"):
        s.submit(P(6, 1, "left") | {"tile": [1, 2]})


def test_fish_by_all_passing():
    s = table(3)  # 5 each, 13 in the boneyard
    v = run(s, NEW, P(6, 6), {"type": "draw", "count": 12})
    assert v["drawable"] == 0
    v = run(s, {"type": "pass"}, {"type": "pass"})
    assert v["phase"] == "play" and v["passes"] == 2
    v = run(s, {"type": "pass"})
    assert v["phase"] == "count" and v["hand_end"] == "fish" and v["turn"] is None


def test_fish_declared_only_when_nobody_can_draw():
    s = table(3)
    run(s, NEW, P(6, 6))
    with pytest.raises(IllegalEvent, match="not blocked: 12 tile"):
        s.submit({"type": "fish"})
    v = run(s, {"type": "draw", "count": 12}, {"type": "fish"})
    assert v["phase"] == "count"


# --- the end of a hand: bonuses --------------------------------------------------------


def test_bonus_rounding_to_the_nearest_five():
    assert [round_to_five(x) for x in (0, 2, 3, 17, 18, 27, 28)] == [0, 0, 5, 15, 20, 25, 30]


def fish_hand_four_players(s: Session) -> None:
    """Ann draws the boneyard down to the stop tile early; Bob, Cat and Dan are left with
    two tiles each and pass while Ann plays hers down to two; then all four pass: a fish."""
    run(
        s, NEW,
        P(1, 2), P(1, 4, "left"), P(2, 4, "right"), P(0, 4, "left"),
        {"type": "draw", "count": 7}, P(3, 4, "right"), P(3, 5, "right"), P(0, 6, "left"), P(3, 6, "left"),
        P(3, 3, "left"), P(5, 5, "right"), P(0, 5, "right"), P(0, 3, "right"),
    )
    for tile, end in (((2, 3), "down"), ((1, 3), "left"), ((2, 5), "down"), ((1, 5), "down"),
                      ((1, 6), "left"), ((2, 6), "left"), ((2, 2), "left")):
        run(s, P(*tile, end), *[{"type": "pass"}] * 3)
    run(s, {"type": "pass"})


def test_fish_bonus_worked_example_dom_5():
    # 000:1373 / 001:771: the winner holds 2, the three others 7, 10 and 12:
    # 7 + 10 + 12 - 2 = 27 -> 25 -> 25 / 5 = 5
    s = table(4)
    fish_hand_four_players(s)
    before = scores(s.view())
    v = run(s, {"type": "count", "pips": [12, 2, 10, 7]})
    assert v["last_hand"] == {"hand": 1, "end": "fish", "winner": "Bob", "pips": [12, 2, 10, 7], "bonus": 5}
    assert scores(v)[1] == before[1] + 5 and v["phase"] == "deal" and v["next_leader"] == "Bob"
    with pytest.raises(IllegalEvent, match="Bob won the last hand and leads"):
        s.submit({"type": "new_hand", "leader": "Ann"})
    assert run(s, NEW)["turn"] == "Bob"


def test_tied_fish_gives_no_bonus_and_the_same_leader_leads_again():
    s = table(4)
    fish_hand_four_players(s)
    v = run(s, {"type": "count", "pips": [12, 5, 5, 7]})
    assert v["last_hand"]["winner"] is None and v["last_hand"]["bonus"] == 0
    assert v["next_leader"] == "Ann" and run(s, NEW)["turn"] == "Ann"


def test_count_pips_must_be_possible():
    s = table(4)
    fish_hand_four_players(s)
    v = s.view()
    assert [p["tiles"] for p in v["players"]] == [2, 2, 2, 2] and v["boneyard"] == 1
    with pytest.raises(IllegalEvent, match=r"Ann cannot hold 30 pips in 2 tile\(s\)"):
        s.submit({"type": "count", "pips": [30, 4, 5, 5]})
    with pytest.raises(IllegalEvent, match=r"one number per player \(4\)"):
        s.submit({"type": "count", "pips": [1, 2, 3]})
    with pytest.raises(IllegalEvent, match="either 'pips'"):
        s.submit({"type": "count"})


def domino_three_players(s: Session) -> None:
    """Ann plays out her five tiles; Bob and Cat keep two each (each drew one)."""
    run(
        s, NEW,
        P(6, 6), P(6, 1, "right"), P(6, 2, "up"),
        P(1, 1, "right"), P(6, 3, "down"), P(2, 4, "up"),
        P(3, 3, "down"), P(4, 0, "up"), P(6, 5, "left"),
        P(3, 5, "down"), {"type": "draw"}, P(1, 5, "right"),  # 5 + 0 + 5 + 5 = 15 for Bob
        {"type": "draw"}, P(0, 2, "up"),
        P(5, 4, "left"),
    )


def test_domino_bonus_dom_6():
    # RULES.md TV dom-6: the player who plays out faces 8 + 9 = 17 -> 15 -> 3 bonus
    s = table(3)
    domino_three_players(s)
    v = s.view()
    assert v["phase"] == "count" and v["hand_end"] == "domino"
    assert [p["tiles"] for p in v["players"]] == [0, 2, 2] and scores(v) == [0, 15, 0]
    with pytest.raises(IllegalEvent, match=r"Ann cannot hold 3 pips in 0 tile\(s\) \(possible 0..0\)"):
        s.submit({"type": "count", "pips": [3, 8, 9]})
    before = scores(v)
    v = run(s, {"type": "count", "pips": [0, 8, 9]})
    assert v["last_hand"]["bonus"] == 3 and scores(v)[0] == before[0] + 3
    assert v["last_score"] == {"player": "Ann", "points": 3, "for": "bonus"}


def test_domino_bonus_18_rounds_up_to_20():
    s = table(3)
    domino_three_players(s)
    assert run(s, {"type": "count", "pips": [0, 8, 10]})["last_hand"]["bonus"] == 4


def test_bonus_full_value_option():
    s = table(3, bonus_divide_by_5=False)
    domino_three_players(s)
    assert run(s, {"type": "count", "pips": [0, 8, 9]})["last_hand"]["bonus"] == 15


def test_count_with_the_tiles_read_from_the_table():
    s = table(3)
    domino_three_players(s)
    with pytest.raises(IllegalEvent, match=r"Bob holds 2 tile\(s\), 1 given"):
        s.submit({"type": "count", "hands": [[], [[0, 0]], [[0, 1]]]})
    with pytest.raises(IllegalEvent, match=r"\[6, 6\] is already on the table"):
        s.submit({"type": "count", "hands": [[], [[6, 6], [0, 0]], [[1, 2], [1, 3]]]})
    with pytest.raises(IllegalEvent, match=r"\[1, 2\] is given twice"):
        s.submit({"type": "count", "hands": [[], [[2, 1], [0, 0]], [[1, 2], [1, 3]]]})
    with pytest.raises(IllegalEvent, match=r"\[0, 0\] is given twice"):
        s.submit({"type": "count", "hands": [[], [[0, 0], [0, 0]], [[1, 2], [1, 3]]]})
    bob = [[0, 5], [1, 3]]
    cat = [[1, 2], [0, 6]]
    v = run(s, {"type": "count", "hands": [[], bob, cat]})
    assert v["last_hand"]["pips"] == [0, 9, 9] and v["last_hand"]["bonus"] == 4  # 18 -> 20 -> 4


# --- pairs -------------------------------------------------------------------------------


def test_pairs_pool_scores_and_the_bonus_ignores_the_partner():
    s = table(4, teams=True)
    v = run(s, NEW, P(5, 5), P(5, 0, "right"))
    assert v["teams"][0] == {"name": "Ann & Cat", "players": ["Ann", "Cat"], "score": 10}
    assert v["teams"][1]["score"] == 10 and v["players"][3]["score"] == 10 and v["players"][3]["team"] == 1
    v = run(s, P(3, 5, "left"), P(0, 2, "right"))
    assert v["teams"][1]["score"] == 15
    s2 = table(4, teams=True)
    fish_hand_four_players(s2)
    # Bob (team 1) lowest with 2; opponents Ann 12 + Cat 10 = 22 - 2 = 20 -> 4; Dan's 7 ignored
    v = run(s2, {"type": "count", "pips": [12, 2, 10, 7]})
    assert v["last_hand"]["bonus"] == 4 and v["last_hand"]["winner"] == "Bob"


def test_pairs_tie_within_a_pair_still_wins():
    s = table(4, teams=True)
    fish_hand_four_players(s)
    v = run(s, {"type": "count", "pips": [3, 2, 10, 2]})  # Bob and Dan both 2: pair 2 wins
    assert v["last_hand"]["winner"] == "Bob" and v["last_hand"]["bonus"] == 2  # 13 - 2 = 11 -> 10 -> 2


def test_pairs_need_four_players():
    with pytest.raises(BadPlayers, match="pairs needs 4 players"):
        table(3, teams=True)


# --- the game --------------------------------------------------------------------------


def test_winning_play_ends_the_game_at_once():
    s = table(target=20)
    v = run(s, NEW, P(5, 5), P(5, 0, "right"), P(3, 5, "left"), P(0, 2, "right"))
    assert scores(v) == [10, 15]
    v = run(s, P(3, 3, "left"))  # left 3x3 counts 6: 6 + 2 = 8 -> nothing
    assert v["winner"] is None
    v = run(s, P(2, 4, "right"))  # 6 + 4 = 10 -> Bob 25 >= 20
    assert v["winner"] == "Bob" and v["phase"] == "over" and v["turn"] is None
    assert v["last_score"] == {"player": "Bob", "points": 10, "for": "play"}
    with pytest.raises(IllegalEvent, match="the game is over, Bob won"):
        s.submit({"type": "draw"})


def test_a_bonus_that_reaches_the_target_wins():
    s = table(3, target=16, bonus_divide_by_5=False)
    domino_three_players(s)
    v = s.view()
    assert v["winner"] is None and scores(v) == [0, 15, 0]
    v = run(s, {"type": "count", "pips": [0, 10, 9]})  # 19 -> 20
    assert v["winner"] == "Ann" and v["phase"] == "over"


def test_hand_size_options():
    assert table(3, hand_size=7).view()["boneyard"] == 28
    v = run(table(3, hand_size=7), NEW)
    assert v["players"][0]["tiles"] == 7 and v["boneyard"] == 7
    v = run(table(2, hand_size=5), NEW)
    assert v["players"][0]["tiles"] == 5 and v["boneyard"] == 18
    with pytest.raises(BadOptions, match="'hand_size': 7 tiles each for 4 players leaves 0"):
        table(4, hand_size=7)
    with pytest.raises(BadHeader, match="not one of"):
        table(2, hand_size=6)


def test_first_hand_leader_by_lot():
    s = table(3)
    v = run(s, {"type": "new_hand", "leader": "Cat"})
    assert v["turn"] == "Cat" and v["hand"] == 1
    with pytest.raises(IllegalEvent, match="still being played"):
        s.submit(NEW)


def test_registry_and_keypad():
    game = get_game("all-fives")
    info = game.info()
    assert info["family"] == "dominoes" and info["native"].startswith("П'ятірка")
    assert set(info["events"]) == {"new_hand", "play", "draw", "pass", "fish", "count"}
    for event in game.keypad.values():
        assert event["type"] in game.events


def test_legal_types_follow_the_phase():
    game = get_game("all-fives")
    s = table()
    assert game.legal_types(s.state) == ("new_hand",)
    run(s, NEW)
    assert "play" in game.legal_types(s.state)


# --- proposals for the camera ------------------------------------------------------------


def test_proposals_one_several_none():
    s = table()
    run(s, NEW)
    (lead,) = proposals(s.state, [4, 1])
    assert lead.to_dict() == {"type": "play", "tile": [4, 1], "source": "camera"}
    run(s, lead.to_dict())
    assert [e["end"] for e in proposals(s.state, [1, 6])] == ["right"]
    run(s, P(4, 4, "left"))
    assert [e["end"] for e in proposals(s.state, [4, 6])] == ["left", "up", "down"]
    assert proposals(s.state, [6, 6]) == []  # no end shows 6
    assert proposals(s.state, [1, 4]) == []  # already on the table
    for e in proposals(s.state, [4, 6]):
        s.check(e)  # every proposal is accepted by the engine


def test_proposals_outside_play_are_empty():
    s = table()
    assert proposals(s.state, [1, 2]) == []


def test_layout_place_orients_tiles():
    lay = Layout().place((2, 6), None).place((3, 2), "left").place((6, 6), "right")
    assert lay.line == ((3, 2), (2, 6), (6, 6)) and lay.spinner == 2
    lay = lay.place((1, 6), "up").place((6, 0), "down")
    assert lay.up == ((6, 1),) and lay.down == ((6, 0),)
    assert lay.open_ends() == {"left": 3, "right": 6, "up": 1, "down": 0}
    assert lay.terms("two_sides") == (3, 1, 0)


def test_new_tile_proposals_from_a_camera_reading():
    s = table()
    run(s, NEW, P(5, 5), P(5, 0, "right"))
    seen = [[5, 5], [0, 5], [3, 5]]  # the layout, plus a new 3x5
    assert [e["end"] for e in new_tile_proposals(s.state, seen)] == ["left", "up", "down"]
    assert new_tile_proposals(s.state, [[5, 5]]) == []  # nothing new (5x0 hidden by a hand)
    assert new_tile_proposals(s.state, [[0, 2], [2, 0]]) == [
        Event("play", {"tile": [0, 2], "end": "right"}, source="camera")
    ]


def test_state_copies_equal_dataclasses_replace():
    from dataclasses import replace

    from rules.dominoes.all_fives import _evolve

    s = table()
    run(s, NEW, P(5, 5))
    st = s.state
    assert _evolve(st, passes=2, turn=0) == replace(st, passes=2, turn=0)
    assert hash(_evolve(st, passes=2)) == hash(replace(st, passes=2))
    with pytest.raises(TypeError, match="no field"):
        _evolve(st, pases=1)


def test_odds_sum_to_one_and_name_bad_parameters():
    game = get_game("all-fives")
    for params in ({}, {"table": "6-6"}, {"table": "1-4,4-4@right,4-2@up", "seen": "1-1,0-0"},
                   {"table": "5-5,5-0@right,3-5@left,0-2@right", "closing": "four_sides"}):
        odds = game.odds(params)
        assert sum(v for k, v in odds.items() if k.startswith("best_")) == 1
        assert 0 <= odds["draw_fits"] <= 1
    lead = game.odds({})  # 0-5, 1-4, 2-3 make 5; 4-6 and 5-5 make 10
    assert lead["draw_fits"] == 1 and lead["best_5"] == Fraction(3, 28) and lead["best_10"] == Fraction(2, 28)
    with pytest.raises(ValueError, match="unknown odds parameter"):
        game.odds({"colour": "red"})
    with pytest.raises(ValueError, match=r"--table: say where 5-1 goes"):
        game.odds({"table": "5-5,5-1"})
    with pytest.raises(ValueError, match=r"--table: 1-3 does not fit the left end"):
        game.odds({"table": "5-5,1-3@left"})
    with pytest.raises(ValueError, match=r"--seen: expected tiles like 5-3"):
        game.odds({"seen": "7-1"})


def test_every_view_key_event_and_option_is_documented():
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "games" / "all-fives.md").read_text(encoding="utf-8")
    game = get_game("all-fives")
    v = run(table(4, teams=True), NEW, P(5, 5))
    for key in set(v) - {"game", "events"}:
        assert f"`{key}`" in doc, key
    for name in game.events:
        assert f"| `{name}` |" in doc, name
    for option in game.options:
        assert f"| `{option.name}` |" in doc, option.name
