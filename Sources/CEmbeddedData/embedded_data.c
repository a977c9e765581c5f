// The default network and book as read-only data of the object file. The files are found on
// the include path (Package.swift names networks/ and books/), where the assembler's .incbin
// looks for them. Build systems do not see this dependency: after replacing either file,
// touch this file (bench/scripts/nnue-build.sh and books/build.sh do) or build from clean.

#include "embedded_data.h"

#if defined(__APPLE__)
#define XIANGQI_SECTION ".const_data\n"
#define XIANGQI_SYMBOL(name) "_" #name
#else
#define XIANGQI_SECTION ".section .rodata\n"
#define XIANGQI_SYMBOL(name) #name
#endif

#define XIANGQI_EMBED(name, file)                                   \
    __asm__(XIANGQI_SECTION                                         \
            ".balign 64\n"                                          \
            ".globl " XIANGQI_SYMBOL(name##_start) "\n"             \
            XIANGQI_SYMBOL(name##_start) ":\n"                      \
            ".incbin \"" file "\"\n"                                \
            ".globl " XIANGQI_SYMBOL(name##_end) "\n"               \
            XIANGQI_SYMBOL(name##_end) ":\n"                        \
            ".byte 0\n"                                             \
            ".text\n");                                             \
    extern const unsigned char name##_start[];                      \
    extern const unsigned char name##_end[];

XIANGQI_EMBED(xiangqi_network, "xiangqi.nnue")
XIANGQI_EMBED(xiangqi_book, "xiangqi-book.sqlite")

const unsigned char *xiangqi_builtin_network(size_t *size) {
    *size = (size_t)(xiangqi_network_end - xiangqi_network_start);
    return xiangqi_network_start;
}

const unsigned char *xiangqi_builtin_book(size_t *size) {
    *size = (size_t)(xiangqi_book_end - xiangqi_book_start);
    return xiangqi_book_start;
}
