// SPDX-License-Identifier: MIT
// A ThreadSleep measured on the generic timer's counter (CNTVCT_EL0, read from EL0 without a
// kernel call: board_clock.h), the clock the kernel's tick is programmed from but whose count
// the kernel does not set: the independent truth for smpstress's sleep checks (st_sleep.c).
#ifndef SMPSTRESS_ST_SLEEP_H
#define SMPSTRESS_ST_SLEEP_H
#include <stdbool.h>
#include <stdint.h>

// What the sleeps of one thread came to. A sleep is early when it ended before the time asked
// had passed, late when it ended more than sleep_bound_cycles() past that.
struct sleep_stats {
    uint32_t n, early, late;
    uint64_t worst;             // counter cycles past the deadline, the most seen
};

// The counter's rate and the kernel's tick period (set once, before any timed_sleep).
void sleep_clock_init(void);
// The lateness allowed a sleep of any length, in counter cycles (st_sleep.c says why).
uint64_t sleep_bound_cycles(void);
uint64_t sleep_tick_ns(void);
uint64_t sleep_cycles_per_sec(void);
// Not 0: each sleep is a pseudo-random 0..999 ns longer (st_sleep.c; smpstress's seed=N).
extern uint32_t sleep_seed;
// ThreadSleep(ns), measured into s.
void timed_sleep(uint64_t ns, struct sleep_stats *s);
// Adds a's counts into sum.
void sleep_stats_add(struct sleep_stats *sum, const struct sleep_stats *a);

#endif
