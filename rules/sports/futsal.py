"""Futsal timekeeper and foul board (FIFA Futsal Laws, 000:111-1155 / 001:233-757), and
the older FIFA mini-football rules (003:1-59).

Two halves of 20 minutes of stopped time; the timekeeper starts and stops the clock;
the clock stops by itself at the end of a half (``period_end`` injected at the exact
instant) and the horn sounds. Half-time counts down 15 minutes. One 1-minute time-out
per team and half (none in extra time), 2-minute send-off timers on playing time (four
at once, ended early by a goal of the side with more players, Law 12), accumulated
fouls per team and half with the 5th signalled and every foul from the 6th flagged as
a 10 m kick (the 2nd half's fouls carry into extra time), extra time 2 x 5 min and
kicks from the 6 m mark, the 4-second count on the shot clock, and the match report.

>>> from rules import Session
>>> s = Session.start({"game": "futsal", "players": ["Home", "Away"]})
>>> _ = s.submit({"type": "clock_start", "t": 0})
>>> _ = s.submit({"type": "clock_stop", "t": 75.5})
>>> s.view(80.0)["clock"]
'01:15'
"""

from __future__ import annotations

from typing import Any, Mapping

from ..game import Option
from .match import (
    CARD_EVENTS,
    CLOCK_EVENTS,
    FUTSAL_EVENTS,
    GOAL_EVENTS,
    KICK_EVENTS,
    TIMEKEEPER_KEYPAD,
    FieldSport,
    Rules,
    merged,
)

FUTSAL_OPTIONS: tuple[Option, ...] = (
    Option("half_minutes", 20, "length of a half, minutes of stopped time", lo=1, hi=45),
    Option("halftime_minutes", 15, "half-time break countdown, minutes (the Laws: at most 15)", lo=0, hi=30),
    Option("count", "up", "the match clock counts up or down", choices=("up", "down")),
    Option("tenths_last_minute", True, "show the time left in tenths of a second in the last minute"),
    Option("timeouts_per_half", 1, "time-outs per team and half (not carried over; none in extra time)", lo=0, hi=3),
    Option("timeout_seconds", 60, "length of a time-out, seconds", lo=10, hi=180),
    Option("sendoff_seconds", 120, "a send-off's penalty, seconds of playing time (0: no timer)", lo=0, hi=600),
    Option("free_fouls", 5, "accumulated fouls per half before every further foul gives a 10 m kick (0: none)",
           lo=0, hi=20),
    Option("four_seconds", 4, "length of the restart / goalkeeper count, seconds", lo=1, hi=30),
    Option("extra_time", False, "a drawn match goes to extra time (competition rules)"),
    Option("et_half_minutes", 5, "length of a half of extra time, minutes", lo=1, hi=20),
    Option("kicks_from_mark", False, "a drawn match (after extra time, if any) goes to kicks from the 6 m mark"),
    Option("kicks_each", 5, "kicks each before sudden death", lo=1, hi=10),
)


def futsal_rules(options: Mapping[str, Any]) -> Rules:
    return Rules(
        half_seconds=options["half_minutes"] * 60.0,
        break_seconds=options["halftime_minutes"] * 60.0 or None,
        count_down=options["count"] == "down",
        tenths_last_minute=options["tenths_last_minute"],
        auto_end=True,
        timeouts_per_half=options["timeouts_per_half"],
        timeout_seconds=float(options["timeout_seconds"]),
        sendoff_seconds=float(options["sendoff_seconds"]),
        full_strength=5,
        min_players=3,
        count_fouls=True,
        free_fouls=options["free_fouls"],
        shot_seconds=float(options["four_seconds"]),
        extra_time=options["extra_time"],
        et_seconds=options["et_half_minutes"] * 60.0,
        et_break_seconds=None,  # the Laws give no break before extra time
        kicks=options["kicks_from_mark"],
        kicks_each=options["kicks_each"],
        max_substitutions=None,  # unlimited flying substitutions, players may return
    )


class Futsal(FieldSport):
    name = "futsal"
    title = "Futsal"
    native = "Футзал (міні-футбол)"
    source = "000:111-1155"
    options = FUTSAL_OPTIONS
    events = merged(CLOCK_EVENTS, GOAL_EVENTS, CARD_EVENTS, KICK_EVENTS, FUTSAL_EVENTS)
    keypad = TIMEKEEPER_KEYPAD

    def make_rules(self, options: Mapping[str, Any]) -> Rules:
        return futsal_rules(options)


class MiniFootball(Futsal):
    """The older FIFA mini-football rules (003): pitch, ball and players only.

    Everything else is the futsal clock (RULES.md §5.2). The older rules have no
    second penalty mark, so by default fouls are counted without 10 m kicks
    (``free_fouls`` 0); the abandonment threshold (fewer than two outfield players)
    is the same three players as futsal's.
    """

    name = "mini-football"
    title = "Mini-football (older FIFA rules)"
    native = "Міні-футбол"
    source = "003:1-59"
    options = tuple(
        Option(o.name, 0, o.help, lo=o.lo, hi=o.hi) if o.name == "free_fouls" else o for o in FUTSAL_OPTIONS
    )


GAMES = (Futsal(), MiniFootball())
