# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Exact counting core of games with a decision after the river (Ultimate Texas Hold'em
style): compiled, nogil, OpenMP over flops.

For every state (player's hole cards + flop) it counts the completions (turn and river,
then the dealer's hole cards) by player final category x dealer result, with the dealer's
non-qualifying hands split by win / tie / loss (their play bets still have action). Two
tables per state:

* ``bet``: every completion (what a bet made before the river is settled on);
* ``river[o]`` for o >= 1: the completions whose board makes river option ``o`` the best,
  the river decision taken board by board with the exact integer values ``coef`` of each
  option per dealer hand (first option wins a tie: the caller orders them by money at risk).
  Option 0's table is the bet table minus the others, so it is not written (its counts go
  to six scratch columns at the end of the row): a narrower row is less memory to stream.
  Or the river is played by the written rule of :mod:`analysis.hands.written` (a hidden
  pair or better, or few outs), decided per class from the board's own hand and the board
  with each unseen card.

The boards, classes and inclusion-exclusion are those of ``enumerator.pyx``
(``classes.pxd``); only what is added per holding differs. As there, a flop of many
holdings sums its pairs' results by class per flush scenario and takes off the holdings that
meet each pair's turn or river (``count_flop_by_class``).
"""

from cython.parallel cimport prange, parallel
from libc.stdlib cimport free, malloc
from libc.string cimport memset
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from classes cimport (NCLASSES, NO_FLUSH, Arena, Board, Cls, Game, all_classes, arena_alloc, arena_measure,
                      board_buffers, board_classes, carve, make_game, narrow_classes, sweep_dealers)
from flops cimport (add_class_sums, check_flop_layout, flop_holdings, flop_scenarios, holdings_by_card,
                    zero_scenarios)
from poker cimport NCATEGORIES, flush_suit, sorted_index


cdef extern from "sums.h":
    void add6_masked "sums_add6_masked"(uint32_t* o, const uint32_t* r, uint32_t keep) noexcept nogil
    void sub6 "sums_sub6"(uint32_t* o, const uint32_t* r) noexcept nogil


cdef struct Rule:
    int bet                  # the written river rule's option when it bets (-1: the best option by coef)
    int outs                 # ... it bets too when fewer than outs in every ``of`` cards unseen beat the hand
    int of                   #     with the board (21 in 45: the full deck's unseen cards)
    const int32_t* made      # per strength: the hand without its kickers, comparable
    const uint16_t* rank5    # per 5-rank multiset: the strength of five unsuited cards
    const uint16_t* rank6    # per 6-rank multiset: the best strength of five of six unsuited cards


cdef enum:
    PAIR = 1                 # the category code of a pair (analysis.model.categories)
    NRES = 6                 # dealer results: not qualifying x (win, tie, loss), qualifying x (win, tie, loss)
    BY_CLASS = 1024          # holdings of a flop from which its pairs are summed by class (auto)
    NSCOLS = NCATEGORIES * NRES
    MAXOPT = 4               # river options


cdef struct Work:
    void* block
    Board b
    uint32_t* res            # NCLASSES x NRES: the dealer results of one holding of each class
    uint16_t* boff           # per class: its columns in the bet table (category x NRES)
    uint16_t* roff           # per class: its columns in the river tables (chosen option, category)
    uint64_t* hmask
    uint16_t* hcls
    uint32_t* acc            # 5 scenarios x classes x ncols: the pairs' results summed by class
    int32_t* by_card_start   # 53: by_card[by_card_start[c]:by_card_start[c + 1]] hold card c
    int32_t* by_card


cdef int board_value(const Game* g, const int* board, int s, const uint16_t* rank5) noexcept nogil:
    """The strength of the five board cards on their own."""
    cdef int r5[5]
    cdef int i, mask = 0, suited = 0, v
    for i in range(5):
        r5[i] = board[i] >> 2
        if s >= 0 and (board[i] & 3) == s:
            suited += 1
            mask |= 1 << (board[i] >> 2)
    v = rank5[sorted_index(r5, 5)]
    if suited == 5 and g.flush[mask] > v:
        v = g.flush[mask]
    return v


cdef int board_with(const Game* g, const int* board, int s, const Rule* rule, int* out) noexcept nogil:
    """The best strength of the board with each card of the deck not on it, sorted
    ascending into ``out``; returns how many."""
    cdef int r6[6]
    cdef int i, j, x, v, f, n = 0, mask = 0, suited = 0
    cdef uint64_t on = 0
    for i in range(5):
        on |= (<uint64_t>1) << board[i]
        if s >= 0 and (board[i] & 3) == s:
            suited += 1
            mask |= 1 << (board[i] >> 2)
    for x in range(52):
        if not (g.deck >> x) & 1 or (on >> x) & 1:
            continue
        for i in range(5):
            r6[i] = board[i] >> 2
        r6[5] = x >> 2
        v = rule.rank6[sorted_index(r6, 6)]
        if s >= 0 and (x & 3) == s and suited >= 4:
            f = g.flush[mask | (1 << (x >> 2))]
        elif suited == 5:
            f = g.flush[mask]
        else:
            f = 0
        if f > v:
            v = f
        j = n  # insertion into the sorted values
        while j > 0 and out[j - 1] > v:
            out[j] = out[j - 1]
            j -= 1
        out[j] = v
        n += 1
    return n


cdef void class_results(const Game* g, Work* work, const int64_t* coef, int nopt, const int* board, int s,
                        const Rule* rule) noexcept nogil:
    """Dealer results and the river option of every class of the current board: the best
    by ``coef``, or the written rule's (a pair or better that beats the board's own hand by
    more than its kickers bets, and so does a hand that fewer than ``rule.outs`` in
    ``rule.of`` of the cards the player cannot see beat with the board; the rest folds)."""
    cdef Board* w = &work.b
    cdef int x, i, o, best, cat, own = 0, nsix = 0, lo, hi, mid
    cdef int six[52]
    cdef int64_t v, bestv
    cdef uint32_t* r
    cdef Cls* c
    sweep_dealers(g, w)
    if rule.bet >= 0:
        own = rule.made[board_value(g, board, s, rule.rank5)]
        nsix = board_with(g, board, s, rule, six)
    for x in range(w.nc):
        c = &w.cls[x]
        r = work.res + c.index * NRES
        if c.value >= g.qualifier:
            # every non-qualifying dealer hand is below the player's
            r[0] = <uint32_t>c.nq
            r[1] = 0
            r[2] = 0
            r[3] = <uint32_t>(c.below - c.nq)
            r[4] = <uint32_t>(c.le - c.below)
            r[5] = <uint32_t>(g.dealer_total - c.le)
        else:
            # the player cannot beat or tie a qualifying dealer
            r[0] = <uint32_t>c.below
            r[1] = <uint32_t>(c.le - c.below)
            r[2] = <uint32_t>(c.nq - c.le)
            r[3] = 0
            r[4] = 0
            r[5] = <uint32_t>(g.dealer_total - c.nq)
        cat = g.category[c.value]
        best = 0
        bestv = 0
        if rule.bet >= 0:
            lo = 0  # the cards whose board beats the hand: those after the last at or below it
            hi = nsix
            while lo < hi:
                mid = (lo + hi) >> 1
                if six[mid] <= c.value:
                    lo = mid + 1
                else:
                    hi = mid
            if (cat >= PAIR and rule.made[c.value] > own) or (nsix - lo) * rule.of < rule.outs * (nsix - 2):
                best = rule.bet
        else:
            for o in range(nopt):
                v = 0
                for i in range(NRES):
                    v += <int64_t>r[i] * coef[o * NSCOLS + cat * NRES + i]
                if o == 0 or v > bestv:
                    best = o
                    bestv = v
        work.boff[c.index] = <uint16_t>(cat * NRES)
        work.roff[c.index] = <uint16_t>(best * NSCOLS + cat * NRES if best > 0 else nopt * NSCOLS)


cdef void count_flop(const Game* g, const int64_t* coef, int nopt, const Rule* rule, int ncols, const int8_t* flop,
                     const int8_t* holdings, Py_ssize_t nh, const int8_t* tr, const uint8_t* new_orbit,
                     Py_ssize_t ntr, uint32_t* out, Work* w) noexcept nogil:
    """Add every turn/river pair's counts to the rows of one flop's holdings."""
    cdef Py_ssize_t h, x
    cdef int scen, c, s
    cdef int board[5]
    cdef uint64_t trm
    cdef const uint16_t* hc
    cdef uint32_t* o
    cdef uint32_t keep
    cdef const uint32_t* r
    cdef const uint64_t* hmask = w.hmask
    cdef const uint32_t* res = w.res
    cdef const uint16_t* boff = w.boff
    cdef const uint16_t* roff = w.roff
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
            class_results(g, w, coef, nopt, board, s, rule)
        scen = s if s >= 0 else NO_FLUSH
        hc = w.hcls + scen * nh
        trm = ((<uint64_t>1) << board[3]) | ((<uint64_t>1) << board[4])
        o = out
        for h in range(nh):
            c = hc[h]
            keep = 0u - <uint32_t>((hmask[h] & trm) == 0)
            r = res + c * NRES
            add6_masked(o + boff[c], r, keep)
            add6_masked(o + roff[c], r, keep)
            o += ncols


cdef void count_flop_by_class(const Game* g, const int64_t* coef, int nopt, const Rule* rule, int ncols,
                              const int8_t* flop,
                              const int8_t* holdings, Py_ssize_t nh, const int8_t* tr, const uint8_t* new_orbit,
                              Py_ssize_t ntr, uint32_t* out, Work* w) noexcept nogil:
    """count_flop for many holdings: a holding's class on a board depends only on the board's
    flush suit (5 scenarios), so each pair adds its classes' results to its scenario's sums
    (the classes a holding can have: 455 or 3,276 for 3 cards); the holdings that meet the
    pair's turn or river take the same entries off again (modulo 2**32: they cancel exactly,
    stale entries included), and at the end each holding adds its classes' sums."""
    cdef int ncls = all_classes(g.k), narrow = narrow_classes(g.k)
    cdef Py_ssize_t h, x, i, j, n
    cdef int scen, s, t, rv, c, seen
    cdef int board[5]
    cdef uint32_t* a
    cdef const uint16_t* hc
    cdef const uint32_t* res = w.res
    cdef const uint16_t* boff = w.boff
    cdef const uint16_t* roff = w.roff
    cdef const uint64_t* hmask = w.hmask
    cdef const int32_t* start = w.by_card_start
    cdef const int32_t* by_card = w.by_card
    flop_holdings(holdings, nh, g.k, w.hmask, w.hcls)
    holdings_by_card(holdings, nh, g.k, w.by_card_start, w.by_card)
    seen = flop_scenarios(flop, tr, ntr)
    zero_scenarios(w.acc, seen, ncls, ncols)
    board[0] = flop[0]
    board[1] = flop[1]
    board[2] = flop[2]
    for x in range(ntr):
        t = tr[2 * x]
        rv = tr[2 * x + 1]
        board[3] = t
        board[4] = rv
        s = flush_suit(board[0], board[1], board[2], t, rv)
        if new_orbit[x]:
            board_classes(g, board, s, &w.b)
            class_results(g, w, coef, nopt, board, s, rule)
        scen = s if s >= 0 else NO_FLUSH
        n = narrow if s < 0 else ncls
        a = w.acc + scen * ncls * ncols
        for i in range(n):
            add6_masked(a + i * ncols + boff[i], res + i * NRES, 0xFFFFFFFFu)
            add6_masked(a + i * ncols + roff[i], res + i * NRES, 0xFFFFFFFFu)
        hc = w.hcls + scen * nh
        for j in range(start[t], start[t + 1]):
            h = by_card[j]
            c = hc[h]
            sub6(out + h * ncols + boff[c], res + c * NRES)
            sub6(out + h * ncols + roff[c], res + c * NRES)
        for j in range(start[rv], start[rv + 1]):
            h = by_card[j]
            if (hmask[h] >> t) & 1 == 0:  # a holding of both cards is taken off once
                c = hc[h]
                sub6(out + h * ncols + boff[c], res + c * NRES)
                sub6(out + h * ncols + roff[c], res + c * NRES)
    add_class_sums(out, ncols, w.acc, ncls, w.hcls, nh, seen)


cdef void lay_out(Work* w, Arena* a, Py_ssize_t n, int ncols) noexcept nogil:
    board_buffers(&w.b, a)
    w.res = <uint32_t*>carve(a, NCLASSES * NRES * sizeof(uint32_t))
    w.boff = <uint16_t*>carve(a, NCLASSES * sizeof(uint16_t))
    w.roff = <uint16_t*>carve(a, NCLASSES * sizeof(uint16_t))
    w.hmask = <uint64_t*>carve(a, n * sizeof(uint64_t))
    w.hcls = <uint16_t*>carve(a, 5 * n * sizeof(uint16_t))
    w.acc = <uint32_t*>carve(a, 5 * NCLASSES * ncols * sizeof(uint32_t))
    w.by_card_start = <int32_t*>carve(a, 53 * sizeof(int32_t))
    w.by_card = <int32_t*>carve(a, 3 * n * sizeof(int32_t))


cdef Work* new_work(Py_ssize_t max_nh, int ncols) noexcept nogil:
    cdef Work measured
    cdef Work* w
    cdef Arena a
    arena_measure(&a)
    carve(&a, sizeof(Work))
    lay_out(&measured, &a, max_nh + 1, ncols)
    if not arena_alloc(&a):
        return NULL
    w = <Work*>carve(&a, sizeof(Work))
    w.block = a.block
    lay_out(w, &a, max_nh + 1, ncols)
    return w


cdef void free_work(Work* w) noexcept nogil:
    if w != NULL:
        free(w.block)


def count_streets(int k, bint omaha, int qualifier, uint64_t deck, int dealer_total,
                  const int64_t[:, ::1] coef,
                  const int8_t[:, ::1] flops,
                  const int8_t[:, ::1] holdings, const int64_t[::1] hold_offsets,
                  const int8_t[:, ::1] tr_pairs, const uint8_t[::1] tr_new_orbit,
                  const int64_t[::1] tr_offsets,
                  const uint16_t[:, ::1] pair_table, const uint16_t[::1] flush,
                  const uint8_t[::1] category, uint32_t[:, ::1] out, int threads=1, int by_class=-1,
                  int rule_bet=-1, int rule_outs=0, int rule_of=1, const int32_t[::1] made=None, const uint16_t[::1] rank5=None,
                  const uint16_t[::1] rank6=None):
    """Add to ``out`` (one row per holding: the bet table, then the river tables of options
    1.., each category x 6 dealer results, then 6 scratch columns) the counts of every completion of every state laid out
    as for ``analysis._enumerator.count_states``. ``coef[o]`` is river option o's value per
    dealer hand, by category x result, in any common integer unit. ``by_class``: sum each
    flop's pairs by class (1), add them holding by holding (0), or by the flop's size (-1).
    ``rule_bet`` >= 0: the river is played by the written rule instead, taking that option
    with a pair or better whose ``made`` key (per strength) beats the board's own hand
    (valued by ``rank5`` and the flush table), or when fewer than ``rule_outs`` in every
    ``rule_of`` of the cards the player cannot see make a better hand with the board
    (``rank6``), option 0 otherwise."""
    cdef Py_ssize_t nf = flops.shape[0], f
    cdef int nopt = coef.shape[0]
    cdef int ncols = NSCOLS * nopt + NRES
    if k not in (2, 3) or holdings.shape[1] != k:
        raise ValueError("count_streets: holdings must have 2 or 3 cards")
    if nopt < 1 or nopt > MAXOPT or coef.shape[1] != NSCOLS:
        raise ValueError(f"count_streets: coef needs 1..{MAXOPT} rows of {NSCOLS} values")
    if out.shape[0] != holdings.shape[0] or out.shape[1] != ncols or hold_offsets.shape[0] != nf + 1:
        raise ValueError(f"count_streets: out needs one row of {ncols} columns per holding")
    cdef Py_ssize_t max_nh = check_flop_layout("count_streets", holdings.shape[0], hold_offsets, tr_pairs,
                                               tr_new_orbit, tr_offsets)
    if rule_bet >= nopt or (rule_bet >= 0 and (made is None or rank5 is None or rank6 is None or omaha)):
        raise ValueError("count_streets: the written river rule needs an option, the made and rank5 tables, Hold'em")
    cdef Game g = make_game(k, omaha, qualifier, deck, dealer_total, &pair_table[0, 0], &flush[0], &category[0])
    cdef Rule rule
    rule.bet = rule_bet
    rule.outs = rule_outs
    rule.of = rule_of
    rule.made = &made[0] if rule_bet >= 0 else NULL
    rule.rank5 = &rank5[0] if rule_bet >= 0 else NULL
    rule.rank6 = &rank6[0] if rule_bet >= 0 else NULL
    cdef Work* w
    cdef int failed[1]
    failed[0] = 0
    cdef const int64_t* coef_ptr = &coef[0, 0]
    cdef const int8_t* hold_ptr = &holdings[0, 0] if holdings.shape[0] else NULL
    cdef const int8_t* tr_ptr = &tr_pairs[0, 0] if tr_pairs.shape[0] else NULL
    cdef const uint8_t* orbit_ptr = &tr_new_orbit[0] if tr_pairs.shape[0] else NULL
    cdef uint32_t* out_ptr = &out[0, 0] if out.shape[0] else NULL
    if nf == 0:
        return
    with nogil, parallel(num_threads=threads):
        w = new_work(max_nh, ncols)
        if w == NULL:
            failed[0] = 1
        for f in prange(nf, schedule="dynamic", chunksize=1):
            if w != NULL and (by_class == 1 or (by_class == -1 and hold_offsets[f + 1] - hold_offsets[f] >= BY_CLASS)):
                count_flop_by_class(&g, coef_ptr, nopt, &rule, ncols, &flops[f, 0], hold_ptr + hold_offsets[f] * k,
                                    hold_offsets[f + 1] - hold_offsets[f],
                                    tr_ptr + 2 * tr_offsets[f], orbit_ptr + tr_offsets[f],
                                    tr_offsets[f + 1] - tr_offsets[f],
                                    out_ptr + hold_offsets[f] * ncols, w)
            elif w != NULL:
                count_flop(&g, coef_ptr, nopt, &rule, ncols, &flops[f, 0], hold_ptr + hold_offsets[f] * k,
                           hold_offsets[f + 1] - hold_offsets[f],
                           tr_ptr + 2 * tr_offsets[f], orbit_ptr + tr_offsets[f],
                           tr_offsets[f + 1] - tr_offsets[f],
                           out_ptr + hold_offsets[f] * ncols, w)
        free_work(w)
    if failed[0]:
        raise MemoryError("count_streets: could not allocate a worker's buffers")


cdef void class_table(const Game* g, Work* work) noexcept nogil:
    """The dealer results (win, tie, loss against a dealer who always qualifies) and the
    bet-table offset of every class of the current board."""
    cdef Board* w = &work.b
    cdef int x
    cdef uint32_t* r
    cdef Cls* c
    sweep_dealers(g, w)
    for x in range(w.nc):
        c = &w.cls[x]
        r = work.res + c.index * NRES
        r[0] = 0
        r[1] = 0
        r[2] = 0
        r[3] = <uint32_t>c.below
        r[4] = <uint32_t>(c.le - c.below)
        r[5] = <uint32_t>(g.dealer_total - c.le)
        work.boff[c.index] = <uint16_t>(g.category[c.value] * NRES)


cdef void count_flop_turns(const Game* g, const int8_t* flop, const int8_t* holdings, Py_ssize_t nh,
                           const int8_t* tr, const uint8_t* new_orbit, Py_ssize_t ntr, uint32_t* out,
                           const uint64_t* given, uint64_t* bets, int64_t* margin, Work* w) noexcept nogil:
    """One flop's holdings, a decision at the turn: first each holding's margin (dealer hands
    beaten less dealer hands lost to) summed over the rivers of each turn card, then every
    completion (both orders of each turn/river pair) added to the table of its turn decision:
    columns 0.. when the margin is not above 0 (check), NSCOLS.. when it is (bet); ``bets``:
    per holding, bit t set when it bets on turn card t. With ``given`` (not NULL) the turn
    cards each holding bets on are given instead (a strategy in words), and no margin is
    summed."""
    cdef Py_ssize_t h, x
    cdef int s, c, t, rv, dt, dr, second
    cdef uint64_t mask
    cdef int board[5]
    cdef uint64_t trm
    cdef const uint32_t* r
    cdef int64_t m
    flop_holdings(holdings, nh, g.k, w.hmask, w.hcls)
    board[0] = flop[0]
    board[1] = flop[1]
    board[2] = flop[2]
    memset(margin, 0, nh * 52 * sizeof(int64_t))
    for h in range(nh if given != NULL else 0):
        for t in range(52):
            margin[h * 52 + t] = 1 if (given[h] >> t) & 1 else 0
    for second in range(1 if given != NULL else 0, 2):
        for x in range(ntr):
            t = tr[2 * x]
            rv = tr[2 * x + 1]
            board[3] = t
            board[4] = rv
            s = flush_suit(board[0], board[1], board[2], t, rv)
            if new_orbit[x]:
                board_classes(g, board, s, &w.b)
                class_table(g, w)
            trm = ((<uint64_t>1) << t) | ((<uint64_t>1) << rv)
            for h in range(nh):
                if w.hmask[h] & trm:
                    continue
                c = w.hcls[(s if s >= 0 else NO_FLUSH) * nh + h]
                r = w.res + c * NRES
                if second == 0:
                    m = <int64_t>r[3] - <int64_t>r[5]
                    margin[h * 52 + t] += m
                    margin[h * 52 + rv] += m
                else:
                    dt = NSCOLS if margin[h * 52 + t] > 0 else 0
                    dr = NSCOLS if margin[h * 52 + rv] > 0 else 0
                    add6_masked(out + h * 2 * NSCOLS + dt + w.boff[c], r, 0xFFFFFFFFu)
                    add6_masked(out + h * 2 * NSCOLS + dr + w.boff[c], r, 0xFFFFFFFFu)
    for h in range(nh):
        mask = 0
        for t in range(52):
            if margin[h * 52 + t] > 0:
                mask |= (<uint64_t>1) << t
        bets[h] = mask


def count_turns(int k, bint omaha, int qualifier, uint64_t deck, int dealer_total,
                const int8_t[:, ::1] flops,
                const int8_t[:, ::1] holdings, const int64_t[::1] hold_offsets,
                const int8_t[:, ::1] tr_pairs, const uint8_t[::1] tr_new_orbit,
                const int64_t[::1] tr_offsets,
                const uint16_t[:, ::1] pair_table, const uint16_t[::1] flush,
                const uint8_t[::1] category, uint32_t[:, ::1] out, uint64_t[::1] bets,
                const uint64_t[::1] given, int threads=1):
    """Add to ``out`` (one row per holding: two tables of category x 6 dealer results, the
    completions whose turn the player checks, then those where he bets) the counts of every
    completion of every state, each turn/river pair in both orders (turn first), a dealer
    who always qualifies; the turn bet is made when the player beats more of the dealer's
    hands than he loses to, over the rivers of that turn (an exact tie checks). ``bets``
    (one per holding): the turn cards on which it bets, bit t for card t. ``given`` (one per
    holding, or empty): the turn cards each holding bets on, decided outside (a strategy in
    words), in place of the margins."""
    cdef Py_ssize_t nf = flops.shape[0], f
    if k not in (2, 3) or holdings.shape[1] != k:
        raise ValueError("count_turns: holdings must have 2 or 3 cards")
    if out.shape[0] != holdings.shape[0] or out.shape[1] != 2 * NSCOLS or hold_offsets.shape[0] != nf + 1:
        raise ValueError(f"count_turns: out needs one row of {2 * NSCOLS} columns per holding")
    if bets.shape[0] != holdings.shape[0]:
        raise ValueError("count_turns: bets needs one entry per holding")
    if given.shape[0] not in (0, holdings.shape[0]):
        raise ValueError("count_turns: given needs one entry per holding, or none")
    cdef Py_ssize_t max_nh = check_flop_layout("count_turns", holdings.shape[0], hold_offsets, tr_pairs,
                                               tr_new_orbit, tr_offsets)
    cdef Game g = make_game(k, omaha, qualifier, deck, dealer_total, &pair_table[0, 0], &flush[0], &category[0])
    cdef Work* w
    cdef int64_t* margin
    cdef int failed[1]
    failed[0] = 0
    cdef const int8_t* hold_ptr = &holdings[0, 0] if holdings.shape[0] else NULL
    cdef const int8_t* tr_ptr = &tr_pairs[0, 0] if tr_pairs.shape[0] else NULL
    cdef const uint8_t* orbit_ptr = &tr_new_orbit[0] if tr_pairs.shape[0] else NULL
    cdef uint32_t* out_ptr = &out[0, 0] if out.shape[0] else NULL
    cdef uint64_t* bets_ptr = &bets[0] if bets.shape[0] else NULL
    cdef const uint64_t* given_ptr = &given[0] if given.shape[0] else NULL
    if nf == 0:
        return
    with nogil, parallel(num_threads=threads):
        w = new_work(max_nh, 2 * NSCOLS)
        margin = <int64_t*>malloc((max_nh + 1) * 52 * sizeof(int64_t))
        if w == NULL or margin == NULL:
            failed[0] = 1
        for f in prange(nf, schedule="dynamic", chunksize=1):
            if w != NULL and margin != NULL:
                count_flop_turns(&g, &flops[f, 0], hold_ptr + hold_offsets[f] * k,
                                 hold_offsets[f + 1] - hold_offsets[f],
                                 tr_ptr + 2 * tr_offsets[f], orbit_ptr + tr_offsets[f],
                                 tr_offsets[f + 1] - tr_offsets[f],
                                 out_ptr + hold_offsets[f] * 2 * NSCOLS,
                                 given_ptr + hold_offsets[f] if given_ptr != NULL else NULL,
                                 bets_ptr + hold_offsets[f], margin, w)
        free(margin)
        free_work(w)
    if failed[0]:
        raise MemoryError("count_turns: could not allocate a worker's buffers")
