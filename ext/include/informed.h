/* The innermost loop of informed.pyx in plain C, where the compiler vectorises it. */
#ifndef ANALYSIS_INFORMED_H
#define ANALYSIS_INFORMED_H

/* dealer holdings {i, j, l} for l in [lo, hi): value max(a, ri[l], rj[l]); adds the counts
   of values below q, below v and at most v (branch-free 16-bit maxima over the row pair) */
static inline void informed_count_row(const short* ri, const short* rj, short a, int lo, int hi,
                                      short q, short v, int* cq, int* cv, int* ce) {
    int nq = 0, nv = 0, ne = 0;
    for (int l = lo; l < hi; l++) {
        short m = ri[l] > rj[l] ? ri[l] : rj[l];
        m = m > a ? m : a;
        nq += m < q;
        nv += m < v;
        ne += m <= v;
    }
    *cq += nq; *cv += nv; *ce += ne;
}

#endif
