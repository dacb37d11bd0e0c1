# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Batch poker evaluation over numpy arrays of card ints (compiled, nogil).

Every function takes its lookup tables as arguments (built by ``analysis.hands.lookup``)
and returns strengths 1..7462, bigger is better. ``analysis.hands.evaluate`` is the public API.
"""

from cython.parallel cimport prange
from libc.stdint cimport uint8_t, uint16_t, int8_t

import numpy as np

from poker cimport best_of_n, omaha_best


def best_of(const int8_t[:, ::1] cards, const uint16_t[::1] rank_table,
            const uint16_t[::1] flush, int threads=1):
    """Best 5-card strength from each row of 5, 6 or 7 cards (Hold'em style)."""
    cdef Py_ssize_t n = cards.shape[0], i
    cdef int m = cards.shape[1]
    if m < 5 or m > 7:
        raise ValueError(f"best_of needs 5 to 7 cards per row, got {m}")
    out = np.empty(n, dtype=np.uint16)
    cdef uint16_t[::1] res = out
    for i in prange(n, nogil=True, num_threads=threads, schedule="static"):
        res[i] = best_of_n(&cards[i, 0], m, &rank_table[0], &flush[0])
    return out


def omaha(const int8_t[:, ::1] hole, const int8_t[:, ::1] board,
          const uint16_t[:, ::1] omaha_pair, const uint16_t[::1] flush, int threads=1):
    """Best hand of exactly 2 hole cards and exactly 3 board cards, per row."""
    cdef Py_ssize_t n = hole.shape[0], i
    cdef int k = hole.shape[1], nb = board.shape[1]
    if board.shape[0] != n:
        raise ValueError("hole and board need the same number of rows")
    if k < 2 or k > 6 or nb < 3 or nb > 5:
        raise ValueError(f"omaha needs 2 to 6 hole cards and 3 to 5 board cards, got {k} and {nb}")
    out = np.empty(n, dtype=np.uint16)
    cdef uint16_t[::1] res = out
    for i in prange(n, nogil=True, num_threads=threads, schedule="static"):
        res[i] = omaha_best(&hole[i, 0], k, &board[i, 0], nb, &omaha_pair[0, 0], &flush[0])
    return out
