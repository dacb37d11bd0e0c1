# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Final-hand category counts of Omaha-style holdings, per board (compiled, nogil, OpenMP
over boards); ``analysis.omaha4.distribution`` is the public API and groups the boards.

For a board of 5 cards, every holding of k (3 or 4) cards from the rest of the deck is
counted by the category of its final hand: the best of exactly 2 hole and 3 board cards.
Cards of one *type* (rank, plus 13 if of the board's flush suit: ``poker.pxd``) are
interchangeable on the board, so holdings are counted per multiset of types, with their
number of real holdings as weight. A pair of types has one value on the board: one
lookup of board_pair[board ranks, pair ranks] (the best over the board's 10 triples,
precomputed), or a flush when both are of the flush suit; a holding's category is the
best over its pairs.
"""

from cython.parallel cimport prange
from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t, uint64_t

import numpy as np

from poker cimport (NCATEGORIES, NPAIRS, NTRIPLES, NTYPES, flush_suit, pair_index_any, sorted_index, type_counts,
                    type_rank)


cdef inline int suited_triples(const int8_t* board, int s, int* masks) noexcept nogil:
    """Rank masks of the 3-card subsets of the board cards of suit s; returns their number."""
    cdef int r[5]
    cdef int n = 0, i, j, l, count = 0
    for i in range(5):
        if (board[i] & 3) == s:
            r[n] = board[i] >> 2
            n += 1
    for i in range(n):
        for j in range(i + 1, n):
            for l in range(j + 1, n):
                masks[count] = (1 << r[i]) | (1 << r[j]) | (1 << r[l])
                count += 1
    return count


cdef void board_categories(int k, const int8_t* board, uint64_t deck, const uint16_t* board_pair,
                           const uint16_t* flush, const uint8_t* category, int64_t* out) noexcept nogil:
    """Holdings of k (3 or 4) cards from the deck less the board, by final category: the
    category of every pair of types first, then every multiset of k types with its weight."""
    cdef int n[NTYPES]
    cdef int tl[NTYPES]
    cdef uint8_t pc[NTYPES][NTYPES]
    cdef int tri[NTRIPLES]
    cdef int r[5]
    cdef int s, i, t1, t2, t3, t4, r1, r2, nt = 0, ntri = 0, ia, ib, ic, idd
    cdef int run2, run3, run4
    cdef int64_t w1, w2, w3, w4
    cdef uint8_t c12, c123, c
    cdef uint16_t v, f
    cdef uint64_t avail = deck
    cdef const uint16_t* row
    for i in range(5):
        avail &= ~((<uint64_t>1) << board[i])
        r[i] = board[i] >> 2
    row = board_pair + sorted_index(r, 5) * NPAIRS
    s = flush_suit(board[0], board[1], board[2], board[3], board[4])
    if s >= 0:
        ntri = suited_triples(board, s, tri)
    type_counts(avail, s, n)
    for t1 in range(NTYPES):
        if n[t1]:
            tl[nt] = t1
            nt += 1
    for ia in range(nt):
        t1 = tl[ia]
        r1 = type_rank(t1)
        for ib in range(ia, nt):
            t2 = tl[ib]
            r2 = type_rank(t2)
            v = row[pair_index_any(r1, r2)]
            if t1 >= 13 and t2 > t1:  # two cards of the flush suit
                for i in range(ntri):
                    f = flush[tri[i] | (1 << r1) | (1 << r2)]
                    v = max(v, f)
            pc[t1][t2] = category[v]
            pc[t2][t1] = category[v]
    for i in range(NCATEGORIES):
        out[i] = 0
    # multisets t1 <= t2 <= t3 (<= t4) of types; w = number of holdings of the multiset:
    # a type repeated run + 1 times contributes C(n, run + 1) = C(n, run) (n - run) / (run + 1)
    for ia in range(nt):
        t1 = tl[ia]
        w1 = n[t1]
        for ib in range(ia, nt):
            t2 = tl[ib]
            run2 = 1 if ib == ia else 0
            w2 = w1 * (n[t2] - run2) // (run2 + 1)
            if w2 <= 0:
                continue
            c12 = pc[t1][t2]
            for ic in range(ib, nt):
                t3 = tl[ic]
                run3 = run2 + 1 if ic == ib else 0
                w3 = w2 * (n[t3] - run3) // (run3 + 1)
                if w3 <= 0:
                    continue
                c123 = max(c12, max(pc[t1][t3], pc[t2][t3]))
                if k == 3:
                    out[c123] += w3
                    continue
                for idd in range(ic, nt):
                    t4 = tl[idd]
                    run4 = run3 + 1 if idd == ic else 0
                    w4 = w3 * (n[t4] - run4) // (run4 + 1)
                    if w4 <= 0:
                        continue
                    c = max(c123, max(pc[t1][t4], max(pc[t2][t4], pc[t3][t4])))
                    out[c] += w4


def category_counts(int k, const int8_t[:, ::1] boards, uint64_t deck,
                    const uint16_t[:, ::1] board_pair, const uint16_t[::1] flush,
                    const uint8_t[::1] category, int threads=1):
    """Per board (rows of 5 cards), the holdings of k = 3 or 4 cards from the rest of the
    deck (bit c of ``deck`` set for each card c) by final category: int64[boards, 10]."""
    cdef Py_ssize_t nb = boards.shape[0], i
    if k not in (3, 4) or boards.shape[1] != 5 or board_pair.shape[1] != NPAIRS:
        raise ValueError("category_counts: 3 or 4 hole cards and rows of 5 board cards")
    out = np.zeros((nb, NCATEGORIES), dtype=np.int64)
    cdef int64_t[:, ::1] res = out
    if nb == 0:
        return out
    for i in prange(nb, nogil=True, num_threads=threads, schedule="dynamic", chunksize=64):
        board_categories(k, &boards[i, 0], deck, &board_pair[0, 0], &flush[0], &category[0], &res[i, 0])
    return out
