# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Exact counting core of the Casino Omaha family (compiled, nogil, OpenMP over flops).

For every decision state (player's hole cards + flop) it counts the completions (turn and
river, then the dealer's hole cards) by player final category x dealer result:
dealer does not qualify / player wins / tie / dealer wins. It knows nothing of pay tables.

The method, per board (flop + turn + river):

* Card *types* and *classes* (``classes.pxd``): a card's type is its rank, plus 13 if it
  is of the board's flush suit; holdings whose cards have the same types have the same
  value, so values are computed once per type multiset (a class): at most 3,276 classes
  instead of 16,215 holdings.
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
from libc.stdlib cimport free
from libc.string cimport memset
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int8_t, int64_t

from classes cimport (NCLASSES, NO_FLUSH, Arena, Board, Cls, Game, arena_alloc, arena_measure, board_buffers,
                      board_classes, carve, check_flop_layout, flop_holdings, make_game, sweep_dealers)
from poker cimport NCOLS, flush_suit


cdef extern from "sums.h":
    void add4_masked "sums_add4_masked"(uint32_t* o, const uint32_t* r, uint32_t keep) noexcept nogil

cdef struct Result:
    uint32_t r[4]            # per holding: not qualifying, player wins, tie, dealer wins


cdef struct Work:
    void* block              # the arena block that holds this Work and every buffer below
    Board b
    Result* res
    uint8_t* resoff          # 4 x the category of each class: its columns in a state's row
    uint64_t* hmask
    uint16_t* hcls           # 5 scenarios x holdings: class index of each holding


cdef void dealer_counts(const Game* g, Work* work) noexcept nogil:
    """Sweep the classes by value and fill work.res / work.resoff for every class."""
    cdef Board* w = &work.b
    cdef int x, win, tie
    cdef Cls* c
    sweep_dealers(g, w)
    for x in range(w.nc):
        c = &w.cls[x]
        if c.value < g.qualifier:
            win = 0
            tie = 0
        else:
            win = c.below - c.nq
            tie = c.le - c.below
        work.res[c.index].r[0] = <uint32_t>c.nq
        work.res[c.index].r[1] = <uint32_t>win
        work.res[c.index].r[2] = <uint32_t>tie
        work.res[c.index].r[3] = <uint32_t>(g.dealer_total - c.nq - win - tie)
        work.resoff[c.index] = 4 * g.category[c.value]


cdef void count_flop(const Game* g, const int8_t* flop, const int8_t* holdings, Py_ssize_t nh,
                     const int8_t* tr, const uint8_t* new_orbit, Py_ssize_t ntr,
                     uint32_t* out, Work* w) noexcept nogil:
    """Add the counts of every turn/river pair to the rows of one flop's holdings."""
    cdef Py_ssize_t h, x
    cdef int scen, c, s
    cdef int board[5]
    cdef uint64_t trm
    cdef const uint16_t* hc
    cdef uint32_t* o
    cdef uint32_t keep
    # the buffers in locals: the stores into out below could otherwise alias w's fields, and
    # the compiler would reload them for every holding (measured 10% slower)
    cdef const uint64_t* hmask = w.hmask
    cdef const Result* res = w.res
    cdef const uint8_t* resoff = w.resoff
    flop_holdings(holdings, nh, g.k, w.hmask, w.hcls)
    board[0] = flop[0]
    board[1] = flop[1]
    board[2] = flop[2]
    for x in range(ntr):
        board[3] = tr[2 * x]
        board[4] = tr[2 * x + 1]
        s = flush_suit(board[0], board[1], board[2], board[3], board[4])
        if new_orbit[x]:
            board_classes(g, board, s, &w.b)
            dealer_counts(g, w)
        scen = s if s >= 0 else NO_FLUSH
        hc = w.hcls + scen * nh
        trm = ((<uint64_t>1) << board[3]) | ((<uint64_t>1) << board[4])
        # branch-free: a holding that shares a card with the turn/river adds zeros (its
        # class entry may be stale, but every entry holds valid numbers)
        o = out
        for h in range(nh):
            c = hc[h]
            keep = 0u - <uint32_t>((hmask[h] & trm) == 0)
            add4_masked(o + resoff[c], res[c].r, keep)
            o += NCOLS


cdef void lay_out(Work* w, Arena* a, Py_ssize_t n) noexcept nogil:
    """Carve w's buffers, for flops of up to n holdings, out of a worker's arena."""
    board_buffers(&w.b, a)
    w.res = <Result*>carve(a, NCLASSES * sizeof(Result))
    w.resoff = <uint8_t*>carve(a, NCLASSES)
    w.hmask = <uint64_t*>carve(a, n * sizeof(uint64_t))
    w.hcls = <uint16_t*>carve(a, 5 * n * sizeof(uint16_t))


cdef Work* new_work(Py_ssize_t max_nh) noexcept nogil:
    """A worker's Work and all its buffers in one zeroed arena block, the Work first."""
    cdef Work measured           # the measuring pass's (NULL) pointers, not used
    cdef Work* w
    cdef Arena a
    arena_measure(&a)
    carve(&a, sizeof(Work))
    lay_out(&measured, &a, max_nh + 1)
    if not arena_alloc(&a):
        return NULL
    w = <Work*>carve(&a, sizeof(Work))
    w.block = a.block
    lay_out(w, &a, max_nh + 1)
    return w


cdef void free_work(Work* w) noexcept nogil:
    if w != NULL:
        free(w.block)


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
    cdef Py_ssize_t nf = flops.shape[0], f
    if k not in (2, 3) or holdings.shape[1] != k or out.shape[1] != NCOLS:
        raise ValueError("count_states: shapes do not match the hole size")
    if out.shape[0] != holdings.shape[0] or hold_offsets.shape[0] != nf + 1:
        raise ValueError("count_states: out needs one row per holding, offsets one entry per flop plus one")
    cdef Py_ssize_t max_nh = check_flop_layout("count_states", holdings.shape[0], hold_offsets, tr_pairs,
                                               tr_new_orbit, tr_offsets)
    cdef Game g = make_game(k, omaha, qualifier, deck, dealer_total, &pair_table[0, 0], &flush[0], &category[0])
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
