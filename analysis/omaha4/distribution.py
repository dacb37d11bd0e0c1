"""Final-hand categories of Omaha-style hands over every deal, and pay tables applied to them.

A deal is a holding of k hole cards (4 for Omaha, 3 for Casino Omaha) and a 5-card board
from the rest of the deck; the final hand is the best of exactly 2 hole + 3 board cards.
There are C(52, k) C(52 - k, 5) deals: 463,563,500,400 for k = 4.

Boards are grouped by what decides every holding's category on them: the multiset of
board ranks and which ranks are of the board's flush suit (a suit with 3+ board cards).
Boards of one group offer the same numbers of holdings of each card *type* (rank, and
whether of the flush suit), so the compiled core counts one board per group, by type
multisets of holdings, and the counts are multiplied by the group's size.

Pay tables on final hands: a unit bet on the player's final hand that is paid ``pays``
"to 1" in the hand's category (the stake returned plus ``pays``; a pay of 0 returns the
stake only). ``expected_pay`` = sum of probability x pays, the expected net win per unit
staked; ``expected_return`` = 1 + expected_pay, the expected amount back per unit staked.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

import analysis._distribution as _distribution
from analysis.hands.lookup import tables
from analysis.model.cards import RANKS, SUITS
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.paytable import PayTable, PayTableSpec
from analysis.omaha4.evaluators import omaha_tables
from analysis.parallel.threads import check_threads

#: The pay table of the Madrid casinos (seeds 000/002), by name.
MADRID_PAYTABLE = "madrid"


def deck_cards(ranks: str = RANKS, suits: str = SUITS) -> list[int]:
    """The cards of a deck made of the given ranks in the given suits (default: all 52)."""
    for r in ranks:
        if r not in RANKS:
            raise InputError(f"unknown rank {r!r} (ranks are {RANKS})")
    for s in suits:
        if s not in SUITS:
            raise InputError(f"unknown suit {s!r} (suits are {SUITS})")
    return sorted({RANKS.index(r) * 4 + SUITS.index(s) for r in ranks for s in suits})


def board_keys(boards: np.ndarray) -> np.ndarray:
    """Group key of each board (rows of 5 card ints): its rank multiset and the set of its
    ranks of its flush suit (a suit with 3+ of its cards; none if no such suit)."""
    boards = np.asarray(boards, dtype=np.int64)
    ranks, suits = boards >> 2, boards & 3
    suit_counts = np.stack([(suits == s).sum(axis=1) for s in range(4)], axis=1)
    flush_suit = np.where(suit_counts.max(axis=1) >= 3, suit_counts.argmax(axis=1), -1)
    flush_ranks = ((suits == flush_suit[:, None]) << ranks).sum(axis=1)
    return (np.sort(ranks, axis=1) * 13 ** np.arange(5)).sum(axis=1) * 8192 + flush_ranks


def board_groups(deck: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """One representative board per group (rows of 5 cards) and the group sizes.

    Within a deck of whole ranks x whole suits, boards with one key (:func:`board_keys`)
    offer the same holdings up to renaming cards of a type (see the module docstring).
    """
    cards = np.asarray(deck, dtype=np.int8)
    index = np.fromiter(
        (i for combo in combinations(range(len(cards)), 5) for i in combo),
        dtype=np.int16,
        count=5 * comb(len(cards), 5),
    ).reshape(-1, 5)
    boards = cards[index]
    _, first, sizes = np.unique(board_keys(boards), return_index=True, return_counts=True)
    return boards[first], sizes.astype(np.int64)


def category_counts_per_board(
    boards: ArrayLike, hole_cards: int, deck: list[int] | None = None, threads: int | None = None
) -> np.ndarray:
    """For each board (rows of 5 card ints), the holdings of ``hole_cards`` cards from the
    rest of the deck by final category (int64, 10 columns in CATEGORIES order)."""
    deck = list(range(52)) if deck is None else deck
    t = tables()
    return _distribution.category_counts(
        hole_cards,
        np.ascontiguousarray(boards, dtype=np.int8),
        sum(1 << c for c in deck),
        omaha_tables().board_pair,
        t.flush,
        t.category,
        check_threads(threads),
    )


@cache
def _board_groups(ranks: str, suits: str) -> tuple[np.ndarray, np.ndarray]:
    return board_groups(deck_cards(ranks, suits))


@cache
def _final_hand_counts(hole_cards: int, ranks: str, suits: str) -> tuple[int, ...]:
    boards, sizes = _board_groups(ranks, suits)
    per_board = category_counts_per_board(boards, hole_cards, deck_cards(ranks, suits))
    return tuple(int(x) for x in sizes @ per_board)


def final_hand_counts(hole_cards: int = 4, ranks: str = RANKS, suits: str = SUITS) -> list[int]:
    """Exact number of deals ending in each category (CATEGORIES order)."""
    if isinstance(hole_cards, bool) or not isinstance(hole_cards, int) or hole_cards not in (3, 4):
        raise InputError(f"hole_cards must be 3 (Casino Omaha) or 4 (Omaha), got {hole_cards!r}")
    if len(ranks) * len(suits) < hole_cards + 5:
        raise InputError(f"a deck of {len(ranks)} ranks x {len(suits)} suits is too small")
    return list(_final_hand_counts(hole_cards, ranks, suits))


def total_deals(hole_cards: int, deck_size: int = 52) -> int:
    return comb(deck_size, hole_cards) * comb(deck_size - hole_cards, 5)


@dataclass(frozen=True)
class FinalHands:
    """Exact final-hand categories of k-card Omaha-style hands over every deal (full deck)."""

    hole_cards: int
    counts: tuple[int, ...]  # deals per category, CATEGORIES order
    total: int  # every deal: C(52, k) C(52 - k, 5)

    def frame(self) -> pd.DataFrame:
        """Categories, best first, with exact deal counts and probabilities."""
        rows = [
            (CATEGORIES[c], self.counts[c], Fraction(self.counts[c], self.total))
            for c in reversed(range(len(CATEGORIES)))
        ]
        df = pd.DataFrame(rows, columns=["category", "combinations", "probability_exact"])
        df["probability"] = df["probability_exact"].map(float)
        return df


@dataclass(frozen=True)
class PayTableReturn:
    """A pay table applied to final hands: a unit bet on the final hand, paid "to 1"."""

    hands: FinalHands
    paytable: PayTable

    @property
    def expected_pay(self) -> Fraction:
        """Sum of probability x pays: the expected net win per unit staked."""
        pays = self.paytable.pays
        return sum(
            (Fraction(n * pays[c], self.hands.total) for c, n in zip(CATEGORIES, self.hands.counts)), Fraction(0)
        )

    @property
    def expected_return(self) -> Fraction:
        """1 + expected pay: what comes back per unit staked, stake included."""
        return 1 + self.expected_pay

    def frame(self) -> pd.DataFrame:
        """Each category's pay and its contribution to the expected pay."""
        df = self.hands.frame()
        df["pays"] = df["category"].map(self.paytable.pays)  # Fractions
        df["contribution_exact"] = [p * pay for p, pay in zip(df["probability_exact"], df["pays"])]
        df["contribution"] = df["contribution_exact"].map(float)
        return df


def final_hand_distribution(hole_cards: int = 4) -> FinalHands:
    """The final hands of every deal of k hole cards (4: Omaha, 3: Casino Omaha), full deck."""
    return FinalHands(hole_cards, tuple(final_hand_counts(hole_cards)), total_deals(hole_cards))


def paytable_return(hands: FinalHands, paytable: PayTableSpec) -> PayTableReturn:
    """A pay table applied to the final hands (see the module docstring for the convention)."""
    return PayTableReturn(hands, PayTable.load(paytable))
