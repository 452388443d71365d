"""Craps / Крепс (000:24-26): two dice, come-out and point.

The shooter's first sum (come-out) wins on 7 or 11 and loses on 2, 3 or 12 (the
text prints "2, 8, 12": option ``losing_sums``, RULES.md §1.3). Any other sum is
the *point*: the shooter throws on until the point (win) or a 7 (loss).

The text has one shooter and no stakes; at the table players take turns as
shooter for ``rounds`` rounds each [REC], a won round scores 1, the most won
rounds wins and a tie sends the tied leaders round again.

>>> from rules import Session
>>> s = Session.start({"game": "craps", "players": ["Ann", "Bob"]})
>>> s.submit({"type": "roll", "dice": [3, 3]}).view()["point"]
6
>>> s.submit({"type": "roll", "dice": [5, 1]}).view()["last_result"]
'Ann won on the point 6'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..events import Event, dice
from ..game import Option
from ._dicekit import DiceGame, Outcome, check_params, int_param, leaders, roll_outcomes, sum_distribution

LOSING = {"2-3-12": (2, 3, 12), "2-8-12": (2, 8, 12)}


@dataclass(frozen=True)
class CrapsState:
    players: tuple[str, ...]
    wins: tuple[int, ...]
    shots: tuple[int, ...]  # rounds shot by each player
    rounds: int
    losing: tuple[int, ...]
    turn: int = 0
    point: int | None = None
    dice: tuple[int, ...] = ()
    throws: int = 0  # throws of this round
    contenders: tuple[bool, ...] = ()  # who shoots in this cycle (tie play-off)
    last_result: str | None = None
    winner: str | None = None


def pass_line_win(losing: Sequence[int] = (2, 3, 12)) -> Fraction:
    """Exact chance that the shooter wins a round.

    >>> pass_line_win()
    Fraction(244, 495)
    """
    dist = sum_distribution(2)
    win = Fraction(0)
    for total, p in dist.items():
        if total in (7, 11):
            win += p
        elif total not in losing:
            win += p * dist[total] / (dist[total] + dist[7])
    return win


class Craps(DiceGame[CrapsState]):
    name = "craps"
    title = "Craps"
    native = "Крепс"
    source = "000:24-26"
    min_players = 2
    max_players = 12
    options = (
        Option(
            "losing_sums",
            "2-3-12",
            "come-out sums that lose: standard 2-3-12 [REC]; the text prints 2-8-12 (then 3 is a point and 8 loses)",
            choices=tuple(LOSING),
        ),
        Option("rounds", 1, "rounds each player shoots; the most won rounds wins [REC]", lo=1, hi=100),
    )
    events = {"roll": {"dice": dice(2, 2)}}

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> CrapsState:
        names = self.check_players(players)
        n = len(names)
        return CrapsState(
            names, (0,) * n, (0,) * n, options["rounds"], LOSING[options["losing_sums"]], contenders=(True,) * n
        )

    def describe(self, state: CrapsState) -> str:
        if state.winner:
            return f"won by {state.winner}"
        shooter = state.players[state.turn]
        return f"shooter {shooter}, " + ("come-out" if state.point is None else f"point {state.point}")

    def is_over(self, state: CrapsState) -> bool:
        return state.winner is not None

    def chance_outcomes(self, state: CrapsState) -> tuple[Outcome, ...]:
        return () if state.winner else roll_outcomes(2)

    def _apply(self, state: CrapsState, event: Event) -> CrapsState:
        if state.winner is not None:
            raise self.illegal(event, state, f"the game is over, {state.winner} won")
        total = sum(event["dice"])
        shooter = state.players[state.turn]
        state = replace(state, dice=tuple(event["dice"]), throws=state.throws + 1)
        if state.point is None:
            if total in (7, 11):
                return self._end_round(state, True, f"{shooter} won with {total} on the come-out")
            if total in state.losing:
                return self._end_round(state, False, f"{shooter} lost with {total} on the come-out")
            return replace(state, point=total, last_result=None)
        if total == state.point:
            return self._end_round(state, True, f"{shooter} won on the point {total}")
        if total == 7:
            return self._end_round(state, False, f"{shooter} lost with 7 before the point {state.point}")
        return state

    def _end_round(self, state: CrapsState, won: bool, text: str) -> CrapsState:
        i = state.turn
        wins = tuple(w + (1 if won and k == i else 0) for k, w in enumerate(state.wins))
        shots = tuple(s + (1 if k == i else 0) for k, s in enumerate(state.shots))
        state = replace(state, wins=wins, shots=shots, point=None, throws=0, last_result=text)
        n = len(state.players)
        nxt = i + 1
        while nxt < n and not state.contenders[nxt]:
            nxt += 1
        if nxt < n:
            return replace(state, turn=nxt)
        # the cycle is complete
        cycle_done = all(s >= state.rounds for s in shots)
        if cycle_done:
            names = [p for p, c in zip(state.players, state.contenders) if c]
            scores = [w for w, c in zip(wins, state.contenders) if c]
            top = leaders(names, scores)
            if len(top) == 1:
                return replace(state, winner=top[0], turn=0)
            contenders = tuple(p in top for p in state.players)
        else:
            contenders = state.contenders
        return replace(state, contenders=contenders, turn=contenders.index(True))

    def view(self, state: CrapsState, now: float) -> dict[str, Any]:
        return {
            "players": [
                {"name": p, "score": w, "rounds": s} for p, w, s in zip(state.players, state.wins, state.shots)
            ],
            "turn": None if state.winner else state.players[state.turn],
            "phase": "over" if state.winner else ("come_out" if state.point is None else "point"),
            "point": state.point,
            "dice": list(state.dice),
            "sum": sum(state.dice) if state.dice else None,
            "throws": state.throws,
            "last_result": state.last_result,
            "losing_sums": list(state.losing),
            "playoff": state.winner is None and min(state.shots) >= state.rounds,
            "winner": state.winner,
            "over": state.winner is not None,
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds craps [--losing_sums 2-8-12] [--point N]``: the pass-line win
        probability (244/495 by default); with a point, the chance to make it."""
        check_params(params, ("losing_sums", "point"), self.name)
        key = params.get("losing_sums", "2-3-12")
        if key not in LOSING:
            raise ValueError(f"--losing_sums must be one of {list(LOSING)}, got {key!r}")
        dist = sum_distribution(2)
        out = {"pass_line_win": pass_line_win(LOSING[key]), "come_out_win": dist[7] + dist[11]}
        out["come_out_lose"] = sum((dist[t] for t in LOSING[key]), Fraction(0))
        if "point" in params:
            point = int_param(params, "point", 4, 2, 12)
            if point in (7, 11) or point in LOSING[key]:
                raise ValueError(f"--point must be a point sum, got {params['point']!r}")
            out["make_point"] = dist[point] / (dist[point] + dist[7])
        return out


GAMES = (Craps(),)
