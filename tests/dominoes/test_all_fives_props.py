"""All Fives properties over random games played with real shuffled tiles
(OpenSpiel style): tile conservation after every event, serialise round trips,
undo to every prefix, proposals = exactly the legal placements, junk refused."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Event, IllegalEvent, MalformedEvent, Session
from rules.dominoes import ENDS, FULL_SET, proposals
from rules.replay import replay_lines

from .sim import check_accounts, check_conservation, new_table, play_game

SETUPS = [
    (["Ann", "Bob"], {}),
    (["Ann", "Bob", "Cat"], {}),
    (["Ann", "Bob", "Cat", "Dan"], {}),
    (["Ann", "Bob", "Cat", "Dan"], {"teams": True}),
    (["Ann", "Bob"], {"hand_size": 5, "double_closing": "four_sides"}),
    (["Ann", "Bob", "Cat"], {"hand_size": 7, "end_double_value": "half", "bonus_divide_by_5": False}),
    (["Ann", "Bob", "Cat", "Dan"], {"teams": True, "double_closing": "four_sides", "stop_tiles": 0}),
]

games = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from(SETUPS), st.sampled_from([50, 100, 250]))
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def played(seed: int, setup: tuple[list[str], dict[str, Any]], target: int, check: Any = None):
    players, options = setup
    table = new_table(seed, players, {**options, "target": target})
    return play_game(table, check=check)


@FAST
@given(games)
def test_random_playthroughs_conserve_tiles_and_end_at_the_target(game):
    seed, setup, target = game
    scores_seen: list[list[int]] = []

    def check(table):
        check_conservation(table)
        v = table.session.view()
        json.dumps(v)
        scores_seen.append([p["score"] for p in v["players"]])
        last = v["layout"][-1] if v["layout"] else None
        if last is not None and table.events[-1]["type"] == "play":
            assert last["points"] in (0, v["ends_sum"]) and last["points"] % 5 == 0

    table = played(seed, setup, target, check)
    v = table.session.view()
    assert v["phase"] == "over" and v["winner"] is not None
    winners = [s for s in (v["teams"] or v["players"]) if s["score"] >= target]
    assert [w["name"] for w in winners] == [v["winner"]]  # the first to reach it, at once
    for before, after in zip(scores_seen, scores_seen[1:]):
        assert all(b <= a for b, a in zip(before, after))


@FAST
@given(games)
def test_serialise_round_trip_and_undo_to_every_prefix(game):
    seed, setup, target = game
    table = played(seed, setup, target)
    session = table.session
    # events survive to_dict / JSON / from_dict, and a replay gives the same states
    header = json.dumps(session.header.to_dict())
    lines = [header] + [json.dumps(e.to_dict()) for e in session.events]
    for e in session.events:
        assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e
    again = replay_lines(lines)
    assert again.states == session.states
    assert again.view() == session.view()
    # undo walks back through every prefix
    views = [session.game.view(s, 0.0) for s in session.states]
    for expected in reversed(views[:-1]):
        session.submit({"type": "undo"})
        got = session.view(0.0)
        del got["game"], got["events"]
        assert got == expected
    assert session.events == []


def junk(rng: random.Random, players: list[str]) -> dict[str, Any]:
    kind = rng.choice(["play", "play", "play", "draw", "pass", "fish", "count", "new_hand", "bogus"])
    tile = list(rng.choice(FULL_SET)) if rng.random() < 0.9 else [rng.randint(-1, 8), 3]
    if kind == "play":
        e: dict[str, Any] = {"type": "play", "tile": tile}
        if rng.random() < 0.8:
            e["end"] = rng.choice(ENDS + ("north",))
        return e
    if kind == "draw":
        return rng.choice([{"type": "draw", "count": rng.randint(0, 30)}, {"type": "draw", "tile": tile}])
    if kind == "count":
        return {"type": "count", "pips": [rng.randint(0, 60) for _ in range(rng.choice([len(players), 3]))]}
    if kind == "new_hand":
        return {"type": "new_hand", "leader": rng.choice(players + ["Zed"])}
    if kind == "bogus":
        return {"type": "play", "tile": tile, "colour": "red"}
    return {"type": kind, "player": rng.choice(players)} if kind == "pass" and rng.random() < 0.5 else {"type": kind}


@FAST
@given(games)
def test_junk_events_are_refused_cleanly_or_keep_the_accounts(game):
    seed, setup, target = game
    rng = random.Random(seed)
    players = setup[0]

    def check(table):
        session: Session = table.session
        for _ in range(3):
            e = junk(rng, players)
            before = session.view()
            try:
                _, state = session.check(e)
            except (IllegalEvent, MalformedEvent) as exc:
                assert str(exc)
                assert session.view() == before
                continue
            check_accounts(state)  # accepted junk (a tile the engine cannot rule out) still adds up

    played(seed, setup, target, check)


@FAST
@given(games)
def test_proposals_are_exactly_the_legal_placements(game):
    seed, setup, target = game
    rng = random.Random(seed ^ 0x5EED)

    def check(table):
        session: Session = table.session
        if session.state.phase != "play" or rng.random() < 0.7:
            return
        for tile in FULL_SET:
            proposed = {e.get("end") for e in proposals(session.state, tile)}
            accepted = set()
            for end in ENDS + (None,):
                e: dict[str, Any] = {"type": "play", "tile": list(tile)}
                if end is not None:
                    e["end"] = end
                try:
                    session.check(e)
                except IllegalEvent:
                    continue
                accepted.add(end)
            if session.state.layout.empty:
                assert proposed == {None} and accepted == {None, "left", "right"} or proposed == accepted == set()
            else:
                assert accepted - {None} == proposed
                assert (None in accepted) == (len(proposed) == 1)

    played(seed, setup, target, check)
