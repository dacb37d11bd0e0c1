"""Exact counts of a game without a board (Three Card Poker, Caribbean Stud): player hand x
dealer hand, the dealer's cards seen before the decision (his up card) part of the state.

For each state (a player hand, one per suit-symmetry class in the order of their
:func:`~analysis.counting.symmetry.orbit_keys`, with each card the dealer may show) the
dealer hands that hold the seen cards and miss the player's, by result (the street engine's
six: the dealer does not qualify / qualifies, each against the player's hand: below, equal,
above). The compiled core (``ext/no_board.pyx``) files every hand of the deck under each
subset of its cards in increasing value and counts each state by inclusion-exclusion over
the player's cards, one binary search per subset.

>>> from analysis.hands.three_card import three_card_values
>>> c = count_no_board(range(52), 3, three_card_values, floor=10 * 169)
>>> len(c.hands), int(c.weight.sum()), c.deals == 22100 * 18424
(1755, 22100, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

import numpy as np

import analysis._no_board as _no_board
from analysis.counting.symmetry import orbit_keys
from analysis.model.errors import InputError
from analysis.model.outcomes import BINOM
from analysis.parallel.threads import check_threads

#: The most states (hand classes x the dealer's cards seen) counted at once: Caribbean Stud's
#: 6,319,573 with one card seen; two seen would be 145 million.
MAX_STATES = 20_000_000
#: The subsets of at most this many cards have their runs kept as cumulative counts too (the
#: long runs: a subset of two cards is in 19,600 five-card hands, of three in 1,176).
DENSE_SIZES = 2


@dataclass(frozen=True)
class NoBoardCounts:
    """Per state (a player hand, one per suit class, standing for ``weight`` hands, and the
    dealer's ``seen`` cards): the player's cards, his hand's value and the dealer hands of
    each result (the six results), which add up to ``dealer_hands``, the dealer's hands of
    the cards neither seen nor held."""

    hands: np.ndarray  # states x cards
    weight: np.ndarray  # states
    value: np.ndarray  # states
    counts: np.ndarray  # states x 6, in the order of analysis.counting.streets.RESULTS6
    dealer_hands: int
    seen: np.ndarray  # states x the dealer's cards seen (no columns: none is seen)

    @property
    def deals(self) -> int:
        """Every (player hand, dealer hand) deal of the deck."""
        return int(self.weight.sum()) * self.dealer_hands


def count_no_board(
    deck: Iterable[int],
    hole: int,
    values_of: Callable[[np.ndarray], np.ndarray],
    floor: int,
    seen: int = 0,
    threads: int | None = None,
) -> NoBoardCounts:
    """Counts of every player hand of ``hole`` cards of ``deck`` against every dealer hand
    of as many of the other cards, ``seen`` of which are shown before the decision;
    ``values_of`` values rows of cards (bigger is better), and the dealer qualifies with a
    value of at least ``floor``."""
    cards = sorted(set(deck))
    if not 0 <= seen <= 2 or not 1 <= hole <= 6 or seen > hole:
        raise ValueError(f"hands of 1 to 6 cards with up to two of the dealer's seen, not {hole} and {seen}")
    hands = np.array(list(combinations(cards, hole)), dtype=np.int8)
    values = np.asarray(values_of(hands), dtype=np.int64)
    levels = np.unique(values)
    if len(levels) > 65_535:
        raise ValueError("more hand values than the core's 16-bit runs hold")
    dense = np.searchsorted(levels, values).astype(np.uint16)
    order = np.argsort(dense, kind="stable")
    _, first, weight = np.unique(orbit_keys(hands), return_index=True, return_counts=True)
    rep, rep_value, rep_dense = hands[first], values[first], dense[first]
    per = comb(len(cards) - hole, seen)  # each class with each set of cards the dealer may show
    if len(rep) * per > MAX_STATES:
        raise InputError(
            f"{len(rep) * per:,} states (each of {len(rep):,} classes of hands with {per:,} sets of the dealer's "
            f"cards seen): more than the {MAX_STATES:,} counted at once"
        )
    binom = np.ascontiguousarray(BINOM[:, :8])
    offsets = [np.zeros(comb(52, size) + 1, dtype=np.int64) for size in range(hole + 1)]
    runs = [np.empty(len(hands) * comb(hole, size), dtype=np.uint16) for size in range(hole + 1)]
    _no_board.file_by_subset(hands[order], offsets, runs, dense[order], binom)
    cumulative = [_cumulative(offsets[n], runs[n], len(levels)) for n in range(min(DENSE_SIZES, hole) + 1)]
    free = np.ones((len(rep), 52), dtype=bool)
    free[:, [c for c in range(52) if c not in cards]] = False
    free[np.arange(len(rep))[:, None], rep] = False
    rest = np.nonzero(free)[1].reshape(len(rep), len(cards) - hole)  # ascending in each row
    pick = np.array(list(combinations(range(len(cards) - hole), seen)), dtype=np.int64).reshape(per, seen)
    up = rest[:, pick].reshape(len(rep) * per, seen).astype(np.int8)  # class-major, sets ascending and in order
    rep, rep_value, rep_dense = np.repeat(rep, per, 0), np.repeat(rep_value, per), np.repeat(rep_dense, per)
    weight = np.repeat(weight, per)
    q = int(np.searchsorted(levels, max(floor, 0)))
    f = _no_board.count_states(
        np.ascontiguousarray(rep),
        up,
        rep_dense.astype(np.int32),
        q,
        offsets,
        runs,
        cumulative,
        binom,
        check_threads(threads),
    )
    below_q, below_v, below_v1, every = f.T
    counts = np.stack(
        [
            np.minimum(below_v, below_q),  # not qualifying, player's hand higher
            np.minimum(below_v1, below_q) - np.minimum(below_v, below_q),  # not qualifying, equal
            below_q - np.minimum(below_v1, below_q),  # not qualifying, dealer higher
            np.maximum(below_v, below_q) - below_q,  # qualifying, player higher
            np.maximum(below_v1, below_q) - np.maximum(below_v, below_q),
            every - np.maximum(below_v1, below_q),
        ],
        axis=1,
    )
    dealer_hands = comb(len(cards) - hole - seen, hole - seen)
    if np.any(counts.sum(axis=1) != dealer_hands) or np.any(counts < 0):
        raise AssertionError("no-board counts do not add up to the dealer's hands")
    return NoBoardCounts(rep.astype(np.int64), weight.astype(np.int64), rep_value, counts, dealer_hands, up)


def _cumulative(offsets: np.ndarray, runs: np.ndarray, levels: int) -> np.ndarray:
    """The runs as cumulative counts: per subset, the entries below each value 0 .. levels."""
    segment = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    counts = np.bincount(
        segment * (levels + 1) + runs.astype(np.int64) + 1, minlength=(len(offsets) - 1) * (levels + 1)
    )
    return np.cumsum(counts.reshape(-1, levels + 1), axis=1, dtype=np.int32)


def count_state(
    deck: Iterable[int],
    hand: Sequence[int],
    seen: Sequence[int],
    values_of: Callable[[np.ndarray], np.ndarray],
    floor: int,
) -> np.ndarray:
    """The six counts of one state (the player's ``hand``, the dealer's ``seen`` cards), every
    dealer hand played out one by one: the check of :func:`count_no_board` on any state, and
    one decision's counts in milliseconds (163,185 dealer hands of Caribbean Stud)."""
    rest = sorted(set(deck) - set(hand) - set(seen))
    hole = len(hand)
    others = np.array(list(combinations(rest, hole - len(seen))), dtype=np.int64).reshape(-1, hole - len(seen))
    dealer = np.hstack([np.tile(np.asarray(seen, dtype=np.int64), (len(others), 1)), others])
    mine = int(np.asarray(values_of(np.array([hand], dtype=np.int64)))[0])
    theirs = np.asarray(values_of(dealer), dtype=np.int64)
    result = np.where(theirs < mine, 0, np.where(theirs == mine, 1, 2)) + 3 * (theirs >= floor)
    return np.bincount(result, minlength=6).astype(np.int64)
