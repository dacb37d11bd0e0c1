"""Suit symmetry: permuting suits changes no count, so only one state per orbit is enumerated.

Card sets are encoded by their colex code (``sum comb(c_i, i + 1)`` over the sorted
cards); the canonical member of an orbit is the one with the smallest code. A decision
state (hole, flop) is canonical when its flop is the canonical flop of its class and its
hole cards are the smallest image under the permutations that fix that flop.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations

import numpy as np

from analysis.model.outcomes import BINOM, colex_codes


def suit_permutations(suits: Iterable[int]) -> np.ndarray:
    """Every permutation of the given suits as a card map (array of 52)."""
    suits = list(suits)
    maps = []
    for image in permutations(suits):
        m = np.arange(52)
        for s, t in zip(suits, image):
            m[np.arange(13) * 4 + s] = np.arange(13) * 4 + t
        maps.append(m)
    return np.array(maps, dtype=np.int64)


def canonical_codes(cards: np.ndarray, perms: np.ndarray) -> np.ndarray:
    """Smallest colex code of each row's images under the permutations."""
    cards = np.atleast_2d(cards)
    return np.min([colex_codes(p[cards]) for p in perms], axis=0)


@dataclass(frozen=True)
class FlopClass:
    cards: tuple[int, int, int]  # the canonical flop
    code: int
    multiplicity: int  # flops in the class
    stabilizer: np.ndarray  # the suit permutations (card maps) that fix this flop


def orbit_keys(cards: np.ndarray) -> np.ndarray:
    """One key per row of cards, equal for two rows exactly when a permutation of suits
    takes one to the other: the 13-bit rank sets of the four suits, sorted. As fast as a
    sort of four numbers, where :func:`canonical_codes` images every row 24 times.

    >>> keys = orbit_keys(np.array([[0, 4, 9], [1, 5, 10], [0, 5, 9]]))  # 2c 3c 4d, 2d 3d 4h, 2c 3d 4d
    >>> bool(keys[0] == keys[1]), bool(keys[0] == keys[2])
    (True, False)
    """
    cards = np.atleast_2d(cards).astype(np.int64)
    masks = np.zeros((len(cards), 4), dtype=np.int64)
    rows = np.arange(len(cards))
    for column in cards.T:
        masks[rows, column & 3] |= 1 << (column >> 2)
    masks = -np.sort(-masks, axis=1)
    return (masks[:, 0] << 39) | (masks[:, 1] << 26) | (masks[:, 2] << 13) | masks[:, 3]


def flop_classes(deck: Iterable[int], suits: Iterable[int]) -> list[FlopClass]:
    """The classes of 3-card flops of the deck under suit permutations, by code."""
    return _flop_classes(tuple(deck), tuple(suits))


@cache
def _flop_classes(deck: tuple[int, ...], suits: tuple[int, ...]) -> list[FlopClass]:
    perms = suit_permutations(suits)
    flops = np.array(list(combinations(sorted(deck), 3)), dtype=np.int64)
    own = colex_codes(flops)
    canon = canonical_codes(flops, perms)
    codes, counts = np.unique(canon, return_counts=True)
    is_rep = own == canon  # the member of each class whose own code is the class's code
    reps = flops[is_rep][np.argsort(own[is_rep])]  # in code order, as codes
    images = np.array([colex_codes(p[reps]) for p in perms])  # perms x classes
    fixes = images == codes[None, :]
    return [
        FlopClass((int(rep[0]), int(rep[1]), int(rep[2])), int(code), int(count), perms[fixes[:, i]])
        for i, (rep, code, count) in enumerate(zip(reps, codes, counts))
    ]


@cache
def _index_subsets(n: int, k: int) -> np.ndarray:
    """All k-subsets of range(n) as ascending rows, read-only."""
    rows = np.array(list(combinations(range(n), k)), dtype=np.int64).reshape(-1, k)
    rows.flags.writeable = False
    return rows


def _subsets(cards: list[int], k: int) -> np.ndarray:
    """All k-subsets of the (ascending) cards as ascending rows."""
    return np.asarray(cards, dtype=np.int64)[_index_subsets(len(cards), k)]


def _orbit_codes(rows: np.ndarray, stabilizer: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(own colex code, smallest code of the orbit) of each ascending row."""
    own = sum(BINOM[rows[:, i], i + 1] for i in range(rows.shape[1]))
    canon = own
    for p in stabilizer:
        if not np.array_equal(p, np.arange(52)):
            canon = np.minimum(canon, colex_codes(p[rows]))
    return own, canon


def flop_holdings(flop: FlopClass, deck: Iterable[int], k: int) -> tuple[np.ndarray, np.ndarray]:
    """Canonical k-card holdings for this flop (sorted by code) and their orbit sizes."""
    rest = [c for c in sorted(deck) if c not in flop.cards]
    hold = _subsets(rest, k)
    own, canon = _orbit_codes(hold, flop.stabilizer)
    is_rep = own == canon
    sizes = np.bincount(np.searchsorted(np.sort(own[is_rep]), canon))
    order = np.argsort(own[is_rep])
    return hold[is_rep][order], sizes.astype(np.int64)


def turn_river_orbits(flop: FlopClass, deck: Iterable[int]) -> tuple[np.ndarray, np.ndarray]:
    """All turn/river pairs, grouped by orbit under the flop's stabilizer.

    Returns the pairs and a flag that is 1 on the first pair of each orbit.
    """
    rest = [c for c in sorted(deck) if c not in flop.cards]
    pairs = _subsets(rest, 2)
    _, canon = _orbit_codes(pairs, flop.stabilizer)
    order = np.argsort(canon, kind="stable")
    canon = canon[order]
    new = np.ones(len(order), dtype=np.uint8)
    new[1:] = canon[1:] != canon[:-1]
    return pairs[order], new


def canonical_states(holes: np.ndarray, flops: np.ndarray, suits: Iterable[int]) -> tuple[np.ndarray, np.ndarray]:
    """(flop code, hole code) of the canonical state of each (hole, flop) row pair.

    The canonical flop is the smallest image of the flop; among the permutations that
    give it, the canonical hole is the smallest image of the hole.
    """
    flop_code, hole_code, _ = canonical_states_and_maps(holes, flops, suits)
    return flop_code, hole_code


def canonical_states_and_maps(
    holes: np.ndarray, flops: np.ndarray, suits: Iterable[int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`canonical_states` and, per row, a card map (52) that takes the state to its
    canonical state: a card still to come maps with it (the turn card of a kept decision)."""
    perms = suit_permutations(suits)
    holes, flops = np.atleast_2d(holes), np.atleast_2d(flops)
    flop_img = np.array([colex_codes(p[flops]) for p in perms])  # perms x rows
    hole_img = np.array([colex_codes(p[holes]) for p in perms])
    flop_code = flop_img.min(axis=0)
    big = np.iinfo(np.int64).max
    candidates = np.where(flop_img == flop_code, hole_img, big)
    which = candidates.argmin(axis=0)
    hole_code = candidates[which, np.arange(candidates.shape[1])]
    return flop_code, hole_code, perms[which]
    return flop_code, hole_code
