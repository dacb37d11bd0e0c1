"""Hand evaluation, batch over numpy arrays (compiled) or one hand from text.

>>> describe("As Ks Qs Js Ts")
'royal_flush'
>>> int(best_strength([[0, 4, 8, 12, 48]])[0]) < int(best_strength([[4, 8, 12, 16, 0]])[0])
True
>>> describe_omaha("Ah Kh 2c", "Qh Jh Th 3c 4d")
'royal_flush'
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

import analysis._evaluator as _evaluator
from analysis.hands.lookup import tables
from analysis.model.cards import parse_cards
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError


def as_card_array(cards: ArrayLike, width: int | None = None) -> np.ndarray:
    """Card ints as a C-contiguous int8 array of rows; checks the range 0..51."""
    arr = np.ascontiguousarray(np.atleast_2d(np.asarray(cards)))
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        raise InputError("card ints must be in 0..51")
    if width is not None and arr.shape[1] != width:
        raise InputError(f"expected rows of {width} cards, got {arr.shape[1]}")
    return arr.astype(np.int8, copy=False)


def best_strength(cards: ArrayLike, threads: int = 1) -> np.ndarray:
    """Strength (1..7462) of the best 5 of each row of 5, 6 or 7 cards."""
    arr = as_card_array(cards)
    t = tables()
    table = {5: t.rank5, 6: t.rank6, 7: t.rank7}.get(arr.shape[1])
    if table is None:
        raise InputError(f"rows must hold 5 to 7 cards, got {arr.shape[1]}")
    return _evaluator.best_of(arr, table, t.flush, threads)


def omaha_strength(hole: ArrayLike, board: ArrayLike, threads: int = 1) -> np.ndarray:
    """Strength of the best hand of exactly 2 hole cards and exactly 3 board cards."""
    h, b = as_card_array(hole), as_card_array(board)
    t = tables()
    return _evaluator.omaha(h, b, t.omaha_pair, t.flush, threads)


def category_of(strength: ArrayLike) -> np.ndarray:
    """Category codes (indices into CATEGORIES) of strengths."""
    return tables().category[np.asarray(strength)]


def pair_rank(cards: ArrayLike) -> np.ndarray:
    """The lowest rank each row of cards holds twice or more (-1: none): the rank of a
    one-pair hand's pair, which a pay line of pairs by rank reads ("pair A-A").

    >>> pair_rank([parse_cards("As Ad 4c 3h 2s"), parse_cards("Ks Qd 4c 3h 2s")]).tolist()
    [12, -1]
    """
    ranks = np.sort(np.atleast_2d(np.asarray(cards)) >> 2, axis=1)
    twice = ranks[:, 1:] == ranks[:, :-1]
    return np.where(twice.any(axis=1), ranks[:, 1:][np.arange(len(ranks)), twice.argmax(axis=1)], -1)


def straight_top(cards: ArrayLike) -> np.ndarray:
    """The top card's rank of each row of cards read as a straight: the highest rank, but
    of an ace played low (A-2-3, A-2-3-4-5) the rank below the ace's run; what a pay line of
    straight flushes by rank reads (the mini royal: A-K-Q).

    >>> straight_top([parse_cards("As Ks Qs"), parse_cards("As 2s 3s"), parse_cards("Ah 2h 4h")]).tolist()
    [12, 1, 12]
    >>> straight_top([parse_cards("5h 4h 3h 2h Ah")]).tolist()
    [3]
    """
    ranks = np.sort(np.atleast_2d(np.asarray(cards)) >> 2, axis=1)
    n = ranks.shape[1]
    low_ace = (ranks[:, -1] == 12) & (ranks[:, :-1] == np.arange(n - 1)).all(axis=1)
    return np.where(low_ace, n - 2, ranks[:, -1])


def describe(text: str) -> str:
    """Category name of the best 5 of 5..7 cards given as text."""
    return CATEGORIES[int(category_of(best_strength([parse_cards(text)]))[0])]


def describe_omaha(hole: str, board: str) -> str:
    """Category name of the best Omaha hand (exactly 2 hole + 3 board)."""
    s = omaha_strength([parse_cards(hole)], [parse_cards(board)])
    return CATEGORIES[int(category_of(s)[0])]
