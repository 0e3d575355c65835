// SPDX-License-Identifier: MIT
// Totals over the CPUs of the counters each CPU keeps in its struct cpu (kernel/cpu.h), for
// SysInfo (kcall.c): one loop for every counter, in kernel/cpu_sum.c.
#ifndef KERNEL_CPU_SUM_H
#define KERNEL_CPU_SUM_H

#include <stdint.h>

enum cpu_counter {
    CPU_SHARED_KCALLS,          // kernel calls finished in shared mode (kernel/klock.h)
    CPU_RUNQ_TAKES,             // the run-queue lock's contention (KLOCK_STATS kernels only)
    CPU_RUNQ_FOUND_TAKEN,
    CPU_RUNQ_HOLD_CYCLES,
    CPU_IPIS,                   // reschedule IPIs received (KMAX_CPUS > 1)
    CPU_TICKS_SHARED,           // tick periods counted on the shared side (KMAX_CPUS > 1)
};

// The sum of one counter over the CPUs online; 0 for a counter this kernel does not keep
// (the run queue's without KLOCK_STATS).
uint64_t cpu_counter_sum(enum cpu_counter which);

#endif
