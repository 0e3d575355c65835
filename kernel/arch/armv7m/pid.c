// SPDX-License-Identifier: MIT
// pid probes, ARMv7-M (kernel/kpid.h, docs/pid.md). A placed function's first halfword holds
// `udf #0xfd` (USDT's is #0xfc, fbt's #0xfb): the thread's UsageFault, taken in thread mode,
// comes to the kernel as its fault. The displaced instruction is then run by emulating it on
// the thread's registers (r0-r3, r12, lr, pc and xPSR in the frame the hardware pushed on its
// stack, r4-r11 where kentry saved them, sp the frame's top) rather than out of line: a slot
// the thread could execute would have to be in its own memory, and a program's text is
// shared and read-only to it. The instructions are the ones GCC opens a Thumb function with
// and returns by (d/dpid_thumb.h, which the host tools read too); a return to Arm state (bit 0
// of the address clear) stays the thread's fault, as it would have been. The flag-setting
// movs writes APSR.N and .Z in the frame's xPSR (C and V as they were). Inside an IT block
// (xPSR's IT bits not zero) every instruction is conditional and the CPU advances the IT state
// past it, run or not: the kernel does the same (it_step): a failed condition skips the
// instruction, a passed one runs it, and the next instruction sees the IT state the CPU would
// have left. There movs rd, #imm is a mov (no flags: the ARMv7-M manual's T1 encoding outside
// IT only); movs rd, rm is UNPREDICTABLE and stays the thread's fault.
// What moves sp (push, sub sp, pop) moves the hardware's frame with it, to just below the new
// sp (8-aligned, xPSR bit 9 saying whether a word pads it, as the hardware would have stacked
// it), and the saved psp names it: the exception return pops it and the thread runs on with
// sp where the instruction left it. Every store is
// checked with proc_can_write first, so a thread whose stack cannot take it keeps its fault,
// as the instruction itself would have faulted.
#include <kernel/arch_trace.h>
#include <kernel/arch_upcall.h>
#include <d/dpid_thumb.h>
#include <d/dvm.h>

#define PID_UDF 0xdefdu         // udf #0xfd
#define XPSR_N  (1u << 31)
#define XPSR_Z  (1u << 30)
#define XPSR_IT 0x0600fc00u     // IT[1:0] in bits 26:25, IT[7:2] in bits 15:10

uint32_t arch_pid_trap(void)
{
    return PID_UDF;
}

bool arch_pid_trapped(struct thread *t, uint32_t *pc)
{
    return arch_usdt_trapped(t, pc);
}

uint32_t arch_pid_caller(const struct thread *t)
{
    return arch_usdt_reg(t, 14);
}

// The AAPCS: r0-r3, then the words at the caller's sp.
void arch_pid_entry_args(const struct thread *t, uint64_t *args)
{
    uint32_t sp = arch_usdt_reg(t, 13);
    for (unsigned a = 0; a < 4; a++)
        args[a] = arch_usdt_reg(t, a);
    for (unsigned a = 4; a < DVM_NARGS; a++) {
        uint32_t at = sp + 4u * (a - 4u);
        if (proc_can_read(t->proc, at, 4))
            args[a] = *(const volatile uint32_t *)(uintptr_t)at;
    }
}

bool arch_pid_is_return(uint32_t insn, unsigned len)
{
    uint32_t hw1 = insn & 0xffffu;
    return dpid_thumb_len(hw1) == len && dpid_thumb_is_return(hw1, insn >> 16);
}

bool arch_pid_decode(uintptr_t addr, uint32_t *insn, unsigned *len)
{
    uint32_t hw1 = *(const volatile uint16_t *)addr, hw2 = 0;
    *len = dpid_thumb_len(hw1);
    if (*len == 4)
        hw2 = *(const volatile uint16_t *)(addr + 2);
    *insn = hw1 | hw2 << 16;
    return dpid_thumb_can_run(hw1, hw2);
}

uint32_t arch_pid_return_address(const struct thread *t, uint32_t insn, unsigned len)
{
    uint32_t hw1 = insn & 0xffffu, sp = arch_usdt_reg(t, 13), below = 0;
    if (hw1 == 0x4770u || hw1 == 0x46f7u)
        return arch_usdt_reg(t, 14);
    if (len == 4 && hw1 == 0xe8bdu)
        below = dpid_popcount16(insn >> 16) - 1u;     // pop.w: the pc's word is the last
    else if (len == 2)
        below = dpid_popcount16(hw1 & 0xffu);         // pop: after the low registers'
    uint32_t at = sp + 4u * below;
    if (!proc_can_read(t->proc, at, 4))
        return 0;
    return *(const volatile uint32_t *)(uintptr_t)at;
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

// Makes the thread's sp nsp: stores n words (vals) at nsp (a push's), and moves the thread's
// frame just below nsp (8-aligned, as the hardware stacks it). False, nothing written, when
// the thread may not write there.
static bool set_sp(struct thread *t, uint32_t nsp, const uint32_t *vals, unsigned n)
{
    uint32_t sp = arch_usdt_reg(t, 13), top = nsp > sp ? nsp : sp;
    uint32_t f = (nsp - 32u) & ~7u;
    uint32_t fr[8];
    if (f > nsp || nsp + 4u * n < nsp || nsp + 4u * n > top ||
        !proc_can_write(t->proc, f, top - f))
        return false;
    kmemcpy(fr, frame(t), sizeof(fr));          // (the stores may overlap the old frame)
    for (unsigned i = 0; i < n; i++)
        *(volatile uint32_t *)(uintptr_t)(nsp + 4u * i) = vals[i];
    fr[7] = (fr[7] & ~(1u << 9)) | (f + 32u != nsp ? 1u << 9 : 0u);
    kmemcpy((void *)(uintptr_t)f, fr, sizeof(fr));
    t->ctx.psp = f;
    return true;
}

// A return that loads registers (list: bit r for register r, bit 15 the pc) from sp upwards
// and sp past them; false when the thread may not read them or the pc is not Thumb code.
static bool pop_words(struct thread *t, uint32_t list)
{
    uint32_t sp = arch_usdt_reg(t, 13), vals[16];
    unsigned n = 0;
    if (!proc_can_read(t->proc, sp, 4u * (unsigned)__builtin_popcount(list)))
        return false;
    for (unsigned r = 0; r < 16; r++)
        if (list & (1u << r)) {
            vals[n] = *(const volatile uint32_t *)(uintptr_t)(sp + 4u * n);
            n++;
        }
    if (!(vals[n - 1] & 1u) || !set_sp(t, sp + 4u * n, vals, 0))
        return false;
    n = 0;
    for (unsigned r = 0; r < 15; r++)
        if (list & (1u << r))
            set_reg(t, r, vals[n++]);
    arch_usdt_resume(t, vals[n] & ~1u);
    return true;
}

// The IT state (ITSTATE[7:0]) in an xPSR, and an xPSR with it replaced.
static uint32_t it_of(uint32_t xpsr)
{
    return ((xpsr >> 25) & 3u) | ((xpsr >> 8) & 0xfcu);
}

static uint32_t with_it(uint32_t xpsr, uint32_t it)
{
    return (xpsr & ~XPSR_IT) | (it & 3u) << 25 | (it & 0xfcu) << 8;
}

// Whether condition cond (ARM's 4-bit code) holds for the xPSR's N, Z, C, V.
static bool cond_holds(uint32_t cond, uint32_t xpsr)
{
    bool n = xpsr >> 31 & 1u, z = xpsr >> 30 & 1u, c = xpsr >> 29 & 1u, v = xpsr >> 28 & 1u;
    bool r;
    switch (cond >> 1) {
    case 0: r = z; break;                   // eq
    case 1: r = c; break;                   // cs
    case 2: r = n; break;                   // mi
    case 3: r = v; break;                   // vs
    case 4: r = c && !z; break;             // hi
    case 5: r = n == v; break;              // ge
    case 6: r = n == v && !z; break;        // gt
    default: return true;                   // al
    }
    return (cond & 1u) && cond != 15u ? !r : r;
}

// ITAdvance: the IT state after one instruction of the block.
static uint32_t it_step(uint32_t it)
{
    return (it & 7u) == 0 ? 0u : (it & 0xe0u) | ((it << 1) & 0x1fu);
}

static bool emulate(struct thread *t, uint32_t pc, uint32_t insn, unsigned len, bool in_it);

bool arch_pid_emulate(struct thread *t, uint32_t pc, uint32_t insn, unsigned len)
{
    uint32_t *f = frame(t), xpsr = f[7], it = it_of(xpsr);
    if (!(it & 0xfu))
        return emulate(t, pc, insn, len, false);
    // In an IT block: the state advanced first (a return, the block's last, leaves it 0; a
    // frame moved by push or pop carries it), put back if the instruction is not run.
    f[7] = with_it(xpsr, it_step(it));
    if (!cond_holds(it >> 4, xpsr)) {
        arch_usdt_resume(t, pc + len);
        return true;
    }
    if (emulate(t, pc, insn, len, true))
        return true;
    frame(t)[7] = xpsr;
    return false;
}

static bool emulate(struct thread *t, uint32_t pc, uint32_t insn, unsigned len, bool in_it)
{
    uint32_t hw1 = insn & 0xffffu, vals[16] = { 0 };
    unsigned n = 0;
    uint32_t sp = arch_usdt_reg(t, 13);
    if (insn == DPID_THUMB_LDR_PC_SP)               // ldr pc, [sp], #4
        return pop_words(t, 1u << 15);
    if (len == 4 && hw1 == 0xe8bdu)                 // pop.w {..., pc}
        return pop_words(t, insn >> 16);
    if ((hw1 & 0xff00u) == 0xbd00u)                 // pop {..., pc}
        return pop_words(t, (hw1 & 0xffu) | 1u << 15);
    if (hw1 == 0x4770u || hw1 == 0x46f7u) {         // bx lr, mov pc, lr
        uint32_t lr = arch_usdt_reg(t, 14);
        if (!(lr & 1u))
            return false;                           // (bx to ARM state: the thread's fault)
        arch_usdt_resume(t, lr & ~1u);
        return true;
    }
    if (len == 4 || (hw1 & 0xfe00u) == 0xb400u) {  // push / push.w: lowest register lowest
        uint32_t list = len == 4 ? insn >> 16 : (hw1 & 0xffu) | ((hw1 & 0x100u) << 6);
        for (unsigned r = 0; r < 15; r++)
            if (list & (1u << r))
                vals[n++] = arch_usdt_reg(t, r);
        if (!set_sp(t, sp - 4u * n, vals, n))
            return false;
    } else if ((hw1 & 0xff80u) == 0xb080u) {        // sub sp, sp, #imm7*4
        if (!set_sp(t, sp - (hw1 & 0x7fu) * 4u, vals, 0))
            return false;
    } else if ((hw1 & 0xf800u) == 0x4800u) {        // ldr rt, [pc, #imm8*4]
        uint32_t at = ((pc + 4u) & ~3u) + (hw1 & 0xffu) * 4u;
        if (!proc_can_read(t->proc, at, 4))
            return false;
        set_reg(t, (hw1 >> 8) & 7u, *(const volatile uint32_t *)(uintptr_t)at);
    } else if ((hw1 & 0xff00u) == 0x4600u) {        // mov rd, rm
        set_reg(t, (hw1 & 7u) | ((hw1 >> 4) & 8u), arch_usdt_reg(t, (hw1 >> 3) & 15u));
    } else if (dpid_thumb_is_movs(hw1)) {          // movs rd, #imm8 / movs rd, rm
        uint32_t *f = frame(t);
        uint32_t v = (hw1 & 0x2000u) ? hw1 & 0xffu : arch_usdt_reg(t, (hw1 >> 3) & 7u);
        if (in_it && !(hw1 & 0x2000u))
            return false;                           // movs rd, rm in IT: UNPREDICTABLE
        if (!in_it)                                 // (in IT: mov rd, #imm, no flags)
            f[7] = (f[7] & ~(XPSR_N | XPSR_Z)) | (v & XPSR_N) | (v ? 0u : XPSR_Z);
        set_reg(t, hw1 & 0x2000u ? (hw1 >> 8) & 7u : hw1 & 7u, v);
    } else if (hw1 != 0xbf00u) {
        return false;
    }
    arch_usdt_resume(t, pc + len);
    return true;
}
