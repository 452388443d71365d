from collections import Counter
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from rules.dice._dicekit import (
    hand_key,
    hand_name,
    higher_claims,
    is_sub_multiset,
    ranked_hands,
    sub_multisets,
    sum_distribution,
    throw_distribution,
)

hands = st.lists(st.integers(1, 6), min_size=5, max_size=5)


def test_throw_distributions_are_exact():
    for n in range(1, 6):
        dist = throw_distribution(n)
        assert sum(dist.values()) == 1
        assert len(dist) == {1: 6, 2: 21, 3: 56, 4: 126, 5: 252}[n]
    assert sum_distribution(2)[7] == Fraction(1, 6)


def test_poker_dice_category_counts():
    counts = Counter()
    for hand, p in throw_distribution(5).items():
        counts[hand_name(hand_key(hand))] += p * 7776
    assert counts == {
        "nothing": 480, "pair": 3600, "two pairs": 1800, "three of a kind": 1200, "small straight": 120,
        "large straight": 120, "full house": 300, "four of a kind": 150, "five of a kind": 6,
    }  # fmt: skip


@given(hands, st.permutations(range(5)))
def test_key_ignores_order(hand, order):
    assert hand_key(hand) == hand_key([hand[i] for i in order])


@given(hands, hands)
def test_keys_are_a_total_order_consistent_with_claims(a, b):
    ka, kb = hand_key(a), hand_key(b)
    assert (ka < kb) + (ka == kb) + (ka > kb) == 1
    higher = {tuple(sorted(h)) for h in higher_claims(a)}
    assert (tuple(sorted(b)) in higher) == (kb > ka)


def test_ranked_hands_are_sorted_and_complete():
    ranked = ranked_hands()
    assert len(ranked) == 252
    keys = [hand_key(h) for h in ranked]
    assert keys == sorted(keys)
    assert hand_name(keys[-1]) == "five of a kind" and ranked[-1] == (6, 6, 6, 6, 6)


@given(st.lists(st.integers(1, 6), max_size=5))
def test_sub_multisets(dice):
    subs = sub_multisets(dice)
    assert subs[0] == () and tuple(sorted(dice)) in subs
    assert all(is_sub_multiset(s, dice) for s in subs)
    assert len(subs) == len(set(subs))
