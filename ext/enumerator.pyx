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
* A whole game meets every 5-card board once per 3-card flop in it, ten times over: a
  :class:`BoardResults` computes each board's class results once per suit-isomorphism
  class (134,459 for 52 cards; the sorted rank masks of its suits name it), packed in 8
  bytes a class, and the kernel reads them instead of computing them again.
"""

from cython.parallel cimport prange, parallel
from libc.stdlib cimport calloc, free
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from boards cimport MAX_BOARDS, SLOT_BITS, BoardTable, board_key, slot_of
from classes cimport (NCLASSES, NO_FLUSH, Arena, Board, Cls, Game, all_classes, arena_alloc, arena_measure,
                      board_buffers, board_classes, carve, make_game, narrow_classes, sweep_dealers)
from flops cimport (add_class_sums, check_flop_layout, flop_holdings, flop_scenarios, holdings_by_card,
                    zero_scenarios)
from poker cimport NCOLS, flush_suit


cdef extern from "sums.h":
    void add4_masked "sums_add4_masked"(uint32_t* o, const uint32_t* r, uint32_t keep) noexcept nogil
    void sub4 "sums_sub4"(uint32_t* o, const uint32_t* r) noexcept nogil

cdef struct Result:
    uint32_t r[4]            # per holding: not qualifying, player wins, tie, dealer wins


cdef struct Work:
    void* block              # the arena block that holds this Work and every buffer below
    Board b
    Result* res
    uint8_t* resoff          # 4 x the category of each class: its columns in a state's row
    uint64_t* hmask
    uint16_t* hcls           # 5 scenarios x holdings: class index of each holding
    uint32_t* acc            # 5 scenarios x classes x 40 columns: the pairs' results summed by class
    int32_t* by_card_start   # 53: by_card[by_card_start[c]:by_card_start[c + 1]] hold card c
    int32_t* by_card         # the flop's holdings (numbers), by card


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


cdef void pack_board(const Game* g, Work* work, uint64_t* row) noexcept nogil:
    """Write the classes of the board in work.b (swept) into its row of entries."""
    cdef int x
    cdef Cls* c
    cdef const Result* r
    dealer_counts(g, work)
    for x in range(work.b.nc):
        c = &work.b.cls[x]
        r = &work.res[c.index]
        row[c.index] = (<uint64_t>r.r[0] | (<uint64_t>r.r[1] << 16) | (<uint64_t>r.r[2] << 32)
                        | (<uint64_t>work.resoff[c.index] << 48))


cdef inline Py_ssize_t unpack_board(const BoardTable* t, const int* board, int dealer_total, Work* w) noexcept nogil:
    """Fill w.res / w.resoff with the board's class results from the table; return how many
    classes its row has (every class index a holding can have on this board is below)."""
    cdef int32_t id = t.ids[slot_of(t, board_key(board[0], board[1], board[2], board[3], board[4]))]
    cdef const uint64_t* row = t.entries + t.start[id]
    cdef Py_ssize_t i, n = t.start[id + 1] - t.start[id]
    cdef uint64_t e
    cdef uint32_t nq, win, tie
    for i in range(n):
        e = row[i]
        nq = <uint32_t>(e & 0xFFFF)
        win = <uint32_t>((e >> 16) & 0xFFFF)
        tie = <uint32_t>((e >> 32) & 0xFFFF)
        w.res[i].r[0] = nq
        w.res[i].r[1] = win
        w.res[i].r[2] = tie
        w.res[i].r[3] = <uint32_t>dealer_total - nq - win - tie
        w.resoff[i] = <uint8_t>(e >> 48)
    return n


cdef class BoardResults:
    """The class results of every 5-card board of a game's deck, once per suit-isomorphism
    class of boards (see the module docstring): built once for a whole enumeration, read by
    :func:`count_states`. The arguments are the game's, as for ``count_states``."""

    cdef BoardTable t
    cdef readonly Py_ssize_t boards
    cdef readonly Py_ssize_t nbytes
    cdef readonly tuple game

    def __cinit__(self, int k, bint omaha, int qualifier, uint64_t deck, int dealer_total,
                  const uint16_t[:, ::1] pair_table, const uint16_t[::1] flush,
                  const uint8_t[::1] category, int threads=1):
        cdef int cards[52]
        cdef int n = 0, c, a, b, d, e, s
        cdef int* rep
        cdef Py_ssize_t i, nb = 0, total = 0, f
        cdef uint64_t key
        cdef Game g = make_game(k, omaha, qualifier, deck, dealer_total, &pair_table[0, 0], &flush[0], &category[0])
        cdef Work* w
        cdef int failed[1]
        if k not in (2, 3) or dealer_total >= 1 << 16:
            raise ValueError("BoardResults: 2 or 3 hole cards, and fewer than 65,536 dealer holdings")
        self.game = (k, bool(omaha), qualifier, deck, dealer_total)
        for c in range(52):
            if (deck >> c) & 1:
                cards[n] = c
                n += 1
        self.t.keys = <uint64_t*>calloc(1 << SLOT_BITS, sizeof(uint64_t))
        self.t.ids = <int32_t*>calloc(1 << SLOT_BITS, sizeof(int32_t))
        self.t.start = <int64_t*>calloc(MAX_BOARDS + 1, sizeof(int64_t))
        rep = <int*>calloc(MAX_BOARDS * 5, sizeof(int))
        if self.t.keys == NULL or self.t.ids == NULL or self.t.start == NULL or rep == NULL:
            free(rep)
            raise MemoryError("BoardResults: no memory for the board table")
        try:
            with nogil:
                # every board of the deck: a new key is a new class, this board its representative
                for a in range(n):
                    for b in range(a + 1, n):
                        for c in range(b + 1, n):
                            for d in range(c + 1, n):
                                for e in range(d + 1, n):
                                    key = board_key(cards[a], cards[b], cards[c], cards[d], cards[e])
                                    i = slot_of(&self.t, key)
                                    if self.t.keys[i] == 0 and nb < MAX_BOARDS:
                                        self.t.keys[i] = key
                                        self.t.ids[i] = <int32_t>nb
                                        rep[5 * nb] = cards[a]
                                        rep[5 * nb + 1] = cards[b]
                                        rep[5 * nb + 2] = cards[c]
                                        rep[5 * nb + 3] = cards[d]
                                        rep[5 * nb + 4] = cards[e]
                                        s = flush_suit(cards[a], cards[b], cards[c], cards[d], cards[e])
                                        total += all_classes(k) if s >= 0 else narrow_classes(k)
                                        nb += 1
                                        self.t.start[nb] = total
            self.boards = nb
            self.t.entries = <uint64_t*>calloc(total + 1, sizeof(uint64_t))
            if self.t.entries == NULL:
                raise MemoryError("BoardResults: no memory for the boards' class results")
            self.nbytes = (total + 1) * 8 + (1 << SLOT_BITS) * 12 + (MAX_BOARDS + 1) * 8
            failed[0] = 0
            with nogil, parallel(num_threads=threads):
                w = new_work(0)
                if w == NULL:
                    failed[0] = 1
                for f in prange(nb, schedule="dynamic", chunksize=64):
                    if w != NULL:
                        board_classes(&g, rep + 5 * f, flush_suit(rep[5 * f], rep[5 * f + 1], rep[5 * f + 2],
                                                                  rep[5 * f + 3], rep[5 * f + 4]), &w.b)
                        pack_board(&g, w, self.t.entries + self.t.start[f])
                free_work(w)
            if failed[0]:
                raise MemoryError("BoardResults: could not allocate a worker's buffers")
        finally:
            free(rep)

    def __dealloc__(self):
        free(self.t.keys)
        free(self.t.ids)
        free(self.t.start)
        free(self.t.entries)


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


cdef void count_flop_boards(const Game* g, const int8_t* flop, const int8_t* holdings, Py_ssize_t nh,
                            const int8_t* tr, const uint8_t* new_orbit, Py_ssize_t ntr,
                            uint32_t* out, Work* w, const BoardTable* boards) noexcept nogil:
    """count_flop with every board's class results from ``boards``, summed by class: a
    holding's class on a board depends only on the board's flush suit (5 scenarios), so each
    pair adds its classes' results to its scenario's sums (455 or 3,276 classes, not every
    holding); the holdings that meet the pair's turn or river take that pair's entry off
    again, and at the end each holding adds its classes' sums of the 5 scenarios."""
    cdef int ncls = all_classes(g.k)
    cdef Py_ssize_t h, x, i, j, n = 0
    cdef int scen, s, t, r, c, seen
    cdef int board[5]
    cdef uint32_t* a
    cdef const uint16_t* hc
    cdef const Result* res = w.res
    cdef const uint8_t* resoff = w.resoff
    cdef const uint64_t* hmask = w.hmask
    cdef const int32_t* start = w.by_card_start
    cdef const int32_t* by_card = w.by_card
    flop_holdings(holdings, nh, g.k, w.hmask, w.hcls)
    holdings_by_card(holdings, nh, g.k, w.by_card_start, w.by_card)
    seen = flop_scenarios(flop, tr, ntr)
    zero_scenarios(w.acc, seen, ncls, NCOLS)
    board[0] = flop[0]
    board[1] = flop[1]
    board[2] = flop[2]
    for x in range(ntr):
        t = tr[2 * x]
        r = tr[2 * x + 1]
        board[3] = t
        board[4] = r
        s = flush_suit(board[0], board[1], board[2], t, r)
        if new_orbit[x]:
            n = unpack_board(boards, board, g.dealer_total, w)
        scen = s if s >= 0 else NO_FLUSH
        a = w.acc + scen * ncls * NCOLS
        for i in range(n):
            add4_masked(a + i * NCOLS + resoff[i], res[i].r, 0xFFFFFFFFu)
        hc = w.hcls + scen * nh
        for j in range(start[t], start[t + 1]):
            h = by_card[j]
            c = hc[h]
            sub4(out + h * NCOLS + resoff[c], res[c].r)
        for j in range(start[r], start[r + 1]):
            h = by_card[j]
            if (hmask[h] >> t) & 1 == 0:  # a holding of both cards is taken off once
                c = hc[h]
                sub4(out + h * NCOLS + resoff[c], res[c].r)
    add_class_sums(out, NCOLS, w.acc, ncls, w.hcls, nh, seen)


cdef void lay_out(Work* w, Arena* a, Py_ssize_t n) noexcept nogil:
    """Carve w's buffers, for flops of up to n holdings, out of a worker's arena."""
    board_buffers(&w.b, a)
    w.res = <Result*>carve(a, NCLASSES * sizeof(Result))
    w.resoff = <uint8_t*>carve(a, NCLASSES)
    w.hmask = <uint64_t*>carve(a, n * sizeof(uint64_t))
    w.hcls = <uint16_t*>carve(a, 5 * n * sizeof(uint16_t))
    w.acc = <uint32_t*>carve(a, 5 * NCLASSES * NCOLS * sizeof(uint32_t))
    w.by_card_start = <int32_t*>carve(a, 53 * sizeof(int32_t))
    w.by_card = <int32_t*>carve(a, 3 * n * sizeof(int32_t))


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
                 const uint8_t[::1] category, uint32_t[:, ::1] out, int threads=1,
                 BoardResults boards=None):
    """Add to ``out`` (rows of ``holdings``, 40 columns: category x dealer result) the
    counts of every completion of every state (flop f, holding) given by the arrays:
    flop f owns holdings[hold_offsets[f]:hold_offsets[f+1]] and turn/river pairs
    tr_pairs[tr_offsets[f]:tr_offsets[f+1]], grouped in orbits that start where
    tr_new_orbit is 1. Flops are shared among ``threads`` OpenMP threads. ``boards``, built
    for the same game, gives every board's class results (else each orbit computes them)."""
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
    cdef const BoardTable* table = NULL
    if boards is not None:
        if boards.game != (k, bool(omaha), qualifier, deck, dealer_total):
            raise ValueError("count_states: the board results are another game's")
        table = &boards.t
    if nf == 0:
        return
    with nogil, parallel(num_threads=threads):
        w = new_work(max_nh)
        if w == NULL:
            failed[0] = 1
        for f in prange(nf, schedule="dynamic", chunksize=1):
            if w != NULL and table != NULL:
                count_flop_boards(&g, &flops[f, 0], hold_ptr + hold_offsets[f] * k,
                                  hold_offsets[f + 1] - hold_offsets[f],
                                  tr_ptr + 2 * tr_offsets[f], orbit_ptr + tr_offsets[f],
                                  tr_offsets[f + 1] - tr_offsets[f],
                                  out_ptr + hold_offsets[f] * NCOLS, w, table)
            elif w != NULL:
                count_flop(&g, &flops[f, 0], hold_ptr + hold_offsets[f] * k,
                           hold_offsets[f + 1] - hold_offsets[f],
                           tr_ptr + 2 * tr_offsets[f], orbit_ptr + tr_offsets[f],
                           tr_offsets[f + 1] - tr_offsets[f],
                           out_ptr + hold_offsets[f] * NCOLS, w)
        free_work(w)
    if failed[0]:
        raise MemoryError("count_states: could not allocate a worker's buffers")
