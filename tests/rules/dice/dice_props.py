"""OpenSpiel-style property checks shared by the dice-game tests.

A random playthrough samples the game's own chance outcomes (exact probabilities)
and its players' decisions until the game is over, checking on the way that the
chances of every chance node sum to 1 and that every listed outcome and decision
is accepted; then the journal must survive a JSON round trip, replay to the same
view, and undo back to every prefix must give the views seen on the way.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import pytest

from rules import Event, IllegalEvent, MalformedEvent, Session
from rules.replay import replay_lines


def sample_chance(rng: random.Random, outcomes):
    """One outcome of a chance node, drawn by its exact probability."""
    x = Fraction(rng.randrange(10**9), 10**9)
    acc = Fraction(0)
    for event, p in outcomes:
        acc += p
        if x < acc:
            return event
    return outcomes[-1][0]


def playthrough(header: dict[str, Any], seed: int, max_steps: int = 4000, check_all: bool = True):
    rng = random.Random(seed)
    s = Session.start(header)
    game = s.game
    views = [s.view()]
    for _ in range(max_steps):
        state = s.state
        if game.is_over(state):
            break
        chance = game.chance_outcomes(state)
        decisions = game.decisions(state)
        assert chance or decisions, f"stuck: {game.describe(state)}"
        if chance:
            assert sum(p for _, p in chance) == 1
            assert all(p > 0 for _, p in chance)
            assert len({json.dumps(e, sort_keys=True) for e, _ in chance}) == len(chance)
        if check_all:
            for e in [e for e, _ in chance] + decisions:
                game.apply(state, Event.from_dict(e))  # every listed event is legal
        if chance and (not decisions or rng.random() < 0.6):
            event = sample_chance(rng, chance)
        else:
            event = rng.choice(decisions)
        s.submit(event)
        views.append(s.view())
    else:
        pytest.fail(f"no end after {max_steps} events: {game.describe(s.state)}")
    assert not game.chance_outcomes(s.state) and not game.decisions(s.state)
    return s, views


def check_properties(header: dict[str, Any], seeds=range(5), max_steps: int = 4000) -> list[Session]:
    sessions = []
    for seed in seeds:
        s, views = playthrough(header, seed, max_steps, check_all=seed < 2)
        final = s.view()
        json.loads(json.dumps(final))
        assert final["over"] is True
        # a finished game refuses further throws
        with pytest.raises((IllegalEvent, MalformedEvent)):
            s.submit({"type": "roll", "dice": [1]})
        # serialise round trip: events and the whole journal
        for e in s.events:
            assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e
        lines = [json.dumps(s.header.to_dict())] + [json.dumps(e.to_dict()) for e in s.events]
        assert replay_lines(lines).view() == final
        # undo back to every prefix
        for expected in reversed(views[:-1]):
            s.submit({"type": "undo"})
            assert s.view() == expected
        sessions.append(s)
    return sessions
