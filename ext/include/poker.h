/* Plain C shared by every compiled module (declared in poker.pxd). */
#ifndef ANALYSIS_POKER_H
#define ANALYSIS_POKER_H

/* the number of cards in a bit set (Cython has no name for the compiler's builtin) */
static inline int poker_popcount64(unsigned long long x) { return __builtin_popcountll(x); }

/* POKER_MS_WEIGHT[i][r] = C(r + i, i + 1): the multiset index of sorted ranks
   r0 <= r1 <= ... is the sum of POKER_MS_WEIGHT[i][r_i] (analysis.hands.lookup.multiset_index);
   a constant table so that every module indexes the rank tables without a Python object */
static const unsigned int POKER_MS_WEIGHT[7][13] = {
    {0,1,2,3,4,5,6,7,8,9,10,11,12},
    {0,1,3,6,10,15,21,28,36,45,55,66,78},
    {0,1,4,10,20,35,56,84,120,165,220,286,364},
    {0,1,5,15,35,70,126,210,330,495,715,1001,1365},
    {0,1,6,21,56,126,252,462,792,1287,2002,3003,4368},
    {0,1,7,28,84,210,462,924,1716,3003,5005,8008,12376},
    {0,1,8,36,120,330,792,1716,3432,6435,11440,19448,31824},
};

#endif
