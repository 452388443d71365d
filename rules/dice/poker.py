"""Five-dice poker (001:2-32, RULES.md §1.16): three throws with holds.

Players are listed in the order the opening throw gave (the highest single die
opens; the turn then passes to the left). Each player throws all five dice, then
may accept (``stop``) or hold some dice (``keep``) and throw the rest again, up to
three throws. On the third throw only dice that were thrown on the second throw
may be thrown again: the dice held at the second throw stay held
(``third_throw_only_rethrown``). When the last player is done the best
combination wins the bank; equal best hands play off among themselves.

Combinations, high to low: poker (five alike) > four alike > full house >
[straights, off by default] > three alike [REC] > two pairs > pair > nothing
(then the highest pip sum wins). The same combination: the higher faces of the
combination win ("four queens beat four tens"), then the other dice [REC].

>>> from rules import Session
>>> s = Session.start({"game": "poker", "players": ["Ann", "Bob"]})
>>> for e in ({"type": "roll", "dice": [6, 6, 2, 3, 6]}, {"type": "keep", "dice": [6, 6, 6]},
...           {"type": "roll", "dice": [6, 1]}, {"type": "stop"}):
...     _ = s.submit(e)
>>> s.view()["players"][0]["hand_name"]
'four sixes'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any, Mapping, NamedTuple, Sequence, TypeVar

from ..events import Event, dice, integer, list_of
from ..game import Game, Option


T = TypeVar("T")


def _evolve(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for these frozen states, without re-running ``__init__``
    (several times faster; the journal replay budget is 10,000 events in 0.5 s)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new

CATEGORIES = (
    "nothing",
    "pair",
    "two_pairs",
    "three_of_a_kind",
    "small_straight",
    "large_straight",
    "full_house",
    "four_of_a_kind",
    "poker",
)
PIP_NAMES = {1: "ones", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes"}
POKER_NAMES = {1: "nines", 2: "tens", 3: "jacks", 4: "queens", 5: "kings", 6: "aces"}


class Rank(NamedTuple):
    """A hand's place: compare ``(category, tiebreak)``; ``name`` is for people."""

    category: int
    tiebreak: tuple[int, ...]
    name: str


def rank(hand: Sequence[int], three_of_a_kind: bool = True, straights: bool = False, faces: str = "pips") -> Rank:
    """Rank five dice.

    >>> rank((4, 4, 4, 4, 2)) > rank((3, 3, 3, 3, 6))
    True
    >>> rank((2, 2, 2, 5, 5)).name, rank((1, 2, 3, 4, 5)).name, rank((1, 2, 3, 4, 5), straights=True).name
    ('full house, twos over fives', 'nothing (15)', 'small straight')
    >>> rank((4, 4, 4, 1, 2), three_of_a_kind=False).name
    'pair of fours'
    """
    names = POKER_NAMES if faces == "poker" else PIP_NAMES
    counts = Counter(hand)
    groups = sorted(counts.items(), key=lambda fc: (fc[1], fc[0]), reverse=True)
    shape = [c for _, c in groups]
    order = tuple(f for f, c in groups for _ in range(c))  # combination faces first, then the rest
    top = names[groups[0][0]]
    if shape == [5]:
        return Rank(8, order, f"poker of {top}")
    if shape == [4, 1]:
        return Rank(7, order, f"four {top}")
    if shape == [3, 2]:
        return Rank(6, order, f"full house, {top} over {names[groups[1][0]]}")
    if straights and sorted(hand) == [2, 3, 4, 5, 6]:
        return Rank(5, order, "large straight")
    if straights and sorted(hand) == [1, 2, 3, 4, 5]:
        return Rank(4, order, "small straight")
    if shape[0] == 3:
        if three_of_a_kind:
            return Rank(3, order, f"three {top}")
        return Rank(1, order, f"pair of {top}")  # the list of 001:24-28 has no three alike
    if shape[:2] == [2, 2]:
        return Rank(2, order, f"two pairs, {top} and {names[groups[1][0]]}")
    if shape[0] == 2:
        return Rank(1, order, f"pair of {top}")
    return Rank(0, (sum(hand),) + tuple(sorted(hand, reverse=True)), f"nothing ({sum(hand)})")


@lru_cache(maxsize=None)
def _throws(n: int) -> dict[tuple[int, ...], int]:
    return dict(Counter(tuple(sorted(t)) for t in product(range(1, 7), repeat=n)))


def throw_probabilities(n: int) -> dict[tuple[int, ...], Fraction]:
    """Exact chance of each sorted throw of ``n`` dice.

    >>> sum(throw_probabilities(5).values()), len(throw_probabilities(5))
    (Fraction(1, 1), 252)
    """
    return {k: Fraction(v, 6**n) for k, v in _throws(n).items()}


def hand_odds(held: Sequence[int] = (), three_of_a_kind: bool = True, straights: bool = False) -> dict[str, Fraction]:
    """Chance of each combination after throwing ``5 - len(held)`` dice next to ``held``.

    >>> hand_odds()["poker"], hand_odds()["four_of_a_kind"], hand_odds()["full_house"]
    (Fraction(1, 1296), Fraction(25, 1296), Fraction(25, 648))
    >>> hand_odds(held=(6, 6, 6, 6))["poker"]
    Fraction(1, 6)
    """
    out = {c: Fraction(0) for c in CATEGORIES}
    if not straights:
        del out["small_straight"], out["large_straight"]
    if not three_of_a_kind:
        del out["three_of_a_kind"]
    for throw, p in throw_probabilities(5 - len(held)).items():
        out[CATEGORIES[rank(tuple(held) + throw, three_of_a_kind, straights).category]] += p
    return out


def _minus(dice_: Sequence[int], taken: Sequence[int]) -> tuple[int, ...] | None:
    left = list(dice_)
    for d in taken:
        if d not in left:
            return None
        left.remove(d)
    return tuple(left)


@dataclass(frozen=True)
class PokerState:
    players: tuple[str, ...]
    active: tuple[int, ...]  # players in this round (all, or the tied ones in a play-off)
    hands: tuple[tuple[int, ...], ...]  # each player's last accepted hand (() none yet)
    options: tuple[tuple[str, Any], ...]
    pos: int = 0  # index into ``active`` of the player throwing
    hand: tuple[int, ...] = ()  # the five dice now in front of the player
    throws: int = 0
    held: tuple[int, ...] | None = None  # dice held for the next throw (None: not chosen)
    kept_at_second: tuple[int, ...] | None = None  # dice left untouched by the second throw
    round: int = 1
    bank: int = 0
    winner: str | None = None
    ranking: tuple[str, ...] = ()  # names, best first, of the last finished round

    @property
    def opts(self) -> dict[str, Any]:
        return dict(self.options)


class Poker(Game[PokerState]):
    name = "poker"
    title = "Five-dice poker"
    native = "Покер на костях (5 зариков)"
    family = "dice"
    source = "001:2-32"
    min_players = 2
    max_players = 10
    options = (
        Option("three_of_a_kind", True, "three alike ranks between two pairs and full house [REC]; false: a pair"),
        Option("straights", False, "1-2-3-4-5 and 2-3-4-5-6 rank between three alike and full house"),
        Option(
            "third_throw_only_rethrown",
            True,
            "on the third throw only dice thrown on the second throw may be thrown again (001:17-18)",
        ),
        Option("faces", "pips", "names of the faces: pips (6 high) or poker dice 9, 10, J, Q, K, A",
               choices=("pips", "poker")),
        Option("ante", 1, "stake each player puts in the bank before the game (0: none)", lo=0, hi=1000),
    )
    events = {
        "roll": {"dice": dice(1, 5)},
        "keep": {"dice": list_of(integer(1, 6), 0, 4)},
        "stop": {},
    }
    keypad = {"stop": {"type": "stop"}}

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> PokerState:
        names = self.check_players(players)
        return PokerState(
            players=names,
            active=tuple(range(len(names))),
            hands=((),) * len(names),
            options=tuple(sorted(options.items())),
            bank=options["ante"] * len(names),
        )

    def describe(self, state: PokerState) -> str:
        if state.winner:
            return f"won by {state.winner}"
        who = state.players[state.active[state.pos]]
        return f"turn {who}, throw {state.throws} of 3, dice {list(state.hand)}"

    def legal_types(self, state: PokerState) -> tuple[str, ...]:
        if state.winner:
            return ()
        return ("roll",) if not state.throws else ("roll", "keep", "stop")

    def _rank(self, state: PokerState, hand: Sequence[int]) -> Rank:
        o = state.opts
        return rank(hand, o["three_of_a_kind"], o["straights"], o["faces"])

    def _apply(self, state: PokerState, event: Event) -> PokerState:
        if state.winner is not None:
            raise self.illegal(event, state, f"the game is over, {state.winner} won")
        if event.type == "roll":
            return self._roll(state, event)
        if not state.throws:
            raise self.illegal(event, state, "throw the five dice first")
        if event.type == "keep":
            held: tuple[int, ...] = event["dice"]
            if _minus(state.hand, held) is None:
                raise self.illegal(event, state, f"{list(held)} is not among the dice {list(state.hand)}")
            self._check_third(state, event, held)
            return _evolve(state, held=held)
        return self._finish(state)

    def _check_third(self, state: PokerState, event: Event, held: tuple[int, ...]) -> None:
        if state.throws == 2 and state.opts["third_throw_only_rethrown"] and state.kept_at_second:
            if _minus(held, state.kept_at_second) is None:
                raise self.illegal(
                    event,
                    state,
                    f"only dice thrown on the second throw may be thrown again: keep {list(state.kept_at_second)}",
                )

    def _roll(self, state: PokerState, event: Event) -> PokerState:
        thrown: tuple[int, ...] = event["dice"]
        if state.throws == 0:
            if len(thrown) != 5:
                raise self.illegal(event, state, f"the first throw is of all five dice, got {len(thrown)}")
            return _evolve(state, hand=thrown, throws=1, held=None)
        held = state.held if state.held is not None else ()
        if state.held is None:
            if len(thrown) != 5:
                reason = f"say which dice are kept first (keep), or throw all five, got {len(thrown)}"
                raise self.illegal(event, state, reason)
            self._check_third(state, event, ())
        if len(thrown) != 5 - len(held):
            raise self.illegal(event, state, f"{list(held)} kept: throw {5 - len(held)} dice, got {len(thrown)}")
        s = _evolve(state, hand=held + thrown, throws=state.throws + 1, held=None)
        if s.throws == 2:
            s = _evolve(s, kept_at_second=held)
        return self._finish(s) if s.throws == 3 else s

    def _finish(self, state: PokerState) -> PokerState:
        """The player accepts the hand (or used the third throw): the next player throws."""
        me = state.active[state.pos]
        hands = state.hands[:me] + (state.hand,) + state.hands[me + 1 :]
        s = _evolve(state, hands=hands, hand=(), throws=0, held=None, kept_at_second=None)
        if state.pos + 1 < len(state.active):
            return _evolve(s, pos=state.pos + 1)
        ranks = {i: self._rank(s, hands[i]) for i in s.active}
        order = sorted(s.active, key=lambda i: (ranks[i].category, ranks[i].tiebreak), reverse=True)
        ranking = tuple(s.players[i] for i in order)
        top = (ranks[order[0]].category, ranks[order[0]].tiebreak)
        tied = tuple(i for i in s.active if (ranks[i].category, ranks[i].tiebreak) == top)
        if len(tied) == 1:
            return _evolve(s, winner=s.players[tied[0]], ranking=ranking)
        return _evolve(s, active=tied, pos=0, round=s.round + 1, ranking=ranking)

    def view(self, state: PokerState, now: float) -> dict[str, Any]:
        ante = state.opts["ante"]
        players = []
        for i, name in enumerate(state.players):
            hand = state.hands[i]
            r = self._rank(state, hand) if hand else None
            players.append(
                {
                    "name": name,
                    "hand": list(hand),
                    "hand_name": r.name if r else None,
                    "category": CATEGORIES[r.category] if r else None,
                    "in_play": i in state.active and state.winner is None,
                    "balance": (state.bank if name == state.winner else 0) - ante,
                }
            )
        current = None if state.winner else state.players[state.active[state.pos]]
        live = self._rank(state, state.hand) if state.hand else None
        return {
            "players": players,
            "turn": current,
            "dice": list(state.hand),
            "dice_name": live.name if live else None,
            "held": None if state.held is None else list(state.held),
            "throws": state.throws,
            "throws_left": 0 if state.winner else 3 - state.throws,
            "must_keep": list(state.kept_at_second) if state.kept_at_second else [],
            "round": state.round,
            "playoff": state.round > 1 and state.winner is None,
            "ranking": list(state.ranking),
            "bank": state.bank,
            "winner": state.winner,
        }

    def chance_outcomes(self, state: PokerState) -> dict[tuple[int, ...], Fraction]:
        """The next throw's outcomes (sorted dice) and their exact chances."""
        if state.winner:
            return {}
        n = 5 if not state.throws or state.held is None else 5 - len(state.held)
        return throw_probabilities(n)

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds poker [--held 6,6,6] [--straights true] [--three_of_a_kind false]``:
        the chance of each combination after one throw of the dice not held.

        >>> sum(Poker().odds({}).values())
        Fraction(1, 1)
        """
        allowed = {"held", "straights", "three_of_a_kind"}
        unknown = sorted(set(params) - allowed)
        if unknown:
            raise ValueError(f"unknown odds parameter(s) {unknown} for poker; allowed: {sorted(allowed)}")
        flags = {}
        for key, default in (("straights", False), ("three_of_a_kind", True)):
            value = params.get(key, str(default)).lower()
            if value not in ("true", "false"):
                raise ValueError(f"--{key} must be true or false, got {params[key]!r}")
            flags[key] = value == "true"
        held_text = params.get("held", "").strip()
        try:
            held = tuple(int(x) for x in held_text.split(",")) if held_text else ()
        except ValueError:
            raise ValueError(f"--held must be dice like 6,6,2, got {held_text!r}") from None
        if len(held) > 4 or any(not 1 <= d <= 6 for d in held):
            raise ValueError(f"--held takes 0..4 dice of 1..6, got {held_text!r}")
        return hand_odds(held, flags["three_of_a_kind"], flags["straights"])


GAMES = (Poker(),)
