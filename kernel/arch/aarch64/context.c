// SPDX-License-Identifier: MIT
// Thread contexts, kernel-call registers and the start of the first thread, AArch64.
// The kernel-call convention (user/arch/aarch64/include/kcall_arch.h): `svc #0` with the call
// number in x8 and the arguments in x0-x5; the result in x0 (x1: the high word of
// ClockCycles/ClockTime). Every other register is preserved (the entry saves them all).
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <arch_kcall.h>
#include <a64.h>
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
    return true;
}

#if KMAX_CPUS > 1
// SVC's return address is the instruction after it: one instruction back enters it again.
void arch_kc_restart(struct thread *t)
{
    t->ctx.pc -= 4;
}

// The device timer is the generic timer's EL1 physical timer (CNTP_*), one per CPU, whose
// interrupt (a PPI) only that CPU's controller enables: a program with its pseudo window may
// program it from EL0 on A64_DEVTIMER_CPU alone (mmu.c opens CNTP there, CNTKCTL_EL0PTEN). Its
// access from another CPU traps as an MSR/MRS from EL0 (exception class 0x18), and the thread
// moves to that CPU, where the instruction runs again. Its other threads run anywhere.
#define EC_MSR_MRS 0x18u
// ISS of a trapped MSR/MRS: Op0 [21:20], Op2 [19:17], Op1 [16:14], CRn [13:10], CRm [4:1].
#define ISS_SYSREG(op0, op1, crn, crm) \
    ((uint32_t)(op0) << 20 | (uint32_t)(op1) << 14 | (uint32_t)(crn) << 10 | (uint32_t)(crm) << 1)
#define ISS_SYSREG_MASK ISS_SYSREG(3, 7, 15, 15)
bool arch_fault_retry(struct thread *t)
{
    uint64_t esr = t->ctx.esr;
    unsigned op2 = (unsigned)(esr >> 17) & 7u;
    if (((unsigned)(esr >> 26) & 0x3fu) != EC_MSR_MRS || cpu_id() == A64_DEVTIMER_CPU ||
        !t->proc || t->proc->app->mmio_base != SYSREG_WINDOW_BASE ||
        t->proc->app->mmio_size != SYSREG_WINDOW_SIZE)
        return false;
    // CNTP_TVAL_EL0, CNTP_CTL_EL0, CNTP_CVAL_EL0: op0 3, op1 3, CRn 14, CRm 2, op2 0-2
    if (((uint32_t)esr & ISS_SYSREG_MASK) != ISS_SYSREG(3, 3, 14, 2) || op2 > 2u)
        return false;
    sched_bind_fixed(t, 1u << A64_DEVTIMER_CPU);
    return true;    // (the return address is the trapped instruction: it runs again there)
}
#endif

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

uint32_t arch_thread_sp(const struct thread *t)
{
    return (uint32_t)t->ctx.sp;
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
