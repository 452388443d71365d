"""Martinetti / Ohio / Мартінетті (000:36-38): three dice, fields 1 to 12 in order.

A player's token needs the next field in sequence, starting with 1. One throw of
three dice may give several successive numbers, and dice may be added together
(1, 1, 1 reads as 1 + (1+1) and reaches field 2); each die is used at most once
[REC]. The player keeps throwing (all three dice [REC]) while he makes the next
number, and loses the turn when he cannot. The first token on field 12 wins.

``reading=auto`` [REC] moves the token to the furthest field the dice allow.
``reading=declared`` lets the player ``move`` his token himself: a player may
overlook a usable number. Then the missed number can be ``claim``\\ ed by a
partner who needs exactly that number (the operator enters the caller nearest
the thrower clockwise, who has priority); he advances one field [REC] and play
continues with the normal next player.

>>> from rules import Session
>>> s = Session.start({"game": "martinetti", "players": ["Ann", "Bob"]})
>>> v = s.submit({"type": "roll", "dice": [1, 1, 1]}).view()
>>> v["players"][0]["field"], v["turn"]
(2, 'Ann')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any, Mapping, Sequence

from ..events import Event, dice, integer, text
from ..game import Option
from ._dicekit import DiceGame, Outcome, check_params, int_param, roll_outcomes, throw_distribution


@lru_cache(maxsize=None)
def furthest(thrown: tuple[int, ...], need: int) -> int:
    """The last of the successive numbers need, need+1, ... that disjoint groups of
    ``thrown`` can make (need - 1 when not even ``need`` can be made).

    >>> furthest((1, 1, 1), 1), furthest((1, 2, 3), 1), furthest((3, 4, 6), 7)
    (2, 3, 7)
    """
    best = need - 1
    for labels in product(range(len(thrown) + 1), repeat=len(thrown)):  # 0 = unused
        sums = [0] * len(thrown)
        for die, label in zip(thrown, labels):
            if label:
                sums[label - 1] += die
        used = max(labels)
        if used and all(sums[g] == need + g for g in range(used)):
            best = max(best, need + used - 1)
    return best


@dataclass(frozen=True)
class MartState:
    players: tuple[str, ...]
    fields: tuple[int, ...]
    last_field: int
    declared: bool
    turn: int = 0
    dice: tuple[int, ...] = ()
    reachable: int | None = None  # declared mode: the furthest field of the throw, awaiting a move
    missed: int | None = None  # a number overlooked by the last thrower, open to a claim
    missed_by: int | None = None
    winner: str | None = None


class Martinetti(DiceGame[MartState]):
    name = "martinetti"
    title = "Martinetti (Ohio)"
    native = "Мартінетті або Огайо"
    source = "000:36-38"
    min_players = 1
    max_players = 12
    options = (
        Option("fields", 12, "numbered fields to travel", lo=2, hi=18),
        Option(
            "reading",
            "auto",
            "auto: the token goes to the furthest field the dice allow [REC]; declared: the player moves it"
            " (numbers may be overlooked and claimed)",
            choices=("auto", "declared"),
        ),
    )
    events = {
        "roll": {"dice": dice(3, 3)},
        "move": {"to": integer(0, 18)},
        "claim": {"player": text(40)},
    }

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> MartState:
        names = self.check_players(players)
        return MartState(names, (0,) * len(names), options["fields"], options["reading"] == "declared")

    def describe(self, state: MartState) -> str:
        if state.winner:
            return f"won by {state.winner}"
        who = state.players[state.turn]
        if state.reachable is not None:
            return f"turn {who}, move to {state.fields[state.turn] + 1}..{state.reachable}"
        return f"turn {who}, needs {state.fields[state.turn] + 1}"

    def is_over(self, state: MartState) -> bool:
        return state.winner is not None

    def chance_outcomes(self, state: MartState) -> tuple[Outcome, ...]:
        return () if state.winner or state.reachable is not None else roll_outcomes(3)

    def decisions(self, state: MartState) -> list[dict[str, Any]]:
        if state.winner:
            return []
        if state.reachable is not None:
            return [{"type": "move", "to": k} for k in range(state.fields[state.turn], state.reachable + 1)]
        return [{"type": "claim", "player": p} for p in self._claimants(state)]

    def _claimants(self, state: MartState) -> list[str]:
        if state.missed is None:
            return []
        return [
            p for k, p in enumerate(state.players) if k != state.missed_by and state.fields[k] + 1 == state.missed
        ]

    def _apply(self, state: MartState, event: Event) -> MartState:
        if state.winner is not None:
            raise self.illegal(event, state, f"the game is over, {state.winner} won")
        me = state.turn
        if event.type == "claim":
            if event["player"] not in self._claimants(state):
                why = "no overlooked number is open" if state.missed is None else f"needs {state.missed} exactly"
                raise self.illegal(event, state, f"{event['player']} cannot claim: {why}")
            k = state.players.index(event["player"])
            return self._advance(replace(state, missed=None, missed_by=None), k, state.fields[k] + 1)
        if event.type == "move":
            if state.reachable is None:
                raise self.illegal(event, state, "throw first")
            lo, hi = state.fields[me], state.reachable
            if not lo <= event["to"] <= hi:
                raise self.illegal(event, state, f"the dice allow fields {lo}..{hi}, got {event['to']}")
            to = event["to"]
            state = replace(state, reachable=None)
            if to < hi:  # overlooked: the turn passes and the number to + 1 is open to a claim
                state = self._advance(state, me, to)
                if state.winner:
                    return state
                return replace(state, turn=(me + 1) % len(state.players), missed=to + 1, missed_by=me)
            return self._advance(state, me, to)
        # roll
        if state.reachable is not None:
            raise self.illegal(event, state, "move the token before throwing again")
        state = replace(state, dice=event["dice"], missed=None, missed_by=None)
        best = min(furthest(tuple(sorted(event["dice"])), state.fields[me] + 1), state.last_field)
        if best == state.fields[me]:
            return replace(state, turn=(me + 1) % len(state.players))
        if state.declared:
            return replace(state, reachable=best)
        return self._advance(state, me, best)

    def _advance(self, state: MartState, k: int, to: int) -> MartState:
        moved = to > state.fields[k]
        fields = tuple(to if i == k else f for i, f in enumerate(state.fields))
        state = replace(state, fields=fields)
        if to >= state.last_field:
            return replace(state, winner=state.players[k])
        if k == state.turn and not moved:
            return replace(state, turn=(k + 1) % len(state.players))
        return state

    def view(self, state: MartState, now: float) -> dict[str, Any]:
        return {
            "players": [
                {"name": p, "field": f, "needs": min(f + 1, state.last_field)} for p, f in zip(state.players, state.fields)
            ],
            "turn": None if state.winner else state.players[state.turn],
            "dice": list(state.dice),
            "reachable": state.reachable,
            "missed": state.missed,
            "claimants": self._claimants(state),
            "fields": state.last_field,
            "winner": state.winner,
            "over": state.winner is not None,
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds martinetti [--need N]``: chance that one throw of three dice
        advances a token needing N by 0, 1, 2 or 3 fields."""
        check_params(params, ("need",), self.name)
        need = int_param(params, "need", 1, 1, 18)
        out = {f"advance_{k}": Fraction(0) for k in range(4)}
        for thrown, p in throw_distribution(3).items():
            out[f"advance_{furthest(thrown, need) - need + 1}"] += p
        return out


GAMES = (Martinetti(),)
