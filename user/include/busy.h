// SPDX-License-Identifier: MIT
// Work of a known length without a clock read (on the Cortex-M ClockCycles is a kernel call,
// traced): a busy loop calibrated once, and a thread bound to CPU 0, for the analysis programs
// that stage their threads' work on one CPU (cadence, relay, taskedge, auditor, inversion).
// Opt-in (a program's app.mk lists user/lib/busy.c in EXTRA).
#ifndef BUSY_H
#define BUSY_H

#include <stdint.h>

// Binds the calling thread to CPU 0 (ThreadCtl KTCTL_RUNMASK; a no-op on a one-CPU board): 0,
// or -1 (errno).
int busy_on_cpu0(void);
// Turns of busy_spin() a millisecond, from the shortest of a few timed runs (a preemption only
// lengthens one); cps: ClockCyclesPerSec().
uint32_t busy_calibrate(uint32_t cps);
// n turns of the loop; us microseconds of them at loops_per_ms.
void busy_spin(uint32_t n);
void busy_us(uint32_t loops_per_ms, uint32_t us);

#endif
