# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Omaha core (compiled, nogil): batch high and 8-or-better low evaluation, and exact
equity over every board completion (final-hand category counts are in ``distribution.pyx``).

Tables come from ``analysis.hands.lookup`` and ``analysis.omaha4.evaluators``;
``analysis.omaha4.evaluators`` and ``analysis.omaha4.equity`` are the public API.
Hands use exactly 2 hole cards and exactly 3 board cards, for high and for low alike.

Evaluation: the high is the best over the hole pairs of board_pair[board ranks, pair
ranks] (the best over the 10 board triples, precomputed), or a flush when a suit has 3+
board cards and 2+ hole cards; the low is one lookup of (the board's set of low ranks,
the hole's set of low ranks), exact because a low is made of distinct ranks.

Equity: for every hand and every 3-card subset {a < b < c} of the cards that can be on
the board, the best high (and low) value the hand makes with that triple is computed
once; a board's value is then the best over its 10 triples. Boards are enumerated in
nested loops over card indices, so a board shares the triples of its first 3 and 4 cards
with its neighbours and only the 6 triples with its last card are looked up per board.
Each board adds 1 to a histogram indexed by (set of best high hands, set of best low
hands), from which every share, frequency and chip split follows exactly.
"""

from cython.parallel cimport prange, parallel, threadid
from libc.stdint cimport uint8_t, uint16_t, int8_t, int64_t

import numpy as np

from poker cimport MS_WEIGHT, NPAIRS, pair_index_any, sorted_index

cdef enum:
    ROW_BLOCK = 16           # rows whose table reads are issued together
    MAX_HANDS = 6
    HAND_SETS = 1 << MAX_HANDS        # bit sets of hands
    NOUTCOMES = HAND_SETS * HAND_SETS  # equity histogram entries: (best high, best low) sets


cdef extern from "omaha.h":
    int rank5_index "omaha_rank5_index"(int r0, int r1, int r2, int r3, int r4) nogil
    void sort_ranks "omaha_sort_ranks"(int* r, int n) nogil
    int count_trailing_zeros "__builtin_ctz"(unsigned int x) nogil


cdef inline uint16_t flush_of(int board_mask, int hole_mask, const uint16_t* flush) noexcept nogil:
    """Best flush (or straight flush) of 2 ranks of hole_mask and 3 of board_mask (one suit)."""
    cdef int b[5]
    cdef int h[6]
    cdef int nb = 0, nh = 0, r, i, j, x, y, z
    cdef uint16_t best = 0
    for r in range(13):
        if board_mask >> r & 1:
            b[nb] = 1 << r
            nb += 1
        if hole_mask >> r & 1:
            h[nh] = 1 << r
            nh += 1
    for i in range(nh):
        for j in range(i + 1, nh):
            for x in range(nb):
                for y in range(x + 1, nb):
                    for z in range(y + 1, nb):
                        best = max(best, flush[h[i] | h[j] | b[x] | b[y] | b[z]])
    return best


cdef inline uint16_t suited_high(const int8_t* hole, int k, const int8_t* board,
                                 const uint16_t* flush) noexcept nogil:
    """Best flush or straight flush of exactly 2 hole and 3 board cards; 0 if none."""
    cdef int i, s, suits = 0, board_mask = 0, hole_mask = 0
    # a flush needs a suit with 3+ board cards (4-bit counters per suit: 3 + 5 sets bit 3)
    for i in range(5):
        suits += 1 << (4 * (board[i] & 3))
    suits = (suits + 0x5555) & 0x8888
    if suits == 0:
        return 0
    s = count_trailing_zeros(suits) >> 2
    for i in range(5):
        board_mask |= ((board[i] & 3) == s) << (board[i] >> 2)
    for i in range(k):
        hole_mask |= ((hole[i] & 3) == s) << (hole[i] >> 2)
    if hole_mask & (hole_mask - 1) == 0:  # fewer than 2 hole cards of the suit
        return 0
    return flush_of(board_mask, hole_mask, flush)


cdef void high_rows(const int8_t* hole, int k, const int8_t* board, Py_ssize_t n,
                    const uint16_t* board_pair, const uint16_t* flush, uint16_t* out) noexcept nogil:
    """Best high of exactly 2 of the k hole cards and 3 of the 5 board cards, for n rows:
    the best over the hole pairs of board_pair[board ranks, pair ranks], or a flush.

    The table (1.1 MB) does not stay in a core's fastest caches, so rows go in blocks:
    all table offsets of a block first, then the reads, which are then independent of
    each other and overlap (measured: about 20% faster than row by row).
    """
    cdef int offsets[ROW_BLOCK][15]
    cdef int r[6]
    cdef int pairs = k * (k - 1) // 2, m, i, a, b, q, row, base
    cdef Py_ssize_t start = 0
    cdef const int8_t* h
    cdef const int8_t* d
    cdef uint16_t best
    while start < n:
        m = <int>min(<Py_ssize_t>ROW_BLOCK, n - start)
        for i in range(m):
            h = hole + (start + i) * k
            d = board + (start + i) * 5
            row = NPAIRS * rank5_index(d[0] >> 2, d[1] >> 2, d[2] >> 2, d[3] >> 2, d[4] >> 2)
            for a in range(k):
                r[a] = h[a] >> 2
            sort_ranks(r, k)
            q = 0
            # the pair (r[a], r[b]), a < b, has multiset index r[a] + C(r[b] + 1, 2), i.e.
            # pair_index(r[a], r[b]) read from the weight table: measured 3-4% faster here
            for b in range(1, k):
                base = row + MS_WEIGHT[1][r[b]]
                for a in range(b):
                    offsets[i][q] = base + r[a]
                    q += 1
        for i in range(m):
            best = suited_high(hole + (start + i) * k, k, board + (start + i) * 5, flush)
            for q in range(pairs):
                best = max(best, board_pair[offsets[i][q]])
            out[start + i] = best
        start += m


cdef inline uint8_t low_of(const int8_t* hole, int k, const int8_t* board,
                           const uint8_t* low_best, const uint8_t* low_bit) noexcept nogil:
    """Best 8-or-better low of exactly 2 of the k hole cards and 3 of the board cards."""
    cdef int i, hm = 0, bm = 0
    for i in range(5):
        bm |= low_bit[board[i] >> 2]
    for i in range(k):
        hm |= low_bit[hole[i] >> 2]
    return low_best[bm * 256 + hm]


def high_batch(const int8_t[:, ::1] hole, const int8_t[:, ::1] board,
               const uint16_t[:, ::1] board_pair, const uint16_t[::1] flush, int threads=1):
    """High strength of each row (hole cards, 5 board cards)."""
    cdef Py_ssize_t n = hole.shape[0]
    cdef int k = hole.shape[1]
    if board.shape[0] != n or board.shape[1] != 5 or k < 2 or k > 6 or board_pair.shape[1] != NPAIRS:
        raise ValueError("high_batch: rows of 2..6 hole cards and 5 board cards, as many of each")
    out = np.empty(n, dtype=np.uint16)
    cdef uint16_t[::1] res = out
    cdef Py_ssize_t chunks = (n + 1023) // 1024, c
    for c in prange(chunks, nogil=True, num_threads=threads, schedule="static"):
        high_rows(&hole[c * 1024, 0], k, &board[c * 1024, 0], min(<Py_ssize_t>1024, n - c * 1024),
                  &board_pair[0, 0], &flush[0], &res[c * 1024])
    return out


def low_batch(const int8_t[:, ::1] hole, const int8_t[:, ::1] board,
              const uint8_t[::1] low_best, const uint8_t[::1] low_bit, int threads=1):
    """8-or-better low value of each row (0 = no low)."""
    cdef Py_ssize_t n = hole.shape[0], i
    cdef int k = hole.shape[1]
    if board.shape[0] != n or board.shape[1] != 5 or k < 2 or k > 6:
        raise ValueError("low_batch: rows of 2..6 hole cards and 5 board cards, as many of each")
    if low_best.shape[0] != 65536 or low_bit.shape[0] != 13:
        raise ValueError("low_batch: low_best needs 256 x 256 entries and low_bit 13")
    out = np.empty(n, dtype=np.uint8)
    cdef uint8_t[::1] res = out
    for i in prange(n, nogil=True, num_threads=threads, schedule="static"):
        res[i] = low_of(&hole[i, 0], k, &board[i, 0], &low_best[0], &low_bit[0])
    return out


# ---------------------------------------------------------------------------------------
# exact equity

cdef struct Equity:
    int n                    # hands
    int m                    # cards that can be on the board (the known board cards first)
    int nb                   # known board cards
    bint hilo
    const uint16_t* high     # [(pair(a, b) * m + c) * n + hand]: value with triple a < b < c
    const uint8_t* low


cdef inline Py_ssize_t pair_row(int a, int b, int m, int n) noexcept nogil:
    """Offset of the row of card pair a < b in the triple tables."""
    return (<Py_ssize_t>(a + b * (b - 1) // 2)) * m * n


cdef inline int slot_stop(const Equity* e, int slot) noexcept nogil:
    """One past the last card index of a board slot (known cards sit in their own slot)."""
    return slot + 1 if slot < e.nb else e.m - 4 + slot


ctypedef fused value_t:
    uint16_t                 # high values
    uint8_t                  # low values


cdef inline value_t with_triples(const value_t* values, value_t v,
                                 Py_ssize_t ra, Py_ssize_t rb, Py_ssize_t rc) noexcept nogil:
    """The best of v and values[ra], values[rb], values[rc]: a hand's value once 3 more
    triples (pair rows ra, rb, rc with the card that values points at) are on the board."""
    return max(v, max(values[ra], max(values[rb], values[rc])))


cdef inline int best_hands(const value_t* values, const value_t* prev, int n,
                           Py_ssize_t r01, Py_ssize_t r02, Py_ssize_t r12,
                           Py_ssize_t r03, Py_ssize_t r13, Py_ssize_t r23) noexcept nogil:
    """Bit set of the hands with the best value on a board: for hand h, the best of prev[h]
    and its values with the 6 triples of the last card (values points at it, hand 0).
    0 when that best is 0 (no hand makes a low; a high is never 0)."""
    cdef value_t val[MAX_HANDS]
    cdef value_t best = 0
    cdef int h, hands = 0
    for h in range(n):
        val[h] = with_triples(values + h, with_triples(values + h, prev[h], r01, r02, r12), r03, r13, r23)
        best = max(best, val[h])
    if value_t is uint16_t or best:
        for h in range(n):
            if val[h] == best:
                hands |= 1 << h
    return hands


cdef inline int outcome_index(int high, int low) noexcept nogil:
    """Equity histogram entry of the boards where the hands in bit set high tie for the
    best high and those in low for the best low (outcome_sets decodes it)."""
    return high | low << MAX_HANDS


cdef void boards_from(const Equity* e, int x0, int64_t* hist) noexcept nogil:
    """Add every board whose first card is x0 to the histogram."""
    cdef int n = e.n, x1, x2, x3, x4, h, s1 = slot_stop(e, 1), s2 = slot_stop(e, 2)
    cdef int s3 = slot_stop(e, 3), s4 = slot_stop(e, 4), hmask, lmask
    cdef uint16_t hi2[MAX_HANDS]
    cdef uint16_t hi3[MAX_HANDS]
    cdef uint8_t lo2[MAX_HANDS]
    cdef uint8_t lo3[MAX_HANDS]
    cdef Py_ssize_t r01, r02, r12, r03, r13, r23, o
    for x1 in range(x0 + 1, s1):
        r01 = pair_row(x0, x1, e.m, n)
        for x2 in range(x1 + 1, s2):
            r02 = pair_row(x0, x2, e.m, n)
            r12 = pair_row(x1, x2, e.m, n)
            for h in range(n):
                hi2[h] = e.high[r01 + x2 * n + h]
                if e.hilo:
                    lo2[h] = e.low[r01 + x2 * n + h]
            for x3 in range(x2 + 1, s3):
                r03 = pair_row(x0, x3, e.m, n)
                r13 = pair_row(x1, x3, e.m, n)
                r23 = pair_row(x2, x3, e.m, n)
                o = x3 * n
                # high and low in one pass over the hands: two passes measured 4% slower
                for h in range(n):
                    hi3[h] = with_triples(e.high + o + h, hi2[h], r01, r02, r12)
                    if e.hilo:
                        lo3[h] = with_triples(e.low + o + h, lo2[h], r01, r02, r12)
                for x4 in range(x3 + 1, s4):
                    o = x4 * n
                    hmask = best_hands(e.high + o, hi3, n, r01, r02, r12, r03, r13, r23)
                    lmask = best_hands(e.low + o, lo3, n, r01, r02, r12, r03, r13, r23) if e.hilo else 0
                    hist[outcome_index(hmask, lmask)] += 1


cdef void triple_values(const int8_t* hands, int n, const int8_t* cards, int m, bint hilo,
                        const uint16_t* omaha_pair, const uint16_t* flush,
                        const uint8_t* low_best, const uint8_t* low_bit,
                        uint16_t* high, uint8_t* low) noexcept nogil:
    """Fill the triple tables: each hand's best high and low with each triple a < b < c."""
    cdef int pidx[MAX_HANDS][6]
    cdef int psuit[MAX_HANDS][6]
    cdef int pmask[MAX_HANDS][6]
    cdef int hlow[MAX_HANDS]
    cdef int r3[3]
    cdef int h, i, j, q, a, b, c, s, tidx, tmask, tlow
    cdef const int8_t* hole
    cdef uint16_t v, f
    cdef Py_ssize_t at
    for h in range(n):
        hole = hands + 4 * h
        hlow[h] = 0
        q = 0
        for i in range(4):
            hlow[h] |= low_bit[hole[i] >> 2]
            for j in range(i + 1, 4):
                pidx[h][q] = pair_index_any(hole[i] >> 2, hole[j] >> 2)
                psuit[h][q] = (hole[i] & 3) if (hole[i] & 3) == (hole[j] & 3) else -1
                pmask[h][q] = (1 << (hole[i] >> 2)) | (1 << (hole[j] >> 2))
                q += 1
    for b in range(1, m):
        for a in range(b):
            for c in range(b + 1, m):
                r3[0] = cards[a] >> 2
                r3[1] = cards[b] >> 2
                r3[2] = cards[c] >> 2
                tmask = (1 << r3[0]) | (1 << r3[1]) | (1 << r3[2])
                tlow = low_bit[r3[0]] | low_bit[r3[1]] | low_bit[r3[2]]
                tidx = sorted_index(r3, 3) * NPAIRS
                s = cards[a] & 3
                if (cards[b] & 3) != s or (cards[c] & 3) != s:
                    s = -1
                at = pair_row(a, b, m, n) + c * n
                for h in range(n):
                    v = 0
                    for q in range(6):
                        v = max(v, omaha_pair[tidx + pidx[h][q]])
                        if s >= 0 and psuit[h][q] == s:
                            f = flush[tmask | pmask[h][q]]
                            v = max(v, f)
                    high[at + h] = v
                    if hilo:
                        low[at + h] = low_best[tlow * 256 + hlow[h]]


def equity_histogram(const int8_t[:, ::1] hands, const int8_t[::1] cards, int known, bint hilo,
                     const uint16_t[:, ::1] omaha_pair, const uint16_t[::1] flush,
                     const uint8_t[::1] low_best, const uint8_t[::1] low_bit, int threads=1):
    """Board counts of every (best high hands, best low hands) outcome.

    ``hands``: 2..6 rows of 4 hole cards. ``cards``: the cards that can be on the board,
    the ``known`` board cards first, then the undealt cards. Every board of the known
    cards plus 5 - known undealt ones is enumerated once. Returns int64[4096]: entry
    ``high | low << 6`` counts the boards where the hands in bit set ``high`` tie for the
    best high and those in ``low`` for the best low (``low`` = 0: no low qualifies;
    always 0 unless ``hilo``); ``outcome_sets`` decodes it.
    """
    cdef int n = hands.shape[0], m = cards.shape[0], x0, stop0, t
    if hands.shape[1] != 4 or not 2 <= n <= MAX_HANDS:
        raise ValueError("equity_histogram: 2 to 6 hands of 4 hole cards")
    if not 0 <= known <= 5 or m < 5 or m > 52:
        raise ValueError("equity_histogram: 0..5 known board cards and at least 5 board candidates")
    if low_best.shape[0] != 65536 or low_bit.shape[0] != 13 or omaha_pair.shape[1] != NPAIRS:
        raise ValueError("equity_histogram: table shapes")
    high = np.zeros(m * (m - 1) // 2 * m * n, dtype=np.uint16)
    low = np.zeros(high.shape[0] if hilo else 1, dtype=np.uint8)
    cdef uint16_t[::1] hv = high
    cdef uint8_t[::1] lv = low
    triple_values(&hands[0, 0], n, &cards[0], m, hilo, &omaha_pair[0, 0], &flush[0],
                  &low_best[0], &low_bit[0], &hv[0], &lv[0])
    cdef Equity e
    e.n = n
    e.m = m
    e.nb = known
    e.hilo = hilo
    e.high = &hv[0]
    e.low = &lv[0]
    threads = max(1, threads)
    hist = np.zeros((threads, NOUTCOMES), dtype=np.int64)
    cdef int64_t[:, ::1] hs = hist
    stop0 = slot_stop(&e, 0)
    with nogil, parallel(num_threads=threads):
        for x0 in prange(stop0, schedule="dynamic", chunksize=1):
            boards_from(&e, x0, &hs[threadid(), 0])
    return hist.sum(axis=0)


def outcome_sets(const int64_t[::1] hist):
    """The nonzero entries of an ``equity_histogram`` as {(high, low): boards}, with
    ``high`` and ``low`` the bit sets of the hands that tie for the best high and low."""
    if hist.shape[0] != NOUTCOMES:
        raise ValueError(f"outcome_sets: an equity histogram has {NOUTCOMES} entries, got {hist.shape[0]}")
    cdef int i
    out = {}
    for i in range(NOUTCOMES):
        if hist[i]:
            out[i & (HAND_SETS - 1), i >> MAX_HANDS] = hist[i]
    return out
