// SPDX-License-Identifier: MIT
// The probe block's kernel side (kernel/ktrace_probe.c; trace/kev_probe.h): KTRACE_PROBE,
// the capture's start and end. The tick's test for a reader's flush request is the core's hook
// (ktrace_probe_tick, kernel/ktrace.h).
#ifndef KERNEL_KTRACE_PROBE_H
#define KERNEL_KTRACE_PROBE_H

#include <stdint.h>
#include <trace/kev_probe.h>

struct proc;

int ktrace_probe_call(const struct proc *p, uint32_t op, uint32_t arg);    // KTRACE_PROBE
void ktrace_probe_started(void);    // KTRACE_START: a published capture runs
void ktrace_probe_gone(void);       // the ring is freed: nothing to read

#endif
