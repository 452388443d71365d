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
from ..game import Game, Option


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


class Pig(Game[PigState]):
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
        )

    def describe(self, state: PigState) -> str:
        if state.winner:
            return f"won by {state.winner}"
        return f"turn {state.players[state.turn]}, series {state.turn_total}"

    def _apply(self, state: PigState, event: Event) -> PigState:
        if state.winner is not None:
            raise self.illegal(event, state, f"the game is over, {state.winner} won")
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

    def _next_turn(self, state: PigState) -> PigState:
        nxt = (state.turn + 1) % len(state.players)
        if nxt == 0:  # the round is complete
            if state.final_round:
                best = max(state.scores)
                leaders = [p for p, s in zip(state.players, state.scores) if s == best]
                if len(leaders) == 1:
                    return replace(state, turn=0, winner=leaders[0])
            return replace(state, turn=0, round=state.round + 1)
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
            "winner": state.winner,
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds pig [--hold N]``: chance a series banks at least N (default 20)
        before a 1, and the chance of a 1 on the next throw."""
        unknown = sorted(set(params) - {"hold"})
        if unknown:
            raise ValueError(f"unknown odds parameter(s) {unknown} for pig; allowed: ['hold']")
        hold = int(params.get("hold", "20"))
        if not 1 <= hold <= 200:
            raise ValueError(f"--hold must be in 1..200, got {hold}")
        return {"next_throw_is_1": Fraction(1, 6), f"series_reaches_{hold}": _reach(hold, 0)}


@lru_cache(maxsize=None)
def _reach(hold: int, total: int) -> Fraction:
    """Chance that a series now at ``total`` reaches ``hold`` before a 1."""
    if total >= hold:
        return Fraction(1)
    return sum((Fraction(1, 6) * _reach(hold, total + face) for face in range(2, 7)), Fraction(0))


GAMES = (Pig(),)
