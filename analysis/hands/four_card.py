"""Four-card poker hands (Four Card Poker): the best four of a hand's cards play, ranked
as four-card hands, which is not five-card poker: four of a kind beats a straight flush,
and three of a kind beats a flush and a straight (there are fewer of them in four cards).
A-2-3-4 is the lowest straight, J-Q-K-A the highest, and Q-K-A-2 is none.

A hand's *value* is an int, bigger is better and equal for hands of equal value:
``category * 13**4`` plus the ranks that break ties within the category, most
significant first (the four ranks of a high card or flush; a pair's rank then its two
kickers; two pair's ranks; three of a kind's rank then its kicker; the top card of a
straight, the 4 of A-2-3-4; four of a kind's rank). Every four-card set is valued once
(270,725 of them), every five-card set's best four once (2,598,960), and a hand of more
cards takes its best by look-up.

>>> from analysis.model.categories import FOUR_CARD_CATEGORIES
>>> from analysis.model.cards import parse_cards
>>> v = best_four_values([parse_cards("As 2d 3c 4h Kh"), parse_cards("9s 9d 9c 2h 3c"), parse_cards("Ks Kd Qc Qh 2c")])
>>> [FOUR_CARD_CATEGORIES[c] for c in four_card_category(v)]
['straight', 'three_of_a_kind', 'two_pair']
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np
from numpy.typing import ArrayLike

from analysis.hands.evaluate import as_card_array
from analysis.model.outcomes import BINOM

HIGH, PAIR, TWO_PAIR, STRAIGHT, FLUSH, TRIPS, STRAIGHT_FLUSH, QUADS = range(8)
#: The span of one category's values (four ranks of 13).
CATEGORY_SPAN = 13**4
#: The most cards a hand may be made from here (Four Card Poker's dealer holds six).
MOST_CARDS = 7


def four_card_values(cards: ArrayLike) -> np.ndarray:
    """The value of each row of exactly four cards (ints 0..51, rank * 4 + suit)."""
    arr = as_card_array(cards, 4).astype(np.int64)
    r = -np.sort(-(arr >> 2), axis=1)  # highest first
    r0, r1, r2, r3 = r.T
    suits = arr & 3
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = (r0 != r1) & (r1 != r2) & (r2 != r3)
    wheel = distinct & (r0 == 12) & (r1 == 2) & (r3 == 0)
    straight = distinct & ((r0 - r3 == 3) | wheel)
    quads = r0 == r3
    trips = ~quads & ((r0 == r2) | (r1 == r3))
    two_pair = ~quads & (r0 == r1) & (r2 == r3)
    pairs = (r0 == r1).astype(np.int64) + (r1 == r2) + (r2 == r3)
    pair = ~trips & ~quads & ~two_pair & (pairs == 1)
    category = np.select(
        [quads, straight & flush, trips, flush, straight, two_pair, pair],
        [QUADS, STRAIGHT_FLUSH, TRIPS, FLUSH, STRAIGHT, TWO_PAIR, PAIR],
        HIGH,
    )
    # a pair's rank and its kickers, wherever in the sorted ranks the pair lies
    p = np.where(r0 == r1, r0, np.where(r1 == r2, r1, r2))
    k1 = np.where(r0 == r1, r2, r0)
    k2 = np.where(r2 == r3, r1, r3)
    lexical = ((r0 * 13 + r1) * 13 + r2) * 13 + r3
    ties = np.select(
        [quads, straight, trips, two_pair, pair],
        [
            r0 * 13**3,
            np.where(wheel, r1, r0) * 13**3,
            r1 * 13**3 + np.where(r0 == r2, r3, r0) * 169,  # the middle card is always in the three
            r0 * 13**3 + r2 * 169,
            p * 13**3 + k1 * 169 + k2 * 13,
        ],
        lexical,
    )
    return np.asarray(category * CATEGORY_SPAN + ties, dtype=np.int64)


@cache
def _table(cards: int) -> np.ndarray:
    """The value of the best four of every set of ``cards`` (4 or 5) cards, by its colex code:
    the four-card sets valued, and each five-card set the best of its five four-card sets."""
    sets = np.array(list(combinations(range(52), cards)), dtype=np.int64)
    table = np.zeros(len(sets), dtype=np.int64)
    codes = sum(BINOM[sets[:, i], i + 1] for i in range(cards))
    table[codes] = four_card_values(sets) if cards == 4 else _best_of(sets, 4)
    table.flags.writeable = False
    return table


def _best_of(rows: np.ndarray, size: int) -> np.ndarray:
    """The best of each sorted row's ``size``-card sets, each looked up in its table."""
    table, best = _table(size), np.zeros(len(rows), dtype=np.int64)
    for pick in combinations(range(rows.shape[1]), size):  # sorted rows: each pick's colex code is a sum
        np.maximum(best, table[sum(BINOM[rows[:, c], i + 1] for i, c in enumerate(pick))], out=best)
    return best


def best_four_values(cards: ArrayLike, chunk: int = 1 << 20) -> np.ndarray:
    """The value of the best four cards of each row of 4 to 7 cards (of more than five: the
    best of its five-card sets, six look-ups for six cards rather than fifteen)."""
    arr = as_card_array(cards)
    if not 4 <= arr.shape[1] <= MOST_CARDS:
        raise ValueError(f"a four-card hand is made from 4 to {MOST_CARDS} cards, not {arr.shape[1]}")
    out = np.empty(len(arr), dtype=np.int64)
    for start in range(0, len(arr), chunk):
        rows = np.sort(arr[start : start + chunk].astype(np.int64), axis=1)
        out[start : start + len(rows)] = _best_of(rows, min(arr.shape[1], 5))
    return out


def four_card_category(values: ArrayLike) -> np.ndarray:
    """The category code (index into analysis.model.categories.FOUR_CARD_CATEGORIES) of each value."""
    return np.asarray(values, dtype=np.int64) // CATEGORY_SPAN
