"""Thousand / 1000 (000:1199-1343): five dice, race to 1000.

Two games share one engine:

- ``thousand``: the classic rules (000:1199-1299, RULES.md §2.1) with the opening
  minimum, pits, overtaking, the dump at 555, bolts and the three barrels
  (``barrel`` = ``none`` / ``point`` / ``open``).
- ``thousand-v2``: "Variant No. 2" (000:1301-1343, RULES.md §2.2): admission with
  75 in one turn, the confirmation throw when all five dice have scored, and the
  850 barrel from which a rival's arrival knocks you back to your admission score.

A turn is a series of ``roll`` events (the dice as read: five, then the dice still
in hand). Scoring dice are set aside: in the classic rules all of them at once,
automatically; in variant 2 the player chooses with ``keep`` (at least one scoring
die; a ``roll`` or ``stop`` without ``keep`` sets aside every scoring die). A
throw that scores nothing burns the turn total. ``stop`` records the turn total
where the restrictions allow it (opening, pit, barrel).

>>> from rules import Session
>>> s = Session.start({"game": "thousand-v2", "players": ["Ann", "Bob"]})
>>> _ = s.submit({"type": "roll", "dice": [1, 5, 3, 3, 4]})
>>> _ = s.submit({"type": "keep", "dice": [1, 5]})
>>> v = s.submit({"type": "roll", "dice": [5, 5, 2]}).view()
>>> v["turn_total"], v["set_aside"], v["pending"], v["pending_points"]
(25, [1, 5], [5, 5, 2], 10)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Mapping, Sequence, TypeVar

from ..events import Event, dice
from ..game import BadOptions, Game, Option
from ._thousand_scoring import (
    best,
    is_scoring_selection,
    outcome_probabilities,
    remove,
    scoring_selections,
    throw_odds,
)


T = TypeVar("T")


def _evolve(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for these frozen states, without re-running ``__init__``
    (several times faster; the journal replay budget is 10,000 events in 0.5 s)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new

Pit = tuple[int, int]


@dataclass(frozen=True)
class Rules:
    """The resolved house rules of one game of Thousand (either rule set)."""

    ruleset: str = "classic"  # classic | variant2
    keep: str = "all"  # all: every scoring die is set aside; any: at least one
    hot_dice: str = "continue"  # continue: compulsory throw of 5; confirm: v2 confirmation throw
    confirm_points_count: bool = True
    confirm_ends_turn: bool = True
    open_min: int = 50
    open_fail_penalty: int = 0
    pits: tuple[Pit, ...] = ((200, 300), (600, 700))
    overtake_penalty: int = 50
    dump_score: int = 555  # 0: no dump
    bolts: bool = True
    bolts_limit: int = 3
    bolts_penalty: int = 100
    bolts_when_restricted: bool = False
    barrel: str = "point"  # none | point | open | v2
    barrel_threshold: int = 880
    target: int = 1000
    barrel_attempts: int = 3  # 0: unlimited (v2)
    barrel_fall_penalty: int = 100
    barrel_max_falls: int = 3
    open_barrel_points: int = 6
    barrel_cap: bool = True


@dataclass(frozen=True)
class Seat:
    """One player's line of the score table."""

    score: int = 0
    opened: bool = False
    bolts: int = 0  # bolts counting towards the next deduction
    bolts_total: int = 0
    open_fails: int = 0  # failed opening turns (for open_fail_penalty)
    on_barrel: bool = False
    attempts: int = 0  # point barrel: attempts used on this seat; open barrel: points
    falls: int = 0
    admission: int = 0  # variant 2: the score recorded by the admission turn


@dataclass(frozen=True)
class ThousandState:
    players: tuple[str, ...]
    seats: tuple[Seat, ...]
    rules: Rules
    turn: int = 0
    round: int = 1
    turn_total: int = 0
    in_hand: int = 5  # dice to throw next
    set_aside: tuple[int, ...] = ()
    pending: tuple[int, ...] = ()  # last throw, its dice not yet set aside (keep = any)
    dice: tuple[int, ...] = ()  # the last throw read
    throws: int = 0  # throws in this turn
    must_throw: bool = False  # classic: all five scored, the next throw is compulsory
    confirming: bool = False  # variant 2: the next throw is the confirmation throw
    winner: str | None = None
    last: tuple[str, ...] = ()  # what the last finished turn did, in words


def parse_pits(spec: str) -> tuple[Pit, ...]:
    """``"200-300,600-700"`` -> ((200, 300), (600, 700)); ``""`` -> no pits.

    >>> parse_pits("200-300, 600-700"), parse_pits("")
    (((200, 300), (600, 700)), ())
    """
    pits: list[Pit] = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        lo_text, sep, hi_text = part.partition("-")
        try:
            lo, hi = int(lo_text), int(hi_text)
        except ValueError:
            raise BadOptions(f"option 'pits': {part!r} is not BOTTOM-TOP (e.g. '200-300,600-700')") from None
        if not sep or not 0 < lo < hi:
            raise BadOptions(f"option 'pits': {part!r} needs 0 < bottom < top")
        pits.append((lo, hi))
    return tuple(sorted(pits))


class Thousand(Game[ThousandState]):
    """Thousand, classic rules (000:1199-1299)."""

    name = "thousand"
    title = "Thousand (1000), classic rules"
    native = "Тисяча (1000)"
    family = "dice"
    source = "000:1199-1299"
    min_players = 2
    max_players = 8
    options: ClassVar[tuple[Option, ...]] = (
        Option("open_min", 50, "points needed in one turn before the first record (000:1237)", lo=0, hi=1000),
        Option(
            "open_fail_penalty",
            0,
            "deduction for every three failed opening turns (0 off, 50 half-bolt, 100 bolt; 000:1239) [REC] 0",
            choices=(0, 50, 100),
        ),
        Option("pits", "200-300,600-700", "pits as BOTTOM-TOP,...; bottom <= score < top is in the pit; '' none"),
        Option("overtake_penalty", 50, "taken off each player overtaken by a recorded turn (0 off)", lo=0, hi=1000),
        Option("dump_score", 555, "a score of exactly this is reset to 0 (0 off)", lo=0, hi=100000),
        Option("bolts_limit", 3, "bolts that trigger the deduction, then the count restarts [REC] 3", lo=1, hi=20),
        Option("bolts_penalty", 100, "deduction after bolts_limit bolts (0 off)", lo=0, hi=1000),
        Option(
            "bolts_when_restricted",
            False,
            "count bolts also when not opened, in a pit or on the barrel (text: usually not counted)",
        ),
        Option("barrel", "point", "none, point (sit above threshold, then score the rest in one turn), open"
               " (exactly the target) [REC] point", choices=("none", "point", "open")),
        Option("barrel_threshold", 880, "point barrel: a score at or above this seats the player", lo=1, hi=100000),
        Option("target", 1000, "the winning score (text: 1000 or 1005)", lo=100, hi=100000),
        Option("barrel_attempts", 3, "point barrel: turns on the barrel before a fall", lo=1, hi=20),
        Option("barrel_fall_penalty", 100, "deduction when falling off the barrel", lo=0, hi=1000),
        Option(
            "barrel_max_falls",
            0,
            "the fall that resets the score to 0; 0 = by barrel (3 point, 1 open)",
            lo=0,
            hi=20,
        ),
        Option("open_barrel_points", 6, "open barrel: points (overshoots) before a fall", lo=1, hi=20),
        Option(
            "barrel_cap",
            True,
            "point barrel: a turn ending at or above the threshold records exactly the threshold [REC] true",
        ),
        Option("keep", "all", "all: every scoring die is set aside (text); any: at least one per throw",
               choices=("all", "any")),
    )
    events = {"roll": {"dice": dice(1, 5)}, "keep": {"dice": dice(1, 5)}, "stop": {}}
    keypad = {"stop": {"type": "stop"}}

    # --- set-up -------------------------------------------------------------------

    def resolve_options(self, given: Mapping[str, Any] | None) -> Mapping[str, Any]:
        resolved = super().resolve_options(given)
        self.rules_from(resolved)  # refuse bad combinations when the header is read
        return resolved

    def rules_from(self, o: Mapping[str, Any]) -> Rules:
        pits = parse_pits(o["pits"])
        if o["barrel"] == "point" and not o["barrel_threshold"] < o["target"]:
            raise BadOptions(f"option 'barrel_threshold': {o['barrel_threshold']} must be below target {o['target']}")
        falls = o["barrel_max_falls"] or (3 if o["barrel"] == "point" else 1)
        return Rules(
            ruleset="classic",
            keep=o["keep"],
            hot_dice="continue",
            open_min=o["open_min"],
            open_fail_penalty=o["open_fail_penalty"],
            pits=pits,
            overtake_penalty=o["overtake_penalty"],
            dump_score=o["dump_score"],
            bolts=True,
            bolts_limit=o["bolts_limit"],
            bolts_penalty=o["bolts_penalty"],
            bolts_when_restricted=o["bolts_when_restricted"],
            barrel=o["barrel"],
            barrel_threshold=o["barrel_threshold"],
            target=o["target"],
            barrel_attempts=o["barrel_attempts"],
            barrel_fall_penalty=o["barrel_fall_penalty"],
            barrel_max_falls=falls,
            open_barrel_points=o["open_barrel_points"],
            barrel_cap=o["barrel_cap"],
        )

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> ThousandState:
        names = self.check_players(players)
        return ThousandState(players=names, seats=(Seat(),) * len(names), rules=self.rules_from(options))

    # --- rule predicates ----------------------------------------------------------

    @staticmethod
    def pit_of(rules: Rules, score: int) -> Pit | None:
        """The pit ``score`` sits in (bottom <= score < top), if any."""
        for lo, hi in rules.pits:
            if lo <= score < hi:
                return (lo, hi)
        return None

    def restricted(self, rules: Rules, seat: Seat) -> bool:
        """Not opened, in a pit or on the barrel: small totals may not be recorded."""
        return not seat.opened or seat.on_barrel or self.pit_of(rules, seat.score) is not None

    def need(self, rules: Rules, seat: Seat) -> int:
        """The smallest turn total this player may record now (1 = any)."""
        need = 1
        if not seat.opened:
            need = max(need, rules.open_min)
        pit = self.pit_of(rules, seat.score)
        if pit is not None:
            need = max(need, pit[1] - seat.score)
        if seat.on_barrel:
            need = max(need, rules.target - seat.score)
        return need

    def _why_not(self, rules: Rules, seat: Seat, total: int) -> str:
        parts = []
        if not seat.opened:
            word = "admitted" if rules.ruleset == "variant2" else "opened"
            parts.append(f"not {word} ({rules.open_min} in one turn)")
        pit = self.pit_of(rules, seat.score)
        if pit is not None:
            parts.append(f"in the pit {pit[0]}-{pit[1]} at {seat.score}")
        if seat.on_barrel:
            parts.append(f"on the barrel at {seat.score} (target {rules.target})")
        return f"{' and '.join(parts)}: needs {self.need(rules, seat)} in one turn, has {total}"

    # --- events -------------------------------------------------------------------

    def describe(self, state: ThousandState) -> str:
        if state.winner:
            return f"won by {state.winner}"
        pending = best(state.pending).points if state.pending else 0
        what = f"turn {state.players[state.turn]}, turn total {state.turn_total + pending}"
        if state.pending:
            return f"{what}, throw {list(state.pending)} to set aside"
        if state.confirming:
            return f"{what}, confirmation throw of 5 due"
        return f"{what}, {state.in_hand} dice in hand"

    def legal_types(self, state: ThousandState) -> tuple[str, ...]:
        if state.winner:
            return ()
        out = ["roll"]
        if state.pending:
            out.append("keep")
        if state.throws and not state.confirming and not state.must_throw:
            seat = state.seats[state.turn]
            total = state.turn_total + (best(state.pending).points if state.pending else 0)
            hot = state.pending and len(best(state.pending).used) == state.in_hand
            if total >= self.need(state.rules, seat) and not hot:
                out.append("stop")
        return tuple(out)

    def kept_dice(self, state: ThousandState) -> tuple[int, ...]:
        return state.set_aside

    def keep_event(self, state: ThousandState, kept: Sequence[int]) -> Event | None:
        """Under ``keep = any``, the dice newly moved to the kept zone, as ``keep``;
        under ``keep = all`` the scoring dice are set aside by the rules, not by hand."""
        if state.rules.keep == "all" or not state.pending:
            return None
        new = remove(kept, state.set_aside)
        if not new:
            return None
        return Event("keep", {"dice": list(new)}, source="camera")

    def _apply(self, state: ThousandState, event: Event) -> ThousandState:
        if state.winner is not None:
            raise self.illegal(event, state, f"the game is over, {state.winner} won")
        if event.type == "roll":
            return self._roll(state, event)
        if event.type == "keep":
            return self._keep(state, event)
        return self._stop(state, event)

    def _roll(self, state: ThousandState, event: Event) -> ThousandState:
        s = self._set_aside(state, best(state.pending).used) if state.pending else state
        thrown: tuple[int, ...] = event["dice"]
        if len(thrown) != s.in_hand:
            hint = " (all five scored: throw them all again)" if s.in_hand == 5 and s.throws else ""
            raise self.illegal(event, state, f"throw {s.in_hand} dice{hint}, got {len(thrown)}")
        throw = best(thrown)
        rules, seat = s.rules, s.seats[s.turn]
        if s.must_throw or s.confirming:  # all five are thrown again
            s = _evolve(s, set_aside=())
        s = _evolve(s, dice=thrown, throws=s.throws + 1, must_throw=False)
        name = s.players[s.turn]
        if s.confirming:
            s = _evolve(s, confirming=False)
            if throw.points == 0:
                return self._failed(s, f"{name}: the confirmation throw scored nothing, {s.turn_total} lost")
            if rules.confirm_ends_turn:
                total = s.turn_total + (throw.points if rules.confirm_points_count else 0)
                if total < self.need(rules, seat):
                    return self._failed(s, f"{name}: confirmed {total}, but {self._why_not(rules, seat, total)}")
                return self._record(_evolve(s, turn_total=total))
        if throw.points == 0:
            return self._bust(s)
        if rules.barrel == "open" and seat.score + s.turn_total + throw.points > rules.target:
            return self._point(_evolve(s, turn_total=s.turn_total + throw.points))
        if rules.keep == "all" or len(scoring_selections(thrown)) == 1:
            return self._set_aside(_evolve(s, pending=thrown), throw.used)  # nothing to choose
        return _evolve(s, pending=thrown)

    def _keep(self, state: ThousandState, event: Event) -> ThousandState:
        kept: tuple[int, ...] = event["dice"]
        if state.rules.keep == "all":
            raise self.illegal(event, state, "every scoring die is set aside automatically under these rules")
        if not state.pending:
            raise self.illegal(event, state, "nothing to set aside: throw first")
        if remove(state.pending, kept) is None:
            raise self.illegal(event, state, f"{list(kept)} is not part of the throw {list(state.pending)}")
        if not is_scoring_selection(kept):
            scoring = list(best(state.pending).used)
            raise self.illegal(event, state, f"{list(kept)} does not all score; scoring dice: {scoring}")
        return self._set_aside(state, kept)

    def _set_aside(self, state: ThousandState, kept: Sequence[int]) -> ThousandState:
        points = best(kept).points
        in_hand = state.in_hand - len(kept)
        aside = tuple(sorted(state.set_aside + tuple(kept)))
        s = _evolve(state, pending=(), turn_total=state.turn_total + points, in_hand=in_hand, set_aside=aside)
        if in_hand == 0:
            if state.rules.hot_dice == "confirm":
                return _evolve(s, in_hand=5, confirming=True)
            return _evolve(s, in_hand=5, must_throw=True)
        return s

    def _stop(self, state: ThousandState, event: Event) -> ThousandState:
        if not state.throws:
            raise self.illegal(event, state, "throw before stopping")
        if state.confirming:
            raise self.illegal(event, state, "all five dice scored: throw them again to confirm the turn")
        s = self._set_aside(state, best(state.pending).used) if state.pending else state
        if s.must_throw:
            raise self.illegal(event, state, "all five dice scored: the next throw is compulsory")
        if s.confirming:
            raise self.illegal(event, state, "all five dice score: throw them again to confirm the turn")
        seat = s.seats[s.turn]
        if s.turn_total < self.need(s.rules, seat):
            raise self.illegal(event, state, self._why_not(s.rules, seat, s.turn_total))
        return self._record(s)

    # --- the end of a turn ----------------------------------------------------------

    def _record(self, s: ThousandState) -> ThousandState:
        """Record the turn total of the player whose turn it is (already allowed)."""
        rules, me, name = s.rules, s.turn, s.players[s.turn]
        seats = list(s.seats)
        seat = seats[me]
        before = [x.score for x in seats]
        new = seat.score + s.turn_total
        notes = [f"{name} records {s.turn_total}"]
        seated = False
        won = False
        if rules.barrel in ("point", "v2"):
            if seat.on_barrel:
                won = new >= rules.target
            elif new >= rules.barrel_threshold:
                seated = True
                if rules.barrel_cap or new >= rules.target:
                    new = rules.barrel_threshold
                notes.append(f"{name} sits on the barrel at {new}")
        elif rules.barrel == "none":
            won = new >= rules.target
        else:  # open barrel: the overshoot was refused as a point when thrown
            won = new == rules.target
        admission = seat.admission if seat.opened else new  # v2 knock-offs return here
        seat = _evolve(seat, score=new, opened=True, admission=admission)
        if seated:
            seat = _evolve(seat, on_barrel=True, attempts=0)
        seats[me] = seat
        if won:
            seats[me] = _evolve(seat, on_barrel=False)
            return self._next_turn(_evolve(s, seats=tuple(seats), winner=name), tuple(notes + [f"{name} wins"]))
        if rules.overtake_penalty:
            for i, other in enumerate(seats):
                if i != me and before[me] < before[i] < new:
                    seats[i] = _evolve(other, score=other.score - rules.overtake_penalty)
                    notes.append(f"{s.players[i]} overtaken: -{rules.overtake_penalty}")
        if seated:
            for i, other in enumerate(seats):
                if i != me and other.on_barrel:
                    if rules.barrel == "v2":
                        seats[i] = _evolve(other, score=other.admission, on_barrel=False, attempts=0)
                        notes.append(f"{s.players[i]} knocked off the barrel to {other.admission}")
                    else:
                        seats[i], note = self._fall(rules, other)
                        notes.append(f"{s.players[i]} knocked off the barrel: {note}")
        return self._end_turn(_evolve(s, seats=tuple(seats)), tuple(notes))

    def _fall(self, rules: Rules, seat: Seat) -> tuple[Seat, str]:
        falls = seat.falls + 1
        if falls >= rules.barrel_max_falls:
            return _evolve(seat, score=0, falls=0, on_barrel=False, attempts=0), f"fall {falls}, score reset to 0"
        return (
            _evolve(seat, score=seat.score - rules.barrel_fall_penalty, falls=falls, on_barrel=False, attempts=0),
            f"fall {falls}, -{rules.barrel_fall_penalty}",
        )

    def _barrel_attempt(self, rules: Rules, seat: Seat) -> tuple[Seat, str]:
        """A turn on the point barrel ended without the win."""
        if not rules.barrel_attempts:
            return seat, ""
        used = seat.attempts + 1
        if used >= rules.barrel_attempts:
            fallen, note = self._fall(rules, seat)
            return fallen, f"barrel attempts used up, {note}"
        return _evolve(seat, attempts=used), f"barrel attempt {used} of {rules.barrel_attempts} failed"

    def _bust(self, s: ThousandState) -> ThousandState:
        """A throw that scores nothing: the turn total burns, maybe a bolt."""
        rules, me, name = s.rules, s.turn, s.players[s.turn]
        seat = s.seats[me]
        notes = [f"{name}: nothing scores, {s.turn_total} burnt"]
        if rules.bolts and (rules.bolts_when_restricted or not self.restricted(rules, seat)):
            bolts = seat.bolts + 1
            seat = _evolve(seat, bolts=bolts, bolts_total=seat.bolts_total + 1)
            notes.append(f"{name} gets bolt {bolts}")
            if bolts >= rules.bolts_limit:
                seat = _evolve(seat, bolts=0, score=seat.score - rules.bolts_penalty)
                notes.append(f"{name}: {bolts} bolts, -{rules.bolts_penalty}")
        s = _evolve(s, seats=_put(s.seats, me, seat))
        return self._failed(s, *notes)

    def _failed(self, s: ThousandState, *why: str) -> ThousandState:
        """A turn ending with nothing recorded: opening failures and barrel attempts."""
        rules, me, name = s.rules, s.turn, s.players[s.turn]
        seat = s.seats[me]
        notes = list(why)
        if not seat.opened and rules.open_fail_penalty:
            fails = seat.open_fails + 1
            seat = _evolve(seat, open_fails=fails)
            if fails % 3 == 0:
                seat = _evolve(seat, score=seat.score - rules.open_fail_penalty)
                notes.append(f"{name}: {fails} failed openings, -{rules.open_fail_penalty}")
        if seat.on_barrel:
            seat, extra = self._barrel_attempt(rules, seat)
            notes += [f"{name}: {extra}"] if extra else []
        return self._end_turn(_evolve(s, seats=_put(s.seats, me, seat)), tuple(notes))

    def _point(self, s: ThousandState) -> ThousandState:
        """Open barrel: the running total passed the target; a point, the turn ends."""
        rules, me, name = s.rules, s.turn, s.players[s.turn]
        seat = s.seats[me]
        points = seat.attempts + 1
        notes = [f"{name}: {seat.score} + {s.turn_total} passes {rules.target}, point {points}"]
        if points >= rules.open_barrel_points:
            seat, note = self._fall(rules, _evolve(seat, attempts=0))
            notes.append(f"{name}: points used up, {note}")
        else:
            seat = _evolve(seat, attempts=points)
        return self._end_turn(_evolve(s, seats=_put(s.seats, me, seat)), tuple(notes))

    def _end_turn(self, s: ThousandState, notes: tuple[str, ...]) -> ThousandState:
        rules = s.rules
        seats = list(s.seats)
        extra: list[str] = []
        for i, seat in enumerate(seats):
            if seat.on_barrel and rules.barrel in ("point", "v2") and seat.score < rules.barrel_threshold:
                seat = _evolve(seat, on_barrel=False, attempts=0)  # pushed below by a deduction
            if rules.dump_score and seat.score == rules.dump_score:
                seat = _evolve(seat, score=0)
                extra.append(f"{s.players[i]} at {rules.dump_score}: dumped to 0")
            seats[i] = seat
        return self._next_turn(_evolve(s, seats=tuple(seats)), notes + tuple(extra))

    def _next_turn(self, s: ThousandState, notes: tuple[str, ...]) -> ThousandState:
        done = _evolve(
            s, turn_total=0, in_hand=5, set_aside=(), pending=(), throws=0, must_throw=False, confirming=False,
            last=notes,
        )
        if s.winner is not None:
            return done
        nxt = (s.turn + 1) % len(s.players)
        return _evolve(done, turn=nxt, round=s.round + (nxt == 0))

    # --- outputs ------------------------------------------------------------------

    def seat_view(self, rules: Rules, seat: Seat, name: str) -> dict[str, Any]:
        pit = self.pit_of(rules, seat.score)
        status = []
        if not seat.opened:
            status.append("not_admitted" if rules.ruleset == "variant2" else "not_open")
        if pit is not None:
            status.append("pit")
        if seat.on_barrel:
            status.append("barrel")
        out: dict[str, Any] = {
            "name": name,
            "score": seat.score,
            "opened": seat.opened,
            "status": status,
            "need": self.need(rules, seat),
            "pit": list(pit) if pit else None,
            "on_barrel": seat.on_barrel,
        }
        if rules.bolts:
            out["bolts"] = seat.bolts
            out["bolts_total"] = seat.bolts_total
        if rules.barrel == "point":
            out["barrel_attempts_left"] = rules.barrel_attempts - seat.attempts if seat.on_barrel else None
        if rules.barrel in ("point", "open"):
            out["falls"] = seat.falls
        if rules.barrel == "open":
            out["points"] = seat.attempts
        if rules.barrel == "v2":
            out["admission"] = seat.admission if seat.opened else None
        if rules.open_fail_penalty:
            out["open_fails"] = seat.open_fails
        return out

    def view(self, state: ThousandState, now: float) -> dict[str, Any]:
        rules = state.rules
        seat = state.seats[state.turn]
        pending_points = best(state.pending).points if state.pending else 0
        return {
            "players": [self.seat_view(rules, x, n) for n, x in zip(state.players, state.seats)],
            "turn": None if state.winner else state.players[state.turn],
            "turn_total": state.turn_total + pending_points,
            "dice": list(state.dice),
            "pending": list(state.pending),
            "pending_points": pending_points,
            "set_aside": list(state.set_aside),
            "in_hand": state.in_hand,
            "must_throw": state.must_throw,
            "confirming": state.confirming,
            "need": None if state.winner else self.need(rules, seat),
            "can_stop": "stop" in self.legal_types(state),
            "round": state.round,
            "target": rules.target,
            "barrel": rules.barrel,
            "last": list(state.last),
            "winner": state.winner,
        }

    # --- chances ------------------------------------------------------------------

    def chance_outcomes(self, state: ThousandState) -> dict[tuple[int, ...], Fraction]:
        """The next throw's outcomes (sorted dice) and their exact chances."""
        if state.winner:
            return {}
        pending = best(state.pending).used if state.pending else ()
        n = state.in_hand - len(pending)
        return outcome_probabilities(n if n > 0 else 5)

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds thousand --dice N``: chances for one throw of N dice (1..5).

        ``zero`` is the chance that nothing scores (Farkle: 2/3, 4/9, 5/18, 17/108,
        25/324); without ``--dice`` the zero chance for 1..5 dice.

        >>> Thousand().odds({"dice": "3"})["zero"]
        Fraction(5, 18)
        """
        unknown = sorted(set(params) - {"dice"})
        if unknown:
            raise ValueError(f"unknown odds parameter(s) {unknown} for {self.name}; allowed: ['dice']")
        if "dice" not in params:
            return {f"zero_{n}_dice": throw_odds(n)["zero"] for n in range(1, 6)}
        try:
            n = int(params["dice"])
        except ValueError:
            raise ValueError(f"--dice must be a whole number 1..5, got {params['dice']!r}") from None
        if not 1 <= n <= 5:
            raise ValueError(f"--dice must be in 1..5, got {n}")
        return throw_odds(n)


class ThousandV2(Thousand):
    """Thousand, "Variant No. 2" (000:1301-1343): admission 75, confirmation throw, barrel 850."""

    name = "thousand-v2"
    title = "Thousand (1000), variant No. 2"
    source = "000:1301-1343"
    options = (
        Option("admission", 75, "points needed in one turn before the first record (000:1339)", lo=0, hi=1000),
        Option("barrel", 850, "a recorded score above this is written as this (000:1343)", lo=1, hi=10000),
        Option("barrel_need", 150, "points to score in one turn from the barrel to win", lo=1, hi=10000),
        Option(
            "confirm_points_count",
            True,
            "the confirmation throw's own points are added to the turn [REC] true",
        ),
        Option(
            "confirm_ends_turn",
            True,
            "a successful confirmation records the turn and ends it [REC] true; false: the confirmation"
            " throw is an ordinary (compulsory) throw and the turn goes on",
        ),
        Option("keep", "any", "any: set aside at least one scoring die per throw [REC]; all: every scoring die",
               choices=("all", "any")),
    )

    def rules_from(self, o: Mapping[str, Any]) -> Rules:
        return Rules(
            ruleset="variant2",
            keep=o["keep"],
            hot_dice="confirm",
            confirm_points_count=o["confirm_points_count"],
            confirm_ends_turn=o["confirm_ends_turn"],
            open_min=o["admission"],
            pits=(),
            overtake_penalty=0,
            dump_score=0,
            bolts=False,
            barrel="v2",
            barrel_threshold=o["barrel"],
            target=o["barrel"] + o["barrel_need"],
            barrel_attempts=0,
            barrel_cap=True,
        )


def _put(seats: tuple[Seat, ...], i: int, seat: Seat) -> tuple[Seat, ...]:
    return seats[:i] + (seat,) + seats[i + 1 :]


GAMES = (Thousand(), ThousandV2())
