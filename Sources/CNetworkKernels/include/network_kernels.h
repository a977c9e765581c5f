#ifndef NETWORK_KERNELS_H
#define NETWORK_KERNELS_H

#include <stdint.h>

// The network's output layer in plain C, which the C compiler vectorizes for the target
// (SSE2 on x86-64's baseline, NEON on arm64). Swift's generic SIMD conversions and clamping
// compile to calls into the standard library here, several times slower (bench/nnue.md).

// The sum over n lanes (a multiple of 16) of clamp(a, 0, qa)^2 * w, in Float: sixteen
// partial sums, added in a fixed order, so the result is the same on every run.
float xq_screlu_dot(const int16_t *a, const float *w, int n, int16_t qa);

#endif
