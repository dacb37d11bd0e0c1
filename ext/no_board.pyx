# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Exact counting core of the games without a board (Three Card Poker, Caribbean Stud, Four
Card Poker): player hand x dealer hand (of as many cards or more), with the dealer's cards
seen before the decision (his up card) part of each state. Compiled, nogil, OpenMP over the
states.

For a state (the player's cards P, the dealer's seen cards U) the dealer hands that hold U
and miss P and have a value below x are, by inclusion-exclusion over the subsets S of P,
the sum of (-1)^|S| times the hands of value below x that hold U and S. Every hand of the
deck is filed once under each subset of its cards (keyed by the subset's colex code),
in increasing value, so each term is a binary search in one short run: 2^|P| of them per
state and threshold, against the C(46, 4) = 163,185 dealer hands of a Caribbean Stud state
played out one by one. The long runs (the subsets of the fewest cards) are kept as
cumulative counts by value instead, so their terms are one look-up each.
"""

from cython.parallel cimport prange
from libc.stdint cimport int8_t, int32_t, int64_t, uint16_t

import numpy as np

cdef enum:
    MAXC = 8  # the most cards of a state (held and seen), and the columns of ``binom``


cdef inline Py_ssize_t lower_bound(const uint16_t* a, Py_ssize_t lo, Py_ssize_t hi, int x) noexcept nogil:
    """The first index in [lo, hi) of the sorted run ``a`` whose value is at least ``x``."""
    cdef Py_ssize_t mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef void state_counts(const int8_t* player, int h, int d, const int8_t* seen, int k, int floor, int value,
                       const int64_t* binom, const int64_t** offsets, const uint16_t** runs,
                       const int32_t** dense, int ndense, int width, int64_t* out) noexcept nogil:
    """The four counts of one state: dealer hands of ``d`` cards (holding ``seen``, missing
    ``player``) of value below ``floor``, below ``value``, below ``value + 1``, and all of them."""
    cdef int t[MAXC]
    cdef int mask, j, i, n, c, sign
    cdef int64_t code
    cdef Py_ssize_t lo, hi
    for j in range(4):
        out[j] = 0
    for mask in range(1 << h):
        n = 0
        sign = 1
        for j in range(k):  # the seen cards and the player's cards in S, kept sorted
            c = seen[j]
            i = n
            while i > 0 and t[i - 1] > c:
                t[i] = t[i - 1]
                i -= 1
            t[i] = c
            n += 1
        for j in range(h):
            if mask & (1 << j):
                sign = -sign
                c = player[j]
                i = n
                while i > 0 and t[i - 1] > c:
                    t[i] = t[i - 1]
                    i -= 1
                t[i] = c
                n += 1
        if n > d:  # no dealer hand holds more cards than it has
            continue
        code = 0
        for j in range(n):
            code += binom[t[j] * MAXC + j + 1]
        if n < ndense:  # cumulative counts by value: one look-up per threshold
            out[0] += sign * dense[n][code * width + floor]
            out[1] += sign * dense[n][code * width + value]
            out[2] += sign * dense[n][code * width + value + 1]
            out[3] += sign * dense[n][code * width + width - 1]
            continue
        lo = offsets[n][code]
        hi = offsets[n][code + 1]
        out[0] += sign * (lower_bound(runs[n], lo, hi, floor) - lo)
        out[1] += sign * (lower_bound(runs[n], lo, hi, value) - lo)
        out[2] += sign * (lower_bound(runs[n], lo, hi, value + 1) - lo)
        out[3] += sign * (hi - lo)


cdef void file_sizes(const int8_t* hands, Py_ssize_t n, int h, bint fill, const uint16_t* values,
                     const int64_t* binom, int stride, int lo, int hi, int ndense, int width,
                     int32_t** dense_p, int64_t** off_p, int64_t** fill_p, uint16_t** run_p) noexcept nogil:
    """One pass over the hands for the subsets of ``lo`` to ``hi - 1`` cards: counted (dense
    sizes at their value, the others' run lengths) or (``fill``) filed into the runs."""
    cdef int64_t code[1 << (MAXC - 1)]
    cdef int bits[1 << (MAXC - 1)]
    cdef int top[1 << (MAXC - 1)]
    cdef Py_ssize_t r
    cdef int mask, b
    bits[0] = 0
    top[0] = -1
    for mask in range(1, 1 << h):  # the subset's size and its highest card's place
        bits[mask] = bits[mask >> 1] + (mask & 1)
        top[mask] = top[mask >> 1] + 1
    code[0] = 0
    for r in range(n):
        for mask in range(1, 1 << h):
            code[mask] = code[mask ^ (1 << top[mask])] + binom[hands[r * h + top[mask]] * stride + bits[mask]]
        for mask in range(1 << h):
            b = bits[mask]
            if b < lo or b >= hi:
                continue
            if fill:
                run_p[b][fill_p[b][code[mask]]] = values[r]
                fill_p[b][code[mask]] += 1
            elif b < ndense:
                dense_p[b][code[mask] * width + values[r] + 1] += 1
            else:
                off_p[b][code[mask] + 1] += 1


def file_by_subset(const int8_t[:, ::1] hands, list offsets, list runs,
                   const uint16_t[::1] values, const int64_t[:, ::1] binom, list dense=None, int threads=1):
    """File each hand's ``values`` entry under each subset of its (sorted) cards: a subset
    of ``n`` cards with ``dense[n]`` (the first few n) counts it in its row (the subset's
    colex code) at the column of its value plus one, for cumulative counts; any other
    ``offsets[n]`` (one more than the ``n``-card subsets' colex codes, zeroed) gets each
    run's start, ``runs[n]`` the values, in the hands' order (increasing value: every run
    comes out sorted). The 2^h subsets' codes come one add each from the subset
    less its highest card. One pass counts, one fills the runs; with two threads each pass
    is split by subset size (no table is written by both)."""
    cdef Py_ssize_t n = hands.shape[0], m
    cdef int h = hands.shape[1], size, job, ndense = 0 if dense is None else len(dense), width = 0
    cdef int stride = binom.shape[1]
    cdef int64_t* off_p[MAXC]
    cdef int64_t* fill_p[MAXC]
    cdef uint16_t* run_p[MAXC]
    cdef int32_t* dense_p[MAXC]
    cdef int64_t[::1] o
    cdef uint16_t[::1] u
    cdef int32_t[:, ::1] cum
    cdef int split[3]
    if h + 1 > MAXC or len(offsets) != h + 1 or len(runs) != h + 1 or ndense > h + 1:
        raise ValueError("a hand of 1 to 7 cards, and a run list for every subset size up to it")
    keep = []
    for size in range(ndense):
        cum = dense[size]
        keep.append(cum)
        if cum.shape[0] != binom[52, size] or (width and cum.shape[1] != width) or binom.shape[0] != 53:
            raise ValueError("a row of counts per subset of the 52 cards, all as wide")
        width = cum.shape[1]
        dense_p[size] = &cum[0, 0]
    if values.shape[0] != n:
        raise ValueError("a value per hand")
    if ndense and np.max(values) + 1 >= width:
        raise ValueError("a value beyond the counts' columns")
    for size in range(ndense, h + 1):
        o = offsets[size]
        u = runs[size]
        f = np.zeros(o.shape[0], dtype=np.int64)
        keep.append((o, u, f))
        if u.shape[0] != n * binom[h, size] or o.shape[0] != binom[52, size] + 1 or binom.shape[0] != 53:
            raise ValueError("an offset per subset of the 52 cards and a run entry per hand and subset")
        off_p[size] = &o[0]
        run_p[size] = &u[0] if u.shape[0] else NULL
        o = f
        fill_p[size] = &o[0]
    if n == 0:
        return
    threads = 2 if threads > 1 else 1
    split[0], split[1], split[2] = 0, ndense if threads > 1 else h + 1, h + 1  # counting: dense | runs
    for job in prange(threads, nogil=True, num_threads=threads, schedule="static"):
        file_sizes(&hands[0, 0], n, h, False, &values[0], &binom[0, 0], stride, split[job], split[job + 1],
                   ndense, width, dense_p, off_p, fill_p, run_p)
    with nogil:
        for size in range(ndense, h + 1):
            m = 1
            while m < binom[52, size] + 1:
                off_p[size][m] += off_p[size][m - 1]
                fill_p[size][m] = off_p[size][m]
                m += 1
    split[0], split[1] = ndense, ndense + 1 if threads > 1 else h + 1  # filing: the longest runs | the rest
    for job in prange(threads, nogil=True, num_threads=threads, schedule="static"):
        file_sizes(&hands[0, 0], n, h, True, &values[0], &binom[0, 0], stride, split[job], split[job + 1],
                   ndense, width, dense_p, off_p, fill_p, run_p)


def count_states(const int8_t[:, ::1] players, const int8_t[:, ::1] seen, const int32_t[::1] values,
                 int floor, list offsets, list runs, list dense, const int64_t[:, ::1] binom, int threads=1):
    """Per state (a row of ``players``, sorted, and of ``seen``) the four counts of
    :func:`state_counts`; ``offsets[n]`` and ``runs[n]`` the deck's dealer hands (as many
    cards as the lists have sizes after 0; the player's may be fewer) filed by their
    ``n``-card subsets (:func:`file_by_subset`), ``dense[n]`` (for the first few n) the same
    as cumulative counts, a row per subset: the entries below each value (0 .. the number of
    values); ``binom[c, j]`` = C(c, j) (52 x MAXC)."""
    cdef Py_ssize_t m = players.shape[0], i
    cdef int h = players.shape[1], k = seen.shape[1], d = len(offsets) - 1, n
    if h + k > MAXC or h < 1 or not k <= d < MAXC or len(runs) != d + 1:
        raise ValueError("hands of 1 to 7 cards, the dealer's subsets filed for every size up to his hand")
    if seen.shape[0] != m or values.shape[0] != m or binom.shape[1] != MAXC:
        raise ValueError("one row of seen cards and one value per state")
    cdef const int64_t* off_p[MAXC]
    cdef const uint16_t* run_p[MAXC]
    cdef const int64_t[::1] o
    cdef const uint16_t[::1] u
    cdef const int32_t[:, ::1] cum
    cdef const int32_t* dense_p[MAXC]
    cdef int ndense = len(dense), width = 0
    if ndense > d + 1:
        raise ValueError("cumulative counts for more subset sizes than the hand has")
    keep = []
    for n in range(d + 1):
        o = offsets[n]
        u = runs[n]
        keep.append((o, u))
        off_p[n] = &o[0]
        run_p[n] = &u[0] if u.shape[0] else NULL
    for n in range(ndense):
        cum = dense[n]
        keep.append(cum)
        dense_p[n] = &cum[0, 0]
        if cum.shape[0] != binom[52, n] or (width and cum.shape[1] != width):
            raise ValueError("one row of cumulative counts per subset, all as wide")
        width = cum.shape[1]
    if ndense and not (0 <= floor < width and 0 <= np.min(values) and np.max(values) + 1 < width):
        raise ValueError("a threshold beyond the cumulative counts")
    out = np.zeros((m, 4), dtype=np.int64)
    cdef int64_t[:, ::1] res = out
    cdef int8_t none = 0
    for i in prange(m, nogil=True, num_threads=threads, schedule="static"):
        state_counts(&players[i, 0], h, d, &seen[i, 0] if k else &none, k, floor, values[i], &binom[0, 0],
                     off_p, run_p, dense_p, ndense, width, &res[i, 0])
    return out
