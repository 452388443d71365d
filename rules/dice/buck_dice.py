"""Buck dice / Бак Дайс (000:89-94): score the point number up to 15.

Draw: everyone throws three dice; the highest total plays first and the lowest
throws one die, whose face is the *point number* for the whole game (ties at the
top or bottom throw again [REC]). In play each throw of three dice scores one
per die showing the point number; three equal faces that are not the point
("little buck") score 5; three point numbers set the score to 15 at once. The
player throws on while his throw has a point number, and leaves the game with
15 ("buck"). The little buck ends the turn (text; option
``little_buck_continues``); 15 is a cap [REC] (``exact_15``: a throw that would
pass 15 scores nothing and ends the turn). The last player left loses and pays
every other ``payment``, double to those who went out on three point numbers.
With two players the other one is the winner; with more only the loser is named.

>>> from rules import Session
>>> s = Session.start({"game": "buck-dice", "players": ["Ann", "Bob"]})
>>> for d in ([6, 6, 5], [1, 2, 2], [3]):
...     _ = s.submit({"type": "roll", "dice": d})
>>> v = s.view()
>>> v["point"], v["turn"]
(3, 'Ann')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..events import Event, dice
from ..game import Option
from ._dicekit import DiceGame, Outcome, next_seat, roll_outcomes

BUCK = 15


@dataclass(frozen=True)
class BuckState:
    players: tuple[str, ...]
    little_continues: bool
    exact: bool
    payment: int
    phase: str = "draw"  # draw | point | play | over
    draw_totals: tuple[int | None, ...] = ()
    draw_queue: tuple[int, ...] = ()
    first: int = 0
    lowest: int = 0
    point: int | None = None
    scores: tuple[int, ...] = ()
    out: tuple[bool, ...] = ()
    triple: tuple[bool, ...] = ()
    out_order: tuple[int, ...] = ()
    turn: int = 0
    dice: tuple[int, ...] = ()
    last_score: str | None = None
    loser: str | None = None
    winner: str | None = None


class BuckDice(DiceGame[BuckState]):
    name = "buck-dice"
    title = "Buck dice"
    native = "Бак Дайс"
    source = "000:89-94"
    min_players = 2
    max_players = 12
    options = (
        Option("payment", 1, "what the last player pays each other player (double to a triple-point buck)", lo=1, hi=1_000_000),
        Option(
            "little_buck_continues",
            False,
            "a little buck (three equal non-point faces, +5) lets the player throw on (text: the turn ends)",
        ),
        Option("exact_15", False, "buck needs exactly 15; a throw passing 15 scores nothing [REC false: 15 is a cap]"),
    )
    events = {"roll": {"dice": dice(1, 3)}}

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> BuckState:
        names = self.check_players(players)
        n = len(names)
        return BuckState(
            names,
            options["little_buck_continues"],
            options["exact_15"],
            options["payment"],
            draw_totals=(None,) * n,
            draw_queue=tuple(range(n)),
            scores=(0,) * n,
            out=(False,) * n,
            triple=(False,) * n,
        )

    def _thrower(self, state: BuckState) -> int:
        if state.phase == "draw":
            return state.draw_queue[0]
        if state.phase == "point":
            return state.lowest
        return state.turn

    def describe(self, state: BuckState) -> str:
        if state.phase == "over":
            return f"lost by {state.loser}"
        who = state.players[self._thrower(state)]
        if state.phase == "draw":
            return f"draw, {who} to throw"
        if state.phase == "point":
            return f"{who} throws the point number"
        return f"turn {who}, point {state.point}, score {state.scores[state.turn]}"

    def is_over(self, state: BuckState) -> bool:
        return state.phase == "over"

    def chance_outcomes(self, state: BuckState) -> tuple[Outcome, ...]:
        if state.phase == "over":
            return ()
        return roll_outcomes(1 if state.phase == "point" else 3)

    def _apply(self, state: BuckState, event: Event) -> BuckState:
        if state.phase == "over":
            raise self.illegal(event, state, f"the game is over, {state.loser} lost")
        thrown = event["dice"]
        need = 1 if state.phase == "point" else 3
        if len(thrown) != need:
            raise self.illegal(event, state, f"throw {need} dice, got {len(thrown)}")
        state = replace(state, dice=thrown)
        if state.phase == "draw":
            return self._draw(state, sum(thrown))
        if state.phase == "point":
            return replace(state, phase="play", point=thrown[0], turn=state.first)
        return self._play(state, thrown)

    def _draw(self, state: BuckState, total: int) -> BuckState:
        who = state.draw_queue[0]
        totals = tuple(total if k == who else t for k, t in enumerate(state.draw_totals))
        queue = state.draw_queue[1:]
        if queue:
            return replace(state, draw_totals=totals, draw_queue=queue)
        known = [t if t is not None else 0 for t in totals]
        top = [k for k, t in enumerate(known) if t == max(known)]
        low = [k for k, t in enumerate(known) if t == min(known)]
        again = sorted(set(top if len(top) > 1 else []) | set(low if len(low) > 1 else []))
        if again:
            return replace(state, draw_totals=totals, draw_queue=tuple(again))
        return replace(state, draw_totals=totals, draw_queue=(), phase="point", first=top[0], lowest=low[0])

    def _play(self, state: BuckState, thrown: tuple[int, ...]) -> BuckState:
        me = state.turn
        hits = thrown.count(state.point)
        score = state.scores[me]
        triple = False
        go_on = True
        if hits == 3:
            score, triple, text = BUCK, True, "three point numbers: buck"
        elif len(set(thrown)) == 1:
            gain, text = 5, "little buck +5"
            go_on = state.little_continues
            score, go_on, text = self._add(state, score, gain, go_on, text)
        elif hits:
            score, go_on, text = self._add(state, score, hits, True, f"+{hits}")
        else:
            go_on, text = False, "no point number"
        scores = tuple(score if k == me else s for k, s in enumerate(state.scores))
        state = replace(state, scores=scores, last_score=f"{state.players[me]}: {text}")
        if score >= BUCK:
            out = tuple(o or k == me for k, o in enumerate(state.out))
            trip = tuple(t or (k == me and triple) for k, t in enumerate(state.triple))
            state = replace(state, out=out, triple=trip, out_order=state.out_order + (me,))
            left = [k for k, o in enumerate(out) if not o]
            if len(left) == 1:
                n = len(state.players)
                loser = state.players[left[0]]
                winner = state.players[state.out_order[0]] if n == 2 else None
                return replace(state, phase="over", loser=loser, winner=winner)
            go_on = False
        if go_on:
            return state
        return replace(state, turn=next_seat(me, len(state.players), [not o for o in state.out]))

    def _add(self, state: BuckState, score: int, gain: int, go_on: bool, text: str) -> tuple[int, bool, str]:
        if score + gain > BUCK:
            if state.exact:
                return score, False, text + f" would pass {BUCK}: nothing"
            return BUCK, go_on, text
        return score + gain, go_on, text

    def payouts(self, state: BuckState) -> list[int]:
        if state.phase != "over":
            return [0] * len(state.players)
        out = [0] * len(state.players)
        lose = state.players.index(state.loser or "")
        for k in range(len(state.players)):
            if k != lose:
                amount = state.payment * (2 if state.triple[k] else 1)
                out[k] += amount
                out[lose] -= amount
        return out

    def view(self, state: BuckState, now: float) -> dict[str, Any]:
        pay = self.payouts(state)
        return {
            "players": [
                {"name": p, "score": s, "out": o, "triple": t, "draw": d, "payout": m}
                for p, s, o, t, d, m in zip(
                    state.players, state.scores, state.out, state.triple, state.draw_totals, pay
                )
            ],
            "phase": state.phase,
            "turn": None if state.phase == "over" else state.players[self._thrower(state)],
            "point": state.point,
            "dice": list(state.dice),
            "last_score": state.last_score,
            "out_order": [state.players[k] for k in state.out_order],
            "loser": state.loser,
            "winner": state.winner,
            "over": state.phase == "over",
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds buck-dice``: chances of one throw of three dice in play."""
        if params:
            raise ValueError(f"unknown odds parameter(s) {sorted(params)} for buck-dice; allowed: []")
        p = Fraction(1, 6)
        q = 1 - p
        return {
            "one_point": 3 * p * q * q,
            "two_points": 3 * p * p * q,
            "buck": p**3,
            "little_buck": 5 * p**3,
            "turn_ends": q**3 - 5 * p**3,
        }


GAMES = (BuckDice(),)
