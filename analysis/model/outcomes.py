"""The per-state counts and their column layout: the data the enumerator produces and the
store keeps (numpy only; nothing here imports the compiled kernel).

A decision state is the player's hole cards and the flop. Its completions are every
turn/river pair and then every dealer holding from the cards left. The counts are kept
per (player final category x dealer result), the 40 columns of :data:`COLUMNS`, in the
kernel's order (category-major). States are stored one per suit-symmetry orbit, with a
``weight`` = the number of real states the row stands for.

>>> COLUMNS[5], COLUMNS[5].name, column_index("win", "pair")
(Column(result='win', category='pair'), 'win_pair', 5)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import comb
from typing import NamedTuple, Protocol, TypeAlias

import numpy as np
from numpy.typing import ArrayLike

from analysis.model.categories import CATEGORIES

#: comb(n, k) for the colex codes of card sets.
BINOM = np.array([[comb(n, k) for k in range(8)] for n in range(53)], dtype=np.int64)


def colex_codes(cards: np.ndarray) -> np.ndarray:
    """Colex code of each row of cards (rows need not be sorted)."""
    rows = np.sort(np.atleast_2d(cards).astype(np.int64), axis=1)
    return sum(BINOM[rows[:, i], i + 1] for i in range(rows.shape[1]))


#: Dealer results, in the kernel's order: the dealer does not qualify, the player wins,
#: a tie with a qualifying dealer, the dealer wins.
RESULTS = ("noqual", "win", "tie", "loss")


#: A count column as a plain (dealer result, player's final category) tuple: how
#: per-column values and sums are keyed.
ColumnKey: TypeAlias = tuple[str, str]


class Column(NamedTuple):
    """One count column: the dealer result and the player's final category."""

    result: str
    category: str

    @property
    def name(self) -> str:
        """The column's name in a store shard."""
        return f"{self.result}_{self.category}"

    @property
    def key(self) -> ColumnKey:
        """The column as a plain tuple (see :data:`ColumnKey`)."""
        return (self.result, self.category)


#: Count columns, in the kernel's order (category-major).
COLUMNS = tuple(Column(result, category) for category in CATEGORIES for result in RESULTS)


def column_index(result: str, category: str) -> int:
    """Position of a (result, category) column in :data:`COLUMNS`."""
    return CATEGORIES.index(category) * len(RESULTS) + RESULTS.index(result)


def state_keys(flop_code: ArrayLike, hole_code: ArrayLike) -> np.ndarray:
    """Sort key of each state: (flop code, hole code) packed in an int64."""
    return np.asarray(flop_code, dtype=np.int64) * (1 << 20) + np.asarray(hole_code, dtype=np.int64)


#: The name of the derived set of state keys (see :func:`key_set`).
STATE_KEYS = "state-keys"


class _Cards(Protocol):
    def cards(self) -> tuple[np.ndarray, np.ndarray]: ...


def key_set(source: _Cards) -> dict[str, np.ndarray]:
    """The derived set of a source's state keys: the key of every state it holds, in its
    order (states are kept in key order, so the keys are sorted and searched)."""
    hole, flop = source.cards()
    return {"keys": state_keys(colex_codes(flop), colex_codes(hole))}


@dataclass
class StateCounts:
    """Counts of a set of canonical states (one row each), in key order."""

    flop: np.ndarray  # rows x 3 card ints (canonical flop)
    hole: np.ndarray  # rows x k card ints (canonical hole cards)
    weight: np.ndarray  # real states per row (int64)
    counts: np.ndarray  # rows x 40 (uint32), columns COLUMNS

    def __len__(self) -> int:
        return len(self.weight)

    @property
    def keys(self) -> np.ndarray:
        """Sort key of each row (see :func:`state_keys`)."""
        return state_keys(colex_codes(self.flop), colex_codes(self.hole))

    # The three methods below are what the return engine asks of where its states live
    # (these counts in memory, or an OutcomeStore on disk).

    def cards(self) -> tuple[np.ndarray, np.ndarray]:
        """(hole, flop) card arrays of every state."""
        return self.hole, self.flop

    def column_sums(self, selected: np.ndarray) -> np.ndarray:
        """Exact sum over the selected states of weight x count, for each of the 40 columns."""
        w = np.where(selected, self.weight, 0).astype(np.uint64)
        return np.array([int(w @ self.counts[:, j].astype(np.uint64)) for j in range(len(COLUMNS))], dtype=np.int64)

    def derived(self, name: str, build: Callable[[StateCounts], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
        """Pay-independent arrays computed from these states, memoised by name."""
        memo = self.__dict__.setdefault("_derived", {})
        if name not in memo:
            memo[name] = build(self)
        return memo[name]


def empty_counts(n: int, k: int, columns: int = len(COLUMNS)) -> StateCounts:
    """Uninitialised column-major arrays for n states of k hole cards (columns are what
    readers take); ``columns=0`` for cards and weights only."""
    return StateCounts(
        flop=np.empty((n, 3), np.int8, order="F"),
        hole=np.empty((n, k), np.int8, order="F"),
        weight=np.empty(n, np.int64),
        counts=np.empty((n, columns), np.uint32, order="F"),
    )
