"""Scoring of one throw in Thousand / 1000 (000:1207-1225, 000:1303-1321).

Only 1s (10 points), 5s (5 points), sets of three or more alike in one throw and
the two straights score. Three alike = face x 10, four = face x 20, five = face x 100,
where a 1 counts as 10 throughout; 1-2-3-4-5 = 125 and 2-3-4-5-6 = 250. The dice
are always grouped for the maximum score.

>>> best((1, 1, 1, 1, 5))
Throw(points=205, used=(1, 1, 1, 1, 5))
>>> best((1, 5, 3, 3, 4)).points, best((5, 5, 2)).points
(15, 10)
>>> best((2, 3, 4, 6, 6))
Throw(points=0, used=())
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Iterable, NamedTuple, Sequence

SMALL_STRAIGHT = (1, 2, 3, 4, 5)
LARGE_STRAIGHT = (2, 3, 4, 5, 6)
STRAIGHT_POINTS = {SMALL_STRAIGHT: 125, LARGE_STRAIGHT: 250}
SINGLE_POINTS = {1: 10, 5: 5}


class Throw(NamedTuple):
    """The best grouping of a throw: its points and the dice that score (sorted)."""

    points: int
    used: tuple[int, ...]


def set_points(face: int, count: int) -> int:
    """Points of ``count`` (3..5) dice alike showing ``face``; a 1 counts as 10.

    >>> [set_points(1, n) for n in (3, 4, 5)], [set_points(6, n) for n in (3, 4, 5)]
    ([100, 200, 1000], [60, 120, 600])
    """
    base = 10 if face == 1 else face
    return base * {3: 10, 4: 20, 5: 100}[count]


@lru_cache(maxsize=None)
def _best_sorted(dice: tuple[int, ...]) -> Throw:
    if dice in STRAIGHT_POINTS:
        return Throw(STRAIGHT_POINTS[dice], dice)
    points = 0
    used: list[int] = []
    for face, count in sorted(Counter(dice).items()):
        if count >= 3:
            # the whole set always beats a smaller set plus singles (20f > 10f + 10)
            points += set_points(face, min(count, 5))
            used += [face] * count
        elif face in SINGLE_POINTS:
            points += SINGLE_POINTS[face] * count
            used += [face] * count
    return Throw(points, tuple(sorted(used)))


def best(dice: Iterable[int]) -> Throw:
    """The maximum-score grouping of one throw."""
    return _best_sorted(tuple(sorted(dice)))


def is_scoring_selection(kept: Sequence[int]) -> bool:
    """True when every die of ``kept`` scores in the best grouping of ``kept`` alone.

    >>> is_scoring_selection((1, 5)), is_scoring_selection((2, 2)), is_scoring_selection((2, 2, 2))
    (True, False, True)
    """
    throw = best(kept)
    return throw.points > 0 and len(throw.used) == len(kept)


@lru_cache(maxsize=None)
def _selections_sorted(dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    found = {
        tuple(sorted(dice[i] for i in range(len(dice)) if mask >> i & 1))
        for mask in range(1, 1 << len(dice))
    }
    return tuple(sorted(sel for sel in found if is_scoring_selection(sel)))


def scoring_selections(dice: Iterable[int]) -> tuple[tuple[int, ...], ...]:
    """Every choice of dice that may be set aside from a throw (each sorted).

    >>> scoring_selections((1, 2, 2, 2, 3))
    ((1,), (1, 2, 2, 2), (2, 2, 2))
    >>> scoring_selections((6, 6, 6, 3, 4))
    ((6, 6, 6),)
    """
    return _selections_sorted(tuple(sorted(dice)))


def remove(dice: Sequence[int], taken: Sequence[int]) -> tuple[int, ...] | None:
    """``dice`` without the multiset ``taken``; None if ``taken`` is not inside ``dice``.

    >>> remove((1, 5, 3, 3, 4), (5, 1)), remove((1, 2), (1, 1))
    ((3, 3, 4), None)
    """
    left = list(dice)
    for d in taken:
        if d not in left:
            return None
        left.remove(d)
    return tuple(left)


@lru_cache(maxsize=None)
def outcome_counts(n: int) -> dict[tuple[int, ...], int]:
    """Sorted throws of ``n`` dice and how many of the 6**n ordered throws give each."""
    counts: Counter[tuple[int, ...]] = Counter(tuple(sorted(t)) for t in product(range(1, 7), repeat=n))
    return dict(counts)


def outcome_probabilities(n: int) -> dict[tuple[int, ...], Fraction]:
    """Exact chance of each sorted throw of ``n`` dice (the chance node of a throw).

    >>> sum(outcome_probabilities(3).values())
    Fraction(1, 1)
    """
    total = 6**n
    return {k: Fraction(v, total) for k, v in outcome_counts(n).items()}


def throw_odds(n: int) -> dict[str, Fraction]:
    """Exact chances for one throw of ``n`` dice under the text's scoring.

    ``zero``: nothing scores (a bolt in the classic rules); ``scores`` = 1 - zero;
    ``all_dice_score``: every die scores (all five become available again);
    ``expected_points``: the mean best score of the throw.

    >>> [throw_odds(n)["zero"] for n in range(1, 6)]
    [Fraction(2, 3), Fraction(4, 9), Fraction(5, 18), Fraction(17, 108), Fraction(25, 324)]
    """
    zero = hot = Fraction(0)
    mean = Fraction(0)
    for dice, p in outcome_probabilities(n).items():
        throw = best(dice)
        if throw.points == 0:
            zero += p
        if len(throw.used) == n:
            hot += p
        mean += p * throw.points
    return {"zero": zero, "scores": 1 - zero, "all_dice_score": hot, "expected_points": mean}


def farkle_zero(n: int) -> Fraction:
    """Chance that ``n`` (1..6) dice score nothing under standard Farkle scoring
    (1s, 5s, three or more alike, and with six dice also a 1-6 straight, three
    pairs, four alike plus a pair and two triples) — an independent check.

    >>> [farkle_zero(n) for n in range(1, 7)]
    [Fraction(2, 3), Fraction(4, 9), Fraction(5, 18), Fraction(17, 108), Fraction(25, 324), Fraction(5, 216)]
    """
    zero = 0
    for throw in product(range(1, 7), repeat=n):
        counts = Counter(throw)
        if 1 in counts or 5 in counts or max(counts.values()) >= 3:
            continue
        if n == 6 and sorted(counts.values()) == [2, 2, 2]:
            continue  # three pairs
        zero += 1
    return Fraction(zero, 6**n)
