"""High dice / Хай Дайс (000:96-98): the punter must beat the banker's two dice.

The first player is the banker, the second the punter. The banker throws two
dice first; a strictly higher punter total wins and the banker pays one stake,
otherwise the punter pays one stake (equal totals favour the banker). In the
variant with ``extra_throws`` (1 or 2) the punter may throw again after a
failure, "provisionally taking" a stake each time: failing after k throws costs
k stakes. A win on throw k > 1 pays one stake [REC] or k (``win_pays``).
``bet`` changes the stake before a game's first throw. The best balance after
``games`` games wins.

>>> from rules import Session
>>> s = Session.start({"game": "high-dice", "players": ["Bank", "Pat"]})
>>> v = s.submit({"type": "roll", "dice": [4, 4]}).submit({"type": "roll", "dice": [5, 3]}).view()
>>> [p["balance"] for p in v["players"]]
[1, -1]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..events import Event, dice, integer
from ..game import Option
from ._dicekit import DiceGame, Outcome, check_params, int_param, roll_outcomes, sum_distribution

BANKER, PUNTER = 0, 1


@dataclass(frozen=True)
class HighState:
    players: tuple[str, ...]
    extra_throws: int
    win_pays: str
    games: int
    stake: int
    balances: tuple[int, int] = (0, 0)
    game_no: int = 1
    banker_total: int | None = None
    punter_throws: tuple[int, ...] = ()  # punter totals of this game
    dice: tuple[int, ...] = ()
    last_result: str | None = None
    over: bool = False
    winner: str | None = None


def punter_wins(throws: int = 1) -> Fraction:
    """Chance the punter wins a game when he uses all ``throws`` throws.

    >>> punter_wins(1)
    Fraction(575, 1296)
    """
    dist = sum_distribution(2)
    out = Fraction(0)
    for b, pb in dist.items():
        fail = sum((p for s, p in dist.items() if s <= b), Fraction(0))
        out += pb * (1 - fail**throws)
    return out


class HighDice(DiceGame[HighState]):
    name = "high-dice"
    title = "High dice"
    native = "Хай Дайс"
    source = "000:96-98"
    min_players = 2
    max_players = 2
    options = (
        Option("extra_throws", 0, "extra throws the punter may take after a failure (0, 1 or 2)", choices=(0, 1, 2)),
        Option("stake", 1, "the agreed stake", lo=1, hi=1_000_000),
        Option(
            "win_pays",
            "one_stake",
            "what the banker pays when the punter wins on throw k > 1: one stake [REC] or k stakes",
            choices=("one_stake", "throws"),
        ),
        Option("games", 1, "games in the session; the best balance wins [REC]", lo=1, hi=100_000),
    )
    events = {"roll": {"dice": dice(2, 2)}, "stop": {}, "bet": {"amount": integer(1, 1_000_000)}}
    keypad = {"stop": {"type": "stop"}}

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> HighState:
        return HighState(
            self.check_players(players), options["extra_throws"], options["win_pays"], options["games"], options["stake"]
        )

    def _thrower(self, state: HighState) -> int:
        return BANKER if state.banker_total is None else PUNTER

    def describe(self, state: HighState) -> str:
        if state.over:
            return "game over"
        if state.banker_total is None:
            return f"game {state.game_no}, banker {state.players[BANKER]} to throw"
        return f"game {state.game_no}, banker {state.banker_total}, punter throws {len(state.punter_throws)}"

    def is_over(self, state: HighState) -> bool:
        return state.over

    def chance_outcomes(self, state: HighState) -> tuple[Outcome, ...]:
        return () if state.over else roll_outcomes(2)

    def decisions(self, state: HighState) -> list[dict[str, Any]]:
        if state.over:
            return []
        if state.banker_total is None:
            return [{"type": "bet", "amount": a} for a in (1, 2, 5)]
        return [{"type": "stop"}] if state.punter_throws else []

    def _apply(self, state: HighState, event: Event) -> HighState:
        if state.over:
            raise self.illegal(event, state, "the game is over")
        if event.type == "bet":
            if state.banker_total is not None:
                raise self.illegal(event, state, "the stake is agreed before the banker throws")
            return replace(state, stake=event["amount"])
        if event.type == "stop":
            if not state.punter_throws:
                raise self.illegal(event, state, "only the punter stops, after a failed throw")
            return self._settle(state, -state.stake * len(state.punter_throws), "gave up")
        total = sum(event["dice"])
        state = replace(state, dice=tuple(event["dice"]))
        if state.banker_total is None:
            return replace(state, banker_total=total, last_result=None)
        throws = state.punter_throws + (total,)
        state = replace(state, punter_throws=throws)
        k = len(throws)
        if total > state.banker_total:
            return self._settle(state, state.stake * (k if state.win_pays == "throws" else 1), f"won on throw {k}")
        if k == 1 + state.extra_throws:
            return self._settle(state, -state.stake * k, f"lost after {k} throw(s)")
        return state

    def _settle(self, state: HighState, punter_gain: int, how: str) -> HighState:
        balances = (state.balances[BANKER] - punter_gain, state.balances[PUNTER] + punter_gain)
        text = f"{state.players[PUNTER]} {how}: {punter_gain:+d}"
        state = replace(state, balances=balances, banker_total=None, punter_throws=(), last_result=text)
        if state.game_no == state.games:
            b, p = balances
            winner = None if b == p else state.players[BANKER if b > p else PUNTER]
            return replace(state, over=True, winner=winner)
        return replace(state, game_no=state.game_no + 1)

    def view(self, state: HighState, now: float) -> dict[str, Any]:
        return {
            "players": [
                {"name": p, "balance": b, "role": r}
                for p, b, r in zip(state.players, state.balances, ("banker", "punter"))
            ],
            "turn": None if state.over else state.players[self._thrower(state)],
            "game_no": state.game_no,
            "games": state.games,
            "stake": state.stake,
            "banker_total": state.banker_total,
            "punter_throws": list(state.punter_throws),
            "throws_left": 0 if state.banker_total is None else 1 + state.extra_throws - len(state.punter_throws),
            "owed_if_stopped": state.stake * len(state.punter_throws),
            "dice": list(state.dice),
            "last_result": state.last_result,
            "winner": state.winner,
            "over": state.over,
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds high-dice [--throws K]``: the punter's chance to win a game
        throwing up to K times (575/1296 with one throw)."""
        check_params(params, ("throws",), self.name)
        k = int_param(params, "throws", 1, 1, 3)
        p = punter_wins(k)
        return {"punter_wins": p, "banker_wins": 1 - p}


GAMES = (HighDice(),)
