"""Bluff / Блеф (000:104-107): a covered throw, a named combination, "Bluff!".

Two players (the text's usual game). The leader throws five dice under his cup
(up to ``max_throws``, keeping dice between throws) and names a combination
(``claim``), true or invented. The opponent either calls "Bluff!"
(``challenge``): a caught bluff loses the game for the leader, and a call on a
true claim loses it for the caller [REC] (``true_claim_called=replay`` replays the
game instead); or he ``accept``\\ s and throws a reply (up to ``max_throws``,
``keep``/``stop`` as the leader), after which the leader uncovers: a better reply
wins, anything else loses (a tie goes to the leader [REC], option ``tie``). The
reply is compared with the revealed dice [REC] or with the claim (``compare``). A
claim is true when the revealed hand ranks at least as high. Combinations follow
the poker-dice ranking [REC] (``ranking``). The leader alternates each game; the
match is best of ``best_of`` games.

>>> from rules import Session
>>> s = Session.start({"game": "bluff", "players": ["Ann", "Bob"]})
>>> for e in ({"type": "roll", "dice": [2, 2, 5, 1, 3]}, {"type": "claim", "dice": [6, 6, 6, 1, 2]},
...           {"type": "challenge"}):
...     _ = s.submit(e)
>>> s.view()["winner"]
'Bob'
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
    higher_claims,
    is_sub_multiset,
    ranked_hands,
    roll_outcomes,
    sub_multisets,
    throw_distribution,
)

DICE = 5


@dataclass(frozen=True)
class BluffState:
    players: tuple[str, ...]
    straights: bool
    max_throws: int
    compare_claim: bool
    best_of: int
    true_call_replays: bool = False
    tie_to_leader: bool = True
    wins: tuple[int, int] = (0, 0)
    game_no: int = 1
    leader: int = 0
    phase: str = "lead"  # lead | respond | reply | over
    throws: int = 0
    held: tuple[int, ...] = ()
    cup: tuple[int, ...] = ()  # the leader's covered dice
    claim: tuple[int, ...] | None = None
    reply: tuple[int, ...] = ()
    revealed: tuple[int, ...] = ()
    last_result: str | None = None
    winner: str | None = None


class Bluff(DiceGame[BluffState]):
    name = "bluff"
    title = "Bluff"
    native = "Блеф"
    source = "000:104-107"
    min_players = 2
    max_players = 2
    options = (
        Option(
            "ranking",
            "poker_dice",
            "poker combinations as agreed: poker dice with straights [REC] or without (Indian-dice list)",
            choices=("poker_dice", "indian"),
        ),
        Option("max_throws", 1, "throws each player may make, as agreed [REC 1]", lo=1, hi=3),
        Option(
            "compare",
            "revealed",
            "the reply is compared with the leader's revealed dice [REC] or with his claim",
            choices=("revealed", "claim"),
        ),
        Option("best_of", 1, "games in the match; the first to win more than half wins", lo=1, hi=99),
        Option(
            "true_claim_called",
            "caller_loses",
            "a 'Bluff!' call on a true claim (not covered by the text): the caller loses [REC], or the game is replayed",
            choices=("caller_loses", "replay"),
        ),
        Option(
            "tie",
            "leader",
            "a reply equal to the leader's hand: the leader wins [REC] (the reply must beat him) or the replier does",
            choices=("leader", "replier"),
        ),
    )
    events = {
        "roll": {"dice": dice(1, DICE)},
        "keep": {"dice": list_of(integer(1, 6), 0, DICE - 1)},
        "claim": {"dice": dice(DICE, DICE)},
        "challenge": {},
        "accept": {},
        "stop": {},
    }
    keypad = {"challenge": {"type": "challenge"}, "accept": {"type": "accept"}, "stop": {"type": "stop"}}

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> BluffState:
        return BluffState(
            self.check_players(players),
            options["ranking"] == "poker_dice",
            options["max_throws"],
            options["compare"] == "claim",
            options["best_of"],
            options["true_claim_called"] == "replay",
            options["tie"] == "leader",
        )

    def key(self, state: BluffState, hand: Sequence[int]) -> tuple[int, ...]:
        return hand_key(hand, state.straights)

    def _actor(self, state: BluffState) -> int:
        return state.leader if state.phase == "lead" else 1 - state.leader

    def describe(self, state: BluffState) -> str:
        if state.winner:
            return f"won by {state.winner}"
        return f"game {state.game_no}, {state.phase}, {state.players[self._actor(state)]} to act, throw {state.throws}"

    def is_over(self, state: BluffState) -> bool:
        return state.winner is not None

    def chance_outcomes(self, state: BluffState) -> tuple[Outcome, ...]:
        if state.phase in ("lead", "reply") and state.throws < state.max_throws:
            return roll_outcomes(DICE - len(state.held))
        return ()

    def _current(self, state: BluffState) -> tuple[int, ...]:
        return state.cup if state.phase == "lead" else state.reply

    def decisions(self, state: BluffState) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if state.phase in ("lead", "reply") and state.throws:
            if state.throws < state.max_throws:
                out += [{"type": "keep", "dice": list(k)} for k in sub_multisets(self._current(state)) if len(k) < DICE]
            if state.phase == "lead":
                hands = ranked_hands(state.straights)
                picks = {hands[0], hands[-1], hands[len(hands) // 2], tuple(sorted(state.cup, reverse=True))}
                out += [{"type": "claim", "dice": list(h)} for h in sorted(picks)]
            else:
                out.append({"type": "stop"})
        elif state.phase == "respond":
            out += [{"type": "challenge"}, {"type": "accept"}]
        return out

    def _apply(self, state: BluffState, event: Event) -> BluffState:
        if state.winner is not None:
            raise self.illegal(event, state, f"the game is over, {state.winner} won")
        kind = event.type
        throwing = state.phase in ("lead", "reply")
        if kind in ("roll", "keep", "stop") and not throwing:
            raise self.illegal(event, state, "not the time to throw: challenge or accept the claim")
        if kind in ("challenge", "accept") and state.phase != "respond":
            raise self.illegal(event, state, f"nothing to {kind}: the leader has not claimed")
        if kind == "roll":
            if state.throws >= state.max_throws:
                raise self.illegal(event, state, f"no throws left ({state.max_throws} agreed)")
            need = DICE - len(state.held)
            if len(event["dice"]) != need:
                raise self.illegal(event, state, f"throw the {need} dice not kept, got {len(event['dice'])}")
            hand = state.held + event["dice"]
            state = replace(state, throws=state.throws + 1)
            if state.phase == "lead":
                return replace(state, cup=hand)
            state = replace(state, reply=hand)
            return self._settle_reply(state) if state.throws == state.max_throws else state
        if kind == "keep":
            if not state.throws:
                raise self.illegal(event, state, "throw first")
            if state.throws >= state.max_throws:
                raise self.illegal(event, state, "no throws left to use the kept dice")
            if not is_sub_multiset(event["dice"], self._current(state)):
                raise self.illegal(event, state, f"keep only dice on the table {list(self._current(state))}")
            return replace(state, held=tuple(sorted(event["dice"])))
        if kind == "stop":
            if state.phase != "reply" or not state.throws:
                raise self.illegal(event, state, "only the replying player stops, after a throw")
            return self._settle_reply(state)
        if kind == "claim":
            if state.phase != "lead" or not state.throws:
                raise self.illegal(event, state, "the leader claims after his throw")
            return replace(state, claim=tuple(event["dice"]), phase="respond", throws=0, held=())
        if kind == "accept":
            return replace(state, phase="reply")
        # challenge
        claim = state.claim or ()
        bluffed = self.key(state, state.cup) < self.key(state, claim)
        leader = state.players[state.leader]
        if bluffed:
            return self._game_won(state, 1 - state.leader, f"{leader} bluffed and was caught")
        if state.true_call_replays:
            return replace(
                state,
                phase="lead",
                throws=0,
                held=(),
                revealed=state.cup,
                cup=(),
                claim=None,
                last_result=f"game {state.game_no}: {leader}'s claim was true; the game is replayed",
            )
        return self._game_won(state, state.leader, f"{leader}'s claim was true: the caller loses")

    def _settle_reply(self, state: BluffState) -> BluffState:
        target = state.claim if state.compare_claim and state.claim else state.cup
        mine, theirs = self.key(state, state.reply), self.key(state, target)
        if mine > theirs or (mine == theirs and not state.tie_to_leader):
            return self._game_won(state, 1 - state.leader, "the reply was better")
        return self._game_won(state, state.leader, "the reply did not beat the leader")

    def _game_won(self, state: BluffState, won: int, how: str) -> BluffState:
        wins = tuple(w + (k == won) for k, w in enumerate(state.wins))
        state = replace(
            state,
            wins=(wins[0], wins[1]),
            revealed=state.cup,
            last_result=f"game {state.game_no}: {how}; {state.players[won]} wins",
            throws=0,
            held=(),
        )
        if wins[won] > state.best_of // 2:
            return replace(state, phase="over", winner=state.players[won])
        return replace(
            state, game_no=state.game_no + 1, leader=1 - state.leader, phase="lead", cup=(), claim=None, reply=()
        )

    def view(self, state: BluffState, now: float) -> dict[str, Any]:
        return {
            "players": [{"name": p, "score": w} for p, w in zip(state.players, state.wins)],
            "turn": None if state.winner else state.players[self._actor(state)],
            "leader": state.players[state.leader],
            "game_no": state.game_no,
            "phase": state.phase,
            "throws": state.throws,
            "held": list(state.held),
            "cup_hidden": bool(state.cup) and state.phase != "over",
            "claim": list(state.claim) if state.claim else None,
            "claim_name": hand_name(self.key(state, state.claim)) if state.claim else None,
            "reply": list(state.reply),
            "revealed": list(state.revealed),
            "last_result": state.last_result,
            "winner": state.winner,
            "over": state.winner is not None,
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds bluff [--claim 3,3,3,2,2]``: the chance that one throw of five
        dice beats the claim (the reply must be strictly better) and that it is at
        least as good (the claim would be true)."""
        check_params(params, ("claim",), self.name)
        raw = params.get("claim", "6,6,1,2,3")
        try:
            claim = [int(x) for x in raw.split(",")]
        except ValueError:
            raise ValueError(f"--claim must be five faces like 3,3,3,2,2, got {raw!r}") from None
        if len(claim) != DICE or not all(1 <= x <= 6 for x in claim):
            raise ValueError(f"--claim must be five faces 1..6, got {raw!r}")
        better = {tuple(sorted(h)) for h in higher_claims(claim)}
        dist = throw_distribution(DICE)
        beat = sum((p for h, p in dist.items() if h in better), Fraction(0))
        floor = hand_key(claim)
        at_least = sum((p for h, p in dist.items() if hand_key(h) >= floor), Fraction(0))
        return {"reply_beats": beat, "claim_true": at_least}


GAMES = (Bluff(),)
