"""Five pins / 5 фишек (UMB rules via the Russian federation, 001:119-232, RULES.md §4.4).

Strokes alternate, one stroke a turn. A legal stroke scores its pins (2 per side
pin; the centre pin 4 with side pins, 8 alone) and its first carom (4 when the
cue ball goes on to the red, 3 for the ricochet, the opponent's ball hitting the
red). On a foul the stroke's points go to the opponent, plus 2 for each type B
foul (4 for hitting the red first, 2 once for any balls off the table) and the
ball in hand; type A (the cue ball knocks pins after a correct hit) gives only
the pins and carom, no ball in hand (§15.2; ``type_a_extra_2`` adds 2, RULES.md
§6 #8). The first to ``set_points`` wins the set, the total cut to the limit; a
match is an odd number of sets and the break alternates through the match.

>>> stroke_points(2, False, "carom"), stroke_points(4, True, "none"), stroke_points(0, True, "ricochet")
(8, 12, 11)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from ..events import Event, Opt, boolean, integer, text
from ..game import BadOptions, Game, Option
from .common import controls, index_of, other, put

CAROMS = {"none": 0, "carom": 4, "ricochet": 3}
# foul code -> extra points for the opponent (§15.3, letters of the text)
TYPE_B = {
    "wrong_ball": 2,  # a: playing the wrong ball
    "red_first": 4,  # b: the red before the opponent's ball: 2 for the miss + 2 for the carom
    "pins_first": 2,  # c: the cue ball knocks pins before touching the opponent's ball
    "missed": 2,  # d: the opponent's ball missed or hit incorrectly
    "off_table": 2,  # e: one or more balls off the table, 2 whatever their number
    "balls_moving": 2,  # f: striking before all three balls stop
    "not_tip": 2,  # g: not striking with the tip
    "double_hit": 2,  # h
    "cleaning": 2,  # i: touching a ball or pin to clean it
    "moved": 2,  # k: moving a ball or pin directly or indirectly
    "contact": 2,  # l: playing into a touching ball or cushion
    "foot": 2,  # m: foot fault at the break or with ball in hand
    "placing": 2,  # n: placing the ball other than with the cue, or before the referee
    "jump": 2,  # o: cue ball or red jumps the pins before the opponent's ball
    "touching": 2,  # p: touching any ball or pin with cue, hand, clothing
    "push": 2,  # r: push shot
}
TYPE_A = "pins_by_cue"  # §15.2: the cue ball knocks pins after a correct hit
FOUL_KINDS = (TYPE_A,) + tuple(TYPE_B)


def stroke_points(side_pins: int, centre: bool, carom: str) -> int:
    """Points of one stroke: pins (§8.1) plus the first carom (§8.2)."""
    pins = 2 * side_pins
    if centre:
        pins += 4 if side_pins else 8
    return pins + CAROMS[carom]


def _kinds(value: Any) -> tuple[str, ...]:
    """A foul code or a list of codes (several fouls in one stroke, §15.1)."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or not 1 <= len(items) <= 6:
        raise ValueError(f"expected a foul code or a list of 1..6 codes, got {value!r}")
    for k in items:
        if k not in FOUL_KINDS:
            raise ValueError(f"expected foul codes from {list(FOUL_KINDS)}, got {k!r}")
    if len(set(items)) != len(items):
        raise ValueError(f"each foul counts once in a stroke, got {list(items)}")
    return tuple(items)


@dataclass(frozen=True)
class FivePinsState:
    players: tuple[str, ...]
    scores: tuple[int, ...] = (0, 0)
    sets_won: tuple[int, ...] = (0, 0)
    set_no: int = 1
    breaker: int = 0  # who breaks this set
    turn: int = 0
    strokes: int = 0  # strokes played in this set
    ball_in_hand: bool = False  # the player to strike has his ball in hand
    phase: str = "play"  # play | set_over | over
    history: tuple[tuple[int, int, int], ...] = ()
    last: str = ""
    last_points: tuple[int, int] | None = None  # (player credited, points) of the last stroke
    winner: int | None = None
    set_points: int = 60
    sets: int = 3
    type_a_extra_2: bool = False
    foul_minus_striker: bool = False


class FivePins(Game[FivePinsState]):
    name = "five-pins"
    title = "Five pins"
    native = "5 фишек"
    family = "billiards"
    source = "001:119-232"
    min_players = 2
    max_players = 2
    options = (
        Option("set_points", 60, "points to win a set ([REC]: the text leaves it to the competition)", lo=2, hi=1000),
        Option("sets", 3, "sets in a match (an odd number, §2): best of", lo=1, hi=15),
        Option(
            "type_a_extra_2",
            False,
            "a type A foul (the cue ball knocks pins after a correct hit) also gives 2 (§15.2 says both;"
            " [REC] pins and carom only, RULES.md §6 #8)",
        ),
        Option(
            "foul_minus_striker",
            False,
            "§7 read literally: the striker also loses the foul's points ([REC] off: the opponent is credited)",
        ),
    )
    events = {
        "stroke": {
            "side_pins": Opt(integer(0, 4), 0),
            "centre": Opt(boolean(), False),
            "carom": Opt(text(choices=tuple(CAROMS)), "none"),
        },
        "foul": {
            "kind": _kinds,
            "side_pins": Opt(integer(0, 4), 0),
            "centre": Opt(boolean(), False),
            "carom": Opt(text(choices=tuple(CAROMS)), "none"),
        },
        "concede": {"player": text(40)},
        "next_set": {},
    }
    keypad = {
        "no_score": {"type": "stroke"},
        "carom": {"type": "stroke", "carom": "carom"},
        "ricochet": {"type": "stroke", "carom": "ricochet"},
        "side_pin": {"type": "stroke", "side_pins": 1},
        "two_side_pins": {"type": "stroke", "side_pins": 2},
        "centre_pin": {"type": "stroke", "centre": True},
        "missed": {"type": "foul", "kind": "missed"},
        "red_first": {"type": "foul", "kind": "red_first"},
        "pins_by_cue": {"type": "foul", "kind": "pins_by_cue", "side_pins": 1},
        "off_table": {"type": "foul", "kind": "off_table"},
        "next_set": {"type": "next_set"},
    }

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> FivePinsState:
        names = self.check_players(players)
        if options["sets"] % 2 == 0:
            raise BadOptions(f"option 'sets': a match has an odd number of sets (§2), got {options['sets']}")
        return FivePinsState(
            players=names,
            set_points=options["set_points"],
            sets=options["sets"],
            type_a_extra_2=options["type_a_extra_2"],
            foul_minus_striker=options["foul_minus_striker"],
        )

    def describe(self, state: FivePinsState) -> str:
        score = f"set {state.set_no} {state.scores[0]}:{state.scores[1]}"
        if state.phase == "over":
            return f"match won by {state.players[state.winner or 0]}"
        if state.phase == "set_over":
            return f"{score} is over"
        return f"{state.players[state.turn]} to strike, {score}"

    def legal_types(self, state: FivePinsState) -> tuple[str, ...]:
        return {"play": ("stroke", "foul", "concede"), "set_over": ("next_set",), "over": ()}[state.phase]

    def _apply(self, state: FivePinsState, event: Event) -> FivePinsState:
        kind = event.type
        if state.phase == "over":
            raise self.illegal(event, state, "the match is over")
        if kind not in self.legal_types(state):
            wanted = "next_set" if state.phase == "set_over" else str(list(self.legal_types(state)))
            raise self.illegal(event, state, f"{kind} is not possible now; expected {wanted}")
        p, q = state.turn, other(state.turn)
        if kind == "concede":
            who = index_of(state.players, event["player"])
            if who is None:
                raise self.illegal(event, state, f"no player {event['player']!r}; players: {list(state.players)}")
            return self._set_over(state, other(who), f"{event['player']} concedes set {state.set_no}")
        if kind == "next_set":
            breaker = other(state.breaker)
            return replace(
                state,
                set_no=state.set_no + 1,
                breaker=breaker,
                turn=breaker,
                scores=(0, 0),
                strokes=0,
                ball_in_hand=False,
                phase="play",
                last_points=None,
                last=f"set {state.set_no + 1}: {state.players[breaker]} breaks",
            )
        points = stroke_points(event["side_pins"], event["centre"], event["carom"])
        if kind == "stroke":
            scores = self._credit(state.scores, p, points, state.set_points)
            what = f"{state.players[p]} +{points}" if points else f"{state.players[p]} no score"
            return self._after_stroke(state, scores, p, points, False, what)
        kinds = event["kind"]
        extra = sum(TYPE_B[k] for k in kinds if k in TYPE_B)
        only_a = all(k == TYPE_A for k in kinds)
        if TYPE_A in kinds and state.type_a_extra_2:
            extra += 2
        if TYPE_A in kinds and not (event["side_pins"] or event["centre"]):
            raise self.illegal(event, state, "a pins_by_cue foul needs the pins the cue ball knocked")
        total = points + extra
        scores = self._credit(state.scores, q, total, state.set_points)
        if state.foul_minus_striker:
            scores = put(scores, p, scores[p] - total)
        what = f"{state.players[p]} foul ({', '.join(kinds)}), {state.players[q]} +{total}"
        # [REC] foul points can win the set for the opponent, capped (§6 #8)
        return self._after_stroke(state, scores, q, total, not only_a, what)

    @staticmethod
    def _credit(scores: tuple[int, ...], player: int, points: int, limit: int) -> tuple[int, ...]:
        # §2: the total is cut to the limit when the last stroke goes past it
        return put(scores, player, min(scores[player] + points, limit))

    def _after_stroke(
        self, state: FivePinsState, scores: tuple[int, ...], credited: int, points: int, in_hand: bool, what: str
    ) -> FivePinsState:
        """The stroke's points are credited; the set ends or the other player strikes."""
        new = replace(
            state,
            scores=scores,
            ball_in_hand=in_hand,
            last=what,
            last_points=(credited, points),
            turn=other(state.turn),
            strokes=state.strokes + 1,
        )
        if scores[credited] >= state.set_points:
            return self._set_over(replace(new, turn=state.turn, strokes=state.strokes), credited, what)
        return new

    def _set_over(self, state: FivePinsState, winner: int, what: str) -> FivePinsState:
        sets_won = put(state.sets_won, winner, state.sets_won[winner] + 1)
        new = replace(
            state,
            sets_won=sets_won,
            history=state.history + ((winner, state.scores[0], state.scores[1]),),
            phase="set_over",
            strokes=state.strokes + 1,
            ball_in_hand=False,
            last=what,
        )
        if sets_won[winner] > state.sets // 2:
            return replace(new, phase="over", winner=winner)
        return new

    @staticmethod
    def pause_due(state: FivePinsState) -> bool:
        """A 5-minute pause before the next set (§4.6): after set 2, and in a 5-set match also
        before the deciding set 5."""
        if state.phase != "set_over":
            return False
        done = state.set_no
        return done == 2 or (state.sets == 5 and done == 4)

    def view(self, state: FivePinsState, now: float) -> dict[str, Any]:
        last = None
        if state.last_points is not None:
            last = {"to": state.players[state.last_points[0]], "points": state.last_points[1]}
        return {
            "players": [
                {"name": n, "score": s, "sets": w} for n, s, w in zip(state.players, state.scores, state.sets_won)
            ],
            "turn": state.players[state.turn] if state.phase == "play" else None,
            "phase": state.phase,
            "set": state.set_no,
            "sets": state.sets,
            "set_points": state.set_points,
            "break_stroke": state.phase == "play" and state.strokes == 0,
            "breaker": state.players[state.breaker],
            "ball_in_hand": state.ball_in_hand,
            "stroke_points": last,
            "pause": self.pause_due(state),
            "sets_played": [
                {"set": i + 1, "winner": state.players[w], "scores": [a, b]}
                for i, (w, a, b) in enumerate(state.history)
            ],
            "controls": controls(self.keypad, self.legal_types(state)),
            "last": state.last,
            "winner": None if state.winner is None else state.players[state.winner],
        }


GAMES = (FivePins(),)
