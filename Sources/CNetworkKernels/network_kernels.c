#include "network_kernels.h"

float xq_screlu_dot(const int16_t *a, const float *w, int n, int16_t qa) {
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
