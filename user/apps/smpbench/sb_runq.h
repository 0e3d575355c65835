// SPDX-License-Identifier: MIT
// smpbench's run-queue lock figures (sb_runq.c), from a KLOCK_STATS kernel's counters.
#ifndef SMPBENCH_SB_RUNQ_H
#define SMPBENCH_SB_RUNQ_H
#include <stdint.h>

struct runq_counts {
    uint64_t takes, found_taken, hold_cycles;
};

void runq_snap(struct runq_counts *c);
void runq_add_since(struct runq_counts *sum, const struct runq_counts *before);
void runq_print(uint32_t npair, const struct runq_counts *sum, uint64_t roundtrips);

#endif
