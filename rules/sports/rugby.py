"""Mini-rugby (000:1157-1197): rugby-5 (2 x 10 min, 5-minute break) and rugby-7
(2 x 15 min, 10-minute break) on the same clock engine.

The text gives no scoring values, so ``score`` takes the points the teams agreed
(RULES.md §5.4). [REC] The clock stops by itself at the end of a half and the horn
sounds, as for futsal; the rugby-7 referee is his own timekeeper and may stop it.

>>> from rules import Session
>>> s = Session.start({"game": "rugby-7", "players": ["Lions", "Bears"]})
>>> _ = s.submit({"type": "clock_start", "t": 0})
>>> _ = s.submit({"type": "score", "team": "home", "points": 5, "t": 60})
>>> [s.submit(e) and e.type for e in s.due_events(900.0)]
['period_end']
>>> s.view(900.0)["period"], s.view(900.0)["home"]["score"]
('half-time', 5)
"""

from __future__ import annotations

from typing import Any, Mapping

from ..game import Option
from .match import CLOCK_EVENTS, SCORE_EVENTS, FieldSport, Rules, merged


class Rugby(FieldSport):
    squad = 5
    events = merged(CLOCK_EVENTS, SCORE_EVENTS)
    keypad = {
        "start_stop": {"type": "clock_toggle"},
        "next_period": {"type": "next_period"},
        "horn": {"type": "horn"},
        "undo": {"type": "undo"},
    }

    def make_rules(self, options: Mapping[str, Any]) -> Rules:
        return Rules(
            half_seconds=options["half_minutes"] * 60.0,
            break_seconds=options["break_minutes"] * 60.0 or None,
            count_down=options["count"] == "down",
            full_strength=self.squad,
            scores_points=True,
        )


class Rugby5(Rugby):
    name = "rugby-5"
    title = "Rugby-5"
    native = "Регбі-5"
    source = "000:1176-1177"
    options = (
        Option("half_minutes", 10, "length of a half, minutes", lo=1, hi=40),
        Option("break_minutes", 5, "break between the halves, minutes", lo=0, hi=15),
        Option("count", "up", "the clock counts up or down", choices=("up", "down")),
    )


class Rugby7(Rugby):
    name = "rugby-7"
    title = "Rugby-7"
    native = "Регбі-7"
    source = "000:1176-1177"
    squad = 7
    options = (
        Option("half_minutes", 15, "length of a half, minutes", lo=1, hi=40),
        Option("break_minutes", 10, "break between the halves, minutes", lo=0, hi=15),
        Option("count", "up", "the clock counts up or down", choices=("up", "down")),
    )


GAMES = (Rugby5(), Rugby7())
