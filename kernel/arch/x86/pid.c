// SPDX-License-Identifier: MIT
// pid probes, i386 (kernel/kpid.h, docs/pid.md). A placed function's first byte holds `int3`
// (0xcc), USDT's trap too: ring 3's #BP comes to the kernel as the thread's fault, and kpid.c
// tells the sites apart by address. The displaced instruction is then run by emulating it on
// the thread's registers (all in its saved context: entry.S copies the whole frame there and
// irets from it) rather than out of line: a slot the thread could execute would have to be in
// its own memory, and a program's text is shared and not writable to it. The instructions are
// the ones GCC opens an i386 function with and returns by (d/dpid_i386.h, which the host tools
// read too). The trap covers the instruction's first byte only: the site keeps that byte, the
// rest is read from the text (kpid.c places no site inside another's instruction).
// Ring 3's stack is the thread's own memory: every store and load is checked with
// proc_can_write / proc_can_read first, so a thread whose esp cannot take it keeps its fault,
// as the instruction itself would have faulted. `sub` sets the arithmetic flags as the CPU
// does: the kernel runs the same subtraction and copies them from its own EFLAGS.
#include <kernel/arch_trace.h>
#include <kernel/arch_upcall.h>
#include <d/dpid_i386.h>
#include <d/dvm.h>
#include <arch_usdt.h>

#define EFLAGS_ARITH 0x8d5u     // CF PF AF ZF SF OF

uint32_t arch_pid_trap(void)
{
    return ARCH_USDT_TRAP;
}

bool arch_pid_trapped(struct thread *t, uint32_t *pc)
{
    return arch_usdt_trapped(t, pc);
}

// The instruction at pc: its first byte from insn (the text holds the trap there), the rest
// from the text. False when it is not one the kernel can run (or not len bytes).
static bool insn_bytes(uint32_t pc, uint32_t insn, unsigned len, uint8_t *b)
{
    if (len == 0 || len > DPID_I386_MAXLEN)
        return false;
    b[0] = (uint8_t)insn;
    for (unsigned i = 1; i < len; i++)
        b[i] = *(const volatile uint8_t *)(uintptr_t)(pc + i);
    unsigned n;
    return dpid_i386_can_run(b, len, &n) && n == len;
}

bool arch_pid_decode(uintptr_t addr, uint32_t *insn, unsigned *len)
{
    uint8_t b[DPID_I386_MAXLEN];
    for (unsigned i = 0; i < DPID_I386_MAXLEN; i++)
        b[i] = *(const volatile uint8_t *)(addr + i);
    *insn = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return dpid_i386_can_run(b, DPID_I386_MAXLEN, len);
}

bool arch_pid_is_return(uint32_t insn, unsigned len)
{
    uint8_t b[1] = { (uint8_t)insn };
    return dpid_i386_is_return(b, len);
}

// The word at the thread's esp: the return address at a function's entry and at its ret.
static uint32_t top_word(const struct thread *t)
{
    uint32_t sp = t->ctx.esp;
    if (!proc_can_read(t->proc, sp, 4))
        return 0;
    return *(const volatile uint32_t *)(uintptr_t)sp;
}

uint32_t arch_pid_return_address(const struct thread *t, uint32_t insn, unsigned len)
{
    (void)insn;
    (void)len;
    return top_word(t);
}

uint32_t arch_pid_caller(const struct thread *t)
{
    return top_word(t);
}

// cdecl: every argument on the stack, the first at esp + 4 (above the return address). The
// words are checked at once, one by one only when some cannot be read (the stack's top).
void arch_pid_entry_args(const struct thread *t, uint64_t *args)
{
    uint32_t sp = t->ctx.esp;
    bool all = sp + 4u > sp && proc_can_read(t->proc, sp + 4u, 4u * DVM_NARGS);
    for (unsigned a = 0; a < DVM_NARGS; a++) {
        uint32_t at = sp + 4u + 4u * a;
        if (all || (at > sp && proc_can_read(t->proc, at, 4)))
            args[a] = *(const volatile uint32_t *)(uintptr_t)at;
    }
}

// Register n (the ModRM encoding, DWARF's i386 numbering too) of the trapped thread.
static uint32_t *reg(struct thread *t, unsigned n)
{
    struct arch_context *c = &t->ctx;
    uint32_t *r[8] = { &c->eax, &c->ecx, &c->edx, &c->ebx, &c->esp, &c->ebp, &c->esi, &c->edi };
    return r[n & 7u];
}

static uint32_t imm32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

// push v: false, nothing written, when the thread may not write below its esp.
static bool push(struct thread *t, uint32_t v)
{
    uint32_t sp = t->ctx.esp - 4u;
    if (sp > t->ctx.esp || !proc_can_write(t->proc, sp, 4))
        return false;
    *(volatile uint32_t *)(uintptr_t)sp = v;
    t->ctx.esp = sp;
    return true;
}

// esp -= v, the flags as `sub` leaves them (the same subtraction run here).
static void sub_esp(struct thread *t, uint32_t v)
{
    uint32_t r = t->ctx.esp, f;
    __asm__("subl %2, %0\n\tpushfl\n\tpopl %1" : "+r"(r), "=r"(f) : "r"(v) : "cc");
    t->ctx.esp = r;
    t->ctx.eflags = (t->ctx.eflags & ~EFLAGS_ARITH) | (f & EFLAGS_ARITH);
}

// Runs it; false (nothing changed) when the thread may not make its stack access.
static bool run(struct thread *t, uint32_t pc, uint32_t insn, unsigned len)
{
    uint8_t b[DPID_I386_MAXLEN];
    if (!insn_bytes(pc, insn, len, b))
        return false;
    uint8_t op = b[0];
    if (op == 0xc3u || op == 0xc2u) {               // ret, ret $imm16
        uint32_t sp = t->ctx.esp, pop = 4u + (op == 0xc2u ? (b[1] | (uint32_t)b[2] << 8) : 0u);
        if (!proc_can_read(t->proc, sp, 4))
            return false;
        uint32_t to = *(const volatile uint32_t *)(uintptr_t)sp;
        t->ctx.esp = sp + pop;
        arch_usdt_resume(t, to);
        return true;
    }
    if ((op & 0xf8u) == 0x50u) {                    // push %r32 (%esp: its value before)
        if (!push(t, *reg(t, op & 7u)))
            return false;
    } else if (op == 0x6au || op == 0x68u) {        // push $imm8 (sign-extended), $imm32
        if (!push(t, op == 0x6au ? (uint32_t)(int32_t)(int8_t)b[1] : imm32(b + 1)))
            return false;
    } else if (op == 0x83u || op == 0x81u) {        // sub $imm, %esp
        sub_esp(t, op == 0x83u ? (uint32_t)(int32_t)(int8_t)b[2] : imm32(b + 2));
    } else if (op == 0x89u) {                       // mov %reg, %rm
        *reg(t, b[1] & 7u) = *reg(t, (b[1] >> 3) & 7u);
    } else if (op == 0x8bu) {                       // mov %rm, %reg
        *reg(t, (b[1] >> 3) & 7u) = *reg(t, b[1] & 7u);
    } else if (op == 0x8du) {                       // lea disp(%esp), %reg
        uint32_t disp = (b[1] & 0xc0u) == 0x40u ? (uint32_t)(int32_t)(int8_t)b[3] :
                        (b[1] & 0xc0u) == 0x80u ? imm32(b + 3) : 0u;
        *reg(t, (b[1] >> 3) & 7u) = t->ctx.esp + disp;
    } else if ((op & 0xf8u) == 0xb8u) {             // mov $imm32, %r32
        *reg(t, op & 7u) = imm32(b + 1);
    } else {
        return false;
    }
    arch_usdt_resume(t, pc + len);
    return true;
}

// A thread whose instruction cannot run keeps its fault, reported at that instruction (eip
// back on it: #BP left it past the int3).
bool arch_pid_emulate(struct thread *t, uint32_t pc, uint32_t insn, unsigned len)
{
    if (run(t, pc, insn, len))
        return true;
    t->ctx.eip = pc;
    return false;
}
