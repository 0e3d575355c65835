// SPDX-License-Identifier: MIT
// pid probes, ARMv7-M (kernel/kpid.h, docs/pid.md). A placed function's first halfword holds
// `udf #0xfd` (USDT's is #0xfc, fbt's #0xfb): the thread's UsageFault, taken in thread mode,
// comes to the kernel as its fault. The displaced instruction is then run by emulating it on
// the thread's registers (r0-r3, r12, lr, pc and xPSR in the frame the hardware pushed on its
// stack, r4-r11 where kentry saved them, sp the frame's top) rather than out of line: a slot
// the thread could execute would have to be in its own memory, and a program's text is
// shared and read-only to it. The decoder takes the instructions GCC opens a Thumb function
// with, each a whole instruction whose effects are registers and the stack:
//   push {rlist[, lr]} (16-bit), push.w = stmdb sp!, {rlist} (no sp, no pc),
//   sub sp, sp, #imm7*4, ldr rt, [pc, #imm8*4], mov rd, rm (neither sp nor pc), nop.
// What writes the stack (push, sub sp) moves sp down; the hardware's frame then lies below
// the new sp, so it is moved down too (8-aligned, xPSR bit 9 saying whether a word pads it,
// as the hardware would have stacked it) and the saved psp names it: the exception return
// pops it and the thread runs on with sp where the instruction left it. Every store is
// checked with proc_can_write first, so a thread whose stack cannot take it keeps its fault,
// as the instruction itself would have faulted.
#include <kernel/kpid.h>
#include <kernel/kusdt.h>
#include <kernel/proc.h>
#include <kernel/thread.h>

#define PID_UDF 0xdefdu         // udf #0xfd

uint16_t arch_pid_trap(void)
{
    return PID_UDF;
}

static unsigned popcount16(uint32_t v)
{
    return (unsigned)__builtin_popcount(v & 0xffffu);
}

bool arch_pid_decode(uintptr_t addr, uint32_t *insn, unsigned *len)
{
    uint32_t hw1 = *(const volatile uint16_t *)addr;
    if ((hw1 & 0xf800u) >= 0xe800u) {   // a 32-bit encoding: only push.w
        uint32_t hw2 = *(const volatile uint16_t *)(addr + 2);
        *insn = hw1 | hw2 << 16;
        *len = 4;
        return hw1 == 0xe92du && !(hw2 & 0xa000u) && popcount16(hw2) >= 2;
    }
    *insn = hw1;
    *len = 2;
    if ((hw1 & 0xfe00u) == 0xb400u)                 // push {rlist[, lr]}
        return (hw1 & 0x1ffu) != 0;
    if ((hw1 & 0xff80u) == 0xb080u || (hw1 & 0xf800u) == 0x4800u || hw1 == 0xbf00u)
        return true;                                // sub sp, #imm; ldr rt, [pc, #imm]; nop
    if ((hw1 & 0xff00u) == 0x4600u) {               // mov rd, rm
        unsigned rd = (hw1 & 7u) | ((hw1 >> 4) & 8u), rm = (hw1 >> 3) & 15u;
        return rd != 13 && rd != 15 && rm != 13 && rm != 15;
    }
    return false;
}

static uint32_t *frame(const struct thread *t)
{
    return (uint32_t *)(uintptr_t)t->ctx.psp;
}

static void set_reg(struct thread *t, unsigned n, uint32_t v)
{
    uint32_t *f = frame(t);
    if (n < 4)
        f[n] = v;
    else if (n < 12)
        (&t->ctx.r4)[n - 4] = v;
    else if (n == 12)
        f[4] = v;
    else if (n == 14)
        f[5] = v;
}

// Stores n words (vals) at sp - 4n, and moves the thread's frame below them: sp becomes
// sp - 4n - down. False, nothing written, when the thread may not write there.
static bool push_words(struct thread *t, const uint32_t *vals, unsigned n, uint32_t down)
{
    uint32_t sp = arch_usdt_reg(t, 13), nsp = sp - 4u * n - down;
    uint32_t f = (nsp - 32u) & ~7u;             // the new frame, 8-aligned below nsp
    uint32_t fr[8];
    if (nsp > sp || f > nsp || !proc_can_write(t->proc, f, sp - f))
        return false;
    kmemcpy(fr, frame(t), sizeof(fr));          // (the stores may overlap the old frame)
    for (unsigned i = 0; i < n; i++)
        *(volatile uint32_t *)(uintptr_t)(nsp + down + 4u * i) = vals[i];
    fr[7] = (fr[7] & ~(1u << 9)) | (f + 32u != nsp ? 1u << 9 : 0u);
    kmemcpy((void *)(uintptr_t)f, fr, sizeof(fr));
    t->ctx.psp = f;
    return true;
}

bool arch_pid_emulate(struct thread *t, uint32_t pc, uint32_t insn, unsigned len)
{
    uint32_t hw1 = insn & 0xffffu, vals[16] = { 0 };
    unsigned n = 0;
    if (len == 4 || (hw1 & 0xfe00u) == 0xb400u) {  // push / push.w: lowest register lowest
        uint32_t list = len == 4 ? insn >> 16 : (hw1 & 0xffu) | ((hw1 & 0x100u) << 6);
        for (unsigned r = 0; r < 15; r++)
            if (list & (1u << r))
                vals[n++] = arch_usdt_reg(t, r);
        if (!push_words(t, vals, n, 0))
            return false;
    } else if ((hw1 & 0xff80u) == 0xb080u) {        // sub sp, sp, #imm7*4
        if (!push_words(t, vals, 0, (hw1 & 0x7fu) * 4u))
            return false;
    } else if ((hw1 & 0xf800u) == 0x4800u) {        // ldr rt, [pc, #imm8*4]
        uint32_t at = ((pc + 4u) & ~3u) + (hw1 & 0xffu) * 4u;
        if (!proc_can_read(t->proc, at, 4))
            return false;
        set_reg(t, (hw1 >> 8) & 7u, *(const volatile uint32_t *)(uintptr_t)at);
    } else if ((hw1 & 0xff00u) == 0x4600u) {        // mov rd, rm
        set_reg(t, (hw1 & 7u) | ((hw1 >> 4) & 8u), arch_usdt_reg(t, (hw1 >> 3) & 15u));
    } else if (hw1 != 0xbf00u) {
        return false;
    }
    arch_usdt_resume(t, pc + len);
    return true;
}
