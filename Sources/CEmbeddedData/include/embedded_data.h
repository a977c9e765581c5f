#ifndef XIANGQI_EMBEDDED_DATA_H
#define XIANGQI_EMBEDDED_DATA_H

// The default network and the default opening book, built into the binary (and into every
// app that links the libraries) by the assembler's .incbin: no file, path or bundle lookup is
// needed at run time. The bytes are read-only and live as long as the program.

#include <stddef.h>

/// The bytes of networks/xiangqi.nnue; `*size` receives their count.
const unsigned char *xiangqi_builtin_network(size_t *size);

/// The bytes of books/xiangqi-book.sqlite; `*size` receives their count.
const unsigned char *xiangqi_builtin_book(size_t *size);

#endif
