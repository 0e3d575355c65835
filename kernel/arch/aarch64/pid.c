// SPDX-License-Identifier: MIT
// pid probes, AArch64 (kernel/kpid.h, docs/pid.md). A placed function's first instruction is
// `brk #0xfd` (USDT's is #0xfc, fbt's #0xfb): the thread at EL0 takes it as a synchronous
// exception, class 0x3C with the comment in ESR_EL1, and entry.S saves x0-x30, sp, pc (the brk
// itself) and ESR in its context, where the kernel sees the thread's fault. The displaced
// instruction is then run by emulating it on that context rather than out of line: a slot the
// thread could execute would have to be in its own memory, and a program's text is shared and
// read-only to it. The instructions are the ones GCC opens an A64 function with and returns by
// (d/dpid_a64.h, which the host tools read too). None sets flags or reads any state but the
// general registers, sp and the pc.
//
// Every store is to sp plus an offset and is checked first: the thread may write there
// (proc_can_write), and sp is 16-byte aligned as EL0's stack alignment check wants it (the
// hardware would have faulted otherwise); a thread that fails either keeps its fault, as the
// instruction itself would have faulted. The kernel writes the thread's memory at the same
// address the thread uses: every user table maps the process's RAM read-write for EL1 too
// (mmu.c, (1)).
#include <kernel/arch_trace.h>
#include <kernel/arch_upcall.h>
#include <d/dpid_a64.h>
#include <d/dvm.h>
#include <a64.h>
#include <arch_usdt.h>

#define PID_BRK  (0xd4200000u | ARCH_PID_BRK_IMM << 5)     // brk #0xfd

uint32_t arch_pid_trap(void)
{
    return PID_BRK;
}

bool arch_pid_trapped(struct thread *t, uint32_t *pc)
{
    return a64_brk_trapped(t, ARCH_PID_BRK_IMM, pc);
}

uint32_t arch_pid_caller(const struct thread *t)
{
    return (uint32_t)arch_usdt_reg(t, 30);
}

// AAPCS64: x0-x7, then the caller's stack in 8-byte slots (integers and pointers).
void arch_pid_entry_args(const struct thread *t, uint64_t *args)
{
    uintptr_t sp = arch_usdt_reg(t, 31);
    for (unsigned a = 0; a < 8 && a < DVM_NARGS; a++)
        args[a] = arch_usdt_reg(t, a);
    for (unsigned a = 8; a < DVM_NARGS; a++) {
        uintptr_t at = sp + 8u * (a - 8u);
        if (at == (uint32_t)at && proc_can_read(t->proc, (uint32_t)at, 8))
            args[a] = *(const volatile uint64_t *)at;
    }
}

bool arch_pid_is_return(uint32_t insn, unsigned len)
{
    return len == 4 && dpid_a64_is_return(insn);
}

bool arch_pid_decode(uintptr_t addr, uint32_t *insn, unsigned *len)
{
    *insn = *(const volatile uint32_t *)addr;
    *len = 4;
    return dpid_a64_can_run(*insn);
}

uint32_t arch_pid_return_address(const struct thread *t, uint32_t insn, unsigned len)
{
    (void)insn;
    (void)len;
    return (uint32_t)t->ctx.x[30];
}

static int64_t sext(uint64_t v, unsigned bits)
{
    uint64_t m = 1ull << (bits - 1);
    v &= (m << 1) - 1;
    return (int64_t)(v ^ m) - (int64_t)m;
}

// Register n as a source: x0-x30, 31 the zero register.
static uint64_t xreg(const struct thread *t, unsigned n)
{
    return n < 31 ? t->ctx.x[n] : 0;
}

// Register n as a destination: x0-x30; 31 (the zero register) takes nothing.
static void set_x(struct thread *t, unsigned n, uint64_t v)
{
    if (n < 31)
        t->ctx.x[n] = v;
}

// Stores n doublewords (vals) at sp + off for the thread; false, nothing written, when the
// thread may not write there or its sp is not 16-byte aligned.
static bool store(struct thread *t, int64_t off, const uint64_t *vals, unsigned n)
{
    uint64_t at = t->ctx.sp + (uint64_t)off;
    if ((t->ctx.sp & 15u) || (at & 7u) || at + 8u * n > 0xffffffffu ||
        !proc_can_write(t->proc, (uint32_t)at, 8u * n))
        return false;
    for (unsigned i = 0; i < n; i++)
        *(volatile uint64_t *)(uintptr_t)(at + 8u * i) = vals[i];
    return true;
}

bool arch_pid_emulate(struct thread *t, uint32_t pc, uint32_t insn, unsigned len)
{
    uint32_t w = insn;
    unsigned rd = w & 31u;
    uint64_t v[2] = { xreg(t, rd), xreg(t, (w >> 10) & 31u) };      // a store's Rt, Rt2
    int64_t off;
    if (len != 4)
        return false;
    switch (dpid_a64_kind(w)) {
    case DPID_A64_I_RET:
        t->ctx.pc = t->ctx.x[30];
        return true;
    case DPID_A64_I_STP_PRE:
    case DPID_A64_I_STP_OFF:
        off = sext(w >> 15, 7) * 8;
        if (!store(t, off, v, 2))
            return false;
        if (dpid_a64_kind(w) == DPID_A64_I_STP_PRE)
            t->ctx.sp += (uint64_t)off;
        break;
    case DPID_A64_I_STR_PRE:
        off = sext(w >> 12, 9);
        if (!store(t, off, v, 1))
            return false;
        t->ctx.sp += (uint64_t)off;
        break;
    case DPID_A64_I_STR_OFF:
        if (!store(t, (int64_t)((w >> 10) & 0xfffu) * 8, v, 1))
            return false;
        break;
    case DPID_A64_I_SUB_SP:
        t->ctx.sp -= (uint64_t)((w >> 10) & 0xfffu) << (w & (1u << 22) ? 12 : 0);
        break;
    case DPID_A64_I_ADD_SP: {
        uint64_t r = t->ctx.sp + ((uint64_t)((w >> 10) & 0xfffu) << (w & (1u << 22) ? 12 : 0));
        if (rd == 31)
            t->ctx.sp = r;
        else
            t->ctx.x[rd] = r;
        break;
    }
    case DPID_A64_I_MOV: {                  // orr xD, xzr, xM (w: the low half)
        uint64_t m = xreg(t, (w >> 16) & 31u);
        set_x(t, rd, w >> 31 ? m : (uint32_t)m);
        break;
    }
    case DPID_A64_I_ADR: {
        int64_t imm = sext(((w >> 5) & 0x7ffffu) << 2 | ((w >> 29) & 3u), 21);
        if (w >> 31)                        // adrp: 4 KB pages
            set_x(t, rd, (pc & ~0xfffull) + (uint64_t)(imm * 4096));
        else
            set_x(t, rd, pc + (uint64_t)imm);
        break;
    }
    case DPID_A64_I_MOVZ: {                 // movz, movn (bit 30 clear)
        uint64_t r = (uint64_t)((w >> 5) & 0xffffu) << (16u * ((w >> 21) & 3u));
        if (!(w & (1u << 30)))
            r = ~r;
        set_x(t, rd, w >> 31 ? r : (uint32_t)r);
        break;
    }
    case DPID_A64_I_NOP:
        break;
    default:
        return false;
    }
    t->ctx.pc = (uint64_t)pc + 4u;
    return true;
}
