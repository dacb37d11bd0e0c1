# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Counting core of one state with more information (compiled, nogil, OpenMP over states).

A state here is the player's hole cards and the flop plus what else he knows: dealer cards
he saw (0 to k), the turn card if it was shown early, and dead cards (other seats' hole
cards shown by partners). Its completions are every turn and river still to come (or
only the river) and every dealer holding that contains the seen cards, from the cards
nobody has seen; the counts are kept by (player's final category x dealer result), the
40 columns of the store.

Per board, the value of every pair of card *types* (``classes.pxd``) is computed once;
from it the value of every pair of cards still in play (a small int16 matrix). A dealer
holding's value is then the best of its pairs (Omaha: exactly 2 hole cards; Hold'em: the
pair is the holding), so the unseen part of the dealer's hand is enumerated directly:
for three unseen cards the innermost loop is a vector max over a row pair of the matrix.
"""

from cython.parallel cimport prange, parallel
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free

import numpy as np

from classes cimport Board, Game, make_game, pair_values
from poker cimport NCARDS, NCOLS, NTYPES, card_type, flush_suit, type_counts

cdef extern from "informed.h":
    void count_row "informed_count_row"(const int16_t* ri, const int16_t* rj, int16_t a, int lo, int hi,
                                        int16_t q, int16_t v, int* cq, int* cv, int* ce) noexcept nogil

cdef enum:
    MAXR = 48                    # cards still in play, at most (rows of the pair matrix)


cdef inline int pv_of(const Board* w, int t1, int t2) noexcept nogil:
    """Value of a pair of types in either order."""
    return w.pv[t1 * NTYPES + t2] if t1 <= t2 else w.pv[t2 * NTYPES + t1]


cdef int holding_value(const Board* w, const int* types, int k) noexcept nogil:
    """Best value of a holding of k (2 or 3) cards of the given types."""
    cdef int v = pv_of(w, types[0], types[1])
    if k == 3:
        v = max(v, max(pv_of(w, types[0], types[2]), pv_of(w, types[1], types[2])))
    return v


cdef void count_board(const Game* g, const int* board, const int* hole_types, const int* seen, int m,
                      const int* rest, int nr, Board* w, uint32_t* out) noexcept nogil:
    """Add one board's counts: the player's hand against every dealer holding made of the
    seen cards and k - m of the ``rest`` cards."""
    cdef int16_t P[MAXR * MAXR]
    cdef int16_t E[MAXR]
    cdef int rt[MAXR]
    cdef int st[3]
    cdef int s = flush_suit(board[0], board[1], board[2], board[3], board[4])
    cdef uint64_t off = g.deck
    cdef int i, j, k = g.k, u = g.k - m, v, q = g.qualifier, cq = 0, cv = 0, ce = 0, total = 0, base = 0
    cdef int val, cat
    for i in range(5):
        off &= ~((<uint64_t>1) << board[i])
    type_counts(off, s, w.n)
    pair_values(g, board, s, w)
    v = holding_value(w, hole_types, k)
    for i in range(nr):
        rt[i] = card_type(rest[i], s)
    for i in range(m):
        st[i] = card_type(seen[i], s)
    for i in range(nr):
        for j in range(i + 1, nr):
            P[i * MAXR + j] = <int16_t>pv_of(w, rt[i], rt[j])
            P[j * MAXR + i] = P[i * MAXR + j]
    # E[i]: best pair of rest card i with a seen card; base: best pair among the seen cards
    for i in range(nr):
        E[i] = 0
        for j in range(m):
            E[i] = max(E[i], <int16_t>pv_of(w, st[j], rt[i]))
    for i in range(m):
        for j in range(i + 1, m):
            base = max(base, pv_of(w, st[i], st[j]))
    if u == 0:
        total = 1
        cq = base < q
        cv = base < v
        ce = base <= v
    elif u == 1:
        total = nr
        for i in range(nr):
            val = max(base, E[i])
            cq += val < q
            cv += val < v
            ce += val <= v
    elif u == 2:
        total = nr * (nr - 1) // 2
        for i in range(nr):
            for j in range(i + 1, nr):
                val = P[i * MAXR + j] if k == 2 else max(P[i * MAXR + j], max(E[i], E[j]))
                cq += val < q
                cv += val < v
                ce += val <= v
    else:
        total = nr * (nr - 1) * (nr - 2) // 6
        for i in range(nr):
            for j in range(i + 1, nr):
                count_row(&P[i * MAXR], &P[j * MAXR], P[i * MAXR + j], j + 1, nr, q, v, &cq, &cv, &ce)
    cat = 4 * g.category[v]
    out[cat] += cq
    if v >= q:
        out[cat + 1] += cv - cq
        out[cat + 2] += ce - cv
        out[cat + 3] += total - ce
    else:
        out[cat + 3] += total - cq


cdef void count_state(const Game* g, const int8_t* hole, const int8_t* flop, const int8_t* seen_cards, int turn,
                      uint64_t dead, Board* w, uint32_t* out) noexcept nogil:
    """All the completions of one state."""
    cdef int cards[MAXR]
    cdef int rest[MAXR]
    cdef int seen[3]
    cdef int hole_types[3]
    cdef int board[5]
    cdef int n = 0, m = 0, nr, i, j, x, c, s
    cdef uint64_t used = dead
    for i in range(g.k):
        used |= (<uint64_t>1) << hole[i]
    for i in range(3):
        board[i] = flop[i]
        used |= (<uint64_t>1) << flop[i]
    for i in range(g.k):
        if seen_cards[i] >= 0:
            seen[m] = seen_cards[i]
            used |= (<uint64_t>1) << seen_cards[i]
            m += 1
    if turn >= 0:
        used |= (<uint64_t>1) << turn
    for c in range(NCARDS):
        if (g.deck >> c) & 1 and not (used >> c) & 1:
            cards[n] = c
            n += 1
    for i in range(NCOLS):
        out[i] = 0
    for i in range(n if turn < 0 else 1):
        for j in range(i + 1 if turn < 0 else 0, n):
            board[3] = cards[i] if turn < 0 else turn
            board[4] = cards[j]
            nr = 0
            for x in range(n):
                if cards[x] != board[3] and cards[x] != board[4]:
                    rest[nr] = cards[x]
                    nr += 1
            s = flush_suit(board[0], board[1], board[2], board[3], board[4])
            for x in range(g.k):
                hole_types[x] = card_type(hole[x], s)
            count_board(g, board, hole_types, seen, m, rest, nr, w, out)


def count_informed(int k, bint omaha, int qualifier, uint64_t deck,
                   const int8_t[:, ::1] holes, const int8_t[:, ::1] flops, const int8_t[:, ::1] seen,
                   const int8_t[::1] turns, const uint64_t[::1] dead,
                   const uint16_t[:, ::1] pair_table, const uint16_t[::1] flush, const uint8_t[::1] category,
                   uint32_t[:, ::1] out, int threads=1):
    """Fill ``out`` (one row of 40 counts per state) with the completions of each state:
    hole cards ``holes[i]``, flop ``flops[i]``, seen dealer cards ``seen[i]`` (k entries,
    -1 for none), turn ``turns[i]`` (-1: still to come) and ``dead[i]`` (bit c set for each
    card c that is out of play). The caller checks that the cards are distinct and in the
    deck. States are shared among ``threads`` OpenMP threads."""
    cdef Py_ssize_t n = holes.shape[0], i
    if k not in (2, 3) or holes.shape[1] != k or flops.shape[1] != 3 or seen.shape[1] != k:
        raise ValueError("count_informed: rows of k hole cards, 3 flop cards and k seen cards")
    if flops.shape[0] != n or seen.shape[0] != n or turns.shape[0] != n or dead.shape[0] != n:
        raise ValueError("count_informed: one flop, seen row, turn and dead set per state")
    if out.shape[0] != n or out.shape[1] != NCOLS:
        raise ValueError("count_informed: out needs a row of 40 per state")
    if n == 0:
        return
    cdef Game g = make_game(k, omaha, qualifier, deck, 0, &pair_table[0, 0], &flush[0], &category[0])
    cdef Board* w
    cdef int failed[1]
    failed[0] = 0
    with nogil, parallel(num_threads=max(1, threads)):
        w = <Board*>calloc(1, sizeof(Board))  # only its type counts and pair values are used
        if w == NULL:
            failed[0] = 1
        for i in prange(n, schedule="dynamic", chunksize=1):
            if w != NULL:
                count_state(&g, &holes[i, 0], &flops[i, 0], &seen[i, 0], turns[i], dead[i], w, &out[i, 0])
        free(w)
    if failed[0]:
        raise MemoryError("count_informed: could not allocate a worker's buffers")
