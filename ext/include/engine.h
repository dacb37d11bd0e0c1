/* The row loops of engine.pyx over packed counts (each thread runs them over blocks of
   rows), in plain C: exact decisions need a 128-bit integer, which Cython lacks, and one
   macro writes the dot-product loop for two types. */
#ifndef ANALYSIS_ENGINE_H
#define ANALYSIS_ENGINE_H

#include <string.h>

/* columns a packed row holds at most (the size of the per-row array of counts) */
#define ENGINE_MAX_COLS 64

/* the counts of a packed row: unaligned 4-byte little-endian loads, masked to width */
static inline void engine_unpack(const unsigned char* row, int ncols, int width, unsigned int mask,
                                 unsigned int* out) {
    for (int j = 0; j < ncols; j++) {
        unsigned int v;
        memcpy(&v, row + (size_t)j * width, 4);
        out[j] = v & mask;
    }
}

/* base + offset + sum_j coef_j * count_j > 0, exactly: in 64 bits when the caller knows it fits */
static inline int engine_calls(const unsigned int* c, int ncols, const long long* coef, long long base,
                               long long offset, int wide) {
    if (!wide) {
        long long acc = base + offset;
        for (int j = 0; j < ncols; j++) acc += coef[j] * (long long)c[j];
        return acc > 0;
    }
    __int128 acc = (__int128)base + offset;
    for (int j = 0; j < ncols; j++) acc += (__int128)coef[j] * c[j];
    return acc > 0;
}

/* acc[j] += w x count_j for every column, then acc[ncols] += w (the weight) */
static inline void engine_add(unsigned long long* acc, const unsigned int* c, int ncols, unsigned long long w) {
    for (int j = 0; j < ncols; j++) acc[j] += w * c[j];
    acc[ncols] += w;
}

/* rows lo..hi-1: decide (optionally, with a per-row offset when not NULL), then add the
   called rows to acc */
static void engine_play_rows(const unsigned char* data, int ncols, int width, long lo, long hi,
                             const unsigned char* weight, const long long* coef, long long base,
                             const long long* offset, int wide, int decide, unsigned char* calls,
                             unsigned long long* acc) {
    unsigned int c[ENGINE_MAX_COLS];
    unsigned int mask = width == 3 ? 0xFFFFFFu : 0xFFFFFFFFu;
    size_t stride = (size_t)ncols * width;
    for (long i = lo; i < hi; i++) {
        engine_unpack(data + i * stride, ncols, width, mask, c);
        if (decide)
            calls[i] = (unsigned char)engine_calls(c, ncols, coef, base, offset ? offset[i] : 0, wide);
        if (calls[i]) engine_add(acc, c, ncols, weight[i]);
    }
}

/* base + coef . counts of rows lo..hi-1 in type T: double (plots, near-ties) or long long (exact) */
#define ENGINE_DOT_ROWS(name, T) \
static void name(const unsigned char* data, int ncols, int width, long lo, long hi, const T* coef, T base, \
                 T* out) { \
    unsigned int c[ENGINE_MAX_COLS]; \
    unsigned int mask = width == 3 ? 0xFFFFFFu : 0xFFFFFFFFu; \
    size_t stride = (size_t)ncols * width; \
    for (long i = lo; i < hi; i++) { \
        engine_unpack(data + i * stride, ncols, width, mask, c); \
        T s = base; \
        for (int j = 0; j < ncols; j++) s += coef[j] * (T)c[j]; \
        out[i] = s; \
    } \
}
ENGINE_DOT_ROWS(engine_margin_rows, double)
ENGINE_DOT_ROWS(engine_linear_rows, long long)

/* rows lo..hi-1 added to the sums of their group (acc: ncols + 1 per group); rows of a
   negative group are skipped */
static void engine_group_rows(const unsigned char* data, int ncols, int width, long lo, long hi,
                              const unsigned char* weight, const int* group, unsigned long long* acc) {
    unsigned int c[ENGINE_MAX_COLS];
    unsigned int mask = width == 3 ? 0xFFFFFFu : 0xFFFFFFFFu;
    size_t stride = (size_t)ncols * width;
    for (long i = lo; i < hi; i++) {
        if (group[i] < 0) continue;
        engine_unpack(data + i * stride, ncols, width, mask, c);
        engine_add(acc + (size_t)group[i] * (ncols + 1), c, ncols, weight[i]);
    }
}

#endif
