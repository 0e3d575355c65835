// SPDX-License-Identifier: MIT
// A USDT site's argument places (docs/usdt.md), as Debian's sys/sdt.h writes them in a
// program's .note.stapsdt: "SIZE@PLACE" per argument, separated by blanks, SIZE the bytes
// (negative: signed), PLACE an operand in the assembler's syntax. Read by the host tools, which
// list them, and by the kernel, which evaluates them when the site's probe fires. ARM (Thumb)
// syntax: a register (r0-r12, sl, fp, ip, sp, lr), an immediate (#5, #-3), or a word in memory
// ([r7], [sp, #8], [r3, #-4]). i386 (AT&T) syntax: a register (%eax, %ebp, %ax, %al), an
// immediate ($5, $-3), a word in memory (8(%ebp), -4(%esp), (%eax)) or at an address (0x51000c:
// the host tools write a symbol's address where the note names the symbol).
#ifndef D_DUSDT_H
#define D_DUSDT_H

#include <stdint.h>

#define DUSDT_MAXARGS 6     // the header's limit (usdt.h), and D's arg0-arg5

enum { DUSDT_NONE, DUSDT_REG, DUSDT_MEM, DUSDT_IMM };
#define DUSDT_NOREG 0xffu  // a DUSDT_MEM place with no base register: value is the address

struct dusdt_arg {
    uint8_t kind;       // DUSDT_*
    uint8_t reg;        // DUSDT_REG, DUSDT_MEM: the register's number (DWARF's: r0-r15 on
                        // ARM, eax-edi 0-7 on i386); DUSDT_MEM at an address: DUSDT_NOREG
    int8_t size;        // bytes, negative when signed
    uint8_t pad;
    int32_t value;      // DUSDT_MEM: the offset; DUSDT_IMM: the value
};

// dusdt_parse: the places in text into args (DUSDT_MAXARGS of them, the rest DUSDT_NONE);
// the number of arguments, or -1 when text says something this reader does not know (a
// place it cannot evaluate, more than DUSDT_MAXARGS arguments), with *bad at the place.
int dusdt_parse(const char *text, struct dusdt_arg *args, const char **bad);
// dusdt_extend: a value of arg's size, sign- or zero-extended to 64 bits.
uint64_t dusdt_extend(const struct dusdt_arg *arg, uint64_t v);

#endif
