#ifndef NETWORK_KERNELS_H
#define NETWORK_KERNELS_H

#include <stdint.h>

// The network's hot loops in plain C, which the C compiler vectorizes for the target: SSE2
// on x86-64's baseline, NEON on arm64; on an x86-64 processor with AVX2 (found once, at the
// first call) the same loops compiled for AVX2, with the same results to the bit (no fused
// multiply-add, the same order of sums). Swift's generic SIMD conversions and clamping
// compile to calls into the standard library here, several times slower (bench/nnue.md).

// The sum over n lanes (a multiple of 16) of clamp(a, 0, qa)^2 * w, in Float: sixteen
// partial sums, added in a fixed order, so the result is the same on every run and machine.
float xq_screlu_dot(const int16_t *a, const float *w, int n, int16_t qa);

// out = source + add0 (+ add1) - remove0 (- remove1) over n lanes (a multiple of 16), in
// wrapping 16-bit arithmetic; add1 and remove1 may be NULL. out may be source.
void xq_accumulator_update(int16_t *out, const int16_t *source, const int16_t *add0,
                           const int16_t *add1, const int16_t *remove0, const int16_t *remove1,
                           int n);

// out += row over n lanes (a multiple of 16), in wrapping 16-bit arithmetic.
void xq_accumulator_add(int16_t *out, const int16_t *row, int n);

// out -= row over n lanes (a multiple of 16), in wrapping 16-bit arithmetic.
void xq_accumulator_subtract(int16_t *out, const int16_t *row, int n);

// The kernels in use: 1 the baseline, 2 AVX2. A `requested` level of 1 or 2 switches to it
// (2 only where the processor has AVX2) for the whole process, for tests that compare the
// two; 0 only asks. Returns the level in use before the call.
int xq_kernel_level(int requested);

#endif
