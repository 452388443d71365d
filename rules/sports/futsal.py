"""Futsal match clock (FIFA Futsal Laws, 000:111-1155 / 001:233-757).

Two halves of stopped time (20 minutes by default); the timekeeper starts and
stops the clock; the clock stops by itself at the end of a half (a ``period_end``
injected by the timer at the exact instant) and the horn sounds. Goals and
accumulated fouls per team and half.

>>> from rules import Session
>>> s = Session.start({"game": "futsal", "players": ["Home", "Away"]})
>>> _ = s.submit({"type": "clock_start", "t": 0})
>>> _ = s.submit({"type": "clock_stop", "t": 75.5})
>>> s.view(80.0)["clock"]
'01:15'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from ..clock import Clock, fmt_clock, fmt_countdown
from ..events import Event, Opt, integer, text
from ..game import Game, Option

TEAMS = ("home", "away")
PERIODS = ("1st half", "half-time", "2nd half", "full time")


@dataclass(frozen=True)
class Team:
    name: str
    score: int = 0
    fouls: int = 0


@dataclass(frozen=True)
class FutsalState:
    home: Team
    away: Team
    clock: Clock
    period: int = 0  # index into PERIODS
    horn_until: float | None = None  # the horn sounds until this time
    half_seconds: float = 1200.0
    count_down: bool = False
    tenths_last_minute: bool = True

    def team(self, side: str) -> Team:
        return self.home if side == "home" else self.away


class Futsal(Game[FutsalState]):
    name = "futsal"
    title = "Futsal"
    native = "Футзал"
    family = "sports"
    source = "000:111-1155"
    min_players = 2
    max_players = 2
    options = (
        Option("half_minutes", 20, "length of a half, minutes of stopped time", lo=1, hi=45),
        Option("count", "up", "the match clock counts up or down", choices=("up", "down")),
        Option("tenths_last_minute", True, "show tenths of a second in the last minute"),
    )
    events = {
        "clock_start": {},
        "clock_stop": {},
        "clock_toggle": {},
        "period_end": {},
        "next_period": {},
        "goal": {"team": text(choices=TEAMS), "player": Opt(integer(0, 99))},
        "foul": {"team": text(choices=TEAMS), "player": Opt(integer(0, 99))},
        "horn": {},
    }
    keypad = {
        "start_stop": {"type": "clock_toggle"},
        "goal_home": {"type": "goal", "team": "home"},
        "goal_away": {"type": "goal", "team": "away"},
        "foul_home": {"type": "foul", "team": "home"},
        "foul_away": {"type": "foul", "team": "away"},
        "next_period": {"type": "next_period"},
        "horn": {"type": "horn"},
    }
    HORN_SECONDS = 2.0

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> FutsalState:
        home, away = self.check_players(players)
        half = options["half_minutes"] * 60.0
        return FutsalState(
            Team(home),
            Team(away),
            Clock(limit=half),
            half_seconds=half,
            count_down=options["count"] == "down",
            tenths_last_minute=options["tenths_last_minute"],
        )

    def describe(self, state: FutsalState) -> str:
        return f"{PERIODS[state.period]}, {state.home.score}-{state.away.score}"

    def _now(self, event: Event, state: FutsalState) -> float:
        if event.t is None:
            raise self.illegal(event, state, "a clock event needs its time 't'")
        return event.t

    def _apply(self, state: FutsalState, event: Event) -> FutsalState:
        kind = event.type
        if kind == "clock_toggle":
            kind = "clock_stop" if state.clock.running else "clock_start"
        if kind == "clock_start":
            now = self._now(event, state)
            if state.period not in (0, 2):
                raise self.illegal(event, state, f"the clock does not run during {PERIODS[state.period]}")
            if state.clock.expired(now):
                raise self.illegal(event, state, "the half is over; call next_period")
            if state.clock.running:
                raise self.illegal(event, state, "the clock is already running")
            return replace(state, clock=state.clock.start(now))
        if kind == "clock_stop":
            now = self._now(event, state)
            if not state.clock.running:
                raise self.illegal(event, state, "the clock is not running")
            return replace(state, clock=state.clock.stop(now))
        if kind == "period_end":
            now = self._now(event, state)
            if not state.clock.expired(now) or state.period not in (0, 2):
                raise self.illegal(event, state, "the half has not reached its end")
            end = state.clock.expires_at() or now
            return replace(
                state,
                clock=state.clock.stop(end),
                period=state.period + 1,
                horn_until=end + self.HORN_SECONDS,
            )
        if kind == "next_period":
            if state.period != 1:
                raise self.illegal(event, state, "next_period starts the 2nd half after half-time")
            return replace(state, period=2, clock=Clock(limit=state.half_seconds), home=replace(state.home, fouls=0), away=replace(state.away, fouls=0))
        if kind == "horn":
            now = self._now(event, state)
            return replace(state, horn_until=now + self.HORN_SECONDS)
        side = event["team"]
        team = state.team(side)
        if state.period not in (0, 2):
            raise self.illegal(event, state, f"no {kind} during {PERIODS[state.period]}")
        if kind == "goal":
            team = replace(team, score=team.score + 1)
        else:
            team = replace(team, fouls=team.fouls + 1)
        return replace(state, home=team) if side == "home" else replace(state, away=team)

    def due_events(self, state: FutsalState, now: float) -> tuple[Event, ...]:
        if state.clock.running and state.clock.expired(now):
            return (Event("period_end", {}, t=state.clock.expires_at()),)
        return ()

    def on_restart(self, state: FutsalState, t: float) -> tuple[Event, ...]:
        # a running clock comes back stopped at its last journalled value
        if state.clock.running:
            return (Event("clock_stop", {}, t=t, source="restore"),)
        return ()

    def view(self, state: FutsalState, now: float) -> dict[str, Any]:
        elapsed = state.clock.elapsed(now)
        left = state.half_seconds - elapsed
        tenths = state.tenths_last_minute and left < 60.0 and state.period in (0, 2)
        if tenths:  # "SS.t": the last minute shows what is left, in tenths
            shown = fmt_countdown(left, True)
        else:
            shown = fmt_countdown(left) if state.count_down else fmt_clock(elapsed)
        return {
            "players": [state.home.name, state.away.name],
            "turn": None,
            "clock": shown,
            "clock_seconds": round(elapsed, 3),
            "clock_running": state.clock.running and not state.clock.expired(now),
            "period": PERIODS[state.period],
            "home": self._team_view(state.home),
            "away": self._team_view(state.away),
            "horn": state.horn_until is not None and now < state.horn_until,
            "winner": self._winner(state),
        }

    @staticmethod
    def _team_view(team: Team) -> dict[str, Any]:
        return {"name": team.name, "score": team.score, "fouls": team.fouls}

    @staticmethod
    def _winner(state: FutsalState) -> str | None:
        if state.period != 3 or state.home.score == state.away.score:
            return None
        return state.home.name if state.home.score > state.away.score else state.away.name


GAMES = (Futsal(),)
