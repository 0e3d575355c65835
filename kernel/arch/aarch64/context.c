// SPDX-License-Identifier: MIT
// Thread contexts, kernel-call registers and the start of the first thread, AArch64.
// The kernel-call convention (user/arch/aarch64/include/kcall_arch.h): `svc #0` with the call
// number in x8 and the arguments in x0-x5; the result in x0 (x1: the high word of
// ClockCycles/ClockTime). Every other register is preserved (the entry saves them all).
#include <kernel/arch.h>
#include <kernel/thread.h>
#include <arch_kcall.h>
#include <a64.h>
#include <kernel/proc.h>
#include <board_config.h>
#include <stddef.h>

_Static_assert(offsetof(struct arch_context, tpidr) == A64_CTX_TPIDR &&
               offsetof(struct arch_context, tpidrro) == A64_CTX_TPIDR + 8 &&
               offsetof(struct arch_context, esr) == A64_CTX_ESR &&
               offsetof(struct arch_context, far) == A64_CTX_ESR + 8 &&
               offsetof(struct arch_context, fpcr) == A64_CTX_FPCR &&
               offsetof(struct arch_context, q) == A64_CTX_Q &&
               sizeof(struct arch_context) == A64_CTX_SIZE, "entry.S's A64_CTX_* offsets");

// A new thread starts at entry(arg0, arg1) with lr = 0, so returning from entry faults, on a
// 16-byte aligned stack. Programs run at EL0, the kernel's threads at EL1t (on SP_EL0), all
// with interrupts unmasked. A thread created by a thread of the same process shares its
// thread pointer (picolibc's TLS block, set once by the program's _start).
bool arch_thread_setup(struct thread *t, uint32_t entry, uint32_t arg0, uint32_t arg1,
                       uint32_t stack_top, bool privileged)
{
    kmemset(&t->ctx, 0, sizeof(t->ctx));
    t->ctx.x[0] = arg0;
    t->ctx.x[1] = arg1;
    t->ctx.pc = entry;
    t->ctx.sp = stack_top & ~15u;
    t->ctx.pstate = privileged ? SPSR_EL1T : SPSR_EL0T;
    if (k_current && k_current != t && k_current->proc && k_current->proc == t->proc)
        t->ctx.tpidr = k_current->ctx.tpidr;
    // The device timer is the generic timer's EL1 physical timer, one per CPU: a program that
    // drives it (its pseudo window) runs on CPU 0, where its interrupt is enabled and taken.
    if (KMAX_CPUS > 1 && t->proc && t->proc->app->mmio_base == SYSREG_WINDOW_BASE &&
        t->proc->app->mmio_size == SYSREG_WINDOW_SIZE)
    {
        t->affinity = 1u;
        t->affinity_fixed = true;
    }
    return true;
}

uint32_t arch_call_number(const struct thread *t) { return arch_kc_number(&t->ctx); }

// TPIDRRO_EL0, loaded at every return to t: the address of the user-event ring the kernel
// took as t's own (0: none). The library reads it instead of looking its ring up; the kernel
// never reads it back (its own record of the ring is struct thread.ur).
void arch_thread_ring_hint(struct thread *t, uint32_t addr)
{
    t->ctx.tpidrro = addr;
}

uint32_t arch_thread_pc(const struct thread *t)
{
    return (uint32_t)t->ctx.pc;
}

uint32_t arch_call_arg(const struct thread *t, unsigned i) { return arch_kc_arg(&t->ctx, i); }

uint32_t arch_call_result(const struct thread *t, unsigned i)
{
    return arch_kc_result(&t->ctx, i);
}

// Results are 32-bit values (int32_t to the caller): x0 holds them zero-extended, and the
// caller's kcall6 reads w0.
void arch_set_result(struct thread *t, uint32_t r0)
{
    t->ctx.x[0] = r0;
}

void arch_set_result2(struct thread *t, uint32_t r0, uint32_t r1)
{
    t->ctx.x[0] = r0;
    t->ctx.x[1] = r1;
}

static uint64_t boot_stack[128] __attribute__((aligned(16)));

_Noreturn void arch_start(struct thread *boot)
{
    k_current = boot;
    boot->state = THS_RUNNING;
    a64_start_boot_thread((uint64_t)(uintptr_t)&boot_stack[ARRAY_SIZE(boot_stack)]);
}

// The idle thread runs at EL1t with interrupts unmasked; every interrupt leaves it for the
// kernel.
void arch_idle_loop(void)
{
    for (;;)
        __asm__ volatile("wfi");
}
