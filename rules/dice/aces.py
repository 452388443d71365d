"""Aces / Тузи (000:48-50): get rid of your dice; the last ace loses.

Each player has five dice and in turn throws all the dice in hand: 1s (aces) go
to the centre, 2s to the left neighbour (the next player clockwise), 5s to the
right neighbour; 3s, 4s and 6s stay. A player with no dice is not finished
(neighbours may pass him dice) but is skipped while empty-handed [REC]. Play goes
on until every die is in the centre; whoever throws the last ace with the last
die **loses** (``loser``). With two players the other one is the winner; with
more, the text names only the loser (``winner`` stays null, ``over`` is true).
Players are listed in playing order (the text draws it by a one-die throw).

>>> from rules import Session
>>> s = Session.start({"game": "aces", "players": ["Ann", "Bob", "Cid"]})
>>> v = s.submit({"type": "roll", "dice": [1, 2, 5, 3, 6]}).view()
>>> [p["dice"] for p in v["players"]], v["centre"]
([2, 6, 6], 1)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..events import Event, dice
from ..game import Option
from ._dicekit import DiceGame, Outcome, check_params, int_param, next_seat, roll_outcomes


@dataclass(frozen=True)
class AcesState:
    players: tuple[str, ...]
    hands: tuple[int, ...]
    centre: int = 0
    turn: int = 0
    dice: tuple[int, ...] = ()
    last_move: tuple[int, int, int, int] = (0, 0, 0, 0)  # to centre, to left, to right, kept
    loser: str | None = None
    winner: str | None = None
    draw: tuple[int | None, ...] = ()  # the starting draw (empty without one)
    drawing: bool = False


class Aces(DiceGame[AcesState]):
    name = "aces"
    title = "Aces"
    native = "Тузи"
    source = "000:48-50"
    min_players = 2
    max_players = 10
    options = (
        Option("dice_each", 5, "dice each player starts with", lo=1, hi=10),
        Option(
            "draw_order",
            False,
            "start with a draw: each throws one die in turn, the lowest starts (the first to throw it on a tie)"
            " and play goes clockwise (false: the listed order)",
        ),
    )
    events = {"roll": {"dice": dice(1, 50)}}

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> AcesState:
        names = self.check_players(players)
        state = AcesState(names, (options["dice_each"],) * len(names))
        if options["draw_order"]:
            state = replace(state, draw=(None,) * len(names), drawing=True)
        return state

    def describe(self, state: AcesState) -> str:
        if state.loser:
            return f"lost by {state.loser}"
        if state.drawing:
            return f"starting draw, {state.players[state.turn]} to throw one die"
        return f"turn {state.players[state.turn]} with {state.hands[state.turn]} dice, {state.centre} in the centre"

    def is_over(self, state: AcesState) -> bool:
        return state.loser is not None

    def chance_outcomes(self, state: AcesState) -> tuple[Outcome, ...]:
        if state.loser:
            return ()
        return roll_outcomes(1 if state.drawing else state.hands[state.turn])

    def _apply(self, state: AcesState, event: Event) -> AcesState:
        if state.loser is not None:
            raise self.illegal(event, state, f"the game is over, {state.loser} lost")
        thrown = event["dice"]
        me = state.turn
        if state.drawing:
            if len(thrown) != 1:
                raise self.illegal(event, state, f"the starting draw: throw one die, got {len(thrown)}")
            draw = tuple(thrown[0] if k == me else d for k, d in enumerate(state.draw))
            if me + 1 < len(state.players):
                return replace(state, draw=draw, turn=me + 1, dice=thrown)
            low = min(d or 0 for d in draw)
            return replace(state, draw=draw, drawing=False, turn=draw.index(low), dice=thrown)
        if len(thrown) != state.hands[me]:
            raise self.illegal(event, state, f"throw all {state.hands[me]} dice in hand, got {len(thrown)}")
        n = len(state.players)
        aces, lefts, rights = thrown.count(1), thrown.count(2), thrown.count(5)
        left, right = (me + 1) % n, (me - 1) % n
        hands = list(state.hands)
        hands[me] -= aces + lefts + rights
        hands[left] += lefts
        hands[right] += rights
        centre = state.centre + aces
        state = replace(
            state,
            hands=tuple(hands),
            centre=centre,
            dice=thrown,
            last_move=(aces, lefts, rights, len(thrown) - aces - lefts - rights),
        )
        if not any(hands):
            winner = state.players[1 - me] if n == 2 else None
            return replace(state, loser=state.players[me], winner=winner)
        return replace(state, turn=next_seat(me, n, [h > 0 for h in hands]))

    def view(self, state: AcesState, now: float) -> dict[str, Any]:
        c, lft, r, k = state.last_move
        return {
            "players": [{"name": p, "dice": h} for p, h in zip(state.players, state.hands)],
            "turn": None if state.loser else state.players[state.turn],
            "centre": state.centre,
            "dice": list(state.dice),
            "last_move": {"centre": c, "left": lft, "right": r, "kept": k},
            "draw": list(state.draw),
            "phase": "over" if state.loser else ("draw" if state.drawing else "play"),
            "loser": state.loser,
            "winner": state.winner,
            "over": state.loser is not None,
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds aces [--dice N]``: for a throw of N dice, the chance of at
        least one ace, of keeping every die, and of emptying the hand."""
        check_params(params, ("dice",), self.name)
        n = int_param(params, "dice", 5, 1, 50)
        return {
            "at_least_one_ace": 1 - Fraction(5, 6) ** n,
            "all_kept": Fraction(1, 2) ** n,
            "hand_emptied": Fraction(1, 2) ** n,
            "expected_aces": Fraction(n, 6),
        }


GAMES = (Aces(),)
