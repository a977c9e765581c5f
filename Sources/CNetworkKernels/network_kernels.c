#include "network_kernels.h"

#include <stddef.h>

// Each kernel is written once as an always-inlined body and instantiated twice on x86-64:
// for the baseline and for AVX2. Fused multiply-add stays off (the "avx2" target alone has
// none, and contraction is off here), so both give the same bits.
#ifdef __clang__
#pragma clang fp contract(off)
#endif

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define XQ_DISPATCH 1
#define XQ_AVX2 __attribute__((target("avx2")))
#endif

#define XQ_INLINE static inline __attribute__((always_inline))

XQ_INLINE float screlu_dot_body(const int16_t *a, const float *w, int n, int16_t qa) {
    // Independent partial sums let the compiler vectorize without reordering any sum.
    float partial[16] = {0};
    for (int block = 0; block < n; block += 16) {
        for (int j = 0; j < 16; j++) {
            int32_t x = a[block + j];
            int32_t v = x < 0 ? 0 : (x > qa ? qa : x);
            partial[j] += (float)(v * v) * w[block + j];
        }
    }
    float total = 0;
    for (int j = 0; j < 16; j++) total += partial[j];
    return total;
}

// The four shapes of an update (one or two pieces added, one or two removed), each a plain
// loop that the compiler vectorizes: with `restrict` it needs no overlap test, which would
// send an update in place (out == source) to a scalar loop.
#define XQ_UPDATE_LOOPS(out, source)                                                          \
    if (add1 == NULL && remove1 == NULL) {                                                    \
        for (int i = 0; i < n; i++) out[i] = (int16_t)(source[i] + add0[i] - remove0[i]);      \
    } else if (add1 == NULL) {                                                                \
        for (int i = 0; i < n; i++)                                                           \
            out[i] = (int16_t)(source[i] + add0[i] - remove0[i] - remove1[i]);                 \
    } else if (remove1 == NULL) {                                                             \
        for (int i = 0; i < n; i++) out[i] = (int16_t)(source[i] + add0[i] + add1[i] - remove0[i]); \
    } else {                                                                                  \
        for (int i = 0; i < n; i++)                                                           \
            out[i] = (int16_t)(source[i] + add0[i] + add1[i] - remove0[i] - remove1[i]);       \
    }

XQ_INLINE void update_body(int16_t *out, const int16_t *source, const int16_t *restrict add0,
                           const int16_t *restrict add1, const int16_t *restrict remove0,
                           const int16_t *restrict remove1, int n) {
    if (out == source) {
        int16_t *restrict accumulator = out;
        XQ_UPDATE_LOOPS(accumulator, accumulator)
    } else {
        int16_t *restrict destination = out;
        const int16_t *restrict from = source;
        XQ_UPDATE_LOOPS(destination, from)
    }
}

XQ_INLINE void add_body(int16_t *restrict out, const int16_t *restrict row, int n) {
    for (int i = 0; i < n; i++) out[i] = (int16_t)(out[i] + row[i]);
}

XQ_INLINE void subtract_body(int16_t *restrict out, const int16_t *restrict row, int n) {
    for (int i = 0; i < n; i++) out[i] = (int16_t)(out[i] - row[i]);
}

static void subtract_baseline(int16_t *out, const int16_t *row, int n) { subtract_body(out, row, n); }

static void add_baseline(int16_t *out, const int16_t *row, int n) { add_body(out, row, n); }

static float screlu_dot_baseline(const int16_t *a, const float *w, int n, int16_t qa) {
    return screlu_dot_body(a, w, n, qa);
}

static void update_baseline(int16_t *out, const int16_t *source, const int16_t *add0,
                            const int16_t *add1, const int16_t *remove0, const int16_t *remove1,
                            int n) {
    update_body(out, source, add0, add1, remove0, remove1, n);
}

#ifdef XQ_DISPATCH
XQ_AVX2 static float screlu_dot_avx2(const int16_t *a, const float *w, int n, int16_t qa) {
    return screlu_dot_body(a, w, n, qa);
}

XQ_AVX2 static void update_avx2(int16_t *out, const int16_t *source, const int16_t *add0,
                                const int16_t *add1, const int16_t *remove0, const int16_t *remove1,
                                int n) {
    update_body(out, source, add0, add1, remove0, remove1, n);
}

XQ_AVX2 static void add_avx2(int16_t *out, const int16_t *row, int n) { add_body(out, row, n); }

XQ_AVX2 static void subtract_avx2(int16_t *out, const int16_t *row, int n) { subtract_body(out, row, n); }

// 0: not yet known, 1: baseline, 2: AVX2. Every thread that races on the first call stores
// the same answer.
static volatile int level = 0;

static int find_level(void) {
    int found = level;
    if (found == 0) {
        __builtin_cpu_init();
        found = __builtin_cpu_supports("avx2") ? 2 : 1;
        level = found;
    }
    return found;
}
#endif

int xq_kernel_level(int requested) {
#ifdef XQ_DISPATCH
    int before = find_level();
    if (requested == 1) level = 1;
    if (requested == 2 && __builtin_cpu_supports("avx2")) level = 2;
    return before;
#else
    (void)requested;
    return 1;
#endif
}

float xq_screlu_dot(const int16_t *a, const float *w, int n, int16_t qa) {
#ifdef XQ_DISPATCH
    if (find_level() == 2) return screlu_dot_avx2(a, w, n, qa);
#endif
    return screlu_dot_baseline(a, w, n, qa);
}

void xq_accumulator_update(int16_t *out, const int16_t *source, const int16_t *add0,
                           const int16_t *add1, const int16_t *remove0, const int16_t *remove1,
                           int n) {
#ifdef XQ_DISPATCH
    if (find_level() == 2) {
        update_avx2(out, source, add0, add1, remove0, remove1, n);
        return;
    }
#endif
    update_baseline(out, source, add0, add1, remove0, remove1, n);
}

void xq_accumulator_add(int16_t *out, const int16_t *row, int n) {
#ifdef XQ_DISPATCH
    if (find_level() == 2) {
        add_avx2(out, row, n);
        return;
    }
#endif
    add_baseline(out, row, n);
}

void xq_accumulator_subtract(int16_t *out, const int16_t *row, int n) {
#ifdef XQ_DISPATCH
    if (find_level() == 2) {
        subtract_avx2(out, row, n);
        return;
    }
#endif
    subtract_baseline(out, row, n);
}
