# cython: language_level=3
"""Constants and inline nogil helpers shared by the compiled modules: table sizes, card
types, rank-multiset indices and table-driven hand strength (tables from
``analysis.hands.lookup``). A card c has rank c >> 2 and suit c & 3, as in
``analysis.model.cards``. The plain C they use is in ``include/poker.h``."""

from libc.stdint cimport uint8_t, uint16_t, uint64_t, int8_t


cdef extern from "poker.h":
    int popcount64 "poker_popcount64"(unsigned long long x) nogil
    const unsigned int MS_WEIGHT "POKER_MS_WEIGHT"[7][13]


cdef enum:
    NPAIRS = 91              # multisets of 2 of the 13 ranks: the pair axis of the pair tables
    NTRIPLES = 10            # 3-card subsets of a 5-card board
    NTYPES = 26              # card types on one board: rank, or rank of the flush suit (+13)
    NCATEGORIES = 10         # final-hand categories (analysis.model.categories.CATEGORIES)
    NCOLS = NCATEGORIES * 4  # count columns of a state: category x dealer result (the store's)
    NCARDS = 52              # card ints 0..51 (a game's deck may use fewer)


cdef inline int flush_suit(int a, int b, int c, int d, int e) noexcept nogil:
    """The suit of at least 3 of the 5 board cards a..e, or -1 (only one suit can have 3)."""
    cdef int counts[4]
    cdef int s
    counts[0] = counts[1] = counts[2] = counts[3] = 0
    counts[a & 3] += 1
    counts[b & 3] += 1
    counts[c & 3] += 1
    counts[d & 3] += 1
    counts[e & 3] += 1
    for s in range(4):
        if counts[s] >= 3:
            return s
    return -1


cdef inline int card_type(int card, int s) noexcept nogil:
    """Type of a card when the board's flush suit is s (-1, or any value above 3: none)."""
    return (card >> 2) + (13 if (card & 3) == s else 0)


cdef inline int type_rank(int t) noexcept nogil:
    """Rank of card type t (rank, or rank + 13 for the board's flush suit)."""
    return t - 13 if t >= 13 else t


cdef inline void type_counts(uint64_t avail, int s, int* n) noexcept nogil:
    """n[0..NTYPES - 1]: the cards of each type among avail (bit c set for each card c),
    with s the board's flush suit (-1: none, then no card has a flush-suit type)."""
    cdef uint64_t bits
    cdef int r
    for r in range(13):
        bits = (avail >> (4 * r)) & 0xF
        if s >= 0:
            n[r + 13] = <int>((bits >> s) & 1)
            n[r] = popcount64(bits & ~((<uint64_t>1) << s))
        else:
            n[r + 13] = 0
            n[r] = popcount64(bits)


cdef inline int pair_index(int lo, int hi) noexcept nogil:
    """Multiset index lo + C(hi + 1, 2) of a pair lo <= hi of ranks (< NPAIRS) or card types."""
    return lo + (hi * (hi + 1) >> 1)


cdef inline int pair_index_any(int a, int b) noexcept nogil:
    """pair_index of a and b in either order (branchless: cards come in random order)."""
    return pair_index(a if a < b else b, b if a < b else a)


cdef inline void insertion_sort(int* r, int n) noexcept nogil:
    """Sort n ints in place, ascending (a few ranks; a board's distinct strengths)."""
    cdef int i, j, x
    for i in range(1, n):
        x = r[i]
        j = i - 1
        while j >= 0 and r[j] > x:
            r[j + 1] = r[j]
            j -= 1
        r[j + 1] = x


cdef inline int sorted_index(int* r, int n) noexcept nogil:
    """Sort n ranks in place (insertion sort) and return their multiset index."""
    cdef int i, idx = 0
    insertion_sort(r, n)
    for i in range(n):
        idx += MS_WEIGHT[i][r[i]]
    return idx


cdef inline uint16_t best_of_n(const int8_t* cards, int n, const uint16_t* rank_table,
                               const uint16_t* flush) noexcept nogil:
    """Best 5-card strength among n (5..7) cards; rank_table is rank5/rank6/rank7."""
    cdef int r[7]
    cdef int masks[4]
    cdef int counts[4]
    cdef int i, c, s
    cdef uint16_t best, f
    masks[0] = masks[1] = masks[2] = masks[3] = 0
    counts[0] = counts[1] = counts[2] = counts[3] = 0
    for i in range(n):
        c = cards[i]
        r[i] = c >> 2
        masks[c & 3] |= 1 << (c >> 2)
        counts[c & 3] += 1
    best = rank_table[sorted_index(r, n)]
    for s in range(4):
        if counts[s] >= 5:
            f = flush[masks[s]]
            if f > best:
                best = f
    return best


cdef inline uint16_t omaha_best(const int8_t* hole, int k, const int8_t* board, int nb,
                                const uint16_t* omaha_pair, const uint16_t* flush) noexcept nogil:
    """Best hand of exactly 2 of the k hole cards and exactly 3 of the nb board cards."""
    cdef int tri[NTRIPLES]
    cdef int tri_suited_mask[NTRIPLES]
    cdef int ntri = 0, a, b, c, i, j, t, s, pidx, pm
    cdef bint suited
    cdef int r3[3]
    cdef uint16_t best = 0, v
    for a in range(nb):
        for b in range(a + 1, nb):
            for c in range(b + 1, nb):
                r3[0] = board[a] >> 2
                r3[1] = board[b] >> 2
                r3[2] = board[c] >> 2
                tri[ntri] = sorted_index(r3, 3) * NPAIRS
                s = board[a] & 3
                if (board[b] & 3) == s and (board[c] & 3) == s:
                    tri_suited_mask[ntri] = (s << 16) | (1 << (board[a] >> 2)) | (1 << (board[b] >> 2)) | (1 << (board[c] >> 2))
                else:
                    tri_suited_mask[ntri] = -1
                ntri += 1
    for i in range(k):
        for j in range(i + 1, k):
            pidx = pair_index_any(hole[i] >> 2, hole[j] >> 2)
            suited = (hole[i] & 3) == (hole[j] & 3)
            pm = (1 << (hole[i] >> 2)) | (1 << (hole[j] >> 2))
            for t in range(ntri):
                v = omaha_pair[tri[t] + pidx]
                if suited and tri_suited_mask[t] >= 0 and (tri_suited_mask[t] >> 16) == (hole[i] & 3):
                    if flush[(tri_suited_mask[t] & 0x1FFF) | pm] > v:
                        v = flush[(tri_suited_mask[t] & 0x1FFF) | pm]
                if v > best:
                    best = v
    return best
