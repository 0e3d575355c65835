// SPDX-License-Identifier: MIT
// A USDT site's argument places (docs/usdt.md), as Debian's sys/sdt.h writes them in a
// program's .note.stapsdt: "SIZE@PLACE" per argument, separated by blanks, SIZE the bytes
// (negative: signed), PLACE an operand in the assembler's syntax. Read by the host tools, which
// list them, and by the kernel, which evaluates them when the site's probe fires. Two
// syntaxes, the architecture's assembler's (its kernel says which, arch_usdt_syntax):
//   ARM (Thumb)  a register (r0-r12, sl, fp, ip, sp, lr), an immediate (#5, #-3), or a word
//                in memory ([r7], [sp, #8], [r3, #-4]); DWARF's numbers, sp 13
//   AArch64      a register (x0-x30, w0-w30, sp), an immediate (5, -7: no '#'), or memory
//                ([x9], [sp, 12], [x29, -8]); DWARF's numbers, x0-x30 0-30, sp 31
// An immediate or offset must fit 32 bits signed (the note may say a wider constant: refused).
#ifndef D_DUSDT_H
#define D_DUSDT_H

#include <stdint.h>

#define DUSDT_MAXARGS 6     // the header's limit (usdt.h), and D's arg0-arg5

enum { DUSDT_NONE, DUSDT_REG, DUSDT_MEM, DUSDT_IMM };
enum { DUSDT_SYNTAX_ARM, DUSDT_SYNTAX_A64 };

struct dusdt_arg {
    uint8_t kind;       // DUSDT_*
    uint8_t reg;        // DUSDT_REG, DUSDT_MEM: the register's number (DWARF's)
    int8_t size;        // bytes, negative when signed
    uint8_t pad;
    int32_t value;      // DUSDT_MEM: the offset; DUSDT_IMM: the value
};

// dusdt_parse: the places in text, in syntax (DUSDT_SYNTAX_*), into args (DUSDT_MAXARGS of
// them, the rest DUSDT_NONE); the number of arguments, or -1 when text says something this
// reader does not know (a place it cannot evaluate, more than DUSDT_MAXARGS arguments), with
// *bad at the place.
int dusdt_parse(const char *text, unsigned syntax, struct dusdt_arg *args, const char **bad);
// dusdt_extend: a value of arg's size, sign- or zero-extended to 64 bits.
uint64_t dusdt_extend(const struct dusdt_arg *arg, uint64_t v);

#endif
