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
//   i386 (AT&T)  a register (%eax, %ebp, %ax, %al), an immediate ($5, $-3), a word in memory
//                (8(%ebp), -4(%esp), (%eax)) or at an address (0x51001c: the host tools write
//                a symbol's address where the note names the symbol); DWARF's numbers, eax 0,
//                ecx 1, edx 2, ebx 3, esp 4, ebp 5, esi 6, edi 7
// An immediate or offset must fit 32 bits signed (the note may say a wider constant: refused).
#ifndef D_DUSDT_H
#define D_DUSDT_H

#include <stdint.h>

#define DUSDT_MAXARGS 6     // the header's limit (usdt.h), and D's arg0-arg5

enum { DUSDT_NONE, DUSDT_REG, DUSDT_MEM, DUSDT_IMM };
enum { DUSDT_SYNTAX_ARM, DUSDT_SYNTAX_A64, DUSDT_SYNTAX_I386 };
#define DUSDT_NOREG 0xffu  // a DUSDT_MEM place with no base register: value is the address

struct dusdt_arg {
    uint8_t kind;       // DUSDT_*
    uint8_t reg;        // DUSDT_REG, DUSDT_MEM: the register's number (DWARF's), or
                        // DUSDT_NOREG (memory at an absolute address)
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
