# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Exact counting core of a flashed dealer card (compiled, nogil, OpenMP over flops).

A state is (player's hole cards h, flop, the dealer card e the player saw): 46 times as
many states as the base game, each with C(45,2) boards x C(43,2) rests of the dealer's
hand (Casino Omaha). Per-state counts would not fit in memory, so each state is decided
at the end of its flop, with the pay table's integer coefficients, and only sums are kept.

Per board (flop + turn + river), the board's holding classes (``classes.pxd``) are swept
by value as in ``enumerator.pyx``. The dealer holdings that contain e and miss the
player's cards are counted by inclusion-exclusion with e fixed:

    C_t(< v) - sum_{x in h} P_{t,type x}(< v) + sum_{x<y in h} [value{e, x, y} < v]

(Hold'em: C_t(< v) - sum_{x in h} [value{e, x} < v]), where C_t counts holdings that
contain one given card of type t and P_{t,u} one given pair of cards of types t and u.
All cards of a type are alike, so e is handled per *type* (at most 26 per board), for
every class at once: below v, at most v, and below the qualifier.

Two passes over each flop's turn/river pairs. The board's class results (counts by dealer
result per class and type of e) are computed once per orbit of pairs in pass 1 and kept for
pass 2: up to 0.7 MB an orbit, a few hundred MB for a flop of Casino Omaha.

1. The margin ``base + coef . counts`` (EV(call) - EV(fold) scaled to an integer) of every
   (holding, e) is a linear function of the counts, so it is accumulated per holding and
   per card type of each flush-suit scenario (13 + 4 x 26 numbers a holding); the cards e
   that lie on the turn or river are taken back out per card. At the end of the flop each
   state is decided (call when the margin is > 0; an exact tie folds), and so is the base
   game's state (its margin is the sum of its states' margins over e, divided by k).
   Every figure that follows from margins is summed here, per group of states: (holding
   group given by the caller, base-game decision, rank of e x how e relates to the cards
   the player sees, decision) -> weighted states and weighted margins. Any strategy that
   calls whole groups has its exact EV from these sums.
2. The counts of the called states, weighted, for the return table: per board and holding,
   one multiply-add per card type on the holding's shorter list (the called cards e of
   each type, or, when most are called, the folded ones taken from the sum over every e),
   into 40 columns.

Exactness: counts are integers; margins are int64, which the caller guarantees by
bounding the coefficients (see ``MARGIN_LIMIT``); margin sums are 128-bit; count sums are
uint64 (at most the game's deals, k x 5.6e15 for Casino Omaha).
"""

from cython.parallel cimport prange, parallel, threadid
from libc.stdlib cimport free
from libc.string cimport memcpy, memset
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

import numpy as np

from classes cimport (DUMMY_P, NCLASSES, NO_FLUSH, Arena, Board, Cls, Game, all_classes, arena_alloc,
                      arena_measure, board_buffers, board_classes, carve, make_game, narrow_classes)
from flops cimport (check_flop_layout, flop_holdings)
from poker cimport NCARDS, NCOLS, NTYPES, card_type, flush_suit

cdef extern from "sums.h":
    void add128 "sums_add128"(uint64_t* lohi, int64_t v) noexcept nogil
    void madd4 "sums_madd4"(uint32_t* acc, const uint16_t* r, uint32_t n) noexcept nogil

cdef enum:
    NSLOTS = 13 + 4 * NTYPES     # per holding: 13 types without a flush, 26 per flush suit
    NRANKS = 13
    NRELATIONS = 3               # e pairs nothing / pairs the flop / pairs a hole card
    NEGROUPS = NRANKS * NRELATIONS
    NONE_CALLED = 0              # a holding folds every e
    SOME_CALLED = 1              # ... calls some: lst lists the called cards
    ALL_CALLED = 2               # ... calls every e
    MOST_CALLED = 3              # ... calls more than half: lst lists the folded cards


cdef struct Pay:
    int64_t coef[NCOLS]          # margin coefficient of each count column
    int64_t base                 # margin of a state with no counts: d x completions
    int rest_total               # dealer holdings that contain e and miss the player's cards


cdef struct XWork:
    void* block                  # the arena block that holds this XWork and every buffer below
    Board b
    int Ps[NTYPES * NTYPES + 1]  # P counts, symmetric: [t * NTYPES + u] = [u * NTYPES + t]; last: 0
    int pvs[NTYPES * NTYPES]     # pair values, symmetric; 0 for types with no card left
    int* nq                      # per class position x type: dealer holdings below the qualifier
    int* below                   # ... below the class's value
    int* le                      # ... at most the class's value
    int64_t* margin              # per class index x type: pass 1's margin of one (holding, e)
    uint8_t* orbits              # pass 1's class results of each orbit of the flop, for pass 2
                                 # (``place_orbit``): res, every and cat4 below point into it
    uint16_t* res                # per class index x type x 4: counts by dealer result
    uint32_t* every              # per class index x 4: res summed over every card e a holding can see
    uint8_t* cat4                # per class index: 4 x its category (its first column)
    uint64_t* hmask              # per holding of the flop: its cards
    uint16_t* hcls               # 5 scenarios x holdings: class index
    int64_t* acc                 # NSLOTS x holdings: margin sums per card type and scenario (``region``)
    int64_t* corr                # 52 x holdings: margins taken back for e on the turn or river
    uint16_t* lst                # NSLOTS x holdings: per scenario, (count << 8 | type) of the cards e on
                                 # the shorter side (called, or folded when most are called)
    uint8_t* nlst                # 5 scenarios x holdings: entries of lst
    uint8_t* dec                 # 52 x holdings: 1 when (holding, e) is called
    uint8_t* calls               # holdings: NONE_CALLED, SOME_CALLED, MOST_CALLED or ALL_CALLED


cdef inline Py_ssize_t region(int s, Py_ssize_t nh, Py_ssize_t h) noexcept nogil:
    """Offset of holding h's per-type numbers for flush suit s (-1 or NO_FLUSH: none).
    Scenario-major (13 a holding without a flush, then 26 a holding for each flush suit), so
    that one board's pass reads and writes one contiguous run."""
    if s < 0 or s == NO_FLUSH:
        return h * 13
    return nh * 13 + (s * nh + h) * NTYPES


cdef inline Py_ssize_t orbit_bytes(int s, int k) noexcept nogil:
    """Bytes of one orbit's class results (res, every, cat4) when its board has flush suit s."""
    cdef Py_ssize_t n = all_classes(k) if 0 <= s < NO_FLUSH else narrow_classes(k)
    cdef Py_ssize_t nt = NTYPES if 0 <= s < NO_FLUSH else 13
    return n * nt * 4 * sizeof(uint16_t) + n * 4 * sizeof(uint32_t) + ((n + 7) & ~7)


cdef inline Py_ssize_t place_orbit(XWork* x, Py_ssize_t at, int s, int k) noexcept nogil:
    """Point x.res, x.every and x.cat4 at the orbit results that start ``at`` bytes into
    x.orbits; return where the next orbit starts."""
    cdef Py_ssize_t n = all_classes(k) if 0 <= s < NO_FLUSH else narrow_classes(k)
    cdef Py_ssize_t nt = NTYPES if 0 <= s < NO_FLUSH else 13
    x.res = <uint16_t*>(x.orbits + at)
    x.every = <uint32_t*>(x.orbits + at + n * nt * 4 * sizeof(uint16_t))
    x.cat4 = x.orbits + at + n * nt * 4 * sizeof(uint16_t) + n * 4 * sizeof(uint32_t)
    return at + orbit_bytes(s, k)


cdef void symmetric_pairs(XWork* x, int nt) noexcept nogil:
    """x.pvs from the board's upper-triangle pair values; 0 where a type has no card left."""
    cdef int a, b, v
    cdef const Board* w = &x.b
    for a in range(nt):
        for b in range(a, nt):
            v = w.pv[a * NTYPES + b] if w.n[a] > 0 and w.n[b] > 0 else 0
            x.pvs[a * NTYPES + b] = v
            x.pvs[b * NTYPES + a] = v


cdef inline void pass_symmetric(XWork* x, const Cls* c) noexcept nogil:
    """Add one class's holdings to C and to the symmetric P counts."""
    cdef int i, p, a, b
    for i in range(3):
        x.b.C[c.uc[i]] += c.ucv[i]
        p = c.up[i]
        if p < DUMMY_P:
            a = p // NTYPES
            b = p % NTYPES
            x.Ps[a * NTYPES + b] += c.upv[i]
            if a != b:
                x.Ps[b * NTYPES + a] += c.upv[i]


cdef inline void query_types(const XWork* x, const Cls* c, int k, int limit, int nt, int* out) noexcept nogil:
    """out[t] = dealer holdings with value < limit that contain one given card of type t and
    none of the class's cards, for the C and P counts swept so far."""
    cdef const int* C = x.b.C
    cdef const int* r1 = x.pvs + c.qc[0] * NTYPES
    cdef const int* r2 = x.pvs + c.qc[1] * NTYPES
    cdef const int* r3
    cdef const int* p1
    cdef const int* p2
    cdef const int* p3
    cdef int t, v12, v13, v23
    if k == 2:
        for t in range(nt):
            out[t] = C[t] - (r1[t] < limit) - (r2[t] < limit)
        return
    r3 = x.pvs + c.qc[2] * NTYPES
    p1 = x.Ps + c.qc[0] * NTYPES
    p2 = x.Ps + c.qc[1] * NTYPES
    p3 = x.Ps + c.qc[2] * NTYPES
    v12 = x.pvs[c.qc[0] * NTYPES + c.qc[1]]
    v13 = x.pvs[c.qc[0] * NTYPES + c.qc[2]]
    v23 = x.pvs[c.qc[1] * NTYPES + c.qc[2]]
    for t in range(nt):
        out[t] = (C[t] - p1[t] - p2[t] - p3[t]
                  + (max(max(r1[t], r2[t]), v12) < limit)
                  + (max(max(r1[t], r3[t]), v13) < limit)
                  + (max(max(r2[t], r3[t]), v23) < limit))


cdef inline int query_base(const XWork* x, const Cls* c) noexcept nogil:
    """The enumerator's inclusion-exclusion over the class's cards (no card e fixed)."""
    return (- x.b.C[c.qc[0]] - x.b.C[c.qc[1]] - x.b.C[c.qc[2]]
            + x.Ps[c.qp[0]] + x.Ps[c.qp[1]] + x.Ps[c.qp[2]])


cdef void exposure_sweep(const Game* g, const Pay* pay, XWork* x, int s) noexcept nogil:
    """Sweep the board's classes by value; fill x.res (counts by dealer result) and
    x.margin for every class and type of e. Also count, as the enumerator does, the dealer
    holdings that miss each class's cards: summed over the cards e a holding can see,
    a class's counts with e fixed count each such dealer holding k times (once per card),
    which is ``x.every`` for the holdings that call every e."""
    cdef Board* w = &x.b
    cdef int nc = w.nc, nt = NTYPES if s >= 0 else 13, i = 0, j, xi, t, v, cat, nq, win, tie, loss
    cdef int G = 0, self_sign = -1 if g.k == 3 else 1
    cdef bint snapped = False
    cdef Cls* c
    cdef int64_t* m
    cdef uint16_t* r
    cdef uint32_t* ev
    symmetric_pairs(x, nt)
    memset(w.C, 0, sizeof(w.C))
    memset(x.Ps, 0, sizeof(x.Ps))
    while True:
        v = w.cls[w.order[i]].value if i < nc else 1 << 20
        if not snapped and v >= g.qualifier:
            for xi in range(nc):
                c = &w.cls[xi]
                query_types(x, c, g.k, g.qualifier, nt, x.nq + xi * NTYPES)
                c.nq = G + query_base(x, c) + (self_sign if c.value < g.qualifier else 0)
            snapped = True
        if i >= nc:
            break
        j = i + 1
        while j < nc and w.cls[w.order[j]].value == v:
            j += 1
        for xi in range(i, j):
            c = &w.cls[w.order[xi]]
            query_types(x, c, g.k, v, nt, x.below + w.order[xi] * NTYPES)
            c.below = G + query_base(x, c)
        for xi in range(i, j):
            c = &w.cls[w.order[xi]]
            G += c.w
            pass_symmetric(x, c)
        for xi in range(i, j):
            c = &w.cls[w.order[xi]]
            query_types(x, c, g.k, v + 1, nt, x.le + w.order[xi] * NTYPES)
            c.le = G + query_base(x, c) + self_sign
        i = j
    for xi in range(nc):
        c = &w.cls[xi]
        cat = g.category[c.value]
        x.cat4[c.index] = <uint8_t>(4 * cat)
        m = x.margin + c.index * NTYPES
        r = x.res + c.index * nt * 4
        for t in range(nt):
            if w.n[t] == 0:  # no card e of this type: zeros, taken back as they were added
                nq = win = tie = loss = 0
            else:
                nq = x.nq[xi * NTYPES + t]
                if c.value < g.qualifier:
                    win = tie = 0
                    loss = pay.rest_total - nq
                else:
                    win = x.below[xi * NTYPES + t] - nq
                    tie = x.le[xi * NTYPES + t] - x.below[xi * NTYPES + t]
                    loss = pay.rest_total - x.le[xi * NTYPES + t]
            m[t] = (pay.coef[4 * cat] * nq + pay.coef[4 * cat + 1] * win + pay.coef[4 * cat + 2] * tie
                    + pay.coef[4 * cat + 3] * loss)
            r[4 * t] = <uint16_t>nq
            r[4 * t + 1] = <uint16_t>win
            r[4 * t + 2] = <uint16_t>tie
            r[4 * t + 3] = <uint16_t>loss
        ev = x.every + 4 * c.index  # k x the enumerator's counts of the class
        win = c.below - c.nq if c.value >= g.qualifier else 0
        tie = c.le - c.below if c.value >= g.qualifier else 0
        ev[0] = g.k * c.nq
        ev[1] = g.k * win
        ev[2] = g.k * tie
        ev[3] = g.k * (g.dealer_total - c.nq - win - tie)


cdef void first_pass(const int* board, int s, Py_ssize_t nh, XWork* x) noexcept nogil:
    """Add one board's margins to every holding's accumulators (pass 1)."""
    cdef Py_ssize_t h
    cdef int t, nt = NTYPES if s >= 0 else 13
    cdef int turn = board[3], river = board[4], tt = card_type(board[3], s), tr = card_type(board[4], s)
    cdef uint64_t trm = ((<uint64_t>1) << turn) | ((<uint64_t>1) << river)
    cdef const uint16_t* hc = x.hcls + (s if s >= 0 else NO_FLUSH) * nh
    cdef const int64_t* m
    cdef int64_t* a = x.acc + region(s, nh, 0)
    for h in range(nh):
        if not (x.hmask[h] & trm):
            m = x.margin + hc[h] * NTYPES
            for t in range(nt):
                a[t] += m[t]
            x.corr[turn * nh + h] -= m[tt]
            x.corr[river * nh + h] -= m[tr]
        a += nt


cdef void second_pass(const int* board, int s, Py_ssize_t nh, const int64_t* weight, XWork* x,
                      uint64_t* called) noexcept nogil:
    """Add one board's counts of the called states, weighted, to the 40 columns (pass 2).
    A holding that calls every e takes its class's sum over every card e it can see
    (``x.every``). One that calls some adds the cards of its shorter list: the called
    cards, or the class's sum less the folded ones. The turn and river cards were listed
    as e but cannot be one here: they are taken back."""
    cdef Py_ssize_t h
    cdef int i, j, e, scen = s if s >= 0 else NO_FLUSH, nt = NTYPES if s >= 0 else 13
    cdef int turn = board[3], river = board[4]
    cdef uint64_t trm = ((<uint64_t>1) << turn) | ((<uint64_t>1) << river), wt
    cdef uint32_t v[4]
    cdef uint32_t sign, entry
    cdef uint8_t most
    cdef const uint32_t* src
    cdef const uint16_t* hc = x.hcls + scen * nh
    cdef const uint16_t* lst = x.lst + region(s, nh, 0)
    cdef const uint8_t* nl = x.nlst + scen * nh
    cdef const uint16_t* res
    cdef uint64_t* o
    for h in range(nh):
        if x.calls[h] != NONE_CALLED and not (x.hmask[h] & trm):
            if x.calls[h] == ALL_CALLED:
                src = x.every + 4 * hc[h]
            else:
                res = x.res + hc[h] * nt * 4
                most = x.calls[h] == MOST_CALLED
                if most:
                    memcpy(v, x.every + 4 * hc[h], sizeof(v))
                else:
                    v[0] = v[1] = v[2] = v[3] = 0
                sign = 0u - most | 1u  # 1, or -1 modulo 2**32
                for j in range(nl[h]):
                    entry = lst[j]
                    madd4(v, res + 4 * (entry & 0xFF), sign * (entry >> 8))
                for i in range(2):  # a listed turn or river card was no card e: taken back
                    e = board[3 + i]
                    if x.dec[e * nh + h] ^ most:
                        madd4(v, res + 4 * card_type(e, s), 0u - sign)
                src = v
            wt = <uint64_t>weight[h]
            o = called + x.cat4[hc[h]]
            o[0] += wt * src[0]
            o[1] += wt * src[1]
            o[2] += wt * src[2]
            o[3] += wt * src[3]
        lst += nt


cdef int relation(int rank, uint32_t flop_ranks, uint32_t hole_ranks) noexcept nogil:
    """How a rank of e relates to the cards the player sees: 1 pairs the flop, 2 pairs a
    hole card (and not the flop), 0 neither."""
    if (flop_ranks >> rank) & 1:
        return 1
    if (hole_ranks >> rank) & 1:
        return 2
    return 0


cdef void decide_flop(const Game* g, const Pay* pay, const int8_t* flop, const int8_t* holdings, Py_ssize_t nh,
                      const int64_t* weight, const int32_t* hgroup, XWork* x, uint64_t* states,
                      uint64_t* margins, int64_t* margins_out) noexcept nogil:
    """Decide every (holding, e) of the flop and the base game's state; add the states and
    their margins to their groups; list the called (or folded) cards e per type for pass 2."""
    cdef Py_ssize_t h
    cdef int e, s, i, r, k = g.k, grp, scen, gbase, ncalled, nseen
    cdef int64_t mg, total
    cdef uint64_t fm = 0, used
    cdef uint32_t fr = 0, hr
    cdef uint8_t d, most
    cdef int eg[NRANKS]
    cdef int n, t
    cdef uint8_t counts[2][5][NTYPES]  # folded / called cards e of each type, per scenario
    cdef uint16_t* lst
    for i in range(3):
        fm |= (<uint64_t>1) << flop[i]
        fr |= 1u << (flop[i] >> 2)
    for h in range(nh):
        used = fm | x.hmask[h]
        total = 0
        for e in range(NCARDS):
            x.dec[e * nh + h] = 0
            if not ((g.deck >> e) & 1) or (used >> e) & 1:
                continue
            mg = pay.base + x.corr[e * nh + h] + x.acc[region(-1, nh, h) + (e >> 2)]
            for s in range(4):
                mg += x.acc[region(s, nh, h) + card_type(e, s)]
            x.dec[e * nh + h] = mg > 0
            total += mg
            if margins_out != NULL:
                margins_out[h * NCARDS + e] = mg
        hr = 0
        for i in range(k):
            hr |= 1u << (holdings[h * k + i] >> 2)
        for r in range(NRANKS):
            eg[r] = NRELATIONS * r + relation(r, fr, hr)
        gbase = (2 * hgroup[h] + (total > 0)) * NEGROUPS
        ncalled = nseen = 0
        memset(counts, 0, sizeof(counts))
        for e in range(NCARDS):
            if not ((g.deck >> e) & 1) or (used >> e) & 1:
                continue
            d = x.dec[e * nh + h]
            ncalled += d
            nseen += 1
            grp = 2 * (gbase + eg[e >> 2]) + d
            states[grp] += <uint64_t>weight[h]
            mg = pay.base + x.corr[e * nh + h] + x.acc[region(-1, nh, h) + (e >> 2)]
            for s in range(4):
                mg += x.acc[region(s, nh, h) + card_type(e, s)]
            add128(margins + 2 * grp, weight[h] * mg)
            for scen in range(5):
                counts[d][scen][card_type(e, scen if scen < 4 else -1)] += 1
        most = 2 * ncalled > nseen
        x.calls[h] = (NONE_CALLED if ncalled == 0 else ALL_CALLED if ncalled == nseen
                      else MOST_CALLED if most else SOME_CALLED)
        if x.calls[h] == SOME_CALLED or x.calls[h] == MOST_CALLED:
            for scen in range(5):  # pass 2's list: the called cards e by type, or the folded ones
                s = scen if scen < 4 else -1
                lst = x.lst + region(s, nh, h)
                n = 0
                for t in range(NTYPES if s >= 0 else 13):
                    if counts[1 - most][scen][t]:
                        lst[n] = <uint16_t>(counts[1 - most][scen][t] << 8 | t)
                        n += 1
                x.nlst[scen * nh + h] = <uint8_t>n


cdef void count_flop(const Game* g, const Pay* pay, const int8_t* flop, const int8_t* holdings, Py_ssize_t nh,
                     const int64_t* weight, const int32_t* hgroup, const int8_t* tr, const uint8_t* new_orbit,
                     Py_ssize_t ntr, XWork* x, uint64_t* states, uint64_t* margins, uint64_t* called,
                     int64_t* margins_out) noexcept nogil:
    """Both passes over one flop's turn/river pairs (class results once per orbit, kept
    from pass 1 for pass 2)."""
    cdef Py_ssize_t p, at
    cdef int i, s
    cdef int board[5]
    flop_holdings(holdings, nh, g.k, x.hmask, x.hcls)
    memset(x.acc, 0, nh * NSLOTS * sizeof(int64_t))
    memset(x.corr, 0, nh * NCARDS * sizeof(int64_t))
    board[0] = flop[0]
    board[1] = flop[1]
    board[2] = flop[2]
    for i in range(2):
        at = 0
        for p in range(ntr):
            board[3] = tr[2 * p]
            board[4] = tr[2 * p + 1]
            s = flush_suit(board[0], board[1], board[2], board[3], board[4])
            if new_orbit[p]:
                at = place_orbit(x, at, s, g.k)
                if i == 0:
                    board_classes(g, board, s, &x.b)
                    exposure_sweep(g, pay, x, s)
            if i == 0:
                first_pass(board, s, nh, x)
            else:
                second_pass(board, s, nh, weight, x, called)
        if i == 0:
            decide_flop(g, pay, flop, holdings, nh, weight, hgroup, x, states, margins, margins_out)


cdef void lay_out(XWork* x, Arena* a, Py_ssize_t n, Py_ssize_t n_orbits, int k) noexcept nogil:
    """Carve x's buffers, for flops of up to n holdings and n_orbits orbits, out of a
    worker's arena (the orbits' part is only touched as far as a flop needs)."""
    board_buffers(&x.b, a)
    x.nq = <int*>carve(a, NCLASSES * NTYPES * sizeof(int))
    x.below = <int*>carve(a, NCLASSES * NTYPES * sizeof(int))
    x.le = <int*>carve(a, NCLASSES * NTYPES * sizeof(int))
    x.margin = <int64_t*>carve(a, NCLASSES * NTYPES * sizeof(int64_t))
    x.orbits = <uint8_t*>carve(a, n_orbits * orbit_bytes(0, k))
    x.hmask = <uint64_t*>carve(a, n * sizeof(uint64_t))
    x.hcls = <uint16_t*>carve(a, 5 * n * sizeof(uint16_t))
    x.acc = <int64_t*>carve(a, n * NSLOTS * sizeof(int64_t))
    x.corr = <int64_t*>carve(a, n * NCARDS * sizeof(int64_t))
    x.lst = <uint16_t*>carve(a, n * NSLOTS * sizeof(uint16_t))
    x.nlst = <uint8_t*>carve(a, 5 * n)
    x.dec = <uint8_t*>carve(a, n * NCARDS)
    x.calls = <uint8_t*>carve(a, n)


cdef XWork* new_xwork(Py_ssize_t max_nh, Py_ssize_t max_orbits, int k) noexcept nogil:
    """A worker's XWork and all its buffers in one zeroed arena block, the XWork first."""
    cdef XWork measured          # the measuring pass's (NULL) pointers, not used
    cdef XWork* x
    cdef Arena a
    arena_measure(&a)
    carve(&a, sizeof(XWork))
    lay_out(&measured, &a, max_nh + 1, max_orbits, k)
    if not arena_alloc(&a):
        return NULL
    x = <XWork*>carve(&a, sizeof(XWork))
    x.block = a.block
    lay_out(x, &a, max_nh + 1, max_orbits, k)
    return x


cdef void free_xwork(XWork* x) noexcept nogil:
    if x != NULL:
        free(x.block)


#: Number of e groups (3 x rank of e + its relation to the player's cards).
E_GROUPS = NEGROUPS
#: The relations of e's rank to the cards the player sees, in group order.
RELATIONS = ("none", "pairs the flop", "pairs a hole card")


def count_exposed(int k, bint omaha, int qualifier, uint64_t deck, int dealer_total, int rest_total,
                  const int8_t[:, ::1] flops,
                  const int8_t[:, ::1] holdings, const int64_t[::1] hold_offsets,
                  const int64_t[::1] weight, const int32_t[::1] hgroup, int n_hgroups,
                  const int8_t[:, ::1] tr_pairs, const uint8_t[::1] tr_new_orbit, const int64_t[::1] tr_offsets,
                  const uint16_t[:, ::1] pair_table, const uint16_t[::1] flush, const uint8_t[::1] category,
                  const int64_t[::1] coef, int64_t base, int64_t[:, ::1] margins_out=None, int threads=1):
    """Decide every state (flop f, holding, seen dealer card e) and sum it into its group.

    Flop f owns holdings[hold_offsets[f]:hold_offsets[f+1]] (each standing for ``weight``
    real ones) and turn/river pairs tr_pairs[tr_offsets[f]:tr_offsets[f+1]] in orbits that
    start where tr_new_orbit is 1, as for ``count_states``. A state is called when its
    margin ``base + coef . counts`` (40 coefficients) is > 0. Returns ``(states, margins,
    called)``: per group (holding group, base-game decision, e group, decision), shaped
    (n_hgroups, 2, E_GROUPS, 2), the weighted states (uint64) and the weighted margin sums
    (Python ints); and the weighted counts of the called states (uint64, 40 columns).
    ``margins_out`` (holdings x 52), when given, receives every state's margin."""
    cdef Py_ssize_t nf = flops.shape[0], f, nrows = holdings.shape[0]
    if k not in (2, 3) or holdings.shape[1] != k or coef.shape[0] != NCOLS:
        raise ValueError("count_exposed: shapes do not match the hole size, or coef is not 40 long")
    if hold_offsets.shape[0] != nf + 1:
        raise ValueError("count_exposed: offsets must have one entry per flop, plus one")
    cdef Py_ssize_t max_nh = check_flop_layout("count_exposed", nrows, hold_offsets, tr_pairs, tr_new_orbit,
                                               tr_offsets)
    cdef Py_ssize_t max_orbits = 0, orbits, p
    for f in range(nf):
        orbits = 0
        for p in range(tr_offsets[f], tr_offsets[f + 1]):
            orbits += tr_new_orbit[p]
        max_orbits = max(max_orbits, orbits)
    if weight.shape[0] != nrows or hgroup.shape[0] != nrows:
        raise ValueError("count_exposed: one weight and one group per holding")
    if margins_out is not None and (margins_out.shape[0] != nrows or margins_out.shape[1] != NCARDS):
        raise ValueError("count_exposed: margins_out needs a row of 52 per holding")
    if n_hgroups < 1 or (nrows and (np.min(hgroup) < 0 or np.max(hgroup) >= n_hgroups)):
        raise ValueError("count_exposed: holding groups must be 0 .. n_hgroups - 1")
    if not 0 < rest_total < 1 << 16 or dealer_total * k >= 1 << 32 or (
            nrows and (np.min(weight) < 1 or np.max(weight) > 255)):
        raise ValueError("count_exposed: dealer rests are counted in 16 bits and weights in 8")
    cdef Game g = make_game(k, omaha, qualifier, deck, dealer_total, &pair_table[0, 0], &flush[0], &category[0])
    cdef Pay pay
    cdef int j
    for j in range(NCOLS):
        pay.coef[j] = coef[j]
    pay.base = base
    pay.rest_total = rest_total
    threads = max(1, threads)
    cdef Py_ssize_t ngroups = n_hgroups * 2 * NEGROUPS * 2
    state_sums = np.zeros((threads, ngroups), dtype=np.uint64)
    margin_sums = np.zeros((threads, ngroups, 2), dtype=np.uint64)
    called_sums = np.zeros((threads, NCOLS), dtype=np.uint64)
    cdef uint64_t[:, ::1] st = state_sums
    cdef uint64_t[:, :, ::1] ms = margin_sums
    cdef uint64_t[:, ::1] cs = called_sums
    cdef XWork* x
    cdef int failed[1]
    failed[0] = 0
    cdef int t
    cdef const int8_t* hold_ptr = &holdings[0, 0] if nrows else NULL
    cdef const int64_t* weight_ptr = &weight[0] if nrows else NULL
    cdef const int32_t* group_ptr = &hgroup[0] if nrows else NULL
    cdef const int8_t* tr_ptr = &tr_pairs[0, 0] if tr_pairs.shape[0] else NULL
    cdef const uint8_t* orbit_ptr = &tr_new_orbit[0] if tr_pairs.shape[0] else NULL
    cdef int64_t* mo = &margins_out[0, 0] if margins_out is not None and nrows else NULL
    if nf:
        with nogil, parallel(num_threads=threads):
            t = threadid()
            x = new_xwork(max_nh, max_orbits, k)
            if x == NULL:
                failed[0] = 1
            for f in prange(nf, schedule="dynamic", chunksize=1):
                if x != NULL:
                    count_flop(&g, &pay, &flops[f, 0], hold_ptr + hold_offsets[f] * k,
                               hold_offsets[f + 1] - hold_offsets[f], weight_ptr + hold_offsets[f],
                               group_ptr + hold_offsets[f], tr_ptr + 2 * tr_offsets[f], orbit_ptr + tr_offsets[f],
                               tr_offsets[f + 1] - tr_offsets[f], x, &st[t, 0], &ms[t, 0, 0], &cs[t, 0],
                               mo + hold_offsets[f] * NCARDS if mo != NULL else NULL)
            free_xwork(x)
    if failed[0]:
        raise MemoryError("count_exposed: could not allocate a worker's buffers")
    lo = margin_sums[:, :, 0].astype(object)
    hi = margin_sums[:, :, 1].view(np.int64).astype(object)
    shape = (n_hgroups, 2, NEGROUPS, 2)
    return (
        state_sums.sum(axis=0, dtype=np.uint64).reshape(shape),
        ((hi << 64) + lo).sum(axis=0).reshape(shape),
        called_sums.sum(axis=0, dtype=np.uint64),
    )
