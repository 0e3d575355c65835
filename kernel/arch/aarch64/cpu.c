// SPDX-License-Identifier: MIT
// Processor set-up, AArch64: the boot path to kernel_main (copy .data, clear .bss, exception
// vectors, the MMU), arch_init (the GIC), and the C side of every kernel entry (classifying it
// from ESR_EL1 or the GIC, then the kernel's work and whatever work it left).
#include <kernel/arch.h>
#include <kernel/ktrace.h>
#include <kernel/thread.h>
#include <a64.h>
#include <board_config.h>

extern uint32_t __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];

#define ESR_EC(esr)  ((uint32_t)((esr) >> 26) & 0x3fu)
#define EC_SVC64     0x15u

// Entered from reset_handler at EL1 on the boot stack, MMU off, interrupts masked. Until the
// MMU is on every access is Device memory, so only aligned accesses (-mstrict-align).
_Noreturn void a64_boot(uint64_t boot_el)
{
    uint32_t *s = __data_load, *d = __data_start;
    while (d < __data_end)
        *d++ = *s++;
    for (d = __bss_start; d < __bss_end; d++)
        *d = 0;
    a64_boot_el = boot_el;
    A64_SYSREG_WRITE(vbar_el1, (uint64_t)(uintptr_t)a64_vectors);
    A64_SYSREG_WRITE(tpidr_el1, (uint64_t)(uintptr_t)&k_cpus[0]);  // this CPU (kernel/cpu.h)
    a64_isb();
    a64_mmu_init();
    kernel_main();
}

void arch_init(void)
{
    a64_irq_init();
}

// An exception the kernel never expects (FIQ, an interrupt while the kernel runs, AArch32).
void a64_unexpected(uint64_t kind, uint64_t elr, uint64_t spsr);
void a64_unexpected(uint64_t kind, uint64_t elr, uint64_t spsr)
{
    kpanic("unexpected exception (vector slot %u) elr %lx spsr %lx", (unsigned)kind,
           (unsigned long)elr, (unsigned long)spsr);
}

static unsigned sync_kind(void)
{
    const struct arch_context *c = &k_current->ctx;
    if (ESR_EC(c->esr) == EC_SVC64)
        return KENTRY_CALL;
    if (c->pstate & 0xfu)     // a kernel thread (EL1t) faulted: a kernel bug
        a64_kernel_fault(c->esr, c->pc, c->far, c->pstate);
    return KENTRY_FAULT;
}

// The C side of every kernel entry (entry.S), on the kernel stack with k_current's state
// saved: the kernel's work for this entry, then any work it left (a reschedule request, a
// software-raised line), each as an entry of its own, as on x86.
// With more than one CPU online the whole of it runs under the kernel lock (smp.c).
void a64_kernel_entry(unsigned source)
{
#if KMAX_CPUS > 1
    const bool smp = k_ncpus > 1;
    if (smp)
        a64_kernel_lock();
#endif
    unsigned kind = source == A64_ENTRY_SYNC ? sync_kind() : a64_irq_kind();
    do {
#ifndef KTRACE_DISABLED
        if (ktrace_kernel_on) {
            kernel_entry_traced(kind);
            continue;
        }
#endif
        kernel_entry(kind);
    } while (a64_more_work(&kind));
#if KMAX_CPUS > 1
    if (smp)
        a64_kernel_unlock();
#endif
}
