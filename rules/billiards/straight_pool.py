"""14.1 continuous / straight pool ("14.1 с продолжением", 001:33-81, RULES.md §4.1).

The referee (or the players) enter what each shot did; the engine keeps the
score: +1 per legally pocketed ball (the called one and any others on the same
shot), −1 per foul, −2 per illegal opening break with the opponent's choice,
−16 for an intentional foul, the three-consecutive-fouls rule counted over the
player's innings (a legal shot clears the count), the re-rack of 14 when one
ball is left, and the race to the agreed total (150 by default).

>>> from rules import Session
>>> s = Session.start({"game": "straight-pool", "players": ["Ann", "Bob"]})
>>> for e in ({"type": "foul", "kind": "illegal_break"}, {"type": "choice", "option": "accept"},
...           {"type": "pot", "ball": 3, "pocket": "foot_right", "balls": 2}):
...     _ = s.submit(e)
>>> v = s.view()
>>> [p["score"] for p in v["players"]], v["turn"], v["run"], v["balls_on_table"]
([-2, 2], 'Bob', 2, 13)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from ..events import Event, Opt, integer, text
from ..game import Game, Option
from .common import bump, controls, index_of, other, put

POCKETS = ("foot_left", "foot_right", "side_left", "side_right", "head_left", "head_right")
FOUL_KINDS = ("standard", "scratch", "intentional", "illegal_break", "rail")
BALLS = 15


@dataclass(frozen=True)
class StraightPoolState:
    players: tuple[str, ...]
    scores: tuple[int, ...] = (0, 0)
    fouls: tuple[int, ...] = (0, 0)  # consecutive fouls (the three-foul count)
    innings: tuple[int, ...] = (1, 0)  # innings begun by each player
    high_run: tuple[int, ...] = (0, 0)
    turn: int = 0
    run: int = 0  # balls scored in the current inning
    on_table: int = BALLS  # object balls on the table
    rack: int = 1  # racks set up so far
    phase: str = "break"  # break | play | choice | over
    chooser: int | None = None  # who must choose (accept / rerack)
    choice_after: str = ""  # illegal_break | intentional
    ball_in_hand: bool = False  # the shooter has the cue ball in hand in the kitchen
    call: tuple[int | None, str | None] | None = None  # called ball and pocket for the next shot
    last: str = ""  # what the last event did, for the display
    winner: int | None = None
    target: int = 150
    third_foul_total: int = 16
    illegal_break_penalty: int = 2


class StraightPool(Game[StraightPoolState]):
    name = "straight-pool"
    title = "14.1 continuous (straight pool)"
    native = "14.1 с продолжением"
    family = "billiards"
    source = "001:33-81"
    min_players = 2
    max_players = 2
    options = (
        Option("target", 150, "points to reach (150 in competition, any agreed total otherwise)", lo=1, hi=1000),
        Option(
            "third_foul_total",
            16,
            "points lost on the third consecutive foul: 16 = the foul's 1 + 15 [REC, RULES.md §6 #6];"
            " 15 = the text's 'fifteen points' read literally",
            choices=(16, 15),
        ),
        Option("illegal_break_penalty", 2, "points lost per illegal opening break (§6)", lo=0, hi=15),
    )
    events = {
        "call": {"ball": integer(1, BALLS), "pocket": text(choices=POCKETS)},
        "pot": {
            "balls": Opt(integer(1, BALLS), 1),
            "ball": Opt(integer(1, BALLS)),
            "pocket": Opt(text(choices=POCKETS)),
        },
        "miss": {},
        "safety": {},
        "foul": {"kind": Opt(text(choices=FOUL_KINDS), "standard")},
        "choice": {"option": text(choices=("accept", "rerack"))},
        "concede": {"player": text(40)},
    }
    keypad = {
        "pot": {"type": "pot"},
        "pot_2": {"type": "pot", "balls": 2},
        "pot_3": {"type": "pot", "balls": 3},
        "miss": {"type": "miss"},
        "safety": {"type": "safety"},
        "foul": {"type": "foul"},
        "scratch": {"type": "foul", "kind": "scratch"},
        "illegal_break": {"type": "foul", "kind": "illegal_break"},
        "intentional": {"type": "foul", "kind": "intentional"},
        "accept": {"type": "choice", "option": "accept"},
        "rerack": {"type": "choice", "option": "rerack"},
    }

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> StraightPoolState:
        names = self.check_players(players)
        return StraightPoolState(
            players=names,
            target=options["target"],
            third_foul_total=options["third_foul_total"],
            illegal_break_penalty=options["illegal_break_penalty"],
        )

    def describe(self, state: StraightPoolState) -> str:
        score = f"{state.scores[0]}:{state.scores[1]}"
        if state.winner is not None:
            return f"won by {state.players[state.winner]}, {score}"
        if state.phase == "choice" and state.chooser is not None:
            after = state.choice_after.replace("_", " ")
            return f"{state.players[state.chooser]} to choose after the {after}, {score}"
        doing = "to break" if state.phase == "break" else "at the table"
        return f"{state.players[state.turn]} {doing}, {score}"

    def legal_types(self, state: StraightPoolState) -> tuple[str, ...]:
        if state.phase == "over":
            return ()
        if state.phase == "choice":
            return ("choice", "concede")
        return ("call", "pot", "miss", "safety", "foul", "concede")

    # --- events -------------------------------------------------------------------

    def _apply(self, state: StraightPoolState, event: Event) -> StraightPoolState:
        if state.phase == "over":
            raise self.illegal(event, state, "the game is over")
        kind = event.type
        if kind == "concede":
            who = index_of(state.players, event["player"])
            if who is None:
                raise self.illegal(event, state, f"no player {event['player']!r}; players: {list(state.players)}")
            return self._finish(state, other(who), f"{state.players[who]} concedes")
        if state.phase == "choice":
            if kind != "choice":
                chooser = state.players[state.chooser or 0]
                raise self.illegal(event, state, f"waiting for {chooser}'s choice: accept or rerack")
            return self._choose(state, event["option"])
        if kind == "choice":
            raise self.illegal(event, state, "there is no choice to make now")
        if kind == "call":
            return replace(state, call=(event["ball"], event["pocket"]))
        if kind == "pot":
            return self._pot(state, event)
        if kind in ("miss", "safety"):
            # a legal shot (or a legal break) that ends the inning; the count of fouls is cleared
            what = "safety" if kind == "safety" else ("legal break" if state.phase == "break" else "miss")
            done = replace(state, fouls=put(state.fouls, state.turn, 0), last=f"{state.players[state.turn]} {what}")
            return self._next_inning(done, other(state.turn))
        return self._foul(state, event)

    def _pot(self, state: StraightPoolState, event: Event) -> StraightPoolState:
        n = event["balls"]
        if n > state.on_table:
            raise self.illegal(event, state, f"{n} balls pocketed but only {state.on_table} on the table")
        call = state.call
        if event.get("ball") is not None or event.get("pocket") is not None:
            call = (event.get("ball"), event.get("pocket"))
        p = state.turn
        run = state.run + n
        on_table = state.on_table - n
        rack = state.rack
        last = f"{state.players[p]} +{n}"
        if on_table <= 1:  # 14 down: the 14 are re-racked, the 15th stays (or is spotted)
            on_table, rack = BALLS, rack + 1
            last += ", re-rack"
        new = replace(
            state,
            scores=bump(state.scores, p, n),
            fouls=put(state.fouls, p, 0),
            high_run=put(state.high_run, p, max(state.high_run[p], run)),
            run=run,
            on_table=on_table,
            rack=rack,
            phase="play",
            ball_in_hand=False,
            call=None,
            last=last + (f" (called {call[0]} in {call[1]})" if call and call[0] is not None else ""),
        )
        if new.scores[p] >= state.target:
            return self._finish(new, p, f"{state.players[p]} reaches {new.scores[p]}")
        return new

    def _foul(self, state: StraightPoolState, event: Event) -> StraightPoolState:
        kind = event["kind"]
        p, q = state.turn, other(state.turn)
        who = state.players[p]
        if kind == "illegal_break":
            if state.phase != "break":
                raise self.illegal(event, state, "an illegal break is only possible on an opening break")
            # not counted for the three-foul rule (§6); the opponent chooses
            return replace(
                state,
                scores=bump(state.scores, p, -state.illegal_break_penalty),
                phase="choice",
                chooser=q,
                choice_after="illegal_break",
                call=None,
                last=f"{who} illegal break -{state.illegal_break_penalty}",
            )
        if kind == "rail":
            # breaking the "ball near a cushion" limit counts as a third consecutive foul (7.2 note)
            return self._third_foul(state, f"{who} rail foul", 0, state.third_foul_total)
        count = state.fouls[p] + 1
        penalty = 16 if kind == "intentional" else 1
        scored = replace(state, scores=bump(state.scores, p, -penalty), fouls=put(state.fouls, p, count), call=None)
        if count >= 3:
            # the foul's own point is already off; the third-foul total includes it.
            # [REC] an intentional third foul costs its 16 and the rest of the third-foul total.
            label = "foul" if kind == "standard" else f"{kind} foul"
            return self._third_foul(scored, f"{who} {label}", penalty, state.third_foul_total - 1)
        if kind == "intentional":
            return replace(
                scored,
                phase="choice",
                chooser=q,
                choice_after="intentional",
                last=f"{who} intentional foul -16",
            )
        label = "scratch" if kind == "scratch" else "foul"
        done = replace(scored, last=f"{who} {label} -1")
        return replace(self._next_inning(done, q), ball_in_hand=kind == "scratch")

    def _third_foul(self, state: StraightPoolState, what: str, already: int, extra: int) -> StraightPoolState:
        """Third consecutive foul: ``extra`` more points off (``already`` were taken for the
        foul itself), the count cleared, all 15 re-racked, and the offender breaks again
        under the opening-break rules (§12)."""
        p = state.turn
        lost = already + extra
        return replace(
            state,
            scores=bump(state.scores, p, -extra),
            fouls=put(state.fouls, p, 0),
            innings=bump(state.innings, p, 1),
            run=0,
            on_table=BALLS,
            rack=state.rack + 1,
            phase="break",
            ball_in_hand=True,
            call=None,
            last=f"{what}: third consecutive foul -{lost}, re-rack, {state.players[p]} breaks",
        )

    def _choose(self, state: StraightPoolState, option: str) -> StraightPoolState:
        chooser = state.chooser if state.chooser is not None else other(state.turn)
        offender = other(chooser)
        base = replace(state, chooser=None, choice_after="", phase="play")
        name = state.players[chooser]
        if option == "accept":
            done = replace(base, last=f"{name} accepts the table")
            return replace(self._next_inning(done, chooser), ball_in_hand=state.choice_after == "intentional")
        # rerack: all 15 racked again, the offender breaks (from the kitchen)
        rack = state.rack if state.choice_after == "illegal_break" and state.on_table == BALLS else state.rack + 1
        return replace(
            base,
            phase="break",
            turn=offender,
            on_table=BALLS,
            rack=rack,
            ball_in_hand=True,
            run=0,
            innings=bump(state.innings, offender, 1),
            last=f"{name} has the balls re-racked, {state.players[offender]} breaks again",
        )

    def _next_inning(self, state: StraightPoolState, player: int) -> StraightPoolState:
        phase = "play" if state.phase == "break" else state.phase
        return replace(
            state,
            turn=player,
            run=0,
            innings=bump(state.innings, player, 1),
            phase=phase,
            ball_in_hand=False,
            call=None,
        )

    def _finish(self, state: StraightPoolState, winner: int, why: str) -> StraightPoolState:
        return replace(state, phase="over", winner=winner, chooser=None, last=why)

    # --- outputs ------------------------------------------------------------------

    def view(self, state: StraightPoolState, now: float) -> dict[str, Any]:
        over = state.winner is not None
        return {
            "players": [
                {"name": n, "score": s, "fouls": f, "innings": i, "high_run": h}
                for n, s, f, i, h in zip(state.players, state.scores, state.fouls, state.innings, state.high_run)
            ],
            "turn": None if over else state.players[state.turn],
            "phase": state.phase,
            "run": state.run,
            "balls_on_table": state.on_table,
            "rack": state.rack,
            "ball_in_hand": state.ball_in_hand,
            "call": None if state.call is None else {"ball": state.call[0], "pocket": state.call[1]},
            "choice": None
            if state.chooser is None
            else {"by": state.players[state.chooser], "after": state.choice_after, "options": ["accept", "rerack"]},
            "warning": None
            if over or state.fouls[state.turn] < 2
            else f"{state.players[state.turn]} is on two fouls",
            "controls": controls(self.keypad, self.legal_types(state)),
            "last": state.last,
            "target": state.target,
            "winner": state.players[state.winner] if over and state.winner is not None else None,
        }


GAMES = (StraightPool(),)
