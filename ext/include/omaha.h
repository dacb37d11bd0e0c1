/* Rank sorting for omaha.pyx's batch high evaluation: sorting networks, branch-free. */
#ifndef ANALYSIS_OMAHA_H
#define ANALYSIS_OMAHA_H

#include "poker.h"

/* branchless compare-exchange: random cards make the branches of a sort unpredictable */
#define OMAHA_CSWAP(a, b) { int lo_ = a < b ? a : b; int hi_ = a < b ? b : a; a = lo_; b = hi_; }

/* multiset index of 5 ranks in any order (a 9-comparator sorting network, then the weights) */
static inline int omaha_rank5_index(int r0, int r1, int r2, int r3, int r4) {
    OMAHA_CSWAP(r0, r1) OMAHA_CSWAP(r3, r4) OMAHA_CSWAP(r2, r4) OMAHA_CSWAP(r2, r3)
    OMAHA_CSWAP(r1, r4) OMAHA_CSWAP(r0, r3) OMAHA_CSWAP(r0, r2) OMAHA_CSWAP(r1, r3)
    OMAHA_CSWAP(r1, r2)
    return POKER_MS_WEIGHT[0][r0] + POKER_MS_WEIGHT[1][r1] + POKER_MS_WEIGHT[2][r2]
           + POKER_MS_WEIGHT[3][r3] + POKER_MS_WEIGHT[4][r4];
}

/* sort n ranks in place: a sorting network for 4 (Omaha), insertion otherwise */
static inline void omaha_sort_ranks(int* r, int n) {
    if (n == 4) {
        OMAHA_CSWAP(r[0], r[1]) OMAHA_CSWAP(r[2], r[3]) OMAHA_CSWAP(r[0], r[2])
        OMAHA_CSWAP(r[1], r[3]) OMAHA_CSWAP(r[1], r[2])
        return;
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && r[j - 1] > r[j]; j--) OMAHA_CSWAP(r[j - 1], r[j])
}

#endif
