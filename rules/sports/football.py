"""Football (Laws of the Game, 001:787-1095): the same clock engine, other parameters.

Two halves of 45 minutes of running time and a 15-minute half-time; the referee ends
a half (``period_end``, refused before the nominal length) after the added time he
announces (``added_time``, whole minutes); substitutions (3 by default, a substituted
player may not return), cautions and sendings-off (a second caution sends off; the
team plays on one short). If the competition requires a winner: extra time 2 x 15
with a 5-minute break before it and none between its halves, then kicks from the
penalty mark (5 each, then one each).

>>> from rules import Session
>>> s = Session.start({"game": "football", "players": ["Dynamo", "Shakhtar"]})
>>> _ = s.submit({"type": "clock_start", "t": 0})
>>> _ = s.submit({"type": "added_time", "minutes": 2, "t": 2700})
>>> v = s.view(2760.0); v["clock"], v["added_time"]
('46:00', '+2')
"""

from __future__ import annotations

from typing import Any, Mapping

from ..game import Option
from .match import (
    CARD_EVENTS,
    CLOCK_EVENTS,
    FOOTBALL_EVENTS,
    GOAL_EVENTS,
    KICK_EVENTS,
    FieldSport,
    Rules,
    merged,
)


class Football(FieldSport):
    name = "football"
    title = "Football"
    native = "Футбол"
    source = "001:911-947"
    options = (
        Option("half_minutes", 45, "length of a half, minutes (changed only by agreement before the match)",
               lo=1, hi=45),
        Option("halftime_minutes", 15, "half-time, minutes (at most 15)", lo=0, hi=15),
        Option("max_substitutions", 3, "substitutions per team (FIFA matches 3; by agreement more)", lo=0, hi=12),
        Option("extra_time", False, "a drawn match goes to extra time (competition rules)"),
        Option("et_half_minutes", 15, "length of a half of extra time, minutes", lo=1, hi=15),
        Option("et_break_minutes", 5, "break before extra time, minutes", lo=0, hi=15),
        Option("kicks_from_mark", False, "a drawn match goes to kicks from the penalty mark"),
        Option("kicks_each", 5, "kicks each before sudden death", lo=1, hi=10),
    )
    events = merged(CLOCK_EVENTS, GOAL_EVENTS, CARD_EVENTS, KICK_EVENTS, FOOTBALL_EVENTS)
    keypad = {
        "start_stop": {"type": "clock_toggle"},
        "next_period": {"type": "next_period"},
        "goal_home": {"type": "goal", "team": "home"},
        "goal_away": {"type": "goal", "team": "away"},
        "send_off_home": {"type": "send_off", "team": "home"},
        "send_off_away": {"type": "send_off", "team": "away"},
        "horn": {"type": "horn"},
        "undo": {"type": "undo"},
    }

    def make_rules(self, options: Mapping[str, Any]) -> Rules:
        return Rules(
            half_seconds=options["half_minutes"] * 60.0,
            break_seconds=options["halftime_minutes"] * 60.0 or None,
            auto_end=False,  # running time; the referee ends the half after the added time
            full_strength=11,
            min_players=7,  # "usually 7" (set by the competition)
            extra_time=options["extra_time"],
            et_seconds=options["et_half_minutes"] * 60.0,
            et_break_seconds=options["et_break_minutes"] * 60.0 or None,
            kicks=options["kicks_from_mark"],
            kicks_each=options["kicks_each"],
            max_substitutions=options["max_substitutions"],
        )


GAMES = (Football(),)
