"""Liar's dice / Брехень (000:5-17): secret throws, rising announcements, stakes.

Every player starts with ``stakes_per_player`` (3) stakes. The player throws five
dice under a cup and announces (``claim``) a combination, true or not; his left
neighbour (the next player still in) either calls "Liar!" (``challenge``) or
``accept``\\ s. On a challenge the cup is shown: a true announcement costs the
challenger one stake into the centre; a false one costs the announcer one stake
into the centre and one to the challenger. Either way the challenger starts a new
sequence with a fresh throw and nothing to beat [REC]. On an accept the cup passes:
the next player may ``keep`` part of it and must throw the rest (at least one
die), then announces something higher than the last announcement. A player with
no stakes is out; the last one with stakes wins and takes the centre.

The combination list is "as in General", which the documents lack: the poker-dice
ranking [REC] (``ranking``; ``indian`` drops the straights), full houses compared
by triple then pair [REC] (``fullhouse_by_triple_only``). An announcement is a
five-dice hand; it is true when the cup's hand ranks at least as high. The cup is
entered with the ``roll`` (camera under the cup or the operator) and stays out of
the view until a challenge reveals it. An announcer who cannot pay both stakes
pays the centre first.

>>> from rules import Session
>>> s = Session.start({"game": "liars-dice", "players": ["Ann", "Bob", "Cid"]})
>>> for e in ({"type": "roll", "dice": [3, 3, 3, 2, 1]}, {"type": "claim", "dice": [3, 3, 3, 2, 2]},
...           {"type": "challenge"}):
...     _ = s.submit(e)
>>> v = s.view(); [p["stakes"] for p in v["players"]], v["centre"], v["turn"]
([1, 4, 3], 1, 'Bob')
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
    has_higher,
    higher_claims,
    is_sub_multiset,
    next_seat,
    roll_outcomes,
    sub_multisets,
    throw_distribution,
)

DICE = 5


@dataclass(frozen=True)
class LiarState:
    players: tuple[str, ...]
    stakes: tuple[int, ...]
    straights: bool
    by_triple: bool
    centre: int = 0
    turn: int = 0
    phase: str = "throw"  # throw | claim | respond | over
    cup: tuple[int, ...] = ()
    held: tuple[int, ...] = ()
    claim: tuple[int, ...] | None = None
    claimed_by: int | None = None
    revealed: tuple[int, ...] = ()
    last_result: str | None = None
    winner: str | None = None


class LiarsDice(DiceGame[LiarState]):
    name = "liars-dice"
    title = "Liar's dice"
    native = "Брехень"
    source = "000:5-17"
    min_players = 2
    max_players = 10
    options = (
        Option("stakes_per_player", 3, "stakes each player puts up", lo=1, hi=100),
        Option(
            "ranking",
            "poker_dice",
            "combination list (General's is missing): poker dice with straights [REC] or the Indian-dice list",
            choices=("poker_dice", "indian"),
        ),
        Option(
            "fullhouse_by_triple_only",
            False,
            "full houses compare by the triple only (the text's example) rather than triple then pair [REC]",
        ),
    )
    events = {
        "roll": {"dice": dice(1, DICE)},
        "keep": {"dice": list_of(integer(1, 6), 0, DICE - 1)},
        "claim": {"dice": dice(DICE, DICE)},
        "challenge": {},
        "accept": {},
    }
    keypad = {"challenge": {"type": "challenge"}, "accept": {"type": "accept"}}

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> LiarState:
        names = self.check_players(players)
        return LiarState(
            names,
            (options["stakes_per_player"],) * len(names),
            options["ranking"] == "poker_dice",
            options["fullhouse_by_triple_only"],
        )

    def key(self, state: LiarState, hand: Sequence[int]) -> tuple[int, ...]:
        return hand_key(hand, state.straights, state.by_triple)

    def _responder(self, state: LiarState) -> int:
        return next_seat(state.turn, len(state.players), [s > 0 for s in state.stakes])

    def _actor(self, state: LiarState) -> int:
        return self._responder(state) if state.phase == "respond" else state.turn

    def describe(self, state: LiarState) -> str:
        if state.winner:
            return f"won by {state.winner}"
        who = state.players[self._actor(state)]
        last = f", last claim {list(state.claim)}" if state.claim else ""
        return f"{state.phase}, {who} to act{last}"

    def is_over(self, state: LiarState) -> bool:
        return state.winner is not None

    def chance_outcomes(self, state: LiarState) -> tuple[Outcome, ...]:
        return roll_outcomes(DICE - len(state.held)) if state.phase == "throw" else ()

    def decisions(self, state: LiarState) -> list[dict[str, Any]]:
        if state.phase == "throw" and state.cup:
            return [{"type": "keep", "dice": list(k)} for k in sub_multisets(state.cup) if len(k) < DICE]
        if state.phase == "claim":
            higher = higher_claims(state.claim, state.straights, state.by_triple)
            picks = {higher[0], higher[-1], higher[len(higher) // 2]}
            if state.claim is None or self.key(state, state.cup) > self.key(state, state.claim):
                picks.add(tuple(sorted(state.cup, reverse=True)))
            return [{"type": "claim", "dice": list(h)} for h in sorted(picks)]
        if state.phase == "respond":
            out: list[dict[str, Any]] = [{"type": "challenge"}]
            if state.claim is not None and has_higher(state.claim, state.straights, state.by_triple):
                out.append({"type": "accept"})
            return out
        return []

    def _apply(self, state: LiarState, event: Event) -> LiarState:
        if state.winner is not None:
            raise self.illegal(event, state, f"the game is over, {state.winner} won")
        kind = event.type
        if kind in ("keep", "roll") and state.phase != "throw":
            raise self.illegal(event, state, "not the time to throw")
        if kind == "keep":
            if not state.cup:
                raise self.illegal(event, state, "nothing to keep: a new sequence starts with a fresh throw")
            if not is_sub_multiset(event["dice"], state.cup):
                raise self.illegal(event, state, f"keep only dice of the cup passed on {list(state.cup)}")
            return replace(state, held=tuple(sorted(event["dice"])))
        if kind == "roll":
            need = DICE - len(state.held)
            if len(event["dice"]) != need:
                raise self.illegal(event, state, f"throw the {need} dice not kept, got {len(event['dice'])}")
            return replace(state, cup=state.held + event["dice"], held=(), phase="claim")
        if kind == "claim":
            if state.phase != "claim":
                raise self.illegal(event, state, "throw before announcing")
            if state.claim is not None and self.key(state, event["dice"]) <= self.key(state, state.claim):
                raise self.illegal(
                    event, state, f"an announcement must exceed the last one {list(state.claim)}"
                )
            return replace(state, claim=tuple(event["dice"]), claimed_by=state.turn, phase="respond")
        if state.phase != "respond":
            raise self.illegal(event, state, "no announcement to answer")
        responder = self._responder(state)
        if kind == "accept":
            if not has_higher(state.claim or (), state.straights, state.by_triple):
                raise self.illegal(event, state, "nothing can exceed this announcement: challenge it")
            return replace(state, turn=responder, phase="throw", held=(), revealed=(), last_result=None)
        return self._challenge(state, responder)

    def _challenge(self, state: LiarState, challenger: int) -> LiarState:
        announcer = state.turn
        claim = state.claim or ()
        true = self.key(state, state.cup) >= self.key(state, claim)
        stakes = list(state.stakes)
        centre = state.centre
        names = state.players
        if true:
            stakes[challenger] -= 1
            centre += 1
            text = f"{names[announcer]} told the truth: {names[challenger]} pays 1 to the centre"
        else:
            stakes[announcer] -= 1
            centre += 1
            if stakes[announcer] > 0:
                stakes[announcer] -= 1
                stakes[challenger] += 1
            text = f"{names[announcer]} lied: pays 1 to the centre and 1 to {names[challenger]}"
        state = replace(
            state,
            stakes=tuple(stakes),
            centre=centre,
            revealed=state.cup,
            last_result=text,
            cup=(),
            held=(),
            claim=None,
            claimed_by=None,
            phase="throw",
        )
        alive = [k for k, s in enumerate(stakes) if s > 0]
        if len(alive) == 1:
            (w,) = alive
            stakes[w] += centre
            return replace(state, stakes=tuple(stakes), centre=0, phase="over", winner=names[w])
        turn = challenger if stakes[challenger] > 0 else next_seat(challenger, len(names), [s > 0 for s in stakes])
        return replace(state, turn=turn)

    def view(self, state: LiarState, now: float) -> dict[str, Any]:
        return {
            "players": [{"name": p, "stakes": s, "out": s == 0} for p, s in zip(state.players, state.stakes)],
            "turn": None if state.winner else state.players[self._actor(state)],
            "phase": state.phase,
            "centre": state.centre,
            "claim": list(state.claim) if state.claim else None,
            "claim_name": hand_name(self.key(state, state.claim)) if state.claim else None,
            "claimed_by": None if state.claimed_by is None else state.players[state.claimed_by],
            "held": list(state.held),
            "cup_hidden": bool(state.cup),
            "revealed": list(state.revealed),
            "last_result": state.last_result,
            "winner": state.winner,
            "over": state.winner is not None,
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds liars-dice [--claim 3,3,3,2,2] [--ranking indian]``: the chance
        that a fresh throw of five dice is at least as high as the claim."""
        check_params(params, ("claim", "ranking"), self.name)
        straights = params.get("ranking", "poker_dice") != "indian"
        raw = params.get("claim", "6,6,1,2,3")
        try:
            claim = [int(x) for x in raw.split(",")]
        except ValueError:
            raise ValueError(f"--claim must be five faces like 3,3,3,2,2, got {raw!r}") from None
        if len(claim) != DICE or not all(1 <= x <= 6 for x in claim):
            raise ValueError(f"--claim must be five faces 1..6, got {raw!r}")
        floor = hand_key(claim, straights)
        p = sum((q for h, q in throw_distribution(DICE).items() if hand_key(h, straights) >= floor), Fraction(0))
        return {"at_least_claim": p}


GAMES = (LiarsDice(),)
