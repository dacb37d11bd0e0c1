"""Exact counts of a game without a board (Three Card Poker): player hand x dealer hand.

For each player hand, one per suit-symmetry class, the dealer hands that miss its cards,
by result (the street engine's six: the dealer does not qualify / qualifies, each against the
player's hand: below, equal, above). Every dealer hand is valued once and sorted; the
dealer hands of value below ``x`` that miss the player's cards are, by inclusion-exclusion
over the subsets S of his cards, the sum of (-1)^|S| times the hands below ``x`` that hold
S: one binary search per subset in the hands grouped by each subset they hold (the board
games' per-card and per-pair counts, here with no board).

>>> from analysis.hands.three_card import three_card_values
>>> c = count_no_board(range(52), 3, three_card_values, floor=10 * 169)
>>> len(c.hands), int(c.weight.sum()), c.deals == 22100 * 18424
(1755, 22100, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations
from math import comb

import numpy as np

from analysis.counting.symmetry import canonical_codes, suit_permutations
from analysis.model.outcomes import colex_codes


@dataclass(frozen=True)
class NoBoardCounts:
    """Per player hand (one per suit class, standing for ``weight`` hands): its cards, its
    value and the dealer hands of each result (the six results), which add up to
    ``dealer_hands``, the hands of the cards he does not hold."""

    hands: np.ndarray  # classes x cards
    weight: np.ndarray  # classes
    value: np.ndarray  # classes
    counts: np.ndarray  # classes x 6, in the order of analysis.counting.streets.RESULTS6
    dealer_hands: int

    @property
    def deals(self) -> int:
        """Every (player hand, dealer hand) deal of the deck."""
        return int(self.weight.sum()) * self.dealer_hands


class _Below:
    """How many hands of value below ``x`` hold a given set of cards: the hands' values
    sorted within each ``size``-card subset they hold (keyed by the subset's colex code)."""

    def __init__(self, hands: np.ndarray, values: np.ndarray, size: int, span: int) -> None:
        self.size, self.span = size, span
        if size == 0:
            self.keys = np.sort(values)
            return
        parts = [colex_codes(hands[:, list(s)]) * span + values for s in combinations(range(hands.shape[1]), size)]
        self.keys = np.sort(np.concatenate(parts))

    def count(self, subsets: np.ndarray, below: np.ndarray) -> np.ndarray:
        """Hands of value below ``below`` (rows) holding each row of ``subsets``."""
        if self.size == 0:
            return np.searchsorted(self.keys, below).astype(np.int64)
        base = colex_codes(subsets) * self.span
        return (np.searchsorted(self.keys, base + below) - np.searchsorted(self.keys, base)).astype(np.int64)


def count_no_board(
    deck: Iterable[int], hole: int, values_of: Callable[[np.ndarray], np.ndarray], floor: int
) -> NoBoardCounts:
    """Counts of every player hand of ``hole`` cards of ``deck`` against every dealer hand
    of as many of the other cards; ``values_of`` values rows of cards (bigger is better),
    and the dealer qualifies with a value of at least ``floor``."""
    cards = sorted(set(deck))
    hands = np.array(list(combinations(cards, hole)), dtype=np.int64)
    values = np.asarray(values_of(hands), dtype=np.int64)
    span = int(values.max()) + 2  # every threshold below is at most max + 1
    suits = sorted({c & 3 for c in cards})
    codes = canonical_codes(hands, suit_permutations(suits))
    _, first, weight = np.unique(codes, return_index=True, return_counts=True)
    rep, rep_value = hands[first], values[first]
    below = [_Below(hands, values, size, span) for size in range(hole + 1)]
    subsets = {size: [rep[:, list(s)] for s in combinations(range(hole), size)] for size in range(1, hole + 1)}

    def missing_below(x: np.ndarray) -> np.ndarray:
        """Dealer hands of value below ``x`` that miss the player's cards (per class)."""
        total = below[0].count(rep, x)
        for size in range(1, hole + 1):
            sign = -1 if size % 2 else 1
            for sub in subsets[size]:
                total += sign * below[size].count(sub, x)
        return total

    q = np.full(len(rep), max(floor, 0), dtype=np.int64)
    v = rep_value
    top = np.full(len(rep), span - 1, dtype=np.int64)
    f = {
        name: missing_below(x)
        for name, x in (
            ("nq_lt", np.minimum(v, q)),
            ("nq_le", np.minimum(v + 1, q)),
            ("q", q),
            ("q_lt", np.maximum(v, q)),
            ("q_le", np.maximum(v + 1, q)),
            ("all", top),
        )
    }
    counts = np.stack(
        [
            f["nq_lt"],  # not qualifying, player's hand higher
            f["nq_le"] - f["nq_lt"],  # not qualifying, equal
            f["q"] - f["nq_le"],  # not qualifying, dealer higher
            f["q_lt"] - f["q"],  # qualifying, player higher
            f["q_le"] - f["q_lt"],
            f["all"] - f["q_le"],
        ],
        axis=1,
    )
    dealer_hands = comb(len(cards) - hole, hole)
    if np.any(counts.sum(axis=1) != dealer_hands) or np.any(counts < 0):
        raise AssertionError("no-board counts do not add up to the dealer's hands")
    return NoBoardCounts(rep, weight.astype(np.int64), rep_value, counts, dealer_hands)
