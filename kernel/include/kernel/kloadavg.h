// SPDX-License-Identifier: MIT
// The load average, Solaris's avenrun (kernel/kloadavg.c).
#ifndef KERNEL_KLOADAVG_H
#define KERNEL_KLOADAVG_H

#include <stdint.h>

// The 1, 5 and 15-minute averages of the threads running or ready, in 1/256ths. Read by D as
// `avenrun[i]; written only by kloadavg_tick. hp_avenrun: the same in 65536ths (Solaris's
// high-precision `hp_avenrun[i]).
extern uint32_t avenrun[3];
extern uint32_t hp_avenrun[3];

// k_ticks of the next sample, and the samples of every second up to `ticks` (kloadavg.c).
extern uint64_t kloadavg_due;
void kloadavg_seconds(uint64_t ticks);

// k_ticks moved to `ticks`: a sample for each second of ticks it crossed. The tick's
// (exclusive, or shared under the timer list's lock): one compare unless a second passed.
static inline void kloadavg_tick(uint64_t ticks)
{
    if (__builtin_expect(ticks >= kloadavg_due, 0))
        kloadavg_seconds(ticks);
}

#endif
