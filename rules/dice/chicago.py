"""Chicago / Чикаго (000:66-72): eleven rounds, target sums 2 to 12.

Round r (1..11) asks for the sum r + 1 with two dice; in the text's mode
(``mode=first_hit``) players throw once each in rotation and the first to throw
the target scores it, then the next round begins, the starting player rotating
each round [REC]. ``mode=each_player_one_throw`` is the usual Chicago: every
player throws once per round and every hit scores. The highest total after 11
rounds wins; equal totals share the win (``tied``).

>>> from rules import Session
>>> s = Session.start({"game": "chicago", "players": ["Ann", "Bob"]})
>>> v = s.submit({"type": "roll", "dice": [1, 2]}).submit({"type": "roll", "dice": [1, 1]}).view()
>>> v["players"][1]["score"], v["round"], v["target"]
(2, 2, 3)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..events import Event, dice
from ..game import Option
from ._dicekit import DiceGame, Outcome, check_params, int_param, leaders, roll_outcomes, sum_distribution

ROUNDS = 11


@dataclass(frozen=True)
class ChicagoState:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    mode: str
    rotate: bool = True
    round: int = 1
    starter: int = 0
    turn: int = 0
    thrown: int = 0  # throws in this round
    dice: tuple[int, ...] = ()
    last_hit: str | None = None
    over: bool = False
    tied: tuple[str, ...] = ()
    winner: str | None = None


class Chicago(DiceGame[ChicagoState]):
    name = "chicago"
    title = "Chicago"
    native = "Чикаго"
    source = "000:66-72"
    min_players = 1
    max_players = 12
    options = (
        Option(
            "mode",
            "first_hit",
            "first_hit: throw in rotation until someone makes the round's sum (text); "
            "each_player_one_throw: one throw each per round, every hit scores",
            choices=("first_hit", "each_player_one_throw"),
        ),
        Option("rotate_start", True, "the starting player moves one seat each round [REC] (false: always the first)"),
    )
    events = {"roll": {"dice": dice(2, 2)}}

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> ChicagoState:
        names = self.check_players(players)
        return ChicagoState(names, (0,) * len(names), options["mode"], options["rotate_start"])

    def describe(self, state: ChicagoState) -> str:
        if state.over:
            return "game over"
        return f"round {state.round}, target {state.round + 1}, turn {state.players[state.turn]}"

    def is_over(self, state: ChicagoState) -> bool:
        return state.over

    def chance_outcomes(self, state: ChicagoState) -> tuple[Outcome, ...]:
        return () if state.over else roll_outcomes(2)

    def _apply(self, state: ChicagoState, event: Event) -> ChicagoState:
        if state.over:
            raise self.illegal(event, state, "the game is over")
        target = state.round + 1
        n = len(state.players)
        hit = sum(event["dice"]) == target
        scores = tuple(s + (target if hit and k == state.turn else 0) for k, s in enumerate(state.scores))
        state = replace(
            state,
            scores=scores,
            dice=tuple(event["dice"]),
            thrown=state.thrown + 1,
            last_hit=state.players[state.turn] if hit else state.last_hit,
        )
        round_done = hit if state.mode == "first_hit" else state.thrown == n
        if not round_done:
            return replace(state, turn=(state.turn + 1) % n)
        if state.round == ROUNDS:
            top = leaders(state.players, scores)
            return replace(state, over=True, winner=top[0] if len(top) == 1 else None, tied=tuple(top) if len(top) > 1 else ())
        starter = (state.starter + 1) % n if state.rotate else 0
        return replace(state, round=state.round + 1, starter=starter, turn=starter, thrown=0)

    def view(self, state: ChicagoState, now: float) -> dict[str, Any]:
        return {
            "players": [{"name": p, "score": s} for p, s in zip(state.players, state.scores)],
            "turn": None if state.over else state.players[state.turn],
            "round": state.round,
            "rounds": ROUNDS,
            "target": state.round + 1,
            "throws_this_round": state.thrown,
            "dice": list(state.dice),
            "last_hit": state.last_hit,
            "winner": state.winner,
            "tied": list(state.tied),
            "over": state.over,
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds chicago [--round R]``: the chance one throw makes the round's
        sum and the expected number of throws until somebody does."""
        check_params(params, ("round",), self.name)
        r = int_param(params, "round", 1, 1, ROUNDS)
        p = sum_distribution(2)[r + 1]
        return {"hit": p, "expected_throws": 1 / p}


GAMES = (Chicago(),)
