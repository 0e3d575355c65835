// SPDX-License-Identifier: MIT
// Totals over the CPUs of their own counters (kernel/cpu_sum.h), for SysInfo.
// LOCKING: none. Each CPU adds to its own counters only (kernel/cpu.h); a total read while the
// others count is each CPU's value at some moment of the read, which is what SysInfo's callers
// take differences of (smpbench). With one CPU (KMAX_CPUS 1) there is no shared mode and no
// run-queue lock: the counters of those stay 0, and so do their sums.
#include <kernel/cpu.h>
#include <kernel/cpu_sum.h>

static uint64_t counter_of(const struct cpu *c, enum cpu_counter which)
{
    switch (which) {
    case CPU_SHARED_KCALLS:    return c->shared_kcalls;
    case CPU_IPIS:             return c->ipis;
    case CPU_TICKS_SHARED:     return cpu_ticks_shared(c);
#ifdef KLOCK_STATS
    case CPU_RUNQ_TAKES:       return c->runq_takes;
    case CPU_RUNQ_FOUND_TAKEN: return c->runq_found_taken;
    case CPU_RUNQ_HOLD_CYCLES: return c->runq_hold_cycles;
#endif
    default:                   return 0;    // not kept by this kernel
    }
}

uint64_t cpu_counter_sum(enum cpu_counter which)
{
    uint64_t sum = 0;
    for (unsigned i = 0; i < k_ncpus; i++)
        sum += counter_of(&k_cpus[i], which);
    return sum;
}
