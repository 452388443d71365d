"""Bank on dice / Банк на кістках (000:100-102): chuck-a-luck with three dice.

The first player is the banker, the others punters (the text says "punters" too:
each punter is settled separately [REC]). Punters ``bet`` on numbers 1-6, then
three dice are thrown at once: a bet wins its stake once per die showing the
number (1x, 2x, 3x) and is lost when no die shows it. A game is ``rounds``
rounds; the best balance wins, equal balances share the win.

>>> from rules import Session
>>> s = Session.start({"game": "bank-on-dice", "players": ["Bank", "Pat"]})
>>> _ = s.submit({"type": "bet", "player": "Pat", "number": 4, "amount": 10})
>>> s.submit({"type": "roll", "dice": [4, 4, 2]}).view()["players"][1]["balance"]
20
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from typing import Any, Mapping, Sequence

from ..events import Event, Opt, dice, integer, text
from ..game import Option
from ._dicekit import DiceGame, Outcome, check_params, int_param, leaders, roll_outcomes


@dataclass(frozen=True)
class BankState:
    players: tuple[str, ...]
    balances: tuple[int, ...]
    rounds: int
    stake: int
    round: int = 1
    bets: tuple[tuple[int, int, int], ...] = ()  # (player index, number, amount) of this round
    dice: tuple[int, ...] = ()
    last_settlement: tuple[tuple[str, int, int], ...] = ()  # (player, number, +/- amount)
    over: bool = False
    tied: tuple[str, ...] = ()
    winner: str | None = None


def single_number_odds() -> dict[str, Fraction]:
    """Chance of 0..3 dice showing the chosen number and the expectation per unit.

    >>> single_number_odds()["expectation"]
    Fraction(-17, 216)
    """
    out = {f"matches_{k}": comb(3, k) * Fraction(1, 6) ** k * Fraction(5, 6) ** (3 - k) for k in range(4)}
    out["expectation"] = sum((k * out[f"matches_{k}"] for k in range(1, 4)), Fraction(0)) - out["matches_0"]
    return out


class BankOnDice(DiceGame[BankState]):
    name = "bank-on-dice"
    title = "Bank on dice (chuck-a-luck)"
    native = "Банк на кістках"
    source = "000:100-102"
    min_players = 2
    max_players = 10
    options = (
        Option("rounds", 1, "rounds (throws) in the game [REC]", lo=1, hi=100_000),
        Option("stake", 1, "stake of a bet when the bet names no amount", lo=1, hi=1_000_000),
    )
    events = {
        "bet": {"player": text(40), "number": integer(1, 6), "amount": Opt(integer(1, 1_000_000))},
        "roll": {"dice": dice(3, 3)},
    }

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> BankState:
        names = self.check_players(players)
        return BankState(names, (0,) * len(names), options["rounds"], options["stake"])

    def describe(self, state: BankState) -> str:
        if state.over:
            return "game over"
        return f"round {state.round}, {len(state.bets)} bet(s)"

    def is_over(self, state: BankState) -> bool:
        return state.over

    def chance_outcomes(self, state: BankState) -> tuple[Outcome, ...]:
        return roll_outcomes(3) if state.bets and not state.over else ()

    def decisions(self, state: BankState) -> list[dict[str, Any]]:
        if state.over:
            return []
        return [{"type": "bet", "player": p, "number": n} for p in state.players[1:] for n in range(1, 7)]

    def _apply(self, state: BankState, event: Event) -> BankState:
        if state.over:
            raise self.illegal(event, state, "the game is over")
        if event.type == "bet":
            if event["player"] not in state.players:
                raise self.illegal(event, state, f"no player {event['player']!r}; players: {list(state.players)}")
            who = state.players.index(event["player"])
            if who == 0:
                raise self.illegal(event, state, f"{event['player']} is the banker; only punters bet")
            amount = event.get("amount") or state.stake
            return replace(state, bets=state.bets + ((who, event["number"], amount),))
        if not state.bets:
            raise self.illegal(event, state, "no bets yet: punters bet before the throw")
        balances = list(state.balances)
        settled = []
        for who, number, amount in state.bets:
            matches = event["dice"].count(number)
            won = amount * matches if matches else -amount
            balances[who] += won
            balances[0] -= won
            settled.append((state.players[who], number, won))
        state = replace(
            state, balances=tuple(balances), bets=(), dice=tuple(event["dice"]), last_settlement=tuple(settled)
        )
        if state.round == state.rounds:
            top = leaders(state.players, balances)
            one = len(top) == 1
            return replace(state, over=True, winner=top[0] if one else None, tied=() if one else tuple(top))
        return replace(state, round=state.round + 1)

    def view(self, state: BankState, now: float) -> dict[str, Any]:
        return {
            "players": [
                {"name": p, "balance": b, "role": "banker" if i == 0 else "punter"}
                for i, (p, b) in enumerate(zip(state.players, state.balances))
            ],
            "turn": None,
            "banker": state.players[0],
            "round": state.round,
            "rounds": state.rounds,
            "bets": [{"player": state.players[w], "number": n, "amount": a} for w, n, a in state.bets],
            "dice": list(state.dice),
            "last_settlement": [{"player": p, "number": n, "won": w} for p, n, w in state.last_settlement],
            "winner": state.winner,
            "tied": list(state.tied),
            "over": state.over,
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds bank-on-dice [--stake N]``: chances of 0-3 matches of a chosen
        number and the punter's expectation (-17/216 per unit staked)."""
        check_params(params, ("stake",), self.name)
        stake = int_param(params, "stake", 1, 1, 1_000_000)
        out = single_number_odds()
        out["expectation"] *= stake
        return out


GAMES = (BankOnDice(),)
