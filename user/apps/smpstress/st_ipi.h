// SPDX-License-Identifier: MIT
// smpstress's check that a thread made ready for an idle CPU is woken by the reschedule IPI,
// not by that CPU's next timer interrupt (st_ipi.c; part c of the wake-up test, st_wake.c).
#ifndef SMPSTRESS_ST_IPI_H
#define SMPSTRESS_ST_IPI_H
#include <stdbool.h>
#include <stdint.h>

struct ipi_result {
    uint32_t legs, late, bad;   // wake-ups measured, over the bound, not the pulse expected
    uint64_t worst;             // counter cycles from the send to the wake-up, the most seen
    uint64_t bound;             // the bound, counter cycles
};

// Pulses back and forth between a thread on CPU 0 and one on CPU ncpu-1, each CPU idle (WFI)
// while it waits: every leg is measured on the generic timer's counter.
void ipi_pingpong(uint32_t ncpu, struct ipi_result *r);

#endif
