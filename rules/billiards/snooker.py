"""Snooker (WPBSA rules, 001:94-118, RULES.md §4.3).

Reds score 1 and the colours 2-7 (yellow, green, brown, blue, pink, black).
While reds remain, a turn starts on a red and each red potted puts a colour
"on"; a potted colour is re-spotted. With no reds left the colours are potted in
ascending order and stay down. Penalties go to the opponent: at least
``foul_min`` (4, [REC]: the text is cut off before the minimum), else the value of
the ball on or of the ball involved, at most ``foul_max`` (7). After a foul the
opponent plays or puts the offender back in, with a free ball when the referee
calls one. A frame ends on a concession, a claim with only the black left and a
lead of more than 7, or the final pot or foul on the black; a tie re-spots the
black. A match is best of ``frames``.

>>> from rules import Session
>>> s = Session.start({"game": "snooker", "players": ["Ann", "Bob"]})
>>> for e in ({"type": "pot", "ball": "red"}, {"type": "pot", "ball": "black"},
...           {"type": "pot", "ball": "red"}, {"type": "pot", "ball": "pink"},
...           {"type": "foul"}):
...     _ = s.submit(e)
>>> v = s.view()
>>> [p["score"] for p in v["players"]], v["choice"]["by"], v["reds"], v["points_remaining"]
([15, 4], 'Bob', 13, 131)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from ..events import Event, Opt, boolean, integer, text
from ..game import BadOptions, Game, Option
from .common import bump, controls, index_of, other, put

VALUES = {"red": 1, "yellow": 2, "green": 3, "brown": 4, "blue": 5, "pink": 6, "black": 7}
BALLS = tuple(VALUES)
COLOUR_NAMES = {v: k for k, v in VALUES.items() if v > 1}
REDS = 15


@dataclass(frozen=True)
class SnookerState:
    players: tuple[str, ...]
    scores: tuple[int, ...] = (0, 0)
    frames_won: tuple[int, ...] = (0, 0)
    totals: tuple[int, ...] = (0, 0)  # aggregate points of finished frames
    high_break: tuple[int, ...] = (0, 0)
    frame: int = 1
    breaker: int = 0  # who broke off this frame
    turn: int = 0
    brk: int = 0  # the current break
    reds: int = REDS
    colour_on: bool = False  # a red (or a free ball as red) went down: any colour is on
    lowest: int = 2  # in the clearance, the value of the lowest colour left (8 = none)
    phase: str = "play"  # play | choice | lots | frame_over | over
    respotted_black: bool = False
    free_ball: bool = False  # the striker may nominate a free ball on this stroke
    offender: int | None = None  # whose foul awaits the opponent's choice
    penalty: int = 0  # the last foul's value
    history: tuple[tuple[int | None, int, int], ...] = ()  # (winner, score 0, score 1) per frame
    last: str = ""
    winner: int | None = None
    best_of: int = 1
    aggregate: bool = False
    foul_min: int = 4
    foul_max: int = 7
    free_ball_rule: bool = True

    @property
    def clearance(self) -> bool:
        return self.reds == 0 and not self.colour_on

    def ball_on(self) -> str:
        """``red``, ``colour`` (any colour after a red) or the colour the clearance is on."""
        if self.respotted_black:
            return "black"
        if self.colour_on:
            return "colour"
        if self.reds:
            return "red"
        return COLOUR_NAMES.get(self.lowest, "none")

    def points_remaining(self) -> int:
        if self.respotted_black:
            return 7
        if not self.clearance:
            return self.reds * 8 + 27 + (7 if self.colour_on else 0)
        return sum(range(self.lowest, 8))


class Snooker(Game[SnookerState]):
    name = "snooker"
    title = "Snooker"
    native = "Снукер"
    family = "billiards"
    source = "001:94-118"
    min_players = 2
    max_players = 2
    options = (
        Option("frames", 1, "best of this many frames (with aggregate: all are played)", lo=1, hi=35),
        Option("aggregate", False, "aggregate points decide the match (Part 3 R1 g-h)"),
        Option("foul_min", 4, "least penalty for a foul [REC: the text stops before it; RULES.md §6 #7]", lo=1, hi=7),
        Option("foul_max", 7, "greatest penalty for a foul [REC]", lo=4, hi=7),
        Option(
            "free_ball",
            True,
            "after a foul that leaves the incoming player snookered he may nominate any colour as the"
            " ball on [REC: the standard rule; the text names it without defining it]",
        ),
    )
    events = {
        "pot": {
            "ball": text(choices=BALLS),
            "count": Opt(integer(1, REDS), 1),
            "free": Opt(boolean(), False),
        },
        "miss": {},
        "foul": {
            "ball": Opt(text(choices=BALLS)),
            "value": Opt(integer(1, 7)),
            "reds": Opt(integer(0, REDS), 0),
        },
        "choice": {"option": text(choices=("play", "put_back")), "free_ball": Opt(boolean(), False)},
        "claim": {},
        "concede": {"player": text(40), "match": Opt(boolean(), False)},
        "draw_lots": {"first": text(40)},
        "next_frame": {},
    }
    keypad = {
        "red": {"type": "pot", "ball": "red"},
        "yellow": {"type": "pot", "ball": "yellow"},
        "green": {"type": "pot", "ball": "green"},
        "brown": {"type": "pot", "ball": "brown"},
        "blue": {"type": "pot", "ball": "blue"},
        "pink": {"type": "pot", "ball": "pink"},
        "black": {"type": "pot", "ball": "black"},
        "miss": {"type": "miss"},
        "foul": {"type": "foul"},
        "foul_5": {"type": "foul", "value": 5},
        "foul_6": {"type": "foul", "value": 6},
        "foul_7": {"type": "foul", "value": 7},
        "play": {"type": "choice", "option": "play"},
        "free_ball": {"type": "choice", "option": "play", "free_ball": True},
        "put_back": {"type": "choice", "option": "put_back"},
        "claim": {"type": "claim"},
        "next_frame": {"type": "next_frame"},
    }

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> SnookerState:
        names = self.check_players(players)
        if options["foul_max"] < options["foul_min"]:
            raise BadOptions(f"option 'foul_max' ({options['foul_max']}) is below 'foul_min' ({options['foul_min']})")
        return SnookerState(
            players=names,
            best_of=options["frames"],
            aggregate=options["aggregate"],
            foul_min=options["foul_min"],
            foul_max=options["foul_max"],
            free_ball_rule=options["free_ball"],
        )

    def describe(self, state: SnookerState) -> str:
        score = f"frame {state.frame} {state.scores[0]}-{state.scores[1]}"
        if state.phase == "over":
            return f"match won by {state.players[state.winner or 0]}"
        if state.phase == "frame_over":
            return f"frame {state.frame} is over, {state.scores[0]}-{state.scores[1]}"
        if state.phase == "choice":
            return f"{state.players[other(state.offender or 0)]} to choose after a foul, {score}"
        if state.phase == "lots":
            return f"re-spotted black: draw lots, {score}"
        return f"{state.players[state.turn]} on {state.ball_on()}, {score}"

    def legal_types(self, state: SnookerState) -> tuple[str, ...]:
        return {
            "play": ("pot", "miss", "foul", "claim", "concede"),
            "choice": ("choice", "concede"),
            "lots": ("draw_lots",),
            "frame_over": ("next_frame",),
            "over": (),
        }[state.phase]

    # --- events -------------------------------------------------------------------

    def _apply(self, state: SnookerState, event: Event) -> SnookerState:
        kind = event.type
        if state.phase == "over":
            raise self.illegal(event, state, "the match is over")
        if kind not in self.legal_types(state):
            wanted = {
                "choice": "a choice (play or put_back)",
                "lots": "draw_lots for who plays the re-spotted black",
                "frame_over": "next_frame",
            }.get(state.phase, f"one of {list(self.legal_types(state))}")
            raise self.illegal(event, state, f"{kind} is not possible now; expected {wanted}")
        if kind == "pot":
            return self._pot(state, event)
        if kind == "miss":
            return self._end_turn(state, f"{state.players[state.turn]} misses")
        if kind == "foul":
            return self._foul(state, event)
        if kind == "choice":
            return self._choose(state, event)
        if kind == "claim":
            lead = state.scores[state.turn] - state.scores[other(state.turn)]
            if not (state.clearance and state.lowest == 7) or state.respotted_black:
                raise self.illegal(event, state, "a frame can be claimed only when the black is the last ball")
            if lead <= 7:
                raise self.illegal(event, state, f"the striker must lead by more than 7 to claim, leads by {lead}")
            return self._frame_over(state, state.turn, f"{state.players[state.turn]} claims the frame")
        if kind == "concede":
            return self._concede(state, event)
        if kind == "draw_lots":
            first = index_of(state.players, event["first"])
            if first is None:
                raise self.illegal(event, state, f"no player {event['first']!r}; players: {list(state.players)}")
            return replace(state, phase="play", turn=first, brk=0, last=f"{event['first']} plays the re-spotted black")
        # next_frame
        breaker = other(state.breaker)
        return replace(
            state,
            frame=state.frame + 1,
            breaker=breaker,
            turn=breaker,
            scores=(0, 0),
            brk=0,
            reds=REDS,
            colour_on=False,
            lowest=2,
            phase="play",
            respotted_black=False,
            free_ball=False,
            penalty=0,
            last=f"frame {state.frame + 1}: {state.players[breaker]} breaks off",
        )

    def _pot(self, state: SnookerState, event: Event) -> SnookerState:
        ball, count, free = event["ball"], event["count"], event["free"]
        on = state.ball_on()
        p = state.turn
        if count > 1 and (ball != "red" or free):
            raise self.illegal(event, state, "only reds can go down several in one stroke")
        if free:
            if not state.free_ball:
                raise self.illegal(event, state, "no free ball: the referee has not called one for this stroke")
            if ball == "red" or ball == on:
                raise self.illegal(event, state, f"a free ball is a ball other than the ball on ({on})")
            value = 1 if on == "red" else VALUES[on]
            # the free ball is re-spotted; on a red it counts as a red, so a colour is on next
            new = replace(state, colour_on=on == "red")
            return self._score(new, value, f"{state.players[p]} free ball {ball} as {on} +{value}")
        if ball == "red":
            if on != "red":
                raise self.illegal(event, state, f"red is not on; the ball on is {on}")
            if count > state.reds:
                raise self.illegal(event, state, f"{count} reds potted but only {state.reds} on the table")
            new = replace(state, reds=state.reds - count, colour_on=True)
            return self._score(new, count, f"{state.players[p]} red{' x%d' % count if count > 1 else ''} +{count}")
        value = VALUES[ball]
        if on == "colour":  # the colour is re-spotted
            return self._score(replace(state, colour_on=False), value, f"{state.players[p]} {ball} +{value}")
        if ball != on:
            raise self.illegal(event, state, f"{ball} is not on; the ball on is {on}")
        if state.respotted_black:
            new = self._score(state, value, f"{state.players[p]} pots the re-spotted black +7")
            return self._frame_over(new, p, new.last)
        new = self._score(replace(state, lowest=state.lowest + 1), value, f"{state.players[p]} {ball} +{value}")
        if ball == "black":
            return self._black_done(new)
        return new

    def _score(self, state: SnookerState, value: int, what: str) -> SnookerState:
        p = state.turn
        brk = state.brk + value
        return replace(
            state,
            scores=bump(state.scores, p, value),
            brk=brk,
            high_break=put(state.high_break, p, max(state.high_break[p], brk)),
            free_ball=False,
            last=what,
        )

    def _end_turn(self, state: SnookerState, what: str) -> SnookerState:
        return replace(state, turn=other(state.turn), brk=0, colour_on=False, free_ball=False, last=what)

    def _foul(self, state: SnookerState, event: Event) -> SnookerState:
        on = state.ball_on()
        on_value = VALUES.get(on, 0)  # "colour" (any colour after a red) counts by the ball involved
        involved = VALUES[event["ball"]] if event.get("ball") else 0
        least = min(max(state.foul_min, on_value, involved), state.foul_max)
        value = event.get("value")
        if value is None:
            value = least
        elif value < least:
            raise self.illegal(event, state, f"a foul with {on} on costs at least {least}, not {value}")
        elif value > state.foul_max:
            raise self.illegal(event, state, f"a foul costs at most {state.foul_max}, not {value}")
        reds = event["reds"]
        if reds > state.reds:
            raise self.illegal(event, state, f"{reds} reds went down but only {state.reds} were on the table")
        p, q = state.turn, other(state.turn)
        new = replace(
            state,
            scores=bump(state.scores, q, value),
            reds=state.reds - reds,
            brk=0,
            colour_on=False,
            free_ball=False,
            penalty=value,
            last=f"{state.players[p]} foul, {state.players[q]} +{value}",
        )
        if state.respotted_black:
            return self._frame_over(new, q, new.last)
        if state.clearance and state.lowest == 7:  # a foul with only the black left ends the frame
            return self._black_done(replace(new, lowest=8))
        return replace(new, phase="choice", offender=p)

    def _choose(self, state: SnookerState, event: Event) -> SnookerState:
        offender = state.offender if state.offender is not None else state.turn
        chooser = other(offender)
        free = event["free_ball"]
        if free and event["option"] != "play":
            raise self.illegal(event, state, "a free ball is void when the offender is put back in")
        if free and not state.free_ball_rule:
            raise self.illegal(event, state, "the free ball rule is off (option free_ball)")
        if free and state.clearance and state.lowest == 7:
            raise self.illegal(event, state, "no free ball with only the black left")
        base = replace(state, phase="play", offender=None, brk=0, colour_on=False)
        if event["option"] == "play":
            what = f"{state.players[chooser]} plays" + (" a free ball" if free else "")
            return replace(base, turn=chooser, free_ball=free, last=what)
        return replace(base, turn=offender, free_ball=False, last=f"{state.players[chooser]} puts {state.players[offender]} back in")

    def _concede(self, state: SnookerState, event: Event) -> SnookerState:
        who = index_of(state.players, event["player"])
        if who is None:
            raise self.illegal(event, state, f"no player {event['player']!r}; players: {list(state.players)}")
        at_table = other(state.offender) if state.phase == "choice" and state.offender is not None else state.turn
        if who != at_table:
            raise self.illegal(event, state, f"a frame is conceded during one's own turn; it is {state.players[at_table]}'s")
        if event["match"]:
            done = replace(state, phase="over", winner=other(who), last=f"{event['player']} concedes the match")
            return done
        return self._frame_over(state, other(who), f"{event['player']} concedes frame {state.frame}")

    def _black_done(self, state: SnookerState) -> SnookerState:
        """The last black has gone (pot or foul): the frame ends, unless the scores are level."""
        a, b = state.scores
        last_frame = state.aggregate and state.frame >= state.best_of
        level_totals = state.totals[0] + a == state.totals[1] + b
        if a == b and (not state.aggregate or (last_frame and level_totals)):
            return replace(
                state,
                phase="lots",
                respotted_black=True,
                lowest=7,
                brk=0,
                free_ball=False,
                last=state.last + "; scores level: the black is re-spotted",
            )
        winner = None if a == b else (0 if a > b else 1)
        return self._frame_over(state, winner, state.last)

    def _frame_over(self, state: SnookerState, winner: int | None, what: str) -> SnookerState:
        frames_won = state.frames_won if winner is None else bump(state.frames_won, winner, 1)
        totals = (state.totals[0] + state.scores[0], state.totals[1] + state.scores[1])
        new = replace(
            state,
            frames_won=frames_won,
            totals=totals,
            history=state.history + ((winner, state.scores[0], state.scores[1]),),
            phase="frame_over",
            respotted_black=False,
            free_ball=False,
            offender=None,
            last=what,
        )
        if state.aggregate:
            if state.frame >= state.best_of and totals[0] != totals[1]:
                return replace(new, phase="over", winner=0 if totals[0] > totals[1] else 1)
            return new
        need = state.best_of // 2 + 1
        if winner is not None and frames_won[winner] >= need:
            return replace(new, phase="over", winner=winner)
        return new

    # --- outputs ------------------------------------------------------------------

    @staticmethod
    def _at_table(state: SnookerState) -> str | None:
        """Who is to act: the striker, or the player choosing after a foul."""
        if state.phase == "choice" and state.offender is not None:
            return state.players[other(state.offender)]
        return state.players[state.turn] if state.phase == "play" else None

    def view(self, state: SnookerState, now: float) -> dict[str, Any]:
        playing = state.phase in ("play", "choice", "lots")
        remaining = state.points_remaining() if playing else 0
        a, b = state.scores
        behind = None
        if playing and a != b:
            trailing = 0 if a < b else 1
            gap = abs(a - b)
            behind = {"player": state.players[trailing], "points": gap, "snookers_required": gap > remaining}
        choice = None
        if state.phase == "choice" and state.offender is not None:
            choice = {
                "by": state.players[other(state.offender)],
                "offender": state.players[state.offender],
                "penalty": state.penalty,
                "options": ["play", "put_back"],
            }
        colours = [COLOUR_NAMES[v] for v in range(2, 8)] if not state.clearance else [
            COLOUR_NAMES[v] for v in range(state.lowest, 8)
        ]
        return {
            "players": [
                {"name": n, "score": s, "frames": f, "high_break": h}
                for n, s, f, h in zip(state.players, state.scores, state.frames_won, state.high_break)
            ],
            "turn": self._at_table(state),
            "phase": state.phase,
            "frame": state.frame,
            "best_of": state.best_of,
            "break": state.brk,
            "ball_on": state.ball_on() if state.phase == "play" else None,
            "reds": state.reds,
            "colours": colours if playing else [],
            "points_remaining": remaining,
            "behind": behind,
            "free_ball": state.free_ball,
            "respotted_black": state.respotted_black,
            "choice": choice,
            "frames_played": [
                {"frame": i + 1, "winner": None if w is None else state.players[w], "scores": [x, y]}
                for i, (w, x, y) in enumerate(state.history)
            ],
            "aggregate": list(state.totals) if state.aggregate else None,
            "controls": controls(self.keypad, self.legal_types(state)),
            "last": state.last,
            "winner": None if state.winner is None else state.players[state.winner],
        }


GAMES = (Snooker(),)
