"""Three-card poker hands: all three cards play, and the ranking differs from five-card
poker, so it is not the five-card tables: a straight beats a flush (there are fewer of
them), A-2-3 is the lowest straight, Q-K-A the highest, and K-A-2 is no straight.

A hand's *value* is an int, bigger is better and equal for hands of equal value:
``category * 13**3`` plus the ranks that break ties within the category, most
significant first (the three ranks of a high card or flush; the pair's rank then the
kicker; the top card of a straight, the 3 for A-2-3; the rank of three of a kind).

>>> from analysis.model.categories import THREE_CARD_CATEGORIES
>>> [THREE_CARD_CATEGORIES[c] for c in three_card_category(three_card_values([[48, 45, 40], [51, 47, 43], [0, 4, 51]]))]
['straight', 'straight_flush', 'straight']
>>> int(three_card_values([[50, 0, 4]])[0]) < int(three_card_values([[48, 49, 0]])[0])
False
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from analysis.hands.evaluate import as_card_array

HIGH, PAIR, FLUSH, STRAIGHT, TRIPS, STRAIGHT_FLUSH = range(6)
#: The span of one category's values (three ranks of 13).
CATEGORY_SPAN = 13**3


def three_card_values(cards: ArrayLike) -> np.ndarray:
    """The value of each row of three cards (ints 0..51, rank * 4 + suit)."""
    arr = as_card_array(cards, 3).astype(np.int64)
    ranks = -np.sort(-(arr >> 2), axis=1)  # highest first
    hi, mid, lo = ranks[:, 0], ranks[:, 1], ranks[:, 2]
    suits = arr & 3
    flush = (suits[:, 0] == suits[:, 1]) & (suits[:, 1] == suits[:, 2])
    distinct = (hi != mid) & (mid != lo)
    wheel = (hi == 12) & (mid == 1) & (lo == 0)
    straight = distinct & ((hi - lo == 2) | wheel)
    top = np.where(wheel, 1, hi)
    trips = hi == lo
    pair = ~trips & ~distinct
    pair_rank = mid  # the middle card of a sorted pair hand is always in the pair
    kicker = np.where(hi == mid, lo, hi)
    category = np.select(
        [straight & flush, trips, straight, flush, pair], [STRAIGHT_FLUSH, TRIPS, STRAIGHT, FLUSH, PAIR], HIGH
    )
    lexical = hi * 169 + mid * 13 + lo
    ties = np.select(
        [straight, trips, pair],
        [top * 169, hi * 169, pair_rank * 169 + kicker * 13],
        lexical,
    )
    return np.asarray(category * CATEGORY_SPAN + ties, dtype=np.int64)


def three_card_category(values: ArrayLike) -> np.ndarray:
    """The category code (index into analysis.model.categories.THREE_CARD_CATEGORIES) of each value."""
    return np.asarray(values, dtype=np.int64) // CATEGORY_SPAN


def high_card_floor(rank: int) -> int:
    """The least value of every hand whose highest card is ``rank`` (0..12, 2..A) or
    better: a "queen high or better" qualifier (rank 10) is the dealer's value at least this."""
    if rank not in range(13):
        raise ValueError(f"a rank is 0..12 (2..A), not {rank}")
    return rank * 169
