// SPDX-License-Identifier: MIT
// The per-CPU API: this CPU (this_cpu, cpu_id, k_current: kernel/cpu.h, which this includes),
// every CPU (smp_for_each_cpu), what one CPU asks of another (smp_kick: a reschedule
// interrupt), and the rest of the arch's multiprocessor contract (kernel/arch.h) as portable
// code calls it. On a board with one CPU (KMAX_CPUS 1) KSMP is 0 and every function here is a
// constant or does nothing, so portable code calls them, and tests `if (KSMP)`, with no #if
// of its own: the compiler drops the multiprocessor paths, and the one-CPU kernel is the code
// it would be without them (make bench holds it to its instruction counts).
// Locking: the callers' (kernel/klock.h); nothing here takes a lock.
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <kernel/cpu.h>
#include <kernel/arch.h>
#include <kernel/klock.h>

// 1 on a multiprocessor board: a constant, for `if (KSMP)`.
#define KSMP (KMAX_CPUS > 1)

// The CPUs online: 1 until the others have started, and always on one CPU.
static inline unsigned smp_ncpus(void)
{
    return KSMP ? k_ncpus : 1u;
}

// A spin lock for state every CPU reaches, taken only while more than one CPU runs: until the
// others start, and always on a board of one CPU, this CPU is the only one in the kernel and
// the lock would guard nothing.
static inline void smp_spin_lock(struct kspin *l, unsigned rank)
{
    if (smp_ncpus() > 1)
        kspin_lock(l, rank);
}
static inline void smp_spin_unlock(struct kspin *l, unsigned rank)
{
    if (smp_ncpus() > 1)
        kspin_unlock(l, rank);
}

// Each CPU online, c its id.
#define smp_for_each_cpu(c) for (unsigned c = 0; c < smp_ncpus(); c++)

// A function the multiprocessor kernel inlines always and the one-CPU kernel leaves to the
// compiler, where each was measured the cheaper (kernel/main.c halt_if_done).
#if KMAX_CPUS > 1
#define SMP_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define SMP_ALWAYS_INLINE
#endif

#if KMAX_CPUS > 1
// Kernel entries that took the big-reader lock exclusive (kernel/klock.h); 0 with one CPU.
static inline uint64_t smp_exclusive_entries(void) { return k_klock_exclusive_entries; }
// Interrupts CPU `cpu` so that it enters the kernel and chooses again.
static inline void smp_kick(unsigned cpu) { arch_cpu_kick(cpu); }
// Whether this CPU runs a shared entry of the big-reader lock (kernel/klock.h); entering and
// leaving its shared side (false: a writer holds or waits for it, and this CPU is not in).
static inline bool smp_in_shared(void) { return arch_kernel_in_shared(); }
static inline bool smp_enter_shared(void) { return arch_kernel_enter_shared(); }
static inline void smp_exit_shared(void) { arch_kernel_exit_shared(); }
// Boot: how many CPUs the machine has; start the others, each into its idle thread.
static inline unsigned smp_cpus_present(void) { return arch_cpus_present(); }
static inline void smp_cpus_start(void) { arch_cpus_start(); }
// The periods this CPU's own timer interrupt covers (kernel/arch.h arch_cpu_tick_periods);
// with one CPU the kernel's tick's, `tick_periods`.
static inline unsigned smp_cpu_tick_periods(unsigned tick_periods)
{
    (void)tick_periods;
    return arch_cpu_tick_periods();
}
// The kernel's tick taken on the shared side: the arch's end of the current period moves on.
static inline void smp_tick_claim(unsigned periods) { arch_tick_claim(periods); }
// A CPU's own devices (kernel/arch.h): the CPU whose controller alone enables line irq (-1:
// any), whether a line was raised in software and not taken, a call entered again where its
// thread next runs, a fault that is a touch of another CPU's device (the thread moved there).
static inline int smp_irq_cpu(unsigned irq) { return arch_irq_cpu(irq); }
static inline bool smp_irq_raised(unsigned irq) { return arch_irq_raised(irq); }
static inline void smp_kc_restart(struct thread *t) { arch_kc_restart(t); }
static inline bool smp_fault_retry(struct thread *t) { return arch_fault_retry(t); }
// Whether the table CPU `cpu` returns its threads to opens [base, base + size) to them.
static inline bool smp_mpu_cpu_maps(unsigned cpu, uint32_t base, uint32_t size)
{
    return arch_mpu_cpu_maps(cpu, base, size);
}
#else
static inline uint64_t smp_exclusive_entries(void) { return 0; }
static inline void smp_kick(unsigned cpu) { (void)cpu; }
static inline bool smp_in_shared(void) { return false; }
static inline bool smp_enter_shared(void) { return true; }
static inline void smp_exit_shared(void) { }
static inline unsigned smp_cpus_present(void) { return 1; }
static inline void smp_cpus_start(void) { }
static inline unsigned smp_cpu_tick_periods(unsigned tick_periods) { return tick_periods; }
static inline void smp_tick_claim(unsigned periods) { (void)periods; }
static inline int smp_irq_cpu(unsigned irq) { (void)irq; return -1; }
static inline bool smp_irq_raised(unsigned irq) { (void)irq; return false; }
static inline void smp_kc_restart(struct thread *t) { (void)t; }
static inline bool smp_fault_retry(struct thread *t) { (void)t; return false; }
static inline bool smp_mpu_cpu_maps(unsigned cpu, uint32_t base, uint32_t size)
{
    (void)cpu;
    (void)base;
    (void)size;
    return false;
}
#endif

// Kicks CPU `cpu` unless a kick is on its way already (its `kicked`, cleared when it enters).
static inline void smp_kick_once(unsigned cpu)
{
    struct cpu *c = &k_cpus[cpu];
    if (!c->kicked) {
        c->kicked = true;
        smp_kick(cpu);
    }
}

#endif
