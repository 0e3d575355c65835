// SPDX-License-Identifier: MIT
// An ARM EHABI (.ARM.exidx / .ARM.extab) unwinder for Thumb-2, where frame pointers do not
// chain: one step computes the caller's registers from a function's unwind opcodes (the
// compact models gcc's -funwind-tables emits for C). Pure C over a checked reader, so the
// host unit tests run it on built tables and hostile stacks (test/unit/test_unwind.c).
#ifndef EHABI_H
#define EHABI_H

#include <kernel/unwind.h>
#include <stdint.h>

struct ehabi_table {
    uint32_t start, end;   // the .ARM.exidx entries [start, end), 8 bytes each
    uint32_t code_lo, code_hi; // the code they describe: a return address elsewhere is no code
};

struct ehabi_regs {
    uint32_t r[16];        // r13 sp, r14 lr, r15 pc (Thumb bit clear)
};

// One frame: from regs (the callee's) to its caller's. 0, an enum unwind_err, or -1 when the
// function cannot be unwound through (EXIDX_CANTUNWIND: the outermost frame).
int ehabi_step(const struct unwind_mem *m, const struct ehabi_table *t, struct ehabi_regs *regs);

// The whole walk: regs->r[15] first, then each caller's return address (Thumb bit clear), at
// most max; the stack must grow strictly towards m->hi. Returns the count; *err says why it
// ended (UNWIND_OK: an outermost frame, EXIDX_CANTUNWIND or a zero return address).
unsigned ehabi_unwind(const struct unwind_mem *m, const struct ehabi_table *t,
                      struct ehabi_regs *regs, uint64_t *pcs, unsigned max, int *err);

#endif
