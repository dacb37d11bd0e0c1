"""Four-card Omaha: high and 8-or-better low hands, batch-evaluated by the compiled core.

Every hand is made of **exactly 2** hole cards and **exactly 3** of the 5 board cards.

* **High**: the usual poker strength 1..7462, bigger is better (see :mod:`analysis.hands.lookup`).
* **Low** (Omaha Hi/Lo, seed 004): five *distinct* ranks 8 or lower, aces low, straights
  and flushes ignored; the high and the low hand may use different cards. The low value
  is 1..56, bigger is better (56 = 5-4-3-2-A, the wheel; 1 = 8-7-6-5-4), and
  :data:`NO_LOW` = 0 when no 2 + 3 cards make one.

>>> describe_low("As 2d Kc Kd", "3h 4s 5c Qd Jh")
'5-4-3-2-A'
>>> describe_low("As 2d 3c 4d", "Ah 2s Kc Qd Jh")  # counterfeited: no three distinct low board ranks
'no low'
>>> describe_high("As 2d Kc Kd", "3h 4s 5c Qd Jh")
'straight'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np
from numpy.typing import ArrayLike, NDArray

import analysis._omaha as _omaha
from analysis.hands.evaluate import as_card_array
from analysis.hands.lookup import _all_multisets, _weights, tables
from analysis.model.cards import disjoint, parse_cards
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError

#: Low value of "no qualifying low".
NO_LOW = 0
#: Ranks of a low hand, in the order of the bits of a low mask: ace, deuce .. eight.
LOW_RANKS = "A2345678"
#: Bit of each card rank (0..12 = 2..A) in a low mask; 0 for nine and above.
LOW_BIT = np.array([1 << (r + 1) if r <= 6 else (1 if r == 12 else 0) for r in range(13)], dtype=np.int64)


def _low_masks_best_first() -> list[int]:
    """The 56 possible lows as 8-bit masks, best first.

    Lows compare by their highest card, then the next, ...; for sets of five distinct
    ranks that is the order of the masks read as binary numbers (smaller is better).
    """
    return sorted(sum(1 << b for b in bits) for bits in combinations(range(8), 5))


@dataclass(frozen=True)
class OmahaTables:
    """The Omaha evaluators' tables (see :func:`omaha_tables`)."""

    board_pair: NDArray[np.uint16]
    low_value: NDArray[np.uint8]
    low_best: NDArray[np.uint8]


@cache
def omaha_tables() -> OmahaTables:
    """Lookup tables of the Omaha evaluators (built once).

    - ``board_pair[b, p]``: best unsuited strength of 2 hole cards of rank pair ``p``
      (multiset index) with any 3 of board ranks ``b`` (5-multiset index); 0 where impossible.
    - ``low_value[mask]``: low value 1..56 of the five low ranks in an 8-bit low mask; 0
      unless exactly five bits are set.
    - ``low_best[board_mask * 256 + hole_mask]``: best low from 2 distinct low ranks of
      the hole mask and 3 other distinct low ranks of the board mask (0 = no low).
    """
    t = tables()
    boards = _all_multisets(5)
    w = _weights(3)
    board_pair = np.zeros((len(boards), 91), dtype=np.uint16)
    for cols in combinations(range(5), 3):  # the 10 board triples
        triple = boards[:, cols]  # a subset of a sorted row stays sorted
        index = sum(w[i][triple[:, i]] for i in range(3))
        board_pair = np.maximum(board_pair, t.omaha_pair[index])

    masks = np.arange(256)
    low_value = np.zeros(256, dtype=np.uint8)
    low_best = np.zeros((256, 256), dtype=np.uint8)
    best_first = _low_masks_best_first()
    for position, low in enumerate(best_first):
        value = len(best_first) - position
        low_value[low] = value
        bits = [1 << b for b in range(8) if low >> b & 1]
        for hole_bits in combinations(bits, 2):
            hole = sum(hole_bits)
            board = low & ~hole
            has = np.outer((masks & board) == board, (masks & hole) == hole)
            low_best = np.where(has & (low_best == 0), np.uint8(value), low_best)  # best first: first mark wins
    return OmahaTables(board_pair=board_pair, low_value=low_value, low_best=low_best.reshape(-1))


def _rows(hole: ArrayLike, board: ArrayLike, hole_cards: int | None) -> tuple[np.ndarray, np.ndarray]:
    h, b = as_card_array(hole), as_card_array(board, width=5)
    if hole_cards is not None and h.shape[1] != hole_cards:
        raise InputError(f"expected rows of {hole_cards} hole cards, got {h.shape[1]}")
    if not 2 <= h.shape[1] <= 6:
        raise InputError(f"Omaha hands hold 2 to 6 hole cards, got {h.shape[1]}")
    if len(h) != len(b):
        raise InputError(f"{len(h)} rows of hole cards but {len(b)} boards")
    return h, b


def omaha_high(hole: ArrayLike, board: ArrayLike, threads: int = 1, hole_cards: int | None = 4) -> np.ndarray:
    """High strength (1..7462) of exactly 2 hole + 3 of the 5 board cards, per row.

    ``hole_cards`` is the width the rows must have (None: any of 2..6, e.g. 3 for
    Casino Omaha).
    """
    h, b = _rows(hole, board, hole_cards)
    o = omaha_tables()
    return _omaha.high_batch(h, b, o.board_pair, tables().flush, threads)


def omaha_low(hole: ArrayLike, board: ArrayLike, threads: int = 1, hole_cards: int | None = 4) -> np.ndarray:
    """8-or-better low value (1..56, bigger is better; 0 = no low) per row."""
    h, b = _rows(hole, board, hole_cards)
    return _omaha.low_batch(h, b, omaha_tables().low_best, LOW_BIT.astype(np.uint8), threads)


def low_ranks(value: int) -> str:
    """The ranks of a low value, highest first, e.g. ``'8-6-4-2-A'``; ``'no low'`` for 0."""
    if value == NO_LOW:
        return "no low"
    best_first = _low_masks_best_first()
    if not 1 <= value <= len(best_first):
        raise InputError(f"low value {value} is outside 0..{len(best_first)}")
    mask = best_first[len(best_first) - value]
    return "-".join(LOW_RANKS[b] for b in reversed(range(8)) if mask >> b & 1)


def _parse_deal(hole: str, board: str) -> tuple[list[int], list[int]]:
    h, b = parse_cards(hole, 4, "hole cards"), parse_cards(board, 5, "board")
    disjoint(h, b)
    return h, b


def describe_high(hole: str, board: str) -> str:
    """Category of the best Omaha high hand of 4 hole cards and a 5-card board (text)."""
    h, b = _parse_deal(hole, board)
    return CATEGORIES[int(tables().category[omaha_high([h], [b])[0]])]


def describe_low(hole: str, board: str) -> str:
    """The best 8-or-better low of 4 hole cards and a 5-card board (text)."""
    h, b = _parse_deal(hole, board)
    return low_ranks(int(omaha_low([h], [b])[0]))
