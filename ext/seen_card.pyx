# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Exact counting core of one dealer card seen in a game with decisions before the flop, at
the flop and at the river (Ultimate Texas Hold'em): compiled, nogil, OpenMP over flops.

A state is the player's two hole cards P, the dealer card he saw (d1) and the cards dealt
so far. For each flop class, each turn/river pair makes a board; every two-card holding of
the cards left gets its strength on that board once (a table per rank pair, the flush
suit apart), and the strengths are numbered densely. Then for each d1 the dealer's hands
{d1, x} are counted below each strength (a prefix sum), so that for each P the unseen
dealer cards x that beat, tie or lose to it, qualifying or not, are two lookups, less the
two cards P holds. The river is decided there, exactly; the flop, once every board of the
flop is summed; and each (d1, P)'s sums go, times the flop class's size, to the row of its
class under suit permutations, where the pre-flop decision is taken by the caller. The same
sums go to the rows of (d1, P, f) for each card f of the flop: the pre-flop decision of a
player who also saw one flop card (every image of the flop under suit permutations puts
its (d1, P, f) in the same class, so the class takes the flop class's size too).

A showdown's value is linear in the play bet: ``a0 + m * b0`` per (category, dealer
result) in the order of ``analysis.counting.streets.RESULTS6``, checked by the caller.
"""

from cython.parallel cimport parallel, prange, threadid
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint64_t

import numpy as np

from poker cimport NTYPES, insertion_sort, pair_index, pair_index_any, sorted_index


cdef enum:
    NRES = 6                 # dealer results: not qualifying x (win, tie, loss), qualifying x (win, tie, loss)
    NHOLD = 1326             # two-card holdings of 52 cards (colex index)
    NTP = 351                # pairs t2 <= t3 of card types (poker.pair_index)
    MAXOPT = 4               # options at a street
    FOLD = 0                 # option kinds
    SHOW = 1                 #   a showdown with the option's play bet (bet m; check at the river: m = 0)
    ON = 2                   #   a check before the river: the next street decides


cdef struct Values:
    const int64_t* a0        # per category x result: the showdown's value without a play bet
    const int64_t* b0        # ... and per ante of play bet
    int64_t fold             # a fold's value per deal
    int nriver
    int river_kind[MAXOPT]
    int64_t river_mult[MAXOPT]
    int nflop
    int flop_kind[MAXOPT]
    int64_t flop_mult[MAXOPT]
    int ncols                # columns of a class row: flop value, a, b, deals per flop option, per river option


cdef inline int hold(int a, int b) noexcept nogil:
    """Colex index of the two distinct cards a and b."""
    if a > b:
        a, b = b, a
    return a + ((b * (b - 1)) >> 1)


cdef inline void add3(int64_t* cell, const int64_t* sums) noexcept nogil:
    """Add a state's three sums (a, b, the best river value) to a cell."""
    cell[0] += sums[0]
    cell[1] += sums[1]
    cell[2] += sums[2]


cdef inline int64_t flop_best(const Values* v, const int64_t* sums, int64_t ndeal, int* best) noexcept nogil:
    """The best flop option of a cell's sums (a, b, the best river value): its value, and
    its index in ``best`` (the first best: options are in risk order)."""
    cdef int o
    cdef int64_t x, bv = 0
    best[0] = 0
    for o in range(v.nflop):
        if v.flop_kind[o] == FOLD:
            x = v.fold * ndeal
        elif v.flop_kind[o] == SHOW:
            x = sums[0] + v.flop_mult[o] * sums[1]
        else:
            x = sums[2]
        if o == 0 or x > bv:
            best[0] = o
            bv = x
    return bv


cdef void count_flop(const int8_t* flop, int64_t weight, const int8_t* tr, const int64_t* tr_weight, int ntr,
                     const int8_t* stab, int nstab, uint64_t deck, const uint16_t* rank7, const uint16_t* flush,
                     const uint8_t* category, int qualifier, const Values* v, const int32_t* cls, int64_t* out,
                     const int32_t* cls_f, int64_t* out_f, int64_t* out_t, int64_t* acc, int64_t* acc_t,
                     int64_t* tab, uint16_t* mark) noexcept nogil:
    """Add one flop class's sums, times ``weight``, to the class rows ``out`` (and to the
    rows ``out_f`` of (d1, P, f), f a card of the flop: the best flop value, a, b, deals;
    with ``acc_t``, to the rows ``out_t`` of (d1, P, t), t the turn or the river card seen
    before the first decision, the flop then decided knowing it too). Only one
    turn/river pair of each orbit under the flop's stabilizer ``stab`` (card maps) is dealt,
    times its orbit's size; each cell's sums are then those of its images under ``stab``,
    over the stabilizer's order (every orbit then counted once per pair: exact)."""
    cdef int rem[52]
    cdef int oth[52]
    cdef int ty[52]
    cdef int br[7]
    cdef int rc[13]
    cdef int n[NTYPES]
    cdef int pv[NTYPES * NTYPES]     # strength of a holding by its types t2 <= t3 (pair_index)
    cdef int dense[NTYPES * NTYPES]  # ... numbered densely from 1 (0: no such holding)
    cdef int distinct[NTYPES * NTYPES]
    cdef int cum[NTYPES * NTYPES + 1]
    cdef int hpi[NHOLD]              # the type pair of each holding of the board
    cdef int res[NRES]
    cdef int nrem = 0, noth, i, j, k, t, r, c, t1, t2, t3, s, ns, bm, w, u, nd, nq, lt, le, cat, o, best
    cdef int nk, pi, d1, hp, x1, x2, q, tc, rcard, it, seen
    cdef int64_t a, b, bv, x, ndeal, wt, sb, sv
    cdef const int8_t* m
    cdef int64_t* row
    cdef int64_t* cell
    cdef int64_t* row_t
    cdef int64_t* row_r
    cdef int64_t sums[3 + MAXOPT]
    cdef const int64_t* e
    cdef uint64_t on = 0
    cdef int suit_count[4]
    cdef int width = 3 + v.nriver     # a cell of acc: a, b, the best river value, deals per river option
    for i in range(3):
        on |= (<uint64_t>1) << flop[i]
    for c in range(52):
        if (deck >> c) & 1 and not (on >> c) & 1:
            rem[nrem] = c
            nrem += 1
    memset(acc, 0, width * 52 * NHOLD * sizeof(int64_t))
    if acc_t != NULL:  # its cells: a, b, the best river value
        for i in range(nrem):
            memset(acc_t + rem[i] * 52 * NHOLD * 3, 0, 3 * 52 * NHOLD * sizeof(int64_t))
    nd = nrem - 5  # the unseen dealer cards of a state at the river
    for q in range(ntr):  # one turn/river pair of each orbit
        tc = tr[2 * q]
        rcard = tr[2 * q + 1]
        wt = tr_weight[q]
        # the board: its rank counts and its flush suit (3 or more cards), if any
        for i in range(13):
            rc[i] = 0
        suit_count[0] = suit_count[1] = suit_count[2] = suit_count[3] = 0
        br[0] = flop[0]
        br[1] = flop[1]
        br[2] = flop[2]
        br[3] = tc
        br[4] = rcard
        for i in range(5):
            rc[br[i] >> 2] += 1
            suit_count[br[i] & 3] += 1
        s = -1
        for i in range(4):
            if suit_count[i] >= 3:
                s = i
        ns = suit_count[s] if s >= 0 else 0
        bm = 0
        for i in range(5):
            if (br[i] & 3) == s:
                bm |= 1 << (br[i] >> 2)
        # the cards left by type: rank, + 13 in the board's flush suit
        for i in range(NTYPES):
            n[i] = 0
        noth = 0
        for i in range(nrem):
            if rem[i] != tc and rem[i] != rcard:
                c = rem[i]
                oth[noth] = c
                ty[noth] = (c >> 2) + (13 if (c & 3) == s else 0)
                n[ty[noth]] += 1
                noth += 1
        # the strength of every holding by types, and the strengths numbered densely
        nk = 0
        for t3 in range(NTYPES):
            if not n[t3]:
                continue
            for t2 in range(t3 + 1):
                pi = pair_index(t2, t3)
                dense[pi] = 0
                if not n[t2] or (t2 == t3 and n[t2] < 2):
                    continue
                br[0] = flop[0] >> 2
                br[1] = flop[1] >> 2
                br[2] = flop[2] >> 2
                br[3] = tc >> 2
                br[4] = rcard >> 2
                br[5] = t2 % 13
                br[6] = t3 % 13
                w = rank7[sorted_index(br, 7)]
                k = ns + (t2 >= 13) + (t3 >= 13)
                if s >= 0 and k >= 5:
                    u = flush[bm | ((t2 >= 13) << (t2 % 13)) | ((t3 >= 13) << (t3 % 13))]
                    if u > w:
                        w = u
                pv[pi] = w
                if not mark[w]:
                    mark[w] = 1
                    distinct[nk] = w
                    nk += 1
        insertion_sort(distinct, nk)
        for i in range(nk):
            mark[distinct[i]] = <uint16_t>(i + 1)
        for t3 in range(NTYPES):
            if not n[t3]:
                continue
            for t2 in range(t3 + 1):
                if n[t2] and (t2 != t3 or n[t2] >= 2):
                    dense[pair_index(t2, t3)] = mark[pv[pair_index(t2, t3)]]
        for i in range(nk):
            mark[distinct[i]] = 0
        # per type of the seen card: the dealer's hands below each strength, then every
        # holding type's results, less the two cards the holding takes from the dealer
        for t1 in range(NTYPES):
            if not n[t1]:
                continue
            n[t1] -= 1
            for i in range(nk + 1):
                cum[i] = 0
            nq = 0
            for t2 in range(NTYPES):
                if n[t2]:
                    w = pv[pair_index_any(t1, t2)]
                    cum[dense[pair_index_any(t1, t2)]] += n[t2]
                    nq += n[t2] * (w < qualifier)
            for i in range(1, nk + 1):
                cum[i] += cum[i - 1]
            for t3 in range(NTYPES):
                if not n[t3]:
                    continue
                for t2 in range(t3 + 1):
                    if not n[t2] or (t2 == t3 and n[t2] < 2):
                        continue
                    pi = pair_index(t2, t3)
                    w = pv[pi]
                    le = cum[dense[pi]]
                    lt = cum[dense[pi] - 1]
                    if w < qualifier:
                        res[0] = lt
                        res[1] = le - lt
                        res[2] = nq - le
                        res[3] = 0
                        res[4] = 0
                        res[5] = noth - 1 - nq
                    else:
                        res[0] = nq
                        res[1] = 0
                        res[2] = 0
                        res[3] = lt - nq
                        res[4] = le - lt
                        res[5] = noth - 1 - le
                    # the holding's two cards are not the dealer's
                    x1 = pv[pair_index_any(t1, t2)]
                    res[(x1 >= qualifier) * 3 + (0 if x1 < w else (1 if x1 == w else 2))] -= 1
                    x2 = pv[pair_index_any(t1, t3)]
                    res[(x2 >= qualifier) * 3 + (0 if x2 < w else (1 if x2 == w else 2))] -= 1
                    cat = category[w] * NRES
                    a = 0
                    b = 0
                    for o in range(NRES):
                        a += res[o] * v.a0[cat + o]
                        b += res[o] * v.b0[cat + o]
                    best = 0
                    bv = 0
                    for o in range(v.nriver):
                        x = v.fold * nd if v.river_kind[o] == FOLD else a + v.river_mult[o] * b
                        if o == 0 or x > bv:
                            best = o
                            bv = x
                    cell = tab + (t1 * NTP + pi) * 4
                    cell[0] = a * wt
                    cell[1] = b * wt
                    cell[2] = bv * wt
                    cell[3] = 3 + best
            n[t1] += 1
        # every (d1, holding) cell takes its types' sums
        for j in range(noth):
            for k in range(j + 1, noth):
                hpi[oth[j] + ((oth[k] * (oth[k] - 1)) >> 1)] = pair_index_any(ty[j], ty[k])
        for i in range(noth):
            d1 = oth[i]
            row = acc + d1 * NHOLD * width
            e = tab + ty[i] * NTP * 4
            for k in range(noth):  # holdings in colex order: the cells in memory order
                if k == i:
                    continue
                for j in range(k):
                    if j == i:
                        continue
                    hp = oth[j] + ((oth[k] * (oth[k] - 1)) >> 1)
                    pi = hpi[hp] * 4
                    cell = row + hp * width
                    add3(cell, e + pi)
                    cell[e[pi + 3]] += nd * wt
                    if acc_t != NULL:  # the same sums, known to hold the turn card, and the river card
                        add3(acc_t + ((tc * 52 + d1) * NHOLD + hp) * 3, e + pi)
                        add3(acc_t + ((rcard * 52 + d1) * NHOLD + hp) * 3, e + pi)
    # the flop decision of every (d1, P), its sums to its class's row
    ndeal = <int64_t>((nrem - 3) * (nrem - 4) / 2) * nd
    for i in range(nrem):
        d1 = rem[i]
        for j in range(nrem):
            if j == i:
                continue
            for k in range(j + 1, nrem):
                if k == i:
                    continue
                hp = rem[j] + ((rem[k] * (rem[k] - 1)) >> 1)
                for o in range(width):
                    sums[o] = 0
                for q in range(nstab):
                    m = stab + 52 * q
                    cell = acc + (m[d1] * NHOLD + hold(m[rem[j]], m[rem[k]])) * width
                    for o in range(width):
                        sums[o] += cell[o]
                for o in range(width):
                    sums[o] //= nstab
                a = sums[0]
                b = sums[1]
                bv = flop_best(v, sums, ndeal, &best)
                row = out + <int64_t>cls[d1 * NHOLD + hp] * v.ncols
                row[0] += weight * bv
                row[1] += weight * a
                row[2] += weight * b
                row[3 + best] += weight * ndeal
                if v.flop_kind[best] == ON:
                    for o in range(v.nriver):
                        row[3 + v.nflop + o] += weight * sums[3 + o]
                for o in range(3):
                    row = out_f + <int64_t>cls_f[(flop[o] * 52 + d1) * NHOLD + hp] * 4
                    row[0] += weight * bv
                    row[1] += weight * a
                    row[2] += weight * b
                    row[3] += weight * ndeal
    if acc_t == NULL:
        return
    # the flop decision of every (d1, P, t), t a turn or river card seen: its sums to the row
    # of its class (each deal counted once per card of the two)
    ndeal = <int64_t>(nrem - 4) * nd
    for it in range(nrem):
        seen = rem[it]
        for i in range(nrem):
            if i == it:
                continue
            d1 = rem[i]
            for k in range(nrem):  # holdings in colex order: the cells and classes in memory order
                if k == i or k == it:
                    continue
                for j in range(k):
                    if j == i or j == it:
                        continue
                    hp = rem[j] + ((rem[k] * (rem[k] - 1)) >> 1)
                    if nstab == 1:
                        cell = acc_t + ((seen * 52 + d1) * NHOLD + hp) * 3
                        sums[0] = cell[0]
                        sums[1] = cell[1]
                        sums[2] = cell[2]
                    else:
                        for o in range(3):
                            sums[o] = 0
                        for q in range(nstab):
                            m = stab + 52 * q
                            add3(sums, acc_t + ((m[seen] * 52 + m[d1]) * NHOLD + hold(m[rem[j]], m[rem[k]])) * 3)
                        for o in range(3):
                            sums[o] //= nstab
                    bv = flop_best(v, sums, ndeal, &best)
                    row = out_t + <int64_t>cls_f[(seen * 52 + d1) * NHOLD + hp] * 4
                    row[0] += weight * bv
                    row[1] += weight * sums[0]
                    row[2] += weight * sums[1]
                    row[3] += weight * ndeal


def count_seen_card(
    const int8_t[:, ::1] flops,
    const int64_t[::1] weights,
    const int8_t[:, ::1] tr,
    const int64_t[::1] tr_weight,
    const int64_t[::1] tr_offsets,
    const int8_t[:, ::1] stab,
    const int64_t[::1] stab_offsets,
    uint64_t deck,
    const uint16_t[::1] rank7,
    const uint16_t[::1] flush,
    const uint8_t[::1] category,
    int qualifier,
    const int64_t[::1] a0,
    const int64_t[::1] b0,
    int64_t fold,
    river,
    flop,
    const int32_t[::1] cls,
    int nclasses,
    const int32_t[::1] cls_f,
    int nclasses_f,
    bint runout=False,
    int threads=1,
):
    """Class rows (nclasses x (3 + flop options + river options)) of the given flop classes
    (``weights``: flops in each class; ``tr[tr_offsets[f]:tr_offsets[f + 1]]``: a turn/river
    pair of each orbit under flop f's stabilizer, ``tr_weight`` the orbit's size, and
    ``stab[stab_offsets[f]:stab_offsets[f + 1]]`` the stabilizer's card maps): the best flop value, the showdown sums a and b, the
    deals that take each flop option and, under a flop check, each river option. ``river``
    and ``flop``: (kind, multiple) per option in risk order (kind 0 fold, 1 showdown, 2 check
    to the river); ``cls``: the class of each (d1, holding) cell, d1 * 1326 + holding.
    Also the rows (nclasses_f x 4) of (d1, holding, flop card f), ``cls_f`` their classes at
    (f * 52 + d1) * 1326 + holding: the best flop value, a, b and the deals; with ``runout``,
    the same rows of (d1, holding, t), t a turn or river card seen (about 86 MB more per
    thread, and about two and a half times the time). Returns the three (the last empty without ``runout``)."""
    cdef Values v
    cdef int o
    cdef Py_ssize_t nf, f
    if len(river) > MAXOPT or len(flop) > MAXOPT or not river or not flop:
        raise ValueError("count_seen_card: 1 to 4 options at the flop and at the river")
    if (a0.shape[0] != b0.shape[0] or cls.shape[0] != 52 * NHOLD or cls_f.shape[0] != 52 * NHOLD * 52
            or category.shape[0] >= 65535):
        raise ValueError("count_seen_card: tables of the wrong shape")
    nf = flops.shape[0]
    if (tr_offsets.shape[0] != nf + 1 or stab_offsets.shape[0] != nf + 1 or tr_offsets[nf] != tr.shape[0]
            or stab_offsets[nf] != stab.shape[0] or stab.shape[1] != 52 or tr.shape[1] != 2
            or tr_weight.shape[0] != tr.shape[0]):
        raise ValueError("count_seen_card: turn/river pairs or stabilizers of the wrong shape")
    for f in range(nf):
        if stab_offsets[f + 1] <= stab_offsets[f]:
            raise ValueError("count_seen_card: a flop without its stabilizer (the identity at least)")
    v.a0 = &a0[0]
    v.b0 = &b0[0]
    v.fold = fold
    v.nriver = len(river)
    for o, (kind, m) in enumerate(river):
        v.river_kind[o] = kind
        v.river_mult[o] = m
    v.nflop = len(flop)
    for o, (kind, m) in enumerate(flop):
        v.flop_kind[o] = kind
        v.flop_mult[o] = m
    v.ncols = 3 + v.nflop + v.nriver
    threads = max(1, threads)
    out = np.zeros((threads, nclasses, v.ncols), dtype=np.int64)
    cdef int64_t[:, :, ::1] ov = out
    out_f = np.zeros((threads, nclasses_f, 4), dtype=np.int64)
    cdef int64_t[:, :, ::1] ovf = out_f
    out_t = np.zeros((threads, nclasses_f if runout else 1, 4), dtype=np.int64)
    cdef int64_t[:, :, ::1] ovt = out_t
    cdef int64_t* acc_t
    cdef int nstrength = category.shape[0], t
    cdef int failed[1]
    failed[0] = 0
    cdef int64_t* acc
    cdef int64_t* tab
    cdef uint16_t* mark
    cdef const uint16_t* r7 = &rank7[0]
    cdef const uint16_t* fl = &flush[0]
    cdef const uint8_t* cat = &category[0]
    cdef const int32_t* cl = &cls[0]
    cdef const int32_t* clf = &cls_f[0]
    if nf:
        with nogil, parallel(num_threads=threads):
            t = threadid()
            acc = <int64_t*>malloc((3 + v.nriver) * 52 * NHOLD * sizeof(int64_t))
            tab = <int64_t*>malloc(NTYPES * NTP * 4 * sizeof(int64_t))
            mark = <uint16_t*>calloc(nstrength, sizeof(uint16_t))
            acc_t = NULL
            if runout:
                acc_t = <int64_t*>malloc(3 * 52 * 52 * NHOLD * sizeof(int64_t))
            if acc == NULL or tab == NULL or mark == NULL or (runout and acc_t == NULL):
                failed[0] = 1
            for f in prange(nf, schedule="dynamic", chunksize=1):
                if not failed[0]:
                    count_flop(&flops[f, 0], weights[f], &tr[tr_offsets[f], 0], &tr_weight[tr_offsets[f]],
                               tr_offsets[f + 1] - tr_offsets[f], &stab[stab_offsets[f], 0],
                               stab_offsets[f + 1] - stab_offsets[f], deck, r7, fl, cat, qualifier, &v, cl,
                               &ov[t, 0, 0], clf, &ovf[t, 0, 0], &ovt[t, 0, 0], acc, acc_t, tab, mark)
            free(acc)
            free(acc_t)
            free(tab)
            free(mark)
    if failed[0]:
        raise MemoryError("count_seen_card: could not allocate a worker's buffers")
    return out.sum(axis=0), out_f.sum(axis=0), out_t.sum(axis=0) if runout else out_t[:0, 0]
