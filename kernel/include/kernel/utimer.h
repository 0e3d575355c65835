// SPDX-License-Identifier: MIT
// User timers: TimerCreate/TimerSettime/TimerDestroy. On expiry a timer sends a pulse through
// one of its process's connections; a periodic timer re-arms itself from its own deadline, so
// it does not drift.
#ifndef KERNEL_UTIMER_H
#define KERNEL_UTIMER_H

#include <kernel/kernel.h>

struct proc;

void utimer_init(void);
// The pulse goes out at `prio` (the creating thread's priority).
int utimer_create(struct proc *p, int prio, int coid, int32_t code, int32_t value);
// first_us == 0 disarms; interval_us == 0 makes it one-shot.
int utimer_settime(struct proc *p, int id, uint32_t first_us, uint32_t interval_us);
int utimer_destroy(struct proc *p, int id);
void utimer_proc_gone(struct proc *p);

extern uint64_t k_timer_fires;
// Periodic firings skipped because a late tick jumped past them (utimer.c).
extern uint32_t k_timer_overruns;

#endif
