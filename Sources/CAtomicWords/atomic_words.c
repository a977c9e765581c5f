// The functions are static inline in include/atomic_words.h; this file gives the target a source.
#include "atomic_words.h"
