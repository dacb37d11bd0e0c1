# cython: language_level=3
"""The table of board classes (``enumerator.pyx``'s BoardResults): a 5-card board's
suit-isomorphism class is named by its suits' rank masks, sorted, and found in an
open-addressing hash table of those keys."""

from libc.stdint cimport int32_t, int64_t, uint64_t


cdef enum:
    MAX_BOARDS = 134459      # suit-isomorphism classes of 5-card boards of 52 cards (of any deck's: at most)
    SLOT_BITS = 19           # hash slots: 2**19, under half full


cdef struct BoardTable:
    uint64_t* keys           # hash slots: a board's key, 0 for an empty slot
    int32_t* ids             # the board's number in the slots
    int64_t* start           # per board: its first class entry (and the end, last)
    uint64_t* entries        # per board and class: not qualifying | wins << 16 | ties << 32 | columns << 48


cdef inline uint64_t board_key(int a, int b, int c, int d, int e) noexcept nogil:
    """The suit-isomorphism class of a board: its suits' rank masks, sorted (never 0)."""
    cdef uint64_t m[4]
    cdef uint64_t x
    cdef int i, j
    m[0] = m[1] = m[2] = m[3] = 0
    m[a & 3] |= (<uint64_t>1) << (a >> 2)
    m[b & 3] |= (<uint64_t>1) << (b >> 2)
    m[c & 3] |= (<uint64_t>1) << (c >> 2)
    m[d & 3] |= (<uint64_t>1) << (d >> 2)
    m[e & 3] |= (<uint64_t>1) << (e >> 2)
    for i in range(1, 4):
        x = m[i]
        j = i - 1
        while j >= 0 and m[j] < x:
            m[j + 1] = m[j]
            j -= 1
        m[j + 1] = x
    return m[0] | (m[1] << 13) | (m[2] << 26) | (m[3] << 39)


cdef inline Py_ssize_t slot_of(const BoardTable* t, uint64_t key) noexcept nogil:
    """The slot that holds ``key``, or the empty one where it goes (linear probing)."""
    cdef Py_ssize_t i = <Py_ssize_t>((key * <uint64_t>0x9E3779B97F4A7C15) >> (64 - SLOT_BITS))
    while t.keys[i] != 0 and t.keys[i] != key:
        i = (i + 1) & ((1 << SLOT_BITS) - 1)
    return i
