// SPDX-License-Identifier: MIT
// smpbench's run-queue lock figures for `smpbench pairs`, from a kernel built with its counters
// (make KLOCK_STATS=1: build/<board>-klockstats; scripts/bench-runq.sh runs it). The evidence for
// the one global ready queue under one lock (docs/smp.md): how often a CPU finds the lock held
// by another, and how long it is held. Printed only when the kernel counts (SysInfo gives 0
// otherwise), per n pairs:
//   smp_runq_takes_per_1000_roundtrips_<n>pair   takes of the lock in shared mode;
//   smp_runq_found_taken_per_1000_takes_<n>pair  of them, those that found it held;
//   smp_runq_hold_ns_per_take_<n>pair  the mean time from a take to its release, in nanoseconds
//       of the counter (under -icount shift=0 a virtual nanosecond is an instruction: the hold
//       in instructions; on the host's clock, host time).
#include <kern.h>
#include <stdio.h>
#include "sb_pairs.h"
#include "sb_runq.h"

void runq_snap(struct runq_counts *c)
{
    c->takes = sysinfo(KSYSINFO_RUNQ_TAKES);
    c->found_taken = sysinfo(KSYSINFO_RUNQ_FOUND_TAKEN);
    c->hold_cycles = sysinfo(KSYSINFO_RUNQ_HOLD_CYCLES);
}

void runq_add_since(struct runq_counts *sum, const struct runq_counts *before)
{
    struct runq_counts now;
    runq_snap(&now);
    sum->takes += (uint32_t)(now.takes - before->takes);    // (modulo 2^32)
    sum->found_taken += (uint32_t)(now.found_taken - before->found_taken);
    sum->hold_cycles += (uint32_t)(now.hold_cycles - before->hold_cycles);
}

void runq_print(uint32_t npair, const struct runq_counts *sum, uint64_t roundtrips)
{
    if (!sum->takes)
        return;     // a kernel without the counters
    uint64_t hz = ClockCyclesPerSec();
    printf("BENCH smp_runq_takes_per_1000_roundtrips_%lupair %lu takes\n", (unsigned long)npair,
           (unsigned long)((sum->takes * 1000ull + roundtrips / 2) / roundtrips));
    printf("BENCH smp_runq_found_taken_per_1000_takes_%lupair %lu takes\n", (unsigned long)npair,
           (unsigned long)((sum->found_taken * 1000ull + sum->takes / 2) / sum->takes));
    printf("BENCH smp_runq_hold_ns_per_take_%lupair %lu ns\n", (unsigned long)npair,
           (unsigned long)((uint64_t)sum->hold_cycles * 1000000000ull / hz / sum->takes));
}
