#ifndef XIANGQI_ATOMIC_WORDS_H
#define XIANGQI_ATOMIC_WORDS_H

// Relaxed atomic loads and stores of 64-bit words shared between search threads: the
// transposition table, the stop and ponder flags, the node counters. Compiler builtins on
// plain words, so that they need no runtime support (Swift's `Atomic` needs iOS 18 and
// macOS 15) and inline into the Swift callers. Relaxed ordering is all these words need: each
// is read on its own, and a stale value costs at most one more poll or one table miss.

#include <stdint.h>

static inline uint64_t xiangqi_load_relaxed(const uint64_t *word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

static inline void xiangqi_store_relaxed(uint64_t *word, uint64_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

// Asks the processor to start loading the cache line at `address` (a hint: it changes no
// value, and a bad address is not dereferenced). The search names the transposition-table
// bucket of the position it is about to enter, so that the probe there finds it in cache.
static inline void xiangqi_prefetch(const void *address) {
    __builtin_prefetch(address);
}

#endif
