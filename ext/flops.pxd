# cython: language_level=3
"""One flop's holdings and turn/river pairs, as every counting kernel lays them out: the
layout's check, each holding's cards and class in each flush scenario, the holdings of each
card, and the flush scenarios the flop's boards have; and the sums by class of a kernel that
adds a flop's pairs class by class (their zeroing, and each holding's share at the end)."""

from libc.string cimport memset
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from classes cimport NO_FLUSH, holding_class
from poker cimport flush_suit


cdef inline Py_ssize_t check_flop_layout(str name, Py_ssize_t nrows, const int64_t[::1] hold_offsets,
                                         const int8_t[:, ::1] tr_pairs, const uint8_t[::1] tr_new_orbit,
                                         const int64_t[::1] tr_offsets) except -1:
    """Check the flop-by-flop layout of a kernel's holdings and turn/river pairs (``nrows``
    holdings, offsets with one entry per flop plus one); return the most holdings a flop has."""
    cdef Py_ssize_t nf = hold_offsets.shape[0] - 1, f, most = 0
    if nf < 0 or tr_offsets.shape[0] != nf + 1:
        raise ValueError(f"{name}: offsets must have one entry per flop, plus one")
    if hold_offsets[nf] != nrows:
        raise ValueError(f"{name}: the holding offsets end at {hold_offsets[nf]}, not at the {nrows} holdings")
    if tr_offsets[nf] != tr_pairs.shape[0] or tr_new_orbit.shape[0] != tr_pairs.shape[0]:
        raise ValueError(f"{name}: tr_new_orbit needs one entry per turn/river pair")
    for f in range(nf):
        most = max(most, hold_offsets[f + 1] - hold_offsets[f])
        if tr_offsets[f + 1] > tr_offsets[f] and not tr_new_orbit[tr_offsets[f]]:
            raise ValueError(f"{name}: each flop's first turn/river pair must start an orbit")
    return most


cdef inline void flop_holdings(const int8_t* holdings, Py_ssize_t nh, int k, uint64_t* hmask,
                               uint16_t* hcls) noexcept nogil:
    """What a kernel needs of one flop's nh holdings (k cards each) on every board: hmask[h],
    the holding's cards as a bit set (to skip the boards that share a card with it), and
    hcls[scen * nh + h], its class index in each flush-suit scenario (0..3, NO_FLUSH)."""
    cdef Py_ssize_t h
    cdef int i, scen
    cdef uint64_t m
    for h in range(nh):
        m = 0
        for i in range(k):
            m |= (<uint64_t>1) << holdings[h * k + i]
        hmask[h] = m
        for scen in range(NO_FLUSH + 1):
            hcls[scen * nh + h] = <uint16_t>holding_class(holdings + h * k, k, scen)


cdef inline void holdings_by_card(const int8_t* holdings, Py_ssize_t nh, int k, int32_t* start,
                                  int32_t* by_card) noexcept nogil:
    """List the holdings of each card (a counting sort of the holdings' cards)."""
    cdef int32_t at[53]
    cdef Py_ssize_t i
    cdef int c
    memset(start, 0, 53 * sizeof(int32_t))
    for i in range(nh * k):
        start[holdings[i] + 1] += 1
    for c in range(52):
        start[c + 1] += start[c]
        at[c] = start[c]
    for i in range(nh * k):
        c = holdings[i]
        by_card[at[c]] = <int32_t>(i // k)
        at[c] += 1


cdef inline int flop_scenarios(const int8_t* flop, const int8_t* tr, Py_ssize_t ntr) noexcept nogil:
    """The flush-suit scenarios (bit 0..3: that suit, bit NO_FLUSH: none) of a flop's boards."""
    cdef Py_ssize_t x
    cdef int s, seen = 0
    for x in range(ntr):
        s = flush_suit(flop[0], flop[1], flop[2], tr[2 * x], tr[2 * x + 1])
        seen |= 1 << (s if s >= 0 else NO_FLUSH)
    return seen


cdef inline void zero_scenarios(uint32_t* acc, int seen, int ncls, int ncols) noexcept nogil:
    """Zero the class sums (5 scenarios x ncls classes x ncols columns) of the scenarios seen."""
    cdef int scen
    for scen in range(NO_FLUSH + 1):
        if (seen >> scen) & 1:
            memset(acc + scen * ncls * ncols, 0, ncls * ncols * sizeof(uint32_t))


cdef inline void add_class_sums(uint32_t* out, int ncols, const uint32_t* acc, int ncls, const uint16_t* hcls,
                                Py_ssize_t nh, int seen) noexcept nogil:
    """Add to each holding's row its class's sums in every scenario seen."""
    cdef Py_ssize_t h
    cdef int scen, i
    cdef uint32_t* o
    cdef const uint32_t* a
    for h in range(nh):
        o = out + h * ncols
        for scen in range(NO_FLUSH + 1):
            if (seen >> scen) & 1:
                a = acc + (scen * ncls + hcls[scen * nh + h]) * ncols
                for i in range(ncols):
                    o[i] += a[i]
