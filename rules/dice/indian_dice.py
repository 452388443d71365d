"""Indian dice / Індійські кістки (000:28-34): simplified poker with five dice.

Combinations, low to high: pair, two pairs, three of a kind, full house, four
of a kind, five of a kind; a straight does not count. The first player of a
round has up to ``max_throws`` (3) throws and may stop after any; the others may
make at most as many throws as he made [REC]. Between throws any dice may be
kept [REC] (``keep``). The best combination wins the round; equal groups compare
by face (6 high), a hand without a combination ranks below a pair by its highest
dice, and an exact tie at the top throws again (a play-off among the tied).

A match is ``rounds`` (3) rounds: everyone plays the first ones, only two play
the last (``third_round``: the two strongest, [REC] default, or the two weakest,
by rounds won then best combination, seat order last). With ``strongest`` the
winner of the last round wins the game; with ``weakest`` its loser loses it and
the best record wins; ``all`` lets everyone play every round. The first player
rotates each round.

>>> from rules import Session
>>> s = Session.start({"game": "indian-dice", "players": ["Ann", "Bob"]})
>>> v = s.submit({"type": "roll", "dice": [6, 6, 6, 2, 2]}).submit({"type": "stop"}).view()
>>> v["turn"], v["throws_allowed"], v["players"][0]["hand"]
('Bob', 1, 'full house')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..events import Event, dice, integer, list_of
from ..game import Option
from ._dicekit import (
    DiceGame,
    Outcome,
    check_params,
    hand_key,
    hand_name,
    is_sub_multiset,
    roll_outcomes,
    sub_multisets,
    throw_distribution,
)

DICE = 5
Key = tuple[int, ...]


@dataclass(frozen=True)
class IndianState:
    players: tuple[str, ...]
    max_throws: int
    third_round: str
    rounds: int
    rounds_won: tuple[int, ...]
    best: tuple[Key, ...]
    round: int = 1
    participants: tuple[int, ...] = ()
    pos: int = 0
    first_throws: int | None = None
    throws: int = 0
    held: tuple[int, ...] = ()
    dice: tuple[int, ...] = ()
    hands: tuple[tuple[int, tuple[int, ...]], ...] = ()  # finished hands of this round or play-off
    playoff: bool = False
    round_winners: tuple[str, ...] = ()
    last_round_loser: str | None = None
    over: bool = False
    winner: str | None = None
    loser: str | None = None
    tied: tuple[str, ...] = ()


def indian_key(hand: Sequence[int]) -> Key:
    return hand_key(hand, straights=False)


class IndianDice(DiceGame[IndianState]):
    name = "indian-dice"
    title = "Indian dice"
    native = "Індійські кістки"
    source = "000:28-34"
    min_players = 2
    max_players = 10
    options = (
        Option("max_throws", 3, "throws of the first player of a round", lo=1, hi=5),
        Option(
            "third_round",
            "strongest",
            "who plays the last round: the two strongest [REC], the two weakest, or all",
            choices=("strongest", "weakest", "all"),
        ),
        Option("rounds", 3, "rounds in a match (usually 3; the last one is the two-player round)", lo=1, hi=9),
    )
    events = {
        "roll": {"dice": dice(1, DICE)},
        "keep": {"dice": list_of(integer(1, 6), 0, DICE - 1)},
        "stop": {},
    }
    keypad = {"stop": {"type": "stop"}}

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> IndianState:
        names = self.check_players(players)
        n = len(names)
        state = IndianState(names, options["max_throws"], options["third_round"], options["rounds"], (0,) * n, ((),) * n)
        return replace(state, participants=self._round_players(state, 1))

    def _round_players(self, state: IndianState, round_no: int) -> tuple[int, ...]:
        n = len(state.players)
        if round_no == state.rounds and state.rounds >= 3 and state.third_round != "all" and n > 2:
            ranked = sorted(range(n), key=lambda k: (-state.rounds_won[k], tuple(-x for x in state.best[k]), k))
            if state.third_round == "strongest":
                chosen = ranked[:2]
            else:
                ranked = sorted(range(n), key=lambda k: (state.rounds_won[k], state.best[k], k))
                chosen = ranked[:2]
            return tuple(sorted(chosen))
        start = (round_no - 1) % n
        return tuple((start + i) % n for i in range(n))

    def _limit(self, state: IndianState) -> int:
        return state.max_throws if state.first_throws is None else state.first_throws

    def describe(self, state: IndianState) -> str:
        if state.over:
            return "game over"
        who = state.players[state.participants[state.pos]]
        kind = "play-off" if state.playoff else f"round {state.round}"
        return f"{kind}, turn {who}, throw {state.throws}/{self._limit(state)}"

    def is_over(self, state: IndianState) -> bool:
        return state.over

    def chance_outcomes(self, state: IndianState) -> tuple[Outcome, ...]:
        if state.over or state.throws >= self._limit(state):
            return ()
        return roll_outcomes(DICE - len(state.held))

    def decisions(self, state: IndianState) -> list[dict[str, Any]]:
        if state.over or not state.throws:
            return []
        out: list[dict[str, Any]] = [{"type": "stop"}]
        if state.throws < self._limit(state):
            out += [{"type": "keep", "dice": list(k)} for k in sub_multisets(state.dice) if len(k) < DICE]
        return out

    def _apply(self, state: IndianState, event: Event) -> IndianState:
        if state.over:
            raise self.illegal(event, state, "the game is over")
        limit = self._limit(state)
        if event.type == "roll":
            need = DICE - len(state.held)
            if state.throws >= limit:
                raise self.illegal(event, state, f"no throws left ({limit} allowed)")
            if len(event["dice"]) != need:
                raise self.illegal(event, state, f"throw the {need} dice not kept, got {len(event['dice'])}")
            state = replace(state, throws=state.throws + 1, dice=state.held + event["dice"])
            return self._finish_turn(state) if state.throws == limit else state
        if not state.throws:
            raise self.illegal(event, state, "throw first")
        if event.type == "stop":
            return self._finish_turn(state)
        if not is_sub_multiset(event["dice"], state.dice):
            raise self.illegal(event, state, f"keep only dice on the table {list(state.dice)}")
        return replace(state, held=tuple(sorted(event["dice"])))

    def _finish_turn(self, state: IndianState) -> IndianState:
        me = state.participants[state.pos]
        key = indian_key(state.dice)
        best = tuple(max(b, key) if k == me else b for k, b in enumerate(state.best))
        state = replace(
            state,
            best=best,
            hands=state.hands + ((me, tuple(sorted(state.dice, reverse=True))),),
            first_throws=state.throws if state.pos == 0 else state.first_throws,
            throws=0,
            held=(),
        )
        if state.pos + 1 < len(state.participants):
            return replace(state, pos=state.pos + 1)
        top = max(indian_key(h) for _, h in state.hands)
        tied = tuple(k for k, h in state.hands if indian_key(h) == top)
        if len(tied) > 1:
            return replace(state, participants=tied, pos=0, first_throws=None, hands=(), playoff=True)
        (won,) = tied
        wins = tuple(w + (k == won) for k, w in enumerate(state.rounds_won))
        final_pair = (
            state.round == state.rounds >= 3 and state.third_round != "all" and len(state.players) > 2
        )
        last_loser = None
        if final_pair:  # the two players of the last round (a play-off keeps the same two)
            last_loser = state.players[next(k for k in state.participants if k != won)]
        state = replace(
            state,
            rounds_won=wins,
            round_winners=state.round_winners + (state.players[won],),
            last_round_loser=last_loser,
            playoff=False,
        )
        if state.round == state.rounds:
            return self._end(state, won)
        nxt = state.round + 1
        return replace(state, round=nxt, participants=self._round_players(state, nxt), pos=0, first_throws=None, hands=())

    def _end(self, state: IndianState, last_winner: int) -> IndianState:
        state = replace(state, over=True)
        if state.last_round_loser is not None and state.third_round == "strongest":
            return replace(state, winner=state.players[last_winner])
        pool = [k for k, p in enumerate(state.players) if p != state.last_round_loser]
        record = {k: (state.rounds_won[k], state.best[k]) for k in pool}
        top = max(record.values())
        leaders = [state.players[k] for k in pool if record[k] == top]
        one = len(leaders) == 1
        return replace(
            state,
            loser=state.last_round_loser,
            winner=leaders[0] if one else None,
            tied=() if one else tuple(leaders),
        )

    def view(self, state: IndianState, now: float) -> dict[str, Any]:
        finished = dict(state.hands)
        players = []
        for k, p in enumerate(state.players):
            hand = finished.get(k)
            players.append(
                {
                    "name": p,
                    "rounds_won": state.rounds_won[k],
                    "score": state.rounds_won[k],
                    "hand": hand_name(indian_key(hand)) if hand else None,
                    "hand_dice": list(hand) if hand else None,
                    "best": hand_name(state.best[k]) if state.best[k] else None,
                    "playing": k in state.participants and not state.over,
                }
            )
        return {
            "players": players,
            "turn": None if state.over else state.players[state.participants[state.pos]],
            "round": state.round,
            "rounds": state.rounds,
            "playoff": state.playoff,
            "throws": state.throws,
            "throws_allowed": self._limit(state),
            "dice": list(state.dice),
            "held": list(state.held),
            "combination": hand_name(indian_key(state.dice)) if state.throws else None,
            "round_winners": list(state.round_winners),
            "winner": state.winner,
            "loser": state.loser,
            "tied": list(state.tied),
            "over": state.over,
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds indian-dice``: the chance that one throw of five dice makes
        each combination (no straights)."""
        check_params(params, (), self.name)
        names = ("nothing", "pair", "two pairs", "three of a kind", "full house", "four of a kind", "five of a kind")
        out = {n.replace(" ", "_"): Fraction(0) for n in names}
        for hand, p in throw_distribution(DICE).items():
            out[hand_name(indian_key(hand)).replace(" ", "_")] += p
        return out


GAMES = (IndianDice(),)
