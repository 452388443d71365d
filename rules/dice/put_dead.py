"""Put dead / Stuck in the mud / Клади мертву (000:56-64): 2s and 5s die.

The player throws all live dice (five at first). With no 2 and no 5 the sum is
added to his score; otherwise the throw scores nothing and every die showing a 2
or a 5 is dead and set aside. He goes on with the live dice until all five are
dead, then the next player plays. The highest total wins. The number of turns is
not stated: ``turns_per_player`` (1 [REC]); equal totals share the win (``tied``).

>>> from rules import Session
>>> s = Session.start({"game": "put-dead", "players": ["Ann", "Bob"]})
>>> v = s.submit({"type": "roll", "dice": [2, 3, 3, 5, 6]}).view()
>>> v["live"], v["turn_total"]
(3, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any, Mapping, Sequence

from ..events import Event, dice
from ..game import Option
from ._dicekit import DiceGame, Outcome, check_params, int_param, leaders, roll_outcomes

DEAD = (2, 5)
DICE = 5


@dataclass(frozen=True)
class PutDeadState:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    turns_per_player: int
    turn: int = 0
    round: int = 1
    live: int = DICE
    turn_total: int = 0
    dice: tuple[int, ...] = ()
    over: bool = False
    tied: tuple[str, ...] = ()
    winner: str | None = None


@lru_cache(maxsize=None)
def expected_turn(live: int) -> Fraction:
    """Expected points still to come in a turn with ``live`` dice.

    >>> expected_turn(1)
    Fraction(7, 1)
    """
    if live == 0:
        return Fraction(0)
    keep = Fraction(2, 3)
    p_clean = keep**live
    rest = sum(
        (comb(live, k) * Fraction(1, 3) ** k * keep ** (live - k) * expected_turn(live - k) for k in range(1, live + 1)),
        Fraction(0),
    )
    # a clean throw scores live * 7/2 on average (faces 1, 3, 4, 6) and repeats the state
    return (p_clean * live * Fraction(7, 2) + rest) / (1 - p_clean)


class PutDead(DiceGame[PutDeadState]):
    name = "put-dead"
    title = "Put dead (Stuck in the mud)"
    native = "Клади мертву"
    source = "000:56-64"
    min_players = 1
    max_players = 12
    options = (Option("turns_per_player", 1, "turns each player plays; the text does not say [REC 1]", lo=1, hi=20),)
    events = {"roll": {"dice": dice(1, DICE)}}

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> PutDeadState:
        names = self.check_players(players)
        return PutDeadState(names, (0,) * len(names), options["turns_per_player"])

    def describe(self, state: PutDeadState) -> str:
        if state.over:
            return "game over"
        return f"turn {state.players[state.turn]}, {state.live} live dice"

    def is_over(self, state: PutDeadState) -> bool:
        return state.over

    def chance_outcomes(self, state: PutDeadState) -> tuple[Outcome, ...]:
        return () if state.over else roll_outcomes(state.live)

    def _apply(self, state: PutDeadState, event: Event) -> PutDeadState:
        if state.over:
            raise self.illegal(event, state, "the game is over")
        thrown = event["dice"]
        if len(thrown) != state.live:
            raise self.illegal(event, state, f"throw all {state.live} live dice, got {len(thrown)}")
        dead = sum(1 for d in thrown if d in DEAD)
        if dead == 0:
            scores = tuple(s + (sum(thrown) if k == state.turn else 0) for k, s in enumerate(state.scores))
            return replace(state, scores=scores, dice=thrown, turn_total=state.turn_total + sum(thrown))
        state = replace(state, dice=thrown, live=state.live - dead)
        if state.live:
            return state
        n = len(state.players)
        nxt = (state.turn + 1) % n
        if nxt == 0 and state.round == state.turns_per_player:
            top = leaders(state.players, state.scores)
            one = len(top) == 1
            return replace(state, over=True, winner=top[0] if one else None, tied=() if one else tuple(top))
        return replace(state, turn=nxt, live=DICE, turn_total=0, round=state.round + (nxt == 0))

    def view(self, state: PutDeadState, now: float) -> dict[str, Any]:
        return {
            "players": [{"name": p, "score": s} for p, s in zip(state.players, state.scores)],
            "turn": None if state.over else state.players[state.turn],
            "turn_total": state.turn_total,
            "live": state.live,
            "dead": DICE - state.live,
            "dice": list(state.dice),
            "round": state.round,
            "turns_per_player": state.turns_per_player,
            "winner": state.winner,
            "tied": list(state.tied),
            "over": state.over,
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds put-dead [--live N]``: chance a throw of N live dice scores and
        the expected points still to come in the turn."""
        check_params(params, ("live",), self.name)
        live = int_param(params, "live", DICE, 1, DICE)
        return {"throw_scores": Fraction(2, 3) ** live, "expected_turn_points": expected_turn(live)}


GAMES = (PutDead(),)
