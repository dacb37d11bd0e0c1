# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Exact counting core of the Casino Omaha family (compiled, nogil, OpenMP over flops).

For every decision state (player's hole cards + flop) it counts the completions (turn and
river, then the dealer's hole cards) by player final category x dealer result:
dealer does not qualify / player wins / tie / dealer wins. It knows nothing of pay tables.

The method, per board (flop + turn + river):

* Card *types*: a card's type is its rank, plus 13 if it is of the board's flush suit
  (the one suit with 3+ board cards, if any). Holdings whose cards have the same types
  have the same value, so values are computed once per type multiset (a *class*), not
  per holding: at most 3,276 classes instead of 16,215 holdings.
* Dealer counts by inclusion-exclusion over the player's cards: the dealer holdings
  disjoint from the player's cards h with value < v are
  G(<v) - sum_x C_x(<v) + sum_pairs P_p(<v) - [h itself], where C and P count holdings
  that contain a given card or pair; cards of one type are interchangeable, so C and P
  are kept per type and per type pair. One sweep over the classes sorted by value gives
  "below", "equal" and "not qualifying" for every class.
* Turn/river pairs that the flop's suit symmetries map onto each other give the same
  class results; those are computed once per orbit (``tr_new_orbit``), and only the
  per-holding accumulation runs for every pair.
"""

from cython.parallel cimport prange, parallel
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memset
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int8_t, int64_t

from poker cimport (NCATEGORIES, NPAIRS, NTRIPLES, NTYPES, flush_suit, pair_index, pair_index_any, sorted_index,
                    type_counts, type_rank)


cdef extern from *:
    """
    #include <string.h>
    typedef unsigned int enum_v4u __attribute__((vector_size(16)));
    /* o[0..3] += r[0..3] where keep is all ones, unchanged where keep is 0: one vector add */
    static inline void enum_add4_masked(unsigned int* o, const unsigned int* r, unsigned int keep) {
        enum_v4u acc, add, mask = {keep, keep, keep, keep};
        memcpy(&acc, o, 16);
        memcpy(&add, r, 16);
        acc += add & mask;
        memcpy(o, &acc, 16);
    }
    """
    void add4_masked "enum_add4_masked"(uint32_t* o, const uint32_t* r, uint32_t keep) noexcept nogil

cdef enum:
    NCLASSES = 3276          # multisets of 3 of the NTYPES types
    NCOLS = NCATEGORIES * 4  # category x 4 dealer results
    DUMMY_C = NTYPES         # C slot that stays 0 (unused update / query slots)
    DUMMY_P = NTYPES * NTYPES  # P slot that stays 0
    NO_FLUSH = 4             # flush-suit scenario of a board with no 3 cards of a suit


cdef struct Game:
    int k                    # hole cards per hand: 3 (Omaha style) or 2 (Hold'em style)
    bint omaha               # exactly 2 hole + 3 board; else best 5 of the 7
    int qualifier            # strength of the weakest qualifying dealer hand
    uint64_t deck            # bit c set for every card c of the deck
    int dealer_total         # dealer holdings per board and player holding
    const uint16_t* pair_table
    const uint16_t* flush
    const uint8_t* category


cdef struct Cls:
    int value
    int index                # multiset index of the class's types
    int w                    # holdings in the class
    int qc[3]                # C slots of the query (the 3 or 2 cards' types)
    int qp[3]                # P slots of the query (the card pairs' type pairs)
    int uc[3]                # C slots updated when the class is passed, and by how much
    int ucv[3]
    int up[3]                # P slots updated, and by how much
    int upv[3]
    int below                # dealer holdings disjoint from one holding: value < this
    int le                   # ... value <= this
    int nq                   # ... value below the qualifier


cdef struct Result:
    uint32_t r[4]            # per holding: not qualifying, player wins, tie, dealer wins


cdef struct Work:
    Cls* cls
    int* order
    int* tmp
    Result* res
    uint8_t* resoff          # 4 x the category of each class: its columns in a state's row
    uint64_t* hmask
    uint16_t* hcls           # 5 scenarios x holdings: class index of each holding
    int C[NTYPES + 1]
    int P[NTYPES * NTYPES + 1]
    int pv[NTYPES * NTYPES]
    int n[NTYPES]


cdef inline int type_index3(int a, int b, int c) noexcept nogil:
    """Multiset index of types a <= b <= c."""
    return pair_index(a, b) + c * (c + 1) * (c + 2) // 6


cdef void pair_values(const Game* g, const int* board, int s, Work* w) noexcept nogil:
    """w.pv[t1 * NTYPES + t2]: value of a 2-card holding of types t1 <= t2 (Hold'em), or of
    the best hand using both as the 2 hole cards (Omaha)."""
    cdef int rp[NPAIRS]
    cdef int tri[NTRIPLES]
    cdef int smask[NTRIPLES]
    cdef int r3[3]
    cdef int r5[5]
    cdef int ntri = 0, nsuited = 0, a, b, c, p, t, v, m, t1, t2, r1, r2, f, ks = 0, bsm = 0, cnt
    if g.omaha:
        for a in range(5):
            for b in range(a + 1, 5):
                for c in range(b + 1, 5):
                    r3[0] = board[a] >> 2
                    r3[1] = board[b] >> 2
                    r3[2] = board[c] >> 2
                    tri[ntri] = sorted_index(r3, 3) * NPAIRS
                    ntri += 1
                    if s >= 0 and (board[a] & 3) == s and (board[b] & 3) == s and (board[c] & 3) == s:
                        smask[nsuited] = (1 << (board[a] >> 2)) | (1 << (board[b] >> 2)) | (1 << (board[c] >> 2))
                        nsuited += 1
        for p in range(NPAIRS):
            m = 0
            for t in range(NTRIPLES):
                v = g.pair_table[tri[t] + p]
                if v > m:
                    m = v
            rp[p] = m
    else:
        for a in range(5):
            r5[a] = board[a] >> 2
            if s >= 0 and (board[a] & 3) == s:
                ks += 1
                bsm |= 1 << (board[a] >> 2)
        b = sorted_index(r5, 5) * NPAIRS
        for p in range(NPAIRS):
            rp[p] = g.pair_table[b + p]
    for t1 in range(NTYPES):
        if w.n[t1] == 0:
            continue
        r1 = type_rank(t1)
        for t2 in range(t1, NTYPES):
            if w.n[t2] == 0:
                continue
            r2 = type_rank(t2)
            v = rp[pair_index_any(r1, r2)]
            if g.omaha:
                if t1 >= 13 and t2 > t1:
                    for t in range(nsuited):
                        f = g.flush[smask[t] | (1 << r1) | (1 << r2)]
                        if f > v:
                            v = f
            elif s >= 0:
                cnt = ks + (t1 >= 13) + (t2 >= 13)
                if cnt >= 5:
                    m = bsm
                    if t1 >= 13:
                        m |= 1 << r1
                    if t2 >= 13:
                        m |= 1 << r2
                    f = g.flush[m]
                    if f > v:
                        v = f
            w.pv[t1 * NTYPES + t2] = v


cdef inline void set3(int* x, int a, int b, int c) noexcept nogil:
    x[0] = a
    x[1] = b
    x[2] = c


cdef inline void set_slots(Cls* c, int c0, int v0, int c1, int v1, int c2, int v2,
                           int p0, int pv0, int p1, int pv1, int p2, int pv2) noexcept nogil:
    set3(c.uc, c0, c1, c2)
    set3(c.ucv, v0, v1, v2)
    set3(c.up, p0, p1, p2)
    set3(c.upv, pv0, pv1, pv2)


cdef int list_classes(const Game* g, Work* w) noexcept nogil:
    """Fill w.cls with every class of holdings that can be dealt; return their number."""
    cdef int tl[NTYPES]
    cdef int nt = 0, nc = 0, ia, ib, ic, t1, t2, t3, n1, n2, n3, v12
    cdef Cls* c
    for t1 in range(NTYPES):
        if w.n[t1] > 0:
            tl[nt] = t1
            nt += 1
    for ia in range(nt):
        t1 = tl[ia]
        n1 = w.n[t1]
        for ib in range(ia, nt):
            t2 = tl[ib]
            n2 = w.n[t2]
            if ib == ia and n1 < 2:
                continue
            if g.k == 2:
                c = &w.cls[nc]
                nc += 1
                c.value = w.pv[t1 * NTYPES + t2]
                c.index = pair_index(t1, t2)
                set3(c.qc, t1, t2, DUMMY_C)
                set3(c.qp, DUMMY_P, DUMMY_P, DUMMY_P)
                if ib > ia:
                    c.w = n1 * n2
                    set_slots(c, t1, n2, t2, n1, DUMMY_C, 0, DUMMY_P, 0, DUMMY_P, 0, DUMMY_P, 0)
                else:
                    c.w = n1 * (n1 - 1) // 2
                    set_slots(c, t1, n1 - 1, DUMMY_C, 0, DUMMY_C, 0, DUMMY_P, 0, DUMMY_P, 0, DUMMY_P, 0)
                continue
            v12 = w.pv[t1 * NTYPES + t2]
            for ic in range(ib, nt):
                t3 = tl[ic]
                n3 = w.n[t3]
                if ic == ib and (n2 < 2 if ib > ia else n1 < 3):
                    continue
                c = &w.cls[nc]
                nc += 1
                c.value = max(v12, max(w.pv[t1 * NTYPES + t3], w.pv[t2 * NTYPES + t3]))
                c.index = type_index3(t1, t2, t3)
                set3(c.qc, t1, t2, t3)
                set3(c.qp, t1 * NTYPES + t2, t1 * NTYPES + t3, t2 * NTYPES + t3)
                # holdings of the class that contain one given card / pair of each type
                if ia < ib and ib < ic:
                    c.w = n1 * n2 * n3
                    set_slots(c, t1, n2 * n3, t2, n1 * n3, t3, n1 * n2,
                              c.qp[0], n3, c.qp[1], n2, c.qp[2], n1)
                elif ia == ib and ib < ic:
                    c.w = n1 * (n1 - 1) // 2 * n3
                    set_slots(c, t1, (n1 - 1) * n3, t3, n1 * (n1 - 1) // 2, DUMMY_C, 0,
                              c.qp[0], n3, c.qp[1], n1 - 1, DUMMY_P, 0)
                elif ia < ib:
                    c.w = n1 * (n2 * (n2 - 1) // 2)
                    set_slots(c, t1, n2 * (n2 - 1) // 2, t2, n1 * (n2 - 1), DUMMY_C, 0,
                              c.qp[2], n1, c.qp[0], n2 - 1, DUMMY_P, 0)
                else:
                    c.w = n1 * (n1 - 1) * (n1 - 2) // 6
                    set_slots(c, t1, (n1 - 1) * (n1 - 2) // 2, DUMMY_C, 0, DUMMY_C, 0,
                              c.qp[0], n1 - 2, DUMMY_P, 0, DUMMY_P, 0)
    return nc


cdef void sort_by_value(Work* w, int nc) noexcept nogil:
    """w.order = class numbers sorted by value (stable radix sort, 7 + 6 bits)."""
    cdef int lo_count[128]
    cdef int hi_count[64]
    cdef int i, v, pos, x
    memset(lo_count, 0, sizeof(lo_count))
    memset(hi_count, 0, sizeof(hi_count))
    for i in range(nc):
        v = w.cls[i].value
        lo_count[v & 127] += 1
        hi_count[v >> 7] += 1
    pos = 0
    for i in range(128):
        x = lo_count[i]
        lo_count[i] = pos
        pos += x
    pos = 0
    for i in range(64):
        x = hi_count[i]
        hi_count[i] = pos
        pos += x
    for i in range(nc):
        v = w.cls[i].value & 127
        w.tmp[lo_count[v]] = i
        lo_count[v] += 1
    for i in range(nc):
        x = w.tmp[i]
        v = w.cls[x].value >> 7
        w.order[hi_count[v]] = x
        hi_count[v] += 1


cdef inline int query(const Work* w, const Cls* c) noexcept nogil:
    return (- w.C[c.qc[0]] - w.C[c.qc[1]] - w.C[c.qc[2]]
            + w.P[c.qp[0]] + w.P[c.qp[1]] + w.P[c.qp[2]])


cdef void dealer_counts(const Game* g, Work* w, int nc) noexcept nogil:
    """Sweep the classes by value and fill w.res / w.resoff for every class."""
    cdef int G = 0, i = 0, j, x, v, self_sign = -1 if g.k == 3 else 1, win, tie
    cdef bint snapped = False
    cdef Cls* c
    memset(w.C, 0, sizeof(w.C))
    memset(w.P, 0, sizeof(w.P))
    while True:
        v = w.cls[w.order[i]].value if i < nc else 1 << 20
        if not snapped and v >= g.qualifier:
            # every class below the qualifier has been passed: count non-qualifying dealers
            for x in range(nc):
                c = &w.cls[x]
                c.nq = G + query(w, c) + (self_sign if c.value < g.qualifier else 0)
            snapped = True
        if i >= nc:
            break
        j = i + 1
        while j < nc and w.cls[w.order[j]].value == v:
            j += 1
        for x in range(i, j):
            c = &w.cls[w.order[x]]
            c.below = G + query(w, c)
        for x in range(i, j):
            c = &w.cls[w.order[x]]
            G += c.w
            w.C[c.uc[0]] += c.ucv[0]
            w.C[c.uc[1]] += c.ucv[1]
            w.C[c.uc[2]] += c.ucv[2]
            w.P[c.up[0]] += c.upv[0]
            w.P[c.up[1]] += c.upv[1]
            w.P[c.up[2]] += c.upv[2]
        for x in range(i, j):
            c = &w.cls[w.order[x]]
            c.le = G + query(w, c) + self_sign
        i = j
    for x in range(nc):
        c = &w.cls[x]
        if c.value < g.qualifier:
            win = 0
            tie = 0
        else:
            win = c.below - c.nq
            tie = c.le - c.below
        w.res[c.index].r[0] = <uint32_t>c.nq
        w.res[c.index].r[1] = <uint32_t>win
        w.res[c.index].r[2] = <uint32_t>tie
        w.res[c.index].r[3] = <uint32_t>(g.dealer_total - c.nq - win - tie)
        w.resoff[c.index] = 4 * g.category[c.value]


cdef void board_results(const Game* g, const int* board, int s, Work* w) noexcept nogil:
    """Per-holding results of every class on one board."""
    cdef uint64_t avail = g.deck
    cdef int i
    for i in range(5):
        avail &= ~((<uint64_t>1) << board[i])
    type_counts(avail, s, w.n)
    pair_values(g, board, s, w)
    cdef int nc = list_classes(g, w)
    sort_by_value(w, nc)
    dealer_counts(g, w, nc)


cdef inline int sorted_type_index3(int a, int b, int c) noexcept nogil:
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return type_index3(a, b, c)


cdef void count_flop(const Game* g, const int8_t* flop, const int8_t* holdings, Py_ssize_t nh,
                     const int8_t* tr, const uint8_t* new_orbit, Py_ssize_t ntr,
                     uint32_t* out, Work* w) noexcept nogil:
    """Add the counts of every turn/river pair to the rows of one flop's holdings."""
    cdef Py_ssize_t h, x
    cdef int i, scen, c, card, k = g.k, s
    cdef int ty[3]
    cdef int board[5]
    cdef uint64_t m, trm
    cdef const uint16_t* hc
    cdef uint32_t* o
    cdef uint32_t keep
    for h in range(nh):
        m = 0
        for i in range(k):
            m |= (<uint64_t>1) << holdings[h * k + i]
        w.hmask[h] = m
        for scen in range(5):
            for i in range(k):
                card = holdings[h * k + i]
                ty[i] = (card >> 2) + (13 if (card & 3) == scen else 0)
            if k == 3:
                w.hcls[scen * nh + h] = <uint16_t>sorted_type_index3(ty[0], ty[1], ty[2])
            else:
                w.hcls[scen * nh + h] = <uint16_t>pair_index_any(ty[0], ty[1])
    board[0] = flop[0]
    board[1] = flop[1]
    board[2] = flop[2]
    for x in range(ntr):
        board[3] = tr[2 * x]
        board[4] = tr[2 * x + 1]
        s = flush_suit(board[0], board[1], board[2], board[3], board[4])
        if new_orbit[x]:
            board_results(g, board, s, w)
        scen = s if s >= 0 else NO_FLUSH
        hc = w.hcls + scen * nh
        trm = ((<uint64_t>1) << board[3]) | ((<uint64_t>1) << board[4])
        # branch-free: a holding that shares a card with the turn/river adds zeros (its
        # class entry may be stale, but every entry holds valid numbers)
        o = out
        for h in range(nh):
            c = hc[h]
            keep = 0u - <uint32_t>((w.hmask[h] & trm) == 0)
            add4_masked(o + w.resoff[c], w.res[c].r, keep)
            o += NCOLS


cdef Work* new_work(Py_ssize_t max_nh) noexcept nogil:
    cdef Work* w = <Work*>malloc(sizeof(Work))
    if w == NULL:
        return NULL
    w.cls = <Cls*>malloc(NCLASSES * sizeof(Cls))
    w.order = <int*>malloc(NCLASSES * sizeof(int))
    w.tmp = <int*>malloc(NCLASSES * sizeof(int))
    w.res = <Result*>calloc(NCLASSES, sizeof(Result))
    w.resoff = <uint8_t*>calloc(NCLASSES, 1)
    w.hmask = <uint64_t*>malloc((max_nh + 1) * sizeof(uint64_t))
    w.hcls = <uint16_t*>malloc(5 * (max_nh + 1) * sizeof(uint16_t))
    if (w.cls == NULL or w.order == NULL or w.tmp == NULL or w.res == NULL or w.resoff == NULL
            or w.hmask == NULL or w.hcls == NULL):
        free_work(w)
        return NULL
    return w


cdef void free_work(Work* w) noexcept nogil:
    if w != NULL:
        free(w.cls)
        free(w.order)
        free(w.tmp)
        free(w.res)
        free(w.resoff)
        free(w.hmask)
        free(w.hcls)
        free(w)


def count_states(int k, bint omaha, int qualifier, uint64_t deck, int dealer_total,
                 const int8_t[:, ::1] flops,
                 const int8_t[:, ::1] holdings, const int64_t[::1] hold_offsets,
                 const int8_t[:, ::1] tr_pairs, const uint8_t[::1] tr_new_orbit,
                 const int64_t[::1] tr_offsets,
                 const uint16_t[:, ::1] pair_table, const uint16_t[::1] flush,
                 const uint8_t[::1] category, uint32_t[:, ::1] out, int threads=1):
    """Add to ``out`` (rows of ``holdings``, 40 columns: category x dealer result) the
    counts of every completion of every state (flop f, holding) given by the arrays:
    flop f owns holdings[hold_offsets[f]:hold_offsets[f+1]] and turn/river pairs
    tr_pairs[tr_offsets[f]:tr_offsets[f+1]], grouped in orbits that start where
    tr_new_orbit is 1. Flops are shared among ``threads`` OpenMP threads."""
    cdef Py_ssize_t nf = flops.shape[0], f, max_nh = 0
    if k not in (2, 3) or holdings.shape[1] != k or out.shape[1] != NCOLS:
        raise ValueError("count_states: shapes do not match the hole size")
    if hold_offsets.shape[0] != nf + 1 or tr_offsets.shape[0] != nf + 1:
        raise ValueError("count_states: offsets must have one entry per flop, plus one")
    if hold_offsets[nf] != holdings.shape[0] or out.shape[0] != holdings.shape[0]:
        raise ValueError("count_states: out needs one row per holding")
    if tr_offsets[nf] != tr_pairs.shape[0] or tr_new_orbit.shape[0] != tr_pairs.shape[0]:
        raise ValueError("count_states: tr_new_orbit needs one entry per turn/river pair")
    for f in range(nf):
        max_nh = max(max_nh, hold_offsets[f + 1] - hold_offsets[f])
        if tr_offsets[f + 1] > tr_offsets[f] and not tr_new_orbit[tr_offsets[f]]:
            raise ValueError("count_states: each flop's first turn/river pair must start an orbit")
    cdef Game g
    g.k = k
    g.omaha = omaha
    g.qualifier = qualifier
    g.deck = deck
    g.dealer_total = dealer_total
    g.pair_table = &pair_table[0, 0]
    g.flush = &flush[0]
    g.category = &category[0]
    cdef Work* w
    cdef int failed[1]
    failed[0] = 0
    cdef const int8_t* hold_ptr = &holdings[0, 0] if holdings.shape[0] else NULL
    cdef const int8_t* tr_ptr = &tr_pairs[0, 0] if tr_pairs.shape[0] else NULL
    cdef const uint8_t* orbit_ptr = &tr_new_orbit[0] if tr_pairs.shape[0] else NULL
    cdef uint32_t* out_ptr = &out[0, 0] if out.shape[0] else NULL
    if nf == 0:
        return
    with nogil, parallel(num_threads=threads):
        w = new_work(max_nh)
        if w == NULL:
            failed[0] = 1
        for f in prange(nf, schedule="dynamic", chunksize=1):
            if w != NULL:
                count_flop(&g, &flops[f, 0], hold_ptr + hold_offsets[f] * k,
                           hold_offsets[f + 1] - hold_offsets[f],
                           tr_ptr + 2 * tr_offsets[f], orbit_ptr + tr_offsets[f],
                           tr_offsets[f + 1] - tr_offsets[f],
                           out_ptr + hold_offsets[f] * NCOLS, w)
        free_work(w)
    if failed[0]:
        raise MemoryError("count_states: could not allocate a worker's buffers")
