"""Shared helpers of the dice games: exact throw enumeration, poker-dice hands,
hold checks, seat rotation and the chance/decision interface the property tests use.

Throws are enumerated as sorted multisets with exact probabilities:

>>> dist = throw_distribution(2)
>>> dist[(1, 1)], dist[(1, 2)], sum(dist.values())
(Fraction(1, 36), Fraction(1, 18), Fraction(1, 1))

Poker-dice hands compare by their key (higher is better):

>>> hand_name(hand_key((3, 3, 3, 2, 2)))
'full house'
>>> hand_key((3, 3, 3, 4, 4)) > hand_key((3, 3, 3, 2, 2))
True
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Any, Iterable, Mapping, Sequence, TypeVar

from ..events import Event
from ..game import Game

S = TypeVar("S")

Outcome = tuple[dict[str, Any], Fraction]


# --- exact throws -----------------------------------------------------------------


@lru_cache(maxsize=None)
def throw_distribution(n: int, faces: int = 6, low: int = 1) -> dict[tuple[int, ...], Fraction]:
    """Every sorted result of ``n`` fair dice numbered ``low..low+faces-1`` with its exact chance."""
    total = faces**n
    out: dict[tuple[int, ...], Fraction] = {}
    for combo in combinations_with_replacement(range(low, low + faces), n):
        ways = factorial(n)
        for c in Counter(combo).values():
            ways //= factorial(c)
        out[combo] = Fraction(ways, total)
    return out


@lru_cache(maxsize=None)
def sum_distribution(n: int, faces: int = 6) -> dict[int, Fraction]:
    """Chance of each pip sum of ``n`` dice."""
    out: dict[int, Fraction] = {}
    for combo, p in throw_distribution(n, faces).items():
        out[sum(combo)] = out.get(sum(combo), Fraction(0)) + p
    return dict(sorted(out.items()))


def roll_outcomes(n: int, faces: int = 6) -> tuple[Outcome, ...]:
    """Chance node of a throw of ``n`` dice: (roll event, probability) pairs summing to 1."""
    return tuple(({"type": "roll", "dice": list(c)}, p) for c, p in throw_distribution(n, faces).items())


# --- hands ------------------------------------------------------------------------

# Poker-dice categories (RULES.md §1.1 [REC] ranking, low -> high).
NOTHING, PAIR, TWO_PAIRS, THREE, SMALL_STRAIGHT, LARGE_STRAIGHT, FULL_HOUSE, FOUR, FIVE = range(9)
HAND_NAMES = (
    "nothing",
    "pair",
    "two pairs",
    "three of a kind",
    "small straight",
    "large straight",
    "full house",
    "four of a kind",
    "five of a kind",
)


def hand_key(dice: Sequence[int], straights: bool = True, full_by_triple_only: bool = False) -> tuple[int, ...]:
    """Ranking key of a poker-dice hand: category, then the larger group's face, the
    smaller group's, then the other dice (6 high).

    ``straights=False`` is the Indian-dice list (a straight is just "nothing").
    ``full_by_triple_only`` compares full houses by the triple alone.

    >>> hand_key((6, 6, 1, 1, 4))
    (2, 6, 1, 4)
    >>> hand_key((1, 2, 3, 4, 5)), hand_key((1, 2, 3, 4, 5), straights=False)
    ((4,), (0, 5, 4, 3, 2, 1))
    """
    return _hand_key(tuple(sorted(dice)), straights, full_by_triple_only)


@lru_cache(maxsize=4096)
def _hand_key(dice: tuple[int, ...], straights: bool, full_by_triple_only: bool) -> tuple[int, ...]:
    counts = Counter(dice)
    # groups ordered by size then face, both descending
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    sizes = [c for _, c in groups]
    faces = [f for f, _ in groups]
    if straights and len(dice) == 5 and sizes == [1] * 5:
        if sorted(dice) == [1, 2, 3, 4, 5]:
            return (SMALL_STRAIGHT,)
        if sorted(dice) == [2, 3, 4, 5, 6]:
            return (LARGE_STRAIGHT,)
    if sizes[0] >= 5:
        return (FIVE, faces[0])
    if sizes[0] == 4:
        return (FOUR, *faces)
    if sizes[:2] == [3, 2]:
        return (FULL_HOUSE, faces[0]) if full_by_triple_only else (FULL_HOUSE, faces[0], faces[1])
    if sizes[0] == 3:
        return (THREE, *faces)
    if sizes[:2] == [2, 2]:
        return (TWO_PAIRS, *faces)
    if sizes[0] == 2:
        return (PAIR, *faces)
    return (NOTHING, *sorted(dice, reverse=True))


def hand_name(key: Sequence[int]) -> str:
    return HAND_NAMES[key[0]]


def is_sub_multiset(part: Iterable[int], whole: Iterable[int]) -> bool:
    """True when every value of ``part`` can be taken from ``whole`` (with repeats).

    >>> is_sub_multiset([6, 6], [6, 1, 6]), is_sub_multiset([6, 6], [6, 1])
    (True, False)
    """
    need = Counter(part)
    have = Counter(whole)
    return all(have[v] >= c for v, c in need.items())


def sub_multisets(dice: Sequence[int]) -> list[tuple[int, ...]]:
    """Every distinct sub-multiset of ``dice`` (sorted tuples), the empty one first."""
    out: set[tuple[int, ...]] = set()
    items = sorted(dice)
    for mask in range(1 << len(items)):
        out.add(tuple(v for i, v in enumerate(items) if mask >> i & 1))
    return sorted(out, key=lambda t: (len(t), t))


# --- seats ------------------------------------------------------------------------


def next_seat(current: int, n: int, active: Sequence[bool] | None = None) -> int:
    """The next seat clockwise ("to the left") whose ``active`` flag is set."""
    for step in range(1, n + 1):
        seat = (current + step) % n
        if active is None or active[seat]:
            return seat
    return current


def leaders(players: Sequence[str], scores: Sequence[int]) -> list[str]:
    best = max(scores)
    return [p for p, s in zip(players, scores) if s == best]


def check_params(params: Mapping[str, str], allowed: Sequence[str], game: str) -> None:
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise ValueError(f"unknown odds parameter(s) {unknown} for {game}; allowed: {sorted(allowed)}")


def int_param(params: Mapping[str, str], key: str, default: int, lo: int, hi: int) -> int:
    raw = params.get(key, str(default))
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise ValueError(f"--{key} must be a whole number, got {raw!r}") from None
    if not lo <= value <= hi:
        raise ValueError(f"--{key} must be in {lo}..{hi}, got {value}")
    return value


# --- the interface of the property tests ------------------------------------------


class DiceGame(Game[S]):
    """A dice game that can list its chance outcomes and its players' decisions.

    ``chance_outcomes`` is the throw the rules expect now (empty when none is due),
    as (event, exact probability) pairs; ``decisions`` are the non-chance events a
    player may send now (a finite, representative list for games with many claims).
    """

    def chance_outcomes(self, state: S) -> tuple[Outcome, ...]:
        return ()

    def decisions(self, state: S) -> list[dict[str, Any]]:
        return []

    def is_over(self, state: S) -> bool:
        raise NotImplementedError

    def legal_types(self, state: S) -> tuple[str, ...]:
        types = {e["type"] for e in self.decisions(state)}
        if self.chance_outcomes(state):
            types.add("roll")
        return tuple(t for t in self.events if t in types)

    def from_reading(self, state: S, dice: Sequence[int]) -> Event | None:
        """The roll a settled camera reading proposes, or None when no throw is due.

        The camera sees the kept dice too: when the reading is the kept dice plus as
        many as are to be thrown, the kept ones are taken out of the roll.
        """
        chance = self.chance_outcomes(state)
        if self.is_over(state) or not chance:
            return None
        thrown = list(dice)
        held = list(getattr(state, "held", ()))
        need = len(chance[0][0]["dice"])
        if held and len(thrown) == need + len(held) and is_sub_multiset(held, thrown):
            for value in held:
                thrown.remove(value)
        return Event("roll", {"dice": thrown}, source="camera")


@lru_cache(maxsize=None)
def ranked_hands(straights: bool = True, full_by_triple_only: bool = False) -> tuple[tuple[int, ...], ...]:
    """Every five-dice hand (sorted, high first) from the lowest to the highest key."""
    hands = {tuple(sorted(h, reverse=True)) for h in throw_distribution(5)}
    return tuple(sorted(hands, key=lambda h: (hand_key(h, straights, full_by_triple_only), h)))


def has_higher(previous: Sequence[int], straights: bool = True, full_by_triple_only: bool = False) -> bool:
    """True when some five-dice hand ranks above ``previous``."""
    top = ranked_hands(straights, full_by_triple_only)[-1]
    return hand_key(top, straights, full_by_triple_only) > hand_key(previous, straights, full_by_triple_only)


def higher_claims(
    previous: Sequence[int] | None, straights: bool = True, full_by_triple_only: bool = False
) -> list[tuple[int, ...]]:
    """Hands whose key is strictly above ``previous`` (all hands when None), lowest first."""
    hands = ranked_hands(straights, full_by_triple_only)
    if previous is None:
        return list(hands)
    floor = hand_key(previous, straights, full_by_triple_only)
    return [h for h in hands if hand_key(h, straights, full_by_triple_only) > floor]
