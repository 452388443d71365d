"""Game of 13 / Гра в 13 (000:19-22): five throws, calls, multiples of 13.

Two dice, one numbered 1-6 and one 2-7 (``second_die``; read as d6 + 1 [REC],
so a throw sums 3..13). A turn is five throws: the first throw's sum starts the
running total T; after each later throw the player ``call``\\ s how its sum s is
used: ``plus`` (T + s), ``minus`` (T - s), ``half``/``third``/``quarter``
(T + s/2, s/3, s/4) or ``double``/``triple``/``quadruple`` (T + 2s, 3s, 4s).
A positive multiple of 13 (``modulus``: 11 and 17 are the text's variants) earns
T/13 points each time it is reached (``award=cumulative`` [REC], the text's
example gives 1 + 2 = 3) or only the best one of the turn (``max_only``).
Fractions need an exact division [REC] (``fractions=floor`` rounds down). T starts
afresh each turn and may go negative. First to ``target_points`` (10) wins.

>>> from rules import Session
>>> s = Session.start({"game": "game-of-13", "players": ["Ann", "Bob"]})
>>> for e in ({"type": "roll", "dice": [4, 5]}, {"type": "roll", "dice": [6, 6]}, {"type": "call", "op": "third"}):
...     _ = s.submit(e)
>>> v = s.view(); v["running_total"], v["players"][0]["score"]
(13, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..events import Event, integer, list_of, text
from ..game import Option
from ._dicekit import DiceGame, Outcome, check_params

THROWS = 5
OPS = {  # name -> (kind, factor)
    "plus": ("mul", 1),
    "minus": ("mul", -1),
    "half": ("div", 2),
    "third": ("div", 3),
    "quarter": ("div", 4),
    "double": ("mul", 2),
    "triple": ("mul", 3),
    "quadruple": ("mul", 4),
}


@dataclass(frozen=True)
class G13State:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    modulus: int
    target: int
    low2: int  # lowest face of the second die (2 for the 2-7 die)
    award: str
    floor: bool
    turn: int = 0
    round: int = 1
    throws: int = 0
    total: int = 0
    pending: int | None = None  # sum of a throw waiting for its call
    dice: tuple[int, ...] = ()
    calls: tuple[str, ...] = ()
    turn_points: int = 0
    winner: str | None = None


class GameOf13(DiceGame[G13State]):
    name = "game-of-13"
    title = "Game of 13"
    native = "Гра в 13"
    source = "000:19-22"
    min_players = 1
    max_players = 12
    options = (
        Option("modulus", 13, "the number whose multiples score (the text also plays 11 or 17)", choices=(11, 13, 17)),
        Option("target_points", 10, "points to win", lo=1, hi=100),
        Option("second_die", "2-7", "faces of the second die: 2-7 (text) or an ordinary 1-6", choices=("2-7", "1-6")),
        Option(
            "award",
            "cumulative",
            "cumulative: every multiple reached after a throw scores [REC]; max_only: the best multiple of the turn",
            choices=("cumulative", "max_only"),
        ),
        Option(
            "fractions",
            "exact",
            "half/third/quarter only when the sum divides exactly [REC], or rounded down",
            choices=("exact", "floor"),
        ),
    )
    events = {
        "roll": {"dice": list_of(integer(1, 7), 2, 2)},
        "call": {"op": text(12, tuple(OPS))},
    }

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> G13State:
        names = self.check_players(players)
        return G13State(
            names,
            (0,) * len(names),
            options["modulus"],
            options["target_points"],
            2 if options["second_die"] == "2-7" else 1,
            options["award"],
            options["fractions"] == "floor",
        )

    def describe(self, state: G13State) -> str:
        if state.winner:
            return f"won by {state.winner}"
        waiting = f", call for {state.pending}" if state.pending is not None else ""
        return f"turn {state.players[state.turn]}, throw {state.throws}/{THROWS}, total {state.total}{waiting}"

    def is_over(self, state: G13State) -> bool:
        return state.winner is not None

    def chance_outcomes(self, state: G13State) -> tuple[Outcome, ...]:
        if state.winner or state.pending is not None:
            return ()
        return tuple(
            ({"type": "roll", "dice": [a, b]}, Fraction(1, 36))
            for a in range(1, 7)
            for b in range(state.low2, state.low2 + 6)
        )

    def decisions(self, state: G13State) -> list[dict[str, Any]]:
        if state.winner or state.pending is None:
            return []
        return [{"type": "call", "op": op} for op in OPS if self._gain(state, op) is not None]

    def _gain(self, state: G13State, op: str) -> int | None:
        s = state.pending or 0
        kind, k = OPS[op]
        if kind == "mul":
            return s * k
        if s % k and not state.floor:
            return None
        return s // k

    def _apply(self, state: G13State, event: Event) -> G13State:
        if state.winner is not None:
            raise self.illegal(event, state, f"the game is over, {state.winner} won")
        if event.type == "roll":
            if state.pending is not None:
                raise self.illegal(event, state, f"call how {state.pending} is used before the next throw")
            a, b = event["dice"]
            if a > 6:
                raise self.illegal(event, state, f"the first die shows 1..6, got {a}")
            if not state.low2 <= b <= state.low2 + 5:
                raise self.illegal(event, state, f"the second die shows {state.low2}..{state.low2 + 5}, got {b}")
            state = replace(state, dice=(a, b), throws=state.throws + 1)
            if state.throws == 1:
                return self._reached(replace(state, total=a + b, calls=()))
            return replace(state, pending=a + b)
        if state.pending is None:
            raise self.illegal(event, state, "throw first: a call applies to a throw's sum")
        gain = self._gain(state, event["op"])
        if gain is None:
            raise self.illegal(event, state, f"{state.pending} does not divide by {OPS[event['op']][1]}")
        return self._reached(
            replace(state, total=state.total + gain, pending=None, calls=state.calls + (event["op"],))
        )

    def _reached(self, state: G13State) -> G13State:
        m = state.modulus
        hit = state.total // m if state.total > 0 and state.total % m == 0 else 0
        if state.award == "cumulative":
            scores = tuple(s + (hit if k == state.turn else 0) for k, s in enumerate(state.scores))
            state = replace(state, scores=scores, turn_points=state.turn_points + hit)
            if scores[state.turn] >= state.target:
                return replace(state, winner=state.players[state.turn])
        else:
            state = replace(state, turn_points=max(state.turn_points, hit))
        if state.throws < THROWS:
            return state
        if state.award == "max_only":
            scores = tuple(s + (state.turn_points if k == state.turn else 0) for k, s in enumerate(state.scores))
            state = replace(state, scores=scores)
            if scores[state.turn] >= state.target:
                return replace(state, winner=state.players[state.turn])
        nxt = (state.turn + 1) % len(state.players)
        return replace(state, turn=nxt, round=state.round + (nxt == 0), throws=0, total=0, turn_points=0)

    def view(self, state: G13State, now: float) -> dict[str, Any]:
        return {
            "players": [{"name": p, "score": s} for p, s in zip(state.players, state.scores)],
            "turn": None if state.winner else state.players[state.turn],
            "round": state.round,
            "throws": state.throws,
            "running_total": state.total,
            "awaiting_call": state.pending,
            "calls": list(state.calls),
            "turn_points": state.turn_points,
            "dice": list(state.dice),
            "modulus": state.modulus,
            "target": state.target,
            "winner": state.winner,
            "over": state.winner is not None,
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds game-of-13 [--second_die 1-6]``: the chance of each sum of
        one throw (``sum_13`` = 1/36 with the 2-7 die)."""
        check_params(params, ("second_die",), self.name)
        low = {"2-7": 2, "1-6": 1}.get(params.get("second_die", "2-7"))
        if low is None:
            raise ValueError(f"--second_die must be 2-7 or 1-6, got {params['second_die']!r}")
        out: dict[str, Fraction] = {}
        for a in range(1, 7):
            for b in range(low, low + 6):
                key = f"sum_{a + b}"
                out[key] = out.get(key, Fraction(0)) + Fraction(1, 36)
        return dict(sorted(out.items(), key=lambda kv: int(kv[0][4:])))


GAMES = (GameOf13(),)
