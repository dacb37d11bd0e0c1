# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Return-engine core (compiled, nogil, OpenMP over rows): decisions and return-table sums
over packed per-state counts. It knows no pay table: coefficients come in as integers.

Packed layout: one row per state, ``ncols`` counts of ``width`` bytes each (3 when every
count is below 2**24, as in every game of the family, else 4), little-endian, rows
``ncols * width`` bytes apart, plus one spare byte at the end of the buffer so that every
count is read as one unaligned 4-byte load and masked. Casino Omaha's 21 pay-relevant
columns take 63 bytes a state instead of 160 for the 40 uint32 counts of the store.

Decisions: a state is called when ``base + offset_i + sum_j coef_j * count_j > 0``, where
the optional per-row ``offset`` (int64) is a term that is not a count, such as a side bet
the player forfeits by folding. The caller says whether that sum fits in 64 bits (``wide``
false: the usual pay tables) or needs 128 (exact for any int64 coefficients and offsets:
|sum| < 2**63 * (2**32 * ncols + 2) < 2**127).

Linear forms: ``linear`` gives ``sum_j coef_j * count_j`` of every row exactly in int64
(the caller checks that it fits), e.g. a side bet's per-state value over its count columns.

Sums: per thread, sum over the chosen rows of ``weight * count_j`` in uint64 (at most the
game's total deals, < 2**53), added up at the end; the last entry is the chosen weight.
"""

from cython.parallel cimport parallel, prange, threadid
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t

import numpy as np

cdef extern from "engine.h":
    const int MAX_COLS "ENGINE_MAX_COLS"
    void play_rows "engine_play_rows"(const uint8_t* data, int ncols, int width, long lo, long hi,
                                      const uint8_t* weight, const long long* coef, long long base,
                                      const long long* offset, int wide, int decide, uint8_t* calls,
                                      unsigned long long* acc) noexcept nogil
    void linear_rows "engine_linear_rows"(const uint8_t* data, int ncols, int width, long lo, long hi,
                                          const long long* coef, long long base, long long* out) noexcept nogil
    void margin_rows "engine_margin_rows"(const uint8_t* data, int ncols, int width, long lo, long hi,
                                          const double* coef, double base, double* out) noexcept nogil
    void group_rows "engine_group_rows"(const uint8_t* data, int ncols, int width, long lo, long hi,
                                        const uint8_t* weight, const int32_t* group,
                                        unsigned long long* acc) noexcept nogil

cdef enum:
    BLOCK = 4096             # rows per scheduling unit


cdef int check_layout(const uint8_t[::1] packed, Py_ssize_t rows, int ncols, int width,
                      Py_ssize_t weights) except -1:
    if width not in (3, 4) or not 1 <= ncols <= MAX_COLS:
        raise ValueError(f"engine: counts are 3 or 4 bytes wide, 1 to {MAX_COLS} columns")
    if packed.shape[0] != rows * ncols * width + 1:
        raise ValueError("engine: the packed buffer holds rows x ncols x width bytes plus one spare byte")
    if weights != rows:
        raise ValueError("engine: one weight per row")
    return 0


def play(const uint8_t[::1] packed, Py_ssize_t rows, int ncols, int width, const uint8_t[::1] weight,
         const int64_t[::1] coef, int64_t base, bint wide, uint8_t[::1] calls, bint decide, int threads=1,
         const int64_t[::1] offset=None):
    """Sums of weight x count over the called rows, per column, then the called weight.

    With ``decide``, ``calls`` is filled first: 1 where ``base + offset[i] + coef . counts
    > 0`` (no offset: 0), else 0 (an exact tie folds); without, the given ``calls`` are used.
    """
    check_layout(packed, rows, ncols, width, weight.shape[0])
    if calls.shape[0] != rows or (decide and coef.shape[0] != ncols):
        raise ValueError("play: one call per row and one coefficient per column")
    if offset is not None and offset.shape[0] != rows:
        raise ValueError("play: one offset per row")
    cdef const long long* off = <const long long*>&offset[0] if offset is not None and rows else NULL
    cdef int t
    cdef Py_ssize_t nblocks = (rows + BLOCK - 1) // BLOCK, b
    threads = max(1, threads)
    acc = np.zeros((threads, ncols + 1), dtype=np.uint64)
    cdef uint64_t[:, ::1] a = acc
    cdef const uint8_t* w = &weight[0] if rows else NULL
    cdef uint8_t* out = &calls[0] if rows else NULL
    cdef const long long* c = <const long long*>&coef[0] if coef.shape[0] else NULL
    with nogil, parallel(num_threads=threads):
        t = threadid()
        for b in prange(nblocks, schedule="static"):
            play_rows(&packed[0], ncols, width, b * BLOCK, min(rows, (b + 1) * BLOCK), w, c, base, off, wide,
                      decide, out, <unsigned long long*>&a[t, 0])
    return acc.sum(axis=0, dtype=np.uint64)


ctypedef fused dot_t:
    double
    int64_t


cdef int row_dots(const uint8_t[::1] packed, Py_ssize_t rows, int ncols, int width, const dot_t[::1] coef,
                  dot_t base, dot_t[::1] out, int threads) except -1:
    """out[i] = base + coef . counts of row i, in the type of coef."""
    check_layout(packed, rows, ncols, width, rows)
    if coef.shape[0] != ncols or out.shape[0] != rows:
        raise ValueError("engine: one coefficient per column and one result per row")
    cdef Py_ssize_t nblocks = (rows + BLOCK - 1) // BLOCK, b
    if rows == 0:
        return 0
    for b in prange(nblocks, nogil=True, num_threads=max(1, threads), schedule="static"):
        if dot_t is double:
            margin_rows(&packed[0], ncols, width, b * BLOCK, min(rows, (b + 1) * BLOCK), &coef[0], base, &out[0])
        else:
            linear_rows(&packed[0], ncols, width, b * BLOCK, min(rows, (b + 1) * BLOCK),
                        <const long long*>&coef[0], base, <long long*>&out[0])
    return 0


def margins(const uint8_t[::1] packed, Py_ssize_t rows, int ncols, int width, const double[::1] coef,
            double base, int threads=1):
    """``base + coef . counts`` of every row in float64 (for plots, and to find near-ties
    when exact integer coefficients do not fit in 64 bits)."""
    out = np.empty(rows, dtype=np.float64)
    cdef double[::1] o = out
    row_dots(packed, rows, ncols, width, coef, base, o, threads)
    return out


def linear(const uint8_t[::1] packed, Py_ssize_t rows, int ncols, int width, const int64_t[::1] coef,
           int threads=1):
    """``coef . counts`` of every row, exactly in int64 (the caller checks that
    max |coef| x 2**(8 width) x ncols < 2**63)."""
    out = np.empty(rows, dtype=np.int64)
    cdef int64_t[::1] o = out
    row_dots(packed, rows, ncols, width, coef, <int64_t>0, o, threads)
    return out


def group_sums(const uint8_t[::1] packed, Py_ssize_t rows, int ncols, int width, const uint8_t[::1] weight,
               const int32_t[::1] group, int ngroups, int threads=1):
    """Per group 0..ngroups-1: the sums of weight x count of its rows, per column, then
    its weight (uint64[ngroups, ncols + 1]); rows of a negative group are skipped."""
    check_layout(packed, rows, ncols, width, weight.shape[0])
    if group.shape[0] != rows or ngroups < 1:
        raise ValueError("group_sums: one group per row, at least one group")
    cdef Py_ssize_t i
    for i in range(rows):
        if group[i] >= ngroups:
            raise ValueError(f"group_sums: row {i} is in group {group[i]}, beyond {ngroups - 1}")
    cdef int t
    cdef Py_ssize_t nblocks = (rows + BLOCK - 1) // BLOCK, b
    threads = max(1, threads)
    acc = np.zeros((threads, ngroups, ncols + 1), dtype=np.uint64)
    cdef uint64_t[:, :, ::1] a = acc
    with nogil, parallel(num_threads=threads):
        t = threadid()
        for b in prange(nblocks, schedule="static"):
            group_rows(&packed[0], ncols, width, b * BLOCK, min(rows, (b + 1) * BLOCK), &weight[0], &group[0],
                       <unsigned long long*>&a[t, 0, 0])
    return acc.sum(axis=0, dtype=np.uint64)
