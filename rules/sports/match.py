"""The clock engine shared by the field sports: periods, breaks, timers, the table's records.

One engine, different parameters (:class:`Rules`): futsal (stopped time, time-outs,
2-minute send-offs, accumulated fouls), football (running time, added time,
substitutions), mini-football and rugby-5/7 (periods and breaks only). Every clock is
computed from timestamps (:class:`rules.clock.Clock`); time comes in with each
event's ``t`` and with ``view(state, now)``.

Timers that run out (a period, a time-out, a break, a 4-second count) become events
injected by :meth:`FieldSport.due_events` at the exact instant. An event that arrives
later than a timer's end first settles that timer at its exact end (so a replay file
that omits ``period_end`` gives the same result as one that has it).

Send-off penalties run on *playing time*: a penalty stores the match's cumulative
running time at the send-off, so it runs only while the match clock runs, carries
over half-time, and moves with an operator's clock edit.

>>> from rules import Session
>>> s = Session.start({"game": "futsal", "players": ["Lviv", "Kyiv"]})
>>> for e in ({"type": "clock_start", "t": 0}, {"type": "send_off", "team": "away", "player": 4, "t": 30},
...           {"type": "clock_stop", "t": 50}):
...     _ = s.submit(e)
>>> s.view(999.0)["away"]["penalties"]
[100]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, Sequence

from ..clock import Clock, fmt_clock, fmt_countdown
from ..events import Event, Opt, boolean, integer, number, text
from ..game import Game

TEAMS = ("home", "away")
PLAY, BREAK, END, KICKS = "play", "break", "end", "kicks"
REGULAR, EXTRA, SHOOTOUT = "regular", "extra", "kicks"

# How long the view reports the horn for each pattern (seconds). The relay's on/off
# sequences live in firmware_bridge/horn.py and must add up to these (a test checks).
HORN_PATTERNS: Mapping[str, float] = {
    "period_end": 2.0,  # one long blast
    "timeout_end": 1.5,  # two blasts
    "break_end": 2.5,  # two long blasts
    "four_seconds": 1.25,  # three short beeps
    "manual": 1.0,  # one blast while the operator asks
}
SIGNAL_SECONDS = 5.0  # how long a foul signal (5th foul, 10 m kick) stays in the view
SHOT_ZERO_SECONDS = 3.0  # how long the shot clock shows 0 after its count ends

TEAM_FIELD = text(choices=TEAMS)
PLAYER = integer(0, 99)
REASON = text(max_len=40)


@dataclass(frozen=True)
class Phase:
    """One part of a match: a period of play, a break, the end of a stage, the kicks."""

    name: str
    kind: str  # play | break | end | kicks
    stage: str  # regular | extra | kicks
    seconds: float | None = None  # play: length; break/end: countdown (None: none)


@dataclass(frozen=True)
class Rules:
    """The parameters that make the engine one sport or another."""

    half_seconds: float
    break_seconds: float | None  # half-time countdown
    count_down: bool = False
    tenths_last_minute: bool = False
    auto_end: bool = True  # the clock stops by itself at the end of a period (stopped time)
    timeouts_per_half: int = 0
    timeout_seconds: float = 60.0
    sendoff_seconds: float = 0.0  # 0: a send-off is permanent (no timer, no replacement)
    full_strength: int = 5
    min_players: int = 0  # the match is abandoned below this many on the pitch
    count_fouls: bool = False
    free_fouls: int = 0  # the (free_fouls+1)th foul of a half and later give a 10 m kick; 0: none
    shot_seconds: float = 4.0
    extra_time: bool = False
    et_seconds: float = 300.0
    et_break_seconds: float | None = None  # break before extra time (countdown)
    kicks: bool = False
    kicks_each: int = 5
    max_substitutions: int | None = None  # None: unlimited, players may return
    scores_points: bool = False  # rugby: scores carry points


@dataclass(frozen=True)
class Side:
    name: str
    score: int = 0
    fouls: int = 0  # accumulated fouls of this half (the 2nd half's carry into extra time)
    timeouts_used: int = 0  # in the current half
    kicks: tuple[bool, ...] = ()  # kicks from the mark, in order
    yellow: tuple[int, ...] = ()  # cautioned player numbers
    yellow_cards: int = 0
    red_cards: int = 0
    permanent_out: int = 0  # send-offs without a timer (football): players the team is short
    substitutions: int = 0
    subbed_off: tuple[int, ...] = ()


@dataclass(frozen=True)
class Penalty:
    """A 2-minute send-off timer on playing time (seconds of match running time)."""

    team: str
    player: int | None
    start: float  # cumulative playing time at the send-off
    ended: float | None = None  # playing time at which it ended, if settled
    ended_by: str | None = None  # "expired" | "goal"

    def remaining(self, played: float, seconds: float) -> float:
        if self.ended is not None:
            return 0.0
        return min(seconds, max(0.0, seconds - (played - self.start)))


@dataclass(frozen=True)
class Record:
    """One line of the match report (what the timekeeper and third referee write down)."""

    kind: str
    t: float
    period: str
    clock: float  # running time of the period when it happened
    team: str | None = None
    player: int | None = None
    info: tuple[tuple[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "t": self.t, "period": self.period, "clock": fmt_clock(self.clock)}
        out["clock_seconds"] = round(self.clock, 3)
        if self.team is not None:
            out["team"] = self.team
        if self.player is not None:
            out["player"] = self.player
        out.update(dict(self.info))
        return out


@dataclass(frozen=True)
class Log:
    """The report's records as a persistent list: appending shares the older records, so
    keeping the state after every event (for undo) costs one node per record."""

    record: Record
    prev: "Log | None" = None

    def to_tuple(self) -> tuple[Record, ...]:
        out: list[Record] = []
        node: Log | None = self
        while node is not None:
            out.append(node.record)
            node = node.prev
        return tuple(reversed(out))


@dataclass(frozen=True)
class MatchState:
    home: Side
    away: Side
    rules: Rules
    phases: tuple[Phase, ...]
    clock: Clock
    phase: int = 0
    played_before: float = 0.0  # running time of the periods before the current clock
    break_since: float | None = None  # wall time the current break countdown started
    timeout_team: str | None = None
    timeout: Clock | None = None
    shot: Clock | None = None
    horn_pattern: str | None = None
    horn_at: float | None = None
    horn_count: int = 0
    signal: tuple[str, str, float] | None = None  # (what, team, t)
    penalties: tuple[Penalty, ...] = ()
    log: Log | None = None
    kicks_first: str | None = None  # the team that kicked first from the mark
    shot_end: float | None = None  # when the last 4-second count ran out
    last_t: float = 0.0
    added_minutes: int = 0
    abandoned: bool = False

    def evolve(self, **changes: Any) -> "MatchState":
        """``dataclasses.replace`` without re-running ``__init__`` (the state is copied on every event)."""
        new = object.__new__(MatchState)
        new.__dict__.update(self.__dict__)
        for key in changes:
            if key not in self.__dict__:
                raise TypeError(f"MatchState has no field {key!r}")
        new.__dict__.update(changes)
        return new

    def side(self, team: str) -> Side:
        return self.home if team == "home" else self.away

    def with_side(self, team: str, side: Side) -> "MatchState":
        return self.evolve(home=side) if team == "home" else self.evolve(away=side)

    @property
    def records(self) -> tuple[Record, ...]:
        """Every record of the match report, oldest first."""
        return () if self.log is None else self.log.to_tuple()

    @property
    def current(self) -> Phase:
        return self.phases[self.phase]

    def played(self, now: float) -> float:
        """Cumulative running time of the match clock at ``now``."""
        return self.played_before + self.clock.elapsed(now)


def build_phases(rules: Rules) -> tuple[Phase, ...]:
    half, et = rules.half_seconds, rules.et_seconds
    return (
        Phase("1st half", PLAY, REGULAR, half),
        Phase("half-time", BREAK, REGULAR, rules.break_seconds),
        Phase("2nd half", PLAY, REGULAR, half),
        Phase("full time", END, REGULAR, rules.et_break_seconds),
        Phase("extra time 1st half", PLAY, EXTRA, et),
        Phase("extra time interval", BREAK, EXTRA, None),
        Phase("extra time 2nd half", PLAY, EXTRA, et),
        Phase("end of extra time", END, EXTRA, None),
        Phase("kicks from the mark", KICKS, SHOOTOUT, None),
    )


def kicks_outcome(first: tuple[bool, ...], second: tuple[bool, ...], each: int) -> int | None:
    """Who has won a kicks series: 0 (the first team), 1 (the second) or None (not yet).

    ``first``/``second`` are the kicks of the team that kicks first and of the other.
    The series stops early when one side cannot be caught in its ``each`` kicks;
    after that, sudden death in pairs.

    >>> kicks_outcome((True, True, True), (False, False, False), 5)  # 3-0, B can reach 2 at most
    0
    >>> kicks_outcome((True, True, True), (False, False), 5) is None  # B still has three kicks
    True
    >>> kicks_outcome((True,) * 5 + (True,), (True,) * 5 + (False,), 5)
    0
    """
    a, b = sum(first), sum(second)
    na, nb = len(first), len(second)
    if na <= each and nb <= each:
        if a > b + (each - nb):
            return 0
        if b > a + (each - na):
            return 1
        return None
    if na == nb and a != b:
        return 0 if a > b else 1
    return None


class FieldSport(Game[MatchState]):
    """A match clock with the table's records; subclasses set ``make_rules`` and the schema."""

    family = "sports"
    min_players = 2
    max_players = 2

    # --- set-up -------------------------------------------------------------------

    def make_rules(self, options: Mapping[str, Any]) -> Rules:
        raise NotImplementedError

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> MatchState:
        home, away = self.check_players(players)
        rules = self.make_rules(options)
        phases = build_phases(rules)
        return MatchState(Side(home), Side(away), rules, phases, Clock(limit=self._limit(rules, phases[0])))

    @staticmethod
    def _limit(rules: Rules, phase: Phase) -> float | None:
        return phase.seconds if rules.auto_end and phase.kind == PLAY else None

    def describe(self, state: MatchState) -> str:
        return f"{state.current.name}, {state.home.score}-{state.away.score}"

    # --- events -------------------------------------------------------------------

    def _apply(self, state: MatchState, event: Event) -> MatchState:
        t = event.t if event.t is not None else state.last_t
        state = self._advance(state, t, skip=event.type)
        kind = event.type
        if kind == "clock_toggle":
            kind = "clock_stop" if state.clock.running else "clock_start"
        handler: Callable[[MatchState, Event, float], MatchState] = getattr(self, f"_on_{kind}")
        new = handler(state, event, t)
        return new.evolve(last_t=max(new.last_t, t))

    def _timers(self, state: MatchState) -> list[tuple[float, str]]:
        """Timers that will end by themselves: (instant, the type of the event that ends them)."""
        out: list[tuple[float, str]] = []
        ph = state.current
        clock = state.clock
        if ph.kind == PLAY and clock.limit is not None and state.rules.auto_end:
            if clock.running:
                out.append((clock.expires_at() or 0.0, "period_end"))
            elif clock.expired(state.last_t):  # an operator set the clock to the end
                out.append((state.last_t, "period_end"))
        if state.timeout is not None and state.timeout.running:
            out.append((state.timeout.expires_at() or 0.0, "timeout_end"))
        if state.shot is not None and state.shot.running:
            out.append((state.shot.expires_at() or 0.0, "four_seconds_end"))
        if state.break_since is not None and ph.seconds is not None and ph.kind in (BREAK, END):
            out.append((state.break_since + ph.seconds, "break_end"))
        out.sort()
        return out

    def _advance(self, state: MatchState, t: float, skip: str = "") -> MatchState:
        """Settle every timer that ran out strictly before ``t`` (except ``skip``'s own)."""
        for _ in range(16):
            due = [(at, kind) for at, kind in self._timers(state) if at < t and kind != skip]
            if not due:
                break
            at, kind = due[0]
            state = getattr(self, f"_on_{kind}")(state, Event(kind, {}, at), at)
        return state

    def due_events(self, state: MatchState, now: float) -> tuple[Event, ...]:
        return tuple(Event(kind, {}, at) for at, kind in self._timers(state) if at <= now)

    def on_restart(self, state: MatchState, t: float) -> tuple[Event, ...]:
        # A running clock comes back stopped at the last journalled time, never advanced.
        due = self.due_events(state, t)
        if state.clock.running and all(e.type != "period_end" for e in due):
            due += (Event("clock_stop", {"reason": "restart"}, t=t, source="restore"),)
        return due

    # --- helpers ------------------------------------------------------------------

    def _record(self, state: MatchState, kind: str, t: float, team: str | None = None,
                player: int | None = None, period: str | None = None, **info: Any) -> MatchState:
        period = period or state.current.name
        clock = state.clock.elapsed(t)
        rec = Record(kind, t, period, clock, team, player, tuple((k, v) for k, v in info.items() if v is not None))
        return state.evolve(log=Log(rec, state.log))

    def _horn(self, state: MatchState, pattern: str, t: float) -> MatchState:
        return state.evolve(horn_pattern=pattern, horn_at=t, horn_count=state.horn_count + 1)

    def _settle(self, state: MatchState, t: float) -> MatchState:
        """Mark the send-off timers that have run out as ended (so a later edit cannot revive them)."""
        if not state.penalties:
            return state
        played = state.played(t)
        secs = state.rules.sendoff_seconds
        out = []
        for p in state.penalties:
            if p.ended is None and played - p.start >= secs:
                p = replace(p, ended=p.start + secs, ended_by="expired")
            out.append(p)
        return state.evolve(penalties=tuple(out))

    def _active(self, state: MatchState, team: str, t: float) -> list[Penalty]:
        played = state.played(t)
        secs = state.rules.sendoff_seconds
        return [p for p in state.penalties if p.team == team and p.remaining(played, secs) > 0]

    def on_pitch(self, state: MatchState, team: str, t: float) -> int:
        side = state.side(team)
        return state.rules.full_strength - side.permanent_out - len(self._active(state, team, t))

    def _need_play(self, state: MatchState, event: Event, what: str) -> None:
        if state.abandoned:
            raise self.illegal(event, state, "the match was abandoned")
        if state.current.kind != PLAY:
            raise self.illegal(event, state, f"no {what} during {state.current.name}")

    def _not_abandoned(self, state: MatchState, event: Event) -> None:
        """Cards are shown at any time (misconduct at half-time or during the kicks too)."""
        if state.abandoned:
            raise self.illegal(event, state, "the match was abandoned")

    def _credited_phase(self, state: MatchState, event: Event) -> None:
        """Goals count in play and in the break just after it (time extended for a kick)."""
        if state.abandoned:
            raise self.illegal(event, state, "the match was abandoned")
        ph = state.current
        if ph.kind == PLAY or (ph.kind in (BREAK, END) and state.phases[state.phase - 1].kind == PLAY):
            return
        raise self.illegal(event, state, f"no {event.type} during {ph.name}")

    @staticmethod
    def _other(team: str) -> str:
        return "away" if team == "home" else "home"

    # --- the match clock ----------------------------------------------------------

    def _on_clock_start(self, state: MatchState, event: Event, t: float) -> MatchState:
        ph = state.current
        if state.abandoned:
            raise self.illegal(event, state, "the match was abandoned")
        if ph.kind != PLAY:
            hint = "; call next_period" if self._next_index(state) is not None else ""
            raise self.illegal(event, state, f"the clock does not run during {ph.name}{hint}")
        if state.clock.running:
            raise self.illegal(event, state, "the clock is already running")
        if state.clock.expired(t):
            raise self.illegal(event, state, "the period is over; call period_end")
        if state.timeout is not None and state.timeout.running:
            raise self.illegal(event, state, f"a time-out of {state.side(state.timeout_team or 'home').name} is running")
        return state.evolve(clock=state.clock.start(t))

    def _on_clock_stop(self, state: MatchState, event: Event, t: float) -> MatchState:
        if not state.clock.running:
            raise self.illegal(event, state, "the clock is not running")
        state = state.evolve(clock=state.clock.stop(t))
        return self._record(state, "stoppage", t, reason=event.get("reason"))

    def _on_period_end(self, state: MatchState, event: Event, t: float) -> MatchState:
        ph = state.current
        if ph.kind != PLAY:
            raise self.illegal(event, state, f"no period is being played ({ph.name})")
        clock = state.clock
        if state.rules.auto_end:
            due = clock.expires_at() if clock.running else None
            # compare with the instant the timer gave (sums of floats may differ by an ulp)
            if not clock.expired(t) and (due is None or t < due):
                left = clock.remaining(t) or 0.0
                raise self.illegal(event, state, f"the period has {left:.1f} s left on the clock")
            end = t if due is None else min(due, t)
        else:
            if ph.seconds is not None and state.clock.elapsed(t) < ph.seconds:
                raise self.illegal(event, state, f"the period is {fmt_clock(ph.seconds)} long; the clock shows {fmt_clock(state.clock.elapsed(t))}")
            end = t
        state = self._settle(state, end)
        stopped = clock.stop(end)
        if state.rules.auto_end and clock.limit is not None:  # exactly the period's length
            stopped = replace(stopped, elapsed_before=clock.limit)
        state = state.evolve(clock=stopped)
        state = self._record(state, "period_end", end)
        nxt = state.phases[state.phase + 1]
        home, away = state.home, state.away
        state = state.evolve(
            phase=state.phase + 1,
            home=replace(home, timeouts_used=0),
            away=replace(away, timeouts_used=0),
            timeout=None,
            timeout_team=None,
            shot=None,
            added_minutes=0,
            break_since=end if nxt.seconds is not None else None,
        )
        if nxt.kind == END and self._next_index(state) is None:
            state = state.evolve(break_since=None)
        return self._horn(state, "period_end", end)

    def _next_index(self, state: MatchState) -> int | None:
        """The phase ``next_period`` leads to, or None when the match is over."""
        ph = state.current
        if state.abandoned:
            return None
        if ph.kind == BREAK:
            return state.phase + 1
        if ph.kind != END:
            return None
        if state.home.score != state.away.score:
            return None
        if ph.stage == REGULAR and state.rules.extra_time:
            return state.phase + 1
        if state.rules.kicks:
            return len(state.phases) - 1
        return None

    def _on_next_period(self, state: MatchState, event: Event, t: float) -> MatchState:
        nxt = self._next_index(state)
        if nxt is None:
            ph = state.current
            why = "the match is over" if ph.kind in (END, KICKS) else f"{ph.name} is under way"
            raise self.illegal(event, state, why)
        phase = state.phases[nxt]
        played = state.played(t)
        home, away = state.home, state.away
        if phase.name == "2nd half":  # accumulated fouls count per half; extra time carries the 2nd's
            home, away = replace(home, fouls=0), replace(away, fouls=0)
        state = state.evolve(
            phase=nxt,
            home=home,
            away=away,
            played_before=played,
            clock=Clock(limit=self._limit(state.rules, phase)),
            break_since=None,
            added_minutes=0,
            shot=None,
        )
        return self._record(state, "period_start", t)

    def _on_break_end(self, state: MatchState, event: Event, t: float) -> MatchState:
        ph = state.current
        if state.break_since is None or ph.seconds is None:
            raise self.illegal(event, state, "no break countdown is running")
        end = state.break_since + ph.seconds
        if end > t + 1e-9:
            raise self.illegal(event, state, f"the break has {end - t:.1f} s left")
        return self._horn(state.evolve(break_since=None), "break_end", end)

    def _on_clock_set(self, state: MatchState, event: Event, t: float) -> MatchState:
        """Operator edit: the period's running time becomes ``elapsed`` (or length - ``remaining``)."""
        ph = state.current
        if ph.kind != PLAY:
            raise self.illegal(event, state, f"no period clock to edit during {ph.name}")
        elapsed, remaining = event.get("elapsed"), event.get("remaining")
        if (elapsed is None) == (remaining is None):
            raise self.illegal(event, state, "give exactly one of 'elapsed' and 'remaining'")
        length = ph.seconds
        if remaining is not None:
            if length is None:
                raise self.illegal(event, state, "this clock has no length; give 'elapsed'")
            elapsed = length - remaining
        if elapsed < 0 or (length is not None and state.rules.auto_end and elapsed > length):
            raise self.illegal(event, state, f"the clock must read 0..{fmt_clock(length or 0)}")
        state = self._settle(state, t)
        before = state.clock.elapsed(t)
        state = state.evolve(clock=state.clock.set_elapsed(float(elapsed), t))
        # Penalties run on playing time, so they move with the edit; one that started
        # after the new reading restarts its full two minutes from it.
        played = state.played(t)
        state = state.evolve(
            penalties=tuple(replace(p, start=min(p.start, played)) if p.ended is None else p for p in state.penalties),
        )
        return self._record(state, "clock_edit", t, before=round(before, 3), after=round(float(elapsed), 3),
                            reason=event.get("reason"))

    def _on_horn(self, state: MatchState, event: Event, t: float) -> MatchState:
        return self._horn(state, "manual", t)

    # --- the records --------------------------------------------------------------

    def _on_goal(self, state: MatchState, event: Event, t: float) -> MatchState:
        self._credited_phase(state, event)
        team = event["team"]
        points = event.get("points", 1)
        state = self._settle(state, t)
        # A goal by the side with more players ends the shortest send-off of the other
        # (Law 12: 5v4 -> 5v5, 5v3 / 4v3 -> one player only; equal numbers: nothing).
        other = self._other(team)
        freed = None
        if state.rules.sendoff_seconds > 0 and self.on_pitch(state, team, t) > self.on_pitch(state, other, t):
            active = self._active(state, other, t)
            if active:
                played = state.played(t)
                p = min(active, key=lambda p: p.remaining(played, state.rules.sendoff_seconds))
                freed = p
                state = state.evolve(
                    penalties=tuple(replace(q, ended=played, ended_by="goal") if q is p else q for q in state.penalties),
                )
        side = state.side(team)
        state = state.with_side(team, replace(side, score=side.score + points))
        info: dict[str, Any] = {"score": f"{state.home.score}-{state.away.score}"}
        if points != 1:
            info["points"] = points
        if event.get("own_goal"):
            info["own_goal"] = True
        if freed is not None:
            info["frees_sendoff_of"] = other if freed.player is None else f"{other} #{freed.player}"
        period = None
        if state.current.kind != PLAY:  # the kick taken in time extended at the end of the period
            info["after_the_horn"] = True
            period = state.phases[state.phase - 1].name
        return self._record(state, "goal", t, team, event.get("player"), period=period, **info)

    _on_score = _on_goal

    def _on_foul(self, state: MatchState, event: Event, t: float) -> MatchState:
        self._need_play(state, event, "accumulated foul")
        team = event["team"]
        side = state.side(team)
        n = side.fouls + 1
        state = state.with_side(team, replace(side, fouls=n))
        free = state.rules.free_fouls
        kick = free > 0 and n > free
        info: dict[str, Any] = {"number": n}
        if kick:
            info["ten_metre_kick"] = True
            info["kick_from"] = "10 m mark or the spot" if event.get("near_goal") else "10 m mark"
            state = state.evolve(signal=("10 m kick", team, t))
        elif free > 0 and n == free:
            state = state.evolve(signal=(f"{free}th foul", team, t))
        return self._record(state, "foul", t, team, event.get("player"), **info)

    def _on_card(self, state: MatchState, event: Event, t: float) -> MatchState:
        self._not_abandoned(state, event)
        team, player, color = event["team"], event.get("player"), event["color"]
        side = state.side(team)
        if color == "yellow":
            second = player is not None and player in side.yellow
            side = replace(side, yellow=side.yellow + ((player,) if player is not None else ()),
                           yellow_cards=side.yellow_cards + 1)
            state = state.with_side(team, side)
            state = self._record(state, "yellow", t, team, player, reason=event.get("reason"))
            if not second:
                return state
            return self._send_off(state, team, player, t, "second caution", event.get("substitute", False))
        return self._send_off(state, team, player, t, event.get("reason"), event.get("substitute", False))

    def _on_send_off(self, state: MatchState, event: Event, t: float) -> MatchState:
        self._not_abandoned(state, event)
        return self._send_off(state, event["team"], event.get("player"), t, event.get("reason"),
                              event.get("substitute", False))

    def _send_off(self, state: MatchState, team: str, player: int | None, t: float, reason: str | None,
                  substitute: bool) -> MatchState:
        state = self._settle(state, t)
        side = state.side(team)
        side = replace(side, red_cards=side.red_cards + 1)
        timer = False
        if not substitute:  # a substitute sent off leaves his team at full strength (2006, Law 3/12)
            if state.rules.sendoff_seconds > 0:
                timer = True
                state = state.evolve(penalties=state.penalties + (Penalty(team, player, state.played(t)),))
            else:
                side = replace(side, permanent_out=side.permanent_out + 1)
        state = state.with_side(team, side)
        state = self._record(state, "red", t, team, player, reason=reason,
                             substitute=True if substitute else None, timer=timer or None)
        if state.rules.min_players and self.on_pitch(state, team, t) < state.rules.min_players:
            state = state.evolve(abandoned=True, clock=state.clock.stop(t))
            state = self._record(state, "abandoned", t, team, reason="fewer than "
                                 f"{state.rules.min_players} players on the pitch")
        return state

    def _on_timeout(self, state: MatchState, event: Event, t: float) -> MatchState:
        team = event["team"]
        ph = state.current
        if state.rules.timeouts_per_half == 0:
            raise self.illegal(event, state, "this sport has no time-outs")
        if ph.stage != REGULAR:
            raise self.illegal(event, state, "no time-outs in extra time")
        self._need_play(state, event, "time-out")
        side = state.side(team)
        if side.timeouts_used >= state.rules.timeouts_per_half:
            raise self.illegal(event, state, f"{side.name} has no time-out left in this half")
        if state.timeout is not None and state.timeout.running:
            raise self.illegal(event, state, "a time-out is already running")
        if state.clock.running:  # granted at the next dead ball: the clock stops there
            state = state.evolve(clock=state.clock.stop(t))
            state = self._record(state, "stoppage", t, reason="time-out")
        state = state.with_side(team, replace(side, timeouts_used=side.timeouts_used + 1))
        state = state.evolve(timeout=Clock(limit=state.rules.timeout_seconds).start(t), timeout_team=team)
        return self._record(state, "timeout", t, team)

    def _on_timeout_end(self, state: MatchState, event: Event, t: float) -> MatchState:
        timeout = state.timeout
        if timeout is None or not timeout.running:
            raise self.illegal(event, state, "no time-out is running")
        end = min(timeout.expires_at() or t, t)
        state = self._record(state, "timeout_end", end, state.timeout_team,
                             early=True if end < (timeout.expires_at() or t) else None)
        state = state.evolve(timeout=timeout.stop(end))
        return self._horn(state, "timeout_end", end)

    def _on_four_seconds(self, state: MatchState, event: Event, t: float) -> MatchState:
        if state.abandoned or state.current.kind not in (PLAY,):
            raise self.illegal(event, state, f"no 4-second count during {state.current.name}")
        return state.evolve(shot=Clock(limit=state.rules.shot_seconds).start(t))

    def _on_four_seconds_cancel(self, state: MatchState, event: Event, t: float) -> MatchState:
        if state.shot is None:
            raise self.illegal(event, state, "no 4-second count to cancel")
        return state.evolve(shot=None)

    def _on_four_seconds_end(self, state: MatchState, event: Event, t: float) -> MatchState:
        due = state.shot.expires_at() if state.shot is not None else None
        if state.shot is None or due is None or (t < due and not state.shot.expired(t)):
            raise self.illegal(event, state, "no 4-second count has run out")
        end = state.shot.expires_at() or t
        state = state.evolve(shot=state.shot.stop(end), shot_end=end)
        state = self._record(state, "four_seconds", end)
        return self._horn(state, "four_seconds", end)

    def _on_added_time(self, state: MatchState, event: Event, t: float) -> MatchState:
        self._need_play(state, event, "added time")
        state = state.evolve(added_minutes=event["minutes"])
        return self._record(state, "added_time", t, minutes=event["minutes"])

    def _on_substitution(self, state: MatchState, event: Event, t: float) -> MatchState:
        team, off, on = event["team"], event.get("off"), event.get("on")
        if state.abandoned or state.current.kind == KICKS:
            raise self.illegal(event, state, f"no substitution during {state.current.name}")
        side = state.side(team)
        most = state.rules.max_substitutions
        if most is not None and side.substitutions >= most:
            raise self.illegal(event, state, f"{side.name} has made all {most} substitutions")
        if on is not None and on in side.subbed_off:
            raise self.illegal(event, state, f"player {on} was substituted and may not return")
        side = replace(side, substitutions=side.substitutions + 1,
                       subbed_off=side.subbed_off + ((off,) if off is not None else ()))
        state = state.with_side(team, side)
        return self._record(state, "substitution", t, team, off=off, on=on)

    def _on_kick(self, state: MatchState, event: Event, t: float) -> MatchState:
        if state.current.kind != KICKS:
            raise self.illegal(event, state, "kicks from the mark have not begun")
        if self.kicks_winner(state) is not None:
            raise self.illegal(event, state, "the kicks are decided")
        team = event["team"]
        expected = self.next_kicker(state)
        if expected is not None and team != expected:
            raise self.illegal(event, state, f"it is {state.side(expected).name}'s kick")
        side = state.side(team)
        state = state.with_side(team, replace(side, kicks=side.kicks + (bool(event["scored"]),)))
        if state.kicks_first is None:
            state = state.evolve(kicks_first=team)
        return self._record(state, "kick", t, team, event.get("player"), scored=bool(event["scored"]))

    # --- kicks from the mark ------------------------------------------------------

    def first_kicker(self, state: MatchState) -> str | None:
        return state.kicks_first

    def next_kicker(self, state: MatchState) -> str | None:
        first = self.first_kicker(state)
        if first is None:
            return None
        second = self._other(first)
        return first if len(state.side(first).kicks) == len(state.side(second).kicks) else second

    def kicks_winner(self, state: MatchState) -> str | None:
        first = self.first_kicker(state)
        if first is None:
            return None
        second = self._other(first)
        won = kicks_outcome(state.side(first).kicks, state.side(second).kicks, state.rules.kicks_each)
        return None if won is None else (first, second)[won]

    # --- outputs ------------------------------------------------------------------

    def result(self, state: MatchState) -> str | None:
        """``home``, ``away``, ``draw``, ``abandoned`` or None while the match goes on."""
        if state.abandoned:
            return "abandoned"
        ph = state.current
        if ph.kind == KICKS:
            return self.kicks_winner(state)
        if ph.kind != END:
            return None
        if state.home.score != state.away.score:
            return "home" if state.home.score > state.away.score else "away"
        return None if self._next_index(state) is not None else "draw"

    def _clock_text(self, state: MatchState, now: float) -> str:
        ph, rules = state.current, state.rules
        if ph.kind in (BREAK, END) and state.break_since is not None and ph.seconds is not None:
            return fmt_countdown(state.break_since + ph.seconds - now)
        prev = ph if ph.kind == PLAY else state.phases[state.phase - 1] if ph.kind != KICKS else ph
        elapsed = state.clock.elapsed(now)
        length = prev.seconds if prev.kind == PLAY else None
        if length is None:
            return fmt_clock(elapsed)
        left = length - elapsed
        if rules.tenths_last_minute and ph.kind == PLAY and left < 60.0:
            return fmt_countdown(left, True)
        return fmt_countdown(left) if rules.count_down else fmt_clock(elapsed)

    def view(self, state: MatchState, now: float) -> dict[str, Any]:
        rules = state.rules
        ph = state.current
        result = self.result(state)
        winner = state.side(result).name if result in TEAMS else None
        horn = state.horn_pattern is not None and state.horn_at is not None and (
            state.horn_at <= now < state.horn_at + HORN_PATTERNS[state.horn_pattern])
        shot: int | None = None
        if state.shot is not None:
            if state.shot.running and not state.shot.expired(now):
                shot = math.ceil((state.shot.remaining(now) or 0.0) - 1e-9)
            else:
                end = state.shot.expires_at() if state.shot.running else None
                end_t = end if end is not None else state.shot_end
                if end_t is not None and now < end_t + SHOT_ZERO_SECONDS:
                    shot = 0
        timeout = None
        if state.timeout is not None and state.timeout.running and not state.timeout.expired(now):
            left = state.timeout.remaining(now) or 0.0
            timeout = {"team": state.timeout_team, "seconds": math.ceil(left - 1e-9), "clock": fmt_countdown(left)}
        signal = None
        if state.signal is not None and state.signal[2] <= now < state.signal[2] + SIGNAL_SECONDS:
            signal = {"what": state.signal[0], "team": state.signal[1]}
        return {
            "players": [state.home.name, state.away.name],
            "turn": (state.side(k).name if (k := self.next_kicker(state)) and result is None and ph.kind == KICKS
                     else None),
            "clock": self._clock_text(state, now),
            "clock_seconds": round(state.clock.elapsed(now), 3),
            "clock_running": state.clock.running and not state.clock.expired(now) and ph.kind == PLAY,
            "period": ph.name,
            "stage": ph.stage,
            "home": self._side_view(state, "home", now),
            "away": self._side_view(state, "away", now),
            "timeout": timeout,
            "shot_clock": shot,
            "shot_clock_running": shot is not None and shot > 0,
            "horn": horn,
            "horn_pattern": state.horn_pattern if horn else None,
            "horn_count": state.horn_count,
            "signal": signal,
            "added_time": f"+{state.added_minutes}" if state.added_minutes else None,
            "abandoned": state.abandoned,
            "result": result,
            "winner": winner,
        }


    def _side_view(self, state: MatchState, team: str, now: float) -> dict[str, Any]:
        side, rules = state.side(team), state.rules
        played = state.played(now)
        show_pens = state.current.kind != KICKS
        pens = sorted(
            math.ceil(p.remaining(played, rules.sendoff_seconds) - 1e-9)
            for p in self._active(state, team, now)
        ) if show_pens else []
        left = rules.timeouts_per_half - side.timeouts_used if state.current.stage == REGULAR else 0
        return {
            "name": side.name,
            "score": side.score,
            "fouls": side.fouls,
            "timeouts_left": max(0, left),
            "penalties": pens,
            "tenth_foul_kick": rules.free_fouls > 0 and side.fouls >= rules.free_fouls,
            "on_pitch": self.on_pitch(state, team, now),
            "yellow_cards": side.yellow_cards,
            "red_cards": side.red_cards,
            "substitutions": side.substitutions,
            "kicks": list(side.kicks),
            "kicks_scored": sum(side.kicks),
        }

    # --- the match report ---------------------------------------------------------

    def report(self, state: MatchState) -> dict[str, Any]:
        """The match report as JSON-able data; see :mod:`rules.sports.report`."""
        from .report import match_report

        return match_report(self, state)


# Event schemas, composed per sport.
CLOCK_EVENTS: dict[str, dict[str, Any]] = {
    "clock_start": {},
    "clock_stop": {"reason": Opt(REASON)},
    "clock_toggle": {"reason": Opt(REASON)},
    "period_end": {},
    "next_period": {},
    "break_end": {},
    "clock_set": {"elapsed": Opt(number(0, 10800)), "remaining": Opt(number(0, 10800)), "reason": Opt(REASON)},
    "horn": {},
}
GOAL_EVENTS: dict[str, dict[str, Any]] = {
    "goal": {"team": TEAM_FIELD, "player": Opt(PLAYER), "own_goal": Opt(boolean())},
}
CARD_EVENTS: dict[str, dict[str, Any]] = {
    "card": {"team": TEAM_FIELD, "color": text(choices=("yellow", "red")), "player": Opt(PLAYER),
             "reason": Opt(REASON), "substitute": Opt(boolean())},
    "send_off": {"team": TEAM_FIELD, "player": Opt(PLAYER), "reason": Opt(REASON), "substitute": Opt(boolean())},
}
KICK_EVENTS: dict[str, dict[str, Any]] = {
    "kick": {"team": TEAM_FIELD, "scored": boolean(), "player": Opt(PLAYER)},
}
FUTSAL_EVENTS: dict[str, dict[str, Any]] = {
    "foul": {"team": TEAM_FIELD, "player": Opt(PLAYER), "near_goal": Opt(boolean())},
    "timeout": {"team": TEAM_FIELD},
    "timeout_end": {},
    "four_seconds": {},
    "four_seconds_cancel": {},
    "four_seconds_end": {},
}
FOOTBALL_EVENTS: dict[str, dict[str, Any]] = {
    "added_time": {"minutes": integer(0, 30)},
    "substitution": {"team": TEAM_FIELD, "off": Opt(PLAYER), "on": Opt(PLAYER)},
}
SCORE_EVENTS: dict[str, dict[str, Any]] = {
    "score": {"team": TEAM_FIELD, "points": integer(1, 10), "player": Opt(PLAYER)},
}

TIMEKEEPER_KEYPAD: dict[str, dict[str, Any]] = {
    "start_stop": {"type": "clock_toggle"},
    "next_period": {"type": "next_period"},
    "goal_home": {"type": "goal", "team": "home"},
    "goal_away": {"type": "goal", "team": "away"},
    "foul_home": {"type": "foul", "team": "home"},
    "foul_away": {"type": "foul", "team": "away"},
    "send_off_home": {"type": "send_off", "team": "home"},
    "send_off_away": {"type": "send_off", "team": "away"},
    "timeout_home": {"type": "timeout", "team": "home"},
    "timeout_away": {"type": "timeout", "team": "away"},
    "timeout_end": {"type": "timeout_end"},
    "four_seconds": {"type": "four_seconds"},
    "four_seconds_cancel": {"type": "four_seconds_cancel"},
    "horn": {"type": "horn"},
    "undo": {"type": "undo"},
}


def merged(*parts: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in parts:
        out.update(p)
    return out


__all__ = [
    "FieldSport",
    "HORN_PATTERNS",
    "MatchState",
    "Penalty",
    "Phase",
    "Record",
    "Rules",
    "Side",
    "kicks_outcome",
]
