// SPDX-License-Identifier: MIT
// Processor set-up, AArch64: the boot path to kernel_main (copy .data, clear .bss, exception
// vectors, the MMU), arch_init (the GIC), and the C side of every kernel entry (classifying it
// from ESR_EL1 or the GIC, then the kernel's work and whatever work it left).
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <kernel/smp.h>
#include <a64.h>
#include <a64_intc.h>
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

static inline __attribute__((always_inline)) unsigned sync_kind(void)
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
// With more than one CPU online the whole of it runs under the kernel lock's exclusive side
// (smp.c), except the message fast path, the reschedule IPI and, when no kernel timer is due,
// a CPU's timer interrupt (the tick or its share of it), which run shared (kernel/klock.h;
// entry_shared, entry_irq_shared).
// entry.S calls the untraced or the traced one: its call instruction is rewritten when
// tracing turns on or off (entry_select.c), so the untraced path tests nothing. The work an
// entry left is rare and tests ktrace_kernel_on (kernel_entry_now: tracing may have started),
// and so does an entry that waited for the lock (another CPU may have started it then).

#if KMAX_CPUS > 1
// Interrupts that arrived while an exclusive interrupt entry waited for the lock or ran,
// served under the same hold before it lets go, each an entry of its own, so that the thread is
// returned to only when none is pending. Otherwise each would cost an entry and a wait for the
// lock of its own, and a CPU whose every wait outlasted the tick's quarter-period guard
// (cpu_timer_rearm, counted from the acknowledgement) and saw an interrupt arrive during it
// would go round those entries without running a user instruction (docs/smp.md,
// "Interrupts").
// After interrupt entries only: a kernel call's thread has made its progress, and an
// interrupt that arrived during the call takes the next entry. (Served after calls too, they
// made the two-flooder lossless flood of test_tracelogger.sh lose 2200 to 2700 events in each
// of 4 runs, every one of them ticks; why is not understood yet: docs/smp.md.) Bounded, so
// that a storm cannot keep the lock from the other CPUs: what is left after ARRIVED_MAX takes
// a new entry.
#define ARRIVED_MAX 4u
static __attribute__((noinline)) void serve_arrived(void)
{
    for (unsigned i = 0; i < ARRIVED_MAX && intc_peek() != INTC_NONE; i++) {
        unsigned kind = a64_irq_kind(INTC_NOT_ACKED);
        do
            kernel_entry_now(kind);
        while (a64_more_work(&kind));
    }
}

// An exclusive entry's end, several CPUs online: what arrived meanwhile, then the lock let go.
static inline __attribute__((always_inline)) void exclusive_end(unsigned source)
{
    if (source == A64_ENTRY_IRQ)
        serve_arrived();
    a64_kernel_unlock();
}
#else
static inline void exclusive_end(unsigned source) { (void)source; }
#endif

// `line`: an interrupt's line if the shared side acknowledged it already, else INTC_NOT_ACKED.
static inline __attribute__((always_inline)) void entry_work(unsigned source, int line,
                                                             const bool traced, const bool smp)
{
    unsigned kind = source == A64_ENTRY_SYNC ? sync_kind() : a64_irq_kind(line);
    if (traced)
        kernel_entry_traced(kind);
    else
        kernel_entry(kind);
    while (a64_more_work(&kind))
        kernel_entry_now(kind);
    if (smp)
        exclusive_end(source);
}

#if KMAX_CPUS > 1
// The message fast path first (kernel/kentry_shared.h), for a kernel call; false when the
// entry is to run exclusive. It leaves no work behind: only exclusive entries raise lines or
// ask for a reschedule, and each takes what it raised before it lets go (the loop in
// entry_work), so a64_more_work has nothing for a shared one.
static inline __attribute__((always_inline)) bool entry_shared(unsigned source,
                                                               const bool traced)
{
    if (source != A64_ENTRY_SYNC || ESR_EC(k_current->ctx.esr) != EC_SVC64)
        return false;
    return traced ? KLOCK_SHARED_TRACED && kernel_entry_shared(k_current, KTRACE_HOOKS)
                  : kernel_entry_shared(k_current, false);
}

// An interrupt on the shared side (kernel/kentry_shared.h): a reschedule IPI, this CPU's timer
// (its share of a tick another CPU took, or the kernel's tick with no timer due, counted here:
// irq_timer.c a64_tick_shared; either way its own slice charged; traced, with its events and
// a D program's probes), or a device
// line a process attached as an event (kernel/irq.c irq_shared_ok: not a kernel driver's, its
// process alive, its pulse sure to be queued), each seen from the controller's next answer
// without acknowledging it, so that every other interrupt is acknowledged under the exclusive
// lock (docs/smp.md, "Interrupts"). False when the entry is to run exclusive; *line is then
// what the shared side
// acknowledged (another line came first), or INTC_NOT_ACKED.
static inline __attribute__((always_inline)) bool entry_irq_shared(const bool traced, int *line)
{
    int next = intc_peek();
    struct ktick_span took;                     // (the tick's: what this CPU's claim counted)
    if (next == INTC_IPI) {
        if ((traced && !KLOCK_SHARED_TRACED) || !kentry_choose_shared_begin(k_current, traced))
            return false;
    } else if (next == TICK_IRQ) {
        // Traced too: its events need no lock (kernel/main.c kernel_tick_traced_shared), nor
        // do a D program's probes there (sched:::tick; kernel/kdt_fire.c, LOCKING); an
        // interrupt that is (also) the profile timer's is taken exclusive (a64_tick_shared
        // says so; irq_timer.c).
        if ((traced && !KLOCK_SHARED_TRACED) || !kentry_choose_shared_begin(k_current, traced))
            return false;
        if (!a64_tick_shared(&took)) {          // a timer due: the exclusive tick
            arch_kernel_exit_shared();
            return false;
        }
    } else if (next >= 0 && next != TICK_IRQ) {  // a device line
        if ((traced && !KLOCK_SHARED_TRACED) || !kentry_choose_shared_begin(k_current, traced))
            return false;
        if (!irq_shared_ok(next)) {
            arch_kernel_exit_shared();
            return false;
        }
    } else {
        return false;
    }
    int l = intc_ack();
    if (unlikely(l != next)) {
        arch_kernel_exit_shared();
        *line = l;
        return false;
    }
    if (next == INTC_IPI) {
        this_cpu()->ipis++;
        if (traced)
            ktrace_ipi();
    } else if (next == TICK_IRQ) {
        unsigned periods = a64_cputick_take(); // this CPU's timer re-armed, its periods
        if (traced)
            kernel_tick_traced_shared(&took, periods);  // its events, then its slice
        else
            sched_tick_shared(periods);         // this CPU's slice, under its queue's lock
    } else
        irq_dispatch_shared((unsigned)next);    // its events too, traced (they need no lock)
    kentry_choose_shared_end(k_current, traced);
    return true;
}

// An entry with several CPUs online: the shared side if it can take it, else the exclusive.
static inline __attribute__((always_inline)) void entry_smp(unsigned source, const bool traced)
{
    if (KTRACE_HOOKS && traced)
        kuring_drain_unlocked(k_current);  // the thread's own ring: no kernel lock (kuring.c)
    int line = INTC_NOT_ACKED;
    if (source == A64_ENTRY_IRQ ? entry_irq_shared(traced && KTRACE_HOOKS, &line)
                                : entry_shared(source, traced))
        return;
    a64_kernel_lock();
    if (KTRACE_HOOKS && (traced || ktrace_kernel_on))
        entry_work(source, line, KTRACE_HOOKS, true);
    else
        entry_work(source, line, false, true);
}
#else
static inline void entry_smp(unsigned source, const bool traced) { (void)source, (void)traced; }
#endif

static inline __attribute__((always_inline)) void entry_body(unsigned source, const bool traced)
{
    if (KSMP && k_ncpus > 1) {
        entry_smp(source, traced);
        return;
    }
    entry_work(source, INTC_NOT_ACKED, traced, false);
}

void a64_kernel_entry(unsigned source)
{
    entry_body(source, false);
}

void a64_kernel_entry_traced(unsigned source)
{
    entry_body(source, KTRACE_HOOKS);
}
