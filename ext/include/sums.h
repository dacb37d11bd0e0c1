/* Exact sums of the counting kernels (enumerator.pyx, exposure.pyx, streets.pyx): the four counts of a
   holding by dealer result (not qualifying, player wins, tie, dealer wins) added as one
   16-byte vector, and signed sums wider than 64 bits. Plain C because Cython has neither
   vector types nor a 128-bit integer. */
#ifndef ANALYSIS_SUMS_H
#define ANALYSIS_SUMS_H

#include <string.h>

typedef unsigned int sums_v4u __attribute__((vector_size(16)));

/* o[0..3] += r[0..3] where keep is all ones, unchanged where keep is 0: one vector add, so
   the enumerator's per-holding loop needs no branch on whether the holding meets the board */
static inline void sums_add4_masked(unsigned int* o, const unsigned int* r, unsigned int keep) {
    sums_v4u acc, add, mask = {keep, keep, keep, keep};
    memcpy(&acc, o, 16);
    memcpy(&add, r, 16);
    acc += add & mask;
    memcpy(o, &acc, 16);
}

/* o[0..3] -= r[0..3] (modulo 2**32: what was added is taken off again exactly) */
static inline void sums_sub4(unsigned int* o, const unsigned int* r) {
    sums_v4u acc, sub;
    memcpy(&acc, o, 16);
    memcpy(&sub, r, 16);
    acc -= sub;
    memcpy(o, &acc, 16);
}

typedef unsigned int sums_v2u __attribute__((vector_size(8)));

/* o[0..5] += r[0..5] where keep is all ones: a 4-wide and a 2-wide vector add, the street
   kernel's six dealer results of a holding */
static inline void sums_add6_masked(unsigned int* o, const unsigned int* r, unsigned int keep) {
    sums_v2u acc2, add2, mask2 = {keep, keep};
    sums_add4_masked(o, r, keep);
    memcpy(&acc2, o + 4, 8);
    memcpy(&add2, r + 4, 8);
    acc2 += add2 & mask2;
    memcpy(o + 4, &acc2, 8);
}

/* o[0..5] -= r[0..5] (modulo 2**32) */
static inline void sums_sub6(unsigned int* o, const unsigned int* r) {
    sums_v2u acc2, sub2;
    sums_sub4(o, r);
    memcpy(&acc2, o + 4, 8);
    memcpy(&sub2, r + 4, 8);
    acc2 -= sub2;
    memcpy(o + 4, &acc2, 8);
}

/* acc[0..3] += n x r[0..3] (four 16-bit counts): one vector multiply-add, the exposure
   kernel's counts of the called cards e of one type */
static inline void sums_madd4(unsigned int* acc, const unsigned short* r, unsigned int n) {
    sums_v4u a, v = {r[0], r[1], r[2], r[3]};
    memcpy(&a, acc, 16);
    a += v * n;
    memcpy(acc, &a, 16);
}

/* lohi += v for a signed 128-bit sum kept as two 64-bit words (lo, hi): weighted margin
   sums can pass 2**63 */
static inline void sums_add128(unsigned long long* lohi, long long v) {
    __int128 a = ((__int128)(long long)lohi[1] << 64) | (__int128)lohi[0];
    a += v;
    lohi[0] = (unsigned long long)a;
    lohi[1] = (unsigned long long)(a >> 64);
}

#endif
