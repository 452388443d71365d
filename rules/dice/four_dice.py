"""Four dice / Чотири кубики (000:52-54): at least one six wins for "the first".

Four dice are thrown; at least one 6 and the first player wins, otherwise the
other does (the text's 51.8% is 1 - (5/6)^4 = 671/1296). Who throws is not
stated [REC]: one throw per game, the role of "first" alternates between games,
and a match is best of ``best_of`` games.

>>> from rules import Session
>>> s = Session.start({"game": "four-dice", "players": ["Ann", "Bob"]})
>>> s.submit({"type": "roll", "dice": [1, 2, 6, 3]}).view()["winner"]
'Ann'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..events import Event, dice
from ..game import Option
from ._dicekit import DiceGame, Outcome, check_params, int_param, roll_outcomes


@dataclass(frozen=True)
class FourDiceState:
    players: tuple[str, ...]
    wins: tuple[int, ...] = (0, 0)
    first: int = 0  # who holds the role of "the first" in this game
    game_no: int = 1
    best_of: int = 1
    alternate: bool = True
    dice: tuple[int, ...] = ()
    last_result: str | None = None
    winner: str | None = None


def at_least_one_six(n: int = 4) -> Fraction:
    """Chance of at least one six among ``n`` dice.

    >>> at_least_one_six(4)
    Fraction(671, 1296)
    """
    return 1 - Fraction(5, 6) ** n


class FourDice(DiceGame[FourDiceState]):
    name = "four-dice"
    title = "Four dice"
    native = "Чотири кубики"
    source = "000:52-54"
    min_players = 2
    max_players = 2
    options = (
        Option("best_of", 1, "games in the match; the first to win more than half wins [REC]", lo=1, hi=99),
        Option("alternate_first", True, "the role of 'the first' (who wins on a six) alternates between games [REC]"),
    )
    events = {"roll": {"dice": dice(4, 4)}}

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> FourDiceState:
        return FourDiceState(self.check_players(players), best_of=options["best_of"], alternate=options["alternate_first"])

    def describe(self, state: FourDiceState) -> str:
        if state.winner:
            return f"won by {state.winner}"
        return f"game {state.game_no}, first {state.players[state.first]}"

    def is_over(self, state: FourDiceState) -> bool:
        return state.winner is not None

    def chance_outcomes(self, state: FourDiceState) -> tuple[Outcome, ...]:
        return () if state.winner else roll_outcomes(4)

    def _apply(self, state: FourDiceState, event: Event) -> FourDiceState:
        if state.winner is not None:
            raise self.illegal(event, state, f"the game is over, {state.winner} won")
        six = 6 in event["dice"]
        won = state.first if six else 1 - state.first
        wins = tuple(w + (k == won) for k, w in enumerate(state.wins))
        name = state.players[won]
        text = f"{name} won game {state.game_no}: " + ("a six" if six else "no six")
        state = replace(state, wins=wins, dice=tuple(event["dice"]), last_result=text)
        if wins[won] > state.best_of // 2:
            return replace(state, winner=name)
        first = 1 - state.first if state.alternate else state.first
        return replace(state, first=first, game_no=state.game_no + 1)

    def view(self, state: FourDiceState, now: float) -> dict[str, Any]:
        return {
            "players": [{"name": p, "score": w} for p, w in zip(state.players, state.wins)],
            "turn": None if state.winner else state.players[state.first],
            "first": state.players[state.first],
            "game_no": state.game_no,
            "best_of": state.best_of,
            "dice": list(state.dice),
            "last_result": state.last_result,
            "winner": state.winner,
            "over": state.winner is not None,
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds four-dice [--dice N]``: the first player's chance (at least one
        six in four dice, 671/1296) and the other's."""
        check_params(params, ("dice",), self.name)
        n = int_param(params, "dice", 4, 1, 20)
        p = at_least_one_six(n)
        return {"first_player_wins": p, "other_player_wins": 1 - p, "at_least_one_six": p}


GAMES = (FourDice(),)
