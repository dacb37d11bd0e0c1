"""Lookup tables of the poker evaluator, generated from the rules of poker.

A hand's *strength* is an int from 1 to 7462, bigger is better, equal for hands of
equal value (the 7,462 distinct 5-card poker values). Ranks are 0..12 for 2..A.

Tables (all numpy arrays, built once and cached):

- ``rank5[m]``: strength of a 5-card hand that is not a flush, indexed by the multiset
  index ``m`` of its ranks (see :func:`multiset_index`); 0 where impossible (5 of a rank).
- ``rank6``, ``rank7``: best strength of any 5 of 6 or 7 unsuited ranks.
- ``flush[mask]``: best flush or straight-flush strength from a 13-bit mask of suited
  ranks with at least 5 bits; 0 below 5 bits.
- ``category[strength]``: category index (see :data:`CATEGORIES`).
- ``made[strength]``: the hand without its kickers, as a number that orders like the hands
  (the category, then the ranks that make it: the pair's, both pairs', the top of a
  straight, every rank of a flush): a hand is *hidden* from a board when its ``made`` is
  above the board's own hand's, so a better kicker alone is not.
- ``primary[strength]``: the rank that names the hand within its category: the rank of the
  pair, of the higher pair, of the three or four of a kind (of the three in a full house),
  the top card of a straight (3, the five, for the wheel) or straight flush, the highest
  card of a flush or of a high-card hand; e.g. 12 for a pair of aces.
- ``omaha_pair[t, p]``: strength of the unsuited 5-card hand made of rank triple ``t`` and
  rank pair ``p`` (both multiset indices); the rank part of Omaha's "2 hole + 3 board".
- ``holdem_pair[b, p]``: best unsuited strength of board ranks ``b`` (5-multiset) with
  hole ranks ``p`` (2-multiset); the rank part of Hold'em's "best 5 of 7".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np
from numpy.typing import NDArray

from analysis.model.categories import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
)

ACE = 12
_WHEEL = (ACE, 0, 1, 2, 3)
#: Per category, the tie-break ranks that make the hand (the rest are kickers).
_MADE = {
    HIGH_CARD: 0,
    PAIR: 1,
    TWO_PAIR: 2,
    TRIPS: 1,
    STRAIGHT: 1,
    FLUSH: 5,
    FULL_HOUSE: 2,
    QUADS: 1,
    STRAIGHT_FLUSH: 1,
    ROYAL_FLUSH: 1,
}


def multiset_index(sorted_ranks: Iterable[int]) -> int:
    """Colex index of a multiset of ranks given in ascending order.

    The multiset r0 <= r1 <= ... maps to the set r0 < r1+1 < r2+2 < ..., ranked in the
    combinatorial number system, so n ranks index into ``range(comb(12 + n, n))``.
    """
    return sum(comb(r + i, i + 1) for i, r in enumerate(sorted_ranks))


def _straight_top(distinct_desc: Sequence[int]) -> int | None:
    """Top rank of the straight made by 5 distinct ranks (descending), or None."""
    if len(distinct_desc) != 5:
        return None
    if distinct_desc[0] - distinct_desc[4] == 4:
        return distinct_desc[0]
    if tuple(distinct_desc) == (ACE, 3, 2, 1, 0):
        return 3  # the wheel A-2-3-4-5 is a five-high straight
    return None


#: A 5-card hand's ordering key: (category code, tie-breaking ranks).
HandKey = tuple[int, tuple[int, ...]]


def hand_key(ranks: list[int], suited: bool) -> HandKey:
    """Ordering key of a 5-card hand: (category, tie-breaking ranks)."""
    counts = {r: ranks.count(r) for r in set(ranks)}
    # ranks ordered by (count, rank), both descending: the poker tie-break order
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = tuple(counts[r] for r in order)
    top = _straight_top(order)
    if suited:
        if top is None:
            return (FLUSH, tuple(order))
        return (ROYAL_FLUSH if top == ACE else STRAIGHT_FLUSH, (top,))
    if top is not None:
        return (STRAIGHT, (top,))
    category = {
        (4, 1): QUADS,
        (3, 2): FULL_HOUSE,
        (3, 1, 1): TRIPS,
        (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): PAIR,
        (1, 1, 1, 1, 1): HIGH_CARD,
    }[shape]
    return (category, tuple(order))


def _max_over_subsets(multisets: np.ndarray, rank5: np.ndarray) -> np.ndarray:
    """Best rank5 strength over the 5-subsets of each row of sorted multisets."""
    n = multisets.shape[1]
    weights = _weights(5)
    best = np.zeros(len(multisets), dtype=np.uint16)
    for cols in combinations(range(n), 5):
        sub = multisets[:, cols]  # a subset of a sorted row stays sorted
        idx = sum(weights[i][sub[:, i]] for i in range(5))
        best = np.maximum(best, rank5[idx])
    return best


def _weights(n: int) -> np.ndarray:
    """weights[i, r] = comb(r + i, i + 1): multiset index = sum of weights[i, r_i]."""
    return np.array([[comb(r + i, i + 1) for r in range(13)] for i in range(n)], dtype=np.int64)


def _all_multisets(n: int) -> np.ndarray:
    """All ascending n-multisets of ranks in multiset-index order (rows)."""
    rows = np.array(list(combinations_with_replacement(range(13), n)), dtype=np.int64)
    idx = _weights(n)[np.arange(n), rows].sum(axis=1)
    out = np.empty_like(rows)
    out[idx] = rows
    return out


def _best_flush(flush5: np.ndarray) -> np.ndarray:
    """Best flush or straight flush of every 13-bit mask with 5+ suited ranks."""
    masks = np.arange(1 << 13)
    bits = np.array([bin(m).count("1") for m in range(1 << 13)])
    top5 = masks.copy()
    for _ in range(8):  # drop the lowest ranks until five remain
        extra = bits_of(top5) > 5
        top5[extra] &= top5[extra] - 1
    best = np.where(bits >= 5, flush5[top5], 0).astype(np.uint16)
    # a straight flush beats any plain flush: the highest one contained wins
    straights = [0b1000000001111] + [0b11111 << low for low in range(9)]
    for sm in straights:  # ascending strength
        has = (masks & sm) == sm
        best[has] = flush5[sm]
    return best


def bits_of(masks: np.ndarray) -> np.ndarray:
    """Number of set bits of each mask."""
    return np.unpackbits(masks.astype(">u2").view(np.uint8).reshape(-1, 2), axis=1).sum(axis=1)


def hand_tables(omaha: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pair table, flush, category): what the counting kernels value hands with, for the
    Omaha rule (exactly 2 hole cards) or the Hold'em one (best 5 of 7)."""
    t = tables()
    return t.omaha_pair if omaha else t.holdem_pair, t.flush, t.category


@dataclass(frozen=True)
class HandTables:
    """The evaluator's tables; see the module docstring. The tables of 6 and 7 cards
    (``rank6``, ``rank7``, ``holdem_pair``) are made when first read: an Omaha game needs
    none of them, and ``holdem_pair`` is most of the tables' making."""

    category: NDArray[np.uint8]
    primary: NDArray[np.uint8]
    made: NDArray[np.int32]
    rank5: NDArray[np.uint16]
    flush: NDArray[np.uint16]
    omaha_pair: NDArray[np.uint16]

    @cached_property
    def rank6(self) -> NDArray[np.uint16]:
        return _max_over_subsets(_all_multisets(6), self.rank5)

    @cached_property
    def rank7(self) -> NDArray[np.uint16]:
        return _max_over_subsets(_all_multisets(7), self.rank5)

    @cached_property
    def holdem_pair(self) -> NDArray[np.uint16]:
        """The rank part of "2 hole + 5 board"."""
        return rank5_of_union(_all_multisets(5), _all_multisets(2), self.rank7, n=7)


@cache
def tables() -> HandTables:
    """Build (once) the evaluator's tables; see the module docstring."""
    rank_multisets = [m for m in combinations_with_replacement(range(13), 5) if max(m.count(r) for r in m) <= 4]
    flush_sets = list(combinations(range(13), 5))
    plain = [hand_key(list(m), suited=False) for m in rank_multisets]
    suited = [hand_key(list(ranks), suited=True) for ranks in flush_sets]
    strength_of = {k: i + 1 for i, k in enumerate(sorted(set(plain + suited)))}

    category = np.zeros(len(strength_of) + 1, dtype=np.uint8)
    primary = np.zeros(len(strength_of) + 1, dtype=np.uint8)
    made = np.zeros(len(strength_of) + 1, dtype=np.int32)
    for k, strength in strength_of.items():
        category[strength] = k[0]
        primary[strength] = k[1][0]  # hand_key's tie-break ranks start with the naming rank
        made[strength] = k[0] * 14**5 + sum((r + 1) * 14 ** (4 - i) for i, r in enumerate(k[1][: _MADE[k[0]]]))

    rank5 = np.zeros(comb(17, 5), dtype=np.uint16)
    for m, key in zip(rank_multisets, plain):
        rank5[multiset_index(m)] = strength_of[key]

    flush5 = np.zeros(1 << 13, dtype=np.uint16)
    for ranks, key in zip(flush_sets, suited):
        flush5[sum(1 << r for r in ranks)] = strength_of[key]

    # the rank part of "2 hole + 3 board"
    omaha_pair = rank5_of_union(_all_multisets(3), _all_multisets(2), rank5)
    return HandTables(
        category=category, primary=primary, made=made, rank5=rank5, flush=_best_flush(flush5), omaha_pair=omaha_pair
    )


def rank5_of_union(left: np.ndarray, right: np.ndarray, table: np.ndarray, n: int = 5) -> np.ndarray:
    """table[union of multisets] for every (left row, right row); 0 where impossible."""
    union = np.concatenate([np.repeat(left, len(right), axis=0), np.tile(right, (len(left), 1))], axis=1)
    union.sort(axis=1)
    if union.shape[1] != n:
        raise AssertionError(f"the multisets make {union.shape[1]} ranks, not {n}")
    idx = _weights(n)[np.arange(n), union].sum(axis=1)
    out = table[idx]
    # more than four of a rank cannot be dealt
    too_many = (union[:, 4:] == union[:, :-4]).any(axis=1)
    out[too_many] = 0
    return out.reshape(len(left), len(right)).astype(np.uint16)


def qualifier_strength(pair_rank: int, rank5: np.ndarray | None = None) -> int:
    """Strength of the weakest hand holding a pair of ``pair_rank`` (e.g. 5 for sevens)."""
    rank5 = tables().rank5 if rank5 is None else rank5
    kickers = [r for r in range(13) if r != pair_rank][:3]
    return int(rank5[multiset_index(sorted([pair_rank, pair_rank, *kickers]))])


def dealer_qualifier(qualifier_rank: int | None) -> int:
    """Strength of the weakest qualifying dealer hand for a qualifier rank (0 with no
    qualifier: hand strengths start at 1, so every dealer hand qualifies)."""
    return 0 if qualifier_rank is None else qualifier_strength(qualifier_rank)
