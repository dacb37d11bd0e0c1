# cython: language_level=3, cdivision=True
"""Holdings on one board, grouped into classes: shared by the counting kernels
(``enumerator.pyx``: every state; ``exposure.pyx``: every state with one dealer card seen).

A card's *type* is its rank, plus 13 if it is of the board's flush suit (the one suit with
3+ board cards, if any). Holdings whose cards have the same types have the same value, so
values are computed once per type multiset (a *class*): at most 3,276 classes of 3 cards
instead of 16,215 holdings. Each class records, for the inclusion-exclusion over a
player's cards, how many of its holdings contain one given card of each of its types
(C slots) and one given pair of cards of two of its types (P slots); a sweep over the
classes sorted by value accumulates those counts below each value.
"""

from libc.stdlib cimport calloc
from libc.string cimport memset
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint64_t, uintptr_t

from poker cimport (NPAIRS, NTRIPLES, NTYPES, card_type, flush_suit, pair_index, pair_index_any, sorted_index,
                    type_counts, type_rank)


cdef enum:
    NCLASSES = 3276          # multisets of 3 of the NTYPES types
    DUMMY_C = NTYPES         # C slot that stays 0 (unused update / query slots)
    DUMMY_P = NTYPES * NTYPES  # P slot that stays 0
    NO_FLUSH = 4             # flush-suit scenario of a board with no 3 cards of a suit
    ALIGN = 64               # a worker's buffers start on cache lines (Arena)


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


# The classes of one board: their values, their order by value, and the sweep's counts.
cdef struct Board:
    Cls* cls
    int* order
    int* tmp
    int nc                   # classes that can be dealt
    int C[NTYPES + 1]
    int P[NTYPES * NTYPES + 1]
    int pv[NTYPES * NTYPES]  # value of a 2-card holding (Hold'em) / hole pair (Omaha) by types t1 <= t2
    int n[NTYPES]            # cards of each type not on the board


# A worker's buffers in one zeroed block, so that a worker allocates once and frees once:
# a first pass lays the buffers out with no block (base NULL) to measure it, arena_alloc
# allocates it, and a second pass lays them out again, in the same order, in the block.
cdef struct Arena:
    void* block              # what calloc returned: free(block) frees every buffer
    char* base               # block rounded up to ALIGN; NULL while measuring
    size_t used              # bytes laid out from base so far


cdef inline void arena_measure(Arena* a) noexcept nogil:
    """Start a measuring pass."""
    a.block = NULL
    a.base = NULL
    a.used = 0


cdef inline void* carve(Arena* a, size_t nbytes) noexcept nogil:
    """The next buffer of nbytes, on an ALIGN boundary; NULL while measuring."""
    cdef size_t at = (a.used + ALIGN - 1) & ~(<size_t>(ALIGN - 1))
    a.used = at + nbytes
    return a.base + at if a.base != NULL else NULL


cdef inline bint arena_alloc(Arena* a) noexcept nogil:
    """Allocate the zeroed block that the measuring pass laid out and start the second pass
    at its first aligned byte; False when memory runs out."""
    a.block = calloc(1, a.used + ALIGN)
    if a.block == NULL:
        return False
    a.base = <char*>((<uintptr_t>a.block + ALIGN - 1) & ~(<uintptr_t>(ALIGN - 1)))
    a.used = 0
    return True


cdef inline int all_classes(int k) noexcept nogil:
    """Class indices of a board with a flush suit: multisets of k of the 26 types."""
    return NCLASSES if k == 3 else 351


cdef inline int narrow_classes(int k) noexcept nogil:
    """Class indices of a board with no flush suit: multisets of k of the 13 ranks."""
    return 455 if k == 3 else 91


cdef inline Game make_game(int k, bint omaha, int qualifier, uint64_t deck, int dealer_total,
                           const uint16_t* pair_table, const uint16_t* flush, const uint8_t* category) noexcept nogil:
    cdef Game g
    g.k = k
    g.omaha = omaha
    g.qualifier = qualifier
    g.deck = deck
    g.dealer_total = dealer_total
    g.pair_table = pair_table
    g.flush = flush
    g.category = category
    return g


cdef inline int type_index3(int a, int b, int c) noexcept nogil:
    """Multiset index of types a <= b <= c."""
    return pair_index(a, b) + c * (c + 1) * (c + 2) // 6


cdef inline int sorted_type_index3(int a, int b, int c) noexcept nogil:
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return type_index3(a, b, c)


cdef inline void pair_values(const Game* g, const int* board, int s, Board* w) noexcept nogil:
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


cdef inline int list_classes(const Game* g, Board* w) noexcept nogil:
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


cdef inline void sort_by_value(Board* w, int nc) noexcept nogil:
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


cdef inline void board_classes(const Game* g, const int* board, int s, Board* w) noexcept nogil:
    """The classes of one board (flush suit s, or -1), listed and sorted by value."""
    cdef uint64_t avail = g.deck
    cdef int i
    for i in range(5):
        avail &= ~((<uint64_t>1) << board[i])
    type_counts(avail, s, w.n)
    pair_values(g, board, s, w)
    w.nc = list_classes(g, w)
    sort_by_value(w, w.nc)


cdef inline void pass_class(Board* w, const Cls* c) noexcept nogil:
    """Add one class's holdings to the sweep's C and P counts."""
    w.C[c.uc[0]] += c.ucv[0]
    w.C[c.uc[1]] += c.ucv[1]
    w.C[c.uc[2]] += c.ucv[2]
    w.P[c.up[0]] += c.upv[0]
    w.P[c.up[1]] += c.upv[1]
    w.P[c.up[2]] += c.upv[2]


cdef inline int query(const Board* w, const Cls* c) noexcept nogil:
    return (- w.C[c.qc[0]] - w.C[c.qc[1]] - w.C[c.qc[2]]
            + w.P[c.qp[0]] + w.P[c.qp[1]] + w.P[c.qp[2]])


cdef inline void sweep_dealers(const Game* g, Board* w) noexcept nogil:
    """One sweep over the classes sorted by value: for every class c, c.below, c.le and c.nq
    count the dealer holdings disjoint from one holding of c whose value is below c's, at
    most c's, and below the qualifier (inclusion-exclusion over the holding's cards)."""
    cdef int nc = w.nc, G = 0, i = 0, j, x, v, self_sign = -1 if g.k == 3 else 1
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
            pass_class(w, c)
        for x in range(i, j):
            c = &w.cls[w.order[x]]
            c.le = G + query(w, c) + self_sign
        i = j


cdef inline int holding_class(const int8_t* cards, int k, int scen) noexcept nogil:
    """Class index of a holding's k cards when the flush suit is scen (NO_FLUSH: none)."""
    cdef int ty[3]
    cdef int i
    for i in range(k):
        ty[i] = card_type(cards[i], scen)
    if k == 3:
        return sorted_type_index3(ty[0], ty[1], ty[2])
    return pair_index_any(ty[0], ty[1])


cdef inline void board_buffers(Board* w, Arena* a) noexcept nogil:
    """Lay out a board's class buffers in a worker's arena."""
    w.cls = <Cls*>carve(a, NCLASSES * sizeof(Cls))
    w.order = <int*>carve(a, NCLASSES * sizeof(int))
    w.tmp = <int*>carve(a, NCLASSES * sizeof(int))
