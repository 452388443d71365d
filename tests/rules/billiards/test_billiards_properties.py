"""OpenSpiel-style properties of the billiards engines: random legal playthroughs
keep the invariants, refused events change nothing, the journal round-trips
through JSON lines to the same state, undo returns to every prefix, and every
keypad button is an event the game knows."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Event, IllegalEvent, Session, get_game
from rules.events import check_fields
from rules.replay import replay_lines

GAMES = ("straight-pool", "snooker", "pyramid", "five-pins")

OPTIONS = {
    "straight-pool": [{}, {"target": 25, "third_foul_total": 15}],
    "snooker": [{"frames": 3}, {"frames": 2, "aggregate": True, "foul_min": 1}],
    "pyramid": [{"frames": 3}, {"variant": "combined", "foul_penalty": "return", "three_fouls_lose": True}],
    "five-pins": [{"set_points": 30, "sets": 3}, {"set_points": 20, "sets": 1, "type_a_extra_2": True}],
}


def candidates(game: str, rng: random.Random, state) -> dict:
    """A random event of the game (legal or not: the engine decides), biased to progress."""
    r = rng.random
    if game == "snooker" and state.phase == "play" and r() < 0.5:
        on = state.ball_on()
        if on == "colour":
            on = rng.choice(["yellow", "green", "brown", "blue", "pink", "black"])
        if on in ("red", "yellow", "green", "brown", "blue", "pink", "black"):
            return {"type": "pot", "ball": on}
    if game == "straight-pool" and r() < 0.3:
        return {"type": "pot", "balls": rng.randint(1, 14)}
    if game == "straight-pool":
        return rng.choice(
            [
                {"type": "pot", "balls": rng.choice([1, 1, 1, 2, 3, 14])},
                {"type": "call", "ball": rng.randint(1, 15), "pocket": "side_left"},
                {"type": "miss"},
                {"type": "safety"},
                {"type": "foul", "kind": rng.choice(["standard", "scratch", "intentional", "illegal_break", "rail"])},
                {"type": "choice", "option": rng.choice(["accept", "rerack"])},
                {"type": "concede", "player": "Ann"} if r() < 0.005 else {"type": "miss"},
            ]
        )
    if game == "snooker":
        balls = ["red", "yellow", "green", "brown", "blue", "pink", "black"]
        return rng.choice(
            [
                {"type": "pot", "ball": "red"},
                {"type": "pot", "ball": "red", "count": rng.randint(1, 3)},
                {"type": "pot", "ball": rng.choice(balls)},
                {"type": "pot", "ball": rng.choice(balls[1:]), "free": True},
                {"type": "miss"},
                {"type": "foul"},
                {"type": "foul", "ball": rng.choice(balls), "reds": rng.randint(0, 1)},
                {"type": "foul", "value": rng.randint(1, 7)},
                {"type": "choice", "option": rng.choice(["play", "put_back"]), "free_ball": r() < 0.3},
                {"type": "claim"},
                {"type": "concede", "player": rng.choice(["Ann", "Bob"])} if r() < 0.05 else {"type": "miss"},
                {"type": "draw_lots", "first": rng.choice(["Ann", "Bob"])},
                {"type": "next_frame"},
            ]
        )
    if game == "pyramid":
        return rng.choice(
            [
                {"type": "pot", "balls": rng.randint(0, 3), "cue": r() < 0.3},
                {"type": "pot"},
                {"type": "miss"},
                {"type": "foul"},
                {"type": "concede", "player": "Bob"} if r() < 0.03 else {"type": "miss"},
                {"type": "next_frame"},
            ]
        )
    kinds = ["pins_by_cue", "missed", "red_first", "off_table", "push", "wrong_ball"]
    return rng.choice(
        [
            {"type": "stroke", "side_pins": rng.randint(0, 4), "centre": r() < 0.3,
             "carom": rng.choice(["none", "carom", "ricochet"])},
            {"type": "stroke"},
            {"type": "foul", "kind": rng.sample(kinds, rng.randint(1, 2)), "side_pins": rng.randint(0, 2)},
            {"type": "foul", "kind": "missed"},
            {"type": "concede", "player": "Ann"} if r() < 0.03 else {"type": "stroke"},
            {"type": "next_set"},
        ]
    )


def invariants(game: str, s: Session) -> None:
    st_ = s.state
    v = s.view()
    json.dumps(v)
    assert {"game", "players", "turn", "winner", "events"} <= set(v)
    assert (v["winner"] is None) or v["turn"] is None
    if game == "straight-pool":
        assert 2 <= st_.on_table <= 15
        assert all(0 <= f <= 2 for f in st_.fouls)
        assert (st_.phase == "over") == (st_.winner is not None)
    elif game == "snooker":
        assert 0 <= st_.reds <= 15 and 2 <= st_.lowest <= 8
        assert v["points_remaining"] >= 0 and min(st_.scores) >= 0
        assert sum(st_.frames_won) <= len(st_.history)
    elif game == "pyramid":
        full = 16 if st_.variant == "free" else 15
        assert sum(st_.scores) + st_.on_table == full
        assert min(st_.scores) >= 0 and st_.on_table >= 0
    else:
        assert all(0 <= x <= st_.set_points for x in st_.scores)


def playthrough(game: str, options: dict, seed: int, steps: int = 250):
    rng = random.Random(seed)
    s = Session.start({"game": game, "players": ["Ann", "Bob"], "options": options})
    views = [s.view()]
    refused = 0
    for _ in range(steps):
        legal = get_game(game).legal_types(s.state)
        if not legal:
            break
        event = candidates(game, rng, s.state)
        before = (s.state, len(s.events))
        try:
            s.submit(event)
        except IllegalEvent as exc:
            refused += 1
            assert (s.state, len(s.events)) == before
            assert exc.reason and game in str(exc)
            continue
        assert event["type"] in legal, (event, legal)
        invariants(game, s)
        views.append(s.view())
    return s, views, refused


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("variant", [0, 1])
def test_random_playthroughs_round_trip_and_undo(game, variant):
    for seed in range(6):
        s, views, _ = playthrough(game, OPTIONS[game][variant], seed * 31 + variant)
        # serialise round trip: the journal as JSON lines replays to the same state
        lines = [json.dumps(s.header.to_dict())] + [json.dumps(e.to_dict()) for e in s.events]
        again = replay_lines(lines)
        assert again.state == s.state and again.view() == s.view()
        # undo to every prefix
        for expected in reversed(views[:-1]):
            s.submit({"type": "undo"})
            assert s.view() == expected


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), variant=st.integers(0, 1))
def test_hypothesis_playthroughs_keep_invariants(game, seed, variant):
    playthrough(game, OPTIONS[game][variant], seed, steps=120)


def test_games_reach_an_end():
    """Random play finishes matches (so the end-of-game paths are exercised)."""
    for game in GAMES:
        ended = 0
        for seed in range(8):
            s, _, _ = playthrough(game, OPTIONS[game][0], seed, steps=1500)
            ended += s.view()["winner"] is not None
        assert ended >= 4, game


@pytest.mark.parametrize("game", GAMES)
def test_keypad_buttons_are_known_events(game):
    g = get_game(game)
    assert g.keypad
    for button, event in g.keypad.items():
        check_fields(Event.from_dict(dict(event)), g.events, g.name)
        assert button.replace("_", "").isalnum()


@pytest.mark.parametrize("game", GAMES)
def test_catalogue_and_options(game):
    g = get_game(game)
    info = g.info()
    assert info["family"] == "billiards" and info["source"].startswith("001:")
    json.dumps(info)
    for opt in g.options:
        assert opt.help
