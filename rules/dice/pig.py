"""Pig / Свиня (000:40-46): one die, race to 100, a 1 loses the series.

Each player in turn throws as often as they like, adding the pips to the series
(``turn_total``); a 1 wipes the series and passes the die; ``stop`` banks it.
All players get the same number of series: when someone reaches the target the
round is completed, the highest score wins and a tie plays further full rounds
(RULES.md §1.6, [REC] defaults; ``finish_round=false`` ends at the first banker).

>>> from rules import Session
>>> s = Session.start({"game": "pig", "players": ["Ann", "Bob"]})
>>> for e in ({"type": "roll", "dice": [4]}, {"type": "roll", "dice": [6]},
...           {"type": "roll", "dice": [3]}, {"type": "stop"}):
...     _ = s.submit(e)
>>> s.view()["players"][0]
{'name': 'Ann', 'score': 13}
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping, Sequence

from ..events import Event, dice
from ..game import Option
from ._dicekit import DiceGame, Outcome, check_params, int_param, roll_outcomes


@dataclass(frozen=True)
class PigState:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    turn: int = 0
    turn_total: int = 0
    rolls: tuple[int, ...] = ()  # this series' throws
    last_roll: int | None = None
    round: int = 1
    final_round: bool = False  # someone reached the target; finish the round
    winner: str | None = None
    target: int = 100
    finish_round: bool = True
    starter: int = 0  # who opens each round (set by the starting draw)
    draw: tuple[int | None, ...] = ()  # starting-draw throws (empty without a draw)
    draw_pool: tuple[int, ...] = ()  # players of the current draw pass
    drawing: tuple[int, ...] = ()  # players still to throw in it


class Pig(DiceGame[PigState]):
    name = "pig"
    title = "Pig"
    native = "Свиня"
    family = "dice"
    source = "000:40-46"
    min_players = 2
    max_players = 12
    options = (
        Option("target", 100, "points to reach", lo=10, hi=1000),
        Option(
            "finish_round",
            True,
            "when someone reaches the target, the round is completed so all have had as many series;"
            " the highest score wins and a tie plays further rounds (false: the first to bank the target wins)",
        ),
        Option(
            "draw_order",
            False,
            "start with a draw: each throws one die, the lowest starts and play goes clockwise from him,"
            " ties for the lowest throw again [REC] (false: the listed order)",
        ),
    )
    events = {"roll": {"dice": dice(1, 1)}, "stop": {}}
    keypad = {"stop": {"type": "stop"}}

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> PigState:
        names = self.check_players(players)
        return PigState(
            players=names,
            scores=(0,) * len(names),
            target=options["target"],
            finish_round=options["finish_round"],
            draw=(None,) * len(names) if options["draw_order"] else (),
            draw_pool=tuple(range(len(names))) if options["draw_order"] else (),
            drawing=tuple(range(len(names))) if options["draw_order"] else (),
        )

    def describe(self, state: PigState) -> str:
        if state.winner:
            return f"won by {state.winner}"
        if state.drawing:
            return f"starting draw, {state.players[state.turn]} to throw"
        return f"turn {state.players[state.turn]}, series {state.turn_total}"

    def _apply(self, state: PigState, event: Event) -> PigState:
        if state.winner is not None:
            raise self.illegal(event, state, f"the game is over, {state.winner} won")
        if state.drawing:
            if event.type != "roll":
                raise self.illegal(event, state, "the starting draw: throw one die")
            return self._draw(state, event["dice"][0])
        if event.type == "roll":
            (value,) = event["dice"]
            if value == 1:
                return self._next_turn(replace(state, turn_total=0, rolls=(), last_roll=1))
            return replace(state, turn_total=state.turn_total + value, rolls=state.rolls + (value,), last_roll=value)
        # stop
        if not state.rolls:
            raise self.illegal(event, state, "throw at least once before stopping")
        scores = list(state.scores)
        scores[state.turn] += state.turn_total
        banked = replace(state, scores=tuple(scores), turn_total=0, rolls=())
        if scores[state.turn] >= state.target:
            if not state.finish_round:
                return replace(banked, winner=state.players[state.turn])
            banked = replace(banked, final_round=True)
        return self._next_turn(banked)

    def _draw(self, state: PigState, value: int) -> PigState:
        me = state.drawing[0]
        draw = tuple(value if k == me else d for k, d in enumerate(state.draw))
        rest = state.drawing[1:]
        if rest:
            return replace(state, draw=draw, drawing=rest, turn=rest[0], last_roll=value)
        low = min(draw[k] or 0 for k in state.draw_pool)
        tied = tuple(k for k in state.draw_pool if draw[k] == low)
        if len(tied) > 1:  # the tied throw again
            return replace(state, draw=draw, draw_pool=tied, drawing=tied, turn=tied[0], last_roll=value)
        return replace(state, draw=draw, drawing=(), starter=tied[0], turn=tied[0], last_roll=None)

    def _next_turn(self, state: PigState) -> PigState:
        nxt = (state.turn + 1) % len(state.players)
        if nxt == state.starter:  # the round is complete
            if state.final_round:
                best = max(state.scores)
                leaders = [p for p, s in zip(state.players, state.scores) if s == best]
                if len(leaders) == 1:
                    return replace(state, turn=nxt, winner=leaders[0])
            return replace(state, turn=nxt, round=state.round + 1)
        return replace(state, turn=nxt)

    def view(self, state: PigState, now: float) -> dict[str, Any]:
        return {
            "players": [{"name": n, "score": s} for n, s in zip(state.players, state.scores)],
            "turn": None if state.winner else state.players[state.turn],
            "turn_total": state.turn_total,
            "rolls": list(state.rolls),
            "dice": [] if state.last_roll is None else [state.last_roll],
            "round": state.round,
            "final_round": state.final_round,
            "target": state.target,
            "phase": "over" if state.winner else ("draw" if state.drawing else "play"),
            "draw": list(state.draw),
            "starter": state.players[state.starter],
            "winner": state.winner,
            "over": state.winner is not None,
        }

    def is_over(self, state: PigState) -> bool:
        return state.winner is not None

    def chance_outcomes(self, state: PigState) -> tuple[Outcome, ...]:
        return () if state.winner is not None else roll_outcomes(1)

    def decisions(self, state: PigState) -> list[dict[str, Any]]:
        return [{"type": "stop"}] if state.winner is None and state.rolls and not state.drawing else []

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds pig [--hold N]``: chance a series banks at least N (default 20)
        before a 1, and the chance of a 1 on the next throw.

        ``refbox odds pig --strategy optimal|hold [--hold N] [--target T]``: the first
        player's chance to win a two-player game (first to bank T wins) when both play
        optimally (Neller & Presser: 0.5306 for T=100) or both hold at N (0.5347 for
        N=20); floats from the fixed point, given as a 10-decimal fraction.
        """
        check_params(params, ("hold", "strategy", "target"), "pig")
        hold = int_param(params, "hold", 20, 1, 200)
        strategy = params.get("strategy")
        if strategy is None:
            return {"next_throw_is_1": Fraction(1, 6), f"series_reaches_{hold}": _reach(hold, 0)}
        if strategy not in ("optimal", "hold"):
            raise ValueError(f"--strategy must be optimal or hold, got {strategy!r}")
        target = int_param(params, "target", 100, 2, 200)
        p = first_player_wins(target, None if strategy == "optimal" else hold)
        return {"first_player_wins": Fraction(f"{p:.10f}")}


@lru_cache(maxsize=None)
def _reach(hold: int, total: int) -> Fraction:
    """Chance that a series now at ``total`` reaches ``hold`` before a 1."""
    if total >= hold:
        return Fraction(1)
    return sum((Fraction(1, 6) * _reach(hold, total + face) for face in range(2, 7)), Fraction(0))


def first_player_wins(target: int = 100, hold: int | None = None) -> float:
    """Chance that the first player wins two-player Pig to ``target`` (first to bank it
    wins at once), both playing optimally (``hold=None``) or both holding at ``hold``.

    Solved exactly as in Neller & Presser, layer by layer over the score sum: the
    states of a pair (i, j) and (j, i) depend on each other only through the values
    at turn total 0, and each is a piecewise-linear function of the other's, so a
    Newton step on the pair's fixed point is exact once the right pieces are found.

    >>> round(first_player_wins(100), 4), round(first_player_wins(100, 20), 4)
    (0.5306, 0.5347)
    """
    return _pig_table(target, hold)[0][0][0]


@lru_cache(maxsize=2)  # a table to 100 holds ~250k floats
def _pig_table(target: int, hold: int | None) -> list[list[list[float]]]:
    """``P[i][j][k]``: the mover's winning chance with score i, opponent j, series k."""
    T = target
    P: list[list[list[float]]] = [[[] for _ in range(T)] for _ in range(T)]
    sixth = 1.0 / 6.0

    def series(i: int, j: int, y: float) -> tuple[list[float], list[float]]:
        # values and d/dy of P(i, j, k) for k = 0..T-1-i, given y = P(j, i, 0)
        n = T - i
        val = [0.0] * n + [1.0] * 6
        slope = [0.0] * (n + 6)
        other = P[j]
        for k in range(n - 1, -1, -1):
            roll = sixth * (1.0 - y + val[k + 2] + val[k + 3] + val[k + 4] + val[k + 5] + val[k + 6])
            if k:
                bank = 1.0 - other[i + k][0]
                if (bank > roll) if hold is None else (k >= hold):
                    val[k] = bank
                    continue
            val[k] = roll
            slope[k] = sixth * (-1.0 + slope[k + 2] + slope[k + 3] + slope[k + 4] + slope[k + 5] + slope[k + 6])
        return val[:n], slope[:n]

    for total in range(2 * T - 2, -1, -1):
        for i in range(max(0, total - T + 1), total // 2 + 1):
            j = total - i
            x = 0.5  # P(i, j, 0)
            for _ in range(100):
                vj, sj = series(j, i, x)
                vi, si = series(i, j, vj[0])
                step = (x - vi[0]) / (1.0 - si[0] * sj[0])
                x -= step
                if abs(step) < 1e-15:
                    break
            vj, _ = series(j, i, x)
            P[j][i] = vj
            P[i][j] = series(i, j, vj[0])[0]
    return P


GAMES = (Pig(),)
