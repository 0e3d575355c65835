// SPDX-License-Identifier: MIT
// The CPUs a program spreads its threads over: how many the kernel started, and binding the
// calling thread to one of them by a number that wraps, so that a program written for four CPUs
// runs unchanged on fewer. Opt-in (a program's app.mk lists user/lib/cpus.c in EXTRA).
#ifndef CPUS_H
#define CPUS_H

// The CPUs the kernel started (SysInfo KSYSINFO_NCPUS; 1 when it says none). Read at the first
// call and kept: later calls, and cpus_bind's, make no kernel call. Call it first from main,
// before the threads that bind themselves start.
unsigned cpus_count(void);
// Binds the calling thread to CPU cpu % cpus_count() (ThreadCtl KTCTL_RUNMASK): 0, or -1 (errno).
int cpus_bind(unsigned cpu);

#endif
