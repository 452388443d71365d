"""Russian pyramid / Пирамида (001:82-93, RULES.md §4.2): **the documents give only a
title page** (the 2005 international rules' cover, no rules), so everything here is
[REC]: the widely used pyramid disciplines, each a named ``variant`` option.

- ``free`` (свободная пирамида, "American"/американка): 16 balls, any ball may be
  struck; every ball pocketed on a legal stroke scores 1.
- ``dynamic`` (динамичная пирамида, "Nevka"): the coloured ball is the cue ball;
  object balls and the cue ball pocketed off an object ball score; for the cue ball
  the player takes an object ball of his choice off the table and plays from hand
  anywhere on the table.
- ``combined`` (комбинированная / "Moscow" pyramid): as dynamic, but after the cue
  ball the player plays from hand from the kitchen (the "house").

First to 8 points (``target``) wins the frame. A foul scores nothing; balls pocketed
on it are spotted; the penalty (``foul_penalty``) is ``ball``: the opponent takes
a ball of his choice off the table to his credit (the current rules) or ``return``:
the offender puts one of his balls back (a debt when he has none; older club rule).

>>> from rules import Session
>>> s = Session.start({"game": "pyramid", "players": ["Ann", "Bob"]})
>>> for e in ({"type": "pot", "balls": 2}, {"type": "foul"}, {"type": "pot"}):
...     _ = s.submit(e)
>>> v = s.view()
>>> [p["score"] for p in v["players"]], v["turn"], v["balls_on_table"]
([2, 2], 'Bob', 12)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from ..events import Event, Opt, boolean, integer, text
from ..game import Game, Option
from .common import bump, controls, index_of, other, put

VARIANTS = ("free", "dynamic", "combined")


@dataclass(frozen=True)
class PyramidState:
    players: tuple[str, ...]
    scores: tuple[int, ...] = (0, 0)
    debts: tuple[int, ...] = (0, 0)  # balls owed to the table (foul_penalty "return")
    fouls: tuple[int, ...] = (0, 0)  # fouls in a row
    frames_won: tuple[int, ...] = (0, 0)
    frame: int = 1
    breaker: int = 0
    turn: int = 0
    run: int = 0
    on_table: int = 16  # balls that can still score: 16 in the free pyramid, 15 object balls otherwise
    ball_in_hand: str | None = None  # kitchen | table
    phase: str = "play"  # play | frame_over | over
    history: tuple[tuple[int, int, int], ...] = ()
    last: str = ""
    winner: int | None = None
    variant: str = "free"
    target: int = 8
    foul_penalty: str = "ball"
    three_fouls_lose: bool = False
    best_of: int = 1


def _balls(variant: str) -> int:
    return 16 if variant == "free" else 15


class Pyramid(Game[PyramidState]):
    name = "pyramid"
    title = "Russian pyramid"
    native = "Пирамида"
    family = "billiards"
    source = "001:82-93"
    min_players = 2
    max_players = 2
    options = (
        Option(
            "variant",
            "free",
            "[REC] free (свободная, 'American': any ball may be struck), dynamic (динамичная:"
            " after the cue ball, from hand anywhere), combined (комбинированная, 'Moscow':"
            " after the cue ball, from hand in the kitchen)",
            choices=VARIANTS,
        ),
        Option("target", 8, "[REC] points (balls) to win a frame", lo=1, hi=16),
        Option(
            "foul_penalty",
            "ball",
            "[REC] ball: the opponent takes a ball of his choice off the table to his credit;"
            " return: the offender puts one of his balls back on the table (a debt if he has none)",
            choices=("ball", "return"),
        ),
        Option("three_fouls_lose", False, "[REC house rule] three fouls in a row lose the frame"),
        Option("frames", 1, "best of this many frames; the break alternates", lo=1, hi=35),
    )
    events = {
        "pot": {"balls": Opt(integer(0, 16), 1), "cue": Opt(boolean(), False)},
        "miss": {},
        "foul": {},
        "concede": {"player": text(40)},
        "next_frame": {},
    }
    keypad = {
        "pot": {"type": "pot"},
        "pot_2": {"type": "pot", "balls": 2},
        "cue_ball": {"type": "pot", "balls": 0, "cue": True},
        "pot_and_cue": {"type": "pot", "balls": 1, "cue": True},
        "miss": {"type": "miss"},
        "foul": {"type": "foul"},
        "next_frame": {"type": "next_frame"},
    }

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> PyramidState:
        names = self.check_players(players)
        return PyramidState(
            players=names,
            on_table=_balls(options["variant"]),
            ball_in_hand="kitchen",
            variant=options["variant"],
            target=options["target"],
            foul_penalty=options["foul_penalty"],
            three_fouls_lose=options["three_fouls_lose"],
            best_of=options["frames"],
        )

    def describe(self, state: PyramidState) -> str:
        score = f"frame {state.frame} {state.scores[0]}:{state.scores[1]}"
        if state.phase == "over":
            return f"match won by {state.players[state.winner or 0]}"
        if state.phase == "frame_over":
            return f"{score} is over"
        return f"{state.players[state.turn]} at the table, {score}"

    def legal_types(self, state: PyramidState) -> tuple[str, ...]:
        return {"play": ("pot", "miss", "foul", "concede"), "frame_over": ("next_frame",), "over": ()}[state.phase]

    def _apply(self, state: PyramidState, event: Event) -> PyramidState:
        kind = event.type
        if state.phase == "over":
            raise self.illegal(event, state, "the match is over")
        if kind not in self.legal_types(state):
            wanted = "next_frame" if state.phase == "frame_over" else str(list(self.legal_types(state)))
            raise self.illegal(event, state, f"{kind} is not possible now; expected {wanted}")
        p = state.turn
        if kind == "pot":
            return self._pot(state, event)
        if kind == "miss":
            return self._pass(replace(state, fouls=put(state.fouls, p, 0), last=f"{state.players[p]} misses"))
        if kind == "foul":
            return self._foul(state)
        if kind == "concede":
            who = index_of(state.players, event["player"])
            if who is None:
                raise self.illegal(event, state, f"no player {event['player']!r}; players: {list(state.players)}")
            return self._frame_over(state, other(who), f"{event['player']} concedes frame {state.frame}")
        # next_frame
        breaker = other(state.breaker)
        return replace(
            state,
            frame=state.frame + 1,
            breaker=breaker,
            turn=breaker,
            scores=(0, 0),
            debts=(0, 0),
            fouls=(0, 0),
            run=0,
            on_table=_balls(state.variant),
            ball_in_hand="kitchen",
            phase="play",
            last=f"frame {state.frame + 1}: {state.players[breaker]} breaks",
        )

    def _pot(self, state: PyramidState, event: Event) -> PyramidState:
        balls, cue = event["balls"], event["cue"]
        if cue and state.variant == "free":
            raise self.illegal(event, state, "in the free pyramid any ball may be struck: count it in 'balls'")
        points = balls + (1 if cue else 0)
        if points == 0:
            raise self.illegal(event, state, "a pot needs at least one ball (or the cue ball)")
        if points > state.on_table:
            raise self.illegal(event, state, f"{points} balls scored but only {state.on_table} left on the table")
        p = state.turn
        repaid = min(state.debts[p], points)  # owed balls go back to the table first
        gained = points - repaid
        what = f"{state.players[p]} +{gained}" + (" (cue ball)" if cue else "")
        if repaid:
            what += f", {repaid} owed ball{'s' if repaid > 1 else ''} back on the table"
        hand = None
        if cue:
            hand = "table" if state.variant == "dynamic" else "kitchen"
        new = replace(
            state,
            scores=bump(state.scores, p, gained),
            debts=bump(state.debts, p, -repaid),
            fouls=put(state.fouls, p, 0),
            on_table=state.on_table - gained,
            run=state.run + gained,
            ball_in_hand=hand,
            last=what,
        )
        if new.scores[p] >= state.target:
            return self._frame_over(new, p, what)
        return new

    def _foul(self, state: PyramidState) -> PyramidState:
        p, q = state.turn, other(state.turn)
        count = state.fouls[p] + 1
        new = replace(state, fouls=put(state.fouls, p, count))
        offender, gainer = state.players[p], state.players[q]
        if state.foul_penalty == "ball" and state.on_table > 0:
            new = replace(new, scores=bump(new.scores, q, 1), on_table=new.on_table - 1)
            what = f"{offender} foul, {gainer} takes a ball +1"
        elif state.foul_penalty == "return" and state.scores[p] > 0:
            new = replace(new, scores=bump(new.scores, p, -1), on_table=new.on_table + 1)
            what = f"{offender} foul, a ball back on the table -1"
        else:
            new = replace(new, debts=bump(new.debts, p, 1))
            what = f"{offender} foul, one ball owed"
        new = replace(new, last=what)
        if new.scores[q] >= state.target:
            return self._frame_over(new, q, what)
        if state.three_fouls_lose and count >= 3:
            return self._frame_over(new, q, f"{what}; three fouls in a row lose the frame")
        return self._pass(new)

    def _pass(self, state: PyramidState) -> PyramidState:
        return replace(state, turn=other(state.turn), run=0, ball_in_hand=None)

    def _frame_over(self, state: PyramidState, winner: int, what: str) -> PyramidState:
        frames_won = bump(state.frames_won, winner, 1)
        new = replace(
            state,
            frames_won=frames_won,
            history=state.history + ((winner, state.scores[0], state.scores[1]),),
            phase="frame_over",
            ball_in_hand=None,
            last=what,
        )
        if frames_won[winner] >= state.best_of // 2 + 1:
            return replace(new, phase="over", winner=winner)
        return new

    def view(self, state: PyramidState, now: float) -> dict[str, Any]:
        return {
            "players": [
                {"name": n, "score": s, "frames": f, "fouls": c, "owed": d}
                for n, s, f, c, d in zip(state.players, state.scores, state.frames_won, state.fouls, state.debts)
            ],
            "turn": state.players[state.turn] if state.phase == "play" else None,
            "phase": state.phase,
            "variant": state.variant,
            "run": state.run,
            "balls_on_table": state.on_table,
            "ball_in_hand": state.ball_in_hand,
            "target": state.target,
            "frame": state.frame,
            "best_of": state.best_of,
            "frames_played": [
                {"frame": i + 1, "winner": state.players[w], "scores": [a, b]}
                for i, (w, a, b) in enumerate(state.history)
            ],
            "controls": controls(self.keypad, self.legal_types(state)),
            "last": state.last,
            "winner": None if state.winner is None else state.players[state.winner],
        }


GAMES = (Pyramid(),)
